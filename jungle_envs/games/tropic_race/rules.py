"""Tropic Race rules engine: functions over a ``TropicRaceState`` and the game's ``Config``.

No Gymnasium here. Movement is computed on a board (the river tiles in their slots and
who stands where), so the heuristic can look ahead with exactly these functions.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from jungle_envs.core.game import CHANCE, TERMINAL, ChanceEvent, draw_from_counts
from jungle_envs.core.state import StateError
from jungle_envs.games.tropic_race.config import Config
from jungle_envs.games.tropic_race.state import TropicRaceState
from jungle_envs.games.tropic_race.state import validate as validate_state
from jungle_envs.games.tropic_race.tables import (
    ACTION_NAMES,
    ARROW_CODE,
    FAR_BANK,
    FAR_TURTLE,
    GAME_OVER,
    GOAL,
    LAND_STEPS,
    LAY_TILE,
    LION,
    LION_ACTION,
    LION_CODE,
    LION_ENDS,
    LION_PARENT,
    MOVE,
    MOVE_INDEX,
    MOVES,
    NEAR_TURTLE,
    NO_TILE,
    PICK_START,
    PUSH,
    ROLL,
    SLOT_BANK,
    SLOTS,
    START,
    THEN_END_TURN,
    THEN_STEP_ONE,
    TILE_TURTLES,
)


# --- the board (pure) -------------------------------------------------------------------
def forward(loc: int, slots: tuple[int, ...]) -> tuple[int, ...]:
    """Fields one step ahead of ``loc``; turtle steps need the turtle on its tile."""
    steps = LAND_STEPS.get(loc, ())
    if loc in SLOT_BANK:
        slot = SLOT_BANK.index(loc)
        if slots[slot] != NO_TILE and TILE_TURTLES[slots[slot]][0]:
            steps = (*steps, NEAR_TURTLE[slot])
    elif loc in NEAR_TURTLE:
        slot = NEAR_TURTLE.index(loc)
        if TILE_TURTLES[slots[slot]][1]:
            steps = (FAR_TURTLE[slot],)
    elif loc in FAR_TURTLE:
        steps = (FAR_BANK[FAR_TURTLE.index(loc)],)
    return steps


@lru_cache(maxsize=8192)
def routes(loc: int, slots: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every route forward from ``loc`` to GOAL or to a dead end (``loc`` excluded)."""
    nexts = forward(loc, slots)
    if not nexts:
        return ((),)
    return tuple((nxt, *rest) for nxt in nexts for rest in routes(nxt, slots))


def targets(loc: int, steps: int, slots: tuple[int, ...], occupied: set[int]) -> set[int]:
    """Where a monkey at ``loc`` can end a move of exactly ``steps`` steps.

    Reaching GOAL ends a move early. A route too short for the steps cannot be taken. A
    move ending on another monkey goes on along its route to the next free field, or, if
    none lies ahead, back to the first free field behind. ``occupied`` holds the fields
    of the other monkeys; the lion does not block.
    """
    ends = set()
    for route in routes(loc, slots):
        if GOAL in route[:steps]:
            ends.add(GOAL)
            continue
        if len(route) < steps:
            continue
        end = next((f for f in route[steps - 1 :] if f not in occupied), None)
        if end is None:
            end = next((f for f in reversed(route[: steps - 1]) if f not in occupied), loc)
        if end != loc:
            ends.add(end)
    return ends


def lion_path(lion: int, end: int) -> list[int]:
    """The land fields the lion walks from ``lion`` to ``end`` (its own field excluded)."""

    def to_root(field: int) -> list[int]:
        chain = [field]
        while chain[-1] in LION_PARENT:
            chain.append(LION_PARENT[chain[-1]])
        return chain

    up, down = to_root(lion), to_root(end)
    meet = next(f for f in up if f in down)
    return up[1 : up.index(meet) + 1] + down[: down.index(meet)][::-1]


# --- the state machine ------------------------------------------------------------------
def new_state(config: Config) -> TropicRaceState:
    return TropicRaceState(
        phase=LAY_TILE,
        player=-1,
        monkeys=[[START] * config.monkeys_per_player for _ in range(config.num_players)],
        lion=config.lion_start,
        slots=[NO_TILE] * SLOTS,
        supply=list(config.tile_mix),
        steps=0,
        then=THEN_STEP_ONE,
        volcano=False,
        rolls=0,
    )


def current_player(config: Config, state: TropicRaceState) -> int:
    if state.phase in (MOVE, LION):
        return state.player
    return TERMINAL if state.phase == GAME_OVER else CHANCE


def chance_event(config: Config, state: TropicRaceState) -> ChanceEvent:
    if state.phase == ROLL:
        return config.die_event
    if state.phase in (LAY_TILE, PUSH):
        return ChanceEvent.weighted("draw a river tile (kind)", dict(enumerate(state.supply)))
    if state.phase == PICK_START:
        n = config.num_players
        return ChanceEvent("pick the start player", tuple(range(n)), (1 / n,) * n)
    raise ValueError(f"no chance event in phase {state.phase}")


def sample_chance(config: Config, state: TropicRaceState, rng: np.random.Generator) -> int:
    """An outcome of the pending chance event (the distribution of ``chance_event``)."""
    if state.phase == ROLL:
        return config.die_outcomes[draw_from_counts(config.die_counts, rng)]
    if state.phase == PICK_START:
        return int(rng.random() * config.num_players)
    return draw_from_counts(state.supply, rng)


def legal_mask(config: Config, state: TropicRaceState) -> np.ndarray:
    mask = np.zeros(len(ACTION_NAMES), dtype=bool)
    mask[legal_actions(config, state)] = True
    return mask


def legal_actions(config: Config, state: TropicRaceState) -> list[int]:
    if state.phase == LION:
        return [LION_ACTION + i for i, end in enumerate(LION_ENDS) if end != state.lion]
    if state.phase == MOVE:
        return sorted(MOVE_INDEX[pair] for pair in moves(state, state.player, state.steps))
    return []


def moves(state: TropicRaceState, seat: int, steps: int) -> frozenset[tuple[int, int]]:
    """(from, to) of every legal move of ``seat``'s monkeys by ``steps`` steps."""
    return _moves(tuple(map(tuple, state.monkeys)), tuple(state.slots), seat, steps)


@lru_cache(maxsize=256)
def _moves(monkeys, slots, seat, steps) -> frozenset[tuple[int, int]]:
    # Cached: a roll asks whether any move exists, then the mask asks for all of them.
    taken = {loc for seat_monkeys in monkeys for loc in seat_monkeys} - {START, GOAL}
    found = set()
    for loc in set(monkeys[seat]) - {GOAL}:
        for end in targets(loc, steps, slots, taken - {loc}):
            found.add((loc, end))
    return frozenset(found)


def apply_chance(config: Config, state: TropicRaceState, outcome: int) -> None:
    phase = state.phase
    if phase == ROLL:
        state.rolls += 1
        if outcome == LION_CODE:
            state.phase = LION
        elif outcome == ARROW_CODE:
            state.phase, state.then = PUSH, THEN_STEP_ONE
        elif moves(state, state.player, outcome):
            state.phase, state.steps = MOVE, outcome
        else:  # no legal move for the number: push instead, then one step
            state.phase, state.then = PUSH, THEN_STEP_ONE
    elif phase == PUSH:
        _push(config, state, outcome)
    elif phase == LAY_TILE:
        state.supply[outcome] -= 1
        state.slots[state.slots.index(NO_TILE)] = outcome
        if NO_TILE not in state.slots:
            state.phase = PICK_START
    else:  # PICK_START
        state.player, state.phase = outcome, ROLL


def apply_action(config: Config, state: TropicRaceState, action: int) -> None:
    if state.phase == LION:
        _walk_lion(state, LION_ENDS[action - LION_ACTION])
        _offer_step(state)
        return
    origin, end = MOVES[action]
    monkeys = state.monkeys[state.player]
    monkeys.remove(origin)
    monkeys.append(START if end == state.lion else end)
    monkeys.sort()
    state.steps = 0
    if all(loc == GOAL for loc in monkeys):
        state.phase = GAME_OVER
    elif end == state.lion:
        _end_turn(state)
    elif end in config.arrow_fields:
        state.phase, state.then = PUSH, THEN_END_TURN
    elif end in config.die_fields:
        state.phase = ROLL  # an extra turn at once
    else:
        _end_turn(state)


def _push(config: Config, state: TropicRaceState, tile: int) -> None:
    """The drawn tile enters slot 1; the others move right; slot 5's tile leaves."""
    state.supply[tile] -= 1
    shift = {NEAR_TURTLE[i]: NEAR_TURTLE[i + 1] for i in range(SLOTS - 1)}
    shift |= {FAR_TURTLE[i]: FAR_TURTLE[i + 1] for i in range(SLOTS - 1)}
    shift[NEAR_TURTLE[-1]] = shift[FAR_TURTLE[-1]] = START  # off the board: sent home
    for monkeys in state.monkeys:
        monkeys[:] = sorted(shift.get(loc, loc) for loc in monkeys)
    state.slots = [tile, *state.slots[:-1]]
    if sum(state.supply) == 0:  # the volcano erupts
        state.volcano, state.phase = True, GAME_OVER
    elif state.then == THEN_STEP_ONE:
        _offer_step(state)
    else:
        _end_turn(state)


def _walk_lion(state: TropicRaceState, end: int) -> None:
    for field in lion_path(state.lion, end):
        state.lion = field
        for monkeys in state.monkeys:
            if field in monkeys:
                monkeys.remove(field)
                monkeys.insert(0, START)  # START sorts first
                return


def _offer_step(state: TropicRaceState) -> None:
    """After a lion, an arrow or a push instead of a number: move one monkey 1 step."""
    if moves(state, state.player, 1):
        state.phase, state.steps = MOVE, 1
    else:
        state.steps = 0
        _end_turn(state)


def _end_turn(state: TropicRaceState) -> None:
    state.phase = ROLL
    state.player = (state.player + 1) % len(state.monkeys)


# --- saved states -----------------------------------------------------------------------
def validate(config: Config, state: TropicRaceState) -> None:
    """Raise StateError if ``state`` cannot arise in a game of ``config``: the invariants of
    ``state.validate``, then that a decision has a legal action (a check that needs the
    rules, so it is made here: state.py sits below rules.py)."""
    validate_state(config, state)
    if state.phase in (MOVE, LION) and not legal_actions(config, state):
        raise StateError("phase, monkeys, lion, steps, slots: nothing legal to do")


# --- results ----------------------------------------------------------------------------
def home_counts(state: TropicRaceState) -> list[int]:
    return [monkeys.count(GOAL) for monkeys in state.monkeys]


def scores(config: Config, state: TropicRaceState) -> list[float]:
    return [float(n) for n in home_counts(state)]


def final_details(config: Config, state: TropicRaceState) -> dict[str, Any]:
    return {
        "monkeys_home": home_counts(state),
        "volcano": state.volcano,
        "rolls": state.rolls,
    }


def winners(config: Config, state: TropicRaceState) -> list[int]:
    if state.phase != GAME_OVER:
        return []
    counts = home_counts(state)
    best = max(counts)
    return [seat for seat, count in enumerate(counts) if count == best]
