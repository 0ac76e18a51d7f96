"""The event log: what happened at the table between two of the learner's decisions.

Between two decisions of the learner, opponents act and chance strikes, often many times
(a lion moves, five dice are rolled). With ``event_log=True`` the env hands these over as
``info["events"]``: one entry per decision (the learner's own first) and per chance
outcome, in order, each as the learner may know it: another seat's drawn card is "a
card". Entries are plain dicts, so they log, pickle and compare as they are.
"""

from __future__ import annotations

from typing import Any

from jungle_envs.core.game import Game
from jungle_envs.core.state import GameState


def decision(game: Game, seat: int, action: int, learner: int, forced: bool = False) -> dict:
    """A seat's decision; actions are public in every game, so every viewer sees it."""
    who = f"seat {seat}" + (" (you)" if seat == learner else "")
    how = " (the only legal action)" if forced else ""
    return {
        "kind": "decision",
        "seat": seat,
        "action": action,
        "text": f"{who}: {game.spec.action_names[action]}{how}",
    }


def outcome(game: Game, state: GameState, value: int, learner: int) -> dict[str, Any]:
    """A chance outcome as the learner may know it; call before it is applied. The raw
    value is left out: it may be a card the learner must not see."""
    return {
        "kind": "chance",
        "seat": None,
        "action": None,
        "text": game.describe_outcome(state, value, viewer=learner),
    }


def as_text(events: list[dict]) -> str:
    """The log as lines for ``render``."""
    return "\n".join(f"  {event['text']}" for event in events)
