"""Evaluate trained runs and print the rows of docs/results.md.

    python -m training.results [--runs runs] [--games 1000] [--workers 2] [--images docs/img]
        [--game NAME ...] [--model NAME=CHECKPOINT ...]

For every game with a run folder ``RUNS/<Game>`` (as written by
``python -m training.train --env jungle_envs/<Game>-v0 --out runs/<Game>``) it plays the
final model against random and against heuristic opponents, the heuristic against random
on the same seeds, and prints one markdown row per game with the training steps and wall
time; the learning curves are copied next to the page.
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
from pathlib import Path

import jungle_envs
from training.evaluate import run_evaluation

SEED = 20_000  # evaluation games never seen in training (those use seeds below 20,000)


def checkpoint_time(run: Path, checkpoint: Path) -> tuple[int, float]:
    """Steps of a ``step-N.zip`` checkpoint and the training wall time when it was saved,
    read off the run's progress log (the last row at or before those steps)."""
    steps = int(checkpoint.stem.split("-")[1])
    elapsed = 0.0
    for log in sorted((run / "logs").glob("session-*/progress.csv")):
        with log.open() as handle:
            for row in csv.DictReader(handle):
                # evaluation rows leave the rollout columns empty
                if row.get("time/time_elapsed") and float(row["time/total_timesteps"]) <= steps:
                    elapsed = float(row["time/time_elapsed"])
    return steps, elapsed


def cell(result) -> str:
    lo, hi = result.ci95
    return f"{result.win_rate:.3f} ({lo:.3f}-{hi:.3f})"


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=Path, default=Path("runs"))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--images", type=Path, default=Path("docs/img"))
    parser.add_argument(
        "--game", action="append", default=[], help="only this game, e.g. TropicRace (repeatable)"
    )
    parser.add_argument(
        "--model",
        action="append",
        default=[],
        metavar="GAME=PATH",
        help="evaluate PATH (e.g. a checkpoint) instead of RUNS/GAME/model.zip",
    )
    args = parser.parse_args(argv)
    bad = [item for item in args.model if "=" not in item]
    if bad:
        parser.error(f"--model takes GAME=PATH, got {bad[0]!r}")
    chosen = dict(item.split("=", 1) for item in args.model)
    args.images.mkdir(parents=True, exist_ok=True)
    rows = []
    print(
        "| game | players | agent vs random | agent vs heuristic | heuristic vs random "
        "| chance | steps | wall time |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for env_id in jungle_envs.ENV_IDS:
        name = env_id.split("/")[1].removesuffix("-v0")
        run = args.runs / name
        if (args.game and name not in args.game) or not (run / "model.zip").exists():
            continue
        summary = json.loads((run / "summary.json").read_text())
        players = summary["players"]
        model = chosen.get(name, str(run / "model.zip"))
        if name in chosen:  # a checkpoint: its steps and the time the run had taken then
            summary["timesteps"], summary["wall_seconds"] = checkpoint_time(run, Path(model))
        options = json.loads((run / "config.json").read_text()).get("env_options", {})
        evals = {
            key: run_evaluation(
                env_id, agent, opponents, args.games, players, SEED, args.workers, options
            )
            for key, agent, opponents in (
                ("agent_random", model, "random"),
                ("agent_heuristic", model, "heuristic"),
                ("heuristic_random", "heuristic", "random"),
            )
        }
        minutes = summary["wall_seconds"] / 60
        print(
            f"| {name} | {players} | {cell(evals['agent_random'])} | "
            f"{cell(evals['agent_heuristic'])} | {cell(evals['heuristic_random'])} | "
            f"{1 / players:.3f} | {summary['timesteps']:,} | {minutes:.1f} min |",
            flush=True,
        )
        if (run / "learning_curve.png").exists():
            shutil.copy(run / "learning_curve.png", args.images / f"{name}_learning_curve.png")
        rows.append(
            {
                "env": env_id,
                "players": players,
                **summary,
                **{
                    k: {
                        "win_rate": r.win_rate,
                        "ci95": list(r.ci95),
                        "games": r.games,
                        "illegal_actions": r.illegal_actions,
                    }
                    for k, r in evals.items()
                },
            }
        )
    return rows


if __name__ == "__main__":
    main()
