"""Building blocks shared by the training scripts: vector envs and MaskablePPO models."""

from __future__ import annotations

import copy
from typing import Any

import gymnasium as gym
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv

import jungle_envs  # noqa: F401  (registers the envs)
from training.config import DEFAULTS


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


def _default_hyperparameters() -> dict[str, Any]:
    """MaskablePPO keyword arguments from the config defaults (training/config.py)."""
    ppo = copy.deepcopy(DEFAULTS["ppo"])
    net_arch = ppo.pop("net_arch")
    return {**ppo, "policy_kwargs": {"net_arch": net_arch}}


DEFAULT_HYPERPARAMETERS: dict[str, Any] = _default_hyperparameters()


def new_model(
    venv: VecEnv, seed: int = 0, tensorboard_log: str | None = None, **overrides: Any
) -> MaskablePPO:
    torch.set_num_threads(1)  # small MLPs: threads cost more than they give on 2 cores
    params = {**DEFAULT_HYPERPARAMETERS, **overrides}
    dict_obs = isinstance(venv.observation_space, gym.spaces.Dict)
    policy = "MultiInputPolicy" if dict_obs else "MlpPolicy"
    return MaskablePPO(policy, venv, seed=seed, device="cpu", verbose=0, **params)
