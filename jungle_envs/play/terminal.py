"""The table on a terminal, drawn with rich: the board from the deciding human's seat, the
log since their last turn, the legal actions numbered, and their answer read back.

Output goes to a ``rich.console.Console`` and input comes from an ``input(prompt)``
function, both passed in, so a test drives a whole game with a script.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from jungle_envs.core.game import TERMINAL
from jungle_envs.play.session import HUMAN, LoadError, Session, read_save, session_from_save

HELP = """\
Answer with the number of an action from the list, or the start of its name
(any case; enough letters to tell it from the other legal actions).
Commands:
  board       show the board, the log and the actions again
  save FILE   write the game to FILE (JSON: game, options, position, seats, dice)
  load FILE   continue a game saved with save (same game; its seats and dice)
  help        this text
  quit        leave the game (also Ctrl-D)"""

QUIT, RELOAD = "quit", "reload"
COMMANDS = ("board", "save", "load", "help", "quit", "exit")


def normalise(text: str) -> str:
    return " ".join(text.lower().split())


def match_action(text: str, names: list[str]) -> tuple[int | None, str]:
    """The position in ``names`` that ``text`` picks: a number 1..k, the whole name, or
    the start of exactly one name (any case). Otherwise (None, what went wrong)."""
    wanted = normalise(text)
    if re.fullmatch(r"[+-]?\d+", wanted):
        number = int(wanted)
        if 1 <= number <= len(names):
            return number - 1, ""
        return None, f"{number} is not on the list: choose a number from 1 to {len(names)}"
    keys = [normalise(name) for name in names]
    if wanted in keys:
        return keys.index(wanted), ""
    found = [i for i, key in enumerate(keys) if key.startswith(wanted)]
    if len(found) == 1:
        return found[0], ""
    if not found:
        return None, (
            f"no legal action starts with {text.strip()!r}: type a number from the list, "
            "the start of an action's name, or help for the commands"
        )
    shown = ", ".join(f"{i + 1}={names[i]}" for i in found[:8])
    more = f" and {len(found) - 8} more" if len(found) > 8 else ""
    return None, f"{text.strip()!r} could be {len(found)} actions: {shown}{more}; say which"


SETUP_LINES = 2  # chance outcomes of the deal shown before the rest are summed up


class TerminalGame:
    """Plays ``session`` with its human seats at this terminal; ``run()`` returns the exit
    status (0 at the end of the game, on quit and on end of input)."""

    def __init__(
        self,
        session: Session,
        console: Console | None = None,
        input_fn: Callable[[str], str] | None = None,
        auto_forced: bool = True,
    ) -> None:
        self.session = session
        self.auto_forced = auto_forced  # a human's only legal move is played for them
        self.console = console or Console()
        self.input = input_fn or self.console.input
        self.viewer: int | None = None  # the human whose view is on the screen

    # --- the loop --------------------------------------------------------------------
    def run(self) -> int:
        while True:
            seat = self.session.advance()
            if seat == TERMINAL:
                self.show_end()
                return 0
            hot_seat = len(self.session.humans) > 1 and seat != self.viewer
            actions = self.session.legal_actions()
            if self.auto_forced and len(actions) == 1 and not hot_seat:
                # what happened since, then the move: acting starts the seat's log afresh
                self.show_log(seat, self.since(seat))
                name = self.session.action_name(actions[0])
                self.session.act(actions[0])
                self.console.print(
                    Text(f"seat {seat} (you): {name} (your only legal move)", style="dim")
                )
                continue
            if hot_seat and not self.hand_over(seat):
                return 0
            self.viewer = seat
            self.show_turn(seat)
            outcome = self.ask(seat)
            if outcome == QUIT:
                return 0

    def hand_over(self, seat: int) -> bool:
        """Hot seat: hide the last player's view, wait for ``seat`` to sit down."""
        if self.console.is_terminal:
            self.console.clear()
        self.console.rule(f"seat {seat} to play")
        return self.read(f"Pass to seat {seat}, who presses Enter: ") is not None

    def ask(self, seat: int) -> str:
        """Read answers until one is an action (applied) or a command ends the turn."""
        while True:
            line = self.read(f"seat {seat} > ")
            if line is None:
                return QUIT
            outcome = self.answer(line, seat)
            if outcome is not None:
                return outcome

    def read(self, prompt: str) -> str | None:
        try:
            return self.input(prompt)
        except EOFError:
            self.console.print(
                "End of input: leaving the game (save FILE keeps it for later).", markup=False
            )
            return None

    def answer(self, line: str, seat: int) -> str | None:
        """Act on one line of input; None when the same seat must answer again."""
        word, _, rest = line.strip().partition(" ")
        command, argument = word.lower(), rest.strip()
        if not command:
            self.say("Type a number from the list, the start of an action's name, or help.")
            return None
        if command in COMMANDS:
            return self.command(command, argument, seat)
        actions = self.session.legal_actions()
        names = [self.session.action_name(a) for a in actions]
        position, problem = match_action(line, names)
        if position is None:  # the fixed names of the docs and the env work too
            fixed = [self.session.game.spec.action_names[a] for a in actions]
            if fixed != names:
                position, _ = match_action(line, fixed)
        if position is None:
            self.say(problem)
            return None
        self.session.act(actions[position])
        self.console.print(Text(f"seat {seat} (you): {names[position]}", style="bold"))
        return "acted"

    def command(self, command: str, argument: str, seat: int) -> str | None:
        if command in ("quit", "exit"):
            self.console.print("Left the game.", markup=False)
            return QUIT
        if command == "help":
            self.console.print(Text(HELP))
            self.console.print(Text(f"game: {self.describe_table()}"))
        elif command == "board":
            self.show_turn(seat)
        elif not argument:
            self.say(f"{command} needs a file name: {command} FILE")
        elif command == "save":
            try:
                path = self.session.save(argument)
            except OSError as exc:
                self.say(str(exc))
            else:
                self.console.print(Text(f"Saved to {path} (continue with: load {path})."))
        else:
            return self.load(argument)
        return None

    def load(self, path: str) -> str | None:
        game = self.session.game
        try:
            session = session_from_save(read_save(path))
        except LoadError as exc:
            self.say(f"cannot load {path}: {exc}; the game goes on unchanged")
            return None
        if session.game.spec.env_name != game.spec.env_name:
            self.say(
                f"{path} holds a {session.game.spec.env_name} game, this is "
                f"{game.spec.env_name}; start it with --load {path}; the game goes on unchanged"
            )
            return None
        self.session, self.viewer = session, None
        self.console.print(Text(f"Loaded {Path(path)}: {self.describe_table()}"))
        return RELOAD

    # --- drawing ---------------------------------------------------------------------
    def say(self, message: str) -> None:
        self.console.print(Text(message, style="yellow"))

    def label(self, seat: int | None, viewer: int | None) -> str:
        if seat is None:
            return "chance"
        if seat == viewer:
            return f"seat {seat} (you)"
        spec = self.session.seats[seat]
        if spec != HUMAN and ("/" in spec or "\\" in spec):
            spec = Path(spec).name
        return f"seat {seat} ({spec})"

    def describe_table(self) -> str:
        session = self.session
        seats = ", ".join(self.label(s, None) for s in range(session.game.num_players))
        return f"{session.game.spec.env_name}, {seats}, options {session.game.settings()}"

    def since(self, seat: int | None) -> str:
        return "Since your last turn:" if seat in self.session.acted else "Since the game began:"

    def show_log(self, viewer: int | None, heading: str) -> None:
        events = self.session.log(viewer)
        if not events:
            return
        self.console.print(Text(heading, style="bold"))
        setup = 0  # the deal before anyone's first move: one line, the board shows it
        if viewer not in self.session.acted:
            while setup < len(events) and events[setup].seat is None:
                setup += 1
        if setup > SETUP_LINES:
            shown = "; ".join(event.what for event in events[:SETUP_LINES])
            who = Text("chance", style="cyan")
            self.console.print(
                Text("  ")
                .append(who)
                .append(f": the set-up, {setup} draws ({shown}; ...), as the board shows")
            )
            events = events[setup:]
        for event in events:
            who = Text(self.label(event.seat, viewer), style="cyan")
            self.console.print(Text("  ").append(who).append(f": {event.what}"))

    def show_turn(self, seat: int) -> None:
        session = self.session
        board = session.game.render(session.state, viewer=seat)
        title = f"{session.game.spec.env_name}: seat {seat} (you)"
        self.console.print(Panel.fit(Text(board), title=title, title_align="left"))
        self.show_log(seat, self.since(seat))
        actions = session.legal_actions()
        table = Table(title=f"Your move, seat {seat}", title_justify="left")
        table.add_column("#", justify="right", style="bold")
        table.add_column("action")
        for number, action in enumerate(actions, 1):
            table.add_row(str(number), Text(session.action_name(action)))
        self.console.print(table)
        self.console.print(
            Text("Type a number, the start of an action's name, or help.", style="dim")
        )

    def show_end(self) -> None:
        session, game = self.session, self.session.game
        # the log of the human on the screen (the whole game's when nobody plays)
        log_viewer = session.humans[0] if len(session.humans) == 1 else self.viewer
        heading = self.since(log_viewer) if session.humans else "The game:"
        self.show_log(log_viewer, heading)
        viewer = session.humans[0] if len(session.humans) == 1 else None
        board = game.render(session.state, viewer=None)
        self.console.print(Panel.fit(Text(board), title="Game over: all revealed"))
        info = game.final_info(session.state)
        table = Table(title="Result", title_justify="left")
        table.add_column("seat")
        table.add_column("score", justify="right")
        table.add_column("")
        for seat, score in enumerate(info["scores"]):
            won = "winner" if seat in info["winners"] else ""
            table.add_row(Text(self.label(seat, viewer)), f"{score:g}", won)
        self.console.print(table)
        winners = [self.label(s, viewer) for s in info["winners"]]
        self.console.print(Text(f"Winner(s): {', '.join(winners)}" if winners else "Nobody wins."))
