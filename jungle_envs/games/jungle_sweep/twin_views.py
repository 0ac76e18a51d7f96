"""Jungle Sweep's observation and heuristic as compiled kernels.

``observe`` writes exactly the vector of ``encoding.observe`` (same layout, same float32
values). ``heuristic_action`` makes the choice of ``heuristic.JungleSweepHeuristic``: it
reads only what the deciding seat sees (the ring, where monkeys stand, the dice pool and
whose turn it is) and weighs fields by the same broom-reach table, in the same order, so
ties break the same way.
"""

from __future__ import annotations

import numpy as np

from jungle_envs.core.compiled.jit import kernel
from jungle_envs.games.jungle_sweep.encoding import (
    FIELD_FEATURES,
    MONKEY_FEATURES,
    MOVE_FEATURES,
    TERRAIN_COLUMN,
)
from jungle_envs.games.jungle_sweep.heuristic import DENIAL_ORDER
from jungle_envs.games.jungle_sweep.tables import (
    CHOOSE_DIE,
    CLEARING,
    CLEARING_CHOICE,
    CLEARING_REROLL,
    CLEARING_STAY,
    GAME_OVER,
    HILL,
    HILL_CHOICE,
    HILL_STAY,
    HILL_STEP,
    MAX_MONKEYS,
    NUM_FACES,
    NUM_TERRAINS,
    PALM,
    PALM_FACE,
    ROUNDS,
    WATER,
    WATER_ENTER,
    WATER_HOLE,
    WATER_STAY,
)
from jungle_envs.games.jungle_sweep.twin_rules import (
    COCONUTS_PER_MONKEY,
    FACE_STEPS,
    mover,
    palm_jump,
    positions,
    terrain,
    walk,
)

COLUMN = np.array(TERRAIN_COLUMN, dtype=np.int64)
DENIAL_RANK = np.array([DENIAL_ORDER.index(f) for f in range(NUM_FACES)], dtype=np.int64)
PHASES = 4  # choose a die, water hole, hill, clearing
MIN_PLAYERS = 2
TIE = 1e-9


@kernel(inline=True)
def deciding(s, cfg):
    phase = s[cfg.phase]
    return phase in (CHOOSE_DIE, WATER, HILL_CHOICE, CLEARING_CHOICE)


@kernel(inline=True)
def phase_index(phase):
    if phase == CHOOSE_DIE:
        return 0
    if phase == WATER:
        return 1
    if phase == HILL_CHOICE:
        return 2
    return 3


@kernel
def observe(cfg, s, seat, obs):
    obs[:] = 0.0
    monkeys, n = cfg.num_monkeys, cfg.num_players
    decide = deciding(s, cfg)
    focus = seat
    if decide and mover(cfg, s) % n == seat:
        focus = mover(cfg, s)
    size, broom = s[cfg.ring_len], s[cfg.broom]
    start = broom if broom >= 0 else 0
    for j in range(size):
        code = s[cfg.ring + (j + start) % size]
        obs[j * FIELD_FEATURES + COLUMN[code if code < PALM else PALM]] = 1.0
    if size and s[cfg.phase] != GAME_OVER:
        for m in range(monkeys):
            pos = s[cfg.monkey_pos + m]
            if pos >= 0:
                field = (pos - start) % size
                obs[field * FIELD_FEATURES + NUM_TERRAINS + (m - focus) % monkeys] = 1.0
    if s[cfg.pending] >= 0:
        obs[((s[cfg.pending] - start) % size) * FIELD_FEATURES + FIELD_FEATURES - 1] = 1.0
    at = cfg.max_ring_size * FIELD_FEATURES
    who = mover(cfg, s)
    for m in range(monkeys):
        row = at + ((m - focus) % monkeys) * MONKEY_FEATURES
        obs[row] = 1.0
        obs[row + 1] = s[cfg.monkey_pos + m] >= 0
        obs[row + 2] = m % n == seat
        obs[row + 3] = decide and (m - s[cfg.active]) % monkeys >= s[cfg.turn]
        obs[row + 4] = m == s[cfg.active]
        obs[row + 5] = decide and m == who
        obs[row + 6] = min(s[cfg.held + m] / 8.0, 1.0)
    at += MAX_MONKEYS * MONKEY_FEATURES
    if decide:
        for f in range(NUM_FACES):
            obs[at + f] = s[cfg.pool + f] / cfg.num_dice
        obs[at + NUM_FACES + phase_index(s[cfg.phase])] = 1.0
    at += NUM_FACES + PHASES
    if s[cfg.round] < ROUNDS:
        obs[at + s[cfg.round]] = 1.0
    at += ROUNDS
    obs[at] = min(s[cfg.dice_round] / 20.0, 1.0)
    obs[at + 1 + n - MIN_PLAYERS] = 1.0
    at += 6
    nvals = cfg.coconut_values.shape[0]
    left = 0
    for i in range(nvals):
        left += s[cfg.supply + i]
    obs[at] = left / cfg.total_supply
    at += 1
    own = 0
    for m in range(seat, monkeys, n):
        for k in range(s[cfg.held + m]):
            value = s[cfg.coconuts + m * COCONUTS_PER_MONKEY + k]
            i = 0
            while cfg.coconut_values[i] != value:
                i += 1
            obs[at + i] += 1.0 / 16.0  # sixteenths are exact in float32, as in float64
            own += value
    for i in range(nvals):
        obs[at + i] = min(obs[at + i], 1.0)
    obs[at + nvals] = min(own / 64.0, 1.0)
    at += nvals + 1
    if cfg.move_features:
        move_features(cfg, s, focus, obs, at)


@kernel
def move_features(cfg, s, monkey, obs, at):
    """Where ``monkey`` would go with each die face (see ``encoding.move_features``)."""
    pos, broom = positions(cfg, s), s[cfg.broom]
    start = pos[monkey]
    if start < 0 or not deciding(s, cfg):
        return
    size = s[cfg.ring_len]
    for face in range(NUM_FACES):
        if face == 0:
            target = start
        elif face == PALM_FACE:
            target = palm_jump(cfg, s, pos, broom, monkey, start)
        else:
            target = walk(cfg, s, pos, broom, monkey, start, FACE_STEPS[face])
        land = terrain(cfg, s, target)
        ahead = (target - broom) % size
        safe = 1.0 if land == PALM else short_of(cfg, ahead)
        moved = target != start and face != PALM_FACE
        row = at + face * MOVE_FEATURES
        obs[row] = s[cfg.pool + face] > 0
        obs[row + 1] = land == PALM
        obs[row + 2] = ahead / size
        obs[row + 3] = safe
        obs[row + 4] = moved and land == WATER_HOLE
        obs[row + 5] = moved and land == HILL
        obs[row + 6] = moved and land == CLEARING


@kernel(inline=True)
def short_of(cfg, ahead):
    return cfg.short_of[min(ahead, cfg.short_of.shape[0] - 1)]


# --- the heuristic ----------------------------------------------------------------------------
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
    at[0], level[0], top = pos, depth, 0
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
        at[top + 1] = at[top]
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
