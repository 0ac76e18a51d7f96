"""The ladder of every game: random, heuristic, the shipped agent and earlier checkpoints.

    python -m training.ladder [--game JungleSweep ...] [--players 4 2] [--games 200]
        [--runs runs/train] [--checkpoints 3] [--search mcts:100 mcts:1000] [--workers 2]
        [--write docs/results.md] [--section ladder] [--replace]

For each game and player count it runs a round-robin tournament (``training.tournament``:
seats alternating between the two policies of a pair, Bradley-Terry ratings on the Elo
scale with bootstrap 95% intervals) between ``random``, ``heuristic``, ``ppo`` (the agent
shipped in the package), ``--checkpoints`` evenly spaced checkpoints of the run it was
trained in (``RUNS/<Game>-<N>p``, when that folder exists) and the IS-MCTS opponent at
each ``--search`` budget (``mcts:SIMULATIONS``, ``jungle_envs.search``). ``--write``
replaces a section of a markdown page with the tables: the one between
``<!-- SECTION:start -->`` and ``<!-- SECTION:end -->``, ``--section ladder`` unless told.
Only the tables of the games and player counts just played are replaced there, so one
game's ladder can be rebuilt without replaying the others' hours of games; the other
tables stay where they are, and a new one goes last. ``--replace`` writes the section
anew with only the tables just played.
"""

from __future__ import annotations

import re
from pathlib import Path

import jungle_envs
from jungle_envs import agents
from training import cli
from training.tournament import Tournament, run

GAMES = ("JungleSweep", "TropicRace", "SpankTheMonkey", "ElephantFestival")


def markers(section: str) -> tuple[str, str]:
    """The comment lines that open and close a page section ``--write`` replaces."""
    return f"<!-- {section}:start -->", f"<!-- {section}:end -->"


START, END = markers("ladder")


def checkpoints(run_dir: Path, count: int) -> list[tuple[str, Path]]:
    """``count`` checkpoints spread evenly over the run from its first one on (not the
    last, which is about the final model), earliest first, named by steps."""
    found = sorted(run_dir.glob("checkpoints/step-*.zip"))
    if count <= 0 or len(found) < 2:
        return []
    last = len(found) - 1
    picks = sorted({round(k * last / count) for k in range(count)} - {last})
    out = []
    for k in picks:
        steps = int(found[k].stem.split("-")[1])
        out.append((f"checkpoint {steps / 1e6:.1f}M steps", found[k]))
    return out


def ladder(
    game: str,
    players: int,
    games: int,
    runs: Path,
    count: int,
    workers: int,
    seed: int,
    quiet: bool = True,
    search: tuple[str, ...] = (),
) -> Tournament:
    names, policies = ["random", "heuristic"], ["random", "heuristic"]
    env_id = f"jungle_envs/{game}-v0"
    if agents.agent_name(game, players) in agents.shipped():
        names.append("ppo (shipped)")
        policies.append("ppo")
    for name, path in checkpoints(runs / f"{game}-{players}p", count):
        names.append(name)
        policies.append(str(path))
    for name in search:
        names.append(search_label(name))
        policies.append(name)
    return run(env_id, policies, players, games, seed, workers, names=names, quiet=quiet)


def search_label(name: str) -> str:
    """``mcts:1000`` as the ladder names it: ``mcts (1,000 simulations)``; the guided search
    is ``mcts+ppo (...)``, and settings away from their defaults follow the budget."""
    from jungle_envs.search import MCTS

    settings, default = MCTS.from_name(name), MCTS()
    if settings.simulations is not None:
        parts = [f"{settings.simulations:,} simulations"]
    else:
        parts = [f"{settings.seconds:g} s"]
    if settings.rollout != default.rollout:
        parts.append(f"{settings.rollout} rollouts")
    for key in ("prior", "exploration", "determinizations"):
        if getattr(settings, key) != getattr(default, key):
            parts.append(f"{key} {getattr(settings, key):g}")
    head = "mcts+ppo" if settings.guide is not None else "mcts"
    return f"{head} ({', '.join(parts)})"


def search_name(text: str) -> str:
    """An argparse ``type=`` for ``--search``: an IS-MCTS name, checked."""
    import argparse

    from jungle_envs.search import MCTS

    try:
        MCTS.from_name(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def markdown(game: str, players: int, games: int, result: Tournament) -> str:
    wins = result.wins
    lines = [
        f"**{game}, {players} players** ({games} games per pair)",
        "",
        "| policy | Elo | 95% interval | points / games |",
        "| --- | --- | --- | --- |",
    ]
    for k in result.order():
        played = (wins[k] + wins[:, k]).sum()
        lines.append(
            f"| {result.names[k]} | {result.ratings[k]:.0f} | "
            f"{result.low[k]:.0f}-{result.high[k]:.0f} | {wins[k].sum():g} / {played:.0f} |"
        )
    return "\n".join(lines) + "\n"


BLOCK_HEAD = re.compile(r"^\*\*(\w+), (\d+) players\*\*", re.M)


def blocks_of(body: str) -> dict[tuple[str, int], str]:
    """A section's tables by (game, players), in page order; text outside a table's block
    (before the first heading) is not a table and is left out."""
    heads = list(BLOCK_HEAD.finditer(body))
    out = {}
    for k, head in enumerate(heads):
        stop = heads[k + 1].start() if k + 1 < len(heads) else len(body)
        out[(head.group(1), int(head.group(2)))] = body[head.start() : stop].rstrip("\n") + "\n"
    return out


def merge_blocks(old_body: str, new_blocks: list[str]) -> str:
    """The section's tables with those just played in their places: a table of the same
    game and player count is replaced where it stands, any other new one goes last."""
    merged = blocks_of(old_body)
    for block in new_blocks:
        merged.update(blocks_of(block))
    return "\n".join(merged.values())


def section_body(page: Path, start: str = START, end: str = END) -> str:
    """What lies between the page's ``start`` and ``end`` markers, or "" without them."""
    text = page.read_text() if page.is_file() else ""
    if start not in text or end not in text:
        return ""
    return text.split(start, 1)[1].split(end, 1)[0].lstrip("\n")


def write_section(page: Path, body: str, start: str = START, end: str = END) -> None:
    """Replace what lies between the page's ``start`` and ``end`` markers with ``body``."""
    text = page.read_text()
    if start not in text or end not in text:
        raise SystemExit(f"{page} has no {start} ... {end} section to replace")
    pattern = re.compile(re.escape(start) + ".*?" + re.escape(end), re.S)
    page.write_text(pattern.sub(lambda _: f"{start}\n{body}{end}", text))


def main(argv: list[str] | None = None) -> str:
    parser = cli.parser("training.ladder", __doc__)
    cli.add_games(parser)
    parser.add_argument("--players", nargs="+", type=int, default=[4, 2], help="player counts")
    parser.add_argument("--games", type=int, default=200, help="games per pair")
    parser.add_argument(
        "--runs", type=Path, default=Path("runs/train"), help="folder of the training runs"
    )
    parser.add_argument(
        "--checkpoints", type=int, default=3, help="checkpoints of each run in the ladder"
    )
    parser.add_argument(
        "--search",
        nargs="*",
        type=search_name,
        default=[],
        help="IS-MCTS opponents to add, by budget (mcts:100 mcts:1000)",
    )
    parser.add_argument("--workers", type=int, default=1, help="processes sharing the pairs")
    parser.add_argument("--seed", type=int, default=30_000, help="seed of the first game")
    parser.add_argument("--write", type=Path, help="a markdown page with a ladder section")
    parser.add_argument(
        "--section",
        default="ladder",
        help="the section --write replaces: <!-- SECTION:start --> to <!-- SECTION:end -->",
    )
    parser.add_argument(
        "--replace",
        action="store_true",
        help="write the section anew with only these tables (default: replace only the "
        "tables of the games and player counts played, keep the others)",
    )
    cli.add_quiet(parser)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.write:  # before hours of games, not after
        start, end = markers(args.section)
        text = args.write.read_text() if args.write.is_file() else ""
        if start not in text or end not in text:
            parser.error(f"{args.write} has no {start} ... {end} section to replace")
    for players in args.players:
        for game in args.game:
            spec = jungle_envs.game_class(f"jungle_envs/{game}-v0").spec
            if not spec.min_players <= players <= spec.max_players:
                parser.error(f"{game} takes {spec.min_players}-{spec.max_players} players")
    blocks = []
    for players in args.players:
        for game in args.game:
            result = ladder(
                game,
                players,
                args.games,
                args.runs,
                args.checkpoints,
                args.workers,
                args.seed,
                quiet=args.quiet,
                search=tuple(args.search),
            )
            block = markdown(game, players, args.games, result)
            print(block, flush=True)
            blocks.append(block)
    body = "\n".join(blocks)
    if args.write:
        section = markers(args.section)
        kept = "" if args.replace else section_body(args.write, *section)
        write_section(args.write, merge_blocks(kept, blocks), *section)
    return body


if __name__ == "__main__":
    main()
