"""Trained sb3-contrib MaskablePPO models as policies: loading a model file with clear
errors, playing it from its seat, and what it was trained on.

Loading a model needs the training extra (sb3-contrib, PyTorch); nothing here is imported
until a model is used (``core.policies`` names this module lazily).
"""

from __future__ import annotations

import os
import zipfile
from typing import Any

import numpy as np

from jungle_envs.core.policies import registered_entry
from jungle_envs.core.workers import one_torch_thread_after_fork


class MaskablePPOPolicy:
    """A trained sb3-contrib MaskablePPO model playing from its own seat's point of view.

    ``deterministic=True`` plays the most likely legal action; otherwise the action is
    sampled from the masked distribution with the env's generator, so games stay
    reproducible. Works for models trained on the flat or the dict observation.
    """

    def __init__(self, model: Any, deterministic: bool = True) -> None:
        one_torch_thread_after_fork()
        if isinstance(model, (str, os.PathLike)):
            model = load_maskable_ppo(model)
        self.model = model
        self.deterministic = deterministic
        self._dict_obs = hasattr(model.observation_space, "spaces")
        # What the model was trained on (saved in its zip by our training scripts).
        self.trained_on: dict[str, Any] | None = getattr(model, "trained_on", None)
        self._value_head: Any = None  # built at the first values() call

    @property
    def action_count(self) -> int:
        return int(self.model.action_space.n)

    @property
    def observation_size(self) -> int:
        space = self.model.observation_space
        if self._dict_obs:
            space = space.spaces["observation"]
        return int(np.prod(space.shape))

    def probabilities(self, observation, action_mask) -> np.ndarray:
        """The model's probability of every action (0 for the illegal ones)."""
        import torch

        mask = np.asarray(action_mask, dtype=bool)
        obs: Any = observation
        if self._dict_obs:
            obs = {"observation": observation, "action_mask": mask.astype(np.int8)}
        policy = self.model.policy
        obs_tensor, _ = policy.obs_to_tensor(obs)
        with torch.no_grad():
            dist = policy.get_distribution(obs_tensor, action_masks=mask[None])
            probs = dist.distribution.probs[0].cpu().numpy().astype(np.float64)
        return np.where(mask, probs, 0.0)

    def values(self, observations, action_masks) -> np.ndarray:
        """The value head's estimate of the return from each row of ``observations`` (a
        batch, with its legal masks), in the reward the model was trained on. The flat
        and move-scoring policies run only the value path (``jungle_envs.value_head``)."""
        import torch

        if self._value_head is None:
            from jungle_envs.value_head import value_head

            self._value_head = value_head(self.model.policy) or False
        if self._value_head:
            return self._value_head(observations)
        obs: Any = np.asarray(observations, dtype=np.float32)
        if self._dict_obs:
            obs = {"observation": obs, "action_mask": np.asarray(action_masks, dtype=np.int8)}
        policy = self.model.policy
        obs_tensor, _ = policy.obs_to_tensor(obs)
        with torch.no_grad():
            values = policy.predict_values(obs_tensor)
        return values.cpu().numpy().reshape(-1).astype(np.float64)

    def act(self, observation, action_mask, rng) -> int:
        mask = np.asarray(action_mask, dtype=bool)
        probs = self.probabilities(observation, mask)
        if self.deterministic:
            return int(np.argmax(probs))
        return int(rng.choice(len(probs), p=probs / probs.sum()))


def load_maskable_ppo(path: str | os.PathLike) -> Any:
    one_torch_thread_after_fork()
    try:
        from sb3_contrib import MaskablePPO
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ImportError(
            "loading a trained model needs the training extra: pip install 'jungle-envs[train]'"
        ) from exc
    found = os.fspath(path)
    if os.path.isdir(found):
        inside = os.path.join(found, "model.zip")
        hint = f"; the run's model is {inside!r}" if os.path.isfile(inside) else ""
        raise ValueError(f"{found!r} is a folder, not a MaskablePPO model .zip{hint}")
    if not os.path.exists(found):
        found = f"{found}.zip"  # as Stable-Baselines3 looks for it
        if not os.path.isfile(found):
            raise FileNotFoundError(f"no MaskablePPO model at {os.fspath(path)!r}")
    if not zipfile.is_zipfile(found):
        raise ValueError(f"{found!r} is not a MaskablePPO model (not a zip archive)")
    try:
        return MaskablePPO.load(found, device="cpu")
    except (
        AssertionError,
        KeyError,
        ValueError,
        RuntimeError,
        EOFError,
        zipfile.BadZipFile,
    ) as exc:
        raise ValueError(f"{found!r} is not a loadable MaskablePPO model: {exc!r}") from None


def is_model(spec: Any) -> bool:
    """A MaskablePPO model, or a path to one (not a registered name)."""
    if isinstance(spec, (str, os.PathLike)):
        name = os.fspath(spec)
        return registered_entry(name) is None and (name.endswith(".zip") or os.path.exists(name))
    return hasattr(spec, "policy") and hasattr(spec, "predict")


def trained_on(model: Any) -> dict[str, Any] | None:
    """The env a model was trained on: {"env", "num_players", "env_options"}, saved in the
    model's zip by the training scripts; None for a model saved without it."""
    if isinstance(model, (str, os.PathLike)):
        model = load_maskable_ppo(model)
    found = getattr(model, "trained_on", None)
    return dict(found) if isinstance(found, dict) else None
