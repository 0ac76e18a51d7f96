"""Spank the Monkey's header and config: the game spec with its options, the observation
layout, and the frozen ``Config`` every function of the folder takes (player count, option
values and what the rules derive from them).

``LAYOUT`` declares the observation (T = 44 card types in table order, S = 6 seat slots,
L = 42 tower levels; the same for every player count and option; ``encoding.py`` writes
and reads it, ``LAYOUT.table()`` is the table in docs/rules/spank_the_monkey.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from jungle_envs.core.game import GameSpec, Option
from jungle_envs.core.layout import Layout, Piece
from jungle_envs.games.spank_the_monkey.tables import (
    ACTIONS,
    ATTACK_TYPES,
    CARD_INDEX,
    CARDS,
    CATEGORIES,
    DECISION_PHASES,
    DEFAULT_MONKEY_BASE,
    DEFAULT_MONKEY_FLOOR,
    DEFENSE_TYPES,
    HAND_SIZE,
    JUNK,
    MAX_DISCARDS,
    MAX_LEVELS,
    MAX_SEATS,
    NUM_TYPES,
)

DEFAULT_DECK = {card.name: card.copies for card in CARDS}

# The observation: a flat float32 vector in [0, 1] from one seat's point of view, seats
# rotated so that the observer is slot 0; other players' hands appear only as sizes, the
# deck only as its size.
LEVEL_FEATURES = 4 + len(CATEGORIES)
SEAT_FEATURES = 4
MIN_PLAYERS = 2
LAYOUT = Layout(
    [
        Piece(
            "hand", (NUM_TYPES,), "my cards per type / the most copies of any card (5 by default)"
        ),
        Piece(
            "towers",
            (MAX_SEATS, MAX_LEVELS, LEVEL_FEATURES),
            "per rotated seat and level from the bottom: present, height / 4, strength "
            "with braces / 12, reinforcement / 3, 7 category flags (MACHINE LEISURE ILLEGAL "
            "HOUSEHOLD GARDEN VEHICLE ANIMAL)",
        ),
        Piece(
            "seats",
            (MAX_SEATS, SEAT_FEATURES),
            "per rotated seat: cards in hand / 15, tower height / 30, in spank reach, on turn",
        ),
        Piece("monkey", (1,), "monkey height / 20"),
        Piece("deck", (1,), "cards left in the deck / cards in the game"),
        Piece(
            "discards",
            (NUM_TYPES,),
            "cards per type in the discard pile / the most copies of any card",
        ),
        Piece("top", (NUM_TYPES,), "one-hot: the top card of the discard pile"),
        Piece(
            "phase",
            (len(DECISION_PHASES),),
            "one-hot decision: draw a second card, build, reinforce, attack, target player, "
            "target card, defend, trampoline target, spank, discard",
        ),
        Piece("attack_card", (len(ATTACK_TYPES),), "the pending attack's card, one-hot"),
        Piece("attack_target", (MAX_SEATS,), "the pending attack's target, rotated seat one-hot"),
        Piece("attack_level", (1,), f"the pending attack's target level / {MAX_LEVELS}"),
        Piece("attack_defense", (len(DEFENSE_TYPES),), "the defense card played, one-hot"),
        Piece("attack_redirected", (1,), "the pending attack was redirected by a Trampoline"),
        Piece("discards_left", (1,), f"discards left this turn / {MAX_DISCARDS}"),
        Piece("players", (5,), "one-hot 2-6 players"),
    ]
)


# With the move_features option, per action (row i for action i, all zero unless the
# observer decides now): legal; what kind of action it is (11: draw a second card, build,
# reinforce, attack card, special card, target seat, target level, defend, spank, discard,
# pass); the card it plays, if any (kind one-hot: junk, reinforcement, attack, defense,
# special; height / 4; strength / 12); my tower height / 30 and the monkey / 20 after it,
# whether I am then in the spank window and the chance a spank then hits; for an attack
# (its best target level by expected fall), a target or a defense: the chance the attack
# succeeds, the tower height it takes down in expectation / 10 (collapse roll averaged),
# whether the target is in the spank window and its height / 30.
MOVE_KINDS = (
    "draw", "build", "reinforce", "attack", "special", "seat", "level", "defend", "spank",
    "discard", "pass",
)  # fmt: skip
(MOVE_DRAW, MOVE_BUILD, MOVE_REINFORCE, MOVE_ATTACK, MOVE_SPECIAL, MOVE_SEAT, MOVE_LEVEL,
 MOVE_DEFEND, MOVE_SPANK, MOVE_DISCARD, MOVE_PASS) = range(len(MOVE_KINDS))  # fmt: skip
MOVE_KIND_AT = 1
CARD_KIND_AT = MOVE_KIND_AT + len(MOVE_KINDS)  # 5 card kinds, then height, strength
AFTER_AT = CARD_KIND_AT + 7  # my height, monkey, in window, spank chance
ATTACK_AT = AFTER_AT + 4  # success chance, expected fall, target in window, target height
MOVE_FEATURES = ATTACK_AT + 4
MOVES_LAYOUT = Layout(
    [
        *LAYOUT.pieces,
        Piece(
            "moves",
            (len(ACTIONS.names), MOVE_FEATURES),
            "option `move_features` only, per action (all zero unless the observer decides "
            "now): legal, action kind (11), card kind (5), card height / 4, card strength / "
            "12, after it: my height / 30, monkey / 20, in the spank window, spank chance; "
            "the attack's success chance, expected fall / 10, target in window, target "
            "height / 30",
        ),
    ]
)


def _check_deck(value: Any) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise TypeError(f"expected a mapping card name -> copies, got {value!r}")
    unknown = sorted(set(value) - set(CARD_INDEX))
    if unknown:
        raise ValueError(f"unknown cards {unknown}; the table lists {sorted(CARD_INDEX)}")
    deck = {**DEFAULT_DECK, **value}
    if any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in deck.values()):
        raise ValueError("copies must be ints >= 0")
    junk = sum(n for name, n in deck.items() if CARDS[CARD_INDEX[name]].kind == JUNK)
    if junk > MAX_LEVELS:
        raise ValueError(f"at most {MAX_LEVELS} junk cards (the tallest tower the actions name)")
    return deck


def _check_int(minimum: int):
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise ValueError(f"expected an int >= {minimum}, got {value!r}")
        return value

    return check


def _check_flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected True or False, got {value!r}")
    return value


SPEC = GameSpec(
    name="spank_the_monkey",
    env_name="SpankTheMonkey",
    min_players=2,
    max_players=6,
    default_players=4,
    action_names=ACTIONS.names,
    # Every turn draws from a deck that never refills, so a game lasts at most ~90 turns;
    # a seat plays or discards each card it holds at most once.
    max_decisions=2000,
    options=(
        Option("deck", DEFAULT_DECK, "copies of each card (name -> copies)", _check_deck),
        Option(
            "monkey_base",
            DEFAULT_MONKEY_BASE,
            "the monkey starts at this minus the players",
            _check_int(1),
        ),
        Option(
            "monkey_floor",
            DEFAULT_MONKEY_FLOOR,
            "a Banana Peel never takes the monkey lower",
            _check_int(0),
        ),
        Option(
            "move_features",
            False,
            "add, per action, what it would do (heights, spank and attack chances)",
            _check_flag,
            observation_only=True,
        ),
    ),
)


@dataclass(frozen=True)
class Config:
    """One bound game: the player count, the options and the numbers derived from them."""

    num_players: int
    deck: tuple[tuple[str, int], ...]  # option: (card name, copies) in table order
    monkey_base: int  # option
    monkey_floor: int  # option: a Banana Peel never takes the monkey lower
    deck_counts: tuple[int, ...]  # copies per card type, in table order
    max_copies: int  # the most copies of any card (at least 1): the hand and pile scale
    monkey_start: int  # monkey_base minus the players
    move_features: bool  # option: the observation shows what each action would do
    layout: Layout  # the observation

    @property
    def observation_size(self) -> int:
        return self.layout.size


def make_config(num_players: int, options: Mapping[str, Any]) -> Config:
    """The Config for checked ``options``; raises for options that contradict each other."""
    deck = options["deck"]
    deck_counts = tuple(deck[card.name] for card in CARDS)
    monkey_start = options["monkey_base"] - num_players
    monkey_floor = options["monkey_floor"]
    if monkey_start < monkey_floor:
        raise ValueError(
            f"the monkey would start at {monkey_start}, below its floor {monkey_floor}"
        )
    if sum(deck_counts) <= HAND_SIZE * num_players:
        raise ValueError(f"the deck must hold more than {HAND_SIZE} cards per player")
    return Config(
        num_players=num_players,
        deck=tuple((card.name, deck[card.name]) for card in CARDS),
        monkey_base=options["monkey_base"],
        monkey_floor=monkey_floor,
        deck_counts=deck_counts,
        max_copies=max(max(deck_counts), 1),
        monkey_start=monkey_start,
        move_features=options["move_features"],
        layout=MOVES_LAYOUT if options["move_features"] else LAYOUT,
    )
