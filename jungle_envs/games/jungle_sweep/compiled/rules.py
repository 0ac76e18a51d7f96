"""Jungle Sweep rules as compiled kernels over a state row (mirrors ``rules.py``; the row's
layout is in ``compiled/state.py``, moving on the board in ``compiled/board.py``).

The same steps, in the same order, as ``rules.py``; the differential tests drive both with
the same chance outcomes and decisions and compare every state.
"""

from __future__ import annotations

import numpy as np

from jungle_envs.core.compiled.contract import CHANCE, TERMINAL
from jungle_envs.core.compiled.jit import kernel
from jungle_envs.core.compiled.results import returns_from_keys
from jungle_envs.core.compiled.rng import draw_from_counts
from jungle_envs.games.jungle_sweep.compiled.board import (
    FACE_STEPS,
    mover,
    palm_jump,
    positions,
    terrain,
    walk,
)
from jungle_envs.games.jungle_sweep.compiled.state import COCONUTS_PER_MONKEY
from jungle_envs.games.jungle_sweep.tables import (
    CHOOSE_DIE,
    CLEARING,
    CLEARING_CHOICE,
    CLEARING_REROLL,
    DRAW_COCONUT,
    GAME_OVER,
    HILL,
    HILL_CHOICE,
    HILL_STEP,
    LAST_MONKEY_COCONUTS,
    LATER_LEAVER_COCONUTS,
    LAY_RING,
    NUM_FACES,
    PALM,
    PALM_FACE,
    QUICKSAND,
    REROLL,
    ROLL,
    ROUNDS,
    SET_ASIDE,
    WATER,
    WATER_ENTER,
    WATER_HOLE,
)


# --- the state machine ------------------------------------------------------------------------
@kernel
def init_state(cfg, s):
    s[:] = 0
    s[cfg.phase] = SET_ASIDE if cfg.set_aside_count else LAY_RING
    s[cfg.broom] = -1
    s[cfg.pending] = -1
    for m in range(cfg.num_monkeys):
        s[cfg.monkey_pos + m] = -1
    for i in range(cfg.initial_supply.shape[0]):
        s[cfg.supply + i] = cfg.initial_supply[i]


@kernel
def current_player(cfg, s):
    phase = s[cfg.phase]
    if phase < CHOOSE_DIE:
        return CHANCE
    if phase == GAME_OVER:
        return TERMINAL
    return mover(cfg, s) % cfg.num_players


@kernel
def legal_mask(cfg, s, mask):
    mask[:] = 0
    phase = s[cfg.phase]
    if phase == CHOOSE_DIE:
        for f in range(NUM_FACES):
            mask[f] = s[cfg.pool + f] > 0
    elif phase == WATER:
        mask[WATER_ENTER] = mask[WATER_ENTER + 1] = 1
    elif phase == HILL_CHOICE:
        mask[HILL_STEP] = mask[HILL_STEP + 1] = 1
    elif phase == CLEARING_CHOICE:
        mask[CLEARING_REROLL] = mask[CLEARING_REROLL + 1] = 1


@kernel
def draw_tile(cfg, s, u):
    """``draw_from_counts`` over the tiles still to lay, counted in place (no array)."""
    box = cfg.ring_counts[s[cfg.round]]
    total = 0
    for code in range(box.shape[0]):
        total += box[code]
    laid = s[cfg.ring_len]
    x, acc, last = u * (total - laid), 0, -1
    for code in range(box.shape[0]):
        count = box[code]
        for i in range(laid):
            count -= s[cfg.ring + i] == code
        if count:
            acc += count
            last = code
            if x < acc:
                return code
    return last


@kernel
def sample_chance(cfg, s, u):
    phase = s[cfg.phase]
    if phase in (ROLL, REROLL):
        return int(u * NUM_FACES)
    if phase == LAY_RING:
        return draw_tile(cfg, s, u)
    nvals = cfg.coconut_values.shape[0]
    return cfg.coconut_values[draw_from_counts(s[cfg.supply : cfg.supply + nvals], u)]


@kernel
def apply_chance(cfg, s, outcome):
    phase = s[cfg.phase]
    if phase == ROLL:
        s[cfg.pool + outcome] += 1
        dice = 0
        for f in range(NUM_FACES):
            dice += s[cfg.pool + f]
        if dice == cfg.num_dice:
            sweep(cfg, s)
    elif phase == REROLL:
        s[cfg.phase] = CHOOSE_DIE
        if move(cfg, s, mover(cfg, s), outcome):
            finish_move(cfg, s)
    elif phase == LAY_RING:
        s[cfg.ring + s[cfg.ring_len]] = outcome
        s[cfg.ring_len] += 1
        laid = 0
        for code in cfg.ring_counts[s[cfg.round]]:
            laid += code
        if s[cfg.ring_len] == laid:
            start_round(cfg, s)
    else:  # a coconut leaves the supply: set aside unseen, or to the next monkey owed one
        idx = 0
        while cfg.coconut_values[idx] != outcome:
            idx += 1
        s[cfg.supply + idx] -= 1
        if phase == SET_ASIDE:
            s[cfg.set_aside + idx] += 1
            aside = 0
            for i in range(cfg.coconut_values.shape[0]):
                aside += s[cfg.set_aside + i]
            if aside == cfg.set_aside_count:
                s[cfg.phase] = LAY_RING
        else:
            m = s[cfg.awards]
            s[cfg.coconuts + m * COCONUTS_PER_MONKEY + s[cfg.held + m]] = outcome
            s[cfg.held + m] += 1
            count = s[cfg.awards_len] - 1
            for i in range(count):
                s[cfg.awards + i] = s[cfg.awards + i + 1]
            s[cfg.awards_len] = count
            if count == 0:
                next_round(cfg, s)


@kernel
def apply_action(cfg, s, action):
    m = mover(cfg, s)
    phase = s[cfg.phase]
    if phase == CHOOSE_DIE:
        s[cfg.pool + action] -= 1
        if s[cfg.monkey_pos + m] < 0 or move(cfg, s, m, action):
            finish_move(cfg, s)
    elif phase == WATER:
        if action == WATER_ENTER:
            s[cfg.monkey_pos + m] = s[cfg.pending]
        finish_move(cfg, s)
    elif phase == CLEARING_CHOICE:
        if action == CLEARING_REROLL:
            s[cfg.phase] = REROLL
        else:
            finish_move(cfg, s)
    else:  # HILL_CHOICE
        if action == HILL_STEP:
            s[cfg.monkey_pos + m] = s[cfg.pending]
            s[cfg.pending] = -1
            s[cfg.phase] = CHOOSE_DIE
            if not land(cfg, s, m):
                return
        finish_move(cfg, s)


@kernel
def move(cfg, s, m, face):
    """Move monkey ``m`` by a die face; False if a decision or re-roll is now pending."""
    if face == 0:
        return True
    pos, broom = positions(cfg, s), s[cfg.broom]
    start = pos[m]
    if face == PALM_FACE:
        pos[m] = palm_jump(cfg, s, pos, broom, m, start)
        return True
    target = walk(cfg, s, pos, broom, m, start, FACE_STEPS[face])
    if target == start:
        return True
    if terrain(cfg, s, target) == WATER_HOLE:
        s[cfg.pending], s[cfg.phase] = target, WATER
        return False
    pos[m] = target
    return land(cfg, s, m)


@kernel
def land(cfg, s, m):
    """Apply the effect of the field monkey ``m`` just moved onto."""
    pos, broom = positions(cfg, s), s[cfg.broom]
    here = pos[m]
    kind = terrain(cfg, s, here)
    if kind == HILL:
        step = walk(cfg, s, pos, broom, m, here, 1)
        if step == here:
            return True
        s[cfg.pending], s[cfg.phase] = step, HILL_CHOICE
        return False
    if kind == CLEARING:
        s[cfg.phase] = CLEARING_CHOICE
        return False
    return True


@kernel
def finish_move(cfg, s):
    s[cfg.phase], s[cfg.pending] = CHOOSE_DIE, -1
    s[cfg.turn] += 1
    if s[cfg.turn] < cfg.num_monkeys:
        return
    s[cfg.dice_round] += 1
    s[cfg.active] = (s[cfg.active] + 1) % cfg.num_monkeys
    s[cfg.turn] = 0
    s[cfg.pool : cfg.pool + NUM_FACES] = 0
    if s[cfg.dice_round] >= cfg.max_dice_rounds:
        safety_net(cfg, s)
    else:
        s[cfg.phase] = ROLL


@kernel
def leave(cfg, s, m):
    s[cfg.monkey_pos + m] = -1
    s[cfg.leaving + s[cfg.leaving_len]] = m
    s[cfg.leaving_len] += 1


@kernel
def in_play(cfg, s):
    count = 0
    for m in range(cfg.num_monkeys):
        count += s[cfg.monkey_pos + m] >= 0
    return count


@kernel
def sweep(cfg, s):
    steps = 0
    for f in range(NUM_FACES):
        steps += FACE_STEPS[f] * s[cfg.pool + f]
    size, broom, pos = s[cfg.ring_len], s[cfg.broom], positions(cfg, s)
    for _ in range(steps):
        broom = (broom + 1) % size
        sweep_field(cfg, s, pos, broom)
    while terrain(cfg, s, broom) == PALM and monkey_on(pos, broom) >= 0:
        broom = (broom + 1) % size
        sweep_field(cfg, s, pos, broom)
    s[cfg.broom] = broom
    if in_play(cfg, s) <= 1:
        end_round(cfg, s)
    else:
        s[cfg.phase], s[cfg.turn] = CHOOSE_DIE, 0


@kernel(inline=True)
def monkey_on(pos, field):
    for m in range(pos.shape[0]):
        if pos[m] == field:
            return m
    return -1


@kernel
def sweep_field(cfg, s, pos, field):
    m = monkey_on(pos, field)
    if m >= 0 and terrain(cfg, s, field) != PALM:
        leave(cfg, s, m)  # a swept monkey is off the ring, so the broom cannot lap it


@kernel
def safety_net(cfg, s):
    """Sweep the remaining monkeys in clockwise order from the broom."""
    size, broom = s[cfg.ring_len], s[cfg.broom]
    for ahead in range(size):
        m = monkey_on(positions(cfg, s), (broom + ahead) % size)
        if m >= 0:
            leave(cfg, s, m)
    end_round(cfg, s)


@kernel
def end_round(cfg, s):
    count = 0
    order = np.empty(cfg.num_monkeys, dtype=np.int64)
    for i in range(s[cfg.leaving_len]):
        order[count] = s[cfg.leaving + i]
        count += 1
    for m in range(cfg.num_monkeys):
        if s[cfg.monkey_pos + m] >= 0:
            order[count] = m
            count += 1
    awards = 0
    for rank in range(count):
        gets = 0
        if rank == count - 1:
            gets = LAST_MONKEY_COCONUTS
        elif rank >= cfg.unrewarded:
            gets = LATER_LEAVER_COCONUTS
        for _ in range(gets):
            s[cfg.awards + awards] = order[rank]
            awards += 1
    s[cfg.awards_len] = awards
    s[cfg.pool : cfg.pool + NUM_FACES] = 0
    s[cfg.turn] = 0
    if awards:
        s[cfg.phase] = DRAW_COCONUT
    else:
        next_round(cfg, s)


@kernel
def start_round(cfg, s):
    size = s[cfg.ring_len]
    for field in range(size):
        code = s[cfg.ring + field]
        if code == QUICKSAND:
            s[cfg.broom] = field
        elif code >= PALM:
            s[cfg.monkey_pos + code - PALM] = field
    broom = s[cfg.broom]
    for k in range(1, size + 1):
        code = s[cfg.ring + (broom + k) % size]
        if code >= PALM:
            s[cfg.active] = code - PALM
            break
    s[cfg.leaving_len], s[cfg.dice_round], s[cfg.turn] = 0, 0, 0
    s[cfg.pool : cfg.pool + NUM_FACES] = 0
    s[cfg.phase] = ROLL


@kernel
def next_round(cfg, s):
    s[cfg.round] += 1
    s[cfg.awards_len] = 0
    if s[cfg.round] == ROUNDS:
        s[cfg.phase] = GAME_OVER
        return
    s[cfg.ring_len], s[cfg.broom] = 0, -1
    for m in range(cfg.num_monkeys):
        s[cfg.monkey_pos + m] = -1
    s[cfg.leaving_len] = 0
    s[cfg.phase] = LAY_RING


# --- results ----------------------------------------------------------------------------------
@kernel
def monkey_value(cfg, s, m):
    total = 0
    for i in range(s[cfg.held + m]):
        total += s[cfg.coconuts + m * COCONUTS_PER_MONKEY + i]
    return total


@kernel
def scores(cfg, s, out):
    out[:] = 0.0
    for m in range(cfg.num_monkeys):
        out[m % cfg.num_players] += monkey_value(cfg, s, m)


@kernel
def ranking_key(cfg, s, seat):
    """Higher is better: value, (2 players: best single monkey), coconut count, as one
    number (each part is below 1000)."""
    value, best, count = 0, 0, 0
    for m in range(seat, cfg.num_monkeys, cfg.num_players):
        v = monkey_value(cfg, s, m)
        value += v
        best = max(best, v)
        count += s[cfg.held + m]
    if cfg.num_monkeys == cfg.num_players:
        best = 0
    return (value * 1000 + best) * 1000 + count


@kernel
def returns(cfg, s, out):
    out[:] = 0.0
    if s[cfg.phase] != GAME_OVER:
        return
    keys = np.zeros(cfg.num_players, dtype=np.int64)
    for seat in range(cfg.num_players):
        keys[seat] = ranking_key(cfg, s, seat)
    returns_from_keys(keys, out)
