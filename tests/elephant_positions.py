"""Hand-built Elephant Festival grounds and positions for the rules tests.

A ground is given as {(row, col): "R3 G1"}: a stack bottom first, each tile a colour
letter (R Y G B P) and its symbol count. The start tile sits at the centre by itself.
"""

from __future__ import annotations

from jungle_envs.core.state import StateError
from jungle_envs.games.elephant_festival.game import ElephantFestival
from jungle_envs.games.elephant_festival.state import ElephantFestivalState
from jungle_envs.games.elephant_festival.tables import (
    COLOR_LETTERS,
    NUM_KINDS,
    PLACE,
    PLACE_ACTIONS,
    START_TILE,
    TYPES,
    relative_kind,
)

GRID = 9
CENTRE = (4, 4)


def tile(token: str) -> int:
    return COLOR_LETTERS.index(token[0]) * TYPES + int(token[1:])


def cell(row: int, col: int, grid: int = GRID) -> int:
    return row * grid + col


def ground(tiles: dict[tuple[int, int], str], grid: int = GRID) -> list[list[int]]:
    cells = [[] for _ in range(grid * grid)]
    cells[grid * grid // 2] = [START_TILE]
    for (row, col), stack in tiles.items():
        cells[cell(row, col, grid)] = [tile(t) for t in stack.split()]
    return cells


def position(
    grounds: dict[int, dict[tuple[int, int], str]] | None = None,
    elephants: dict[int, list[tuple[int, int]]] | None = None,
    display: str = "",
    num_players: int = 2,
    turn: int = 0,
    passes: dict[int, int] | None = None,
    discarded: str = "",
    **options,
) -> tuple[ElephantFestival, ElephantFestivalState]:
    """A PLACE position; tiles on grounds, on display and ``discarded`` (left untaken in
    earlier rounds) come out of the bag, and the bag holder is whoever's turn it is
    after that many rounds."""
    game = ElephantFestival(num_players, **options)
    config = game.config
    start = config.start_cell
    built = [ground((grounds or {}).get(s, {}), config.grid) for s in range(num_players)]
    box = list(config.tile_counts)
    shown = [0] * NUM_KINDS
    for token in display.split():
        shown[tile(token)] += 1
        box[tile(token)] -= 1
    gone = [0] * NUM_KINDS
    for token in discarded.split():
        gone[tile(token)] += 1
        box[tile(token)] -= 1
    drawn = sum(shown) + sum(gone)
    for g in built:
        for c, stack in enumerate(g):
            if c != start:
                for t in stack:
                    box[t] -= 1
                    drawn += 1
    herds = [[start, start] for _ in range(num_players)]
    for seat, spots in (elephants or {}).items():
        herds[seat] = [cell(r, c, config.grid) for r, c in spots]
    while True:
        rounds = -(-drawn // num_players)
        state = ElephantFestivalState(
            phase=PLACE, grounds=built, elephants=herds,
            passes=[(passes or {}).get(s, 0) for s in range(num_players)], box=list(box),
            bag=config.bag_size - drawn, draws_left=0, display=shown,
            holder=(rounds - 1) % num_players, turn=turn, discarded=list(gone),
        )  # fmt: skip
        try:
            game.validate_state(state)
            return game, state
        except StateError as exc:
            if "acted more than once a round" not in str(exc):
                raise
        # A seat placed more tiles than the rounds so far allow: earlier rounds must have
        # left tiles untaken. Whole cycles of rounds keep the same seat holding the bag.
        for _ in range(num_players * num_players):
            kind = max(range(NUM_KINDS), key=box.__getitem__)
            box[kind] -= 1
            gone[kind] += 1
            drawn += 1


def place(game, state, token: str, elephant: int, direction: str) -> None:
    """The deciding seat places a tile (given by its absolute colour) beside an elephant."""
    seat = game.current_player(state)
    relative = relative_kind(tile(token), seat)
    triple = (relative, elephant - 1, "NESW".index(direction))
    game.apply_action(state, PLACE_ACTIONS.index(triple))
