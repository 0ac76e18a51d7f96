"""Elephant Festival: the tiles, colours, ground and numbers of the rulings, as data.

Everything marked *(tunable)* in the rulings is a default here and an option of the game
(see ``game.py``).
"""

from __future__ import annotations

# Colours, one per seat in seat order.
COLORS = ("red", "yellow", "green", "blue", "purple")
COLOR_LETTERS = ("R", "Y", "G", "B", "P")
NUM_COLORS = len(COLORS)

# Festival tiles: per colour, tiles by the number of elephant symbols printed on them.
MAX_SYMBOLS = 5
TYPES = MAX_SYMBOLS + 1  # a tile's type is its symbol count, 0..5
DEFAULT_TILES_PER_COLOR = {0: 5, 1: 5, 2: 4, 3: 3, 4: 2, 5: 1}  # 20 per colour *(tunable)*
NUM_KINDS = NUM_COLORS * TYPES  # a tile kind is colour * TYPES + symbols
START_TILE = -1  # the start tile's code on a ground (never covered, never removed)

DEFAULT_GRID = 9  # the ground is GRID x GRID with the start tile at the centre *(tunable)*
ELEPHANTS = 2
MAX_PASSES = 2  # each pass lays one standing elephant on its side

# Directions N, E, S, W as (row, column) steps. The start tile's arches follow them: the
# north arch has the colour after the owner's, then east, south and west.
DIRECTIONS = ((-1, 0), (0, 1), (1, 0), (0, -1))
DIRECTION_NAMES = ("N", "E", "S", "W")

# Scoring.
REMOVED_TILE_POINTS = -2
MISSING_COLOR_POINTS = -5
STANDING_ELEPHANT_POINTS = 1
ARCH_POINTS = 5
SYMBOL_POINTS = 1
OWN_COLOR_FIELDS = 2
OTHER_COLOR_FIELDS = 1

# Phases.
DRAW_TILE, PLACE, GAME_OVER = range(3)
PHASE_NAMES = ("draw tiles from the bag", "place a tile or pass", "game over")


def kind_name(kind: int) -> str:
    return f"{COLORS[kind // TYPES]} {kind % TYPES}-symbol tile"


# Actions name colours relative to the deciding player, as the observation does: colour
# +0 is the player's own, +1 the next in seat order, and so on.
RELATIVE_COLOR_NAMES = ("own-colour", "colour+1", "colour+2", "colour+3", "colour+4")


def relative_kind(kind: int, seat: int) -> int:
    """A tile kind with its colour counted from ``seat``'s own colour."""
    return ((kind // TYPES - seat) % NUM_COLORS) * TYPES + kind % TYPES


# RELATIVE_KIND[seat][kind]: the same as relative_kind, looked up.
RELATIVE_KIND = tuple(
    tuple(((k // TYPES - s) % NUM_COLORS) * TYPES + k % TYPES for k in range(NUM_KINDS))
    for s in range(NUM_COLORS)
)


def absolute_kind(relative: int, seat: int) -> int:
    return ((relative // TYPES + seat) % NUM_COLORS) * TYPES + relative % TYPES


# Actions: place a face-up tile (relative kind) with an elephant in a direction, or pass.
PLACE_ACTIONS = tuple(
    (kind, elephant, direction)
    for kind in range(NUM_KINDS)
    for elephant in range(ELEPHANTS)
    for direction in range(len(DIRECTIONS))
)
PASS_ACTION = len(PLACE_ACTIONS)
ACTION_NAMES = (
    *(
        f"place {RELATIVE_COLOR_NAMES[k // TYPES]} {k % TYPES}-symbol tile beside elephant "
        f"{e + 1} to the {DIRECTION_NAMES[d]}"
        for k, e, d in PLACE_ACTIONS
    ),
    "pass",
)
