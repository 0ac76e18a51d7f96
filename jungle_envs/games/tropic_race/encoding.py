"""Tropic Race observation: a flat float32 vector in [0, 1] from one seat's point of view.

The observation is ``LAYOUT``, a table of named pieces (``docs/rules/tropic_race.md``
shows it); the locations are in the order of ``tables.LOCATION_NAMES``. Seats are rotated
so the observer comes first: seat slot k is the seat k places after the observer in turn
order. The game has no hidden information, so ``decode`` gives back the position.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from jungle_envs.core.layout import Layout, Piece
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

if TYPE_CHECKING:  # config.py builds its configs with LAYOUT: no import at run time
    from jungle_envs.games.tropic_race.config import Config

MAX_SEATS = 5
MIN_PLAYERS = 2
LAND_INDEX = {field: i for i, field in enumerate(LAND)}

LAYOUT = Layout(
    [
        Piece(
            "monkeys",
            (MAX_SEATS, NUM_LOCATIONS),
            "per rotated seat (the observer first): monkeys on each location (START, T1-T3, "
            "B1-B9, NT1-5, FT1-5, FB1-5, GOAL) / monkeys per player",
        ),
        Piece("lion", (len(LAND),), "one-hot over the land fields T1-T3, B1-B9"),
        Piece("river", (SLOTS, 2), "per slot 1-5: near turtle present, far turtle present"),
        Piece(
            "supply",
            (len(TILE_KINDS),),
            "face-down tiles per kind (bridge, near only, far only, empty) / tiles in the box",
        ),
        Piece("phase", (2,), "one-hot: move a monkey, walk the lion"),
        Piece("steps", (MAX_NUMBER,), "one-hot: steps of the pending move (1-9)"),
        Piece("players", (MAX_SEATS - MIN_PLAYERS + 1,), "one-hot: 2-5 players"),
        Piece(
            "fields",
            (len(LAND), 2),
            "per land field: die field, arrow field (fixed by the options)",
        ),
    ]
)


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
    return obs


def field_features(die_fields: frozenset[int], arrow_fields: frozenset[int]) -> np.ndarray:
    """The ``fields`` piece: per land field, whether it is a die field, an arrow field."""
    return np.array(
        [flag for f in LAND for flag in (f in die_fields, f in arrow_fields)],
        dtype=np.float32,
    )


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
