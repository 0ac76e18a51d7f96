"""The compiled vector env under bad or careless input: every refusal is one clear error,
made before anything changes; numpy integers pass wherever Python ints do; a closed or
unreset env refuses use.

The property test drives each env with a random mix of good and bad calls (seeds of every
shape, actions in and out of range, options, close) and holds it to one rule: a refused
call leaves every row and random stream as it was, and the env plays on as if the call
had never been made.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import jungle_envs

ENV_IDS = [pytest.param(env_id, id=env_id.split("/")[1]) for env_id in jungle_envs.ENV_IDS]
REFUSALS = (ValueError, TypeError, RuntimeError)


def make(env_id: str, num_envs: int = 3, **kwargs):
    return gym.make_vec(
        env_id, num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs
    )


def snapshot(envs) -> tuple[bytes, bytes]:
    return envs.buffers.rows.tobytes(), envs.buffers.streams.tobytes()


def legal(envs) -> np.ndarray:
    return envs.action_masks().argmax(axis=1)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_bad_seeds_are_refused_before_any_stream_changes(env_id):
    envs = make(env_id)
    envs.reset(seed=7)
    before = snapshot(envs)
    for seed, error, message in [
        ([1, -1, 2], ValueError, "ints >= 0"),
        ([1, 2], ValueError, "needs 3 seeds"),
        ([1, 2.5, 3], ValueError, "ints >= 0"),
        ([1, True, 3], ValueError, "ints >= 0"),
        ("3", TypeError, "seed must be"),
        (3.0, TypeError, "seed must be"),
        (-1, ValueError, "ints >= 0"),
        (np.array([[1, 2, 3]]), TypeError, "seed must be"),
    ]:
        with pytest.raises(error, match=message):
            envs.reset(seed=seed)
        assert snapshot(envs) == before, seed
    envs.close()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_numpy_seeds_and_counts_play_as_python_ints(env_id):
    a = make(env_id, 3, agent_seat=0, num_players=2)
    b = make(env_id, np.int64(3), num_threads=np.int64(1), agent_seat=np.int64(0),
             num_players=np.int32(2))  # fmt: skip
    c = make(env_id, 3, agent_seat=0, num_players=2)
    a.reset(seed=[4, 5, 6])
    b.reset(seed=np.array([4, 5, 6]))
    c.reset(seed=np.uint32(4))
    assert snapshot(a) == snapshot(b) == snapshot(c)
    for envs in (a, b, c):
        envs.close()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_bad_arguments_are_refused_when_the_env_is_made(env_id):
    for kwargs, message in [
        ({"step_limit": 2**63}, "step_limit must be an int from 1 to 2\\*\\*63 - 1"),
        ({"step_limit": 0}, "step_limit"),
        ({"copy": "no"}, "copy must be True or False"),
        ({"num_threads": 0}, "num_threads must be an int >= 1"),
        ({"num_threads": 1.0}, "num_threads must be an int >= 1"),
        ({"num_threads": True}, "num_threads must be an int >= 1"),
        ({"agent_seat": np.float64(0)}, "agent_seat"),
    ]:
        with pytest.raises(ValueError, match=message):
            make(env_id, **kwargs)
    for num_envs in (0, True, 2.0, "2"):
        with pytest.raises(ValueError, match="num_envs must be an int >= 1"):
            make(env_id, num_envs)
    envs = make(env_id, step_limit=2**63 - 1)
    envs.reset(seed=0)
    envs.step(legal(envs))
    envs.close()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_before_reset_and_after_close_the_env_refuses_use(env_id):
    envs = make(env_id)
    for call in (lambda: envs.step(np.zeros(3, dtype=np.int64)), envs.action_masks,
                 lambda: envs.states):  # fmt: skip
        with pytest.raises(RuntimeError, match="call reset"):
            call()
    envs.reset(seed=0)
    envs.close()
    for call in (lambda: envs.step(np.zeros(3, dtype=np.int64)), envs.action_masks,
                 lambda: envs.states, lambda: envs.reset(seed=1)):  # fmt: skip
        with pytest.raises(RuntimeError, match="is closed"):
            call()
    assert envs._pool is None  # no thread pool started again
    envs.close()  # a second close is harmless


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_reset_options_other_than_none_or_empty_are_refused(env_id):
    single = gym.make(env_id)
    envs = make(env_id)
    for env in (single, envs):
        env.reset(seed=0, options={})
        with pytest.raises(TypeError, match="options must be a dict or None, got 5"):
            env.reset(options=5)
        with pytest.raises(ValueError, match="takes no options"):
            env.reset(options={"x": 1})
        env.close()


# --- the property: a refused call changes nothing --------------------------------------------
SEEDS = st.one_of(
    st.none(),
    st.integers(-3, 2**70),
    st.lists(st.one_of(st.none(), st.integers(-2, 100)), min_size=0, max_size=4),
    st.sampled_from(["3", 3.5, np.int64(9), np.array([1, 2, 3]), np.array([-1, 2, 3])]),
)
ACTIONS = st.one_of(
    st.just("legal"),
    st.lists(st.integers(-2, 400), min_size=0, max_size=4),
    st.sampled_from([np.array([0.5, 1.0, 2.0]), "a", None]),
)
CALLS = st.lists(
    st.one_of(
        st.tuples(st.just("reset"), SEEDS),
        st.tuples(st.just("step"), ACTIONS),
        st.tuples(st.just("options"), st.sampled_from([5, {"a": 1}, [1], "x"])),
        st.tuples(st.just("close"), st.none()),
    ),
    min_size=1,
    max_size=12,
)


@pytest.mark.parametrize("env_id", ENV_IDS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calls=CALLS)
def test_a_refused_call_changes_nothing_and_play_goes_on(env_id, calls):
    envs = make(env_id, 3, illegal_action="lose")
    closed = started = False
    for kind, arg in calls:
        before = snapshot(envs)
        try:
            if kind == "reset":
                envs.reset(seed=arg)
                started = True
            elif kind == "step":
                envs.step(legal(envs) if isinstance(arg, str) and arg == "legal" else arg)
            elif kind == "options":
                envs.reset(options=arg)
            else:
                envs.close()
                closed = True
        except REFUSALS as exc:
            assert snapshot(envs) == before, (kind, arg, exc)
            if closed:
                assert "closed" in str(exc)
            elif not started and kind == "step":
                assert "reset" in str(exc)
        else:
            assert not (closed and kind != "close"), "a closed env took a call"
    envs.close()
