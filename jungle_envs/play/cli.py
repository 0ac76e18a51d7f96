"""The command line of ``python -m jungle_envs.play`` (also the ``jungle-play`` script)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from rich.console import Console

from jungle_envs.core.registry import GAMES, game_class
from jungle_envs.play.session import (
    HUMAN,
    LoadError,
    Session,
    find_game,
    read_save,
    session_from_save,
)
from jungle_envs.play.terminal import HELP, TerminalGame

DESCRIPTION = """\
Play a jungle_envs game in the terminal: humans and opponents in any mix. You see the
board from your seat (what you may not see stays hidden), what the others did and what
chance brought since your last turn, and your legal actions, numbered."""

EXAMPLES = """\
examples:
  python -m jungle_envs.play                          Jungle Sweep, you against 3 heuristics
  python -m jungle_envs.play TropicRace --players 2 --opponent ppo
  python -m jungle_envs.play spank_the_monkey --seats human random ppo heuristic
  python -m jungle_envs.play ElephantFestival --players 3 --human 0 1   (hot seat)
  python -m jungle_envs.play SpankTheMonkey --players 2 --option monkey_base=12
  python -m jungle_envs.play --load game.json

opponents: heuristic (each game's rule-based player), random, ppo (the shipped trained
agent, needs the train extra), ppo-sample (that agent drawing each move from its
distribution, as in training; ppo-sample:MODEL.zip for another model), mcts (the
search; mcts:400 simulations or mcts:0.5s a move), mcts+ppo (the search guided by the
shipped agent), rollout (the heuristic improved by rollouts of every move; rollout:400
rollouts a move), a path to a MaskablePPO .zip, rllib:CHECKPOINT_DIR.
With no human seat at all, the opponents play a game out and you watch.

in the game:
{help}

save files are JSON: the game, its options, the position, the seats, the seed and the
state of both random generators (chance, opponents), so a loaded game rolls the same dice;
a bare position written by Game.state_to_json loads too (with new dice).

game options (--option KEY=VALUE; the value is read as JSON when it parses, else as text):
{options}"""


class Parser(argparse.ArgumentParser):
    """Argument errors in one line on stderr, exit status 2, never a traceback."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def options_help() -> str:
    lines = []
    for name in GAMES:
        spec = game_class(name).spec
        lines.append(
            f"  {name} ({spec.min_players}-{spec.max_players} players, "
            f"default {spec.default_players}):"
        )
        for option in spec.options:
            default = json.dumps(option.default)
            default = default if len(default) <= 40 else "see the game's docs"
            lines.append(f"    {option.name}: {option.doc} (default: {default})")
    return "\n".join(lines)


def make_parser(prog: str = "python -m jungle_envs.play") -> Parser:
    parser = Parser(
        prog=prog,
        description=DESCRIPTION,
        epilog=EXAMPLES.format(help=HELP, options=options_help()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add = parser.add_argument
    add(
        "game",
        nargs="?",
        metavar="GAME",
        help=f"one of {', '.join(GAMES)}, any case, or its env id (default: JungleSweep)",
    )
    add("--players", type=int, metavar="N", help="player count (default: the game's usual)")
    add(
        "--seats",
        nargs="+",
        metavar="WHO",
        help="who plays each seat, in order: human or an opponent (default: human in seat 0, "
        "--opponent in the others); sets the player count",
    )
    add(
        "--human",
        nargs="+",
        type=int,
        metavar="SEAT",
        help="seats played by humans (default: 0, or with --seats the seats it names human)",
    )
    add(
        "--opponent",
        metavar="WHO",
        help="who plays the seats no human plays, without --seats (default: heuristic)",
    )
    add(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, repeatable (default: the game's own; listed below)",
    )
    add("--seed", type=int, metavar="S", help="seed for chance and opponents (default: random)")
    add("--load", metavar="FILE", help="continue a saved game (its game, options, seats, dice)")
    add(
        "--auto-forced",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="play a human's only legal move without asking, with a line in the log",
    )
    return parser


def parse_value(raw: str) -> Any:
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        return raw


def parse_options(items: list[str], parser: Parser) -> dict[str, Any]:
    options = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            parser.error(f"an option looks like KEY=VALUE, got {item!r}")
        options[key.strip()] = parse_value(raw)
    return options


def seating(args: argparse.Namespace, parser: Parser, num_players: int) -> list[str]:
    if args.seats and args.opponent is not None:
        parser.error("--opponent is for the seats --seats would name; give one or the other")
    seats = list(args.seats) if args.seats else [args.opponent or "heuristic"] * num_players
    seats = [HUMAN if who.lower() == HUMAN else who for who in seats]
    if args.seats and len(seats) != num_players:
        parser.error(f"--seats names {len(seats)} seats, --players says {num_players}")
    humans = args.human if args.human is not None else ([] if args.seats else [0])
    for seat in humans:
        if not 0 <= seat < num_players:
            parser.error(f"--human {seat}: seats are 0 to {num_players - 1}")
        seats[seat] = HUMAN
    return seats


def build_session(args: argparse.Namespace, parser: Parser) -> Session:
    if args.load is not None:
        given = [f for f, v in (("GAME", args.game), ("--players", args.players),
                                ("--option", args.option), ("--seed", args.seed),
                                ("--human", args.human), ("--opponent", args.opponent))
                 if v is not None and v != []]  # fmt: skip
        if given:
            parser.error(f"--load continues the saved game; drop {', '.join(given)}")
        try:
            return session_from_save(read_save(args.load), args.seats)
        except LoadError as exc:
            parser.error(f"cannot load {args.load}: {exc}")
    if args.seed is not None and args.seed < 0:
        parser.error(f"--seed must be >= 0, got {args.seed}")
    try:
        name = find_game(args.game or "JungleSweep")
    except ValueError as exc:
        parser.error(str(exc))
    spec = game_class(name).spec
    players = args.players
    if players is None:
        players = len(args.seats) if args.seats else spec.default_players
    if players not in spec.player_counts:
        parser.error(
            f"{name} is played by {spec.min_players} to {spec.max_players} players, not {players}"
        )
    seats = seating(args, parser, players)
    options = parse_options(args.option, parser)
    try:
        return Session.new(name, players, options, seats, args.seed)
    except (ValueError, TypeError) as exc:
        parser.error(str(exc))


def main(
    argv: list[str] | None = None,
    console: Console | None = None,
    input_fn: Callable[[str], str] | None = None,
    prog: str = "python -m jungle_envs.play",
) -> int:
    """Play one game; the exit status (0 when it ends or the player leaves, 2 for bad
    arguments, 130 on Ctrl-C, 1 if something else went wrong, said in one line)."""
    console = console or Console()
    try:
        parser = make_parser(prog)
        args = parser.parse_args(argv)
        session = build_session(args, parser)
        return TerminalGame(session, console, input_fn, auto_forced=args.auto_forced).run()
    except KeyboardInterrupt:
        console.print("\nInterrupted: leaving the game.", markup=False)
        return 130
    except Exception as exc:  # never a traceback at the table
        print(f"error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1


def script() -> int:
    """The ``jungle-play`` console script (its wrapper exits with what this returns)."""
    return main(prog="jungle-play")
