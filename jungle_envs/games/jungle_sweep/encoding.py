"""Jungle Sweep observation: a flat float32 vector in [0, 1] from one seat's point of view.

Layout (R = ring capacity = 6 palms + the non-palm terrain, 20 by default; S = 6 monkey
slots; V = number of coconut values, 5 by default):

    fields   R x 13  the ring clockwise, starting at the broom's field:
                     [0:6]  terrain one-hot (palm, path, quicksand, clearing, water, hill)
                     [6:12] the monkey on the field, one-hot by rotated slot
                     [12]   1 where the pending water-hole/hill decision would put the monkey
                     a field the ring does not have (paths leave each round) is all zero
    monkeys  S x 7   per rotated slot: exists, in play, mine, still to take a die this dice
                     round, holds the dice, deciding now, coconuts / 8
    pool     6       dice left per face (0 1 2 3 4 PALM) / number of dice
    phase    4       one-hot: choose a die, water hole, hill, clearing
    round    4       one-hot round 1-4
    dice     1       dice rounds played this round / 20, capped at 1
    players  5       one-hot 2-6 players
    supply   1       coconuts left face down / coconuts in the box
    own      V + 1   my coconuts per value / 16, my coconut value / 64

Monkey slots are rotated so the observer comes first: slot 0 is the monkey the observer is
deciding for (or its first monkey when it is not deciding). With two players, slots 0 and 2
are the observer's, 1 and 3 the opponent's. Other seats' coconut values never appear, only
their counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from jungle_envs.games.jungle_sweep.rules import board, palm_jump, walk
from jungle_envs.games.jungle_sweep.tables import (
    CHOOSE_DIE,
    CLEARING,
    CLEARING_CHOICE,
    DIE_FACE_STEPS,
    GAME_OVER,
    HILL,
    HILL_CHOICE,
    MAX_MONKEYS,
    NUM_FACES,
    NUM_TERRAINS,
    PALM,
    PALM_FACE,
    ROUNDS,
    WATER,
    WATER_HOLE,
)

if TYPE_CHECKING:
    from jungle_envs.games.jungle_sweep.game import JungleSweep
    from jungle_envs.games.jungle_sweep.state import JungleSweepState

FIELD_FEATURES = NUM_TERRAINS + MAX_MONKEYS + 1
MOVE_FEATURES = 7  # per die face, with the move_features option
MONKEY_FEATURES = 7
# Terrain one-hot order puts the palm first; JUNGLE_PATH..HILL follow.
TERRAIN_COLUMN = (1, 2, 3, 4, 5, 0)
DECISION_PHASES = (CHOOSE_DIE, WATER, HILL_CHOICE, CLEARING_CHOICE)
MIN_PLAYERS = 2


def observation_size(game: JungleSweep) -> int:
    fields = game.max_ring_size * FIELD_FEATURES
    return (
        fields
        + MAX_MONKEYS * MONKEY_FEATURES
        + NUM_FACES
        + len(DECISION_PHASES)
        + ROUNDS
        + 1
        + 5
        + 1
        + (len(game.coconut_values) + 1)
        + (NUM_FACES * MOVE_FEATURES if game.options["move_features"] else 0)
    )


def focus_monkey(game: JungleSweep, state: JungleSweepState, seat: int) -> int:
    deciding = state.phase in DECISION_PHASES and state.mover % game.num_players == seat
    return state.mover if deciding else seat


def observe(game: JungleSweep, state: JungleSweepState, seat: int, out=None) -> np.ndarray:
    obs = np.zeros(game.observation_size, dtype=np.float32) if out is None else out
    if out is not None:
        obs.fill(0.0)
    monkeys = game.num_monkeys
    focus = focus_monkey(game, state, seat)
    ring_size = len(state.ring)
    start = state.broom if state.broom >= 0 else 0
    fields = obs[: game.max_ring_size * FIELD_FEATURES].reshape(-1, FIELD_FEATURES)
    if ring_size:
        order = (np.arange(ring_size) + start) % ring_size
        fields[:ring_size, :NUM_TERRAINS] = terrain_one_hot(game, state.ring)[order]
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
            m % game.num_players == seat,
            deciding and (m - state.active) % monkeys >= state.turn,
            m == state.active,
            deciding and m == state.mover,
            min(len(state.coconuts[m]) / 8.0, 1.0),
        )
    offset = game.max_ring_size * FIELD_FEATURES
    obs[offset : offset + len(slots)] = slots
    offset += len(slots)

    phases = len(DECISION_PHASES)
    tail = [0.0] * (NUM_FACES + phases + ROUNDS + 1 + 5 + 1 + len(game.coconut_values) + 1)
    if deciding:
        tail[:NUM_FACES] = [n / game.num_dice for n in state.pool]
        tail[NUM_FACES + DECISION_PHASES.index(state.phase)] = 1.0
    at = NUM_FACES + phases
    if state.round < ROUNDS:
        tail[at + state.round] = 1.0
    at += ROUNDS
    tail[at] = min(state.dice_round / 20.0, 1.0)
    tail[at + 1 + game.num_players - MIN_PLAYERS] = 1.0
    at += 6
    tail[at] = sum(state.supply) / max(sum(game.initial_supply), 1)
    at += 1
    own_value = 0
    for m in range(seat, monkeys, game.num_players):
        for value in state.coconuts[m]:
            tail[at + game.coconut_values.index(value)] += 1.0 / 16.0
            own_value += value
    tail[at + len(game.coconut_values)] = own_value / 64.0
    if game.options["move_features"]:
        tail += move_features(game, state, focus)
    obs[offset:] = tail
    np.minimum(obs[offset:], 1.0, out=obs[offset:])
    return obs


def move_features(game: JungleSweep, state: JungleSweepState, monkey: int) -> list[float]:
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
        safe = 1.0 if land == PALM else game.broom_short_of(ahead)
        moved = target != start and face != PALM_FACE
        row = face * MOVE_FEATURES
        features[row : row + MOVE_FEATURES] = (
            float(state.pool[face] > 0),
            float(land == PALM),
            ahead / size,
            safe,
            float(moved and land == WATER_HOLE),
            float(moved and land == HILL),
            float(moved and land == CLEARING),
        )
    return features


def terrain_one_hot(game: JungleSweep, ring: list[int]) -> np.ndarray:
    """Terrain one-hot rows per ring field, cached per ring (a ring lasts a whole round)."""
    key = tuple(ring)
    cache = game.encoding_cache
    rows = cache.get(key)
    if rows is None:
        if len(cache) > 64:
            cache.clear()
        rows = np.zeros((len(ring), NUM_TERRAINS), dtype=np.float32)
        for i, code in enumerate(ring):
            rows[i, TERRAIN_COLUMN[code if code < PALM else PALM]] = 1.0
        cache[key] = rows
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


def decode(game: JungleSweep, obs: np.ndarray) -> View:
    fields = obs[: game.max_ring_size * FIELD_FEATURES].reshape(-1, FIELD_FEATURES)
    present = fields[:, :NUM_TERRAINS].any(axis=1)
    ring_size = int(present.sum())
    column = fields[:ring_size, :NUM_TERRAINS].argmax(axis=1)
    terrain = [TERRAIN_COLUMN.index(int(c)) for c in column]
    occupant = fields[:ring_size, NUM_TERRAINS : NUM_TERRAINS + MAX_MONKEYS]
    monkey_at = [int(row.argmax()) if row.any() else -1 for row in occupant]
    pending_fields = np.flatnonzero(fields[:ring_size, -1])
    offset = game.max_ring_size * FIELD_FEATURES
    slots = obs[offset : offset + MAX_MONKEYS * MONKEY_FEATURES].reshape(-1, MONKEY_FEATURES)
    offset += MAX_MONKEYS * MONKEY_FEATURES
    pool = np.rint(obs[offset : offset + NUM_FACES] * game.num_dice).astype(int).tolist()
    phase_hot = obs[offset + NUM_FACES : offset + NUM_FACES + len(DECISION_PHASES)]
    return View(
        terrain=terrain,
        monkey_at=monkey_at,
        pending=int(pending_fields[0]) if len(pending_fields) else -1,
        pool=pool,
        phase=DECISION_PHASES[int(phase_hot.argmax())] if phase_hot.any() else GAME_OVER,
        num_monkeys=game.num_monkeys,
        in_play=[bool(v) for v in slots[: game.num_monkeys, 1]],
        mine=[bool(v) for v in slots[: game.num_monkeys, 2]],
        to_choose=[bool(v) for v in slots[: game.num_monkeys, 3]],
    )
