"""Building blocks shared by the training scripts: vector envs and MaskablePPO models."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv

import jungle_envs  # noqa: F401  (registers the envs)


def make_vec_env(
    env_id: str,
    n_envs: int = 4,
    seed: int = 0,
    subprocess: bool = False,
    **env_kwargs: Any,
) -> VecEnv:
    """``n_envs`` copies of the env, each seeded ``seed + i``; masks pass through
    ``env_method("action_masks")``, which is what MaskablePPO calls on a vector env."""

    def factory(rank: int):
        def make() -> gym.Env:
            env = Monitor(gym.make(env_id, **env_kwargs))
            env.reset(seed=seed + rank)
            return env

        return make

    fns = [factory(i) for i in range(n_envs)]
    if subprocess and n_envs > 1:
        return SubprocVecEnv(fns, start_method="fork")
    return DummyVecEnv(fns)


DEFAULT_HYPERPARAMETERS: dict[str, Any] = {
    "learning_rate": 3e-4,
    "n_steps": 1024,
    "batch_size": 256,
    "n_epochs": 10,
    "gamma": 0.995,
    "gae_lambda": 0.95,
    "ent_coef": 0.01,
    "policy_kwargs": {"net_arch": [128, 128]},
}


def new_model(
    venv: VecEnv, seed: int = 0, tensorboard_log: str | None = None, **overrides: Any
) -> MaskablePPO:
    torch.set_num_threads(1)  # small MLPs: threads cost more than they give on 2 cores
    params = {**DEFAULT_HYPERPARAMETERS, **overrides}
    dict_obs = isinstance(venv.observation_space, gym.spaces.Dict)
    policy = "MultiInputPolicy" if dict_obs else "MlpPolicy"
    return MaskablePPO(policy, venv, seed=seed, device="cpu", verbose=0, **params)
