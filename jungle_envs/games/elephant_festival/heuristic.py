"""Rule-based Elephant Festival policy: place the tile that raises the final score most.

It decodes its own ground from its observation (colours relative to its own, as the
actions name them), tries every legal placement with the engine's scoring function, and
keeps the one with the best final score, counting a little for elephants that keep room
to move. It passes, laying an elephant down for a point, only when every placement would
cost more than that point.
"""

from __future__ import annotations

import numpy as np

from jungle_envs.games.elephant_festival.config import Config
from jungle_envs.games.elephant_festival.encoding import decode
from jungle_envs.games.elephant_festival.rules import neighbour, placements, score
from jungle_envs.games.elephant_festival.tables import (
    ELEPHANTS,
    PASS_ACTION,
    PLACE_ACTIONS,
    STANDING_ELEPHANT_POINTS,
)

ROOM_VALUE = 0.05  # per free neighbouring cell left to the elephants after a move


class ElephantFestivalHeuristic:
    def __init__(self, config: Config) -> None:
        self.config = config

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng) -> int:
        ground, herd, _, passes = decode(self.config, observation)
        grid, start = self.config.grid, self.config.start_cell
        standing = ELEPHANTS - passes
        base = score(ground, 0, grid, standing)["total"]
        best_action, best_gain = PASS_ACTION, -float("inf")
        for action in np.flatnonzero(action_mask):
            if action == PASS_ACTION:
                continue
            kind, elephant, direction = PLACE_ACTIONS[action]
            cell = neighbour(herd[elephant], direction, grid)
            ground[cell].append(kind)
            moved = list(herd)
            moved[elephant] = cell
            gain = score(ground, 0, grid, standing)["total"] - base
            gain += ROOM_VALUE * len(placements(moved, start, grid))
            ground[cell].pop()
            if gain > best_gain:
                best_action, best_gain = int(action), gain
        if action_mask[PASS_ACTION] and best_gain < -STANDING_ELEPHANT_POINTS:
            return PASS_ACTION
        return best_action
