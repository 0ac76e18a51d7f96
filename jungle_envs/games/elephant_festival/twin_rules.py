"""Elephant Festival rules as compiled kernels over a state row (see ``twin.py`` for the layout).

The same steps, in the same order, as ``rules.py``; the differential tests drive both with
the same chance outcomes and decisions and compare every state. Legal placements are
computed once per seat as a bit set of the eight (elephant, direction) spots, which the
mask then spreads over the face-up kinds.
"""

from __future__ import annotations

from jungle_envs.core.compiled.contract import CHANCE, TERMINAL
from jungle_envs.core.compiled.jit import kernel
from jungle_envs.core.compiled.rng import draw_from_counts
from jungle_envs.games.elephant_festival.tables import (
    DIRECTIONS,
    DRAW_TILE,
    ELEPHANTS,
    GAME_OVER,
    MAX_PASSES,
    NUM_COLORS,
    NUM_KINDS,
    PASS_ACTION,
    PLACE,
    START_TILE,
    TYPES,
)

NUM_DIRECTIONS = len(DIRECTIONS)
SPOTS = ELEPHANTS * NUM_DIRECTIONS  # placements per tile kind in the action space


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


@kernel(inline=True)
def spot_cell(cfg, mine, other, direction):
    """The cell a tile goes to beside the elephant on ``mine``, or -1 where it may not:
    off the ground, the start tile, or under the other elephant."""
    cell = cfg.neighbours[mine, direction]
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
def apply_chance(cfg, s, kind):
    s[cfg.box + kind] -= 1
    s[cfg.bag] -= 1
    s[cfg.display + kind] += 1
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
        cell = cfg.neighbours[s[at], spot % NUM_DIRECTIONS]
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
