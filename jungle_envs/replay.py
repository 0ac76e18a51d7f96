"""Recorded games: a start position and every step after it, to step through in both ways.

A replay is the game's start position (``Game.state_to_json``) and its steps in order, each
``[seat, action]`` for a decision or ``[null, outcome]`` for a chance outcome, so any
position of the game is rebuilt by applying the first ``k`` steps. The play CLI's save
files hold one (``start`` and ``history``), ``training.evaluate`` and
``training.tournament`` write them with ``--replays``, and the browser table
(``jungle-envs serve``) shows them. Loading checks every step against the rules: a file
whose step is not legal where it stands is refused, with the step named.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jungle_envs.core.game import CHANCE, Game
from jungle_envs.core.registry import GAMES, make_game
from jungle_envs.core.state import GameState, StateError

REPLAY_FORMAT = "jungle_envs.replay"
REPLAY_VERSION = 1
MAX_STEPS = 100_000  # far beyond any game of the package; a bound on a file's work


class ReplayError(ValueError):
    """A replay file that cannot be used (malformed, another game, an illegal step)."""


@dataclass
class Replay:
    """A game from ``start`` through ``steps``; ``position(k)`` is the state after k steps."""

    game: Game
    start: GameState
    steps: list[tuple[int | None, int]] = field(default_factory=list)
    seats: list[str] | None = None  # who played each seat, when known

    def __post_init__(self) -> None:
        self._states = [self.start.copy()]

    def __len__(self) -> int:
        return len(self.steps)

    def position(self, k: int) -> GameState:
        """The state after the first ``k`` steps (0: the start), checked step by step."""
        if not 0 <= k <= len(self.steps):
            raise IndexError(f"a replay of {len(self.steps)} steps has no position {k}")
        while len(self._states) <= k:
            self._states.append(self._apply(self._states[-1], len(self._states) - 1))
        return self._states[k].copy()

    def _apply(self, state: GameState, index: int) -> GameState:
        seat, value = self.steps[index]
        after = state.copy()
        to_move = self.game.current_player(state)
        try:
            if seat is None:
                self.game.apply_chance(after, value)
            elif seat != to_move:
                raise ValueError(f"seat {seat} acts where {self._who(to_move)} is to move")
            else:
                self.game.apply_action(after, value)
        except ValueError as exc:
            step = f"step {index + 1} ({[seat, value]})"
            raise ReplayError(f"{step} is not possible: {exc}") from None
        return after

    @staticmethod
    def _who(player: int) -> str:
        return "chance" if player == CHANCE else ("nobody" if player < 0 else f"seat {player}")

    def describe(self, k: int, viewer: int | None = None) -> str:
        """Step ``k`` (1-based: the step that leads to ``position(k)``) in words, with what
        it did, as the play log writes it."""
        before, after = self.position(k - 1), self.position(k)
        seat, value = self.steps[k - 1]
        if seat is None:
            text = "chance: " + self.game.describe_outcome(before, value, viewer)
        else:
            who = self.seats[seat] if self.seats and seat < len(self.seats) else ""
            text = f"seat {seat}{f' ({who})' if who else ''}: "
            text += self.game.action_to_string(before, value)
        effect = self.game.describe_effect(before, after, viewer)
        return f"{text} => {effect}" if effect else text

    def check(self) -> Replay:
        """Apply every step (raises ``ReplayError`` at the first impossible one)."""
        self.position(len(self.steps))
        return self

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": REPLAY_FORMAT,
            "version": REPLAY_VERSION,
            "start": json.loads(self.game.state_to_json(self.start)),
            "steps": [[seat, value] for seat, value in self.steps],
            "seats": self.seats,
        }

    def save(self, path: str | Path) -> Path:
        from jungle_envs.core.files import atomic_write_text

        path = Path(path).expanduser()
        atomic_write_text(path, json.dumps(self.to_dict()) + "\n")
        return path


def replay_from_dict(data: Any) -> Replay:
    """A checked replay from ``Replay.to_dict()`` or from a play save file (its ``start``
    and ``history``); ``ReplayError`` says what is wrong."""
    if not isinstance(data, dict):
        raise ReplayError("a replay is a JSON object")
    if data.get("format") == REPLAY_FORMAT:
        if data.get("version") != REPLAY_VERSION:
            raise ReplayError(f"a replay of another format version ({data.get('version')!r})")
        start, steps = data.get("start"), data.get("steps")
    elif "history" in data and "start" in data:  # a play save file
        start, steps = data.get("start"), data.get("history")
    else:
        raise ReplayError("not a replay: it has no start position and steps")
    if not isinstance(start, dict) or not {"game", "config", "state"} <= set(start):
        raise ReplayError("the start position has no game, config and state")
    by_module = {module.rsplit(".", 1)[1]: name for name, module in GAMES.items()}
    if start["game"] not in by_module:
        raise ReplayError(f"a replay of an unknown game {start['game']!r}")
    if not isinstance(steps, list) or len(steps) > MAX_STEPS:
        raise ReplayError(f"the steps are not a list of at most {MAX_STEPS:,}")
    parsed = []
    for i, step in enumerate(steps):
        ok = isinstance(step, list) and len(step) == 2
        ok = ok and all(v is None or (isinstance(v, int) and not isinstance(v, bool)) for v in step)
        if not ok or step[1] is None:
            raise ReplayError(f"step {i + 1} is not [seat or null, value]: {step!r}"[:200])
        parsed.append((step[0], step[1]))
    seats = data.get("seats")
    names = isinstance(seats, list) and all(isinstance(s, str) for s in seats)
    if seats is not None and not names:
        raise ReplayError("the seats are not a list of names")
    try:
        config = dict(start["config"]) if isinstance(start["config"], dict) else None
        if config is None:
            raise ReplayError("the start position's config is not an object")
        game = make_game(by_module[start["game"]], config.pop("num_players", None), **config)
        state = game.state_from_json(json.dumps(start))
    except (StateError, ValueError, TypeError) as exc:
        raise ReplayError(f"the start position is not usable: {exc}") from None
    return Replay(game, state, parsed, seats).check()


def load_replay(text: str) -> Replay:
    """A checked replay from a file's text (a replay or a play save)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ReplayError(f"not a replay (not JSON: {exc})") from None
    return replay_from_dict(data)
