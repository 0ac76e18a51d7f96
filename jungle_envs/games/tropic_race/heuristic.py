"""Rule-based Tropic Race policy: one-ply lookahead with the engine's own rules.

The observation shows the whole position (the game has no secrets), so the policy decodes
it into a state, plays each legal action on a copy with the rules engine, and keeps the
action whose position is worth most: the progress of its own monkeys minus that of the
strongest opponent. Pushes are valued as the average over the tiles that may come.

A monkey's progress counts the steps it still needs to reach GOAL over the crossings the
river offers now. Monkeys on the tile in slot 5 (the next to leave), and monkeys stuck on
a near turtle without a far one, are worth little; an extra turn is worth a few steps.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from jungle_envs.games.tropic_race import rules
from jungle_envs.games.tropic_race.config import Config
from jungle_envs.games.tropic_race.encoding import decode
from jungle_envs.games.tropic_race.state import TropicRaceState
from jungle_envs.games.tropic_race.tables import (
    FAR_TURTLE,
    GAME_OVER,
    GOAL,
    NEAR_TURTLE,
    NUM_LOCATIONS,
    PUSH,
    ROLL,
    SLOT_BANK,
    SLOTS,
    START,
    TILE_TURTLES,
)

GOAL_VALUE = 30.0
HOME_BONUS = 10.0  # a monkey in the goal is safe for good: worth more than its last step
STEP_VALUE = 2.0
NO_CROSSING_PENALTY = 6.0  # steps a monkey waits for a bridge when none is reachable
LAST_SLOT_PENALTY = 10.0  # the tile in slot 5 leaves with the next push
TRAPPED_VALUE = 2.0  # a near turtle without a far one: it can only be pushed off
EXTRA_TURN_VALUE = 6.0
WIN_VALUE = 1000.0


def distances_to_goal(slots: tuple[int, ...]) -> list[float]:
    """Steps from every location to GOAL over the current river (inf if no way)."""
    back: list[list[int]] = [[] for _ in range(NUM_LOCATIONS)]
    for loc in range(NUM_LOCATIONS):
        for nxt in rules.forward(loc, slots):
            back[nxt].append(loc)
    dist = [float("inf")] * NUM_LOCATIONS
    dist[GOAL] = 0.0
    queue = deque([GOAL])
    while queue:
        loc = queue.popleft()
        for prev in back[loc]:
            if dist[prev] == float("inf"):
                dist[prev] = dist[loc] + 1
                queue.append(prev)
    return dist


def _bank_distances() -> list[float]:
    """Steps from every location to the nearest bank field that enters a slot."""
    dist = []
    for loc in range(NUM_LOCATIONS):
        best = float("inf")
        for route in rules.routes(loc, (0,) * SLOTS):  # every turtle present
            for k, field in enumerate(route):
                if field in SLOT_BANK:
                    best = min(best, k + 1.0)
                    break
        dist.append(0.0 if loc in SLOT_BANK else best)
    return dist


BANK_DISTANCE = _bank_distances()


class TropicRaceHeuristic:
    def __init__(self, config: Config) -> None:
        self.config = config

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng) -> int:
        state = decode(self.config, observation)
        best_value, best_action = -float("inf"), None
        for action in np.flatnonzero(action_mask):
            value = self.after(state, int(action))
            if value > best_value:
                best_value, best_action = value, int(action)
        return best_action

    def after(self, state: TropicRaceState, action: int) -> float:
        child = state.copy()
        rules.apply_action(self.config, child, action)
        if child.phase == PUSH:
            event = rules.chance_event(self.config, child)
            total = 0.0
            for tile, p in event.distribution().items():
                pushed = child.copy()
                rules.apply_chance(self.config, pushed, tile)
                total += p * self.value(pushed)
            return total
        extra_turn = child.phase == ROLL and child.player == 0
        bonus = EXTRA_TURN_VALUE if extra_turn else 0.0
        return self.value(child) + bonus

    def value(self, state: TropicRaceState) -> float:
        """Seat 0's standing: its progress minus the best opponent's."""
        if state.phase == GAME_OVER:
            winners = rules.winners(self.config, state)
            return WIN_VALUE if winners == [0] else -WIN_VALUE if 0 not in winners else 0.0
        slots = tuple(state.slots)
        dist = distances_to_goal(slots)
        totals = [sum(self.progress(loc, slots, dist) for loc in m) for m in state.monkeys]
        return totals[0] - max(totals[1:])

    def progress(self, loc: int, slots: tuple[int, ...], dist: list[float]) -> float:
        if loc == GOAL:
            return GOAL_VALUE + HOME_BONUS
        if loc in NEAR_TURTLE or loc in FAR_TURTLE:
            slot = (NEAR_TURTLE if loc in NEAR_TURTLE else FAR_TURTLE).index(loc)
            if loc in NEAR_TURTLE and not TILE_TURTLES[slots[slot]][1]:
                return TRAPPED_VALUE
            penalty = LAST_SLOT_PENALTY if slot == SLOTS - 1 else 0.0
            return GOAL_VALUE - STEP_VALUE * dist[loc] - penalty
        steps = dist[loc]
        if steps == float("inf"):
            steps = BANK_DISTANCE[loc] + NO_CROSSING_PENALTY
        value = GOAL_VALUE - STEP_VALUE * steps
        return value if loc != START else value - STEP_VALUE
