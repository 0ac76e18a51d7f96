"""Elephant Festival rules as compiled kernels over a state row (mirrors ``rules.py``; the
row's layout is in ``compiled/state.py``).

The same steps, in the same order, as ``rules.py``; the differential tests drive both with
the same chance outcomes and decisions and compare every state. Legal placements are
computed once per seat as a bit set of the eight (elephant, direction) spots, which the
mask then spreads over the face-up kinds.

The final scoring computes ``rules.score``'s total, exactly. Only the total is needed
(``scores``, ``returns`` and the heuristic read nothing else), and it has a short form. Per
colour, keeping the best fields by symbols + arch + 2 per tile (the start tile's field
first, then one more of the owner's colour, one of any other) and paying 2 per removed tile
comes to the kept fields' values minus 2 per tile of the colour; summed over colours, minus
2 per tile on the ground. So a colour needs only its best field's value and the owner's
colour also its start field's; which of two equal fields is kept changes the score lines,
never the total.

Fields are found by a flood fill from the occupied cells only (the start cell, the
ground's log and one cell a tile is being tried on), with a caller's scratch marks that
the fill leaves cleared, so one score costs the ground's tiles, not the grid.
"""

from __future__ import annotations

import numpy as np

from jungle_envs.core.compiled.contract import CHANCE, TERMINAL
from jungle_envs.core.compiled.jit import kernel
from jungle_envs.core.compiled.results import returns_from_keys
from jungle_envs.core.compiled.rng import draw_from_counts
from jungle_envs.games.elephant_festival.tables import (
    ARCH_POINTS,
    DIRECTIONS,
    DRAW_TILE,
    ELEPHANTS,
    GAME_OVER,
    MAX_PASSES,
    MISSING_COLOR_POINTS,
    NUM_COLORS,
    NUM_KINDS,
    PASS_ACTION,
    PLACE,
    REMOVED_TILE_POINTS,
    STANDING_ELEPHANT_POINTS,
    START_TILE,
    SYMBOL_POINTS,
    TYPES,
)

NUM_DIRECTIONS = len(DIRECTIONS)
SPOTS = ELEPHANTS * NUM_DIRECTIONS  # placements per tile kind in the action space
NO_FIELD = -(1 << 40)  # below any field's value


# --- reading the row ------------------------------------------------------------------------
@kernel(inline=True)
def seat_to_act(cfg, s):
    return (s[cfg.holder] + s[cfg.turn]) % cfg.num_players


@kernel(inline=True)
def relative_kind(kind, seat):
    return ((kind // TYPES - seat) % NUM_COLORS) * TYPES + kind % TYPES


@kernel(inline=True)
def absolute_kind(relative, seat):
    return ((relative // TYPES + seat) % NUM_COLORS) * TYPES + relative % TYPES


ROW_STEP = np.array([step for step, _ in DIRECTIONS], dtype=np.int64)
COL_STEP = np.array([step for _, step in DIRECTIONS], dtype=np.int64)


@kernel(inline=True)
def neighbour(cfg, cell, direction):
    """``rules.neighbour_table``'s entry, computed: as a table in the config it would be an
    array, and an array in the config costs every kernel call a reference count."""
    row = cell // cfg.grid + ROW_STEP[direction]
    col = cell % cfg.grid + COL_STEP[direction]
    if 0 <= row < cfg.grid and 0 <= col < cfg.grid:
        return row * cfg.grid + col
    return -1


@kernel(inline=True)
def spot_cell(cfg, mine, other, direction):
    """The cell a tile goes to beside the elephant on ``mine``, or -1 where it may not:
    off the ground, the start tile, or under the other elephant."""
    cell = neighbour(cfg, mine, direction)
    if cell < 0 or cell == cfg.start_cell or cell == other:
        return -1
    return cell


@kernel
def free_spots(cfg, first, second):
    """Bit ``elephant * 4 + direction`` set for every legal placement of a herd."""
    bits = 0
    for d in range(NUM_DIRECTIONS):
        if spot_cell(cfg, first, second, d) >= 0:
            bits |= 1 << d
        if spot_cell(cfg, second, first, d) >= 0:
            bits |= 1 << (NUM_DIRECTIONS + d)
    return bits


@kernel(inline=True)
def herd_spots(cfg, s, seat):
    at = cfg.elephants + seat * ELEPHANTS
    return free_spots(cfg, s[at], s[at + 1])


@kernel
def has_action(cfg, s, seat):
    if s[cfg.passes + seat] < MAX_PASSES:
        return True
    for kind in range(NUM_KINDS):
        if s[cfg.display + kind]:
            return herd_spots(cfg, s, seat) != 0
    return False


# --- the state machine ------------------------------------------------------------------------
@kernel
def init_state(cfg, s):
    s[:] = 0
    cells, start = cfg.cells, cfg.start_cell
    for seat in range(cfg.num_players):
        s[cfg.top + seat * cells + start] = START_TILE
        s[cfg.height + seat * cells + start] = 1
        for e in range(ELEPHANTS):
            s[cfg.elephants + seat * ELEPHANTS + e] = start
    for kind in range(NUM_KINDS):
        s[cfg.box + kind] = cfg.tile_counts[kind]
    s[cfg.bag] = cfg.bag_size
    start_round(cfg, s)


@kernel
def current_player(cfg, s):
    phase = s[cfg.phase]
    if phase == PLACE:
        return seat_to_act(cfg, s)
    if phase == GAME_OVER:
        return TERMINAL
    return CHANCE


@kernel
def legal_mask(cfg, s, mask):
    mask[:] = 0
    if s[cfg.phase] != PLACE:
        return
    seat = seat_to_act(cfg, s)
    spots = herd_spots(cfg, s, seat)
    if spots:
        for kind in range(NUM_KINDS):
            if s[cfg.display + kind]:
                at = relative_kind(kind, seat) * SPOTS
                for spot in range(SPOTS):
                    if (spots >> spot) & 1:
                        mask[at + spot] = 1
    if s[cfg.passes + seat] < MAX_PASSES:
        mask[PASS_ACTION] = 1


@kernel
def sample_chance(cfg, s, u):
    return draw_from_counts(s[cfg.box : cfg.box + NUM_KINDS], u)


@kernel
def apply_chance(cfg, s, outcome):  # the outcome: the kind of the drawn symbol
    s[cfg.box + outcome] -= 1
    s[cfg.bag] -= 1
    s[cfg.display + outcome] += 1
    s[cfg.draws_left] -= 1
    if s[cfg.draws_left] == 0:
        s[cfg.phase], s[cfg.turn] = PLACE, 0
        skip_idle(cfg, s)


@kernel
def apply_action(cfg, s, action):
    seat = seat_to_act(cfg, s)
    if action == PASS_ACTION:
        s[cfg.passes + seat] += 1  # one more elephant lies down
    else:
        spot = action % SPOTS
        kind = absolute_kind(action // SPOTS, seat)
        at = cfg.elephants + seat * ELEPHANTS + spot // NUM_DIRECTIONS
        cell = neighbour(cfg, s[at], spot % NUM_DIRECTIONS)
        s[cfg.display + kind] -= 1
        lay(cfg, s, seat, cell, kind)
        s[at] = cell
    s[cfg.turn] += 1
    skip_idle(cfg, s)


@kernel
def lay(cfg, s, seat, cell, kind):
    """Put a tile on top of ``cell`` of ``seat``'s ground and log it."""
    s[cfg.top + seat * cfg.cells + cell] = kind
    s[cfg.height + seat * cfg.cells + cell] += 1
    laid = s[cfg.placed + seat]
    s[cfg.log_cell + seat * cfg.log_size + laid] = cell
    s[cfg.log_kind + seat * cfg.log_size + laid] = kind
    s[cfg.placed + seat] = laid + 1


@kernel
def skip_idle(cfg, s):
    """Pass over players with nothing to do; end the round when everyone has acted."""
    n = cfg.num_players
    while s[cfg.turn] < n and not has_action(cfg, s, seat_to_act(cfg, s)):
        s[cfg.turn] += 1
    if s[cfg.turn] < n:
        return
    for kind in range(NUM_KINDS):  # tiles nobody took leave the game
        s[cfg.discarded + kind] += s[cfg.display + kind]
        s[cfg.display + kind] = 0
    s[cfg.holder] = (s[cfg.holder] + 1) % n
    start_round(cfg, s)


@kernel
def start_round(cfg, s):
    bag = s[cfg.bag]
    if bag == 0:
        s[cfg.phase] = GAME_OVER
        return
    s[cfg.draws_left] = min(cfg.num_players, bag)
    s[cfg.phase], s[cfg.turn] = DRAW_TILE, 0


# --- the final scoring (rules.score's total) ------------------------------------------------
@kernel(inline=True)
def color_of(code, owner):
    return owner if code == START_TILE else code // TYPES


@kernel
def score_ground(cfg, top, height, owner, standing, log, laid, extra, mark, seen, best):
    """The final score's total of one ground: ``top``/``height`` per cell, occupied cells
    among the start cell, ``log[:laid]`` and ``extra`` (-1: none). The rest is scratch from
    ``scratch``; ``mark`` is left clear."""
    start = cfg.start_cell
    best[:] = NO_FIELD  # per colour, its best field without the start tile
    start_value, tiles, written = 0, 0, 0
    for i in range(laid + 2):
        first = start if i == 0 else (log[i - 1] if i <= laid else extra)
        if first < 0 or mark[first]:
            continue
        color = color_of(top[first], owner)
        facing = (color - owner - 1) % NUM_COLORS  # the arch of this colour, if any
        arch = neighbour(cfg, start, facing) if facing < NUM_DIRECTIONS else -1
        mark[first] = 1
        seen[written] = first
        read, written = written, written + 1
        size, value, has_start = 0, 0, False
        while read < written:
            cell = seen[read]
            read += 1
            if cell == start:
                has_start = True
            else:
                size += height[cell]
                value += (top[cell] % TYPES) * SYMBOL_POINTS
            if cell == arch:
                value += ARCH_POINTS
            for d in range(NUM_DIRECTIONS):
                nxt = neighbour(cfg, cell, d)
                if nxt < 0 or mark[nxt] or height[nxt] == 0:
                    continue
                if color_of(top[nxt], owner) == color:
                    mark[nxt] = 1
                    seen[written] = nxt
                    written += 1
        value -= REMOVED_TILE_POINTS * size
        tiles += size
        if has_start:
            start_value = value
        elif value > best[color]:
            best[color] = value
    for i in range(written):
        mark[seen[i]] = 0
    total = standing * STANDING_ELEPHANT_POINTS + start_value + REMOVED_TILE_POINTS * tiles
    for color in range(NUM_COLORS):
        if best[color] > NO_FIELD:
            total += best[color]
        elif color != owner:
            total += MISSING_COLOR_POINTS
    return total


@kernel
def scratch(cfg, extra):
    """Scratch for ``score_ground``: marks per cell (clear), room for every occupied cell
    of a ground with ``extra`` tiles more than its log holds, a value per colour."""
    mark = np.zeros(cfg.cells, dtype=np.uint8)
    seen = np.empty(cfg.log_size + 1 + extra, dtype=np.int64)
    return mark, seen, np.empty(NUM_COLORS, dtype=np.int64)


@kernel
def seat_score(cfg, s, seat, mark, seen, best):
    cells, log_size = cfg.cells, cfg.log_size
    at, log = seat * cells, cfg.log_cell + seat * log_size
    return score_ground(
        cfg,
        s[cfg.top + at : cfg.top + at + cells],
        s[cfg.height + at : cfg.height + at + cells],
        seat,
        ELEPHANTS - s[cfg.passes + seat],
        s[log : log + log_size],
        s[cfg.placed + seat],
        -1,
        mark,
        seen,
        best,
    )


@kernel
def seat_scores(cfg, s, out):
    mark, seen, best = scratch(cfg, 0)
    for seat in range(cfg.num_players):
        out[seat] = seat_score(cfg, s, seat, mark, seen, best)


# ``scores`` and ``returns`` both call ``seat_scores``: a contract kernel is compiled in the
# generic's place, so one kernel calling another directly would compile it twice.
@kernel
def scores(cfg, s, out):
    seat_scores(cfg, s, out)


@kernel
def returns(cfg, s, out):
    out[:] = 0.0
    if s[cfg.phase] != GAME_OVER:
        return
    totals = np.zeros(cfg.num_players)
    seat_scores(cfg, s, totals)
    returns_from_keys(totals, out)


# --- what each placement would do (the heuristic and the move features) --------------------
@kernel(inline=True)
def room(cfg, first, second):
    """How many placements a herd has (``len(rules.placements(...))``)."""
    spots, count = free_spots(cfg, first, second), 0
    while spots:
        count += spots & 1
        spots >>= 1
    return count


@kernel
def placement_values(cfg, s, seat, mask, gains, rooms):
    """``rules.placement_values``: for each placement ``mask`` allows, the change of the
    seat's final score (``gains``) and the placements its herd has after it (``rooms``)."""
    cells, log_size = cfg.cells, cfg.log_size
    top = s[cfg.top + seat * cells : cfg.top + (seat + 1) * cells].copy()
    height = s[cfg.height + seat * cells : cfg.height + (seat + 1) * cells].copy()
    log = s[cfg.log_cell + seat * log_size : cfg.log_cell + (seat + 1) * log_size]
    laid = s[cfg.placed + seat]
    standing = ELEPHANTS - s[cfg.passes + seat]
    mark, seen, best = scratch(cfg, 1)
    base = score_ground(cfg, top, height, seat, standing, log, laid, -1, mark, seen, best)
    herd = cfg.elephants + seat * ELEPHANTS
    for action in range(PASS_ACTION):
        if not mask[action]:
            continue
        spot = action % SPOTS
        elephant, direction = spot // NUM_DIRECTIONS, spot % NUM_DIRECTIONS
        first, second = s[herd], s[herd + 1]
        if elephant == 0:
            cell = neighbour(cfg, first, direction)
            first = cell
        else:
            cell = neighbour(cfg, second, direction)
            second = cell
        covered = top[cell]
        top[cell] = absolute_kind(action // SPOTS, seat)
        height[cell] += 1
        gains[action] = (
            score_ground(cfg, top, height, seat, standing, log, laid, cell, mark, seen, best) - base
        )
        rooms[action] = room(cfg, first, second)
        top[cell] = covered
        height[cell] -= 1
