"""The IS-MCTS opponent: legal, within budget, reproducible, blind to what its seat cannot
see, and usable wherever a policy is."""

from __future__ import annotations

from dataclasses import replace

import gymnasium as gym
import numpy as np
import pytest
from spank_positions import position

import jungle_envs
from jungle_envs.core.game import CHANCE, TERMINAL
from jungle_envs.core.policies import make_policy
from jungle_envs.evaluation import evaluate, play_game
from jungle_envs.games.spank_the_monkey.tables import ACTIONS, SPANK
from jungle_envs.search import MCTS, MCTSPolicy, Rollout

GAMES = sorted(jungle_envs.core.registry.GAMES)
SMALL = MCTS(simulations=12, determinizations=3)


def decisions(game, seed: int):
    """(state, seat) at the decisions of a masked-random game with a real choice."""
    rng = np.random.default_rng(seed)
    state = game.new_state()
    while (player := game.current_player(state)) != TERMINAL:
        if player == CHANCE:
            game.apply_chance(state, game.sample_chance(state, rng))
            continue
        if game.legal_mask(state).sum() > 1:
            yield state.copy(), player
        game.apply_action(state, int(rng.choice(game.legal_actions(state))))


def play(env, seed):
    """A masked-random learner against the env's opponents; the trajectory."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    trajectory, done = [obs], False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        trajectory += [action, obs, reward]
        done = terminated or truncated
    return trajectory, info


def assert_plays_again_alike(env, seed: int) -> None:
    """A whole game against the env's opponents ends with its winners, and the same seed
    plays the same game again (illegal opponent moves raise in the env, so it was legal)."""
    first, info = play(env, seed=seed)
    assert "winners" in info
    again, _ = play(env, seed=seed)
    assert len(first) == len(again)
    for a, b in zip(first, again, strict=True):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("engine", ["compiled", "reference"])
@pytest.mark.parametrize("name", GAMES)
def test_mcts_opponents_play_whole_games_legally_and_reproducibly(name, engine):
    """Illegal choices raise in the env (OpponentError), so a finished game is a legal one;
    the same seed gives the same game, the opponents' searches included."""
    env_id = f"jungle_envs/{name}-v0"
    assert_plays_again_alike(gym.make(env_id, num_players=3, opponents=SMALL, engine=engine), 7)


@pytest.mark.parametrize("name", GAMES)
def test_mcts_picks_legal_actions_within_its_simulation_budget(name):
    game = jungle_envs.make_game(name, 4)
    policy = MCTSPolicy(game, SMALL)
    rng = np.random.default_rng(0)
    for i, (state, seat) in enumerate(decisions(game, seed=1)):
        if i % 5:
            continue
        mask = game.legal_mask(state)
        action = policy.act_state(state, seat, mask, rng)
        assert mask[action]
        assert policy.last["simulations"] == SMALL.simulations
        # every simulation passes through one root child; the move is the most visited
        visits = policy.visits
        assert visits.sum() == SMALL.simulations and (visits[~mask] == 0).all()
        assert visits[action] == visits.max()


def test_a_single_legal_action_is_played_without_a_search():
    game = jungle_envs.make_game("TropicRace", 2)
    state, seat = next(decisions(game, seed=0))
    only = np.zeros_like(game.legal_mask(state))
    only[game.legal_actions(state)[0]] = True
    policy = MCTSPolicy(game, SMALL)
    assert policy.act_state(state, seat, only, np.random.default_rng(0)) == int(only.argmax())
    assert policy.last["simulations"] == 0
    assert policy.visits.sum() == 1 and policy.visits[only.argmax()] == 1


def test_a_time_budget_stops_the_search():
    game = jungle_envs.make_game("JungleSweep", 4)
    state, seat = next(decisions(game, seed=2))
    policy = MCTSPolicy(game, MCTS(simulations=None, seconds=0.05))
    action = policy.act_state(state, seat, game.legal_mask(state), np.random.default_rng(0))
    assert game.legal_mask(state)[action]
    assert policy.last["simulations"] >= 1
    # the clock is read between simulations: one simulation may run past it, not more
    assert policy.last["seconds"] < 0.05 + 1.0
    both = MCTSPolicy(game, MCTS(simulations=5, seconds=60.0))
    both.act_state(state, seat, game.legal_mask(state), np.random.default_rng(0))
    assert both.last["simulations"] == 5  # whichever budget runs out first


@pytest.mark.parametrize("settings", [SMALL, Rollout(rollouts=6, determinizations=3)])
@pytest.mark.parametrize("name", ["JungleSweep", "SpankTheMonkey"])
def test_the_search_sees_only_what_its_seat_may_know(name, settings):
    """A state and a resample of it look alike to the seat: the search (and the rollout
    policy) must choose alike."""
    game = jungle_envs.make_game(name, 3)
    policy = settings.for_game(game)
    checked = 0
    for i, (state, seat) in enumerate(decisions(game, seed=3)):
        if i % 4:
            continue
        other = game.resample(state, seat, np.random.default_rng(100 + i))
        mask = game.legal_mask(state)
        assert np.array_equal(mask, game.legal_mask(other))
        a = policy.act_state(state, seat, mask, np.random.default_rng(i))
        seen = policy.visits.copy()  # the root's visits, or the rollout policy's move
        b = policy.act_state(other, seat, mask, np.random.default_rng(i))
        assert a == b and np.array_equal(seen, policy.visits)
        checked += other != state
    assert checked > 0  # some pairs did differ in what the seat cannot see


def test_mcts_spanks_the_monkey_when_it_can():
    game, state = position(
        {0: ["Anvil"]}, {0: ["Totem Pole", "Dinosaur Skeleton", "Piano", "Surfboard"]}, phase=SPANK
    )
    policy = MCTSPolicy(game, MCTS(simulations=40))
    mask = game.legal_mask(state)
    assert mask.sum() > 1
    assert policy.act_state(state, 0, mask, np.random.default_rng(0)) == ACTIONS.spank


@pytest.mark.parametrize("name", GAMES)
def test_a_strong_prior_keeps_the_search_on_the_rollout_policys_move(name):
    """The progressive bias: with a prior far above any value difference the most visited
    move is the heuristic's (which reads only the seat's own view, so a resample of the
    state gives the same move); with none the search is free to leave it."""
    game = jungle_envs.make_game(name, 4)
    strong = MCTSPolicy(game, MCTS(simulations=120, determinizations=2, prior=1e6))
    heuristic = make_policy("heuristic", game)
    checked = 0
    for i, (state, seat) in enumerate(decisions(game, seed=5)):
        if i % 3:
            continue
        mask = game.legal_mask(state)
        if mask.sum() > 60:  # every move is tried once before the bias can tell
            continue
        expected = heuristic.act(game.observe(state, seat), mask, np.random.default_rng(0))
        assert strong.act_state(state, seat, mask, np.random.default_rng(i)) == expected
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize(
    "spec",
    ["mcts", "mcts:30", "mcts:0.01s", "mcts:30:random", MCTS(simulations=30, value="returns")],
)
def test_mcts_by_name_or_settings_in_every_player_loop(spec):
    game = jungle_envs.make_game("TropicRace", 2)
    policy = make_policy(spec, game)
    assert isinstance(policy, MCTSPolicy)
    if isinstance(spec, str) and spec.count(":") == 2:
        assert policy.settings.rollout == "random"
    # the rules-engine loop (tournaments, ladder) and the evaluation loop (agent seat)
    assert play_game(game, [policy, make_policy("heuristic", game)], seed=0) is not None
    result = evaluate("jungle_envs/TropicRace-v0", spec, "random", games=2, num_players=2)
    assert result.games == 2 and result.illegal_actions == 0


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"simulations": 0}, "simulations must be an integer >= 1"),
        ({"simulations": 2.5}, "simulations must be an integer >= 1"),
        ({"seconds": -1}, "seconds must be a number > 0"),
        ({"simulations": None}, "give a budget"),
        ({"determinizations": 0}, "determinizations must be an integer >= 1"),
        ({"rollout": "greedy"}, "rollout must be one of heuristic, random"),
        ({"value": "score"}, "value must be one of returns, rank, blend"),
        ({"engine": "gpu"}, "engine must be one of auto, compiled, reference"),
        ({"exploration": -0.1}, "exploration must be a number >= 0"),
        ({"prior": -1}, "prior must be a number >= 0"),
        ({"prior": float("nan")}, "prior must be a number >= 0"),
    ],
)
def test_bad_settings_are_refused_by_name(settings, message):
    with pytest.raises(ValueError, match=message):
        MCTS(**settings)


@pytest.mark.parametrize(
    "name",
    [
        "mcts:",
        "mcts:x",
        "mcts:1:2:3",
        "mcts:0",
        "mcts:-1s",
        "mcts+ppo:x",
        "mcts+foo:9",
        "mcts:30:prior=-1",
        "mcts:30:prior=x",
        "mcts:30:depth=3",
        "mcts:30:determinizations=1.5",
    ],
)
def test_bad_names_are_refused(name):
    game = jungle_envs.make_game("TropicRace", 2)
    with pytest.raises(ValueError, match="mcts"):
        make_policy(name, game)


def test_settings_by_name_reach_the_search():
    game = jungle_envs.make_game("TropicRace", 2)
    policy = make_policy("mcts:40:random:prior=0:exploration=1.5:determinizations=3", game)
    assert policy.settings == MCTS(
        simulations=40, rollout="random", prior=0.0, exploration=1.5, determinizations=3
    )
    assert make_policy("mcts:0.2s:prior=0.5", game).settings == MCTS(
        seconds=0.2, simulations=None, prior=0.5
    )


def test_mcts_refuses_to_act_from_an_observation_alone():
    policy = MCTSPolicy(jungle_envs.make_game("TropicRace", 2), SMALL)
    with pytest.raises(TypeError, match="searches from the game state"):
        policy.act(np.zeros(3, np.float32), np.ones(3, bool), np.random.default_rng(0))


@pytest.mark.parametrize("name", GAMES)
def test_a_compiled_rollout_ends_a_valid_game_with_the_rules_engines_results(name):
    from jungle_envs.core.compiled import runner
    from jungle_envs.core.compiled.twin import Twin

    game = jungle_envs.make_game(name, 3)
    twin = Twin(game)
    for i, (state, _) in enumerate(decisions(game, seed=4)):
        if i % 6:
            continue
        for kind in (runner.RANDOM, runner.HEURISTIC):
            row = twin.pack(state)
            streams = np.array([i, kind], dtype=np.uint64)
            returns, scores = twin.playout(row, streams, np.full(3, kind, np.int8))
            final = twin.unpack(row)
            game.validate_state(final)
            assert game.current_player(final) == TERMINAL
            assert returns.tolist() == game.returns(final)
            assert scores.tolist() == game.scores(final)


@pytest.mark.parametrize("name", GAMES)
def test_a_guided_search_plays_whole_games_legally_and_reproducibly(name):
    """``mcts+ppo``: the shipped agent's probabilities steer the root; a game with it in
    every other seat is legal and the same seed gives the same game."""
    env = gym.make(f"jungle_envs/{name}-v0", num_players=4, opponents="mcts+ppo:12")
    assert_plays_again_alike(env, seed=3)


def test_the_guide_decides_which_root_moves_are_tried_first():
    """With fewer simulations than legal moves, only the guide's likeliest are searched."""
    game = jungle_envs.make_game("ElephantFestival", 4)
    state, seat = next((s, p) for s, p in decisions(game, seed=4) if game.legal_mask(s).sum() > 6)
    mask = game.legal_mask(state)
    legal = np.flatnonzero(mask)
    favoured = legal[-3:]  # a guide that likes the last three legal moves, the last most

    class Guide:
        observation_game = game

        def probabilities(self, observation, action_mask):
            p = np.zeros(len(action_mask))
            p[favoured] = [0.2, 0.3, 0.5]
            return p

        def act(self, observation, action_mask, rng):  # pragma: no cover - not called
            raise AssertionError

    policy = MCTSPolicy(game, MCTS(simulations=3, determinizations=1, guide=Guide()))
    policy.act_state(state, seat, mask, np.random.default_rng(0))
    assert set(np.flatnonzero(policy.visits)) == set(favoured)


class FixedGuide:
    """A guide with given move probabilities, whatever the state."""

    def __init__(self, probabilities):
        self.probabilities_ = np.asarray(probabilities, dtype=float)

    def probabilities(self, observation, action_mask):
        return np.where(action_mask, self.probabilities_, 0.0)

    def act(self, observation, action_mask, rng):  # pragma: no cover - not called
        raise AssertionError


@pytest.mark.parametrize("name", GAMES)
def test_a_strong_guide_keeps_the_search_on_its_favourite(name):
    """PUCT at the root: with a prior far above any value difference the most visited move
    is the guide's likeliest, at any budget; without the prior the values decide, and
    another move wins the visits at some decisions."""
    game = jungle_envs.make_game(name, 4)
    kept = moved = 0
    for i, (state, seat) in enumerate(decisions(game, seed=6)):
        mask = game.legal_mask(state)
        legal = np.flatnonzero(mask)
        if i % 3 or not 2 <= len(legal) <= 30:
            continue
        favourite = legal[i % len(legal)]  # not the heuristic's move as a rule
        weights = np.full(game.spec.num_actions, 0.1 / len(legal))
        weights[favourite] = 0.9
        settings = MCTS(simulations=90, determinizations=2, guide=FixedGuide(weights))
        strong = MCTSPolicy(game, replace(settings, prior=1e6))
        assert strong.act_state(state, seat, mask, np.random.default_rng(i)) == favourite
        free = MCTSPolicy(game, replace(settings, prior=0.0))
        moved += free.act_state(state, seat, mask, np.random.default_rng(i)) != favourite
        kept += 1
    assert kept >= 3
    assert moved >= 1


def test_a_guide_without_move_probabilities_is_refused():
    game = jungle_envs.make_game("TropicRace", 2)
    with pytest.raises(ValueError, match="guide must be a learned policy"):
        MCTSPolicy(game, MCTS(guide="heuristic"))
