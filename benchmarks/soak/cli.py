"""The command line: flags, ``--replay``, ``--list-variants`` and the run itself."""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

from jungle_envs.core.registry import GAMES, game_class

from .plan import make_plan
from .progress import Progress
from .report import MARK_END, MARK_START, check_markers, report, summarise, write_markers
from .runner import run_plan, run_task
from .tasks import PATHS, Knobs, Task
from .variants import variant_options, variants


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    # The package's docstring describes the command; its first paragraph heads --help.
    summary = sys.modules[__package__].__doc__.split("\n\n")[0]
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.soak",
        description=summary,
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
        epilog="Exit status: 0 no error, 1 an error (each printed with its traceback and "
        "replay key), 2 bad arguments, 130 interrupted. A replay key is "
        "path:game:players:variant:seed:settings (compiled: plus :games:num_envs), as an "
        "error prints it. See the module's docstring for what each path checks.",
    )
    add = parser.add_argument
    add(
        "--games",
        type=int,
        default=3000,
        metavar="N",
        help="games per game x player count on each Python path (env, engine, pettingzoo)",
    )
    add(
        "--games-compiled",
        type=int,
        default=60_000,
        metavar="N",
        help="games per game x player count on the compiled path",
    )
    add(
        "--seconds",
        type=float,
        default=None,
        metavar="S",
        help="wall-time limit: no game starts after it (None: play the whole plan)",
    )
    add(
        "--workers",
        type=int,
        default=2,
        metavar="W",
        help="worker processes (1: run in this process)",
    )
    add("--seed", type=int, default=0, help="the run's seed; every task's derives from it")
    add(
        "--paths",
        nargs="+",
        choices=PATHS,
        default=list(PATHS),
        metavar="PATH",
        help=f"paths to soak, of {', '.join(PATHS)}",
    )
    add(
        "--game",
        nargs="+",
        choices=sorted(GAMES),
        default=None,
        metavar="NAME",
        help=f"games to soak, of {', '.join(GAMES)} (None: all)",
    )
    add(
        "--players",
        nargs="+",
        type=int,
        default=None,
        metavar="N",
        help="player counts to soak (None: each game's whole range)",
    )
    add(
        "--option-share",
        type=float,
        default=0.25,
        metavar="F",
        help="share of the games played with non-default option variants, split evenly "
        "among a game's variants (0: default options only)",
    )
    add(
        "--deep-every",
        type=int,
        default=50,
        metavar="K",
        help="Python paths: one game in K checks everything at every state",
    )
    add(
        "--check-every",
        type=int,
        default=200,
        metavar="K",
        help="engine path: the other games are validated, saved and loaded, and observed "
        "every K steps (and at the end)",
    )
    add(
        "--check-every-compiled",
        type=int,
        default=10,
        metavar="K",
        help="compiled path: one env is checked against the reference rules every K "
        "steps of the vector env",
    )
    add("--chunk", type=int, default=100, metavar="N", help="games per task on the Python paths")
    add(
        "--chunk-compiled",
        type=int,
        default=5000,
        metavar="N",
        help="games per task on the compiled path",
    )
    add("--num-envs", type=int, default=256, metavar="N", help="envs per compiled vector env")
    add(
        "--max-task-errors",
        type=int,
        default=3,
        metavar="N",
        help="a task stops after N errors (the rest of its games are not played)",
    )
    add(
        "--max-error-records",
        type=int,
        default=50,
        metavar="N",
        help="errors described in the summary (all are counted)",
    )
    add("--json", type=Path, default=None, metavar="FILE", help="write the summary as JSON here")
    add(
        "--write",
        type=Path,
        default=None,
        metavar="FILE",
        help=f"replace the text between {MARK_START} and {MARK_END} in this Markdown file "
        "with the result",
    )
    add(
        "--replay",
        default=None,
        metavar="KEY",
        help="play the game (or compiled task) of an error's replay key again, checking "
        "every state, print its traceback and exit",
    )
    add("--no-progress", action="store_true", help="no progress bar")
    add("--list-variants", action="store_true", help="print every game's option variants and exit")
    args = parser.parse_args(argv)
    for name in (
        "games",
        "games_compiled",
        "chunk",
        "chunk_compiled",
        "num_envs",
        "workers",
        "deep_every",
        "check_every",
        "check_every_compiled",
        "max_task_errors",
    ):
        minimum = 0 if name.startswith("games") else 1
        if getattr(args, name) < minimum:
            parser.error(f"--{name.replace('_', '-')} must be >= {minimum}")
    if not 0 <= args.option_share <= 1:
        parser.error("--option-share must be in [0, 1]")
    if args.seconds is not None and args.seconds <= 0:
        parser.error("--seconds must be > 0")
    if args.write is not None:
        try:
            check_markers(args.write)
        except ValueError as exc:
            parser.error(str(exc))
    if "pettingzoo" in args.paths:
        try:
            import pettingzoo  # noqa: F401
        except ImportError:
            parser.error(
                "the pettingzoo path needs pettingzoo (pip install -e '.[test]'), "
                "or leave it out of --paths"
            )
    args.argv = list(sys.argv[1:] if argv is None else argv)
    return args


def replay(key: str, knobs: Knobs) -> int:
    """Play a replay key's game with every check at every state, or its compiled task with
    the run's checks (a compiled task is the whole batch: it plays the same games only with
    the same checks drawing the same envs to check)."""
    try:
        task = Task.from_key(key)
        variant_options(task.game, task.variant, task.players)
    except ValueError as exc:
        print(f"python -m benchmarks.soak: error: {exc}", file=sys.stderr)
        return 2
    print(f"replaying {task}", flush=True)
    if task.path != "compiled":
        knobs = Knobs(deep_every=1, check_every=1, max_task_errors=1, full=True)
    result = run_task(task, knobs)
    if result.records:
        for record in result.records:
            print(f"options {record['options']}, settings {record['settings']}")
            print(record["traceback"])
        return 1
    print(f"no error: {result.games} game(s), {result.steps} steps")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    knobs = Knobs(
        deadline=None,
        deep_every=args.deep_every,
        check_every=args.check_every,
        check_every_compiled=args.check_every_compiled,
        max_task_errors=args.max_task_errors,
    )
    if args.replay:
        return replay(args.replay, knobs)
    if args.list_variants:
        for name in args.game or GAMES:
            for v in variants(name):
                print(
                    f"{name} {v.name}: "
                    + ", ".join(
                        f"{n}p {v.options(n)!r}" for n in game_class(name).spec.player_counts
                    )
                )
        return 0
    plan = make_plan(args)
    total = sum(t.games for t in plan.tasks)
    print(
        f"soak: {total:,} games in {len(plan.tasks)} tasks on {args.workers} worker(s), "
        f"paths {', '.join(args.paths)}, seed {args.seed}",
        flush=True,
    )
    start = time.perf_counter()
    if args.seconds is not None:
        knobs = Knobs(**{**asdict(knobs), "deadline": time.time() + args.seconds})
    progress = Progress(total, enabled=not args.no_progress)
    try:
        results, interrupted = run_plan(plan.tasks, knobs, args.workers, progress)
    finally:
        progress.close()
    summary = summarise(results, plan, args, time.perf_counter() - start, interrupted)
    text = report(summary)
    print(text)
    for e in summary["error_records"]:
        print(
            f"\n--- {e['path']} {e['game']} {e['players']}p {e['variant']} seed {e['seed']} "
            f"options {e['options']} settings {e['settings']}\n{e['traceback']}"
            f"replay: {e['replay']}"
        )
    if args.json:
        args.json.write_text(json.dumps(summary, indent=1, default=str) + "\n")
    if args.write:
        write_markers(args.write, text)
        print(f"wrote the result into {args.write}")
    if summary["errors"]:
        return 1
    if interrupted:
        return 130
    return 0
