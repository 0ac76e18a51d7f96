"""Elephant Festival's observation as a compiled kernel (mirrors ``encoding.py``).

``observe`` writes exactly the vector of ``encoding.observe`` (same layout, same float32
values): it clears the vector once and then visits only occupied cells, found through each
ground's log. The pieces' offsets are the twin config's ``obs_at[OBS_<PIECE>]``, taken from the
game's ``config.layout``.
"""

from __future__ import annotations

from jungle_envs.core.compiled.jit import kernel
from jungle_envs.games.elephant_festival.compiled.rules import relative_kind
from jungle_envs.games.elephant_festival.compiled.state import (
    OBS_BAG,
    OBS_DISPLAY,
    OBS_GROUNDS,
    OBS_HOLDER,
    OBS_PASSES,
    OBS_PLAYERS,
    OBS_UNSEEN,
)
from jungle_envs.games.elephant_festival.config import (
    CELL_FEATURES,
    ELEPHANT_AT,
    HEIGHT_AT,
    MIN_PLAYERS,
    START_AT,
    SYMBOLS_AT,
)
from jungle_envs.games.elephant_festival.tables import (
    ELEPHANTS,
    MAX_PASSES,
    MAX_SYMBOLS,
    NUM_COLORS,
    NUM_KINDS,
    START_TILE,
    TYPES,
)


@kernel(inline=True)
def observe_cell(cfg, s, obs, other, seat, base, shift, cell):
    top = s[cfg.top + other * cfg.cells + cell]
    at = base + cell * CELL_FEATURES
    if top == START_TILE:
        obs[at + shift] = 1.0
        obs[at + START_AT] = 1.0
    else:
        obs[at + (top // TYPES - seat) % NUM_COLORS] = 1.0
        obs[at + SYMBOLS_AT] = (top % TYPES) / MAX_SYMBOLS
        obs[at + HEIGHT_AT] = s[cfg.height + other * cfg.cells + cell] / cfg.tiles_per_player


@kernel
def observe(cfg, s, seat, obs):
    obs[:] = 0.0
    n, cells = cfg.num_players, cfg.cells
    for other in range(n):
        base = cfg.obs_at[OBS_GROUNDS] + ((other - seat) % n) * cells * CELL_FEATURES
        shift = (other - seat) % NUM_COLORS
        observe_cell(cfg, s, obs, other, seat, base, shift, cfg.start_cell)
        log = cfg.log_cell + other * cfg.log_size
        for i in range(s[cfg.placed + other]):  # a covered cell is written again, the same
            observe_cell(cfg, s, obs, other, seat, base, shift, s[log + i])
        for number in range(ELEPHANTS):
            cell = s[cfg.elephants + other * ELEPHANTS + number]
            obs[base + cell * CELL_FEATURES + ELEPHANT_AT + number] = 1.0
    for kind in range(NUM_KINDS):
        rel = relative_kind(kind, seat)
        obs[cfg.obs_at[OBS_DISPLAY] + rel] = s[cfg.display + kind] / n
        obs[cfg.obs_at[OBS_UNSEEN] + rel] = s[cfg.box + kind] / cfg.most
    obs[cfg.obs_at[OBS_BAG]] = s[cfg.bag] / cfg.bag_size
    for other in range(n):
        obs[cfg.obs_at[OBS_PASSES] + (other - seat) % n] = s[cfg.passes + other] / MAX_PASSES
    obs[cfg.obs_at[OBS_HOLDER] + (s[cfg.holder] - seat) % n] = 1.0
    obs[cfg.obs_at[OBS_PLAYERS] + n - MIN_PLAYERS] = 1.0
