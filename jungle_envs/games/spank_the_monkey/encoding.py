"""Spank the Monkey observation: a flat float32 vector in [0, 1] from one seat's view.

Layout (T = 44 card types in table order, S = 6 seat slots, L = 42 tower levels):

    hand      T          my cards per type / the most copies of any card (5 by default)
    towers    S x L x 11 per rotated seat and level (bottom first): present, height / 4,
                         strength with braces / 12, reinforcement / 3, 7 category flags
                         (MACHINE LEISURE ILLEGAL HOUSEHOLD GARDEN VEHICLE ANIMAL)
    seats     S x 4      per rotated seat: cards in hand / 15, tower height / 30, within
                         the spank window, on turn
    monkey    1          monkey height / 20
    deck      1          cards left in the deck / cards in the game
    discards  T          cards per type in the discard pile / the most copies of any card
    top       T          one-hot: the top card of the discard pile
    phase     10         one-hot decision: draw a second card, build, reinforce, attack,
                         target player, target card, defend, trampoline target, spank,
                         discard
    attack    11+S+1+5+1 the pending attack: card one-hot, target rotated seat one-hot,
                         level / 42, defense card one-hot, redirected by a Trampoline
    discard   1          discards left this turn / 2
    players   5          one-hot 2-6 players

Seats are rotated so the observer is slot 0. Other players' hands appear only as sizes;
the deck only as its size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from jungle_envs.games.spank_the_monkey.state import NO_CARD, SpankState
from jungle_envs.games.spank_the_monkey.tables import (
    ATTACK_TYPES,
    CARDS,
    CATEGORIES,
    DECISION_PHASES,
    DEFENSE_TYPES,
    MAX_DISCARDS,
    MAX_LEVELS,
    MAX_SEATS,
    NUM_TYPES,
    SPANK_REACH,
)

if TYPE_CHECKING:
    from jungle_envs.games.spank_the_monkey.game import SpankTheMonkey

LEVEL_FEATURES = 4 + len(CATEGORIES)
SEAT_FEATURES = 4
MIN_PLAYERS = 2
HAND_AT = 0
TOWERS_AT = HAND_AT + NUM_TYPES
SEATS_AT = TOWERS_AT + MAX_SEATS * MAX_LEVELS * LEVEL_FEATURES
MONKEY_AT = SEATS_AT + MAX_SEATS * SEAT_FEATURES
DECK_AT = MONKEY_AT + 1
DISCARDS_AT = DECK_AT + 1
TOP_AT = DISCARDS_AT + NUM_TYPES
PHASE_AT = TOP_AT + NUM_TYPES
ATTACK_AT = PHASE_AT + len(DECISION_PHASES)
ATTACK_SIZE = len(ATTACK_TYPES) + MAX_SEATS + 1 + len(DEFENSE_TYPES) + 1
LEFT_AT = ATTACK_AT + ATTACK_SIZE
PLAYERS_AT = LEFT_AT + 1
SIZE = PLAYERS_AT + 5

# Per junk type: the static part of a level's features.
JUNK_ROWS = {
    t: [card.height / 4.0, 0.0, 0.0, *(float(c in card.categories) for c in CATEGORIES)]
    for t, card in enumerate(CARDS)
}


def observation_size(game: SpankTheMonkey) -> int:
    return SIZE


def observe(game: SpankTheMonkey, state: SpankState, seat: int, out=None) -> np.ndarray:
    obs = np.zeros(SIZE, dtype=np.float32) if out is None else out
    if out is not None:
        obs.fill(0.0)
    n = game.num_players
    obs[HAND_AT : HAND_AT + NUM_TYPES] = state.hands[seat]
    obs[HAND_AT : HAND_AT + NUM_TYPES] /= game.max_copies
    towers = obs[TOWERS_AT:SEATS_AT].reshape(MAX_SEATS, MAX_LEVELS, LEVEL_FEATURES)
    seats = obs[SEATS_AT:MONKEY_AT].reshape(MAX_SEATS, SEAT_FEATURES)
    for other in range(n):
        slot = (other - seat) % n
        total = 0
        for level, (junk, bonus, reinforcement) in enumerate(state.towers[other]):
            row = JUNK_ROWS[junk]
            towers[slot, level, 0] = 1.0
            towers[slot, level, 1:] = row
            towers[slot, level, 2] = (CARDS[junk].strength + bonus) / 12.0
            if reinforcement != NO_CARD:
                towers[slot, level, 3] = CARDS[reinforcement].strength / 3.0
            total += CARDS[junk].height
        seats[slot] = (
            sum(state.hands[other]) / 15.0,
            total / 30.0,
            state.monkey <= total <= state.monkey + SPANK_REACH,
            other == state.player,
        )
    obs[MONKEY_AT] = state.monkey / 20.0
    obs[DECK_AT] = sum(state.deck) / sum(game.deck_counts)
    pile = np.bincount(state.discard, minlength=NUM_TYPES) if state.discard else 0
    obs[DISCARDS_AT : DISCARDS_AT + NUM_TYPES] = pile
    obs[DISCARDS_AT : DISCARDS_AT + NUM_TYPES] /= game.max_copies
    if state.discard:
        obs[TOP_AT + state.discard[-1]] = 1.0
    if state.phase in DECISION_PHASES:
        obs[PHASE_AT + DECISION_PHASES.index(state.phase)] = 1.0
    if state.attack:
        card, target, level, defense, redirected = state.attack
        obs[ATTACK_AT + ATTACK_TYPES.index(card)] = 1.0
        at = ATTACK_AT + len(ATTACK_TYPES)
        if target >= 0:
            obs[at + (target - seat) % n] = 1.0
        if level >= 0:
            obs[at + MAX_SEATS] = level / MAX_LEVELS
        if defense != NO_CARD:
            obs[at + MAX_SEATS + 1 + DEFENSE_TYPES.index(defense)] = 1.0
        obs[at + MAX_SEATS + 1 + len(DEFENSE_TYPES)] = redirected
    obs[LEFT_AT] = state.discards_left / MAX_DISCARDS
    obs[PLAYERS_AT + n - MIN_PLAYERS] = 1.0
    np.minimum(obs, 1.0, out=obs)
    return obs


@dataclass
class Level:
    height: int
    strength: int  # with braces, without reinforcement
    reinforcement: int
    categories: frozenset[str]


@dataclass
class View:
    """What a seat sees, decoded from its observation (for rule-based policies)."""

    hand: list[int]  # my cards per type
    towers: list[list[Level]]  # per rotated seat, bottom first
    hand_sizes: list[int]
    monkey: int
    deck: int  # cards left in the deck
    phase: int
    attack_card: int  # NO_CARD if no attack is pending
    attack_target: int  # rotated seat, -1 if none
    attack_level: int
    num_players: int

    def height(self, slot: int) -> int:
        return sum(level.height for level in self.towers[slot])


def decode(game: SpankTheMonkey, obs: np.ndarray) -> View:
    n = game.num_players
    towers = obs[TOWERS_AT:SEATS_AT].reshape(MAX_SEATS, MAX_LEVELS, LEVEL_FEATURES)
    decoded = []
    for slot in range(n):
        levels = []
        for row in towers[slot]:
            if row[0] < 0.5:
                break
            levels.append(Level(
                height=round(row[1] * 4), strength=round(row[2] * 12),
                reinforcement=round(row[3] * 3),
                categories=frozenset(c for c, flag in zip(CATEGORIES, row[4:], strict=True)
                                     if flag > 0.5),
            ))  # fmt: skip
        decoded.append(levels)
    seats = obs[SEATS_AT:MONKEY_AT].reshape(MAX_SEATS, SEAT_FEATURES)
    phase_hot = obs[PHASE_AT:ATTACK_AT]
    attack = obs[ATTACK_AT:LEFT_AT]
    card_hot = attack[: len(ATTACK_TYPES)]
    target_hot = attack[len(ATTACK_TYPES) : len(ATTACK_TYPES) + MAX_SEATS]
    return View(
        hand=np.rint(obs[HAND_AT : HAND_AT + NUM_TYPES] * game.max_copies).astype(int).tolist(),
        towers=decoded,
        hand_sizes=np.rint(seats[:n, 0] * 15).astype(int).tolist(),
        monkey=round(obs[MONKEY_AT] * 20),
        deck=round(obs[DECK_AT] * sum(game.deck_counts)),
        phase=DECISION_PHASES[int(phase_hot.argmax())] if phase_hot.any() else -1,
        attack_card=ATTACK_TYPES[int(card_hot.argmax())] if card_hot.any() else NO_CARD,
        attack_target=int(target_hot.argmax()) if target_hot.any() else -1,
        attack_level=round(attack[len(ATTACK_TYPES) + MAX_SEATS] * MAX_LEVELS),
        num_players=n,
    )
