"""Elephant Festival's heuristic as a compiled kernel (mirrors ``heuristic.py``).

``heuristic_action`` makes the choice of ``heuristic.ElephantFestivalHeuristic`` from what
the deciding seat sees of itself (its ground, elephants and passes, the same facts
``decode`` reads back from the observation). It scores the ground in absolute colours with
the seat as owner where the reference scores relative colours with owner 0: renaming
colours consistently (arches included) leaves every total unchanged.
"""

from __future__ import annotations

import numpy as np

from jungle_envs.core.compiled.jit import kernel
from jungle_envs.games.elephant_festival.compiled.rules import (
    NUM_DIRECTIONS,
    SPOTS,
    absolute_kind,
    free_spots,
    score_ground,
    scratch,
)
from jungle_envs.games.elephant_festival.heuristic import ROOM_VALUE
from jungle_envs.games.elephant_festival.tables import (
    ELEPHANTS,
    PASS_ACTION,
    STANDING_ELEPHANT_POINTS,
)


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
