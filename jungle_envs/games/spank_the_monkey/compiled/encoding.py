"""Mirrors encoding.py: ``observe`` as a kernel over a state row.

``observe`` writes exactly the vector of ``encoding.observe`` (same layout, its offsets in
the config as ``obs_<piece>``, same float32 values): every value is computed in float64
as the reference computes it and rounded once when stored, which equals the reference's
float32 divisions of whole numbers; the final clamp to 1 is taken before storing, where
it gives the same float32. The buffer is zeroed once and only non-zero entries are written.
"""

from __future__ import annotations

import numpy as np

from jungle_envs.core.compiled import contract
from jungle_envs.core.compiled.jit import kernel
from jungle_envs.games.spank_the_monkey.compiled.reading import reaches
from jungle_envs.games.spank_the_monkey.compiled.state import (
    OBS_ATTACK_CARD,
    OBS_ATTACK_DEFENSE,
    OBS_ATTACK_LEVEL,
    OBS_ATTACK_REDIRECTED,
    OBS_ATTACK_TARGET,
    OBS_DECK,
    OBS_DISCARDS,
    OBS_DISCARDS_LEFT,
    OBS_HAND,
    OBS_MONKEY,
    OBS_MOVES,
    OBS_PHASE,
    OBS_PLAYERS,
    OBS_SEATS,
    OBS_TOP,
    OBS_TOWERS,
    deck_size,
    hand_at,
    hand_size,
    height,
    level_at,
)
from jungle_envs.games.spank_the_monkey.compiled.tables import (
    BANANA_PEEL,
    BONUS,
    BONUS_BITS,
    CARD_OF,
    CATEGORY_BITS,
    EFFECT,
    GORILLA,
    HEIGHT,
    HIT,
    IGNORES,
    KIND,
    SEAT0,
    SHAKE,
    STRENGTH,
    TOPPLES,
)
from jungle_envs.games.spank_the_monkey.config import (
    AFTER_AT,
    ATTACK_AT,
    CARD_KIND_AT,
    LEVEL_FEATURES,
    MIN_PLAYERS,
    MOVE_ATTACK,
    MOVE_BUILD,
    MOVE_DEFEND,
    MOVE_FEATURES,
    MOVE_KIND_AT,
    MOVE_LEVEL,
    MOVE_PASS,
    MOVE_SEAT,
    MOVE_SPECIAL,
    SEAT_FEATURES,
)
from jungle_envs.games.spank_the_monkey.encoding import KIND_OF_ACTION, P_ALL_ABOVE, P_ONE_MORE
from jungle_envs.games.spank_the_monkey.state import CARD as A_CARD
from jungle_envs.games.spank_the_monkey.state import DEFENSE as A_DEFENSE
from jungle_envs.games.spank_the_monkey.state import LEVEL as A_LEVEL
from jungle_envs.games.spank_the_monkey.state import REDIRECTED as A_REDIRECTED
from jungle_envs.games.spank_the_monkey.state import TARGET as A_TARGET
from jungle_envs.games.spank_the_monkey.tables import (
    ACTIONS,
    ATTACK_PLAYER,
    ATTACK_TYPES,
    CATEGORIES,
    DECISION_PHASES,
    DEFEND,
    DEFENSE_TYPES,
    GUARD_DOG,
    MAX_DISCARDS,
    MAX_LEVELS,
    NUM_TYPES,
    SPANK_REACH,
    TRAMPOLINE,
    TRAMPOLINE_TARGET,
)

NUM_CATEGORIES = len(CATEGORIES)
FIRST_DECISION, LAST_DECISION = DECISION_PHASES[0], DECISION_PHASES[-1]
FIRST_ATTACK, FIRST_DEFENSE = ATTACK_TYPES[0], DEFENSE_TYPES[0]
if tuple(range(FIRST_DECISION, LAST_DECISION + 1)) != DECISION_PHASES:
    raise ImportError("the twin reads the decision phases as one contiguous block")
if tuple(range(FIRST_ATTACK, FIRST_ATTACK + len(ATTACK_TYPES))) != ATTACK_TYPES or (
    tuple(range(FIRST_DEFENSE, FIRST_DEFENSE + len(DEFENSE_TYPES))) != DEFENSE_TYPES
):
    raise ImportError("the twin reads attack and defense cards as contiguous blocks")
MOVE_KIND = np.array(
    [KIND_OF_ACTION.get(a, MOVE_PASS) for a in range(len(ACTIONS.names))], dtype=np.int64
)
LEVEL0 = ACTIONS.level[0]
NUM_ACTIONS = len(ACTIONS.names)


@kernel(inline=True)
def put(obs, at, value):
    """Store a non-negative value clamped to 1, as the reference's final ``np.minimum``."""
    obs[at] = min(value, 1.0)


@kernel
def observe_board(cfg, s, seat, obs):
    """``observe`` without the ``moves`` piece: the observation of a config without
    move features."""
    obs[:] = 0.0
    n, monkey = cfg.num_players, s[cfg.monkey]
    hand = hand_at(cfg, seat)
    for t in range(NUM_TYPES):
        if s[hand + t]:
            put(obs, OBS_HAND + t, s[hand + t] / cfg.max_copies)
    for other in range(n):
        slot = (other - seat) % n
        total = 0
        for level in range(s[cfg.tower_len + other]):
            at = level_at(cfg, other, level)
            junk, bonus, reinforcement = s[at], s[at + 1], s[at + 2]
            row = OBS_TOWERS + (slot * MAX_LEVELS + level) * LEVEL_FEATURES
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
        row = OBS_SEATS + slot * SEAT_FEATURES
        put(obs, row, hand_size(cfg, s, other) / 15.0)
        put(obs, row + 1, total / 30.0)
        obs[row + 2] = monkey <= total <= monkey + SPANK_REACH
        obs[row + 3] = other == s[cfg.player]
    put(obs, OBS_MONKEY, monkey / 20.0)
    obs[OBS_DECK] = deck_size(cfg, s) / cfg.total_cards
    discards = OBS_DISCARDS
    for k in range(s[cfg.discard_len]):
        obs[discards + s[cfg.discard + k]] += 1.0  # whole numbers: exact in float32
    for t in range(NUM_TYPES):
        if obs[discards + t]:
            put(obs, discards + t, obs[discards + t] / cfg.max_copies)
    if s[cfg.discard_len]:
        obs[OBS_TOP + s[cfg.discard + s[cfg.discard_len] - 1]] = 1.0
    phase = s[cfg.phase]
    if FIRST_DECISION <= phase <= LAST_DECISION:
        obs[OBS_PHASE + phase - FIRST_DECISION] = 1.0
    if s[cfg.attack_len]:
        attack = cfg.attack
        obs[OBS_ATTACK_CARD + s[attack + A_CARD] - FIRST_ATTACK] = 1.0
        target, level = s[attack + A_TARGET], s[attack + A_LEVEL]
        if target >= 0:
            obs[OBS_ATTACK_TARGET + (target - seat) % n] = 1.0
        if level >= 0:
            obs[OBS_ATTACK_LEVEL] = level / MAX_LEVELS
        defense = s[attack + A_DEFENSE]
        if defense >= 0:
            obs[OBS_ATTACK_DEFENSE + defense - FIRST_DEFENSE] = 1.0
        obs[OBS_ATTACK_REDIRECTED] = s[attack + A_REDIRECTED]
    obs[OBS_DISCARDS_LEFT] = s[cfg.discards_left] / MAX_DISCARDS
    obs[OBS_PLAYERS + n - MIN_PLAYERS] = 1.0


@kernel
def observe(cfg, s, seat, obs):
    """The observation with the ``moves`` piece (the move-features config's ``observe``)."""
    observe_board(cfg, s, seat, obs)
    if deciding(cfg, s) == seat:
        write_move_features(cfg, s, seat, obs)


@kernel(inline=True)
def deciding(cfg, s):
    """The seat deciding now (the defender while an attack is defended), -1 if none."""
    phase = s[cfg.phase]
    if phase in (DEFEND, TRAMPOLINE_TARGET):
        return s[cfg.attack + A_TARGET]
    return s[cfg.player] if FIRST_DECISION <= phase <= LAST_DECISION else -1


# --- what each action would do (``encoding.write_move_features``) ----------------------------
@kernel
def success_chance(cfg, s, card, target, level, defense):
    """``encoding.success_chance``: the chance ``card`` topples ``level`` of ``target``."""
    at = level_at(cfg, target, level)
    junk, reinforcement = s[at], s[at + 2]
    value = STRENGTH[card]
    if BONUS_BITS[card] & CATEGORY_BITS[junk]:
        value += BONUS[card]
    guard = STRENGTH[junk] + s[at + 1] + defense
    if reinforcement >= 0 and not IGNORES[card]:
        guard += STRENGTH[reinforcement]
    return min(1.0, max(0.0, (7 - max(guard - value, 1)) / 6))


@kernel
def expected_fall(cfg, s, card, target, level):
    """``encoding.expected_fall``: the height lost, the collapse roll averaged."""
    own, first, above = HEIGHT[s[level_at(cfg, target, level)]], 0, 0
    for upper in range(level + 1, s[cfg.tower_len + target]):
        h = HEIGHT[s[level_at(cfg, target, upper)]]
        above += h
        if upper == level + 1:
            first = h
    if TOPPLES[card]:
        return float(own + above)
    return own + (P_ONE_MORE * first + P_ALL_ABOVE * above)


@kernel
def best_level(cfg, s, card, attacker, target):
    """``encoding.best_level`` as (chance, fall); chance -1 where ``card`` reaches none."""
    best_chance, best_fall = -1.0, 0.0
    mine = height(cfg, s, attacker)
    for level in range(s[cfg.tower_len + target]):
        if reaches(cfg, s, card, mine, target, level):
            chance = success_chance(cfg, s, card, target, level, 0)
            fall = expected_fall(cfg, s, card, target, level)
            if best_chance < 0 or chance * fall > best_chance * best_fall:
                best_chance, best_fall = chance, fall
    return best_chance, best_fall


@kernel
def attack_features(cfg, s, seat, kind, action, card):
    """``encoding.attack_features`` as (chance, fall, target); target -1 for none."""
    n = cfg.num_players
    if kind == MOVE_ATTACK:
        best_chance, best_fall, best_target = -1.0, 0.0, -1
        for offset in range(1, n):
            target = (seat + offset) % n
            chance, fall = best_level(cfg, s, card, seat, target)
            if chance >= 0 and (best_target < 0 or chance * fall > best_chance * best_fall):
                best_chance, best_fall, best_target = chance, fall, target
        return best_chance, best_fall, best_target
    if s[cfg.attack_len] == 0:
        return 0.0, 0.0, -1
    pending = s[cfg.attack + A_CARD]
    target, level = s[cfg.attack + A_TARGET], s[cfg.attack + A_LEVEL]
    phase = s[cfg.phase]
    if kind == MOVE_SEAT:
        aimed = (seat + action - SEAT0 + 1) % n
        if phase == ATTACK_PLAYER:
            chance, fall = best_level(cfg, s, pending, seat, aimed)
            return (chance, fall, aimed) if chance >= 0 else (0.0, 0.0, -1)
        if phase == TRAMPOLINE_TARGET:
            hit = min(level, s[cfg.tower_len + aimed] - 1)
            chance = success_chance(cfg, s, pending, aimed, hit, 0)
            return chance, expected_fall(cfg, s, pending, aimed, hit), aimed
        return 0.0, 0.0, -1
    if kind == MOVE_LEVEL:
        aimed = action - LEVEL0
        chance = success_chance(cfg, s, pending, target, aimed, 0)
        return chance, expected_fall(cfg, s, pending, target, aimed), target
    if phase == DEFEND and (kind in (MOVE_DEFEND, MOVE_PASS)):
        fall = expected_fall(cfg, s, pending, target, level)
        if card in (GUARD_DOG, TRAMPOLINE):
            return 0.0, fall, target
        defense = STRENGTH[card] if card >= 0 else 0
        return success_chance(cfg, s, pending, target, level, defense), fall, target
    return 0.0, 0.0, -1


@kernel
def write_move_features(cfg, s, seat, obs):
    """``encoding.write_move_features``: the ``moves`` piece for the seat deciding now."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    contract.legal_mask(cfg, s, mask)
    monkey = s[cfg.monkey]
    mine = height(cfg, s, seat)
    for action in range(NUM_ACTIONS):
        if not mask[action]:
            continue
        at = OBS_MOVES + action * MOVE_FEATURES
        kind, card = MOVE_KIND[action], CARD_OF[action]
        obs[at] = 1.0
        obs[at + MOVE_KIND_AT + kind] = 1.0
        height_after, monkey_after = mine, monkey
        if card >= 0:
            obs[at + CARD_KIND_AT + KIND[card]] = 1.0
            obs[at + CARD_KIND_AT + 5] = HEIGHT[card] / 4.0
            obs[at + CARD_KIND_AT + 6] = min(STRENGTH[card] / 12.0, 1.0)
            if kind == MOVE_BUILD:
                height_after += HEIGHT[card]
            if kind in (MOVE_BUILD, MOVE_SPECIAL):
                effect = EFFECT[card]
                if effect == SHAKE:
                    monkey_after += 1
                elif effect == GORILLA:
                    monkey_after += 2
                elif effect == BANANA_PEEL:
                    monkey_after = max(cfg.monkey_floor, monkey - 1)
        obs[at + AFTER_AT] = min(height_after / 30.0, 1.0)
        obs[at + AFTER_AT + 1] = min(monkey_after / 20.0, 1.0)
        gap = height_after - monkey_after
        if 0 <= gap <= SPANK_REACH:
            obs[at + AFTER_AT + 2] = 1.0
            obs[at + AFTER_AT + 3] = (7 - HIT[gap]) / 6
        chance, fall, target = attack_features(cfg, s, seat, kind, action, card)
        if target >= 0:
            tower = height(cfg, s, target)
            obs[at + ATTACK_AT] = chance
            obs[at + ATTACK_AT + 1] = min(fall / 10.0, 1.0)
            obs[at + ATTACK_AT + 2] = monkey <= tower <= monkey + SPANK_REACH
            obs[at + ATTACK_AT + 3] = min(tower / 30.0, 1.0)
