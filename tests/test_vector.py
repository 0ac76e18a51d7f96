"""BatchedVectorEnv: the same results as Gymnasium's SyncVectorEnv, with or without workers."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import jungle_envs
from jungle_envs.core.game import IllegalActionError
from jungle_envs.process_vector_env import BatchedVectorEnv

ENV_IDS = [pytest.param(env_id, id=env_id.split("/")[1]) for env_id in jungle_envs.ENV_IDS]


def play_side_by_side(env_id: str, workers: int, steps: int, **kwargs) -> int:
    """Steps both vector envs with the same random legal actions; returns episodes ended."""
    reference = gym.make_vec(env_id, num_envs=3, vectorization_mode="sync", **kwargs)
    batched = BatchedVectorEnv(env_id, 3, num_workers=workers, **kwargs)
    try:
        obs_ref, info_ref = reference.reset(seed=11)
        obs, info = batched.reset(seed=11)
        np.testing.assert_array_equal(obs, obs_ref)
        rng = np.random.default_rng(0)
        ended = 0
        for _ in range(steps):
            masks = info_ref["action_mask"]
            np.testing.assert_array_equal(info["action_mask"], masks)
            np.testing.assert_array_equal(batched.action_masks(), masks.astype(bool))
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            *out_ref, info_ref = reference.step(actions)
            *out, info = batched.step(actions)
            for got, want in zip(out, out_ref, strict=True):
                np.testing.assert_array_equal(got, want)
            assert set(info) == set(info_ref)
            ended += int(np.sum(out[2] | out[3]))
        return ended
    finally:
        reference.close()
        batched.close()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_in_process_batch_matches_sync_vector_env(env_id):
    assert play_side_by_side(env_id, 0, 150, num_players=3, opponents="random") > 0


def test_worker_processes_match_sync_vector_env_across_autoresets():
    ended = play_side_by_side(
        "jungle_envs/TropicRace-v0", 2, 250, num_players=2, opponents="heuristic"
    )
    assert ended >= 3  # next-step autoreset was exercised in the caller's share and the workers


def test_dict_observations_are_batched_per_key():
    envs = BatchedVectorEnv("jungle_envs/JungleSweep-v0", 2, num_workers=0, observation_mode="dict")
    obs, _ = envs.reset(seed=0)
    assert set(obs) == {"observation", "action_mask"}
    assert obs["observation"].shape == (2, *envs.single_observation_space["observation"].shape)
    assert envs.observation_space.contains(obs)
    envs.close()


def test_out_of_space_actions_raise_and_move_no_env():
    envs = BatchedVectorEnv("jungle_envs/SpankTheMonkey-v0", 2, num_workers=1)
    twin = BatchedVectorEnv("jungle_envs/SpankTheMonkey-v0", 2, num_workers=0)
    try:
        envs.reset(seed=5)
        _, info = twin.reset(seed=5)
        n = envs.single_action_space.n
        with pytest.raises(ValueError, match=rf"0\.\.{n - 1}"):
            envs.step(np.array([0, n]))
        with pytest.raises(ValueError, match="one per env"):
            envs.step(np.array([0]))
        with pytest.raises(ValueError, match="one per env"):
            envs.step(np.array([0.5, 1.0]))
        legal = np.array([np.flatnonzero(m)[0] for m in info["action_mask"]])
        for got, want in zip(envs.step(legal)[:4], twin.step(legal)[:4], strict=True):
            np.testing.assert_array_equal(got, want)
    finally:
        envs.close()
        twin.close()


def test_bad_arguments_are_refused_by_name():
    with pytest.raises(ValueError, match="num_workers"):
        BatchedVectorEnv("jungle_envs/TropicRace-v0", 2, num_workers=2)
    with pytest.raises(ValueError, match="num_envs"):
        BatchedVectorEnv("jungle_envs/TropicRace-v0", 0)
    with pytest.raises(ValueError, match="no_such_option"):
        BatchedVectorEnv("jungle_envs/TropicRace-v0", 2, num_workers=0, no_such_option=1)
    envs = BatchedVectorEnv("jungle_envs/TropicRace-v0", 2, num_workers=0)
    with pytest.raises(ValueError, match="2 seeds"):
        envs.reset(seed=[1, 2, 3])
    envs.close()


def test_a_failing_worker_is_reported_and_the_workers_stop():
    envs = BatchedVectorEnv("jungle_envs/TropicRace-v0", 3, num_workers=2, illegal_action="raise")
    _, info = envs.reset(seed=0)
    legal = [int(np.flatnonzero(m)[0]) for m in info["action_mask"]]
    illegal = int(np.flatnonzero(info["action_mask"][2] == 0)[0])
    processes = [process for _, process in envs._workers]
    with pytest.raises(RuntimeError, match=r"failed: .*IllegalActionError: action .* is not legal"):
        envs.step(np.array([legal[0], legal[1], illegal]))  # env 2 is in the last worker
    assert envs.closed
    for process in processes:
        process.join(timeout=5)
        assert not process.is_alive()


def test_a_failure_in_the_callers_share_closes_the_env_too():
    envs = BatchedVectorEnv("jungle_envs/TropicRace-v0", 2, num_workers=1, illegal_action="raise")
    _, info = envs.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"][0] == 0)[0])
    legal = int(np.flatnonzero(info["action_mask"][1])[0])
    with pytest.raises(IllegalActionError):
        envs.step(np.array([illegal, legal]))
    assert envs.closed
