"""Elephant Festival rules engine: the draft, placement and scoring.

No Gymnasium here. ``placements`` and ``score`` are pure functions of one ground, so the
heuristic can try a placement and score it with exactly these rules.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from jungle_envs.core.game import CHANCE, TERMINAL, ChanceEvent, draw_from_counts
from jungle_envs.core.state import StateError
from jungle_envs.games.elephant_festival.config import Config
from jungle_envs.games.elephant_festival.state import ElephantFestivalState
from jungle_envs.games.elephant_festival.state import validate as validate_state
from jungle_envs.games.elephant_festival.tables import (
    ACTION_NAMES,
    ARCH_POINTS,
    DIRECTION_NAMES,
    DIRECTIONS,
    DRAW_TILE,
    ELEPHANTS,
    GAME_OVER,
    MAX_PASSES,
    MISSING_COLOR_POINTS,
    NUM_COLORS,
    NUM_KINDS,
    OTHER_COLOR_FIELDS,
    OWN_COLOR_FIELDS,
    PASS_ACTION,
    PLACE,
    PLACE_ACTIONS,
    RELATIVE_KIND,
    REMOVED_TILE_POINTS,
    STANDING_ELEPHANT_POINTS,
    START_TILE,
    SYMBOL_POINTS,
    TYPES,
    absolute_kind,
    kind_name,
)


# --- one ground (pure) ------------------------------------------------------------------
@lru_cache(maxsize=8)
def neighbour_table(grid: int) -> tuple[tuple[int, ...], ...]:
    """Per cell, its neighbour in each direction (-1 off the ground)."""
    table = []
    for cell in range(grid * grid):
        row, col = divmod(cell, grid)
        table.append(tuple(
            (row + dr) * grid + col + dc if 0 <= row + dr < grid and 0 <= col + dc < grid else -1
            for dr, dc in DIRECTIONS
        ))  # fmt: skip
    return tuple(table)


def neighbour(cell: int, direction: int, grid: int) -> int:
    """The cell next to ``cell`` in ``direction``, or -1 off the ground."""
    return neighbour_table(grid)[cell][direction]


def placements(herd: list[int], start: int, grid: int) -> list[tuple[int, int, int]]:
    """(elephant, direction, cell) of every cell a tile may go to: next to an elephant,
    on the ground, never the start tile nor the other elephant's cell."""
    table = neighbour_table(grid)
    found = []
    for elephant in range(ELEPHANTS):
        other = herd[1 - elephant]
        for direction, cell in enumerate(table[herd[elephant]]):
            if cell >= 0 and cell != start and cell != other:
                found.append((elephant, direction, cell))
    return found


def tile_color(code: int, owner: int) -> int:
    return owner if code == START_TILE else code // TYPES


def fields(ground: list[list[int]], owner: int, grid: int) -> list[tuple[int, list[int]]]:
    """(colour, cells) of every orthogonally connected group of same-coloured top tiles."""
    color = [tile_color(stack[-1], owner) if stack else -1 for stack in ground]
    table = neighbour_table(grid)
    seen, found = [False] * len(ground), []
    for first in range(len(ground)):
        if color[first] < 0 or seen[first]:
            continue
        seen[first], group, todo = True, [], [first]
        while todo:
            cell = todo.pop()
            group.append(cell)
            for nxt in table[cell]:
                if nxt >= 0 and not seen[nxt] and color[nxt] == color[first]:
                    seen[nxt] = True
                    todo.append(nxt)
        found.append((color[first], group))
    return found


def arch_cells(start: int, owner: int, grid: int) -> dict[int, int]:
    """Arch colour -> the cell its arch faces: clockwise from north, the colours after
    the owner's."""
    return {(owner + 1 + d) % NUM_COLORS: neighbour(start, d, grid) for d in range(len(DIRECTIONS))}


def score(ground: list[list[int]], owner: int, grid: int, standing: int) -> dict[str, int]:
    """The final score of a ground with its best choice of kept fields, line by line."""
    start = grid * grid // 2
    arches = arch_cells(start, owner, grid)
    by_color: dict[int, list[list[int]]] = {c: [] for c in range(NUM_COLORS)}
    for color, cells in fields(ground, owner, grid):
        by_color[color].append(cells)
    lines = {
        "removed": 0,
        "missing": 0,
        "standing": standing * STANDING_ELEPHANT_POINTS,
        "arches": 0,
        "symbols": 0,
    }
    for color, groups in by_color.items():
        if not groups:
            lines["missing"] += MISSING_COLOR_POINTS
            continue
        keep = OWN_COLOR_FIELDS if color == owner else OTHER_COLOR_FIELDS
        removed, arch, symbols = _best_fields(ground, groups, keep, start, arches.get(color))
        lines["removed"] += removed
        lines["arches"] += arch
        lines["symbols"] += symbols
    lines["total"] = sum(lines.values())
    return lines


def _best_fields(ground, groups, keep, start, arch_cell) -> tuple[int, int, int]:
    """Removed-tile points, arch points and symbol points of one colour when its ``keep``
    most valuable fields stay. Keeping a field saves its tiles' penalty and keeps its
    symbols and arch, so fields rank by symbols + arch + 2 per tile; the start tile's
    field always stays."""
    rated = []
    for cells in groups:
        size = symbols = 0
        for c in cells:
            if c != start:
                size += len(ground[c])
                symbols += ground[c][-1] % TYPES
        symbols *= SYMBOL_POINTS
        arch = ARCH_POINTS if arch_cell in cells else 0
        rated.append(
            (start in cells, symbols + arch - REMOVED_TILE_POINTS * size, size, symbols, arch)
        )
    rated.sort(reverse=True)
    kept, dropped = rated[:keep], rated[keep:]
    removed = sum(r[2] for r in dropped) * REMOVED_TILE_POINTS
    return removed, sum(r[4] for r in kept), sum(r[3] for r in kept)


# --- the state machine ------------------------------------------------------------------
def new_state(config: Config) -> ElephantFestivalState:
    n, cells = config.num_players, config.grid * config.grid
    grounds = []
    for _ in range(n):
        ground = [[] for _ in range(cells)]
        ground[config.start_cell] = [START_TILE]
        grounds.append(ground)
    state = ElephantFestivalState(
        phase=DRAW_TILE, grounds=grounds, elephants=[[config.start_cell] * ELEPHANTS] * n,
        passes=[0] * n, box=list(config.tile_counts), bag=config.bag_size, draws_left=0,
        display=[0] * NUM_KINDS, holder=0, turn=0, discarded=[0] * NUM_KINDS,
    )  # fmt: skip
    state.elephants = [list(herd) for herd in state.elephants]
    _start_round(config, state)
    return state


def current_player(config: Config, state: ElephantFestivalState) -> int:
    if state.phase == PLACE:
        return (state.holder + state.turn) % config.num_players
    return TERMINAL if state.phase == GAME_OVER else CHANCE


def chance_event(config: Config, state: ElephantFestivalState) -> ChanceEvent:
    if state.phase != DRAW_TILE:
        raise ValueError(f"no chance event in phase {state.phase}")
    # Drawing from the bag is drawing from the tiles not yet seen: for fewer than five
    # players the bag is a random part of the box, which comes to the same.
    return ChanceEvent.weighted("draw a tile from the bag (kind)", dict(enumerate(state.box)))


def sample_chance(config: Config, state: ElephantFestivalState, rng: np.random.Generator) -> int:
    """``chance_event(...).sample(rng)`` without building the event."""
    return draw_from_counts(state.box, rng)


def apply_chance(config: Config, state: ElephantFestivalState, kind: int) -> None:
    state.box[kind] -= 1
    state.bag -= 1
    state.display[kind] += 1
    state.draws_left -= 1
    if state.draws_left == 0:
        state.phase, state.turn = PLACE, 0
        _skip_idle(config, state)


def legal_actions(config: Config, state: ElephantFestivalState) -> list[int]:
    return sorted(_actions(config, state))


def _actions(config: Config, state: ElephantFestivalState) -> list[int]:
    """The deciding seat's legal actions, kind by kind (by absolute colour), then pass."""
    if state.phase != PLACE:
        return []
    seat = current_player(config, state)
    # PLACE_ACTIONS runs kind by kind, then elephant, then direction.
    spots = [
        e * len(DIRECTIONS) + d
        for e, d, _ in placements(state.elephants[seat], config.start_cell, config.grid)
    ]
    per_kind = ELEPHANTS * len(DIRECTIONS)
    relative = RELATIVE_KIND[seat]
    actions = [
        relative[kind] * per_kind + spot
        for kind, shown in enumerate(state.display) if shown
        for spot in spots
    ]  # fmt: skip
    if state.passes[seat] < MAX_PASSES:
        actions.append(PASS_ACTION)
    return actions


def placement_values(
    config: Config, state: ElephantFestivalState, seat: int, actions: list[int]
) -> dict[int, tuple[int, int]]:
    """For each placement of ``actions`` (the pass is skipped): how much it changes the
    seat's final score if the game ended now, and how many placements its herd has after it
    (the facts the heuristic weighs, and the move features show)."""
    ground = [list(stack) for stack in state.grounds[seat]]
    herd = state.elephants[seat]
    standing = ELEPHANTS - state.passes[seat]
    base = score(ground, seat, config.grid, standing)["total"]
    values = {}
    for action in actions:
        if action == PASS_ACTION:
            continue
        relative, elephant, direction = PLACE_ACTIONS[action]
        cell = neighbour(herd[elephant], direction, config.grid)
        ground[cell].append(absolute_kind(relative, seat))
        moved = list(herd)
        moved[elephant] = cell
        gain = score(ground, seat, config.grid, standing)["total"] - base
        values[action] = (gain, len(placements(moved, config.start_cell, config.grid)))
        ground[cell].pop()
    return values


def action_string(config: Config, state: ElephantFestivalState, action: int) -> str:
    """A placement with the deciding seat's real colours and the cell it lands on (the
    action ids count colours from the seat's own, as the observation does)."""
    if action == PASS_ACTION:
        return "pass"
    relative, elephant, direction = PLACE_ACTIONS[action]
    seat = current_player(config, state)
    if seat < 0:
        return ACTION_NAMES[action]
    kind = absolute_kind(relative, seat)
    cell = neighbour(state.elephants[seat][elephant], direction, config.grid)
    where = f"row {cell // config.grid}, col {cell % config.grid}" if cell >= 0 else "off"
    return (
        f"place {kind_name(kind)} beside elephant {elephant + 1} to the "
        f"{DIRECTION_NAMES[direction]} ({where})"
    )


def legal_mask(config: Config, state: ElephantFestivalState) -> np.ndarray:
    mask = np.zeros(len(ACTION_NAMES), dtype=bool)
    mask[_actions(config, state)] = True
    return mask


def apply_action(config: Config, state: ElephantFestivalState, action: int) -> None:
    seat = current_player(config, state)
    if action == PASS_ACTION:
        state.passes[seat] += 1  # one more elephant lies down
    else:
        relative, elephant, direction = PLACE_ACTIONS[action]
        kind = absolute_kind(relative, seat)
        cell = neighbour(state.elephants[seat][elephant], direction, config.grid)
        state.display[kind] -= 1
        state.grounds[seat][cell].append(kind)
        state.elephants[seat][elephant] = cell
    state.turn += 1
    _skip_idle(config, state)


def _skip_idle(config: Config, state: ElephantFestivalState) -> None:
    """Pass over players with nothing to do; end the round when everyone has acted."""
    while state.turn < config.num_players and not _actions(config, state):
        state.turn += 1
    if state.turn < config.num_players:
        return
    for kind, count in enumerate(state.display):  # tiles nobody took leave the game
        state.discarded[kind] += count
    state.display = [0] * NUM_KINDS
    state.holder = (state.holder + 1) % config.num_players
    _start_round(config, state)


def _start_round(config: Config, state: ElephantFestivalState) -> None:
    if state.bag == 0:
        state.phase = GAME_OVER
        return
    state.draws_left = min(config.num_players, state.bag)
    state.phase, state.turn = DRAW_TILE, 0


# --- saved states -----------------------------------------------------------------------
def validate(config: Config, state: ElephantFestivalState) -> None:
    """Raise StateError if ``state`` cannot arise in a game of ``config``: the invariants of
    ``state.validate``, then that the deciding player has something to do (a check that
    needs the rules, so it is made here: state.py sits below rules.py)."""
    validate_state(config, state)
    if state.phase == PLACE and not _actions(config, state):
        raise StateError("phase, display, passes, elephants: the deciding player has nothing to do")


# --- results ----------------------------------------------------------------------------
def breakdowns(config: Config, state: ElephantFestivalState) -> list[dict[str, int]]:
    return [
        score(ground, seat, config.grid, ELEPHANTS - state.passes[seat])
        for seat, ground in enumerate(state.grounds)
    ]


def scores(config: Config, state: ElephantFestivalState) -> list[float]:
    return [float(lines["total"]) for lines in breakdowns(config, state)]


def winners(config: Config, state: ElephantFestivalState) -> list[int]:
    if state.phase != GAME_OVER:
        return []
    totals = [lines["total"] for lines in breakdowns(config, state)]
    best = max(totals)
    return [seat for seat, total in enumerate(totals) if total == best]


def final_details(config: Config, state: ElephantFestivalState) -> dict[str, Any]:
    """The final ``info``'s extras: every seat's score line by line, standing elephants."""
    return _details(breakdowns(config, state), state)


def _details(lines: list[dict[str, int]], state: ElephantFestivalState) -> dict[str, Any]:
    return {"score_lines": lines, "standing_elephants": [ELEPHANTS - p for p in state.passes]}


def final_results(
    config: Config, state: ElephantFestivalState
) -> tuple[list[float], list[int], dict[str, Any]]:
    """Scores, winners and ``final_details`` with every ground scored once (the costly
    part)."""
    lines = breakdowns(config, state)
    totals = [float(line["total"]) for line in lines]
    won = []
    if state.phase == GAME_OVER:
        won = [seat for seat, total in enumerate(totals) if total == max(totals)]
    return totals, won, _details(lines, state)
