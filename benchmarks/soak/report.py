"""The run's summary (JSON), its Markdown report and table, and ``--write``'s markers."""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from .plan import Plan
from .tasks import PATHS, TaskResult

MARK_START, MARK_END = "<!-- soak:start -->", "<!-- soak:end -->"


def summarise(
    results: list[TaskResult],
    plan: Plan,
    args: argparse.Namespace,
    wall: float,
    interrupted: bool,
) -> dict[str, Any]:
    cells: dict[tuple[str, str, int, str], dict[str, float]] = {}
    records: list[dict[str, Any]] = []
    errors = 0
    for r in results:
        t = r.task
        cell = cells.setdefault(
            (t.game, t.path, t.players, t.variant),
            dict.fromkeys(("games", "steps", "truncated", "errors", "seconds", "tasks"), 0),
        )
        cell["games"] += r.games
        cell["steps"] += r.steps
        cell["truncated"] += r.truncated
        cell["errors"] += r.errors
        cell["seconds"] += r.seconds
        cell["tasks"] += 1
        errors += r.errors
        records += r.records
    planned = sum(t.games for t in plan.tasks)
    played = sum(int(c["games"]) for c in cells.values())
    timed_out = any(r.aborted == "time limit" for r in results) or len(results) < len(plan.tasks)
    return {
        "command": "python -m benchmarks.soak " + " ".join(args.argv),
        "seed": args.seed,
        "workers": args.workers,
        "paths": list(args.paths),
        "games_planned": planned,
        "games": played,
        "steps": sum(int(c["steps"]) for c in cells.values()),
        "truncated": sum(int(c["truncated"]) for c in cells.values()),
        "errors": errors,
        "wall_seconds": round(wall, 1),
        "complete": not interrupted and not timed_out,
        "interrupted": interrupted,
        "stopped_by_time_limit": timed_out and not interrupted,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": git_commit(),
        "machine": machine(),
        "cells": [
            {
                "game": g,
                "path": p,
                "players": n,
                "variant": v,
                **{k: round(x, 3) if k == "seconds" else int(x) for k, x in c.items()},
            }
            for (g, p, n, v), c in sorted(cells.items())
        ],
        "variants": plan.variant_names,
        "not_applicable": plan.not_applicable,
        "error_records": records[: args.max_error_records],
    }


def git_commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            cwd=Path(__file__).parent,
            timeout=10,
            check=True,
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            cwd=Path(__file__).parent,
            timeout=10,
            check=True,
        )
        return out.stdout.strip() + (" (with uncommitted changes)" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def machine() -> str:
    import numba

    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    return (
        f"{platform.machine()}, {cores} cores, Python {platform.python_version()}, "
        f"numpy {np.__version__}, numba {numba.__version__}, gymnasium {gym.__version__}"
    )


def by_game_and_path(summary: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for c in summary["cells"]:
        row = rows.setdefault(
            (c["game"], c["path"]),
            {
                "players": set(),
                "variants": set(),
                **dict.fromkeys(("games", "steps", "truncated", "errors", "seconds"), 0),
            },
        )
        row["players"].add(c["players"])
        if c["games"]:
            row["variants"].add(c["variant"])
        for k in ("games", "steps", "truncated", "errors", "seconds"):
            row[k] += c[k]
    return rows


def table(summary: dict[str, Any]) -> str:
    """The summary as a Markdown table: one row per game and path, then totals by path."""
    rows = by_game_and_path(summary)
    head = (
        "| game | path | players | variants | games | steps | steps/game | games/s "
        "per core | truncated | errors |"
    )
    lines = [head, "|" + "---|" * 4 + "---:|" * 6]

    def line(game: str, path: str, row: dict[str, Any]) -> str:
        players = sorted(row["players"])
        span = f"{players[0]}-{players[-1]}" if len(players) > 1 else str(players[0])
        per_game = row["steps"] / row["games"] if row["games"] else 0
        rate = row["games"] / row["seconds"] if row["seconds"] else 0
        return (
            f"| {game} | {path} | {span} | {len(row['variants'])} | {row['games']:,} | "
            f"{row['steps']:,} | {per_game:,.0f} | {rate:,.0f} | {row['truncated']:,} | "
            f"{row['errors']:,} |"
        )

    paths = [p for p in PATHS if any(k[1] == p for k in rows)]
    games = list(dict.fromkeys(k[0] for k in rows))
    for game in games:
        for path in paths:
            if (game, path) in rows:
                lines.append(line(game, path, rows[(game, path)]))
    for path in paths:
        total = {
            "players": set(),
            "variants": set(),
            **dict.fromkeys(("games", "steps", "truncated", "errors", "seconds"), 0),
        }
        for (_, p), row in rows.items():
            if p == path:
                total["players"] |= row["players"]
                for k in ("games", "steps", "truncated", "errors", "seconds"):
                    total[k] += row[k]
        total["variants"] = {
            (c["game"], c["variant"]) for c in summary["cells"] if c["path"] == path and c["games"]
        }
        lines.append(line("**all**", f"**{path}**", total))
    everything = {
        "players": {c["players"] for c in summary["cells"]},
        "variants": {(c["game"], c["variant"]) for c in summary["cells"] if c["games"]},
        **{
            k: sum(c[k] for c in summary["cells"])
            for k in ("games", "steps", "truncated", "errors", "seconds")
        },
    }
    if summary["cells"]:
        lines.append(line("**all**", "**all**", everything))
    return "\n".join(lines)


def report(summary: dict[str, Any]) -> str:
    """The summary as Markdown (what ``--write`` puts between the markers)."""
    status = (
        "complete"
        if summary["complete"]
        else ("interrupted" if summary["interrupted"] else "stopped by the time limit")
    )
    wall = summary["wall_seconds"]
    took = f"{wall:.0f} s" if wall < 120 else f"{wall / 60:.1f} min"
    out = [
        f"`{summary['command'].strip()}`: **{summary['games']:,} games, "
        f"{summary['errors']} errors** ({summary['steps']:,} steps) in {took} "
        f"wall time on {summary['workers']} worker process(es); run {status} "
        f"({summary['games']:,} of {summary['games_planned']:,} planned games). "
        f"{summary['date']}, commit {summary['commit']}; {summary['machine']}.",
        "",
        table(summary),
        "",
        "Steps: learner steps (env, compiled), decisions and chance events (engine), "
        "`env.step` calls (pettingzoo). Games/s per core: games over the time the worker "
        "spent on them. Truncated: episodes cut off by the env's step limit.",
        "",
        "Option variants: "
        + "; ".join(f"{g}: {', '.join(v)}" for g, v in summary["variants"].items())
        + ".",
    ]
    if summary["not_applicable"]:
        skipped = sorted(
            {
                (k.rsplit(" ", 1)[0], v.split(" (")[0])
                for k, vs in summary["not_applicable"].items()
                for v in vs
            }
        )
        out += [
            "",
            "Not applicable (the options refuse them): "
            + ", ".join(f"{v} at {k}" for k, v in skipped)
            + ".",
        ]
    if summary["error_records"]:
        out += ["", "Errors:", ""]
        for e in summary["error_records"]:
            out.append(
                f"- {e['path']} {e['game']} {e['players']}p {e['variant']} "
                f"seed {e['seed']}: {e['error'].splitlines()[0][:300]} "
                f"(`{e['replay']}`)"
            )
    return "\n".join(out)


def check_markers(path: Path) -> tuple[str, int, int]:
    """The content of ``path`` and where its soak markers are; ValueError if it has none."""
    if not path.is_file():
        raise ValueError(
            f"--write: {path} does not exist (it must hold the markers {MARK_START} and {MARK_END})"
        )
    content = path.read_text()
    start, end = content.find(MARK_START), content.find(MARK_END)
    if start < 0 or end < start or content.count(MARK_START) != 1 or content.count(MARK_END) != 1:
        raise ValueError(f"--write: {path} needs one {MARK_START} followed by one {MARK_END}")
    return content, start, end


def write_markers(path: Path, text: str) -> None:
    """Replace what lies between the soak markers of ``path`` with ``text``."""
    content, start, end = check_markers(path)
    new = content[: start + len(MARK_START)] + "\n" + text.strip() + "\n" + content[end:]
    path.write_text(new)
