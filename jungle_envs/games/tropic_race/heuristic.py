"""Rule-based Tropic Race policy: one-ply lookahead with the engine's own rules.

The observation shows the whole position (the game has no secrets), so the policy decodes
it into a state, plays each legal action on a copy with the rules engine, and keeps the
action whose position is worth most: the progress of its own monkeys minus that of the
strongest opponent (``encoding.standing_after``, which the ``move_features`` option shows
a learner too). Pushes are valued as the average over the tiles that may come.

A monkey's progress counts the steps it still needs to reach GOAL over the crossings the
river offers now. Monkeys on the tile in slot 5 (the next to leave), and monkeys stuck on
a near turtle without a far one, are worth little; an extra turn is worth a few steps.
"""

from __future__ import annotations

import numpy as np

from jungle_envs.games.tropic_race.config import Config
from jungle_envs.games.tropic_race.encoding import decode, standing_after


class TropicRaceHeuristic:
    def __init__(self, config: Config) -> None:
        self.config = config

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng) -> int:
        state = decode(self.config, observation)
        best_value, best_action = -float("inf"), None
        for action in np.flatnonzero(action_mask):
            value = standing_after(self.config, state, int(action))
            if value > best_value:
                best_value, best_action = value, int(action)
        return best_action
