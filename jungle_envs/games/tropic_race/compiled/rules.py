"""Tropic Race rules as compiled kernels over a state row (mirrors rules.py; the row's
layout is in ``compiled/state.py``).

The same steps, in the same order, as ``rules.py``; the differential tests drive both with
the same chance outcomes and decisions and compare every state. The board is fixed, so
its routes and the lion's walks are module tables (``compiled/board.py``); everything the
options change comes from the config. Every kernel reads and writes only the row it is
given and allocates nothing, so the heuristic can look ahead on scratch rows with these
same rules, and the hot loop (mask, move, roll) stays a few table reads.
"""

from __future__ import annotations

import numpy as np

from jungle_envs.core.compiled.contract import CHANCE, TERMINAL
from jungle_envs.core.compiled.jit import kernel
from jungle_envs.core.compiled.results import returns_from_keys
from jungle_envs.core.compiled.rng import draw_from_counts
from jungle_envs.games.tropic_race.compiled.board import (
    LION_WALK,
    LION_WALK_LEN,
    move_end,
    occupied,
)
from jungle_envs.games.tropic_race.tables import (
    ARROW_CODE,
    FAR_TURTLE,
    GAME_OVER,
    GOAL,
    LAY_TILE,
    LION,
    LION_ACTION,
    LION_CODE,
    LION_ENDS,
    MOVE,
    MOVES,
    NEAR_TURTLE,
    NO_TILE,
    NUM_LOCATIONS,
    PICK_START,
    PUSH,
    ROLL,
    SLOTS,
    START,
    THEN_END_TURN,
    THEN_STEP_ONE,
    TILE_KINDS,
)


def location_table(pairs, default=-1, shape=NUM_LOCATIONS):
    table = np.full(shape, default, dtype=np.int64)
    for key, value in pairs:
        table[key] = value
    return table


MOVE_INDEX = location_table(
    (((a, b), i) for i, (a, b) in enumerate(MOVES)), shape=(NUM_LOCATIONS, NUM_LOCATIONS)
)
MOVE_FROM = np.array([a for a, _ in MOVES], dtype=np.int64)
MOVE_TO = np.array([b for _, b in MOVES], dtype=np.int64)
LION_END = np.array(LION_ENDS, dtype=np.int64)
# Where a push carries a rider: one slot right, or home from the tile that falls off.
PUSHED_TO = location_table(
    [(NEAR_TURTLE[i], NEAR_TURTLE[i + 1]) for i in range(SLOTS - 1)]
    + [(FAR_TURTLE[i], FAR_TURTLE[i + 1]) for i in range(SLOTS - 1)]
    + [(NEAR_TURTLE[-1], START), (FAR_TURTLE[-1], START)]
)
KINDS = len(TILE_KINDS)


# --- moves ------------------------------------------------------------------------------
# Both kernels visit each field of the seat's monkeys once (the block is sorted: equal
# fields are neighbours) and each of its routes (``compiled/board.py``); a field reached along
# two routes is simply marked twice.
@kernel
def mark_moves(cfg, s, seat, steps, mask):
    """Set the action of every legal move of ``seat``'s monkeys by ``steps`` in ``mask``."""
    taken = occupied(cfg, s)
    base, prev = cfg.seats + seat * cfg.monkeys, -1
    for i in range(cfg.monkeys):
        loc = s[base + i]
        if loc in (prev, GOAL):
            continue
        prev = loc
        for slot in range(SLOTS):
            end = move_end(cfg, s, loc, slot, steps, taken)
            if end >= 0:
                mask[MOVE_INDEX[loc, end]] = 1


@kernel
def any_move(cfg, s, seat, steps):
    """Whether ``seat`` has a legal move by ``steps`` (stops at the first)."""
    taken = occupied(cfg, s)
    base, prev = cfg.seats + seat * cfg.monkeys, -1
    for i in range(cfg.monkeys):
        loc = s[base + i]
        if loc in (prev, GOAL):
            continue
        prev = loc
        for slot in range(SLOTS):
            if move_end(cfg, s, loc, slot, steps, taken) >= 0:
                return True
    return False


# --- the state machine ------------------------------------------------------------------
@kernel
def init_state(cfg, s):
    s[:] = 0
    s[cfg.phase], s[cfg.player], s[cfg.lion] = LAY_TILE, -1, cfg.lion_start
    s[cfg.then] = THEN_STEP_ONE
    for slot in range(SLOTS):
        s[cfg.slots + slot] = NO_TILE
    for kind in range(KINDS):
        s[cfg.supply + kind] = cfg.tile_mix[kind]
    for i in range(cfg.num_players * cfg.monkeys):
        s[cfg.seats + i] = START


@kernel
def current_player(cfg, s):
    phase = s[cfg.phase]
    if phase in (MOVE, LION):
        return s[cfg.player]
    return TERMINAL if phase == GAME_OVER else CHANCE


@kernel
def legal_mask(cfg, s, mask):
    mask[:] = 0
    phase = s[cfg.phase]
    if phase == LION:
        for i in range(LION_END.shape[0]):
            mask[LION_ACTION + i] = LION_END[i] != s[cfg.lion]
    elif phase == MOVE:
        mark_moves(cfg, s, s[cfg.player], s[cfg.steps], mask)


@kernel
def sample_chance(cfg, s, u):
    phase = s[cfg.phase]
    if phase == ROLL:
        return cfg.die_outcomes[draw_from_counts(cfg.die_counts, u)]
    if phase == PICK_START:
        return int(u * cfg.num_players)
    return draw_from_counts(s[cfg.supply : cfg.supply + KINDS], u)


@kernel
def apply_chance(cfg, s, outcome):
    phase = s[cfg.phase]
    if phase == ROLL:
        s[cfg.rolls] += 1
        if outcome == LION_CODE:
            s[cfg.phase] = LION
        elif outcome != ARROW_CODE and any_move(cfg, s, s[cfg.player], outcome):
            s[cfg.phase], s[cfg.steps] = MOVE, outcome
        else:  # an arrow, or no legal move for the number: push, then one step
            s[cfg.phase], s[cfg.then] = PUSH, THEN_STEP_ONE
    elif phase == PUSH:
        push(cfg, s, outcome)
    elif phase == LAY_TILE:
        s[cfg.supply + outcome] -= 1
        slot = 0
        while s[cfg.slots + slot] != NO_TILE:
            slot += 1
        s[cfg.slots + slot] = outcome
        if slot == SLOTS - 1:
            s[cfg.phase] = PICK_START
    else:  # PICK_START
        s[cfg.player], s[cfg.phase] = outcome, ROLL


@kernel
def apply_action(cfg, s, action):
    if s[cfg.phase] == LION:
        walk_lion(cfg, s, action - LION_ACTION)
        offer_step(cfg, s)
        return
    origin, end = MOVE_FROM[action], MOVE_TO[action]
    base = cfg.seats + s[cfg.player] * cfg.monkeys
    i = 0
    while s[base + i] != origin:
        i += 1
    s[base + i] = START if end == s[cfg.lion] else end
    sort_block(s, base, cfg.monkeys)
    s[cfg.steps] = 0
    if s[base] == GOAL:  # sorted, so every monkey is home
        s[cfg.phase] = GAME_OVER
    elif end == s[cfg.lion]:
        end_turn(cfg, s)
    elif cfg.arrow_field[end]:
        s[cfg.phase], s[cfg.then] = PUSH, THEN_END_TURN
    elif cfg.die_field[end]:
        s[cfg.phase] = ROLL  # an extra turn at once
    else:
        end_turn(cfg, s)


@kernel
def sort_block(s, base, length):
    for i in range(base + 1, base + length):
        value, j = s[i], i
        while j > base and s[j - 1] > value:
            s[j] = s[j - 1]
            j -= 1
        s[j] = value


@kernel
def push(cfg, s, tile):
    """The drawn tile enters slot 1; the others move right; slot 5's tile leaves."""
    s[cfg.supply + tile] -= 1
    for i in range(cfg.num_players * cfg.monkeys):
        moved = PUSHED_TO[s[cfg.seats + i]]
        if moved >= 0:
            s[cfg.seats + i] = moved
    for seat in range(cfg.num_players):
        sort_block(s, cfg.seats + seat * cfg.monkeys, cfg.monkeys)
    for slot in range(SLOTS - 1, 0, -1):
        s[cfg.slots + slot] = s[cfg.slots + slot - 1]
    s[cfg.slots] = tile
    left = 0
    for kind in range(KINDS):
        left += s[cfg.supply + kind]
    if left == 0:  # the volcano erupts
        s[cfg.volcano], s[cfg.phase] = 1, GAME_OVER
    elif s[cfg.then] == THEN_STEP_ONE:
        offer_step(cfg, s)
    else:
        end_turn(cfg, s)


@kernel
def walk_lion(cfg, s, end):
    """Walk the lion field by field to LION_END[end], stopping at the first monkey (sent
    home, to the front of its sorted block)."""
    start, taken = s[cfg.lion], occupied(cfg, s)
    for k in range(LION_WALK_LEN[start, end]):
        field = LION_WALK[start, end, k]
        s[cfg.lion] = field
        if not (taken >> field) & 1:  # nobody here: no need to look
            continue
        for i in range(cfg.num_players * cfg.monkeys):
            if s[cfg.seats + i] == field:
                base = cfg.seats + (i // cfg.monkeys) * cfg.monkeys
                for j in range(cfg.seats + i, base, -1):
                    s[j] = s[j - 1]
                s[base] = START
                return


@kernel
def offer_step(cfg, s):
    """After a lion, an arrow or a push instead of a number: move one monkey 1 step."""
    if any_move(cfg, s, s[cfg.player], 1):
        s[cfg.phase], s[cfg.steps] = MOVE, 1
    else:
        s[cfg.steps] = 0
        end_turn(cfg, s)


@kernel
def end_turn(cfg, s):
    s[cfg.phase] = ROLL
    s[cfg.player] = (s[cfg.player] + 1) % cfg.num_players


# --- results ----------------------------------------------------------------------------
@kernel
def home_count(cfg, s, seat):
    count = 0
    base = cfg.seats + seat * cfg.monkeys
    for i in range(cfg.monkeys):
        count += s[base + i] == GOAL
    return count


@kernel
def scores(cfg, s, out):
    for seat in range(cfg.num_players):
        out[seat] = home_count(cfg, s, seat)


@kernel
def returns(cfg, s, out):
    out[:] = 0.0
    if s[cfg.phase] != GAME_OVER:
        return
    homes = np.zeros(cfg.num_players, dtype=np.int64)
    for seat in range(cfg.num_players):
        homes[seat] = home_count(cfg, s, seat)
    returns_from_keys(homes, out)
