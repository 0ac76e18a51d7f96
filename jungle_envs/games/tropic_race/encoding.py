"""Tropic Race observation: a flat float32 vector in [0, 1] from one seat's point of view.

Layout (L = 29 locations in the order of ``tables.LOCATION_NAMES``: START, T1-T3, B1-B9,
NT1-NT5, FT1-FT5, FB1-FB5, GOAL; S = 5 seat slots; land = T1-T3, B1-B9):

    monkeys  S x L   per rotated seat: monkeys on each location / monkeys per player
    lion     12      one-hot over the land fields
    river    5 x 2   per slot 1-5: near turtle present, far turtle present
    supply   4       face-down tiles per kind (bridge, near only, far only, empty) / tiles
    phase    2       one-hot: move a monkey, walk the lion
    steps    9       one-hot: steps of the pending move (1-9)
    players  4       one-hot 2-5 players
    fields   12 x 2  per land field: die field, arrow field (fixed by the options)

Seats are rotated so the observer comes first: seat slot k is the seat k places after the
observer in turn order. The game has no hidden information.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from jungle_envs.games.tropic_race.state import TropicRaceState
from jungle_envs.games.tropic_race.tables import (
    LAND,
    LION,
    MAX_NUMBER,
    MOVE,
    NO_TILE,
    NUM_LOCATIONS,
    ROLL,
    SLOTS,
    THEN_STEP_ONE,
    TILE_KINDS,
    TILE_TURTLES,
)

if TYPE_CHECKING:
    from jungle_envs.games.tropic_race.game import TropicRace

MAX_SEATS = 5
MIN_PLAYERS = 2
LAND_INDEX = {field: i for i, field in enumerate(LAND)}
MONKEY_BLOCK = MAX_SEATS * NUM_LOCATIONS
LION_AT = MONKEY_BLOCK
RIVER_AT = LION_AT + len(LAND)
SUPPLY_AT = RIVER_AT + SLOTS * 2
PHASE_AT = SUPPLY_AT + len(TILE_KINDS)
STEPS_AT = PHASE_AT + 2
PLAYERS_AT = STEPS_AT + MAX_NUMBER
FIELDS_AT = PLAYERS_AT + 4
SIZE = FIELDS_AT + 2 * len(LAND)


def observation_size(game: TropicRace) -> int:
    return SIZE


def observe(game: TropicRace, state: TropicRaceState, seat: int, out=None) -> np.ndarray:
    obs = np.zeros(SIZE, dtype=np.float32) if out is None else out
    if out is not None:
        obs.fill(0.0)
    n = game.num_players
    for other in range(n):
        base = ((other - seat) % n) * NUM_LOCATIONS
        for loc in state.monkeys[other]:
            obs[base + loc] += 1.0
    # count first, divide once: summing 1/monkeys in float32 can pass 1.0 (10 monkeys)
    obs[: n * NUM_LOCATIONS] /= np.float32(game.monkeys_per_player)
    obs[LION_AT + LAND_INDEX[state.lion]] = 1.0
    for slot, kind in enumerate(state.slots):
        if kind != NO_TILE:
            near, far = TILE_TURTLES[kind]
            obs[RIVER_AT + 2 * slot] = near
            obs[RIVER_AT + 2 * slot + 1] = far
    total = sum(game.tile_mix)
    obs[SUPPLY_AT : SUPPLY_AT + len(TILE_KINDS)] = [c / total for c in state.supply]
    if state.phase == MOVE:
        obs[PHASE_AT] = 1.0
        obs[STEPS_AT + state.steps - 1] = 1.0
    elif state.phase == LION:
        obs[PHASE_AT + 1] = 1.0
    obs[PLAYERS_AT + n - MIN_PLAYERS] = 1.0
    obs[FIELDS_AT : FIELDS_AT + 2 * len(LAND)] = game.field_features
    return obs


def field_features(game: TropicRace) -> np.ndarray:
    return np.array(
        [flag for f in LAND for flag in (f in game.die_fields, f in game.arrow_fields)],
        dtype=np.float32,
    )


def decode(game: TropicRace, obs: np.ndarray) -> TropicRaceState:
    """The state an observation shows, with the observer as seat 0 and on the move.

    Everything is public, so this is the real position up to the seat rotation.
    """
    n, per = game.num_players, game.monkeys_per_player
    counts = np.rint(obs[:MONKEY_BLOCK].reshape(MAX_SEATS, NUM_LOCATIONS) * per).astype(int)
    monkeys = [
        sorted(loc for loc in range(NUM_LOCATIONS) for _ in range(counts[s, loc])) for s in range(n)
    ]
    river = obs[RIVER_AT : RIVER_AT + 2 * SLOTS].reshape(SLOTS, 2) > 0.5
    slots = [TILE_TURTLES.index((bool(near), bool(far))) for near, far in river]
    total = sum(game.tile_mix)
    supply = np.rint(obs[SUPPLY_AT : SUPPLY_AT + len(TILE_KINDS)] * total).astype(int).tolist()
    steps_hot = obs[STEPS_AT : STEPS_AT + MAX_NUMBER]
    moving = obs[PHASE_AT] > 0.5
    return TropicRaceState(
        phase=MOVE if moving else LION if obs[PHASE_AT + 1] > 0.5 else ROLL,
        player=0,
        monkeys=monkeys,
        lion=LAND[int(obs[LION_AT : LION_AT + len(LAND)].argmax())],
        slots=slots,
        supply=supply,
        steps=int(steps_hot.argmax()) + 1 if moving else 0,
        then=THEN_STEP_ONE,
        volcano=False,
        rolls=0,
    )
