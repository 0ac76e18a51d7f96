"""Tropic Race's heuristic as compiled kernels (mirrors heuristic.py).

``heuristic_action`` makes the choice of ``heuristic.TropicRaceHeuristic``: the
reference decodes the observation into the position seen from the deciding seat (that
seat first and on the move) and plays each legal action on a copy; the kernel builds the
same position on a scratch row from the state (the game has no secrets, and within the
sizes ``compiled/state.py``'s ``make_twin_config`` admits the decoding is exact) and plays
each action with the rule kernels. All progress values are whole numbers, so only the push
averages round, and they are summed in the reference's order.
"""

from __future__ import annotations

import numpy as np

from jungle_envs.core.compiled import contract
from jungle_envs.core.compiled.arrays import copy_into
from jungle_envs.core.compiled.jit import kernel
from jungle_envs.games.tropic_race.compiled.board import TILE_FAR, distance_to_goal
from jungle_envs.games.tropic_race.compiled.rules import (
    KINDS,
    home_count,
    location_table,
)
from jungle_envs.games.tropic_race.encoding import (
    BANK_DISTANCE,
    EXTRA_TURN_VALUE,
    GOAL_VALUE,
    HOME_BONUS,
    LAST_SLOT_PENALTY,
    NO_CROSSING_PENALTY,
    STEP_VALUE,
    TRAPPED_VALUE,
    WIN_VALUE,
)
from jungle_envs.games.tropic_race.tables import (
    FAR_TURTLE,
    GAME_OVER,
    GOAL,
    LION,
    MOVE,
    NEAR_TURTLE,
    PUSH,
    ROLL,
    SLOTS,
    START,
    THEN_STEP_ONE,
)

NEAR_SLOT = location_table((loc, slot) for slot, loc in enumerate(NEAR_TURTLE))
FAR_SLOT = location_table((loc, slot) for slot, loc in enumerate(FAR_TURTLE))
BANK_STEPS = np.array(BANK_DISTANCE, dtype=np.float64)


@kernel
def seen_from(cfg, s, seat, view):
    """Write into ``view`` the position ``encoding.decode`` gives ``seat``: seats rotated
    so it comes first, on the move, with what decoding cannot know (``then``,
    ``volcano``, ``rolls``) reset."""
    copy_into(view, s)
    n, per = cfg.num_players, cfg.monkeys
    for k in range(n):
        source = cfg.seats + ((seat + k) % n) * per
        for i in range(per):
            view[cfg.seats + k * per + i] = s[source + i]
    if s[cfg.phase] != MOVE and s[cfg.phase] != LION:
        view[cfg.phase], view[cfg.steps] = ROLL, 0
    view[cfg.player], view[cfg.then] = 0, THEN_STEP_ONE
    view[cfg.volcano], view[cfg.rolls] = 0, 0


@kernel
def heuristic_action(cfg, s, seat, obs, mask):
    # One allocation per call: the decoded view and the look-ahead rows (reused per action).
    rows = np.empty((3, s.shape[0]), dtype=s.dtype)
    view, child, pushed = rows[0], rows[1], rows[2]
    seen_from(cfg, s, seat, view)
    best_value, best_action = -np.inf, -1
    for action in range(mask.shape[0]):
        if mask[action]:
            value = after(cfg, view, child, pushed, action)
            if value > best_value:  # the first of equal values, as the reference
                best_value, best_action = value, action
    return best_action


@kernel
def after(cfg, view, child, pushed, action):
    copy_into(child, view)
    contract.apply_action(cfg, child, action)
    if child[cfg.phase] == PUSH:  # the average over the tiles the push may draw
        left = 0
        for kind in range(KINDS):
            left += child[cfg.supply + kind]
        total = 0.0
        for kind in range(KINDS):
            count = child[cfg.supply + kind]
            if count > 0:
                copy_into(pushed, child)
                contract.apply_chance(cfg, pushed, kind)
                total += (count / left) * value(cfg, pushed)
        return total
    extra_turn = child[cfg.phase] == ROLL and child[cfg.player] == 0
    return value(cfg, child) + (EXTRA_TURN_VALUE if extra_turn else 0.0)


@kernel
def value(cfg, s):
    """Seat 0's standing: its progress minus the best opponent's."""
    if s[cfg.phase] == GAME_OVER:
        best, winners = -1, 0
        for seat in range(cfg.num_players):
            best = max(best, home_count(cfg, s, seat))
        for seat in range(cfg.num_players):
            winners += home_count(cfg, s, seat) == best
        if home_count(cfg, s, 0) != best:
            return -WIN_VALUE
        return WIN_VALUE if winners == 1 else 0.0
    mine, rival = 0.0, -np.inf
    for seat in range(cfg.num_players):
        total = 0.0
        base, prev, worth = cfg.seats + seat * cfg.monkeys, -1, 0.0
        for i in range(cfg.monkeys):
            loc = s[base + i]
            if loc != prev:  # the block is sorted: equal fields are neighbours
                prev, worth = loc, progress(cfg, s, loc)
            total += worth
        if seat == 0:
            mine = total
        else:
            rival = max(rival, total)
    return mine - rival


@kernel
def progress(cfg, s, loc):
    if loc == GOAL:
        return GOAL_VALUE + HOME_BONUS
    near, far = NEAR_SLOT[loc], FAR_SLOT[loc]
    if near >= 0 or far >= 0:
        slot = near if near >= 0 else far
        if near >= 0 and not TILE_FAR[s[cfg.slots + slot]]:
            return TRAPPED_VALUE
        penalty = LAST_SLOT_PENALTY if slot == SLOTS - 1 else 0.0
        return GOAL_VALUE - STEP_VALUE * distance_to_goal(cfg, s, loc) - penalty
    steps = distance_to_goal(cfg, s, loc)
    if steps == np.inf:
        steps = BANK_STEPS[loc] + NO_CROSSING_PENALTY
    worth = GOAL_VALUE - STEP_VALUE * steps
    return worth if loc != START else worth - STEP_VALUE
