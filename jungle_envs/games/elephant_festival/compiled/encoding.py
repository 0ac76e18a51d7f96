"""Elephant Festival's observation as a compiled kernel (mirrors ``encoding.py``).

``observe`` writes exactly the vector of ``encoding.observe`` (same layout, same float32
values): it clears the vector once and then visits only occupied cells, found through each
ground's log. The pieces' offsets are the twin config's ``obs_at[OBS_<PIECE>]``, taken from the
game's ``config.layout``.
"""

from __future__ import annotations

import numpy as np

from jungle_envs.core.compiled import contract
from jungle_envs.core.compiled.jit import kernel
from jungle_envs.games.elephant_festival.compiled.rules import (
    placement_values,
    relative_kind,
)
from jungle_envs.games.elephant_festival.compiled.state import (
    OBS_BAG,
    OBS_DISPLAY,
    OBS_GROUNDS,
    OBS_HOLDER,
    OBS_MOVES,
    OBS_PASSES,
    OBS_PLAYERS,
    OBS_UNSEEN,
)
from jungle_envs.games.elephant_festival.config import (
    CELL_FEATURES,
    ELEPHANT_AT,
    HEIGHT_AT,
    MAX_ROOM,
    MIN_PLAYERS,
    MOVE_FEATURES,
    MOVE_GAIN_SPAN,
    START_AT,
    SYMBOLS_AT,
)
from jungle_envs.games.elephant_festival.tables import (
    ELEPHANTS,
    MAX_PASSES,
    MAX_SYMBOLS,
    NUM_COLORS,
    NUM_KINDS,
    PASS_ACTION,
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
def observe_board(cfg, s, seat, obs):
    """``observe`` without the ``moves`` piece: the observation of a config without
    move features."""
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


@kernel
def observe(cfg, s, seat, obs):
    """The observation with the ``moves`` piece (the move-features config's ``observe``)."""
    observe_board(cfg, s, seat, obs)
    if contract.current_player(cfg, s) == seat:
        write_move_features(cfg, s, seat, obs)


@kernel
def write_move_features(cfg, s, seat, obs):
    """``encoding.write_move_features``: legal, score change, room and rank, per placement."""
    mask = np.zeros(cfg.num_actions, dtype=np.int8)
    contract.legal_mask(cfg, s, mask)
    gains = np.zeros(PASS_ACTION, dtype=np.int64)
    rooms = np.zeros(PASS_ACTION, dtype=np.int64)
    placement_values(cfg, s, seat, mask, gains, rooms)
    best = -(1 << 62)
    for action in range(PASS_ACTION):
        if mask[action] and gains[action] > best:
            best = gains[action]
    moves = cfg.obs_at[OBS_MOVES]
    for action in range(PASS_ACTION):
        if mask[action]:
            at = moves + action * MOVE_FEATURES
            gain = gains[action]
            obs[at] = 1.0
            obs[at + 1] = min(max(gain + MOVE_GAIN_SPAN, 0), 2 * MOVE_GAIN_SPAN) / (
                2 * MOVE_GAIN_SPAN
            )
            obs[at + 2] = rooms[action] / MAX_ROOM
            obs[at + 3] = 1.0 if gain == best else 0.0
            obs[at + 4] = min(best - gain, MOVE_GAIN_SPAN) / MOVE_GAIN_SPAN
            obs[at + 5] = 1.0 if gain > 0 else 0.0
            obs[at + 6] = 1.0 if gain < 0 else 0.0
