"""Evaluate the agents against the targets and print the tables of docs/results.md.

    python -m training.results [--players 4 2] [--game NAME ...] [--games 1000]
        [--workers 2] [--runs runs/train] [--model GAME-Np=PATH ...] [--images DIR]
        [--write docs/results.md]

For every game and player count the agent is ``--model`` if given, else the agent shipped
in the package (``ppo``), else ``RUNS/<Game>-<N>p/model.zip``. It plays 1,000 games
(seeds 20,000-20,999, its seat rotating) against three heuristics and against three
random players; the heuristic plays the same games from the same seat. The targets: the
agent against heuristics wins more often than the heuristic does, with 95% intervals apart;
against random it does at least as well as the heuristic (in score margin over the best
opponent where both win every game). ``--write`` replaces the page's targets section.
The runs' learning curves are copied to ``RUNS/img`` (``--images docs/img`` for the
committed pictures).
"""

from __future__ import annotations

import csv
import json
import shutil
import sys
from pathlib import Path
from typing import Any

from jungle_envs import agents
from training import cli
from training.evaluate import run_evaluation

SEED = 20_000  # evaluation games never seen in training (those use seeds below 20,000)
START, END = "<!-- targets:start -->", "<!-- targets:end -->"
MATCHES = (
    ("agent_heuristic", "agent", "heuristic"),
    ("heuristic_heuristic", "heuristic", "heuristic"),
    ("agent_random", "agent", "random"),
    ("heuristic_random", "heuristic", "random"),
)


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


def find_agent(
    game: str, players: int, runs: Path, chosen: dict[str, str]
) -> tuple[str, dict[str, Any]] | None:
    """The agent to evaluate and how long it trained, or None when there is none."""
    name = agents.agent_name(game, players)
    run = runs / name
    if name in chosen:
        path = Path(chosen[name])
        if path.stem.startswith("step-") and (run / "logs").exists():
            steps, wall = checkpoint_time(run, path)
            return str(path), {"timesteps": steps, "wall_seconds": wall}
        return str(path), {"timesteps": None, "wall_seconds": None}
    record = agents.shipped().get(name)
    if record:
        return "ppo", {"timesteps": record["timesteps"], "wall_seconds": record["wall_seconds"]}
    if (run / "model.zip").exists():
        summary = json.loads((run / "summary.json").read_text())
        return str(run / "model.zip"), summary
    return None


def cell(result: dict[str, Any]) -> str:
    lo, hi = result["ci95"]
    return f"{result['win_rate']:.3f} ({lo:.3f}-{hi:.3f})"


def margin_cell(result: dict[str, Any]) -> str:
    lo, hi = result["margin_ci95"]
    return f"{result['mean_margin']:+.1f} ({lo:+.1f} to {hi:+.1f})"


def verdicts(row: dict[str, Any]) -> tuple[str, str]:
    """(beats the heuristic among heuristics, at least the heuristic against random)."""
    a, h = row["agent_heuristic"], row["heuristic_heuristic"]
    gap = a["win_rate"] - h["win_rate"]
    if a["ci95"][0] > h["ci95"][1]:
        first = "met"
    elif gap > 0:
        first = f"missed: higher by {gap:.3f}, intervals overlap"
    elif gap == 0:
        first = "missed: equal"
    else:
        first = f"missed: lower by {-gap:.3f}"
    ar, hr = row["agent_random"], row["heuristic_random"]
    if ar["win_rate"] == hr["win_rate"] == 1.0:  # both win every game: compare margins
        gap = ar["mean_margin"] - hr["mean_margin"]
        second = "met (margin)" if gap >= 0 else f"missed: margin lower by {-gap:.1f}"
    else:
        gap = ar["win_rate"] - hr["win_rate"]
        second = "met" if gap >= 0 else f"missed: lower by {-gap:.3f}"
    return first, second


def evaluate_row(
    game: str,
    players: int,
    agent: str,
    trained: dict,
    games: int,
    workers: int,
    quiet: bool = True,
) -> dict[str, Any]:
    env_id = f"jungle_envs/{game}-v0"
    row: dict[str, Any] = {"game": game, "players": players, "agent": agent, **trained}
    for key, who, opponents in MATCHES:
        result = run_evaluation(
            env_id,
            agent if who == "agent" else who,
            opponents,
            games,
            players,
            SEED,
            workers,
            quiet=quiet,
            desc=f"{game} {players}p {who} vs {opponents}",
        )
        lo, hi = result.ci95
        row[key] = {
            "win_rate": result.win_rate,
            "ci95": [lo, hi],
            "games": result.games,
            "illegal_actions": result.illegal_actions,
            "mean_margin": result.mean_margin,
            "margin_ci95": list(result.margin_ci95),
        }
    return row


def tables(rows: list[dict[str, Any]], games: int) -> str:
    lines = [
        f"{games:,} games per cell, seeds {SEED:,}-{SEED + games - 1:,}, the seat rotating, "
        "against N - 1 opponents of one kind; win rates with 95% Wilson intervals, a shared "
        "win counting 1/k.",
        "",
        "| game | players | agent vs heuristics | heuristic vs heuristics | target 1 "
        "| agent vs random | heuristic vs random | target 2 | agent's steps | its wall time |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        first, second = verdicts(row)
        steps, wall = row.get("timesteps"), row.get("wall_seconds")
        lines.append(
            f"| {row['game']} | {row['players']} | {cell(row['agent_heuristic'])} | "
            f"{cell(row['heuristic_heuristic'])} | {first} | {cell(row['agent_random'])} | "
            f"{cell(row['heuristic_random'])} | {second} | "
            f"{f'{steps:,}' if steps else '-'} | {f'{wall / 60:.1f} min' if wall else '-'} |"
        )
    lines += [
        "",
        "Score margin (own score minus the best opponent's, mean and 95% interval):",
        "",
        "| game | players | agent vs heuristics | heuristic vs heuristics "
        "| agent vs random | heuristic vs random |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        cells = " | ".join(margin_cell(row[key]) for key, _, _ in MATCHES)
        lines.append(f"| {row['game']} | {row['players']} | {cells} |")
    return "\n".join(lines) + "\n"


def shipped_table() -> str:
    """What each shipped agent is and how it was trained (``jungle_envs/agents``)."""
    lines = [
        'The shipped agents (`opponents="ppo"`; `jungle_envs/agents/manifest.json`):',
        "",
        "| agent | size | env options | trained for | opponents when it was saved "
        "| picked on validation games |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for name, record in agents.shipped().items():
        training = record["training"]
        stages = training.get("curriculum") or [{"from": 0.0, "opponents": training["opponents"]}]
        spent = (
            record["wall_seconds"] / training["wall_seconds"] if training.get("wall_seconds") else 1
        )
        stage = max((st for st in stages if st["from"] <= spent), key=lambda st: st["from"])
        picked = record.get("selected")
        chosen = "final model"
        if picked:
            rate = max(picked["win_rates"].values())
            chosen = f"best of {len(picked['win_rates'])}: {rate:.3f} vs heuristics"
        options = ", ".join(f"{k}={v}" for k, v in record["env_options"].items()) or "-"
        lines.append(
            f"| {name} | {record['bytes'] / 2**20:.1f} MiB | {options} | "
            f"{record['timesteps']:,} steps, {record['wall_seconds'] / 60:.1f} min | "
            f"{json.dumps(stage['opponents'])} | {chosen} |"
        )
    return "\n".join(lines) + "\n"


def throughput(runs: Path, games: list[str], players: list[int]) -> str:
    """Steps per second over each whole training run (its summary), as a table."""
    lines = [
        "Training throughput over each whole run:",
        "",
        "| game | players | steps | wall time | steps/s |",
        "| --- | --- | --- | --- | --- |",
    ]
    for count in players:
        for game in games:
            summary = runs / agents.agent_name(game, count) / "summary.json"
            if summary.exists():
                run = json.loads(summary.read_text())
                steps, wall = run["timesteps"], run["wall_seconds"]
                lines.append(
                    f"| {game} | {count} | {steps:,} | {wall / 60:.1f} min | {steps / wall:,.0f} |"
                )
    return "\n".join(lines) + "\n"


def write_section(page: Path, body: str) -> None:
    from training.ladder import write_section as replace

    replace(page, body, START, END)


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = cli.parser("training.results", __doc__)
    cli.add_games(parser)
    parser.add_argument("--players", nargs="+", type=int, default=[4, 2], help="player counts")
    parser.add_argument("--games", type=int, default=1000, help="games per cell")
    parser.add_argument("--workers", type=int, default=2, help="processes sharing the games")
    parser.add_argument(
        "--runs", type=Path, default=Path("runs/train"), help="folder of the training runs"
    )
    parser.add_argument(
        "--model",
        action="append",
        default=[],
        metavar="GAME-Np=PATH",
        help="evaluate PATH (e.g. a checkpoint) for that game and player count (repeatable)",
    )
    parser.add_argument(
        "--images",
        type=Path,
        help="copy the runs' learning curves here (None: RUNS/img; docs/img replaces the "
        "committed pictures)",
    )
    parser.add_argument("--write", type=Path, help="a markdown page with a targets section")
    cli.add_quiet(parser)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    bad = [item for item in args.model if "=" not in item]
    if bad:
        parser.error(f"--model takes GAME-Np=PATH, e.g. TropicRace-4p=model.zip; got {bad[0]!r}")
    chosen = dict(item.split("=", 1) for item in args.model)
    images = args.images if args.images is not None else args.runs / "img"
    if not args.runs.is_dir():
        print(
            f"results: note: no runs folder {str(args.runs)!r}: no trained models, learning "
            "curves or throughput from it",
            file=sys.stderr,
        )
    rows = []
    for players in args.players:
        for game in args.game:
            found = find_agent(game, players, args.runs, chosen)
            if found is None:
                print(f"{game}, {players} players: no agent (shipped, run or --model)")
                continue
            agent, trained = found
            row = evaluate_row(
                game, players, agent, trained, args.games, args.workers, quiet=args.quiet
            )
            print(json.dumps(row), flush=True)
            rows.append(row)
            curve = args.runs / agents.agent_name(game, players) / "learning_curve.png"
            if curve.exists():
                images.mkdir(parents=True, exist_ok=True)
                shutil.copy(curve, images / f"{agents.agent_name(game, players)}_curve.png")
    if not rows:
        print(
            f"results: nothing to evaluate for {', '.join(args.game)} with "
            f"{', '.join(map(str, args.players))} players: no agent shipped in the package, no "
            f"{args.runs}/<Game>-<N>p/model.zip and no --model GAME-Np=PATH",
            file=sys.stderr,
        )
        return rows
    body = "\n".join(
        [shipped_table(), tables(rows, args.games), throughput(args.runs, args.game, args.players)]
    )
    print(body)
    if args.write:
        write_section(args.write, body)
    return rows


if __name__ == "__main__":
    main()
