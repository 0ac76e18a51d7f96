"""A task (a batch of games on one path, game, player count and variant), its replay key,
its result, and the knobs a worker runs it with."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jungle_envs.core.registry import GAMES

PATHS = ("env", "engine", "pettingzoo", "compiled")


@dataclass(frozen=True)
class Task:
    path: str
    game: str  # env name, e.g. "JungleSweep"
    players: int
    variant: str
    seed: int  # the first game's seed (compiled: the vector env's reset seed)
    games: int
    settings: int = 0  # index into the path's settings table
    num_envs: int = 0  # compiled only

    def key(self, seed: int | None = None) -> str:
        """What ``--replay`` takes: one game (Python paths, ``seed`` its own) or the task."""
        parts = [self.path, self.game, str(self.players), self.variant]
        parts += [str(self.seed if seed is None else seed), str(self.settings)]
        if self.path == "compiled":
            parts += [str(self.games), str(self.num_envs)]
        return ":".join(parts)

    @classmethod
    def from_key(cls, key: str) -> Task:
        parts = key.split(":")
        try:
            path, name, players, variant, seed, settings, *rest = parts
            if path not in PATHS or name not in GAMES:
                raise ValueError
            if path == "compiled":
                games, num_envs = (int(x) for x in rest)
            elif rest:
                raise ValueError
            else:
                games, num_envs = 1, 0
            return cls(path, name, int(players), variant, int(seed), games, int(settings), num_envs)
        except ValueError:
            raise ValueError(
                f"bad replay key {key!r}: expected path:game:players:variant:seed:settings"
                "[:games:num_envs] as the soak prints it"
            ) from None


@dataclass
class TaskResult:
    task: Task
    games: int = 0
    steps: int = 0
    truncated: int = 0
    errors: int = 0
    seconds: float = 0.0
    records: list[dict[str, Any]] = field(default_factory=list)
    aborted: str = ""  # why the task stopped before its games were played, if it did


@dataclass(frozen=True)
class Knobs:
    """What a worker needs besides the task."""

    deadline: float | None = None  # time.time() after which no game starts
    deep_every: int = 50
    check_every: int = 200
    check_every_compiled: int = 10
    max_task_errors: int = 3
    full: bool = False  # check everything at every state (replays)
