"""Pluggable opponents: names, objects, callables, per-seat lists and trained models."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import jungle_envs
from jungle_envs.core.env import OpponentError
from jungle_envs.core.policies import (
    POLICY_REGISTRY,
    RandomPolicy,
    make_policy,
    register_policy,
)
from jungle_envs.core.registry import GAMES
from jungle_envs.maskable_ppo import MaskablePPOPolicy

ENV_ID = "jungle_envs/JungleSweep-v0"


def finish(env, seed=0):
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    done = False
    while not done:
        _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    return info


class SeatRecorder:
    """A policy that checks it is handed its own seat's view and legal actions."""

    def __init__(self, env):
        self.env = env
        self.seats = set()

    def act(self, observation, action_mask, rng):
        base = self.env.unwrapped
        seat = base.game.current_player(base.state)
        self.seats.add(seat)
        np.testing.assert_array_equal(observation, base.game.observe(base.state, seat))
        np.testing.assert_array_equal(action_mask, base.game.legal_mask(base.state))
        assert seat != base.agent_seat
        return int(rng.choice(np.flatnonzero(action_mask)))


def test_policy_object_plays_every_other_seat_from_its_own_view():
    env = gym.make(ENV_ID, num_players=4, agent_seat=1)
    recorder = SeatRecorder(env)
    env.unwrapped._resolve_opponents = lambda learner: {
        s: recorder for s in range(4) if s != learner
    }
    finish(env)
    assert recorder.seats == {0, 2, 3}


def test_plain_callable_is_an_opponent():
    calls = []

    def first_legal(observation, action_mask, rng):
        calls.append(observation.shape)
        return int(np.flatnonzero(action_mask)[0])

    env = gym.make(ENV_ID, opponents=first_legal)
    finish(env)
    assert calls and all(shape == env.observation_space.shape for shape in calls)


def test_list_of_opponents_counts_seats_after_the_learner():
    seen = {}

    def tagged(tag):
        def act(observation, action_mask, rng):
            base = env.unwrapped
            seen.setdefault(tag, set()).add(base.game.current_player(base.state))
            return int(np.flatnonzero(action_mask)[0])

        return act

    env = gym.make(
        ENV_ID, num_players=4, agent_seat=2, opponents=[tagged("a"), tagged("b"), tagged("c")]
    )
    finish(env)
    assert seen == {"a": {3}, "b": {0}, "c": {1}}


def test_list_by_absolute_seat_skips_the_learner():
    env = gym.make(ENV_ID, num_players=3, agent_seat=1, opponents=["heuristic", None, "random"])
    policies = env.unwrapped._resolve_opponents(1)
    assert isinstance(policies[2], RandomPolicy)
    assert type(policies[0]).__name__ == "JungleSweepHeuristic"
    finish(env)
    with pytest.raises(ValueError, match=r"no opponent given for seat\(s\) \[1\]"):
        gym.make(ENV_ID, num_players=3, opponents=["heuristic", None, "random"])


def test_opponents_are_reproducible_under_the_seed():
    def trace(seed):
        env = gym.make(ENV_ID, opponents=RandomPolicy(), render_mode="ansi")
        env.reset(seed=seed)
        frames = [env.render()]
        done = False
        while not done:
            _, _, done, _, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
            frames.append(env.render())
        return frames

    assert trace(11) == trace(11)


def test_opponent_with_an_illegal_action_is_reported():
    env = gym.make(ENV_ID, opponents=lambda obs, mask, rng: int(np.flatnonzero(~mask)[0]))
    with pytest.raises(OpponentError, match="illegal action"):
        finish(env)


def test_registered_policy_names_become_opponents():
    class AlwaysFirst:
        def act(self, observation, action_mask, rng):
            return int(np.flatnonzero(action_mask)[0])

    register_policy("always-first-test", lambda game: AlwaysFirst())
    try:
        env = gym.make(ENV_ID, opponents="always-first-test")
        finish(env)
        with pytest.raises(ValueError, match="already registered; pass replace=True"):
            register_policy("always-first-test", lambda game: AlwaysFirst())
        register_policy("always-first-test", lambda game: RandomPolicy(), replace=True)
        assert isinstance(make_policy("always-first-test", env.unwrapped.game), RandomPolicy)
        for name in ("random", "heuristic", "ppo", "mcts", "rollout", "rllib"):
            with pytest.raises(ValueError, match="built-in policy"):
                register_policy(name, lambda game: AlwaysFirst(), replace=True)
    finally:
        POLICY_REGISTRY.pop("always-first-test")


@pytest.fixture(scope="module")
def tiny_models(tmp_path_factory):
    pytest.importorskip("sb3_contrib")
    from training.common import make_vec_env, new_model

    out = tmp_path_factory.mktemp("models")
    models = {}
    for mode in ("flat", "dict"):
        venv = make_vec_env(ENV_ID, n_envs=1, observation_mode=mode)
        model = new_model(venv, n_steps=64, batch_size=32, n_epochs=1)
        model.learn(64)
        path = out / f"{mode}.zip"
        model.save(path)
        models[mode] = (model, path)
    return models


def test_trained_model_plays_as_opponent_by_path_and_by_object(tiny_models):
    model, path = tiny_models["flat"]
    for spec in (str(path), model):
        env = gym.make(ENV_ID, opponents=spec)
        info = finish(env)
        assert "illegal_action" not in info


def test_model_opponent_plays_from_its_own_seat(tiny_models):
    model, _ = tiny_models["flat"]
    env = gym.make(ENV_ID, num_players=4, agent_seat=0)
    game = env.unwrapped.game
    policy = make_policy(model, game)
    state = game.new_state()
    rng = np.random.default_rng(0)
    while game.current_player(state) < 0:
        game.apply_chance(state, game.chance_event(state).sample(rng))
    seat = game.current_player(state)
    obs = game.observe(state, seat)
    expected, _ = model.predict(obs, action_masks=game.legal_mask(state), deterministic=True)
    assert policy.act(obs, game.legal_mask(state), rng) == int(expected)


def test_dict_observation_model_plays_as_opponent(tiny_models):
    _, path = tiny_models["dict"]
    env = gym.make(ENV_ID, opponents=MaskablePPOPolicy(path, deterministic=False))
    assert "illegal_action" not in finish(env)


def test_model_for_another_observation_size_is_refused(tiny_models):
    _, path = tiny_models["flat"]
    with pytest.raises(ValueError, match="observations of size"):
        gym.make(ENV_ID, opponents=str(path), terrain={"jungle_path": 5})
    with pytest.raises(FileNotFoundError):
        gym.make(ENV_ID, opponents="no/such/model.zip")


def test_builtin_names_are_listed():
    assert {"random", "heuristic"} <= set(POLICY_REGISTRY)
    assert ENV_ID in jungle_envs.ENV_IDS
    assert all(env_id in gym.registry for env_id in jungle_envs.ENV_IDS)


def test_an_opponent_mixture_draws_each_seats_player_every_episode(each_engine):
    env = gym.make(ENV_ID, num_players=4, opponents={"random": 1, "heuristic": 1})
    seen = []
    for seed in range(40):
        env.reset(seed=seed)
        seen.append(
            tuple(type(p.current).__name__ for p in env.unwrapped._resolve_opponents(0).values())
        )
    kinds = {name for row in seen for name in row}
    assert kinds == {"RandomPolicy", "JungleSweepHeuristic"}
    assert len(set(seen)) > 4  # seats draw independently, episode by episode
    with pytest.raises(ValueError, match="mixture"):
        gym.make(ENV_ID, opponents={"random": -1})


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_has_a_decode_of_its_observation(name):
    import importlib

    from jungle_envs.core.game import CHANCE, TERMINAL

    package = GAMES[name]
    decode = importlib.import_module(f"{package}.encoding").decode
    game = jungle_envs.make_game(name, 3)
    state, rng, decoded = game.new_state(), np.random.default_rng(0), 0
    while (seat := game.current_player(state)) != TERMINAL:
        if seat == CHANCE:
            event = game.chance_event(state)
            game.apply_chance(state, int(rng.choice(event.outcomes, p=event.probabilities)))
            continue
        # the same reading the heuristic does, at every decision of a game
        assert decode(game, game.observe(state, seat)) is not None
        decoded += 1
        game.apply_action(state, int(rng.choice(game.legal_actions(state))))
    assert decoded > 0
