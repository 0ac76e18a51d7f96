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
from jungle_envs.games.elephant_festival.compiled.rules import placement_values
from jungle_envs.games.elephant_festival.heuristic import ROOM_VALUE
from jungle_envs.games.elephant_festival.tables import (
    PASS_ACTION,
    STANDING_ELEPHANT_POINTS,
)


@kernel
def heuristic_action(cfg, s, seat, obs, mask):
    """The placement whose final score plus room to move is highest, the first such in
    action order; a pass when allowed and every placement costs more than a standing
    elephant's point."""
    gains = np.zeros(PASS_ACTION, dtype=np.int64)
    rooms = np.zeros(PASS_ACTION, dtype=np.int64)
    placement_values(cfg, s, seat, mask, gains, rooms)
    best_action, best_gain = PASS_ACTION, -np.inf
    for action in range(PASS_ACTION):
        if not mask[action]:
            continue
        gain = float(gains[action])
        gain += ROOM_VALUE * rooms[action]
        if gain > best_gain:
            best_action, best_gain = action, gain
    if mask[PASS_ACTION] and best_gain < -STANDING_ELEPHANT_POINTS:
        return PASS_ACTION
    return best_action
