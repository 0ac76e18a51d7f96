"""Jungle Sweep's observation as a compiled kernel (mirrors ``encoding.py``).

``observe`` writes exactly the vector of ``encoding.observe`` (same layout, same float32
values), at the offsets of ``config.observation_layout`` that the twin config carries
(``obs_*``).
"""

from __future__ import annotations

import numpy as np

from jungle_envs.core.compiled.jit import kernel
from jungle_envs.games.jungle_sweep.compiled.board import (
    FACE_STEPS,
    mover,
    palm_jump,
    positions,
    short_of,
    terrain,
    walk,
)
from jungle_envs.games.jungle_sweep.compiled.heuristic import write_lookahead
from jungle_envs.games.jungle_sweep.compiled.state import (
    COCONUTS_PER_MONKEY,
    OBS_DICE_ROUNDS,
    OBS_FIELDS,
    OBS_MONKEYS,
    OBS_MOVES,
    OBS_OWN_COCONUTS,
    OBS_OWN_VALUE,
    OBS_PHASE,
    OBS_PLAYERS,
    OBS_POOL,
    OBS_ROUND,
    OBS_SUPPLY,
)
from jungle_envs.games.jungle_sweep.config import (
    FIELD_FEATURES,
    MIN_PLAYERS,
    MONKEY_FEATURES,
    MOVE_FEATURES,
)
from jungle_envs.games.jungle_sweep.encoding import TERRAIN_COLUMN
from jungle_envs.games.jungle_sweep.tables import (
    CHOOSE_DIE,
    CLEARING,
    CLEARING_CHOICE,
    GAME_OVER,
    HILL,
    HILL_CHOICE,
    NUM_FACES,
    NUM_TERRAINS,
    PALM,
    PALM_FACE,
    ROUNDS,
    WATER,
    WATER_HOLE,
)

COLUMN = np.array(TERRAIN_COLUMN, dtype=np.int64)


@kernel(inline=True)
def deciding(s, cfg):
    phase = s[cfg.phase]
    return phase in (CHOOSE_DIE, WATER, HILL_CHOICE, CLEARING_CHOICE)


@kernel(inline=True)
def phase_index(phase):
    if phase == CHOOSE_DIE:
        return 0
    if phase == WATER:
        return 1
    if phase == HILL_CHOICE:
        return 2
    return 3


@kernel
def observe_board(cfg, s, seat, obs):
    """``observe`` without the ``moves`` piece (a config without move features); returns
    the monkey the observation centres on."""
    obs[:] = 0.0
    monkeys, n = cfg.num_monkeys, cfg.num_players
    decide = deciding(s, cfg)
    focus = seat
    if decide and mover(cfg, s) % n == seat:
        focus = mover(cfg, s)
    size, broom = s[cfg.ring_len], s[cfg.broom]
    start = broom if broom >= 0 else 0
    fields = cfg.obs_at[OBS_FIELDS]
    for j in range(size):
        code = s[cfg.ring + (j + start) % size]
        obs[fields + j * FIELD_FEATURES + COLUMN[code if code < PALM else PALM]] = 1.0
    if size and s[cfg.phase] != GAME_OVER:
        for m in range(monkeys):
            pos = s[cfg.monkey_pos + m]
            if pos >= 0:
                field = (pos - start) % size
                obs[fields + field * FIELD_FEATURES + NUM_TERRAINS + (m - focus) % monkeys] = 1.0
    if s[cfg.pending] >= 0:
        field = (s[cfg.pending] - start) % size
        obs[fields + field * FIELD_FEATURES + FIELD_FEATURES - 1] = 1.0
    who = mover(cfg, s)
    for m in range(monkeys):
        row = cfg.obs_at[OBS_MONKEYS] + ((m - focus) % monkeys) * MONKEY_FEATURES
        obs[row] = 1.0
        obs[row + 1] = s[cfg.monkey_pos + m] >= 0
        obs[row + 2] = m % n == seat
        obs[row + 3] = decide and (m - s[cfg.active]) % monkeys >= s[cfg.turn]
        obs[row + 4] = m == s[cfg.active]
        obs[row + 5] = decide and m == who
        obs[row + 6] = min(s[cfg.held + m] / 8.0, 1.0)
    if decide:
        for f in range(NUM_FACES):
            obs[cfg.obs_at[OBS_POOL] + f] = s[cfg.pool + f] / cfg.num_dice
        obs[cfg.obs_at[OBS_PHASE] + phase_index(s[cfg.phase])] = 1.0
    if s[cfg.round] < ROUNDS:
        obs[cfg.obs_at[OBS_ROUND] + s[cfg.round]] = 1.0
    obs[cfg.obs_at[OBS_DICE_ROUNDS]] = min(s[cfg.dice_round] / 20.0, 1.0)
    obs[cfg.obs_at[OBS_PLAYERS] + n - MIN_PLAYERS] = 1.0
    nvals = cfg.coconut_values.shape[0]
    left = 0
    for i in range(nvals):
        left += s[cfg.supply + i]
    obs[cfg.obs_at[OBS_SUPPLY]] = left / cfg.total_supply
    at = cfg.obs_at[OBS_OWN_COCONUTS]
    own = 0
    for m in range(seat, monkeys, n):
        for k in range(s[cfg.held + m]):
            value = s[cfg.coconuts + m * COCONUTS_PER_MONKEY + k]
            i = 0
            while cfg.coconut_values[i] != value:
                i += 1
            obs[at + i] += 1.0 / 16.0  # sixteenths are exact in float32, as in float64
            own += value
    for i in range(nvals):
        obs[at + i] = min(obs[at + i], 1.0)
    obs[cfg.obs_at[OBS_OWN_VALUE]] = min(own / 64.0, 1.0)
    return focus


@kernel
def observe(cfg, s, seat, obs):
    """The observation with the ``moves`` piece (the move-features config's ``observe``)."""
    focus = observe_board(cfg, s, seat, obs)
    move_features(cfg, s, focus, obs, cfg.obs_at[OBS_MOVES])
    if s[cfg.phase] == CHOOSE_DIE and focus == mover(cfg, s):
        write_lookahead(cfg, s, seat, focus, obs, cfg.obs_at[OBS_MOVES])


@kernel
def move_features(cfg, s, monkey, obs, at):
    """Where ``monkey`` would go with each die face (see ``encoding.move_features``)."""
    pos, broom = positions(cfg, s), s[cfg.broom]
    start = pos[monkey]
    if start < 0 or not deciding(s, cfg):
        return
    size = s[cfg.ring_len]
    for face in range(NUM_FACES):
        if face == 0:
            target = start
        elif face == PALM_FACE:
            target = palm_jump(cfg, s, pos, broom, monkey, start)
        else:
            target = walk(cfg, s, pos, broom, monkey, start, FACE_STEPS[face])
        land = terrain(cfg, s, target)
        ahead = (target - broom) % size
        safe = 1.0 if land == PALM else short_of(cfg, ahead)
        moved = target != start and face != PALM_FACE
        row = at + face * MOVE_FEATURES
        obs[row] = s[cfg.pool + face] > 0
        obs[row + 1] = land == PALM
        obs[row + 2] = ahead / size
        obs[row + 3] = safe
        obs[row + 4] = moved and land == WATER_HOLE
        obs[row + 5] = moved and land == HILL
        obs[row + 6] = moved and land == CLEARING
