"""Jungle Sweep's heuristic as compiled kernels (mirrors ``heuristic.py``).

``heuristic_action`` makes the choice of ``heuristic.JungleSweepHeuristic``: it reads only
what the deciding seat sees (the ring, where monkeys stand, the dice pool and whose turn
it is) and weighs fields by the same broom-reach table, in the same order, so ties break
the same way.
"""

from __future__ import annotations

import numpy as np

from jungle_envs.core.compiled.arrays import copy_into
from jungle_envs.core.compiled.jit import kernel
from jungle_envs.games.jungle_sweep.compiled.board import (
    FACE_STEPS,
    mover,
    palm_jump,
    positions,
    short_of,
    terrain,
    walk,
)
from jungle_envs.games.jungle_sweep.config import LEFT_AT, LOOKAHEAD_AT, MOVE_FEATURES
from jungle_envs.games.jungle_sweep.heuristic import DENIAL_ORDER
from jungle_envs.games.jungle_sweep.tables import (
    CLEARING,
    CLEARING_CHOICE,
    CLEARING_REROLL,
    CLEARING_STAY,
    HILL,
    HILL_CHOICE,
    HILL_STAY,
    HILL_STEP,
    NUM_FACES,
    PALM,
    PALM_FACE,
    WATER,
    WATER_ENTER,
    WATER_HOLE,
    WATER_STAY,
)

DENIAL_RANK = np.array([DENIAL_ORDER.index(f) for f in range(NUM_FACES)], dtype=np.int64)
TIE = 1e-9


@kernel
def safety(cfg, s, field):
    if terrain(cfg, s, field) == PALM:
        return 1.0
    return short_of(cfg, (field - s[cfg.broom]) % s[cfg.ring_len])


# A clearing's re-roll averages six more moves, which may end on a clearing again (three
# deep at most). numba cannot load recursive kernels from its cache, so the re-rolls are
# evaluated with an explicit stack: ``move_or_reroll`` either values a move or says which
# re-roll its value needs.
MAX_DEPTH = 3


@kernel
def landing(cfg, s, pos, m, field, depth):
    """Value of monkey ``m`` ending a move on ``field`` (``pos`` still has it where it
    started), hill steps taken when they pay. Returns (value, clearing, depth): a clearing
    >= 0 means the value is max(value, safety there, its re-roll at that depth)."""
    best = -1.0
    while True:
        kind = terrain(cfg, s, field)
        if kind == HILL and depth < MAX_DEPTH:
            best = max(best, safety(cfg, s, field))
            step = walk(cfg, s, pos, s[cfg.broom], m, field, 1)
            if step == field:
                return best, -1, depth
            field, depth = step, depth + 1
        elif kind == CLEARING and depth < MAX_DEPTH:
            return max(best, safety(cfg, s, field)), field, depth + 1
        else:
            return max(best, safety(cfg, s, field)), -1, depth


@kernel
def move_or_reroll(cfg, s, pos, m, face, depth):
    """(value, clearing, depth) of moving monkey ``m`` by ``face``, as ``landing``."""
    here, broom = pos[m], s[cfg.broom]
    if face == 0:
        return safety(cfg, s, here), -1, depth
    if face == PALM_FACE:
        return safety(cfg, s, palm_jump(cfg, s, pos, broom, m, here)), -1, depth
    target = walk(cfg, s, pos, broom, m, here, FACE_STEPS[face])
    if target == here:
        return safety(cfg, s, here), -1, depth
    if terrain(cfg, s, target) == WATER_HOLE:
        return max(safety(cfg, s, here), safety(cfg, s, target)), -1, depth
    return landing(cfg, s, pos, m, target, depth)


@kernel
def reroll_value(cfg, s, pos, m, depth):
    """Expected value of re-rolling with monkey ``m`` on its clearing: the six faces'
    values summed in face order, divided by six."""
    frames = MAX_DEPTH + 2
    at = np.empty((frames, pos.shape[0]), dtype=np.int64)
    level = np.empty(frames, dtype=np.int64)
    face = np.zeros(frames, dtype=np.int64)
    total = np.zeros(frames)
    floor = np.zeros(frames)  # the value the re-roll of this frame is maxed with
    copy_into(at[0], pos)
    level[0], top = depth, 0
    while True:
        if face[top] == NUM_FACES:
            value = total[top] / NUM_FACES
            if top == 0:
                return value
            top -= 1
            total[top] += max(floor[top + 1], value)
            face[top] += 1
            continue
        value, clearing, deeper = move_or_reroll(cfg, s, at[top], m, face[top], level[top])
        if clearing < 0:
            total[top] += value
            face[top] += 1
            continue
        copy_into(at[top + 1], at[top])
        at[top + 1, m] = clearing
        level[top + 1], face[top + 1], total[top + 1] = deeper, 0, 0.0
        floor[top + 1] = value
        top += 1


@kernel
def settle(cfg, s, pos, m, value, clearing, depth):
    """A value from ``landing``/``move_or_reroll`` with its pending re-roll resolved."""
    if clearing < 0:
        return value
    moved = pos.copy()
    moved[m] = clearing
    return max(value, reroll_value(cfg, s, moved, m, depth))


@kernel
def move_value(cfg, s, pos, m, face):
    value, clearing, depth = move_or_reroll(cfg, s, pos, m, face, 0)
    return settle(cfg, s, pos, m, value, clearing, depth)


@kernel
def heuristic_action(cfg, s, seat, obs, mask):
    pos = positions(cfg, s).astype(np.int64)
    m = mover(cfg, s)
    phase = s[cfg.phase]
    if phase == WATER:
        better = safety(cfg, s, s[cfg.pending]) > safety(cfg, s, pos[m])
        return WATER_ENTER if better else WATER_STAY
    if phase == HILL_CHOICE:
        value, clearing, depth = landing(cfg, s, pos, m, s[cfg.pending], 1)
        better = settle(cfg, s, pos, m, value, clearing, depth) > safety(cfg, s, pos[m])
        return HILL_STEP if better else HILL_STAY
    if phase == CLEARING_CHOICE:
        better = reroll_value(cfg, s, pos, m, 1) > safety(cfg, s, pos[m])
        return CLEARING_REROLL if better else CLEARING_STAY
    keep = np.zeros(NUM_FACES, dtype=np.bool_)
    for f in range(NUM_FACES):
        keep[f] = mask[f] != 0
    if pos[m] >= 0:
        best_of(cfg, s, pos, m, keep)
    return deny(cfg, s, pos, m, seat, keep)


@kernel
def best_of(cfg, s, pos, m, keep):
    """Keep only the faces whose move is worth the most to monkey ``m``."""
    values = np.zeros(NUM_FACES)
    best = -1.0
    for f in range(NUM_FACES):
        if keep[f]:
            values[f] = move_value(cfg, s, pos, m, f)
            best = max(best, values[f])
    for f in range(NUM_FACES):
        keep[f] = keep[f] and values[f] >= best - TIE


@kernel
def deny(cfg, s, pos, me, seat, keep):
    """Among equal dice, the one the next monkey in play wants most (least, if it is the
    seat's own second monkey), then the escape first."""
    left = 0
    for f in range(NUM_FACES):
        left += keep[f]
    monkeys, turn, active = cfg.num_monkeys, s[cfg.turn], s[cfg.active]
    if left > 1:
        for k in range(1, monkeys):
            other = (me + k) % monkeys
            if (other - active) % monkeys < turn or pos[other] < 0:
                continue
            mine = other % cfg.num_players == seat
            values = np.zeros(NUM_FACES)
            target = 2.0 if mine else -1.0
            for f in range(NUM_FACES):
                if keep[f]:
                    values[f] = move_value(cfg, s, pos, other, f)
                    target = min(target, values[f]) if mine else max(target, values[f])
            for f in range(NUM_FACES):
                keep[f] = keep[f] and abs(values[f] - target) < TIE
            break
    choice, rank = -1, NUM_FACES
    for f in range(NUM_FACES):
        if keep[f] and DENIAL_RANK[f] < rank:
            choice, rank = f, DENIAL_RANK[f]
    return choice


@kernel
def write_lookahead(cfg, s, seat, me, obs, at):
    """``encoding.write_lookahead``: per face, the move's value for monkey ``me`` and for
    the next monkey still to take a die (the one ``deny`` looks at), whose it is, and its
    best value with the dice each face leaves."""
    pos = positions(cfg, s).astype(np.int64)
    if pos[me] >= 0:
        for f in range(NUM_FACES):
            obs[at + f * MOVE_FEATURES + LOOKAHEAD_AT] = move_value(cfg, s, pos, me, f)
    monkeys, turn, active = cfg.num_monkeys, s[cfg.turn], s[cfg.active]
    for k in range(1, monkeys):
        other = (me + k) % monkeys
        if (other - active) % monkeys < turn or pos[other] < 0:
            continue
        column = LOOKAHEAD_AT + 2 + (1 if other % cfg.num_players == seat else 0)
        for f in range(NUM_FACES):
            obs[at + f * MOVE_FEATURES + LOOKAHEAD_AT + 1] = move_value(cfg, s, pos, other, f)
            obs[at + f * MOVE_FEATURES + column] = 1.0
        for f in range(NUM_FACES):  # encoding.write_left: what taking f leaves that monkey
            if s[cfg.pool + f] > 0:
                best = 0.0
                for g in range(NUM_FACES):
                    if s[cfg.pool + g] - (1 if g == f else 0) > 0:
                        best = max(best, obs[at + g * MOVE_FEATURES + LOOKAHEAD_AT + 1])
                obs[at + f * MOVE_FEATURES + LEFT_AT] = best
        break
