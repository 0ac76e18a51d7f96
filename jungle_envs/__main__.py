"""The package's command: ``jungle-envs`` (or ``python -m jungle_envs``).

    jungle-envs warmup [GAME ...] [--workers N]    compile the games' kernels now
    jungle-envs play ...                           the terminal table (as jungle-play)
    jungle-envs serve [--host H] [--port P]        the browser table and replays
    jungle-envs games                              the registered envs and their players
    jungle-envs rules GAME                         a game's full rules (shipped with it)

The first use of a game on a machine compiles its kernels (tens of seconds per game, said
on stderr as it happens); ``warmup`` does it ahead, in parallel, so that notebooks, test
runs and training start at once. The kernels are kept on disk and loaded in well under a
second by every later process, until the package changes.
"""

from __future__ import annotations

import argparse
import sys

from jungle_envs.core.registry import ENTRIES, GAMES


def game_name(text: str) -> str:
    """``SpankTheMonkey``, ``SpankTheMonkey-v0``, ``jungle_envs/SpankTheMonkey-v0``,
    ``spank_the_monkey`` or any case of them."""
    short = text.split("/")[-1].removesuffix("-v0").replace("_", "").lower()
    for name in GAMES:
        if short == name.lower():
            return name
    raise argparse.ArgumentTypeError(f"unknown game {text!r}; the games: {', '.join(GAMES)}")


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="jungle-envs", description=__doc__.split("\n\n")[0].strip())
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    warmup = commands.add_parser(
        "warmup",
        help="compile the games' kernels ahead of first use",
        description="Compile (or load from the cache) every kernel of the games: the single "
        "env, the vector env, the all-seat batch, the multi-agent table, the search rollout.",
    )
    warmup.add_argument(
        "games", nargs="*", type=game_name, metavar="GAME", help="default: every game"
    )
    warmup.add_argument(
        "--workers", type=int, default=2, help="games compiled at once (default: 2)"
    )
    commands.add_parser("play", help="the terminal table (jungle-play's options)", add_help=False)
    commands.add_parser("serve", help="the browser table (jungle_envs.web)", add_help=False)
    commands.add_parser("games", help="the registered envs, their players and options")
    rules = commands.add_parser(
        "rules",
        help="a game's full rules",
        description="Print a game's rules page (markdown), the one in the docs' rules "
        "section, shipped with the package.",
    )
    rules.add_argument("game", type=game_name, metavar="GAME")
    return top


def list_games() -> None:
    from jungle_envs.core.registry import load_entry_point

    for name, entry in ENTRIES.items():
        spec = load_entry_point(entry.game).spec
        options = ", ".join(option.name for option in spec.options)
        print(
            f"jungle_envs/{name}-v0  {spec.min_players}-{spec.max_players} players "
            f"(default {spec.default_players}); options: {options}"
        )


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["play"]:  # every option after it is jungle-play's own
        from jungle_envs.play.cli import main as play

        return play(argv[1:], prog="jungle-envs play")
    if argv[:1] == ["serve"]:
        from jungle_envs.web.__main__ import main as serve

        return serve(argv[1:], prog="jungle-envs serve")
    args = parser().parse_args(argv)
    if args.command == "warmup":
        if args.workers < 1:
            parser().error("--workers must be at least 1")
        from jungle_envs.core.compiled.warmup import warm_up

        warm_up(args.games or list(GAMES), args.workers)
    elif args.command == "games":
        list_games()
    elif args.command == "rules":
        from jungle_envs.core.registry import rules_text

        print(rules_text(args.game), end="")
    return 0


def script() -> int:
    """The ``jungle-envs`` console script."""
    return main()


if __name__ == "__main__":
    sys.exit(main())
