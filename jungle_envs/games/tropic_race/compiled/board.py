"""Tropic Race's board kernels: mirrors the board functions of rules.py (``forward``,
``routes``, ``targets``, ``lion_path``) with the fixed board as lookup tables, and the
movement kernels that read them.

The reference walks every route forward from a monkey on each call (``rules.routes``).
Here the routes are laid out once: the land is a tree, so from any field there is at most
one route to each river slot, and on the widest board (every turtle present) each route
ends in GOAL. The tiles in play only cut a route short: without the near turtle at slot
``i`` the route ends on its bank field if that field has no land step onward (B1, B9),
else it is no route at all (the land routes go on); without the far turtle it ends on the
near turtle. So a move is a few table reads, with no recursion, no search and no arrays
allocated per call; the monkeys' fields are one bit mask.
"""

from __future__ import annotations

import numpy as np

from jungle_envs.core.compiled.jit import kernel
from jungle_envs.games.tropic_race.rules import lion_path, routes
from jungle_envs.games.tropic_race.tables import (
    FAR_BANK,
    FAR_TURTLE,
    GOAL,
    LAND,
    LAND_STEPS,
    LION_ENDS,
    NEAR_TURTLE,
    NUM_LOCATIONS,
    SLOT_BANK,
    SLOTS,
    START,
    TILE_TURTLES,
)

TILE_NEAR = np.array([near for near, _ in TILE_TURTLES], dtype=np.int64)
TILE_FAR = np.array([far for _, far in TILE_TURTLES], dtype=np.int64)
MAX_ROUTE = 16  # START to GOAL is 12 steps
# Fields never blocked: START and GOAL hold any number of monkeys.
SHARED_FIELDS = (1 << START) | (1 << GOAL)


def route_tables():
    """ROUTE[loc, slot] lists the widest board's route from ``loc`` over ``slot``
    (``loc`` excluded) in its first ROUTE_LEN[loc, slot] cells (0: no such route);
    NEAR_POS / FAR_POS give where its near / far turtle lies on it (-1: behind ``loc``)."""
    route = np.full((NUM_LOCATIONS, SLOTS, MAX_ROUTE), -1, dtype=np.int64)
    length = np.zeros((NUM_LOCATIONS, SLOTS), dtype=np.int64)
    near_pos = np.full((NUM_LOCATIONS, SLOTS), -1, dtype=np.int64)
    far_pos = np.full((NUM_LOCATIONS, SLOTS), -1, dtype=np.int64)
    widest = (0,) * SLOTS  # bridges everywhere
    for loc in range(NUM_LOCATIONS):
        for path in routes(loc, widest):
            if not path:  # GOAL: nowhere to go
                continue
            assert path[-1] == GOAL
            slot = next(i for i in range(SLOTS) if FAR_BANK[i] in (loc, *path))
            assert length[loc, slot] == 0, "one route per slot"
            route[loc, slot, : len(path)] = path
            length[loc, slot] = len(path)
            if NEAR_TURTLE[slot] in path:
                near_pos[loc, slot] = path.index(NEAR_TURTLE[slot])
            if FAR_TURTLE[slot] in path:
                far_pos[loc, slot] = path.index(FAR_TURTLE[slot])
    return route, length, near_pos, far_pos


ROUTE, ROUTE_LEN, NEAR_POS, FAR_POS = route_tables()
# Whether the bank field entering a slot is a dead end without its near turtle.
DEAD_BANK = np.array([not LAND_STEPS.get(bank) for bank in SLOT_BANK], dtype=np.int64)


def lion_tables():
    """LION_WALK[from, k]: the fields the lion walks from ``from`` to LION_ENDS[k] (its
    own field excluded), LION_WALK_LEN[from, k] of them (``rules.lion_path``)."""
    walk = np.full((NUM_LOCATIONS, len(LION_ENDS), NUM_LOCATIONS), -1, dtype=np.int64)
    walk_len = np.zeros((NUM_LOCATIONS, len(LION_ENDS)), dtype=np.int64)
    for field in LAND:
        for k, end in enumerate(LION_ENDS):
            path = lion_path(field, end)
            walk[field, k, : len(path)] = path
            walk_len[field, k] = len(path)
    return walk, walk_len


LION_WALK, LION_WALK_LEN = lion_tables()


# --- kernels (pure: they read the row, never write it) --------------------------------
@kernel(inline=True)
def occupied(cfg, s):
    """Bit ``f`` set when a monkey of any seat stands on field ``f`` (START and GOAL
    left out: they never block)."""
    bits = np.int64(0)
    for i in range(cfg.num_players * cfg.monkeys):
        bits |= np.int64(1) << s[cfg.seats + i]
    return bits & ~np.int64(SHARED_FIELDS)


@kernel(inline=True)
def route_length(cfg, s, loc, slot):
    """How much of ROUTE[loc, slot] the tiles in play let a monkey walk (0: no route)."""
    length = ROUTE_LEN[loc, slot]
    if length == 0:
        return 0
    kind = s[cfg.slots + slot]
    near = NEAR_POS[loc, slot]
    if near >= 0 and not TILE_NEAR[kind]:
        return near if DEAD_BANK[slot] else 0
    far = FAR_POS[loc, slot]
    if far >= 0 and not TILE_FAR[kind]:
        return far
    return length


@kernel
def move_end(cfg, s, loc, slot, steps, taken):
    """Where a monkey at ``loc`` ends a move of ``steps`` along the route over ``slot``
    (``rules.targets`` for one route), or -1. ``taken`` is ``occupied``; a route never
    holds its own start, so the mover never blocks itself."""
    length = route_length(cfg, s, loc, slot)
    if length == 0:
        return -1
    if length <= steps and ROUTE[loc, slot, length - 1] == GOAL:
        return GOAL  # reaching GOAL ends a move early
    if length < steps:
        return -1
    for i in range(steps - 1, length):
        field = ROUTE[loc, slot, i]
        if not (taken >> field) & 1:
            return field
    for i in range(steps - 2, -1, -1):
        field = ROUTE[loc, slot, i]
        if not (taken >> field) & 1:
            return field
    return -1


@kernel
def distance_to_goal(cfg, s, loc):
    """Steps from ``loc`` to GOAL over the tiles in play (inf if no way): every way to
    GOAL is a whole route, so the shortest is the shortest uncut one."""
    if loc == GOAL:
        return 0.0
    best = np.inf
    for slot in range(SLOTS):
        length = ROUTE_LEN[loc, slot]
        if length > 0 and route_length(cfg, s, loc, slot) == length and length < best:
            best = float(length)
    return best
