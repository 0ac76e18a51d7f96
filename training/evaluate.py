"""Win rate of a policy against opponents, with 95% confidence intervals.

    python -m training.evaluate --env jungle_envs/JungleSweep-v0 --agent runs/x/model.zip \
        --opponents random --games 2000 [--players 4] [--seed 0] [--workers 2] [--json]
        [--option move_features=true ...]

``--agent`` and ``--opponents`` take a built-in name (random, heuristic) or a path to a
MaskablePPO .zip; ``--opponents`` also takes a comma-separated list, one per seat after
the agent's. Game i is seeded ``seed + i`` and seats the agent in seat i mod N, so a run
is reproducible, every seat is played equally often, and the result does not depend on
``--workers`` (processes sharing the games). ``--option KEY=VALUE`` passes a game option
to ``gymnasium.make``; a model saved by ``training.train`` or the demo carries its env, player
count and options, which are then the defaults.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import time
from pathlib import Path
from typing import Any

import jungle_envs
from jungle_envs.evaluation import (
    EvaluationResult,
    evaluate,
    evaluation_replays,
    merge_results,
    wilson_interval,
)
from jungle_envs.maskable_ppo import is_model, trained_on
from training import cli
from training.cli import fail
from training.config import parse_value
from training.validate import check_policy_name


def _run(job: tuple) -> EvaluationResult:
    env_id, agent, opponents, games, players, seed, indices, options = job
    import torch

    torch.set_num_threads(1)
    return evaluate(
        env_id,
        agent,
        opponents,
        games=games,
        num_players=players,
        seed=seed,
        indices=indices,
        **options,
    )


def run_evaluation(
    env_id: str,
    agent: Any,
    opponents: Any,
    games: int,
    players: int | None,
    seed: int,
    workers: int = 1,
    options: dict[str, Any] | None = None,
    quiet: bool = True,
    desc: str = "games",
) -> EvaluationResult:
    """``quiet=False`` shows a progress bar on stderr (when it is a terminal): the games are
    then played in small batches, which gives the same result."""
    if isinstance(opponents, str) and "," in opponents:
        opponents = opponents.split(",")
    options = dict(options or {})
    workers = max(1, min(workers, games))
    bar = cli.bar_on(quiet)
    if workers == 1 and not bar:
        return _run((env_id, agent, opponents, games, players, seed, None, options))
    if bar:
        size = max(1, min(50, games // (4 * workers) or 1))
        chunks = [list(range(k, min(k + size, games))) for k in range(0, games, size)]
    else:
        chunks = [list(range(w, games, workers)) for w in range(workers)]
    jobs = [(env_id, agent, opponents, games, players, seed, chunk, options) for chunk in chunks]
    if workers == 1:
        return merge_results(list(cli.progress(map(_run, jobs), len(jobs), desc, quiet)))
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        results = pool.imap(_run, jobs)
        return merge_results(list(cli.progress(results, len(jobs), desc, quiet)))


def report(result: EvaluationResult, agent: str, opponents: str, seconds: float) -> dict:
    lo, hi = result.ci95
    per_seat = {}
    for seat, record in result.per_seat.items():
        s_lo, s_hi = wilson_interval(record.wins, record.games)
        per_seat[seat] = {"games": record.games, "win_rate": record.win_rate, "ci95": [s_lo, s_hi]}
    return {
        "env": result.env_id,
        "players": result.num_players,
        "agent": agent,
        "opponents": opponents,
        "games": result.games,
        "win_rate": result.win_rate,
        "ci95": [lo, hi],
        "chance": result.chance_rate,
        "sole_wins": result.sole_wins,
        "shared_wins": result.shared_wins,
        "mean_score": result.mean_score,
        "mean_margin": result.mean_margin,
        "margin_ci95": list(result.margin_ci95),
        "illegal_actions": result.illegal_actions,
        "truncated": result.truncated,
        "decisions_per_game": result.decisions / max(result.games, 1),
        "per_seat": per_seat,
        "details": result.details,
        "seconds": round(seconds, 1),
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = cli.parser("training.evaluate", __doc__)
    parser.add_argument(
        "--env",
        type=cli.env_id,
        help="env id or game name (TropicRace, tropic_race); None: the env a model agent was "
        "trained on, else jungle_envs/JungleSweep-v0",
    )
    parser.add_argument(
        "--agent", default="heuristic", help="a built-in player (random, heuristic, ppo) or "
        "a MaskablePPO .zip",
    )  # fmt: skip
    parser.add_argument(
        "--opponents", default="random", help="a built-in player or model for every other "
        "seat, or a comma-separated list, one per seat after the agent's",
    )  # fmt: skip
    parser.add_argument("--games", type=int, default=1000, help="games to play")
    parser.add_argument(
        "--players", type=int, default=None,
        help="player count (None: the model's, else the game's default)",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, help="game i is seeded seed + i")
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help=f"processes to share the games (this machine has {os.cpu_count()})",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    cli.add_quiet(parser)
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option for gymnasium.make, e.g. move_features=true (repeatable)",
    )
    parser.add_argument(
        "--replays",
        metavar="DIR",
        help="also write replays (jungle_envs.replay) of the games --replay-games into DIR: "
        "the evaluated games themselves, every decision and chance outcome",
    )
    parser.add_argument(
        "--replay-games",
        type=int,
        nargs="+",
        default=[0, 1, 2],
        metavar="I",
        help="which games --replays writes, by index (game i: seed + i, the agent in seat "
        "i %% players; default: 0 1 2)",
    )
    args = parser.parse_args(argv)
    try:
        args.options = parse_options(args.option)
    except ValueError as exc:
        parser.error(str(exc))
    check_args(args)
    return args


def check_args(args: argparse.Namespace) -> None:
    """Fail in one line, before any game is played, on what the evaluation could not use."""
    for flag, value, low in (("--games", args.games, 1), ("--workers", args.workers, 1),
                             ("--seed", args.seed, 0), ("--players", args.players, 1)):  # fmt: skip
        if value is not None and value < low:
            fail(f"evaluate: error: {flag} must be an integer >= {low}, got {value}")
    if args.replays and any(i < 0 or i >= args.games for i in args.replay_games):
        fail(f"evaluate: error: --replay-games must be from 0 to {args.games - 1}")
    specs = [("--agent", args.agent)]
    specs += [("--opponents", name) for name in args.opponents.split(",")]
    for flag, name in specs:
        check_policy_name("evaluate", flag, name)


def write_replays(args: argparse.Namespace) -> list[str]:
    """The chosen games' replays, one file each: ``DIR/game-<i>.json``."""
    opponents = args.opponents.split(",") if "," in args.opponents else args.opponents
    replays = evaluation_replays(
        args.env, args.agent, opponents, args.replay_games, args.players, args.seed,
        **args.options,
    )  # fmt: skip
    folder = Path(args.replays)
    folder.mkdir(parents=True, exist_ok=True)
    return [
        str(replay.save(folder / f"game-{i}.json"))
        for i, replay in zip(args.replay_games, replays, strict=True)
    ]


def parse_options(items: list[str]) -> dict[str, Any]:
    """``["key=value", ...]`` to keyword arguments; values are read as JSON when they parse
    (``true``, ``3``, ``[1, 2]``) and kept as text otherwise."""
    options = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise ValueError(f"an option looks like KEY=VALUE, got {item!r}")
        options[key] = parse_value(raw)
    return options


def main(argv: list[str] | None = None) -> dict:
    args = parse_args(argv)
    if args.env is None:
        trained = trained_on(args.agent) if is_model(args.agent) else None
        args.env = trained["env"] if trained else "jungle_envs/JungleSweep-v0"
    counts = jungle_envs.game_class(args.env).spec.player_counts
    if args.players is not None and args.players not in counts:
        fail(
            f"evaluate: error: --players must be from {counts.start} to {counts.stop - 1} "
            f"for {args.env}, got {args.players}"
        )
    start = time.perf_counter()
    result = run_evaluation(
        args.env,
        args.agent,
        args.opponents,
        args.games,
        args.players,
        args.seed,
        args.workers,
        args.options,
        quiet=args.quiet,
    )
    data = report(result, args.agent, args.opponents, time.perf_counter() - start)
    if args.replays:
        data["replays"] = write_replays(args)
    if args.json:
        print(json.dumps(data))
        return data
    print(
        f"{args.agent} vs {args.opponents} on {args.env}, {result.num_players} players, "
        f"seeds {args.seed}..{args.seed + args.games - 1} ({data['seconds']:.0f} s)"
    )
    print(f"  {result.summary()}")
    print(
        f"  sole wins {result.sole_wins}, shared wins {result.shared_wins}, "
        f"learner decisions per game {data['decisions_per_game']:.1f}"
    )
    seats = ", ".join(
        f"seat {s}: {r['win_rate']:.3f} ({r['ci95'][0]:.3f}-{r['ci95'][1]:.3f})"
        for s, r in data["per_seat"].items()
    )
    print(f"  per seat: {seats}")
    if args.replays:
        print(f"  replays: {', '.join(data['replays'])}")
    if result.details:
        means = ", ".join(f"{k} {v:.3f}" for k, v in sorted(result.details.items()))
        print(f"  per game (mean): {means}")
    return data


if __name__ == "__main__":
    main()
