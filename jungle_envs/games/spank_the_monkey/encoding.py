"""Spank the Monkey observation: a flat float32 vector in [0, 1] from one seat's view.

Its layout is ``config.LAYOUT`` (T = 44 card types in table order, S = 6 seat slots, L = 42
tower levels; docs/rules/spank_the_monkey.md shows it), which the game's ``Config`` carries
as ``layout``: all offsets below come from it. Seats are rotated so the observer is slot 0.
Other players' hands appear only as sizes; the deck only as its size.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from jungle_envs.games.spank_the_monkey.config import (
    LEVEL_FEATURES,
    MIN_PLAYERS,
    SEAT_FEATURES,
    Config,
)
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

# Per junk type: the static part of a level's features.
JUNK_ROWS = {
    t: [card.height / 4.0, 0.0, 0.0, *(float(c in card.categories) for c in CATEGORIES)]
    for t, card in enumerate(CARDS)
}


def observe(config: Config, state: SpankState, seat: int, out=None) -> np.ndarray:
    layout = config.layout
    obs = np.zeros(layout.size, dtype=np.float32) if out is None else out
    if out is not None:
        obs.fill(0.0)
    n = config.num_players
    hand = layout["hand"]
    obs[hand] = state.hands[seat]
    obs[hand] /= config.max_copies
    towers = obs[layout["towers"]].reshape(MAX_SEATS, MAX_LEVELS, LEVEL_FEATURES)
    seats = obs[layout["seats"]].reshape(MAX_SEATS, SEAT_FEATURES)
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
    obs[layout.offset("monkey")] = state.monkey / 20.0
    obs[layout.offset("deck")] = sum(state.deck) / sum(config.deck_counts)
    pile = np.bincount(state.discard, minlength=NUM_TYPES) if state.discard else 0
    discards = layout["discards"]
    obs[discards] = pile
    obs[discards] /= config.max_copies
    if state.discard:
        obs[layout.offset("top") + state.discard[-1]] = 1.0
    if state.phase in DECISION_PHASES:
        obs[layout.offset("phase") + DECISION_PHASES.index(state.phase)] = 1.0
    if state.attack:
        card, target, level, defense, redirected = state.attack
        obs[layout.offset("attack_card") + ATTACK_TYPES.index(card)] = 1.0
        if target >= 0:
            obs[layout.offset("attack_target") + (target - seat) % n] = 1.0
        if level >= 0:
            obs[layout.offset("attack_level")] = level / MAX_LEVELS
        if defense != NO_CARD:
            obs[layout.offset("attack_defense") + DEFENSE_TYPES.index(defense)] = 1.0
        obs[layout.offset("attack_redirected")] = redirected
    obs[layout.offset("discards_left")] = state.discards_left / MAX_DISCARDS
    obs[layout.offset("players") + n - MIN_PLAYERS] = 1.0
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


def decode(config: Config, obs: np.ndarray) -> View:
    """What ``obs`` shows; ``config`` may also be the Game (``encoding.decode(game, obs)``)."""
    config = getattr(config, "config", config)
    n = config.num_players
    parts = config.layout.split(obs)
    decoded = []
    for slot in range(n):
        levels = []
        for row in parts["towers"][slot]:
            if row[0] < 0.5:
                break
            levels.append(Level(
                height=round(row[1] * 4), strength=round(row[2] * 12),
                reinforcement=round(row[3] * 3),
                categories=frozenset(c for c, flag in zip(CATEGORIES, row[4:], strict=True)
                                     if flag > 0.5),
            ))  # fmt: skip
        decoded.append(levels)
    seats = parts["seats"]
    phase_hot, card_hot, target_hot = parts["phase"], parts["attack_card"], parts["attack_target"]
    return View(
        hand=np.rint(parts["hand"] * config.max_copies).astype(int).tolist(),
        towers=decoded,
        hand_sizes=np.rint(seats[:n, 0] * 15).astype(int).tolist(),
        monkey=round(parts["monkey"][0] * 20),
        deck=round(parts["deck"][0] * sum(config.deck_counts)),
        phase=DECISION_PHASES[int(phase_hot.argmax())] if phase_hot.any() else -1,
        attack_card=ATTACK_TYPES[int(card_hot.argmax())] if card_hot.any() else NO_CARD,
        attack_target=int(target_hot.argmax()) if target_hot.any() else -1,
        attack_level=round(parts["attack_level"][0] * MAX_LEVELS),
        num_players=n,
    )
