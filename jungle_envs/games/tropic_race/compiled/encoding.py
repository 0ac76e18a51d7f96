"""Tropic Race's observation as a compiled kernel (mirrors encoding.py).

``observe`` writes exactly the vector of ``encoding.observe`` (same layout, same float32
values), at the offsets of ``config.LAYOUT`` (``OBS_<PIECE>`` in ``compiled/state.py``).
"""

from __future__ import annotations

import numpy as np

from jungle_envs.core.compiled.jit import kernel
from jungle_envs.games.tropic_race.compiled.board import TILE_FAR, TILE_NEAR
from jungle_envs.games.tropic_race.compiled.rules import KINDS, location_table
from jungle_envs.games.tropic_race.compiled.state import (
    OBS_FIELDS,
    OBS_LION,
    OBS_MONKEYS,
    OBS_PHASE,
    OBS_PLAYERS,
    OBS_RIVER,
    OBS_STEPS,
    OBS_SUPPLY,
)
from jungle_envs.games.tropic_race.config import MIN_PLAYERS
from jungle_envs.games.tropic_race.encoding import LAND_INDEX
from jungle_envs.games.tropic_race.tables import LION, MOVE, NO_TILE, NUM_LOCATIONS, SLOTS

LAND_AT = location_table(LAND_INDEX.items())


@kernel
def observe(cfg, s, seat, obs):
    obs[:] = 0.0
    n, per = cfg.num_players, cfg.monkeys
    for other in range(n):
        base = OBS_MONKEYS + ((other - seat) % n) * NUM_LOCATIONS
        for i in range(per):
            cell = base + s[cfg.seats + other * per + i]
            obs[cell] = obs[cell] + np.float32(1.0)
    # As the reference: counts divided once, in float32, so a full location is exactly 1.
    monkeys = np.float32(per)
    for j in range(OBS_MONKEYS, OBS_MONKEYS + n * NUM_LOCATIONS):
        obs[j] = obs[j] / monkeys
    obs[OBS_LION + LAND_AT[s[cfg.lion]]] = 1.0
    for slot in range(SLOTS):
        kind = s[cfg.slots + slot]
        if kind != NO_TILE:
            obs[OBS_RIVER + 2 * slot] = TILE_NEAR[kind]
            obs[OBS_RIVER + 2 * slot + 1] = TILE_FAR[kind]
    for kind in range(KINDS):
        obs[OBS_SUPPLY + kind] = s[cfg.supply + kind] / cfg.total_tiles
    if s[cfg.phase] == MOVE:
        obs[OBS_PHASE] = 1.0
        obs[OBS_STEPS + s[cfg.steps] - 1] = 1.0
    elif s[cfg.phase] == LION:
        obs[OBS_PHASE + 1] = 1.0
    obs[OBS_PLAYERS + n - MIN_PLAYERS] = 1.0
    for i in range(cfg.field_features.shape[0]):
        obs[OBS_FIELDS + i] = cfg.field_features[i]
