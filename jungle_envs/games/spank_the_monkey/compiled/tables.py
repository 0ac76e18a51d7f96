"""Spank the Monkey's tables for the kernels (mirrors tables.py): the card and action
tables as arrays the kernels index by card type or action, and the rulings' numbers the
kernels read."""

from __future__ import annotations

import numpy as np

from jungle_envs.games.spank_the_monkey.tables import (
    ACTIONS,
    ATTACK,
    BONUS_AGAINST,
    CARDS,
    CATEGORIES,
    DEFENSE,
    HAND,
    IGNORES_REINFORCEMENT,
    JUNK,
    NUM_TYPES,
    REINFORCEMENT,
    SPANK_HIT,
    SPECIAL,
    TOPPLES_ALL,
)

# --- the card table -------------------------------------------------------------------------
KINDS = (JUNK, REINFORCEMENT, ATTACK, DEFENSE, SPECIAL)
KIND_JUNK, KIND_REINFORCEMENT, KIND_ATTACK, KIND_DEFENSE, KIND_SPECIAL = range(len(KINDS))
# The effects the kernels branch on; throw, sneak and the defenses (known by card) are NONE.
EFFECTS = ("", "DRAW", "SALVAGE", "BRACE", "SHAKE", HAND, "EARTHQUAKE", "INSPECTION",
           "GORILLA", "BANANA_PEEL", "SCRAP_DEALER")  # fmt: skip
(NONE, DRAW_EFFECT, SALVAGE, BRACE, SHAKE, HAND_STYLE,
 EARTHQUAKE, INSPECTION, GORILLA, BANANA_PEEL, SCRAP_DEALER) = range(len(EFFECTS))  # fmt: skip
KIND = np.array([KINDS.index(c.kind) for c in CARDS], dtype=np.int64)
HEIGHT = np.array([c.height for c in CARDS], dtype=np.int64)
STRENGTH = np.array([c.strength for c in CARDS], dtype=np.int64)
EFFECT = np.array([EFFECTS.index(c.effect) if c.effect in EFFECTS else NONE for c in CARDS],
                  dtype=np.int64)  # fmt: skip


def category_bits(categories) -> int:
    """A set of categories as bits (bit i: ``CATEGORIES[i]``): overlaps are one ``&``."""
    return sum(1 << CATEGORIES.index(category) for category in categories)


CATEGORY_BITS = np.array([category_bits(c.categories) for c in CARDS], dtype=np.int64)
BONUS, BONUS_BITS = np.zeros(NUM_TYPES, dtype=np.int64), np.zeros(NUM_TYPES, dtype=np.int64)
for _card, (_bonus, _categories) in BONUS_AGAINST.items():
    BONUS[_card], BONUS_BITS[_card] = _bonus, category_bits(_categories)
IGNORES = np.array([t in IGNORES_REINFORCEMENT for t in range(NUM_TYPES)])
TOPPLES = np.array([t in TOPPLES_ALL for t in range(NUM_TYPES)])
HIT = np.array(SPANK_HIT, dtype=np.int64)

# --- the action table -----------------------------------------------------------------------
DRAW_SECOND_ACTION, NO_SECOND_DRAW = ACTIONS.draw_second, ACTIONS.no_second_draw
SKIP_BUILD, SKIP_REINFORCE = ACTIONS.skip_build, ACTIONS.skip_reinforce
END_ATTACKS, NO_DEFENSE = ACTIONS.end_attacks, ACTIONS.no_defense
SPANK_ACTION, NO_SPANK, STOP_DISCARD = ACTIONS.spank, ACTIONS.no_spank, ACTIONS.stop_discard
SEAT0, LEVEL0 = ACTIONS.seat[0], ACTIONS.level[0]
# The action that plays a card, by [kind, card]; the extra last row discards it.
DISCARD_ROW = len(KINDS)
ACTION_OF = np.full((DISCARD_ROW + 1, NUM_TYPES), -1, dtype=np.int64)
_TABLES = (ACTIONS.build, ACTIONS.reinforce, ACTIONS.attack, ACTIONS.defend, ACTIONS.special)
for _row, _table in enumerate((*_TABLES, ACTIONS.discard)):
    for _card, _action in _table.items():
        ACTION_OF[_row, _card] = _action
# The card an action plays, -1 for actions that play none.
CARD_OF = np.full(len(ACTIONS.names), -1, dtype=np.int64)
for _action, _card in ACTIONS.card_of.items():
    CARD_OF[_action] = _card
