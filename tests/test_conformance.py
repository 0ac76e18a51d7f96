"""The API contract, checked on every registered env id at every player count."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import jungle_envs
from jungle_envs.core.game import CHANCE, TERMINAL
from jungle_envs.core.random_play import play_randomly, random_step
from jungle_envs.core.registry import game_class

# Every behaviour here holds on both engines (see conftest.each_engine).
pytestmark = pytest.mark.usefixtures("each_engine")

CASES = [
    pytest.param(env_id, n, id=f"{env_id.split('/')[1]}-{n}p")
    for env_id in jungle_envs.ENV_IDS
    for n in game_class(env_id).spec.player_counts
]
RANDOM_GAMES = 1000


def masked_random(env, info, rng) -> int:
    return int(rng.choice(np.flatnonzero(info["action_mask"])))


@pytest.mark.parametrize("env_id,players", CASES)
def test_passes_gymnasium_check_env(env_id, players):
    env = gym.make(env_id, num_players=players, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


@pytest.mark.parametrize("env_id,players", CASES)
def test_masks_are_the_legal_actions_of_the_deciding_seat(env_id, players):
    env = gym.make(env_id, num_players=players)
    base = env.unwrapped
    rng = np.random.default_rng(0)
    for episode in range(5):
        _, info = env.reset(seed=episode)
        done = False
        while not done:
            game, state = base.game, base.state
            assert game.current_player(state) == base.agent_seat
            mask = env.action_masks()
            assert mask.dtype == bool and mask.any()
            np.testing.assert_array_equal(mask, game.legal_mask(state))
            assert info["action_mask"].dtype == np.int8
            np.testing.assert_array_equal(info["action_mask"], mask.astype(np.int8))
            _, _, done, truncated, info = env.step(masked_random(env, info, rng))
            assert not truncated
        assert env.action_masks().all() and info["action_mask"].all()


@pytest.mark.parametrize("env_id,players", CASES)
def test_random_masked_games_finish(env_id, players):
    env = gym.make(env_id, num_players=players)
    winners_seen = 0
    for episode in range(RANDOM_GAMES):
        obs, info = env.reset(seed=episode)
        terminated = truncated = False
        while not (terminated or truncated):
            action = env.action_space.sample(mask=info["action_mask"])
            obs, reward, terminated, truncated, info = env.step(action)
            assert env.observation_space.contains(obs)
        assert terminated and not truncated and "illegal_action" not in info
        assert len(info["scores"]) == players
        assert reward == info["returns"][info["agent_seat"]]
        winners_seen += bool(info["winners"])
    assert winners_seen > 0


def rollout(env, seed, steps=10_000, action_seed=7):
    """Observations, rewards and infos of one episode with seeded masked-random actions."""
    rng = np.random.default_rng(action_seed)
    obs, info = env.reset(seed=seed)
    trace = [(obs.tobytes(), info["agent_seat"])]
    for _ in range(steps):
        obs, reward, terminated, truncated, info = env.step(masked_random(env, info, rng))
        trace.append((obs.tobytes(), reward, info["action_mask"].tobytes()))
        if terminated or truncated:
            trace.append((tuple(info["scores"]), tuple(info["winners"])))
            break
    return trace


@pytest.mark.parametrize("env_id,players", CASES)
def test_same_seed_and_actions_give_the_same_trajectory(env_id, players):
    opponents = ["heuristic", "random"] * players
    make = lambda: gym.make(env_id, num_players=players, opponents=opponents[: players - 1])  # noqa: E731
    first, second = make(), make()
    for seed in (0, 1, 2):
        assert rollout(first, seed) == rollout(second, seed)
    assert rollout(first, 3) == rollout(first, 3)  # re-seeding the same env replays too
    assert rollout(first, 4) != rollout(first, 5)


def random_states(game, rng, count):
    """Yield copies of states at random points of random games (chance and decisions)."""
    state = game.new_state()
    for _ in range(count):
        while rng.random() > 0.05 and random_step(game, state, rng) != TERMINAL:
            pass
        yield state.copy()
        if game.is_terminal(state):
            state = game.new_state()


def continue_randomly(game, state, seed, steps=30):
    play_randomly(game, state, np.random.default_rng(seed), max_steps=steps)
    return game.state_to_json(state)


@pytest.mark.parametrize("env_id,players", CASES)
def test_json_round_trip_at_random_points(env_id, players):
    game = jungle_envs.make_game(env_id, players)
    rng = np.random.default_rng(players)
    for i, state in enumerate(random_states(game, rng, 60)):
        text = game.state_to_json(state)
        loaded = game.state_from_json(text)
        assert loaded == state and game.state_to_json(loaded) == text
        for seat in range(players):
            np.testing.assert_array_equal(game.observe(loaded, seat), game.observe(state, seat))
        assert continue_randomly(game, loaded, i) == continue_randomly(game, state.copy(), i)


@pytest.mark.parametrize("env_id,players", CASES)
def test_copy_shares_nothing_mutable(env_id, players):
    game = jungle_envs.make_game(env_id, players)
    rng = np.random.default_rng(players)
    for i, state in enumerate(random_states(game, rng, 30)):
        before = game.state_to_json(state)
        clone = state.copy()
        assert clone == state
        continue_randomly(game, state, i, steps=50)
        assert game.state_to_json(clone) == before
        after = game.state_to_json(state)
        continue_randomly(game, clone, i + 1, steps=50)
        assert game.state_to_json(state) == after


@pytest.mark.parametrize("env_id,players", CASES)
def test_fast_chance_draws_match_the_described_events(env_id, players):
    game = jungle_envs.make_game(env_id, players)
    rng = np.random.default_rng(players)
    checked = 0
    for state in random_states(game, rng, 40):
        if game.current_player(state) != CHANCE:
            continue
        for seed in range(5):
            fast = game.sample_chance(state, np.random.default_rng(seed))
            described = game.chance_event(state).sample(np.random.default_rng(seed))
            assert fast == described
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("env_id,players", CASES)
def test_the_rules_modules_answer_the_game_protocol_alike(env_id, players):
    """Every game's rules module fits the one signature ``Game`` forwards with: legal
    actions ascending and equal to the mask, the chance draw among the event's outcomes,
    winners and final details from the same config, the state valid all the way."""
    game = jungle_envs.make_game(env_id, players)
    rng = np.random.default_rng(7)
    for _ in range(3):
        state = game.new_state()
        while (player := game.current_player(state)) != TERMINAL:
            game.validate_state(state)
            if player == CHANCE:
                outcome = game.sample_chance(state, rng)
                assert game.chance_event(state).distribution()[outcome] > 0
                game.apply_chance(state, outcome)
                continue
            legal = game.legal_actions(state)
            assert legal == sorted(legal)
            assert legal == np.flatnonzero(game.legal_mask(state)).tolist()
            game.apply_action(state, legal[rng.integers(len(legal))])
        assert set(game.winners(state)) <= set(range(players))
        assert len(game.scores(state)) == players
        assert isinstance(game.final_details(state), dict)
