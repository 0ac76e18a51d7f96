"""Tropic Race observation: a flat float32 vector in [0, 1] from one seat's point of view.

Its layout is ``config.LAYOUT``, a table of named pieces (``docs/rules/tropic_race.md``
shows it), which every game's ``Config`` carries as ``layout``: all offsets below come from
it. The locations are in the order of ``tables.LOCATION_NAMES``. Seats are rotated so the
observer comes first: seat slot k is the seat k places after the observer in turn order.
The game has no hidden information, so ``decode`` gives back the position.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from jungle_envs.games.tropic_race import rules
from jungle_envs.games.tropic_race.config import (
    GAP_SPAN,
    MIN_PLAYERS,
    MOVE_FEATURES,
    PROGRESS_LOW,
    PROGRESS_SPAN,
    STANDING_SPAN,
    Config,
)
from jungle_envs.games.tropic_race.state import TropicRaceState
from jungle_envs.games.tropic_race.tables import (
    FAR_TURTLE,
    GAME_OVER,
    GOAL,
    LAND,
    LION,
    LION_ACTION,
    MOVE,
    MOVES,
    NEAR_TURTLE,
    NO_TILE,
    NUM_LOCATIONS,
    PUSH,
    ROLL,
    SLOT_BANK,
    SLOTS,
    START,
    THEN_STEP_ONE,
    TILE_TURTLES,
)

LAND_INDEX = {field: i for i, field in enumerate(LAND)}


def observe(config: Config, state: TropicRaceState, seat: int, out=None) -> np.ndarray:
    layout = config.layout
    obs = np.zeros(layout.size, dtype=np.float32) if out is None else out
    if out is not None:
        obs.fill(0.0)
    n = config.num_players
    monkeys_at = layout.offset("monkeys")
    for other in range(n):
        base = monkeys_at + ((other - seat) % n) * NUM_LOCATIONS
        for loc in state.monkeys[other]:
            obs[base + loc] += 1.0
    # count first, divide once: summing 1/monkeys in float32 can pass 1.0 (10 monkeys)
    obs[monkeys_at : monkeys_at + n * NUM_LOCATIONS] /= np.float32(config.monkeys_per_player)
    obs[layout.offset("lion") + LAND_INDEX[state.lion]] = 1.0
    river_at = layout.offset("river")
    for slot, kind in enumerate(state.slots):
        if kind != NO_TILE:
            near, far = TILE_TURTLES[kind]
            obs[river_at + 2 * slot] = near
            obs[river_at + 2 * slot + 1] = far
    total = sum(config.tile_mix)
    obs[layout["supply"]] = [c / total for c in state.supply]
    phase_at = layout.offset("phase")
    if state.phase == MOVE:
        obs[phase_at] = 1.0
        obs[layout.offset("steps") + state.steps - 1] = 1.0
    elif state.phase == LION:
        obs[phase_at + 1] = 1.0
    obs[layout.offset("players") + n - MIN_PLAYERS] = 1.0
    obs[layout["fields"]] = config.field_features
    if config.move_features and rules.current_player(config, state) == seat:
        write_move_features(config, state, seat, obs)
    return obs


def write_move_features(config: Config, state: TropicRaceState, seat: int, obs: np.ndarray) -> None:
    """The ``moves`` piece for the seat deciding now (see ``config.MOVE_FEATURES``). The
    standing and progress are the heuristic's, from the position it reads off this same
    observation, so a learner starts from what the heuristic knows."""
    view = decode(config, obs)  # the moves piece is still empty: decode ignores it
    actions = rules.legal_actions(config, state)
    standing = {action: standing_after(config, view, action) for action in actions}
    best = max(standing.values())
    slots = tuple(state.slots)
    dist = distances_to_goal(slots)
    per, moves = config.monkeys_per_player, config.layout.offset("moves")
    homes = [m.count(START) for m in state.monkeys]
    for action in actions:
        at = moves + action * MOVE_FEATURES
        obs[at] = 1.0
        if action >= LION_ACTION:
            obs[at + 1] = 1.0
        else:
            origin, end = MOVES[action]
            land = START if end == state.lion else end
            for column, loc in ((2, origin), (3, land)):
                worth = progress(loc, slots, dist)
                obs[at + column] = scaled(worth, PROGRESS_LOW, PROGRESS_SPAN)
        value = standing[action]
        obs[at + 4] = scaled(value, -STANDING_SPAN, 2 * STANDING_SPAN)
        obs[at + 5] = float(value == best)
        obs[at + 6] = min(best - value, GAP_SPAN) / GAP_SPAN
        child = state.copy()
        rules.apply_action(config, child, action)
        obs[at + 7] = float(child.phase == GAME_OVER)
        obs[at + 8] = float(child.monkeys[seat].count(GOAL) > state.monkeys[seat].count(GOAL))
        obs[at + 9] = float(child.phase == ROLL and child.player == seat)
        obs[at + 10] = float(child.phase == PUSH)
        sent = [m.count(START) - home for m, home in zip(child.monkeys, homes, strict=True)]
        obs[at + 11] = min(max(sent[seat], 0) / per, 1.0)
        rivals = sum(max(k, 0) for other, k in enumerate(sent) if other != seat)
        obs[at + 12] = min(rivals / per, 1.0)


def scaled(value: float, low: float, span: float) -> float:
    """``value`` from [low, low + span] to [0, 1], clipped."""
    return min(max(value - low, 0.0), span) / span


def decode(config: Config, observation: np.ndarray) -> TropicRaceState:
    """The state an observation shows, with the observer as seat 0 and on the move.

    Everything is public, so this is the real position up to the seat rotation. Takes a
    game's ``Config`` or the game itself.
    """
    config = getattr(config, "config", config)
    n, per = config.num_players, config.monkeys_per_player
    piece = config.layout.split(observation)
    counts = np.rint(piece["monkeys"] * per).astype(int)
    monkeys = [
        sorted(loc for loc in range(NUM_LOCATIONS) for _ in range(counts[s, loc])) for s in range(n)
    ]
    river = piece["river"] > 0.5
    slots = [TILE_TURTLES.index((bool(near), bool(far))) for near, far in river]
    total = sum(config.tile_mix)
    supply = np.rint(piece["supply"] * total).astype(int).tolist()
    steps_hot = piece["steps"]
    moving = piece["phase"][0] > 0.5
    return TropicRaceState(
        phase=MOVE if moving else LION if piece["phase"][1] > 0.5 else ROLL,
        player=0,
        monkeys=monkeys,
        lion=LAND[int(piece["lion"].argmax())],
        slots=slots,
        supply=supply,
        steps=int(steps_hot.argmax()) + 1 if moving else 0,
        then=THEN_STEP_ONE,
        volcano=False,
        rolls=0,
    )


# --- the heuristic's valuation (heuristic.py plays by it; move_features show it) ------------
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


def standing_after(config: Config, state: TropicRaceState, action: int) -> float:
    """Seat 0's standing after ``action`` in ``state`` (seat 0 on the move, as ``decode``
    gives it): pushes averaged over the tiles that may come, an extra turn counted."""
    child = state.copy()
    rules.apply_action(config, child, action)
    if child.phase == PUSH:
        event = rules.chance_event(config, child)
        total = 0.0
        for tile, p in event.distribution().items():
            pushed = child.copy()
            rules.apply_chance(config, pushed, tile)
            total += p * standing(config, pushed)
        return total
    extra_turn = child.phase == ROLL and child.player == 0
    bonus = EXTRA_TURN_VALUE if extra_turn else 0.0
    return standing(config, child) + bonus


def standing(config: Config, state: TropicRaceState) -> float:
    """Seat 0's standing: its progress minus the best opponent's."""
    if state.phase == GAME_OVER:
        winners = rules.winners(config, state)
        return WIN_VALUE if winners == [0] else -WIN_VALUE if 0 not in winners else 0.0
    slots = tuple(state.slots)
    dist = distances_to_goal(slots)
    totals = [sum(progress(loc, slots, dist) for loc in m) for m in state.monkeys]
    return totals[0] - max(totals[1:])


def progress(loc: int, slots: tuple[int, ...], dist: list[float]) -> float:
    """What a monkey on ``loc`` is worth (see the heuristic's docstring)."""
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
