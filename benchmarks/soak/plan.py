"""The plan: the run's games cut into seeded tasks, in an order that reaches every game,
player count, path and variant early."""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from jungle_envs.core.registry import GAMES, game_class

from .tasks import PATHS, Task
from .variants import variants


@dataclass
class Plan:
    tasks: list[Task]
    not_applicable: dict[str, list[str]]  # "game Np path" -> variants it does not take
    variant_names: dict[str, list[str]]


def task_seed(seed: int, *place: int) -> int:
    """A task's seed from the run's and the task's place in the plan (below 2**62, so the
    games' seeds, the task's plus an index, stay distinct)."""
    state = np.random.SeedSequence([seed, *place]).generate_state(1, np.uint64)[0]
    return int(state >> np.uint64(2))


def applicable(path: str, name: str, players: int, options: dict[str, Any] | None) -> str:
    """Why a variant cannot be played on a path ("" if it can)."""
    if options is None:
        return "not at this player count"
    try:
        game = game_class(name)(players, **options)
    except ValueError as exc:
        return str(exc)
    if path == "compiled":
        from jungle_envs.core.compiled.twin import Twin, TwinUnavailable

        try:
            Twin(game)
        except TwinUnavailable as exc:
            return str(exc)
    return ""


def split_games(total: int, share: float, count: int) -> list[int]:
    """Games of the default options and of each of ``count`` variants for ``total`` games:
    the variants share ``share`` of them, each at least one game (so a small ``total`` plays
    a little more than asked), the default options the rest, at least ``1 - share``."""
    if count == 0 or share <= 0 or total == 0:
        return [total] + [0] * count
    each = max(1, round(total * share / count))
    return [max(total - each * count, math.ceil(total * (1 - share))), *([each] * count)]


def make_plan(args: argparse.Namespace) -> Plan:
    cells = []  # (path, game, players, variant names with games)
    not_applicable: dict[str, list[str]] = {}
    names = args.game or list(GAMES)
    for path in args.paths:
        per_cell = args.games_compiled if path == "compiled" else args.games
        chunk = args.chunk_compiled if path == "compiled" else args.chunk
        for g, name in enumerate(names):
            spec = game_class(name).spec
            counts = [n for n in spec.player_counts if not args.players or n in args.players]
            for n in counts:
                playable = []
                for v, variant in enumerate(variants(name)):
                    why = applicable(path, name, n, variant.options(n))
                    if why:
                        not_applicable.setdefault(f"{name} {n}p {path}", []).append(
                            f"{variant.name} ({why})"
                        )
                    elif v == 0 or args.option_share > 0:
                        playable.append((v, variant.name))
                split = split_games(per_cell, args.option_share, len(playable) - 1)
                for (v, vname), games in zip(playable, split, strict=True):
                    pieces = [chunk] * (games // chunk) + ([games % chunk] if games % chunk else [])
                    cells.append(
                        [(path, g, name, n, v, vname, c, size) for c, size in enumerate(pieces)]
                    )
    # Round robin over the cells: every path, game, player count and variant comes early.
    tasks = []
    for c in range(max((len(cell) for cell in cells), default=0)):
        for cell in cells:
            if c < len(cell):
                path, g, name, n, v, vname, index, size = cell[c]
                seed = task_seed(args.seed, PATHS.index(path), g, n, v, index)
                settings = index + n + v  # varies along a cell and across player counts
                num_envs = min(args.num_envs, size) if path == "compiled" else 0
                tasks.append(Task(path, name, n, vname, seed, size, settings, num_envs))
    return Plan(tasks, not_applicable, {name: [v.name for v in variants(name)] for name in names})
