"""Mirrors rules.py: the state machine as kernels over a state row (``compiled/state.py``).

The same steps, in the same order, as ``rules.py``; the differential tests drive both with
the same chance outcomes and decisions and compare every state. What only reads the row
(legal actions, reach, an attack's values) is in ``compiled/reading.py``. The reference's
``enter`` calls itself and reaches ``continue_draws`` (which calls ``enter``); numba cannot
load such cycles from its cache, so ``enter`` is a loop and a turn's draws start through
``begin_draws``, which never enters a phase: it always has a seat to serve.
"""

from __future__ import annotations

import numpy as np

from jungle_envs.core.compiled.contract import CHANCE, TERMINAL
from jungle_envs.core.compiled.jit import kernel
from jungle_envs.core.compiled.rng import draw_from_counts
from jungle_envs.games.spank_the_monkey.compiled.reading import (
    PASS,
    attack_value,
    defense_value,
    has_choice,
)
from jungle_envs.games.spank_the_monkey.compiled.state import (
    deck_size,
    hand_at,
    hand_size,
    height,
    level_at,
)
from jungle_envs.games.spank_the_monkey.compiled.tables import (
    BANANA_PEEL,
    BRACE,
    CARD_OF,
    DRAW_EFFECT,
    EARTHQUAKE,
    EFFECT,
    GORILLA,
    HIT,
    INSPECTION,
    KIND,
    KIND_ATTACK,
    LEVEL0,
    SALVAGE,
    SCRAP_DEALER,
    SEAT0,
    SHAKE,
    TOPPLES,
)
from jungle_envs.games.spank_the_monkey.rules import NEXT_PHASE
from jungle_envs.games.spank_the_monkey.state import CARD as A_CARD
from jungle_envs.games.spank_the_monkey.state import DEFENSE as A_DEFENSE
from jungle_envs.games.spank_the_monkey.state import LEVEL as A_LEVEL
from jungle_envs.games.spank_the_monkey.state import REDIRECTED as A_REDIRECTED
from jungle_envs.games.spank_the_monkey.state import TARGET as A_TARGET
from jungle_envs.games.spank_the_monkey.tables import (
    ATTACK_CHOICE,
    ATTACK_LEVEL,
    ATTACK_PLAYER,
    ATTACK_ROLL,
    BUILD_JUNK,
    BUILD_REINFORCE,
    COLLAPSE_ROLL,
    DEFEND,
    DISCARD,
    DRAW,
    DRAW_SECOND,
    DRAW_TWO_AT_OR_BELOW,
    GAME_OVER,
    GUARD_DOG,
    HAND_SIZE,
    INSPECT,
    MAX_DISCARDS,
    NUM_TYPES,
    PICK_START,
    QUAKE_ROLL,
    SPANK,
    SPANK_ROLL,
    TRAMPOLINE,
    TRAMPOLINE_TARGET,
)

# "Do nothing" per phase leads to the next, -1 where there is none.
NEXT = np.full(GAME_OVER + 1, -1, dtype=np.int64)
for _phase, _next in NEXT_PHASE.items():
    NEXT[_phase] = _next


# --- the state machine ------------------------------------------------------------------------
@kernel
def init_state(cfg, s):
    s[:] = 0
    s[cfg.phase], s[cfg.player], s[cfg.winner] = DRAW, -1, -1
    s[cfg.monkey], s[cfg.after_draws] = cfg.monkey_start, PICK_START
    for t in range(NUM_TYPES):
        s[cfg.deck + t] = cfg.deck_counts[t]
    for k in range(HAND_SIZE * cfg.num_players):
        s[cfg.draws + k] = k % cfg.num_players
    s[cfg.draws_len] = HAND_SIZE * cfg.num_players  # the deck holds more than the deal


@kernel
def current_player(cfg, s):
    phase = s[cfg.phase]
    if phase in (DEFEND, TRAMPOLINE_TARGET):
        return s[cfg.attack + A_TARGET]
    if phase == GAME_OVER:
        return TERMINAL
    return s[cfg.player] if phase >= DRAW_SECOND else CHANCE


@kernel
def enter(cfg, s, phase):
    """Go to ``phase``, passing on at once while there is nothing to choose there."""
    while True:
        s[cfg.phase] = phase
        if phase in (PICK_START, GAME_OVER) or has_choice(cfg, s, phase):
            return
        if phase == DISCARD:
            s[cfg.player] = (s[cfg.player] + 1) % cfg.num_players
            start_turn(cfg, s)
            return
        if phase == DEFEND:
            s[cfg.phase] = ATTACK_ROLL
            return
        phase = NEXT[phase]


@kernel
def begin_draws(cfg, s, seat, count, after):
    """``count`` draws for ``seat``, then ``after`` (``rules.start_draws`` with a seat to
    serve, so no phase is entered here)."""
    for k in range(count):
        s[cfg.draws + k] = seat
    s[cfg.draws_len], s[cfg.after_draws] = count, after
    if deck_size(cfg, s) == 0:  # the deck cannot feed a draw: the monkey wins
        s[cfg.draws_len], s[cfg.phase], s[cfg.winner] = 0, GAME_OVER, -1
    else:
        s[cfg.phase] = DRAW


@kernel
def start_turn(cfg, s):
    s[cfg.turns] += 1
    s[cfg.discards_left] = MAX_DISCARDS
    player = s[cfg.player]
    small = hand_size(cfg, s, player) <= DRAW_TWO_AT_OR_BELOW
    begin_draws(cfg, s, player, 1, DRAW_SECOND if small else BUILD_JUNK)


@kernel
def pop_front(s, at, length_at):
    """Remove and return the first entry of the list at ``at``."""
    first, length = s[at], s[length_at] - 1
    for i in range(length):
        s[at + i] = s[at + i + 1]
    s[length_at] = length
    return first


@kernel(inline=True)
def to_discard(cfg, s, card):
    s[cfg.discard + s[cfg.discard_len]] = card
    s[cfg.discard_len] += 1


@kernel
def sample_chance(cfg, s, u):
    phase = s[cfg.phase]
    if phase == DRAW:
        return draw_from_counts(s[cfg.deck : cfg.deck + NUM_TYPES], u)
    if phase == INSPECT:
        hand = hand_at(cfg, s[cfg.queue])
        return draw_from_counts(s[hand : hand + NUM_TYPES], u)
    if phase == PICK_START:
        return int(u * cfg.num_players)
    return 1 + int(u * 6)  # a die roll


@kernel
def apply_chance(cfg, s, outcome):
    phase = s[cfg.phase]
    if phase == DRAW:
        s[cfg.deck + outcome] -= 1
        seat = pop_front(s, cfg.draws, cfg.draws_len)
        s[hand_at(cfg, seat) + outcome] += 1
        if s[cfg.draws_len] == 0:
            enter(cfg, s, s[cfg.after_draws])
        elif deck_size(cfg, s) == 0:
            s[cfg.draws_len], s[cfg.phase], s[cfg.winner] = 0, GAME_OVER, -1
    elif phase == PICK_START:
        s[cfg.player] = outcome
        start_turn(cfg, s)
    elif phase == ATTACK_ROLL:
        resolve_attack(cfg, s, outcome)
    elif phase == COLLAPSE_ROLL:
        target, level = s[cfg.attack + A_TARGET], s[cfg.attack + A_LEVEL]
        if outcome == 6:
            fall(cfg, s, target, level, s[cfg.tower_len + target])
        elif outcome >= 4:
            fall(cfg, s, target, level, 1)
        s[cfg.attack_len] = 0
        enter(cfg, s, ATTACK_CHOICE)
    elif phase == QUAKE_ROLL:
        seat = pop_front(s, cfg.queue, cfg.queue_len)
        if outcome <= 2:
            fall(cfg, s, seat, s[cfg.tower_len + seat] - 1, 1)
        if s[cfg.queue_len] == 0:
            enter(cfg, s, ATTACK_CHOICE)
    elif phase == INSPECT:
        seat = pop_front(s, cfg.queue, cfg.queue_len)
        s[hand_at(cfg, seat) + outcome] -= 1
        to_discard(cfg, s, outcome)
        if s[cfg.queue_len] == 0:
            enter(cfg, s, ATTACK_CHOICE)
    else:  # SPANK_ROLL
        player = s[cfg.player]
        if outcome >= HIT[height(cfg, s, player) - s[cfg.monkey]]:
            s[cfg.winner], s[cfg.phase] = player, GAME_OVER
        else:
            enter(cfg, s, DISCARD)


@kernel
def fall(cfg, s, seat, level, count):
    """``count`` junk cards from ``level`` up go to the discard pile, each followed by its
    reinforcement; the cards above slide down."""
    length = s[cfg.tower_len + seat]
    if level < 0:  # only an empty tower has no top card: nothing falls
        return
    stop = min(length, level + count)
    if stop <= level:
        return
    for k in range(level, stop):
        at = level_at(cfg, seat, k)
        to_discard(cfg, s, s[at])
        if s[at + 2] >= 0:
            to_discard(cfg, s, s[at + 2])
    gone = stop - level
    for k in range(stop, length):
        for f in range(3):
            s[level_at(cfg, seat, k - gone) + f] = s[level_at(cfg, seat, k) + f]
    s[cfg.tower_len + seat] = length - gone


@kernel
def resolve_attack(cfg, s, die):
    card, target, level = s[cfg.attack + A_CARD], s[cfg.attack + A_TARGET], s[cfg.attack + A_LEVEL]
    if attack_value(cfg, s, die) >= defense_value(cfg, s):
        fall(cfg, s, target, level, 1)
        if TOPPLES[card]:
            fall(cfg, s, target, level, s[cfg.tower_len + target])
        if level < s[cfg.tower_len + target]:
            s[cfg.phase] = COLLAPSE_ROLL  # the owner rolls for the cards above
            return
    s[cfg.attack_len] = 0
    enter(cfg, s, ATTACK_CHOICE)


@kernel
def apply_action(cfg, s, action):
    phase, player, n = s[cfg.phase], s[cfg.player], cfg.num_players
    if phase == ATTACK_PLAYER:
        s[cfg.attack + A_TARGET] = (player + action - SEAT0 + 1) % n
        s[cfg.phase] = ATTACK_LEVEL
    elif phase == ATTACK_LEVEL:
        s[cfg.attack + A_LEVEL] = action - LEVEL0
        enter(cfg, s, DEFEND)
    elif phase == TRAMPOLINE_TARGET:
        target = (s[cfg.attack + A_TARGET] + action - SEAT0 + 1) % n
        s[cfg.attack + A_TARGET] = target
        s[cfg.attack + A_LEVEL] = min(s[cfg.attack + A_LEVEL], s[cfg.tower_len + target] - 1)
        s[cfg.attack + A_REDIRECTED] = 1  # the new owner may not defend
        s[cfg.phase] = ATTACK_ROLL
    elif action == PASS[phase]:
        if phase == DEFEND:
            s[cfg.phase] = ATTACK_ROLL
        elif phase == DISCARD:
            s[cfg.player] = (player + 1) % n
            start_turn(cfg, s)
        else:
            enter(cfg, s, NEXT[phase])
    elif phase == SPANK:
        s[cfg.phase] = SPANK_ROLL
    elif phase == DRAW_SECOND:
        begin_draws(cfg, s, player, 1, BUILD_JUNK)
    else:
        play_card(cfg, s, CARD_OF[action])


@kernel
def play_card(cfg, s, card):
    """A card leaves a hand: built, placed, played against someone, or discarded."""
    phase, player = s[cfg.phase], s[cfg.player]
    owner = s[cfg.attack + A_TARGET] if phase == DEFEND else player
    s[hand_at(cfg, owner) + card] -= 1
    levels = s[cfg.tower_len + player]
    if phase == BUILD_JUNK:
        at = level_at(cfg, player, levels)
        s[at], s[at + 1], s[at + 2] = card, 0, -1
        s[cfg.tower_len + player] = levels + 1
        junk_effect(cfg, s, EFFECT[card])
    elif phase == BUILD_REINFORCE:
        s[level_at(cfg, player, levels - 1) + 2] = card
        enter(cfg, s, ATTACK_CHOICE)
    elif phase == DEFEND:
        to_discard(cfg, s, card)
        s[cfg.attack + A_DEFENSE] = card
        if card == GUARD_DOG:  # the attack is cancelled: no roll
            s[cfg.attack_len] = 0
            enter(cfg, s, ATTACK_CHOICE)
        else:
            s[cfg.phase] = TRAMPOLINE_TARGET if card == TRAMPOLINE else ATTACK_ROLL
    elif phase == DISCARD:
        to_discard(cfg, s, card)
        s[cfg.discards_left] -= 1
        enter(cfg, s, DISCARD)
    elif KIND[card] == KIND_ATTACK:
        to_discard(cfg, s, card)
        at = cfg.attack
        s[at], s[at + 1], s[at + 2], s[at + 3], s[at + 4] = card, -1, -1, -1, 0
        s[cfg.attack_len] = 5
        s[cfg.phase] = ATTACK_PLAYER
    else:
        to_discard(cfg, s, card)
        special_effect(cfg, s, EFFECT[card])


@kernel
def junk_effect(cfg, s, effect):
    player = s[cfg.player]
    if effect == DRAW_EFFECT:
        begin_draws(cfg, s, player, 1, BUILD_REINFORCE)
        return
    levels = s[cfg.tower_len + player]
    if effect == SALVAGE and s[cfg.discard_len]:
        s[cfg.discard_len] -= 1
        s[hand_at(cfg, player) + s[cfg.discard + s[cfg.discard_len]]] += 1
    elif effect == BRACE and levels > 1:
        s[level_at(cfg, player, levels - 2) + 1] += 1
    elif effect == SHAKE:
        s[cfg.monkey] += 1
    enter(cfg, s, BUILD_REINFORCE)


@kernel
def special_effect(cfg, s, effect):
    n, player = cfg.num_players, s[cfg.player]
    if effect == SCRAP_DEALER:
        begin_draws(cfg, s, player, 2, ATTACK_CHOICE)
        return
    queued = 0
    if effect in (EARTHQUAKE, INSPECTION):
        for k in range(n):
            seat = (player + k) % n
            if effect == EARTHQUAKE:
                joins = s[cfg.tower_len + seat] > 0
            else:
                joins = k > 0 and hand_size(cfg, s, seat) > 0
            if joins:
                s[cfg.queue + queued] = seat
                queued += 1
        s[cfg.queue_len] = queued
    elif effect == GORILLA:
        s[cfg.monkey] += 2
    elif effect == BANANA_PEEL:
        s[cfg.monkey] = max(cfg.monkey_floor, s[cfg.monkey] - 1)
    if queued:
        s[cfg.phase] = QUAKE_ROLL if effect == EARTHQUAKE else INSPECT
    else:
        enter(cfg, s, ATTACK_CHOICE)


# --- results ----------------------------------------------------------------------------------
@kernel
def scores(cfg, s, out):
    for seat in range(cfg.num_players):
        out[seat] = height(cfg, s, seat)


@kernel
def returns(cfg, s, out):
    out[:] = 0.0
    winner = s[cfg.winner]
    if s[cfg.phase] == GAME_OVER and winner >= 0:
        out[:] = -1.0
        out[winner] = 1.0
