"""Tropic Race's observation as a compiled kernel (mirrors encoding.py).

``observe`` writes exactly the vector of ``encoding.observe`` (same layout, same float32
values), at the offsets of ``config.LAYOUT`` that the twin config carries (``obs_<piece>``).
"""

from __future__ import annotations

import numpy as np

from jungle_envs.core.compiled.jit import kernel
from jungle_envs.games.tropic_race.compiled.board import TILE_FAR, TILE_NEAR
from jungle_envs.games.tropic_race.compiled.rules import KINDS, location_table
from jungle_envs.games.tropic_race.config import MIN_PLAYERS
from jungle_envs.games.tropic_race.encoding import LAND_INDEX
from jungle_envs.games.tropic_race.tables import LION, MOVE, NO_TILE, NUM_LOCATIONS, SLOTS

LAND_AT = location_table(LAND_INDEX.items())


@kernel
def observe(cfg, s, seat, obs):
    obs[:] = 0.0
    n, per = cfg.num_players, cfg.monkeys
    for other in range(n):
        base = cfg.obs_monkeys + ((other - seat) % n) * NUM_LOCATIONS
        for i in range(per):
            cell = base + s[cfg.seats + other * per + i]
            obs[cell] = obs[cell] + np.float32(1.0)
    # As the reference: counts divided once, in float32, so a full location is exactly 1.
    monkeys = np.float32(per)
    for j in range(cfg.obs_monkeys, cfg.obs_monkeys + n * NUM_LOCATIONS):
        obs[j] = obs[j] / monkeys
    obs[cfg.obs_lion + LAND_AT[s[cfg.lion]]] = 1.0
    for slot in range(SLOTS):
        kind = s[cfg.slots + slot]
        if kind != NO_TILE:
            obs[cfg.obs_river + 2 * slot] = TILE_NEAR[kind]
            obs[cfg.obs_river + 2 * slot + 1] = TILE_FAR[kind]
    for kind in range(KINDS):
        obs[cfg.obs_supply + kind] = s[cfg.supply + kind] / cfg.total_tiles
    if s[cfg.phase] == MOVE:
        obs[cfg.obs_phase] = 1.0
        obs[cfg.obs_steps + s[cfg.steps] - 1] = 1.0
    elif s[cfg.phase] == LION:
        obs[cfg.obs_phase + 1] = 1.0
    obs[cfg.obs_players + n - MIN_PLAYERS] = 1.0
    for i in range(cfg.field_features.shape[0]):
        obs[cfg.obs_fields + i] = cfg.field_features[i]
