"""Tropic Race rules as compiled kernels over a state row (see ``twin.py`` for the layout).

The same steps, in the same order, as ``rules.py``; the differential tests drive both with
the same chance outcomes and decisions and compare every state. The board is fixed, so
its graph lives in module tables; everything the options change comes from the config.
Every kernel reads and writes only the row it is given, so the heuristic can look ahead
on scratch rows with these same rules.
"""

from __future__ import annotations

import numpy as np

from jungle_envs.core.compiled.contract import CHANCE, TERMINAL
from jungle_envs.core.compiled.jit import kernel
from jungle_envs.games.tropic_race.tables import (
    ARROW_CODE,
    FAR_BANK,
    FAR_TURTLE,
    GAME_OVER,
    GOAL,
    LAND_STEPS,
    LAY_TILE,
    LION,
    LION_ACTION,
    LION_CODE,
    LION_ENDS,
    LION_PARENT,
    MOVE,
    MOVES,
    NEAR_TURTLE,
    NO_TILE,
    NUM_LOCATIONS,
    PICK_START,
    PUSH,
    ROLL,
    SLOT_BANK,
    SLOTS,
    START,
    THEN_END_TURN,
    THEN_STEP_ONE,
    TILE_KINDS,
    TILE_TURTLES,
)


def location_table(pairs, default=-1, shape=NUM_LOCATIONS):
    table = np.full(shape, default, dtype=np.int64)
    for key, value in pairs:
        table[key] = value
    return table


def land_next():
    table = np.full((NUM_LOCATIONS, 2), -1, dtype=np.int64)
    for loc, steps in LAND_STEPS.items():
        table[loc, : len(steps)] = steps
    return table


LAND_NEXT = land_next()
BANK_SLOT = location_table((loc, slot) for slot, loc in enumerate(SLOT_BANK))
NEAR_SLOT = location_table((loc, slot) for slot, loc in enumerate(NEAR_TURTLE))
FAR_SLOT = location_table((loc, slot) for slot, loc in enumerate(FAR_TURTLE))
NEAR_AT = np.array(NEAR_TURTLE, dtype=np.int64)
FAR_AT = np.array(FAR_TURTLE, dtype=np.int64)
FAR_BANK_AT = np.array(FAR_BANK, dtype=np.int64)
TILE_NEAR = np.array([near for near, _ in TILE_TURTLES], dtype=np.int64)
TILE_FAR = np.array([far for _, far in TILE_TURTLES], dtype=np.int64)
MOVE_INDEX = location_table(
    (((a, b), i) for i, (a, b) in enumerate(MOVES)), shape=(NUM_LOCATIONS, NUM_LOCATIONS)
)
MOVE_FROM = np.array([a for a, _ in MOVES], dtype=np.int64)
MOVE_TO = np.array([b for _, b in MOVES], dtype=np.int64)
LION_END = np.array(LION_ENDS, dtype=np.int64)
LION_UP = location_table(LION_PARENT.items())
# Where a push carries a rider: one slot right, or home from the tile that falls off.
PUSHED_TO = location_table(
    [(NEAR_TURTLE[i], NEAR_TURTLE[i + 1]) for i in range(SLOTS - 1)]
    + [(FAR_TURTLE[i], FAR_TURTLE[i + 1]) for i in range(SLOTS - 1)]
    + [(NEAR_TURTLE[-1], START), (FAR_TURTLE[-1], START)]
)
KINDS = len(TILE_KINDS)
MAX_ROUTE = 16  # START to GOAL is 12 steps
MAX_BRANCHES = 3


# --- the board (pure) -------------------------------------------------------------------
@kernel
def forward(cfg, s, loc, out):
    """Write the fields one step ahead of ``loc`` into ``out``; return how many."""
    near, far = NEAR_SLOT[loc], FAR_SLOT[loc]
    if near >= 0:
        if TILE_FAR[s[cfg.slots + near]]:
            out[0] = FAR_AT[near]
            return 1
        return 0
    if far >= 0:
        out[0] = FAR_BANK_AT[far]
        return 1
    count = 0
    for k in range(2):
        if LAND_NEXT[loc, k] >= 0:
            out[count] = LAND_NEXT[loc, k]
            count += 1
    slot = BANK_SLOT[loc]
    if slot >= 0:
        kind = s[cfg.slots + slot]
        if kind != NO_TILE and TILE_NEAR[kind]:
            out[count] = NEAR_AT[slot]
            count += 1
    return count


@kernel(inline=True)
def blocked(taken, loc, field):
    return field != START and field != GOAL and field != loc and taken[field] > 0


@kernel
def route_end(path, length, loc, steps, taken, ends):
    """The end of a move along one route (``rules.targets``), marked in ``ends``."""
    for i in range(min(steps, length)):
        if path[i] == GOAL:
            ends[GOAL] = True
            return
    if length < steps:
        return
    for i in range(steps - 1, length):
        if not blocked(taken, loc, path[i]):
            ends[path[i]] = True
            return
    for i in range(steps - 2, -1, -1):
        if not blocked(taken, loc, path[i]):
            ends[path[i]] = True
            return


@kernel
def mark_ends(cfg, s, loc, steps, taken, ends):
    """Every route forward from ``loc`` (a depth-first walk with an explicit stack: numba
    cannot cache recursive kernels), each one's end marked in ``ends``."""
    path = np.empty(MAX_ROUTE, dtype=np.int64)
    node = np.empty(MAX_ROUTE * MAX_BRANCHES, dtype=np.int64)
    depth = np.empty(MAX_ROUTE * MAX_BRANCHES, dtype=np.int64)
    nxt = np.empty(MAX_BRANCHES, dtype=np.int64)
    top = 0
    for i in range(forward(cfg, s, loc, nxt)):
        node[top], depth[top] = nxt[i], 0
        top += 1
    while top > 0:
        top -= 1
        here, d = node[top], depth[top]
        path[d] = here
        count = forward(cfg, s, here, nxt)
        if count == 0:
            route_end(path, d + 1, loc, steps, taken, ends)
        for i in range(count):
            node[top], depth[top] = nxt[i], d + 1
            top += 1


@kernel
def find_moves(cfg, s, seat, steps, mask):
    """Count ``seat``'s legal moves by ``steps``; with a non-empty ``mask``, mark their
    actions there, else stop at the first (whether any exists)."""
    taken = np.zeros(NUM_LOCATIONS, dtype=np.int64)
    for i in range(cfg.num_players * cfg.monkeys):
        taken[s[cfg.seats + i]] += 1
    ends = np.zeros(NUM_LOCATIONS, dtype=np.bool_)
    base, found, prev = cfg.seats + seat * cfg.monkeys, 0, -1
    for i in range(cfg.monkeys):
        loc = s[base + i]
        if loc in (prev, GOAL):  # the block is sorted: equal fields are neighbours
            continue
        prev = loc
        ends[:] = False
        mark_ends(cfg, s, loc, steps, taken, ends)
        for end in range(NUM_LOCATIONS):
            if ends[end]:
                found += 1
                if mask.shape[0] == 0:
                    return found
                mask[MOVE_INDEX[loc, end]] = 1
    return found


@kernel
def any_move(cfg, s, seat, steps):
    return find_moves(cfg, s, seat, steps, np.zeros(0, dtype=np.int8)) > 0


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
        find_moves(cfg, s, s[cfg.player], s[cfg.steps], mask)


@kernel
def draw_from_counts(counts, u):
    """The reference's ``draw_from_counts`` for the uniform number ``u``."""
    total = 0
    for c in counts:
        total += c
    x, acc, last = u * total, 0, -1
    for index in range(counts.shape[0]):
        if counts[index]:
            acc += counts[index]
            last = index
            if x < acc:
                return index
    return last


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
        walk_lion(cfg, s, LION_END[action - LION_ACTION])
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
    """Walk the lion up its tree from where it stands, then down to ``end``, stopping at
    the first monkey (sent home, to the front of its sorted block)."""
    up = np.empty(NUM_LOCATIONS, dtype=np.int64)
    down = np.empty(NUM_LOCATIONS, dtype=np.int64)
    chain(s[cfg.lion], up)
    downs = chain(end, down)
    meet_up, meet_down = 0, downs
    while meet_down == downs:  # the first field up from the lion that is on end's chain
        meet_down = 0
        while meet_down < downs and down[meet_down] != up[meet_up]:
            meet_down += 1
        if meet_down == downs:
            meet_up += 1
    for k in range(1, meet_up + meet_down + 1):
        field = up[k] if k <= meet_up else down[meet_up + meet_down - k]
        s[cfg.lion] = field
        for i in range(cfg.num_players * cfg.monkeys):
            if s[cfg.seats + i] == field:
                base = cfg.seats + (i // cfg.monkeys) * cfg.monkeys
                for j in range(cfg.seats + i, base, -1):
                    s[j] = s[j - 1]
                s[base] = START
                return


@kernel(inline=True)
def chain(field, out):
    count = 0
    while field >= 0:
        out[count] = field
        count += 1
        field = LION_UP[field]
    return count


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
    best, winners = -1, 0
    for seat in range(cfg.num_players):
        best = max(best, home_count(cfg, s, seat))
    for seat in range(cfg.num_players):
        winners += home_count(cfg, s, seat) == best
    for seat in range(cfg.num_players):
        if home_count(cfg, s, seat) == best:
            out[seat] = 1.0 if winners == 1 else 0.0
        else:
            out[seat] = -1.0
