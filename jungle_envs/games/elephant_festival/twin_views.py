"""Elephant Festival's observation and heuristic as compiled kernels.

``observe`` writes exactly the vector of ``encoding.observe`` (same layout, same float32
values): it clears the vector once and then visits only occupied cells, found through each
ground's log. ``heuristic_action`` makes the choice of ``heuristic.ElephantFestivalHeuristic``
from what the deciding seat sees of itself (its ground, elephants and passes, the same
facts ``decode`` reads back from the observation). It scores the ground in absolute
colours with the seat as owner where the reference scores relative colours with owner 0:
renaming colours consistently (arches included) leaves every total unchanged.
"""

from __future__ import annotations

import numpy as np

from jungle_envs.core.compiled.jit import kernel
from jungle_envs.games.elephant_festival.encoding import (
    CELL_FEATURES,
    ELEPHANT_AT,
    MAX_SEATS,
    MIN_PLAYERS,
)
from jungle_envs.games.elephant_festival.heuristic import ROOM_VALUE
from jungle_envs.games.elephant_festival.tables import (
    ELEPHANTS,
    MAX_PASSES,
    MAX_SYMBOLS,
    NUM_COLORS,
    NUM_KINDS,
    PASS_ACTION,
    STANDING_ELEPHANT_POINTS,
    START_TILE,
    TYPES,
)
from jungle_envs.games.elephant_festival.twin_rules import (
    NUM_DIRECTIONS,
    SPOTS,
    absolute_kind,
    free_spots,
    relative_kind,
)
from jungle_envs.games.elephant_festival.twin_scoring import score_ground, scratch

SYMBOLS_AT = NUM_COLORS + 1
HEIGHT_AT = NUM_COLORS + 2


@kernel(inline=True)
def observe_cell(cfg, s, obs, other, seat, base, shift, cell):
    top = s[cfg.top + other * cfg.cells + cell]
    at = base + cell * CELL_FEATURES
    if top == START_TILE:
        obs[at + shift] = 1.0
        obs[at + NUM_COLORS] = 1.0
    else:
        obs[at + (top // TYPES - seat) % NUM_COLORS] = 1.0
        obs[at + SYMBOLS_AT] = (top % TYPES) / MAX_SYMBOLS
        obs[at + HEIGHT_AT] = s[cfg.height + other * cfg.cells + cell] / cfg.tiles_per_player


@kernel
def observe(cfg, s, seat, obs):
    obs[:] = 0.0
    n, cells = cfg.num_players, cfg.cells
    for other in range(n):
        base = ((other - seat) % n) * cells * CELL_FEATURES
        shift = (other - seat) % NUM_COLORS
        observe_cell(cfg, s, obs, other, seat, base, shift, cfg.start_cell)
        log = cfg.log_cell + other * cfg.log_size
        for i in range(s[cfg.placed + other]):  # a covered cell is written again, the same
            observe_cell(cfg, s, obs, other, seat, base, shift, s[log + i])
        for number in range(ELEPHANTS):
            cell = s[cfg.elephants + other * ELEPHANTS + number]
            obs[base + cell * CELL_FEATURES + ELEPHANT_AT + number] = 1.0
    at = MAX_SEATS * cells * CELL_FEATURES
    for kind in range(NUM_KINDS):
        rel = relative_kind(kind, seat)
        obs[at + rel] = s[cfg.display + kind] / n
        obs[at + NUM_KINDS + rel] = s[cfg.box + kind] / cfg.most
    at += 2 * NUM_KINDS
    obs[at] = s[cfg.bag] / cfg.bag_size
    at += 1
    for other in range(n):
        obs[at + (other - seat) % n] = s[cfg.passes + other] / MAX_PASSES
    obs[at + MAX_SEATS + (s[cfg.holder] - seat) % n] = 1.0
    obs[at + 2 * MAX_SEATS + n - MIN_PLAYERS] = 1.0


# --- the heuristic ----------------------------------------------------------------------------
@kernel(inline=True)
def room(cfg, first, second):
    """How many placements a herd has (``len(rules.placements(...))``)."""
    spots, count = free_spots(cfg, first, second), 0
    while spots:
        count += spots & 1
        spots >>= 1
    return count


@kernel
def heuristic_action(cfg, s, seat, obs, mask):
    """The placement whose final score plus room to move is highest, the first such in
    action order; a pass when allowed and every placement costs more than a standing
    elephant's point."""
    cells, log_size = cfg.cells, cfg.log_size
    top = s[cfg.top + seat * cells : cfg.top + (seat + 1) * cells].copy()
    height = s[cfg.height + seat * cells : cfg.height + (seat + 1) * cells].copy()
    log = s[cfg.log_cell + seat * log_size : cfg.log_cell + (seat + 1) * log_size]
    laid = s[cfg.placed + seat]
    standing = ELEPHANTS - s[cfg.passes + seat]
    mark, seen, best = scratch(cfg, 1)
    base = score_ground(cfg, top, height, seat, standing, log, laid, -1, mark, seen, best)
    herd = cfg.elephants + seat * ELEPHANTS
    best_action, best_gain = PASS_ACTION, -np.inf
    for action in range(PASS_ACTION):
        if not mask[action]:
            continue
        spot = action % SPOTS
        elephant, direction = spot // NUM_DIRECTIONS, spot % NUM_DIRECTIONS
        first, second = s[herd], s[herd + 1]
        if elephant == 0:
            cell = cfg.neighbours[first, direction]
            first = cell
        else:
            cell = cfg.neighbours[second, direction]
            second = cell
        covered = top[cell]
        top[cell] = absolute_kind(action // SPOTS, seat)
        height[cell] += 1
        total = score_ground(cfg, top, height, seat, standing, log, laid, cell, mark, seen, best)
        gain = float(total - base)
        gain += ROOM_VALUE * room(cfg, first, second)
        top[cell] = covered
        height[cell] -= 1
        if gain > best_gain:
            best_action, best_gain = action, gain
    if mask[PASS_ACTION] and best_gain < -STANDING_ELEPHANT_POINTS:
        return PASS_ACTION
    return best_action
