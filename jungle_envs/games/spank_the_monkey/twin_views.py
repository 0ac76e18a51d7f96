"""Spank the Monkey's tables as arrays, the reading of a state row, and the observation.

The card and action tables become arrays the kernels index by card type; the small readers
(a hand, a tower level, a height) are shared by the rules and the heuristic. ``observe``
writes exactly the vector of ``encoding.observe`` (same layout, same float32 values):
every value is computed in float64 as the reference computes it and rounded once when
stored, which equals the reference's float32 divisions of whole numbers; the final clamp
to 1 is taken before storing, where it gives the same float32. The buffer is zeroed once
and only non-zero entries are written.
"""

from __future__ import annotations

import numpy as np

from jungle_envs.core.compiled.jit import kernel
from jungle_envs.games.spank_the_monkey.encoding import (
    ATTACK_AT,
    DECK_AT,
    DISCARDS_AT,
    HAND_AT,
    LEFT_AT,
    LEVEL_FEATURES,
    MIN_PLAYERS,
    MONKEY_AT,
    PHASE_AT,
    PLAYERS_AT,
    SEAT_FEATURES,
    SEATS_AT,
    TOP_AT,
    TOWERS_AT,
)
from jungle_envs.games.spank_the_monkey.state import CARD as A_CARD
from jungle_envs.games.spank_the_monkey.state import DEFENSE as A_DEFENSE
from jungle_envs.games.spank_the_monkey.state import LEVEL as A_LEVEL
from jungle_envs.games.spank_the_monkey.state import REDIRECTED as A_REDIRECTED
from jungle_envs.games.spank_the_monkey.state import TARGET as A_TARGET
from jungle_envs.games.spank_the_monkey.tables import (
    ACTIONS,
    ATTACK,
    ATTACK_TYPES,
    BONUS_AGAINST,
    CARDS,
    CATEGORIES,
    DECISION_PHASES,
    DEFENSE,
    DEFENSE_TYPES,
    HAND,
    IGNORES_REINFORCEMENT,
    JUNK,
    MAX_DISCARDS,
    MAX_LEVELS,
    MAX_SEATS,
    NUM_TYPES,
    REINFORCEMENT,
    SPANK_REACH,
    SPECIAL,
    TOPPLES_ALL,
)

# --- the card table and the action table as arrays -----------------------------------------
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


# --- reading the row ------------------------------------------------------------------------
@kernel(inline=True)
def hand_at(cfg, seat):
    return cfg.hands + seat * NUM_TYPES


@kernel(inline=True)
def level_at(cfg, seat, level):
    return cfg.towers + (seat * cfg.levels + level) * 3


@kernel
def height(cfg, s, seat):
    total = 0
    for level in range(s[cfg.tower_len + seat]):
        total += HEIGHT[s[level_at(cfg, seat, level)]]
    return total


@kernel
def hand_size(cfg, s, seat):
    total = 0
    at = hand_at(cfg, seat)
    for t in range(NUM_TYPES):
        total += s[at + t]
    return total


@kernel
def deck_size(cfg, s):
    total = 0
    for t in range(NUM_TYPES):
        total += s[cfg.deck + t]
    return total


# --- the observation ------------------------------------------------------------------------
NUM_CATEGORIES = len(CATEGORIES)
FIRST_DECISION, LAST_DECISION = DECISION_PHASES[0], DECISION_PHASES[-1]
FIRST_ATTACK, FIRST_DEFENSE = ATTACK_TYPES[0], DEFENSE_TYPES[0]
TARGET_AT = ATTACK_AT + len(ATTACK_TYPES)
ATTACK_LEVEL_AT = TARGET_AT + MAX_SEATS
DEFENSE_AT = ATTACK_LEVEL_AT + 1
REDIRECTED_AT = DEFENSE_AT + len(DEFENSE_TYPES)
if tuple(range(FIRST_DECISION, LAST_DECISION + 1)) != DECISION_PHASES:
    raise ImportError("the twin reads the decision phases as one contiguous block")
if tuple(range(FIRST_ATTACK, FIRST_ATTACK + len(ATTACK_TYPES))) != ATTACK_TYPES or (
    tuple(range(FIRST_DEFENSE, FIRST_DEFENSE + len(DEFENSE_TYPES))) != DEFENSE_TYPES
):
    raise ImportError("the twin reads attack and defense cards as contiguous blocks")


@kernel(inline=True)
def put(obs, at, value):
    """Store a non-negative value clamped to 1, as the reference's final ``np.minimum``."""
    obs[at] = min(value, 1.0)


@kernel
def observe(cfg, s, seat, obs):
    obs[:] = 0.0
    n, monkey = cfg.num_players, s[cfg.monkey]
    hand = hand_at(cfg, seat)
    for t in range(NUM_TYPES):
        if s[hand + t]:
            put(obs, HAND_AT + t, s[hand + t] / cfg.max_copies)
    for other in range(n):
        slot = (other - seat) % n
        total = 0
        for level in range(s[cfg.tower_len + other]):
            at = level_at(cfg, other, level)
            junk, bonus, reinforcement = s[at], s[at + 1], s[at + 2]
            row = TOWERS_AT + (slot * MAX_LEVELS + level) * LEVEL_FEATURES
            obs[row] = 1.0
            obs[row + 1] = HEIGHT[junk] / 4.0
            put(obs, row + 2, (STRENGTH[junk] + bonus) / 12.0)
            if reinforcement >= 0:
                obs[row + 3] = STRENGTH[reinforcement] / 3.0
            bits = CATEGORY_BITS[junk]
            for c in range(NUM_CATEGORIES):
                if bits >> c & 1:
                    obs[row + 4 + c] = 1.0
            total += HEIGHT[junk]
        row = SEATS_AT + slot * SEAT_FEATURES
        put(obs, row, hand_size(cfg, s, other) / 15.0)
        put(obs, row + 1, total / 30.0)
        obs[row + 2] = monkey <= total <= monkey + SPANK_REACH
        obs[row + 3] = other == s[cfg.player]
    put(obs, MONKEY_AT, monkey / 20.0)
    obs[DECK_AT] = deck_size(cfg, s) / cfg.total_cards
    for k in range(s[cfg.discard_len]):
        obs[DISCARDS_AT + s[cfg.discard + k]] += 1.0  # whole numbers: exact in float32
    for t in range(NUM_TYPES):
        if obs[DISCARDS_AT + t]:
            put(obs, DISCARDS_AT + t, obs[DISCARDS_AT + t] / cfg.max_copies)
    if s[cfg.discard_len]:
        obs[TOP_AT + s[cfg.discard + s[cfg.discard_len] - 1]] = 1.0
    phase = s[cfg.phase]
    if FIRST_DECISION <= phase <= LAST_DECISION:
        obs[PHASE_AT + phase - FIRST_DECISION] = 1.0
    if s[cfg.attack_len]:
        attack = cfg.attack
        obs[ATTACK_AT + s[attack + A_CARD] - FIRST_ATTACK] = 1.0
        target, level = s[attack + A_TARGET], s[attack + A_LEVEL]
        if target >= 0:
            obs[TARGET_AT + (target - seat) % n] = 1.0
        if level >= 0:
            obs[ATTACK_LEVEL_AT] = level / MAX_LEVELS
        defense = s[attack + A_DEFENSE]
        if defense >= 0:
            obs[DEFENSE_AT + defense - FIRST_DEFENSE] = 1.0
        obs[REDIRECTED_AT] = s[attack + A_REDIRECTED]
    obs[LEFT_AT] = s[cfg.discards_left] / MAX_DISCARDS
    obs[PLAYERS_AT + n - MIN_PLAYERS] = 1.0
