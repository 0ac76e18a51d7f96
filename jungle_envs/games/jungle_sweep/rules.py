"""Jungle Sweep rules engine: functions over a ``JungleSweepState`` and the game's ``Config``.

No Gymnasium here. The movement helpers (``walk``, ``palm_jump``, ``broom_path``) are pure
functions of a board (terrain per field, which fields are occupied) so the heuristic
policy can look ahead with exactly the engine's rules.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jungle_envs.core.game import CHANCE, TERMINAL, ChanceEvent, draw_from_counts
from jungle_envs.core.state import deal_counts
from jungle_envs.games.jungle_sweep.config import Config
from jungle_envs.games.jungle_sweep.state import JungleSweepState
from jungle_envs.games.jungle_sweep.state import validate as validate_state
from jungle_envs.games.jungle_sweep.tables import (
    ACTION_NAMES,
    CHOOSE_DIE,
    CLEARING,
    CLEARING_CHOICE,
    CLEARING_REROLL,
    DIE_FACE_STEPS,
    DRAW_COCONUT,
    GAME_OVER,
    HILL,
    HILL_CHOICE,
    HILL_STEP,
    LAST_MONKEY_COCONUTS,
    LATER_LEAVER_COCONUTS,
    LAY_RING,
    NUM_FACES,
    PALM,
    PALM_FACE,
    QUICKSAND,
    QUICKSAND_COST,
    REROLL,
    ROLL,
    ROUNDS,
    SET_ASIDE,
    UNREWARDED,
    WATER,
    WATER_ENTER,
    WATER_HOLE,
)

DIE_ROLL = ChanceEvent("roll a die", tuple(range(NUM_FACES)), (1 / NUM_FACES,) * NUM_FACES)


# --- movement on a board (pure) -------------------------------------------------------
def terrain_of(code: int) -> int:
    return code if code < PALM else PALM


def walk(terrain: list[int], occupied: list[bool], start: int, steps: int) -> int:
    """Where a monkey at ``start`` ends after ``steps`` clockwise steps.

    Occupied fields are skipped without counting; entering the quicksand costs two steps,
    so with one step left in front of it the move ends there.
    """
    size = len(terrain)
    pos, left = start, steps
    while left > 0:
        nxt = (pos + 1) % size
        while occupied[nxt] and nxt != start:
            nxt = (nxt + 1) % size
        if nxt == start:  # every other field is taken
            break
        cost = QUICKSAND_COST if terrain[nxt] == QUICKSAND else 1
        if cost > left:
            break
        pos, left = nxt, left - cost
    return pos


def palm_jump(terrain: list[int], occupied: list[bool], start: int) -> int:
    """The next free palm clockwise, possibly the monkey's own; ``start`` if none is free."""
    size = len(terrain)
    for k in range(1, size + 1):
        idx = (start + k) % size
        if terrain[idx] == PALM and not occupied[idx]:
            return idx
    return start


def broom_path(terrain: list[int], monkey_at: list[int], broom: int, steps: int):
    """Move the broom: returns its new field and the monkeys it sweeps, in order reached.

    ``monkey_at[field]`` is the monkey slot on that field or -1. Monkeys on palms are safe;
    a broom that would stop on a palm with a monkey goes on to the next field that is not
    such a palm.
    """
    size = len(terrain)
    pos, swept = broom, []

    def visit(field: int) -> None:
        m = monkey_at[field]
        if m >= 0 and terrain[field] != PALM and m not in swept:
            swept.append(m)

    for _ in range(steps):
        pos = (pos + 1) % size
        visit(pos)
    while terrain[pos] == PALM and monkey_at[pos] >= 0:
        pos = (pos + 1) % size
        visit(pos)
    return pos, swept


def board(state: JungleSweepState, mover: int) -> tuple[list[int], list[bool]]:
    """Terrain per field and the fields a moving monkey must skip (others and the broom)."""
    terrain = [code if code < PALM else PALM for code in state.ring]
    occupied = [False] * len(terrain)
    occupied[state.broom] = True
    for m, pos in enumerate(state.monkey_pos):
        if pos >= 0 and m != mover:
            occupied[pos] = True
    return terrain, occupied


# --- the state machine -----------------------------------------------------------------
def new_state(config: Config) -> JungleSweepState:
    monkeys, nvals = config.num_monkeys, len(config.coconut_values)
    return JungleSweepState(
        phase=SET_ASIDE if config.set_aside_count else LAY_RING,
        round=0,
        ring=[],
        broom=-1,
        monkey_pos=[-1] * monkeys,
        leaving_order=[],
        active=0,
        dice_round=0,
        pool=[0] * NUM_FACES,
        turn=0,
        pending=-1,
        supply=list(config.initial_supply),
        set_aside=[0] * nvals,
        coconuts=[[] for _ in range(monkeys)],
        awards=[],
    )


def current_player(config: Config, state: JungleSweepState) -> int:
    if state.phase < CHOOSE_DIE:
        return CHANCE
    if state.phase == GAME_OVER:
        return TERMINAL
    return state.mover % config.num_players


def chance_event(config: Config, state: JungleSweepState) -> ChanceEvent:
    phase = state.phase
    if phase in (ROLL, REROLL):
        return DIE_ROLL
    if phase in (SET_ASIDE, DRAW_COCONUT):
        counts = dict(zip(config.coconut_values, state.supply, strict=True))
        return ChanceEvent.weighted("draw a coconut (value)", counts)
    if phase == LAY_RING:
        return ChanceEvent.weighted("lay the next ring tile (tile code)", tiles_left(config, state))
    raise ValueError(f"no chance event in phase {phase}")


def tiles_left(config: Config, state: JungleSweepState) -> dict[int, int]:
    """Tile code -> count still to lay in this round's ring."""
    counts = _tile_counts_left(config, state)
    return {code: n for code, n in enumerate(counts) if n}


def _tile_counts_left(config: Config, state: JungleSweepState) -> list[int]:
    counts = list(config.ring_counts[state.round])
    for code in state.ring:
        counts[code] -= 1
    return counts


def sample_chance(config: Config, state: JungleSweepState, rng: np.random.Generator) -> int:
    """An outcome of the pending chance event, the draw ``chance_event`` describes."""
    phase = state.phase
    if phase in (ROLL, REROLL):
        return int(rng.random() * NUM_FACES)
    if phase == LAY_RING:
        return draw_from_counts(_tile_counts_left(config, state), rng)
    return config.coconut_values[draw_from_counts(state.supply, rng)]


def apply_chance(config: Config, state: JungleSweepState, outcome: int) -> None:
    phase = state.phase
    if phase == ROLL:
        state.pool[outcome] += 1
        if sum(state.pool) == config.num_dice:
            _sweep(config, state)
    elif phase == REROLL:
        state.phase = CHOOSE_DIE
        if _move(state, state.mover, outcome):
            _finish_move(config, state)
    elif phase == LAY_RING:
        state.ring.append(outcome)
        if len(state.ring) == config.ring_size(state.round):
            _start_round(state)
    else:  # a coconut leaves the supply: set aside unseen, or to the next monkey owed one
        idx = config.coconut_values.index(outcome)
        state.supply[idx] -= 1
        if phase == SET_ASIDE:
            state.set_aside[idx] += 1
            if sum(state.set_aside) == config.set_aside_count:
                state.phase = LAY_RING
        else:
            state.coconuts[state.awards.pop(0)].append(outcome)
            if not state.awards:
                _next_round(config, state)


def apply_action(config: Config, state: JungleSweepState, action: int) -> None:
    m = state.mover
    if state.phase == CHOOSE_DIE:
        state.pool[action] -= 1
        if state.monkey_pos[m] < 0 or _move(state, m, action):
            _finish_move(config, state)
    elif state.phase == WATER:
        if action == WATER_ENTER:
            state.monkey_pos[m] = state.pending
        _finish_move(config, state)
    elif state.phase == CLEARING_CHOICE:
        if action == CLEARING_REROLL:
            state.phase = REROLL  # the re-roll is chance; its move follows in apply_chance
        else:
            _finish_move(config, state)
    else:  # HILL_CHOICE
        if action == HILL_STEP:
            state.monkey_pos[m] = state.pending
            state.pending = -1
            state.phase = CHOOSE_DIE
            if not _land(state, m):
                return
        _finish_move(config, state)


def _move(state: JungleSweepState, m: int, face: int) -> bool:
    """Move monkey ``m`` by a die face; False if a decision or re-roll is now pending."""
    if face == 0:
        return True
    terrain, occupied = board(state, m)
    start = state.monkey_pos[m]
    if face == PALM_FACE:  # ignores every other field and effect
        state.monkey_pos[m] = palm_jump(terrain, occupied, start)
        return True
    target = walk(terrain, occupied, start, DIE_FACE_STEPS[face])
    if target == start:
        return True
    if terrain[target] == WATER_HOLE:
        state.pending, state.phase = target, WATER
        return False
    state.monkey_pos[m] = target
    return _land(state, m)


def _land(state: JungleSweepState, m: int) -> bool:
    """Apply the effect of the field monkey ``m`` just moved onto."""
    terrain, occupied = board(state, m)
    pos = state.monkey_pos[m]
    if terrain[pos] == HILL:
        step = walk(terrain, occupied, pos, 1)
        if step == pos:  # blocked by the quicksand's cost: no step to offer
            return True
        state.pending, state.phase = step, HILL_CHOICE
        return False
    if terrain[pos] == CLEARING:
        state.phase = CLEARING_CHOICE
        return False
    return True


def _finish_move(config: Config, state: JungleSweepState) -> None:
    state.phase, state.pending = CHOOSE_DIE, -1
    state.turn += 1
    if state.turn < config.num_monkeys:
        return
    # The dice pass to the left.
    state.dice_round += 1
    state.active = (state.active + 1) % config.num_monkeys
    state.turn = 0
    state.pool = [0] * NUM_FACES
    if state.dice_round >= config.max_dice_rounds:
        _safety_net(config, state)
    else:
        state.phase = ROLL


def _sweep(config: Config, state: JungleSweepState) -> None:
    terrain = [code if code < PALM else PALM for code in state.ring]
    monkey_at = [-1] * len(terrain)
    for m, pos in enumerate(state.monkey_pos):
        if pos >= 0:
            monkey_at[pos] = m
    steps = sum(DIE_FACE_STEPS[f] * n for f, n in enumerate(state.pool))
    state.broom, swept = broom_path(terrain, monkey_at, state.broom, steps)
    for m in swept:
        state.monkey_pos[m] = -1
        state.leaving_order.append(m)
    if sum(pos >= 0 for pos in state.monkey_pos) <= 1:
        _end_round(config, state)
    else:
        state.phase, state.turn = CHOOSE_DIE, 0


def _safety_net(config: Config, state: JungleSweepState) -> None:
    """Sweep the remaining monkeys in clockwise order from the broom."""
    size = len(state.ring)
    remaining = [m for m, pos in enumerate(state.monkey_pos) if pos >= 0]
    remaining.sort(key=lambda m: (state.monkey_pos[m] - state.broom) % size)
    for m in remaining:
        state.monkey_pos[m] = -1
        state.leaving_order.append(m)
    _end_round(config, state)


def _end_round(config: Config, state: JungleSweepState) -> None:
    order = state.leaving_order + [m for m, pos in enumerate(state.monkey_pos) if pos >= 0]
    unrewarded = UNREWARDED[config.num_monkeys]
    state.awards = []
    for rank, m in enumerate(order):
        if rank == len(order) - 1:
            state.awards += [m] * LAST_MONKEY_COCONUTS
        elif rank >= unrewarded:
            state.awards += [m] * LATER_LEAVER_COCONUTS
    state.pool = [0] * NUM_FACES
    state.turn = 0
    if state.awards:
        state.phase = DRAW_COCONUT
    else:
        _next_round(config, state)


def _start_round(state: JungleSweepState) -> None:
    state.broom = state.ring.index(QUICKSAND)
    state.monkey_pos = [state.ring.index(PALM + m) for m in range(len(state.monkey_pos))]
    size = len(state.ring)
    first_palm = next(
        (state.broom + k) % size
        for k in range(1, size + 1)
        if state.ring[(state.broom + k) % size] >= PALM
    )
    state.active = state.ring[first_palm] - PALM
    state.leaving_order, state.dice_round, state.turn = [], 0, 0
    state.pool = [0] * NUM_FACES
    state.phase = ROLL


def _next_round(config: Config, state: JungleSweepState) -> None:
    state.round += 1
    state.awards = []
    if state.round == ROUNDS:
        state.phase = GAME_OVER
        return
    state.ring, state.broom = [], -1
    state.monkey_pos = [-1] * config.num_monkeys
    state.leaving_order = []
    state.phase = LAY_RING


# --- results ----------------------------------------------------------------------------
def seat_monkeys(config: Config, seat: int) -> list[int]:
    return list(range(seat, config.num_monkeys, config.num_players))


def scores(config: Config, state: JungleSweepState) -> list[float]:
    return [
        float(sum(sum(state.coconuts[m]) for m in seat_monkeys(config, seat)))
        for seat in range(config.num_players)
    ]


def ranking_key(config: Config, state: JungleSweepState, seat: int) -> tuple[int, ...]:
    """Higher is better: coconut value, (2 players: best single monkey), coconut count."""
    mine = [state.coconuts[m] for m in seat_monkeys(config, seat)]
    value = sum(sum(c) for c in mine)
    count = sum(len(c) for c in mine)
    if len(mine) > 1:
        return (value, max(sum(c) for c in mine), count)
    return (value, count)


def winners(config: Config, state: JungleSweepState) -> list[int]:
    if state.phase != GAME_OVER:
        return []
    keys = [ranking_key(config, state, seat) for seat in range(config.num_players)]
    best = max(keys)
    return [seat for seat, key in enumerate(keys) if key == best]


def final_details(config: Config, state: JungleSweepState) -> dict[str, Any]:
    """Each seat's coconut values (sorted) and count, for the env's final ``info``."""
    return {
        "coconut_values": [
            sorted(v for m in seat_monkeys(config, seat) for v in state.coconuts[m])
            for seat in range(config.num_players)
        ],
        "coconut_counts": [
            sum(len(state.coconuts[m]) for m in seat_monkeys(config, seat))
            for seat in range(config.num_players)
        ],
    }


def legal_mask(config: Config, state: JungleSweepState) -> np.ndarray:
    mask = np.zeros(len(ACTION_NAMES), dtype=bool)
    mask[legal_actions(config, state)] = True
    return mask


def legal_actions(config: Config, state: JungleSweepState) -> list[int]:
    """The deciding seat's legal actions, ascending (the mask is built from this)."""
    if state.phase == CHOOSE_DIE:
        return [f for f in range(NUM_FACES) if state.pool[f] > 0]
    if state.phase == WATER:
        return [WATER_ENTER, WATER_ENTER + 1]
    if state.phase == HILL_CHOICE:
        return [HILL_STEP, HILL_STEP + 1]
    if state.phase == CLEARING_CHOICE:
        return [CLEARING_REROLL, CLEARING_REROLL + 1]
    return []


# --- checks and hidden information ------------------------------------------------------
def validate(config: Config, state: JungleSweepState) -> None:
    """Raise StateError if ``state`` cannot arise in a game of ``config``: ``state.validate``
    checks every invariant (none of this game's needs the rules)."""
    validate_state(config, state)


def resample(config: Config, state: JungleSweepState, seat: int, rng) -> None:
    """Deal anew, in place, the coconuts ``seat`` has not seen: the values of other seats'
    coconuts, of those set aside (3 players) and of the face-down supply. Each monkey keeps
    its count of coconuts, which everyone sees. The pool of those values is what the box
    held minus the seat's own coconuts, so every deal comes from what the seat knows."""
    values = config.coconut_values
    others = [m for m in range(config.num_monkeys) if m % config.num_players != seat]
    pool = [a + b for a, b in zip(state.supply, state.set_aside, strict=True)]
    for m in others:
        for value in state.coconuts[m]:
            pool[values.index(value)] += 1
    sizes = [len(state.coconuts[m]) for m in others] + [sum(state.set_aside)]
    *hands, set_aside, supply = deal_counts(pool, sizes, rng)
    for m, hand in zip(others, hands, strict=True):
        state.coconuts[m] = [value for value, n in zip(values, hand, strict=True) for _ in range(n)]
    state.set_aside, state.supply = set_aside, supply
