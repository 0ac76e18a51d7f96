"""Spank the Monkey's reading kernels: mirrors the reading functions of rules.py
(``attack_levels``, ``attack_targets``, ``trampoline_targets``, ``defense_value``,
``attack_value``, ``legal_actions``) and ``state.can_spank``: kernels that read a state row
and never change it.
"""

from __future__ import annotations

import numpy as np

from jungle_envs.core.compiled.jit import kernel
from jungle_envs.games.spank_the_monkey.compiled.state import (
    deck_size,
    hand_at,
    height,
    level_at,
)
from jungle_envs.games.spank_the_monkey.compiled.tables import (
    ACTION_OF,
    BONUS,
    BONUS_BITS,
    CATEGORY_BITS,
    DISCARD_ROW,
    DRAW_SECOND_ACTION,
    EFFECT,
    HAND_STYLE,
    HEIGHT,
    IGNORES,
    KIND,
    KIND_ATTACK,
    KIND_DEFENSE,
    KIND_JUNK,
    KIND_REINFORCEMENT,
    KIND_SPECIAL,
    LEVEL0,
    NO_SECOND_DRAW,
    NO_SPANK,
    SEAT0,
    SPANK_ACTION,
    STRENGTH,
)
from jungle_envs.games.spank_the_monkey.rules import PASS_ACTION
from jungle_envs.games.spank_the_monkey.state import CARD as A_CARD
from jungle_envs.games.spank_the_monkey.state import DEFENSE as A_DEFENSE
from jungle_envs.games.spank_the_monkey.state import LEVEL as A_LEVEL
from jungle_envs.games.spank_the_monkey.state import TARGET as A_TARGET
from jungle_envs.games.spank_the_monkey.tables import (
    ATTACK_CHOICE,
    ATTACK_LEVEL,
    ATTACK_PLAYER,
    BUILD_JUNK,
    BUILD_REINFORCE,
    DEFEND,
    DISCARD,
    DRAW_SECOND,
    GAME_OVER,
    MAX_LEVELS,
    NUM_TYPES,
    SPANK,
    SPANK_REACH,
    TRAMPOLINE,
    TRAMPOLINE_TARGET,
)

# "Do nothing" per phase, -1 where there is none.
PASS = np.full(GAME_OVER + 1, -1, dtype=np.int64)
for _phase, _action in PASS_ACTION.items():
    PASS[_phase] = _action
CARD_PHASES = (DEFEND, BUILD_JUNK, BUILD_REINFORCE, ATTACK_CHOICE, DISCARD)  # a card or pass


# --- reach: spanks, attacks, trampolines --------------------------------------------------
@kernel
def can_spank(cfg, s, seat):
    h, monkey = height(cfg, s, seat), s[cfg.monkey]
    return monkey <= h <= monkey + SPANK_REACH


@kernel
def reaches(cfg, s, card, mine, target, level):
    """Whether ``card`` may hit ``level`` of ``target``'s tower from height ``mine``: a hand
    attack reaches only a card spanning that height (base <= mine <= base + height)."""
    if EFFECT[card] != HAND_STYLE:
        return True
    base = 0
    for below in range(level):
        base += HEIGHT[s[level_at(cfg, target, below)]]
    top = base + HEIGHT[s[level_at(cfg, target, level)]]
    return base <= mine <= top


@kernel
def can_attack(cfg, s, card, attacker, target):
    if target == attacker:
        return False
    mine = height(cfg, s, attacker)
    for level in range(s[cfg.tower_len + target]):
        if reaches(cfg, s, card, mine, target, level):
            return True
    return False


@kernel
def any_target(cfg, s, card, attacker):
    for target in range(cfg.num_players):
        if can_attack(cfg, s, card, attacker, target):
            return True
    return False


@kernel
def can_trampoline(cfg, s, defender):
    for seat in range(cfg.num_players):
        if seat != defender and s[cfg.tower_len + seat] > 0:
            return True
    return False


@kernel
def usable_defense(cfg, s, defender, card):
    if s[hand_at(cfg, defender) + card] == 0:
        return False
    return card != TRAMPOLINE or can_trampoline(cfg, s, defender)


# --- what may be played ---------------------------------------------------------------------
@kernel
def open_top(cfg, s, seat):
    levels = s[cfg.tower_len + seat]
    return levels > 0 and s[level_at(cfg, seat, levels - 1) + 2] < 0


@kernel(inline=True)
def offered(cfg, s, phase, card):
    """Whether the deciding seat may play (or discard) ``card`` in one of ``CARD_PHASES``."""
    kind = KIND[card]
    if phase == DEFEND:
        return kind == KIND_DEFENSE and usable_defense(cfg, s, s[cfg.attack + A_TARGET], card)
    player = s[cfg.player]
    if s[hand_at(cfg, player) + card] == 0:
        return False
    if phase == BUILD_JUNK:
        return kind == KIND_JUNK and s[cfg.tower_len + player] < MAX_LEVELS
    if phase == BUILD_REINFORCE:
        return kind == KIND_REINFORCEMENT and open_top(cfg, s, player)
    if phase == ATTACK_CHOICE:
        return kind == KIND_SPECIAL or (kind == KIND_ATTACK and any_target(cfg, s, card, player))
    return s[cfg.discards_left] > 0


@kernel
def legal_mask(cfg, s, mask):
    mask[:] = 0
    phase, player, n = s[cfg.phase], s[cfg.player], cfg.num_players
    if phase in CARD_PHASES:
        row = DISCARD_ROW if phase == DISCARD else -1
        for card in range(NUM_TYPES):
            if offered(cfg, s, phase, card):
                mask[ACTION_OF[KIND[card] if row < 0 else row, card]] = 1
        mask[PASS[phase]] = 1
    elif phase == TRAMPOLINE_TARGET:
        defender = s[cfg.attack + A_TARGET]
        for seat in range(n):
            if seat != defender and s[cfg.tower_len + seat] > 0:
                mask[SEAT0 + (seat - defender) % n - 1] = 1
    elif phase == DRAW_SECOND:  # not offered once the deck is empty
        mask[DRAW_SECOND_ACTION] = deck_size(cfg, s) > 0
        mask[NO_SECOND_DRAW] = 1
    elif phase == ATTACK_PLAYER:
        for seat in range(n):
            if can_attack(cfg, s, s[cfg.attack + A_CARD], player, seat):
                mask[SEAT0 + (seat - player) % n - 1] = 1
    elif phase == ATTACK_LEVEL:
        card, target = s[cfg.attack + A_CARD], s[cfg.attack + A_TARGET]
        mine = height(cfg, s, player)
        for level in range(s[cfg.tower_len + target]):
            if reaches(cfg, s, card, mine, target, level):
                mask[LEVEL0 + level] = 1
    elif phase == SPANK:
        mask[SPANK_ACTION] = can_spank(cfg, s, player)
        mask[NO_SPANK] = 1


@kernel
def has_choice(cfg, s, phase):
    """Whether ``phase`` offers more than its "do nothing" action (``rules.enter``)."""
    if phase == DRAW_SECOND:
        return deck_size(cfg, s) > 0
    if phase == SPANK:
        return can_spank(cfg, s, s[cfg.player])
    for card in range(NUM_TYPES):
        if offered(cfg, s, phase, card):
            return True
    return False


# --- an attack's values --------------------------------------------------------------------
@kernel
def attack_value(cfg, s, die):
    card, target, level = s[cfg.attack + A_CARD], s[cfg.attack + A_TARGET], s[cfg.attack + A_LEVEL]
    value = STRENGTH[card] + die
    if BONUS_BITS[card] & CATEGORY_BITS[s[level_at(cfg, target, level)]]:
        value += BONUS[card]
    return value


@kernel
def defense_value(cfg, s):
    card, target, level = s[cfg.attack + A_CARD], s[cfg.attack + A_TARGET], s[cfg.attack + A_LEVEL]
    at = level_at(cfg, target, level)
    value = STRENGTH[s[at]] + s[at + 1]
    if s[at + 2] >= 0 and not IGNORES[card]:
        value += STRENGTH[s[at + 2]]
    defense = s[cfg.attack + A_DEFENSE]
    if defense >= 0:
        value += STRENGTH[defense]
    return value
