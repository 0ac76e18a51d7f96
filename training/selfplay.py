"""Self-play: a pool of the learner's past snapshots that opponents are drawn from.

The trainer saves a snapshot of the learner every ``snapshot_freq`` steps into a pool
folder and lists the newest ones in ``pool.json`` (written atomically). Every opponent seat
holds a ``SnapshotPool`` policy; at the start of each episode (the env calls
``start_episode``) it becomes either a fixed policy (random, heuristic) or one of the
listed snapshots, so opponents change only between episodes. Env workers in other
processes read the same folder.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from stable_baselines3.common.callbacks import BaseCallback

import jungle_envs
from jungle_envs.core.files import atomic_write, atomic_write_text
from jungle_envs.core.policies import make_policy
from jungle_envs.maskable_ppo import MaskablePPOPolicy

MANIFEST = "pool.json"


def atomic_save(model: Any, path: Path, exclude: list[str] | None = None) -> None:
    """Save a model so that a reader (or a crash) never sees a half-written file."""
    atomic_write(path, lambda tmp: model.save(tmp, exclude=exclude))


class SnapshotPool:
    """One opponent seat in self-play; swaps its player at every episode start."""

    def __init__(
        self,
        pool_dir: str | Path,
        env_id: str,
        players: int,
        env_options: dict,
        fixed: list[str],
        fixed_ratio: float,
        cache_size: int = 12,
    ) -> None:
        self.pool_dir = Path(pool_dir)
        self.env_id, self.players, self.env_options = env_id, players, env_options
        self.fixed_names, self.fixed_ratio = list(fixed), float(fixed_ratio)
        self.cache_size = cache_size
        self._game = None
        self._fixed: dict[str, Any] = {}
        self._models: dict[str, MaskablePPOPolicy] = {}
        self.current: Any = None
        self.current_name = ""

    def snapshots(self) -> list[str]:
        try:
            return json.loads((self.pool_dir / MANIFEST).read_text())
        except (FileNotFoundError, json.JSONDecodeError):
            return []

    def start_episode(self, rng) -> None:
        if self._game is None:
            self._game = jungle_envs.make_game(self.env_id, self.players, **self.env_options)
        pool = self.snapshots()
        if not pool or (self.fixed_names and rng.random() < self.fixed_ratio):
            name = self.fixed_names[int(rng.integers(len(self.fixed_names)))]
            if name not in self._fixed:
                self._fixed[name] = make_policy(name, self._game)
            self.current, self.current_name = self._fixed[name], name
            return
        name = pool[int(rng.integers(len(pool)))]
        if name not in self._models:
            if len(self._models) >= self.cache_size:
                self._models.pop(next(iter(self._models)))
            try:
                self._models[name] = MaskablePPOPolicy(self.pool_dir / name, deterministic=False)
            except (FileNotFoundError, OSError):  # pruned since the manifest was read
                self.current = make_policy(
                    self.fixed_names[0] if self.fixed_names else "random", self._game
                )
                self.current_name = "fallback"
                return
        self.current, self.current_name = self._models[name], name

    def act(self, observation, action_mask, rng) -> int:
        return self.current.act(observation, action_mask, rng)


class SnapshotCallback(BaseCallback):
    """Adds a copy of the learner to the pool every ``freq`` steps (and one at the start)."""

    def __init__(self, pool_dir: str | Path, freq: int, pool_size: int) -> None:
        super().__init__()
        self.pool_dir, self.freq, self.pool_size = Path(pool_dir), freq, pool_size
        self._next = 0

    def _on_training_start(self) -> None:
        self.pool_dir.mkdir(parents=True, exist_ok=True)
        self._next = self.num_timesteps

    def _on_step(self) -> bool:
        if self.num_timesteps >= self._next:
            self._next = self.num_timesteps + self.freq
            name = f"snapshot-{self.num_timesteps:010d}.zip"
            atomic_save(self.model, self.pool_dir / name)
            pool = sorted(p.name for p in self.pool_dir.glob("snapshot-*.zip"))
            atomic_write_text(self.pool_dir / MANIFEST, json.dumps(pool[-self.pool_size :]))
            for old in pool[: -self.pool_size]:  # listed no more, so readers move on
                (self.pool_dir / old).unlink(missing_ok=True)
        return True
