"""Spank the Monkey: the 94-card deck and the numbers of the rulings, as data.

The deck is one declarative table. A card type is identified by its row number in
``CARDS``; the ``deck`` option changes how many copies of each name are shuffled in.
"""

from __future__ import annotations

from typing import NamedTuple

# Kinds of card.
JUNK, REINFORCEMENT, ATTACK, DEFENSE, SPECIAL = (
    "junk",
    "reinforcement",
    "attack",
    "defense",
    "special",
)
# Junk categories.
CATEGORIES = ("MACHINE", "LEISURE", "ILLEGAL", "HOUSEHOLD", "GARDEN", "VEHICLE", "ANIMAL")
# Attack styles.
THROW, HAND, SNEAK = "throw", "hand", "sneak"


class Card(NamedTuple):
    name: str
    kind: str
    copies: int
    height: int = 0  # junk
    strength: int = 0  # junk strength; reinforcement, attack or defense value
    categories: tuple[str, ...] = ()  # junk
    effect: str = ""  # junk effect, attack style, defense or special effect


# fmt: off
CARDS: tuple[Card, ...] = (
    # Junk: height, strength, categories, effect when built.
    Card("Old Fridge", JUNK, 3, 2, 4, ("HOUSEHOLD", "MACHINE")),
    Card("Pinball Machine", JUNK, 2, 2, 3, ("MACHINE", "LEISURE"), "DRAW"),
    Card("Dinosaur Skeleton", JUNK, 1, 4, 1, ("LEISURE", "ANIMAL")),
    Card("Port-a-Potty", JUNK, 2, 3, 2, ("HOUSEHOLD",)),
    Card("Surfboard", JUNK, 3, 1, 2, ("LEISURE",)),
    Card("Totem Pole", JUNK, 1, 4, 2, ("GARDEN",)),
    Card("Garden Gnome", JUNK, 3, 1, 3, ("GARDEN",)),
    Card("Rusty Car", JUNK, 2, 3, 5, ("VEHICLE", "MACHINE")),
    Card("Bathtub", JUNK, 2, 2, 5, ("HOUSEHOLD",)),
    Card("Rodeo Bull", JUNK, 2, 2, 3, ("MACHINE", "LEISURE", "ANIMAL"), "SHAKE"),
    Card("Slot Machine", JUNK, 2, 2, 2, ("ILLEGAL", "MACHINE"), "DRAW"),
    Card("Stolen Bicycle", JUNK, 3, 1, 1, ("ILLEGAL", "VEHICLE"), "DRAW"),
    Card("Moonshine Still", JUNK, 2, 2, 2, ("ILLEGAL",), "SALVAGE"),
    Card("Piano", JUNK, 2, 3, 4, ("LEISURE", "HOUSEHOLD")),
    Card("Tractor Tyre", JUNK, 3, 1, 6, ("VEHICLE", "GARDEN"), "BRACE"),
    Card("Lawn Mower", JUNK, 3, 1, 4, ("GARDEN", "MACHINE")),
    Card("Jukebox", JUNK, 2, 2, 3, ("LEISURE", "MACHINE")),
    Card("Wheelbarrow", JUNK, 2, 1, 3, ("GARDEN",)),
    Card("Stuffed Bear", JUNK, 2, 2, 2, ("ANIMAL", "ILLEGAL"), "SALVAGE"),
    # Reinforcement: value added to the strength of the junk card it is placed beside.
    Card("Duct Tape", REINFORCEMENT, 5, strength=1),
    Card("Ivy", REINFORCEMENT, 3, strength=2),
    Card("Chicken Wire", REINFORCEMENT, 3, strength=2),
    Card("Security Guard", REINFORCEMENT, 2, strength=3),
    # Attack: style and value.
    Card("Flock of Seagulls", ATTACK, 3, strength=1, effect=THROW),
    Card("Bowling Ball", ATTACK, 3, strength=2, effect=THROW),
    Card("Anvil", ATTACK, 2, strength=3, effect=THROW),
    Card("Dynamite", ATTACK, 2, strength=4, effect=THROW),
    Card("Crowbar", ATTACK, 3, strength=3, effect=HAND),
    Card("Chainsaw", ATTACK, 2, strength=4, effect=HAND),
    Card("Blowtorch", ATTACK, 1, strength=5, effect=HAND),
    Card("Wasp's Nest", ATTACK, 2, strength=2, effect=SNEAK),
    Card("Lawyer", ATTACK, 2, strength=1, effect=SNEAK),
    Card("Termites", ATTACK, 2, strength=1, effect=SNEAK),
    Card("Ball Cannon", ATTACK, 1, strength=3, effect=SNEAK),
    # Defense, played by the attacked player before the roll.
    Card("Umbrella", DEFENSE, 3, strength=1),
    Card("Satellite Dish", DEFENSE, 2, strength=2),
    Card("Wok", DEFENSE, 1, strength=3),
    Card("Guard Dog", DEFENSE, 2, effect="CANCEL"),
    Card("Trampoline", DEFENSE, 1, effect="REDIRECT"),
    # Special, played by the active player during the attack phase.
    Card("Earthquake", SPECIAL, 1, effect="EARTHQUAKE"),
    Card("Gorilla", SPECIAL, 1, effect="GORILLA"),
    Card("Banana Peel", SPECIAL, 2, effect="BANANA_PEEL"),
    Card("Scrap Dealer", SPECIAL, 2, effect="SCRAP_DEALER"),
    Card("Inspection", SPECIAL, 1, effect="INSPECTION"),
)
# fmt: on

NUM_TYPES = len(CARDS)
CARD_INDEX = {card.name: i for i, card in enumerate(CARDS)}
TYPES_OF = {
    kind: tuple(i for i, c in enumerate(CARDS) if c.kind == kind)
    for kind in (JUNK, REINFORCEMENT, ATTACK, DEFENSE, SPECIAL)
}
JUNK_TYPES = TYPES_OF[JUNK]
REINFORCEMENT_TYPES = TYPES_OF[REINFORCEMENT]
ATTACK_TYPES = TYPES_OF[ATTACK]
DEFENSE_TYPES = TYPES_OF[DEFENSE]
SPECIAL_TYPES = TYPES_OF[SPECIAL]

# Attack modifiers beyond value and style.
IGNORES_REINFORCEMENT = frozenset({CARD_INDEX["Wasp's Nest"]})
BONUS_AGAINST = {  # +3 against junk of any of these categories
    CARD_INDEX["Lawyer"]: (3, frozenset({"ILLEGAL"})),
    CARD_INDEX["Termites"]: (3, frozenset({"GARDEN", "HOUSEHOLD"})),
}
TOPPLES_ALL = frozenset({CARD_INDEX["Ball Cannon"]})
GUARD_DOG, TRAMPOLINE = CARD_INDEX["Guard Dog"], CARD_INDEX["Trampoline"]

# --- numbers of the rulings -----------------------------------------------------------
HAND_SIZE = 5
DRAW_TWO_AT_OR_BELOW = 4  # hold this many or fewer at the start of a turn: may draw 2
DEFAULT_MONKEY_BASE = 14  # monkey height = base - players *(tunable)*
DEFAULT_MONKEY_FLOOR = 5  # a Banana Peel never takes the monkey lower *(tunable)*
SPANK_REACH = 2  # a tower may be up to this much higher than the monkey
SPANK_HIT = (3, 4, 5)  # die needed at 0, 1, 2 above the monkey
QUAKE_TOPPLES = (1, 2)  # an Earthquake roll that drops a player's top junk card
COLLAPSE_NONE, COLLAPSE_ONE = (1, 2, 3), (4, 5)  # a 6 drops every card above
MAX_DISCARDS = 2
DIE = tuple(range(1, 7))

# --- phases ---------------------------------------------------------------------------
# Chance phases
DRAW, PICK_START, ATTACK_ROLL, COLLAPSE_ROLL, QUAKE_ROLL, INSPECT, SPANK_ROLL = range(7)
# Decisions
DRAW_SECOND = 7
BUILD_JUNK, BUILD_REINFORCE, ATTACK_CHOICE, ATTACK_PLAYER, ATTACK_LEVEL = 8, 9, 10, 11, 12
DEFEND, TRAMPOLINE_TARGET, SPANK, DISCARD = 13, 14, 15, 16
GAME_OVER = 17
DECISION_PHASES = (
    DRAW_SECOND,
    BUILD_JUNK,
    BUILD_REINFORCE,
    ATTACK_CHOICE,
    ATTACK_PLAYER,
    ATTACK_LEVEL,
    DEFEND,
    TRAMPOLINE_TARGET,
    SPANK,
    DISCARD,
)
PHASE_NAMES = (
    "draw",
    "pick the start player",
    "attack roll",
    "collapse roll",
    "earthquake roll",
    "inspection",
    "spank roll",
    "draw a second card?",
    "build junk",
    "add reinforcement",
    "attack or special",
    "choose the target player",
    "choose the target card",
    "defend",
    "trampoline target",
    "spank the monkey?",
    "discard",
    "game over",
)
MAX_SEATS = 6

# --- actions (card types, never copies) ---------------------------------------------------
MAX_LEVELS = sum(c.copies for c in CARDS if c.kind == JUNK)  # a tower never holds more


class ActionTable:
    """Action ids by meaning; every block is contiguous and fixed."""

    def __init__(self) -> None:
        names: list[str] = []

        def keyed(keys, label) -> dict[int, int]:
            """One action per key, named ``label(key)``."""
            ids = {}
            for key in keys:
                ids[key] = len(names)
                names.append(label(key))
            return ids

        def single(label: str) -> int:
            names.append(label)
            return len(names) - 1

        def card_block(verb: str, types) -> dict[int, int]:
            return keyed(types, lambda t: f"{verb} {CARDS[t].name}")

        self.draw_second = single("draw a second card")
        self.no_second_draw = single("do not draw a second card")
        self.build = card_block("build", JUNK_TYPES)
        self.skip_build = single("build nothing")
        self.reinforce = card_block("reinforce with", REINFORCEMENT_TYPES)
        self.skip_reinforce = single("no reinforcement")
        self.attack = card_block("attack with", ATTACK_TYPES)
        self.special = card_block("play", SPECIAL_TYPES)
        self.end_attacks = single("end attacks")
        seats = keyed(range(1, MAX_SEATS), lambda k: f"target the player {k} seat(s) on")
        self.seat = tuple(seats.values())  # index k - 1: the player k seats on
        self.level = tuple(keyed(range(MAX_LEVELS), lambda v: f"target tower level {v}").values())
        self.defend = card_block("defend with", DEFENSE_TYPES)
        self.no_defense = single("no defense")
        self.spank = single("spank the monkey")
        self.no_spank = single("do not spank")
        self.discard = card_block("discard", range(NUM_TYPES))
        self.stop_discard = single("stop discarding")
        self.names = tuple(names)
        self.card_of = {
            action: t
            for table in (
                self.build,
                self.reinforce,
                self.attack,
                self.special,
                self.defend,
                self.discard,
            )
            for t, action in table.items()
        }


ACTIONS = ActionTable()
