"""The compiled vector env as a Stable-Baselines3 ``VecEnv``, for MaskablePPO and friends.

    from jungle_envs.sb3 import CompiledVecEnv
    from sb3_contrib import MaskablePPO

    venv = CompiledVecEnv("jungle_envs/TropicRace-v0", num_envs=64, num_players=4)
    model = MaskablePPO("MlpPolicy", venv).learn(100_000)

Stable-Baselines3 resets an env in the same step its episode ends and hands the last
observation over as ``info["terminal_observation"]`` (``info["TimeLimit.truncated"]`` on
a truncation); this adapter does exactly that on top of ``CompiledVectorEnv``, with one
more compiled call for the envs that ended. ``env_method("action_masks")`` returns the
(num_envs, num_actions) bool masks MaskablePPO asks for. Needs the ``train`` extra.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from jungle_envs.core.compiled import runner


class CompiledVecEnv(VecEnv):
    """``num_envs`` games on the compiled twin, stepped in one call, SB3 semantics."""

    def __init__(self, env_id: str, num_envs: int, seed: int = 0, **env_kwargs: Any) -> None:
        vector = gym.make_vec(
            env_id,
            num_envs=num_envs,
            vectorization_mode="vector_entry_point",
            copy=False,
            final_details=False,  # SB3 reads no final info: skip the per-game Python work
            **env_kwargs,
        )
        self.vector = vector
        self.env_id = env_id
        self.render_mode = None
        super().__init__(num_envs, vector.single_observation_space, vector.single_action_space)
        self._seed = seed
        self._actions = np.zeros(num_envs, dtype=np.int64)

    # --- VecEnv API ------------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        seed, self._seed = self._seed, None
        obs, _ = self.vector.reset(seed=seed)
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return copied(obs)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions[:] = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self):
        v = self.vector
        obs, rewards, terminated, truncated, _ = v.step(self._actions)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            ended = np.flatnonzero(dones)
            for i in ended:
                infos[i]["terminal_observation"] = row_of(obs, i)
                infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
                infos[i]["returns"] = v.buffers.results[i].tolist()
            v.buffers.which[:] = dones
            v.run(runner.RESET_WHERE)
        return copied(obs), rewards.astype(np.float32), dones.copy(), infos

    def close(self) -> None:
        self.vector.close()

    def seed(self, seed: int | None = None) -> Sequence[None]:
        self._seed = seed
        return [None] * self.num_envs

    def action_masks(self) -> np.ndarray:
        return self.vector.action_masks()

    def set_opponent_mix(self, mix: dict[str, float]) -> None:
        """Draw the opponents from this mixture from each env's next episode on."""
        self.vector.set_opponent_mix(mix)

    def set_opponent_pool(self, players: list[Any]) -> None:
        """The players a mixture's ``"pool"`` share draws from (e.g. ``PolicyPlayer``)."""
        self.vector.set_opponent_pool(players)

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        return [getattr(self.vector, attr_name) for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        raise AttributeError("CompiledVecEnv has no per-env attributes to set")

    def env_method(self, method_name: str, *args, indices=None, **kwargs) -> Any:
        if method_name != "action_masks":  # the one method MaskablePPO calls
            raise AttributeError(f"CompiledVecEnv has no env method {method_name!r}")
        masks = self.vector.action_masks()
        return masks[list(self._indices(indices))]

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None] * self.num_envs

    def _indices(self, indices) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return indices


class PolicyPlayer:
    """A pool player for the compiled vector env (``set_opponent_pool``): a frozen copy of
    a MaskablePPO policy that moves for many envs in one forward pass, sampling from its
    masked distribution with the env's generator (``deterministic`` plays the likeliest)."""

    def __init__(self, policy: Any, deterministic: bool = False) -> None:
        self.policy = copy.deepcopy(policy).to("cpu")
        self.policy.set_training_mode(False)
        self.deterministic = deterministic

    def act_batch(self, observations: np.ndarray, masks: np.ndarray, rng) -> np.ndarray:
        import torch

        with torch.no_grad():
            obs = torch.as_tensor(observations, dtype=torch.float32)
            dist = self.policy.get_distribution(obs, action_masks=masks)
            probs = dist.distribution.probs.numpy().astype(np.float64)
        probs = np.where(masks, probs, 0.0)
        if self.deterministic:
            return probs.argmax(axis=1)
        cumulative = np.cumsum(probs, axis=1)
        draws = rng.random(len(probs)) * cumulative[:, -1]
        picks = (cumulative <= draws[:, None]).sum(axis=1)
        # rounding can push a pick past the last legal action: take the last legal one
        last_legal = masks.shape[1] - 1 - np.argmax(masks[:, ::-1], axis=1)
        return np.minimum(picks, last_legal)


def copied(obs: Any) -> Any:
    """The observations, copied out of the env's buffers (a dict per key)."""
    if isinstance(obs, dict):
        return {key: value.copy() for key, value in obs.items()}
    return obs.copy()


def row_of(obs: Any, i: int) -> Any:
    if isinstance(obs, dict):
        return {key: value[i].copy() for key, value in obs.items()}
    return obs[i].copy()
