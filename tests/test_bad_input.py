"""Bad input gets a clear error naming what is allowed, and changes nothing."""

from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pytest

import jungle_envs
from jungle_envs.core.game import IllegalActionError
from jungle_envs.core.registry import game_class
from jungle_envs.core.state import StateError

# Every behaviour here holds on both engines (see conftest.each_engine).
pytestmark = pytest.mark.usefixtures("each_engine")

ENV_IDS = [pytest.param(env_id, id=env_id.split("/")[1]) for env_id in jungle_envs.ENV_IDS]


def snapshot(env):
    base = env.unwrapped
    return base.game.state_to_json(base.state), env.action_masks().tobytes(), base.agent_seat


def illegal_action(env) -> int:
    return int(np.flatnonzero(~env.action_masks())[0])


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize("action", [-1, 10_000, 1.5, "1", None, np.array([0, 1]), True])
def test_out_of_space_action_raises_and_changes_nothing(env_id, action):
    env = gym.make(env_id)
    env.reset(seed=0)
    before = snapshot(env)
    with pytest.raises(ValueError, match="action"):
        env.step(action)
    assert snapshot(env) == before


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_numpy_integer_actions_are_accepted(env_id):
    env = gym.make(env_id)
    _, info = env.reset(seed=0)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    env.step(np.int64(legal))
    env.reset(seed=0)
    env.step(np.array(legal))


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_illegal_action_ends_the_episode_with_minus_one(env_id):
    env = gym.make(env_id)
    env.reset(seed=0)
    before = snapshot(env)
    _, reward, terminated, truncated, info = env.step(illegal_action(env))
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] is True and "not legal" in info["illegal_action_message"]
    assert snapshot(env)[0] == before[0]  # the game itself did not move
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_illegal_action_can_raise_instead(env_id):
    env = gym.make(env_id, illegal_action="raise")
    env.reset(seed=0)
    before = snapshot(env)
    with pytest.raises(IllegalActionError, match="legal:"):
        env.step(illegal_action(env))
    assert snapshot(env) == before
    env.step(int(np.flatnonzero(env.action_masks())[0]))  # the episode goes on


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_wrong_player_count_names_the_range(env_id):
    spec = game_class(env_id).spec
    for players in (spec.min_players - 1, spec.max_players + 1):
        with pytest.raises(ValueError, match=f"{spec.min_players} to {spec.max_players}"):
            gym.make(env_id, num_players=players)
    with pytest.raises(TypeError, match="num_players"):
        gym.make(env_id, num_players="four")


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_unknown_option_names_the_allowed_ones(env_id):
    with pytest.raises(ValueError, match=r"unknown option.*allowed|env options"):
        gym.make(env_id, colour="blue")


@pytest.mark.filterwarnings("ignore::UserWarning")  # gymnasium.make warns of the mode too
@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize(
    "option,value",
    [
        ("observation_mode", "image"),
        ("illegal_action", "ignore"),
        ("reward", "money"),
        ("render_mode", "picture"),
        ("agent_seat", 17),
        ("agent_seat", "first"),
    ],
)
def test_bad_env_option_value_names_the_choices(env_id, option, value):
    with pytest.raises(ValueError, match=option):
        gym.make(env_id, **{option: value})


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_unknown_opponent_name_names_the_allowed_ones(env_id):
    with pytest.raises(ValueError, match=r"unknown opponent 'champion'.*heuristic.*random"):
        gym.make(env_id, opponents="champion")
    with pytest.raises(TypeError, match="opponent must be"):
        gym.make(env_id, opponents=42)
    with pytest.raises(ValueError, match="needs 3 entries"):
        gym.make(env_id, num_players=4, opponents=["random"])


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_reset_rejects_options(env_id):
    env = gym.make(env_id)
    with pytest.raises(ValueError, match="no options"):
        env.reset(seed=0, options={"difficulty": 3})


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_step_before_reset_is_an_error(env_id):
    env = gym.make(env_id, disable_env_checker=True).unwrapped
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def saved_state(env_id):
    game = jungle_envs.make_game(env_id)
    env = gym.make(env_id)
    env.reset(seed=3)
    return game, json.loads(game.state_to_json(env.unwrapped.state))


def corrupt(payload, path, value):
    target = payload
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return json.dumps(payload)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_malformed_saved_states_are_rejected_clearly(env_id):
    game, payload = saved_state(env_id)
    assert game.state_from_json(json.dumps(payload)) is not None
    first_field = next(iter(payload["state"]))
    bad = {
        "not json": "{not json",
        "not an object": "[1, 2]",
        "wrong game": corrupt(json.loads(json.dumps(payload)), ["game"], "chess"),
        "other config": corrupt(json.loads(json.dumps(payload)), ["config", "num_players"], 99),
        "missing field": corrupt(json.loads(json.dumps(payload)), ["state", first_field], KeyError),
        "extra field": corrupt(json.loads(json.dumps(payload)), ["state", "cheat"], 1),
        "wrong type": corrupt(json.loads(json.dumps(payload)), ["state", first_field], "x"),
    }
    for what, text in bad.items():
        with pytest.raises(StateError):
            game.state_from_json(text)
            pytest.fail(f"accepted a state with {what}")


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_flags_take_only_booleans_and_masks_need_a_game(env_id):
    for value in ("False", "no", 0, 1, None):
        with pytest.raises(ValueError, match="skip_forced_actions must be True or False"):
            gym.make(env_id, skip_forced_actions=value)
        with pytest.raises(ValueError, match="skip_forced_actions must be True or False"):
            gym.make_vec(env_id, num_envs=2, vectorization_mode="vector_entry_point",
                         skip_forced_actions=value)  # fmt: skip
    env = gym.make(env_id, skip_forced_actions=False)
    with pytest.raises(RuntimeError, match="reset"):
        env.unwrapped.action_masks()
    env.reset(seed=0)
    assert env.unwrapped.action_masks().any()
