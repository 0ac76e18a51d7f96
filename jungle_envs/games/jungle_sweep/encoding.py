"""Jungle Sweep observation: a flat float32 vector in [0, 1] from one seat's point of view.

The vector is the ``Layout`` that ``config.observation_layout`` builds and the game's
``Config`` carries as ``layout`` (the table is in docs/rules/jungle_sweep.md): the ring, the
monkeys, the dice pool, phase, round, dice rounds, player count, supply, the observer's own
coconuts and, with the ``move_features`` option, where each die face would take the
observer's monkey. Its sizes follow the ring
capacity (6 palms + the non-palm terrain, 20 by default) and the number of coconut values
(5 by default).

Monkey slots are rotated so the observer comes first: slot 0 is the monkey the observer is
deciding for (or its first monkey when it is not deciding). With two players, slots 0 and 2
are the observer's, 1 and 3 the opponent's. Other seats' coconut values never appear, only
their counts.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

import numpy as np

from jungle_envs.games.jungle_sweep.config import (
    DECISION_PHASES,
    FIELD_FEATURES,
    LEFT_AT,
    LOOKAHEAD_AT,
    MIN_PLAYERS,
    MONKEY_FEATURES,
    MOVE_FEATURES,
    Config,
)
from jungle_envs.games.jungle_sweep.rules import board, palm_jump, walk
from jungle_envs.games.jungle_sweep.state import JungleSweepState
from jungle_envs.games.jungle_sweep.tables import (
    CHOOSE_DIE,
    CLEARING,
    DIE_FACE_STEPS,
    GAME_OVER,
    HILL,
    MAX_MONKEYS,
    NUM_FACES,
    NUM_TERRAINS,
    PALM,
    PALM_FACE,
    ROUNDS,
    WATER_HOLE,
)

# Terrain one-hot order puts the palm first; JUNGLE_PATH..HILL follow.
TERRAIN_COLUMN = (1, 2, 3, 4, 5, 0)


def focus_monkey(config: Config, state: JungleSweepState, seat: int) -> int:
    deciding = state.phase in DECISION_PHASES and state.mover % config.num_players == seat
    return state.mover if deciding else seat


def observe(config: Config, state: JungleSweepState, seat: int, out=None) -> np.ndarray:
    lay = config.layout
    obs = np.zeros(lay.size, dtype=np.float32) if out is None else out
    if out is not None:
        obs.fill(0.0)
    monkeys = config.num_monkeys
    focus = focus_monkey(config, state, seat)
    ring_size = len(state.ring)
    start = state.broom if state.broom >= 0 else 0
    fields = obs[lay["fields"]].reshape(-1, FIELD_FEATURES)
    if ring_size:
        order = (np.arange(ring_size) + start) % ring_size
        fields[:ring_size, :NUM_TERRAINS] = terrain_one_hot(tuple(state.ring))[order]
    if ring_size and state.phase != GAME_OVER:
        for m, pos in enumerate(state.monkey_pos):
            if pos >= 0:
                fields[(pos - start) % ring_size, NUM_TERRAINS + (m - focus) % monkeys] = 1.0
    if state.pending >= 0:
        fields[(state.pending - start) % ring_size, FIELD_FEATURES - 1] = 1.0

    deciding = state.phase in DECISION_PHASES
    slots = [0.0] * (MAX_MONKEYS * MONKEY_FEATURES)
    for m in range(monkeys):
        row = ((m - focus) % monkeys) * MONKEY_FEATURES
        slots[row : row + MONKEY_FEATURES] = (
            1.0,
            state.monkey_pos[m] >= 0,
            m % config.num_players == seat,
            deciding and (m - state.active) % monkeys >= state.turn,
            m == state.active,
            deciding and m == state.mover,
            min(len(state.coconuts[m]) / 8.0, 1.0),
        )
    obs[lay["monkeys"]] = slots

    # The rest is written as one list (from the pool on), then capped at 1.
    base = lay.offset("pool")
    tail = [0.0] * (lay.size - base)
    if deciding:
        at = lay.offset("pool") - base
        tail[at : at + NUM_FACES] = [n / config.num_dice for n in state.pool]
        tail[lay.offset("phase") - base + DECISION_PHASES.index(state.phase)] = 1.0
    if state.round < ROUNDS:
        tail[lay.offset("round") - base + state.round] = 1.0
    tail[lay.offset("dice_rounds") - base] = min(state.dice_round / 20.0, 1.0)
    tail[lay.offset("players") - base + config.num_players - MIN_PLAYERS] = 1.0
    tail[lay.offset("supply") - base] = sum(state.supply) / max(sum(config.initial_supply), 1)
    at = lay.offset("own_coconuts") - base
    own_value = 0
    for m in range(seat, monkeys, config.num_players):
        for value in state.coconuts[m]:
            tail[at + config.coconut_values.index(value)] += 1.0 / 16.0
            own_value += value
    tail[lay.offset("own_value") - base] = own_value / 64.0
    if config.move_features:
        at = lay.offset("moves") - base
        tail[at : at + NUM_FACES * MOVE_FEATURES] = move_features(config, state, focus)
    obs[base:] = tail
    np.minimum(obs[base:], 1.0, out=obs[base:])
    if config.move_features and state.phase == CHOOSE_DIE and focus == state.mover:
        write_lookahead(config, obs)
    return obs


def write_lookahead(config: Config, obs: np.ndarray) -> None:
    """The lookahead columns of the ``moves`` piece (see ``config.MOVE_FEATURES``): the
    move values the heuristic weighs, on what ``obs`` shows the deciding seat."""
    view = decode(config, obs)
    rows = obs[config.layout["moves"]].reshape(NUM_FACES, MOVE_FEATURES)
    if view.in_play[0] and view.position(0) >= 0:
        for face in range(NUM_FACES):
            rows[face, LOOKAHEAD_AT] = move_value(config, view, 0, face)
    for slot in range(1, view.num_monkeys):  # the monkey the heuristic's denial looks at
        if view.to_choose[slot] and view.in_play[slot]:
            for face in range(NUM_FACES):
                rows[face, LOOKAHEAD_AT + 1] = move_value(config, view, slot, face)
            rows[:, LOOKAHEAD_AT + 2 + view.mine[slot]] = 1.0
            write_left(view.pool, rows)
            break


def write_left(pool: list[int], rows: np.ndarray) -> None:
    """Per face in the pool, the next monkey's best value among the dice left once that
    face is taken (read back from the float32 rows, as the compiled twin does)."""
    for face in range(NUM_FACES):
        if pool[face] > 0:
            left = [rows[g, LOOKAHEAD_AT + 1] for g in range(NUM_FACES) if pool[g] - (g == face)]
            rows[face, LEFT_AT] = max(left, default=0.0)


def move_features(config: Config, state: JungleSweepState, monkey: int) -> list[float]:
    """Where ``monkey`` would go with each die face, worked out with the engine's own
    movement rules (public information only): face in the pool, lands on a palm, fields
    ahead of the broom / ring size, chance the broom's next roll falls short of it (1 on
    a palm), and whether the landing asks about a water hole, a hill or a re-roll."""
    features = [0.0] * (NUM_FACES * MOVE_FEATURES)
    start = state.monkey_pos[monkey]
    if start < 0 or state.phase not in DECISION_PHASES:
        return features
    terrain, occupied = board(state, monkey)
    size = len(terrain)
    for face in range(NUM_FACES):
        if face == 0:
            target = start
        elif face == PALM_FACE:
            target = palm_jump(terrain, occupied, start)
        else:
            target = walk(terrain, occupied, start, DIE_FACE_STEPS[face])
        land = terrain[target]
        ahead = (target - state.broom) % size
        safe = 1.0 if land == PALM else config.broom_short_of(ahead)
        moved = target != start and face != PALM_FACE
        row = face * MOVE_FEATURES
        features[row : row + LOOKAHEAD_AT] = (
            float(state.pool[face] > 0),
            float(land == PALM),
            ahead / size,
            safe,
            float(moved and land == WATER_HOLE),
            float(moved and land == HILL),
            float(moved and land == CLEARING),
        )
    return features


@functools.lru_cache(maxsize=64)
def terrain_one_hot(ring: tuple[int, ...]) -> np.ndarray:
    """Terrain one-hot rows per ring field, cached per ring (a ring lasts a whole round);
    read-only, as every caller shares it."""
    rows = np.zeros((len(ring), NUM_TERRAINS), dtype=np.float32)
    for i, code in enumerate(ring):
        rows[i, TERRAIN_COLUMN[code if code < PALM else PALM]] = 1.0
    rows.flags.writeable = False
    return rows


@dataclass
class View:
    """What a seat sees, decoded from its observation (for rule-based policies)."""

    terrain: list[int]  # per field, clockwise from the broom (field 0)
    monkey_at: list[int]  # rotated monkey slot per field, -1 if none
    pending: int  # field of the pending landing decision, -1 if none
    pool: list[int]  # dice left per face
    phase: int  # CHOOSE_DIE, WATER, HILL_CHOICE or CLEARING_CHOICE
    num_monkeys: int
    in_play: list[bool]  # per rotated slot
    mine: list[bool]  # per rotated slot
    to_choose: list[bool]  # per rotated slot: still takes a die this dice round

    def position(self, slot: int) -> int:
        return self.monkey_at.index(slot) if slot in self.monkey_at else -1


def decode(config: Config, obs: np.ndarray) -> View:
    """What ``obs`` shows, as a ``View``. ``config`` may be a Game too (its config is read)."""
    config = getattr(config, "config", config)
    lay = config.layout
    fields = obs[lay["fields"]].reshape(-1, FIELD_FEATURES)
    present = fields[:, :NUM_TERRAINS].any(axis=1)
    ring_size = int(present.sum())
    column = fields[:ring_size, :NUM_TERRAINS].argmax(axis=1)
    terrain = [TERRAIN_COLUMN.index(int(c)) for c in column]
    occupant = fields[:ring_size, NUM_TERRAINS : NUM_TERRAINS + MAX_MONKEYS]
    monkey_at = [int(row.argmax()) if row.any() else -1 for row in occupant]
    pending_fields = np.flatnonzero(fields[:ring_size, -1])
    slots = obs[lay["monkeys"]].reshape(-1, MONKEY_FEATURES)
    pool = np.rint(obs[lay["pool"]] * config.num_dice).astype(int).tolist()
    phase_hot = obs[lay["phase"]]
    return View(
        terrain=terrain,
        monkey_at=monkey_at,
        pending=int(pending_fields[0]) if len(pending_fields) else -1,
        pool=pool,
        phase=DECISION_PHASES[int(phase_hot.argmax())] if phase_hot.any() else GAME_OVER,
        num_monkeys=config.num_monkeys,
        in_play=[bool(v) for v in slots[: config.num_monkeys, 1]],
        mine=[bool(v) for v in slots[: config.num_monkeys, 2]],
        to_choose=[bool(v) for v in slots[: config.num_monkeys, 3]],
    )


# --- Move values on a View: what the heuristic weighs and the move features show ---------
def safety(config: Config, view: View, field: int) -> float:
    """The chance that the broom's next roll stops short of ``field`` (1 on a palm)."""
    if view.terrain[field] == PALM:
        return 1.0
    return float(config.short_of[min(field, len(config.short_of) - 1)])


def occupied_fields(view: View, slot: int) -> list[bool]:
    occupied = [m >= 0 and m != slot for m in view.monkey_at]
    occupied[0] = True  # the broom's field
    return occupied


def move_value(config: Config, view: View, slot: int, face: int, depth: int = 0) -> float:
    """How safe ``slot``'s monkey ends up with ``face``: hill steps taken and clearing
    re-rolls made when they pay, a water hole entered only when it is safer."""
    pos = view.position(slot)
    if face == 0:
        return safety(config, view, pos)
    occupied = occupied_fields(view, slot)
    if face == PALM_FACE:
        return safety(config, view, palm_jump(view.terrain, occupied, pos))
    target = walk(view.terrain, occupied, pos, DIE_FACE_STEPS[face])
    if target == pos:
        return safety(config, view, pos)
    if view.terrain[target] == WATER_HOLE:
        return max(safety(config, view, pos), safety(config, view, target))
    return landing(config, view, slot, pos, target, depth)


def landing(config: Config, view: View, slot: int, start: int, field: int, depth: int) -> float:
    terrain = view.terrain[field]
    if terrain == HILL and depth < 3:
        step = walk(view.terrain, occupied_fields(view, slot), field, 1)
        stay = safety(config, view, field)
        if step == field:
            return stay
        return max(stay, landing(config, view, slot, field, step, depth + 1))
    if terrain == CLEARING and depth < 3:
        monkey_at = [-1 if m == slot else m for m in view.monkey_at]
        monkey_at[field] = slot
        moved = dataclasses.replace(view, monkey_at=monkey_at)
        return max(safety(config, view, field), reroll_value(config, moved, slot, depth + 1))
    return safety(config, view, field)


def reroll_value(config: Config, view: View, slot: int, depth: int) -> float:
    """Expected safety after re-rolling on the clearing ``slot`` stands on."""
    values = [move_value(config, view, slot, f, depth) for f in range(NUM_FACES)]
    return sum(values) / NUM_FACES  # summed in face order, as the compiled twin does
