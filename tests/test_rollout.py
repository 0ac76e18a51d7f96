"""The rollout-improved heuristic (``rollout``): paired playouts of every legal move, the
heuristic's move kept unless another one beats it clearly, blind to what its seat cannot
see, and usable wherever a policy is."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from spank_positions import position
from test_mcts import assert_plays_again_alike, decisions

import jungle_envs
from jungle_envs.core.policies import make_policy
from jungle_envs.games.spank_the_monkey.tables import ACTIONS, SPANK
from jungle_envs.search import Rollout, RolloutPolicy

GAMES = sorted(jungle_envs.core.registry.GAMES)
SMALL = Rollout(rollouts=6, determinizations=3)


class NeverSpanks:
    """A base policy that never spanks the monkey: the first legal move that is not it."""

    uses_observation = False

    def act(self, observation, action_mask, rng):
        legal = [a for a in np.flatnonzero(action_mask) if a != ACTIONS.spank]
        return int(legal[0])


# The rules engine plays every rollout in Python: two of the games keep the test short.
@pytest.mark.parametrize(
    ("name", "engine"),
    [*((name, "compiled") for name in GAMES), ("JungleSweep", "reference"),
     ("TropicRace", "reference")],
)  # fmt: skip
def test_rollout_opponents_play_whole_games_legally_and_reproducibly(name, engine):
    env = gym.make(
        f"jungle_envs/{name}-v0",
        num_players=3,
        opponents=Rollout(4, determinizations=2, engine=engine),
    )
    assert_plays_again_alike(env, seed=11)


@pytest.mark.parametrize("name", GAMES)
def test_the_move_is_the_heuristics_unless_a_better_one_clears_z(name):
    game = jungle_envs.make_game(name, 4)
    strict, loose = RolloutPolicy(game, Rollout(8, z=1e9)), RolloutPolicy(game, Rollout(8, z=0))
    for i, (state, seat) in enumerate(decisions(game, seed=4)):
        if i % 6 or i > 120:
            continue
        mask = game.legal_mask(state)
        base = strict.heuristic_move(state, seat, mask, np.random.default_rng(i))
        # no move beats the heuristic's by a billion standard errors
        assert strict.act_state(state, seat, mask, np.random.default_rng(i)) == base
        assert not strict.overruled and strict.visits[base] == 1 == strict.visits.sum()
        move = loose.act_state(state, seat, mask, np.random.default_rng(i))
        values = loose.values
        assert mask[move] and np.isnan(values[~mask]).all() and np.isfinite(values[mask]).all()
        # with z = 0 any move whose mean beats the heuristic's (and is the best) is played
        top = np.nanmax(values)
        if move != base:  # the best move, played only when it beats the heuristic's
            assert values[move] == top and top > values[base] - 1e-9
        elif top > values[base] + 1e-9:  # (within rounding: equal means may differ by it)
            raise AssertionError(f"move {int(np.nanargmax(values))} beats the heuristic's")
        assert loose.overruled == (move != base)


def test_every_move_is_played_out_on_the_same_luck():
    """Rollout k of every move plays from the same world and seed: the same move twice
    gives the same returns, rollout by rollout, while the rollouts differ from each other."""
    game = jungle_envs.make_game("TropicRace", 4)
    policy = RolloutPolicy(game, Rollout(rollouts=30, determinizations=4))
    state, seat = next(decisions(game, seed=9))
    twice = np.repeat(game.legal_actions(state)[:1], 2)
    values = policy.move_values(state, seat, twice, np.random.default_rng(0))
    assert np.array_equal(values[0], values[1]) and len(set(values[0].tolist())) > 1


def test_rollouts_overrule_a_base_move_that_throws_the_game_away():
    """The tower can spank the monkey and win; a base policy that never spanks is overruled
    by the rollouts, and kept when z asks for more than any evidence."""
    game, state = position(
        {0: ["Anvil"]}, {0: ["Totem Pole", "Dinosaur Skeleton", "Piano", "Surfboard"]}, phase=SPANK
    )
    mask = game.legal_mask(state)
    assert mask[ACTIONS.spank] and mask.sum() > 1
    policy = RolloutPolicy(game, Rollout(rollouts=40))
    policy.heuristic = NeverSpanks()
    assert policy.act_state(state, 0, mask, np.random.default_rng(0)) == ACTIONS.spank
    assert policy.overruled
    stubborn = RolloutPolicy(game, Rollout(rollouts=40, z=1e9))
    stubborn.heuristic = NeverSpanks()
    assert stubborn.act_state(state, 0, mask, np.random.default_rng(0)) != ACTIONS.spank


def test_a_single_legal_move_is_played_without_rollouts():
    game = jungle_envs.make_game("JungleSweep", 4)
    state, seat = next(decisions(game, seed=0))
    only = np.zeros_like(game.legal_mask(state))
    only[game.legal_actions(state)[-1]] = True
    policy = RolloutPolicy(game, SMALL)
    assert policy.act_state(state, seat, only, np.random.default_rng(0)) == int(only.argmax())
    assert np.isnan(policy.values).all() and policy.visits.sum() == 1


def test_settings_by_name_reach_the_policy():
    game = jungle_envs.make_game("JungleSweep", 4)
    policy = make_policy("rollout:40:z=1.5:determinizations=4", game)
    assert isinstance(policy, RolloutPolicy)
    assert policy.settings == Rollout(rollouts=40, z=1.5, determinizations=4)
    assert make_policy("rollout", game).settings == Rollout()
    with pytest.raises(TypeError, match="from the game state"):
        policy.act(None, game.legal_mask(game.new_state()), np.random.default_rng(0))


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("rollout:x", "a number of rollouts per move"),
        ("rollout:1", "rollouts must be an integer >= 2"),
        ("rollout:40:value=score", "value must be one of"),
        ("rollout:40:z=-1", "z must be a number >= 0"),
        ("rollout:40:z=nan", "z must be a number >= 0"),
        ("rollout:40:prior=1", "unknown setting 'prior'"),
        ("rollout:40:determinizations=0", "determinizations must be an integer >= 1"),
        ("rollout:40:50", "is not rollout"),
    ],
)
def test_bad_names_are_refused(name, message):
    game = jungle_envs.make_game("JungleSweep", 4)
    with pytest.raises(ValueError, match=message):
        make_policy(name, game)
    with pytest.raises(ValueError, match=message):
        gym.make("jungle_envs/JungleSweep-v0", opponents=name)
