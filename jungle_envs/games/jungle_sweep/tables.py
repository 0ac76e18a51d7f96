"""Jungle Sweep: the material and numbers of the rulings, as data.

Everything marked *(tunable)* in the rulings is a default here and an option of the game
(see ``config.py``); everything else is a fixed rule.
"""

from __future__ import annotations

# Terrain types. A ring tile is coded by its terrain, except palms, which are coloured:
# the palm of monkey slot k has code PALM + k, so the set-up knows where each monkey starts.
JUNGLE_PATH, QUICKSAND, CLEARING, WATER_HOLE, HILL, PALM = range(6)
TERRAIN_KEYS = ("jungle_path", "quicksand", "clearing", "water_hole", "hill", "palm")
TERRAIN_LABELS = ("path", "quicksand", "clearing", "water", "hill", "palm")
TERRAIN_SYMBOLS = ("J", "Q", "C", "W", "H", "P")
NUM_TERRAINS = 6

# Non-palm terrain tiles in the box *(tunable)*; palms come one per monkey.
DEFAULT_TERRAIN = {
    "jungle_path": 8,
    "quicksand": 1,
    "clearing": 1,
    "water_hole": 2,
    "hill": 2,
}

# Die faces, by index. PALM_FACE moves nothing for the broom and jumps a monkey.
DIE_FACE_LABELS = ("0", "1", "2", "3", "4", "PALM")
DIE_FACE_STEPS = (0, 1, 2, 3, 4, 0)
PALM_FACE = 5
NUM_FACES = 6

# Coconut value -> number in the box *(tunable values)*. Value 0 is a hollow coconut.
DEFAULT_COCONUTS = {0: 4, 1: 6, 2: 5, 3: 3, 4: 2}

ROUNDS = 4
QUICKSAND_COST = 2  # steps a monkey spends to enter the quicksand
DEFAULT_MAX_DICE_ROUNDS = 200  # safety net per round *(tunable)*
MAX_MONKEYS = 6

# Players -> (monkeys in play, hollow coconuts in the supply, coconuts set aside unseen).
PLAYER_SETUP = {
    2: (4, False, 0),  # two monkeys each, seated A1, B1, A2, B2
    3: (3, False, 4),
    4: (4, False, 0),
    5: (5, True, 0),
    6: (6, True, 0),
}

# Monkeys by leaving order: the first UNREWARDED[monkeys] to be swept get nothing, the
# monkey left alone (or swept last) gets LAST_MONKEY_COCONUTS, every other one gets 1.
UNREWARDED = {3: 1, 4: 1, 5: 1, 6: 2}
LATER_LEAVER_COCONUTS = 1
LAST_MONKEY_COCONUTS = 2

# Actions: take a die face (0-5), then the three yes/no landing decisions.
TAKE_DIE = tuple(range(NUM_FACES))
WATER_ENTER, WATER_STAY, HILL_STEP, HILL_STAY = 6, 7, 8, 9
CLEARING_REROLL, CLEARING_STAY = 10, 11
ACTION_NAMES = (
    *(f"take die {label}" for label in DIE_FACE_LABELS),
    "enter water hole",
    "stay out of water hole",
    "take hill step",
    "stay on hill",
    "re-roll on the clearing",
    "stay on the clearing",
)

# Phases of the state machine. Chance phases come first.
SET_ASIDE, LAY_RING, ROLL, REROLL, DRAW_COCONUT = range(5)
CHOOSE_DIE, WATER, HILL_CHOICE, CLEARING_CHOICE = 5, 6, 7, 8
GAME_OVER = 9
CHANCE_PHASES = frozenset({SET_ASIDE, LAY_RING, ROLL, REROLL, DRAW_COCONUT})
PHASE_NAMES = (
    "set aside coconuts",
    "lay the ring",
    "roll the dice",
    "re-roll on the clearing",
    "draw coconuts",
    "choose a die",
    "water hole: enter or stay",
    "hill: step on or stay",
    "clearing: re-roll or stay",
    "game over",
)
