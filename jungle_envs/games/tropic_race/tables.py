"""Tropic Race: the board, tiles, die and numbers of the rulings, as data.

Everything marked *(tunable)* in the rulings is a default here and an option of the game
(see ``config.py``); the board layout itself is fixed.
"""

from __future__ import annotations

# --- locations -----------------------------------------------------------------------
#            GOAL
#   FB1 FB2 FB3 FB4 FB5      far bank
#   FT1 FT2 FT3 FT4 FT5      far turtle of the tile in slot i
#   NT1 NT2 NT3 NT4 NT5      near turtle of the tile in slot i
#   B1-B2-B3-B4-B5-B6-B7-B8-B9   near bank; slot i is entered from B1, B3, B5, B7, B9
#               T3
#               T2
#               T1
#             START
SLOTS = 5
LOCATION_NAMES = (
    "START",
    "T1", "T2", "T3",
    *(f"B{i}" for i in range(1, 10)),
    *(f"NT{i}" for i in range(1, SLOTS + 1)),
    *(f"FT{i}" for i in range(1, SLOTS + 1)),
    *(f"FB{i}" for i in range(1, SLOTS + 1)),
    "GOAL",
)  # fmt: skip
LOC = {name: index for index, name in enumerate(LOCATION_NAMES)}
START, GOAL = LOC["START"], LOC["GOAL"]
NUM_LOCATIONS = len(LOCATION_NAMES)
LAND = tuple(LOC[n] for n in ("T1", "T2", "T3", *(f"B{i}" for i in range(1, 10))))
NEAR_TURTLE = tuple(LOC[f"NT{i}"] for i in range(1, SLOTS + 1))
FAR_TURTLE = tuple(LOC[f"FT{i}"] for i in range(1, SLOTS + 1))
FAR_BANK = tuple(LOC[f"FB{i}"] for i in range(1, SLOTS + 1))
SLOT_BANK = tuple(LOC[f"B{i}"] for i in (1, 3, 5, 7, 9))  # where slot i is entered

# Forward steps on land and from the far side; turtle steps depend on the tiles.
LAND_STEPS = {
    LOC["START"]: (LOC["T1"],),
    LOC["T1"]: (LOC["T2"],),
    LOC["T2"]: (LOC["T3"],),
    LOC["T3"]: (LOC["B5"],),
    LOC["B5"]: (LOC["B4"], LOC["B6"]),
    **{LOC[f"B{i}"]: (LOC[f"B{i - 1}"],) for i in range(2, 5)},
    **{LOC[f"B{i}"]: (LOC[f"B{i + 1}"],) for i in range(6, 9)},
    **{FAR_BANK[i]: (GOAL,) for i in range(SLOTS)},
}

# The lion's path: the land fields as a tree around B5, with three ends.
LION_ENDS = (LOC["T1"], LOC["B1"], LOC["B9"])
LION_PARENT = {
    LOC["T3"]: LOC["B5"],
    LOC["T2"]: LOC["T3"],
    LOC["T1"]: LOC["T2"],
    **{LOC[f"B{i}"]: LOC[f"B{i + 1}"] for i in range(1, 5)},
    **{LOC[f"B{i}"]: LOC[f"B{i - 1}"] for i in range(6, 10)},
}

# --- river tiles: (near turtle, far turtle) ------------------------------------------
TILE_KINDS = ("bridge", "near_only", "far_only", "empty")
TILE_TURTLES = ((True, True), (True, False), (False, True), (False, False))
DEFAULT_TILE_MIX = {"bridge": 10, "near_only": 4, "far_only": 3, "empty": 3}  # *(tunable)*
NO_TILE = -1

# --- the die ------------------------------------------------------------------------
LION_FACE, ARROW_FACE = "LION", "ARROW"
DEFAULT_DIE = ("1", "2", "3", "4", "5", "6", "LION", "LION", "ARROW", "ARROW")  # *(tunable)*
MAX_NUMBER = 9  # largest number face an option may use
# Outcome codes of a roll: 1..9 the numbers, then the two symbols.
LION_CODE, ARROW_CODE = 10, 11

# --- players and fields ---------------------------------------------------------------
MONKEYS_PER_PLAYER = {2: 6, 3: 5, 4: 4, 5: 4}  # *(tunable)*
DEFAULT_LION_START = "B5"  # *(tunable)*
DEFAULT_DIE_FIELDS = ("T2", "B2", "B8")  # extra turn *(tunable)*
DEFAULT_ARROW_FIELDS = ("B4", "B6")  # push the river *(tunable)*

# --- phases ---------------------------------------------------------------------------
LAY_TILE, PICK_START, ROLL, PUSH = range(4)  # chance
MOVE, LION = 4, 5  # decisions
GAME_OVER = 6
PHASE_NAMES = (
    "lay the river tiles",
    "pick the start player",
    "roll the die",
    "push the river",
    "move a monkey",
    "walk the lion",
    "game over",
)
# What follows a push.
THEN_STEP_ONE, THEN_END_TURN = 0, 1


# --- actions ----------------------------------------------------------------------------
def _all_forward(loc: int) -> tuple[int, ...]:
    """Forward steps with every turtle present (the widest board)."""
    steps = list(LAND_STEPS.get(loc, ()))
    if loc in SLOT_BANK:
        steps.append(NEAR_TURTLE[SLOT_BANK.index(loc)])
    if loc in NEAR_TURTLE:
        steps.append(FAR_TURTLE[NEAR_TURTLE.index(loc)])
    if loc in FAR_TURTLE:
        steps.append(FAR_BANK[FAR_TURTLE.index(loc)])
    return tuple(steps)


def _descendants(loc: int) -> set[int]:
    found, todo = set(), list(_all_forward(loc))
    while todo:
        nxt = todo.pop()
        if nxt not in found:
            found.add(nxt)
            todo.extend(_all_forward(nxt))
    return found


# A move names where a monkey stands and where it ends: every pair the board allows.
MOVES = tuple(
    (origin, target)
    for origin in range(NUM_LOCATIONS)
    if origin != GOAL
    for target in sorted(_descendants(origin))
)
MOVE_INDEX = {pair: index for index, pair in enumerate(MOVES)}
LION_ACTION = len(MOVES)  # + index into LION_ENDS
ACTION_NAMES = (
    *(f"move {LOCATION_NAMES[a]}->{LOCATION_NAMES[b]}" for a, b in MOVES),
    *(f"lion to {LOCATION_NAMES[end]}" for end in LION_ENDS),
)
