"""Elephant Festival as text: every ground as a grid, the elephants and the face-up tiles."""

from __future__ import annotations

from jungle_envs.games.elephant_festival import rules
from jungle_envs.games.elephant_festival.config import Config
from jungle_envs.games.elephant_festival.state import ElephantFestivalState
from jungle_envs.games.elephant_festival.tables import (
    COLOR_LETTERS,
    COLORS,
    ELEPHANTS,
    GAME_OVER,
    NUM_KINDS,
    PHASE_NAMES,
    START_TILE,
    TYPES,
    kind_name,
)

CELL_WIDTH = 7  # "R13" (colour, symbols, stack) and "E1" (an elephant), or "@RE1E2"
LABEL_WIDTH = 8
LEGEND = (
    "cell: colour letter, symbols, stack height when above 1; "
    "@ = start tile, E1/E2 = elephant 1/2 standing, e1/e2 = lying (the actions' numbers)"
)


def _cell(stack: list[int], owner: int, elephants: str) -> str:
    if not stack:
        text = "."
    elif stack[-1] == START_TILE:
        text = "@" + COLOR_LETTERS[owner]
    else:
        top = stack[-1]
        text = COLOR_LETTERS[top // TYPES] + str(top % TYPES)
        text += str(len(stack)) if len(stack) > 1 else ""
    return (text + elephants).ljust(CELL_WIDTH)


def frame(config: Config, state: ElephantFestivalState) -> tuple[range, range]:
    """Rows and columns that show every seat's tiles and elephants with a margin of one,
    the same for all seats so that positions can be compared across grounds."""
    grid = config.grid
    used = [
        cell
        for seat, ground in enumerate(state.grounds)
        for cell in [c for c, stack in enumerate(ground) if stack] + state.elephants[seat]
    ]
    rows = [c // grid for c in used]
    cols = [c % grid for c in used]
    r0, r1 = max(min(rows) - 1, 0), min(max(rows) + 1, grid - 1)
    c0, c1 = max(min(cols) - 1, 0), min(max(cols) + 1, grid - 1)
    return range(r0, r1 + 1), range(c0, c1 + 1)


def ground_lines(
    config: Config, state: ElephantFestivalState, seat: int, rows: range, cols: range
) -> list[str]:
    grid, ground = config.grid, state.grounds[seat]
    standing = ELEPHANTS - state.passes[seat]
    numbers = "".join(str(c).ljust(CELL_WIDTH) for c in cols)
    lines = [("   " + "col".ljust(LABEL_WIDTH) + numbers).rstrip()]
    for row in rows:
        cells = []
        for col in cols:
            cell = row * grid + col
            marks = ""
            for index, at in enumerate(state.elephants[seat]):
                if at == cell:
                    marks += ("E" if index < standing else "e") + str(index + 1)
            cells.append(_cell(ground[cell], seat, marks))
        lines.append(("   " + f"row {row}".ljust(LABEL_WIDTH) + "".join(cells)).rstrip())
    return lines


def render(config: Config, state: ElephantFestivalState, viewer: int | None = None) -> str:
    if state.phase == GAME_OVER:
        status = "game over"
    else:
        status = (
            f"bag {state.bag} tiles | bag holder: seat {state.holder} | {PHASE_NAMES[state.phase]}"
        )
    lines = [f"Elephant Festival, {config.num_players} players | {status}"]
    if state.phase != GAME_OVER:
        seat = (state.holder + state.turn) % config.num_players
        lines.append(f"to act: seat {seat}" if state.phase != 0 else "drawing the display")
    shown = [f"{kind_name(k)} x{n}" for k in range(NUM_KINDS) if (n := state.display[k])]
    lines.append("face-up: " + (", ".join(shown) if shown else "none"))
    scores = rules.scores(config, state)
    score_label = "final score" if state.phase == GAME_OVER else "score if the game ended now"
    rows, cols = frame(config, state)
    for seat in range(config.num_players):
        you = " (you)" if seat == viewer else ""
        lines.append(
            f"seat {seat}{you}, {COLORS[seat]}: passes {state.passes[seat]}, "
            f"{score_label} {scores[seat]:+.0f}"
        )
        lines.extend(ground_lines(config, state, seat, rows, cols))
    lines.append(LEGEND)
    if state.phase == GAME_OVER:
        won = rules.winners(config, state)
        lines.append("game over: winner(s) " + ", ".join(f"seat {w}" for w in won))
    return "\n".join(lines)


def describe_outcome(
    config: Config, state: ElephantFestivalState, outcome: int, viewer: int | None
) -> str:
    """A tile drawn from the bag: it goes face up on display, so every viewer knows it."""
    return f"seat {state.holder} drew a {kind_name(outcome)} from the bag"


def describe_effect(
    config: Config, before: ElephantFestivalState, after: ElephantFestivalState, viewer: int | None
) -> str:
    """What a placement, a pass or a draw did beyond itself: the score it is worth now (the
    score if the game ended here), an elephant lying down, tiles nobody took leaving the
    game. The grounds are public."""
    events = []
    old_scores, new_scores = rules.scores(config, before), rules.scores(config, after)
    for seat, (old, new) in enumerate(zip(old_scores, new_scores, strict=True)):
        if new != old:
            events.append(f"seat {seat} now scores {new:+.0f} (was {old:+.0f})")
    for seat, (old, new) in enumerate(zip(before.passes, after.passes, strict=True)):
        if new > old:
            events.append(f"seat {seat} passes: {new} of its elephants lie down")
    for kind in range(NUM_KINDS):
        gone = after.discarded[kind] - before.discarded[kind]
        if gone > 0:
            events.append(f"{gone} {kind_name(kind)}{'s' if gone > 1 else ''} left the game")
    if after.phase == GAME_OVER and before.phase != GAME_OVER:
        won = rules.winners(config, after)
        events.append("game over: winner(s) " + ", ".join(f"seat {w}" for w in won))
    return "; ".join(events)
