"""The guided search's leaf values: the guide's value head (its value path alone, equal
to ``predict_values``), every seat valued at its own next decision, mixed with the
rollout by ``leaf``, and the settings that cannot work refused."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
import torch
from random_games import states

import jungle_envs
from jungle_envs.core.game import TERMINAL
from jungle_envs.core.policies import make_policy
from jungle_envs.maskable_ppo import MaskablePPOPolicy
from jungle_envs.search import MCTS, MCTSPolicy
from jungle_envs.search.leaf import LeafValues
from jungle_envs.search.worlds import TwinWorld, make_world
from jungle_envs.value_head import value_head

AGENTS = "jungle_envs/agents"
# shipped agents trained on the win reward: a flat MLP (Tropic Race) and move-scoring ones
WIN_GUIDES = {"TropicRace": "flat", "JungleSweep": "moves", "SpankTheMonkey": "moves"}


def decisions(game, seed: int, every: int = 1):
    """(state, seat) at every ``every``-th decision with a choice of a random game."""
    count = 0
    for state in states(game, seed):
        player = game.current_player(state)
        if player >= 0 and game.legal_mask(state).sum() > 1:
            count += 1
            if count % every == 0:
                yield state.copy(), player


def guide_and_game(name: str, players: int = 4):
    game = jungle_envs.make_game(name, players)
    guide = make_policy("ppo", game)
    return guide, game, getattr(guide, "observation_game", None) or game


def observations(name: str, count: int = 24) -> tuple[np.ndarray, np.ndarray]:
    _guide, game, seen = guide_and_game(name)
    rows, masks = [], []
    for state, seat in decisions(game, seed=2, every=2):
        rows.append(seen.observe(state, seat))
        masks.append(game.legal_mask(state))
        if len(rows) == count:
            break
    return np.array(rows), np.array(masks)


def pytorch_values(policy, rows: np.ndarray) -> np.ndarray:
    tensor, _ = policy.obs_to_tensor(rows)
    with torch.no_grad():
        return policy.predict_values(tensor).numpy().ravel()


@pytest.mark.parametrize("name", sorted(WIN_GUIDES))
def test_the_lean_value_path_equals_predict_values(name):
    rows, masks = observations(name)
    guide = MaskablePPOPolicy(f"{AGENTS}/{name}-4p.zip")
    assert value_head(guide.model.policy) is not None
    values = guide.values(rows, masks)
    assert values.shape == (len(rows),)
    assert np.ptp(values) > 0  # the states differ, and so do their values
    np.testing.assert_allclose(values, pytorch_values(guide.model.policy, rows), atol=1e-5)


def test_the_lean_value_path_follows_a_training_step():
    """An optimizer changes the parameters in place: the next call reads them again."""
    rows, masks = observations("JungleSweep")
    guide = MaskablePPOPolicy(f"{AGENTS}/JungleSweep-4p.zip")
    before = guide.values(rows, masks)
    with torch.no_grad():
        guide.model.policy.value_net.bias.add_(0.25)
    after = guide.values(rows, masks)
    np.testing.assert_allclose(after, before + 0.25, atol=1e-5)
    np.testing.assert_allclose(after, pytorch_values(guide.model.policy, rows), atol=1e-5)


def test_a_dict_observation_model_keeps_predict_values():
    class DictSpace:
        spaces = {"observation": None}

    class Policy:
        observation_space = DictSpace()

    assert value_head(Policy()) is None


class RecordingGuide:
    """A guide that values every observation ``value`` and records what it was shown."""

    def __init__(self, game, value: float = 0.3) -> None:
        self.observation_game = game
        self.trained_on = {"env_options": {"reward": "win"}}
        self.value, self.shown = value, []

    def probabilities(self, observation, action_mask):
        return np.where(action_mask, 1.0 / action_mask.sum(), 0.0)

    def values(self, observations, action_masks):
        self.shown.append((np.array(observations), np.array(action_masks)))
        return np.full(len(observations), self.value)


@pytest.mark.parametrize("engine", ["compiled", "reference"])
@pytest.mark.parametrize("name", sorted(jungle_envs.core.registry.GAMES))
def test_each_seat_is_valued_at_its_own_next_decision(name, engine):
    """With ``leaf=1`` a new node is worth the guide's value to every seat that reaches a
    decision with a choice (each shown its own observation once, with its legal mask),
    and its final value to a seat the game ends before."""
    game = jungle_envs.make_game(name, 4)
    guide = RecordingGuide(game)
    world = make_world(game, "heuristic", engine)
    leaf = LeafValues(world, guide, game, "returns")
    checked = 0
    for i, (state, _seat) in enumerate(decisions(game, seed=5, every=3)):
        action = int(np.flatnonzero(game.legal_mask(state))[i % game.legal_mask(state).sum()])
        guide.shown.clear()
        values = leaf.evaluate(world.load(state), action, np.random.default_rng(i), 1.0)
        shown = guide.shown[0] if guide.shown else (np.zeros((0,)), np.zeros((0, 1)))
        assert len(shown[0]) <= 4
        assert all(mask.sum() > 1 for mask in shown[1])
        assert values.shape == (4,)
        assert np.count_nonzero(np.isclose(values, 0.3)) >= len(shown[0])
        checked += len(shown[0]) == 4
        if checked >= 3:
            break
    assert checked >= 3


@pytest.mark.parametrize("name", ["JungleSweep", "SpankTheMonkey", "ElephantFestival"])
def test_the_guides_observations_on_the_search_rows_are_the_rules_engines(name):
    """The search plays on rows of the env's game; a guide trained with move features
    observes them through a twin of its own game, and sees what the rules engine shows."""
    game = jungle_envs.make_game(name, 4)
    seen = jungle_envs.make_game(name, 4, move_features=True)
    world = TwinWorld(game, "heuristic")
    leaf = LeafValues(world, RecordingGuide(seen), seen, "returns")
    for count, (state, seat) in enumerate(decisions(game, seed=8, every=4)):
        found = leaf.observe(world.load(state), seat)
        np.testing.assert_array_equal(found, seen.observe(state, seat))
        if count == 5:
            break


def test_mixing_weights_the_guide_against_the_rollout():
    """``leaf=L``: L x the guide's value + (1 - L) x the rollout's, on the same dice."""
    game = jungle_envs.make_game("TropicRace", 4)
    state, _seat = next(decisions(game, seed=3, every=2))
    action = int(np.flatnonzero(game.legal_mask(state))[0])
    world = make_world(game, "heuristic", "compiled")
    value = {}
    for mix in (0.0, 0.25, 1.0):
        leaf = LeafValues(world, RecordingGuide(game, value=0.5), game, "returns")
        value[mix] = leaf.evaluate(world.load(state), action, np.random.default_rng(1), mix)
    assert set(np.round(value[1.0], 9)) <= {0.5, -1.0, 0.0, 1.0}
    np.testing.assert_allclose(value[0.25], 0.25 * value[1.0] + 0.75 * value[0.0])


@pytest.mark.parametrize("name", sorted(WIN_GUIDES))
def test_a_search_with_leaf_values_plays_whole_games_reproducibly(name):
    env = gym.make(f"jungle_envs/{name}-v0", num_players=4, opponents="mcts+ppo:10:leaf=0.5")
    trajectories = []
    for _ in range(2):
        obs, info = env.reset(seed=4)
        rng, done, trajectory = np.random.default_rng(4), False, [obs]
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, terminated, truncated, info = env.step(action)
            trajectory += [action, obs, reward]
            done = terminated or truncated
        assert "winners" in info
        trajectories.append(trajectory)
    assert len(trajectories[0]) == len(trajectories[1])
    for a, b in zip(*trajectories, strict=True):
        assert np.array_equal(a, b)


def test_the_guides_values_change_the_search():
    """At some decisions the search with the guide's values alone picks another move
    than the same search with rollouts alone."""
    guide, game, _ = guide_and_game("TropicRace")
    changed = 0
    for i, (state, seat) in enumerate(decisions(game, seed=11, every=2)):
        mask = game.legal_mask(state)
        picks = {
            mix: MCTSPolicy(game, MCTS(simulations=40, guide=guide, prior=0.0, leaf=mix)).act_state(
                state, seat, mask, np.random.default_rng(i)
            )
            for mix in (0.0, 1.0)
        }
        changed += picks[0.0] != picks[1.0]
        if i == 11:
            break
    assert changed >= 1


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"leaf": 0.5}, "give a guide"),
        ({"leaf": 1.5, "guide": "ppo"}, "leaf must be a number from 0 to 1"),
        ({"leaf": -0.1, "guide": "ppo"}, "leaf must be a number from 0 to 1"),
        ({"leaf": float("nan"), "guide": "ppo"}, "leaf must be a number from 0 to 1"),
    ],
)
def test_bad_leaf_settings_are_refused(settings, message):
    with pytest.raises(ValueError, match=message):
        MCTS(**settings)


def test_a_guide_trained_on_points_cannot_value_leaves():
    game = jungle_envs.make_game("ElephantFestival", 4)  # its agent: reward="margin"
    with pytest.raises(ValueError, match="trained on reward='margin'"):
        MCTS.from_name("mcts+ppo:50:leaf=0.5").for_game(game)
    assert MCTS.from_name("mcts+ppo:50").for_game(game).leaf_values is None


def test_leaf_values_must_use_the_guides_value():
    game = jungle_envs.make_game("JungleSweep", 4)  # its agent: reward="win" (returns)
    with pytest.raises(ValueError, match="estimates value='returns'"):
        MCTS.from_name("mcts+ppo:50:leaf=0.5:value=rank").for_game(game)
    search = MCTS.from_name("mcts+ppo:50:leaf=0.5").for_game(game)
    assert search.value == "returns"
    assert MCTS.from_name("mcts+ppo:50").for_game(game).value == "blend"
    with pytest.raises(ValueError, match="value must be one of"):
        MCTS.from_name("mcts:50:value=points")


@pytest.mark.parametrize("name", sorted(jungle_envs.core.registry.GAMES))
def test_the_walk_with_no_seat_waiting_is_a_rollout(name):
    """The walk (the all-seat batch's ``advance_to_caller``) plays as ``playout`` does, on
    the same streams: with no seat to stop for it ends the same game in the same state."""
    game = jungle_envs.make_game(name, 4)
    world = TwinWorld(game, "heuristic")
    twin, nobody = world.twin, np.zeros(4, dtype=np.int8)
    for i, (state, _seat) in enumerate(decisions(game, seed=12, every=5)):
        streams = np.array([7 + i, 1000 + i], dtype=np.uint64)
        walked, rolled = twin.pack(state), twin.pack(state)
        assert twin.advance_to_caller(walked, streams.copy(), world.kinds) == TERMINAL
        returns, scores = twin.playout(rolled, streams.copy(), world.kinds)
        np.testing.assert_array_equal(walked, rolled)
        assert twin.returns(walked) == returns.tolist()
        assert twin.scores(walked) == scores.tolist()
        assert world.advance(twin.pack(state), -1, nobody, np.random.default_rng(i)) == TERMINAL
        if i == 3:
            break


@pytest.mark.parametrize("engine", ["compiled", "reference"])
@pytest.mark.parametrize("name", sorted(jungle_envs.core.registry.GAMES))
def test_the_walk_stops_at_a_waiting_seats_choice(name, engine):
    game = jungle_envs.make_game(name, 4)
    world = make_world(game, "heuristic", engine)
    rng = np.random.default_rng(0)
    stops = 0
    for i, (state, seat) in enumerate(decisions(game, seed=13, every=4)):
        here = world.load(state)
        everyone = np.ones(4, dtype=np.int8)
        assert world.advance(here, -1, everyone, rng) == seat  # already at a choice
        np.testing.assert_array_equal(np.asarray(world.legal(here)), game.legal_actions(state))
        waiting = np.zeros(4, dtype=np.int8)
        waiting[(seat + 1 + i) % 4] = 1
        action = int(game.legal_actions(state)[0])
        found = world.advance(here, action, waiting, rng)
        if found != TERMINAL:
            assert waiting[found] == 1
            assert world.player(here) == found
            assert len(world.legal(here)) > 1
            stops += 1
        if i == 6:
            break
    assert stops >= 3
