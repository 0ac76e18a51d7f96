"""Tropic Race's observation as a compiled kernel (mirrors encoding.py).

``observe`` writes exactly the vector of ``encoding.observe`` (same layout, same float32
values), at the offsets of ``config.LAYOUT`` (``OBS_<PIECE>`` in ``compiled/state.py``).
"""

from __future__ import annotations

import numpy as np

from jungle_envs.core.compiled import contract
from jungle_envs.core.compiled.arrays import copy_into
from jungle_envs.core.compiled.jit import kernel
from jungle_envs.games.tropic_race.compiled.board import TILE_FAR, TILE_NEAR
from jungle_envs.games.tropic_race.compiled.heuristic import after, progress, seen_from
from jungle_envs.games.tropic_race.compiled.rules import (
    KINDS,
    MOVE_FROM,
    MOVE_TO,
    location_table,
)
from jungle_envs.games.tropic_race.compiled.state import (
    OBS_FIELDS,
    OBS_LION,
    OBS_MONKEYS,
    OBS_MOVES,
    OBS_PHASE,
    OBS_PLAYERS,
    OBS_RIVER,
    OBS_STEPS,
    OBS_SUPPLY,
)
from jungle_envs.games.tropic_race.config import (
    GAP_SPAN,
    MIN_PLAYERS,
    MOVE_FEATURES,
    PROGRESS_LOW,
    PROGRESS_SPAN,
    STANDING_SPAN,
)
from jungle_envs.games.tropic_race.encoding import LAND_INDEX
from jungle_envs.games.tropic_race.tables import (
    GAME_OVER,
    GOAL,
    LION,
    LION_ACTION,
    MOVE,
    NO_TILE,
    NUM_LOCATIONS,
    PUSH,
    ROLL,
    SLOTS,
    START,
)

LAND_AT = location_table(LAND_INDEX.items())


@kernel
def observe_board(cfg, s, seat, obs):
    """``observe`` without the ``moves`` piece: the observation of a config without
    move features."""
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


@kernel
def observe(cfg, s, seat, obs):
    """The observation with the ``moves`` piece (the move-features config's ``observe``)."""
    observe_board(cfg, s, seat, obs)
    if contract.current_player(cfg, s) == seat:
        write_move_features(cfg, s, seat, obs)


@kernel(inline=True)
def scaled(value, low, span):
    return min(max(value - low, 0.0), span) / span


@kernel
def count_at(cfg, s, seat, loc):
    count, base = 0, cfg.seats + seat * cfg.monkeys
    for i in range(cfg.monkeys):
        count += s[base + i] == loc
    return count


@kernel
def write_move_features(cfg, s, seat, obs):
    """``encoding.write_move_features``: the ``moves`` piece for the seat deciding now."""
    mask = np.zeros(cfg.num_actions, dtype=np.bool_)
    contract.legal_mask(cfg, s, mask)
    rows = np.empty((4, s.shape[0]), dtype=s.dtype)
    view, child, pushed, played = rows[0], rows[1], rows[2], rows[3]
    seen_from(cfg, s, seat, view)
    standing = np.zeros(cfg.num_actions)
    best = -np.inf
    for action in range(cfg.num_actions):
        if mask[action]:
            standing[action] = after(cfg, view, child, pushed, action)
            best = max(best, standing[action])
    n, per = cfg.num_players, cfg.monkeys
    for action in range(cfg.num_actions):
        if not mask[action]:
            continue
        at = OBS_MOVES + action * MOVE_FEATURES
        obs[at] = 1.0
        if action >= LION_ACTION:
            obs[at + 1] = 1.0
        else:
            origin, end = MOVE_FROM[action], MOVE_TO[action]
            land = START if end == s[cfg.lion] else end
            obs[at + 2] = scaled(progress(cfg, s, origin), PROGRESS_LOW, PROGRESS_SPAN)
            obs[at + 3] = scaled(progress(cfg, s, land), PROGRESS_LOW, PROGRESS_SPAN)
        value = standing[action]
        obs[at + 4] = scaled(value, -STANDING_SPAN, 2 * STANDING_SPAN)
        obs[at + 5] = value == best
        obs[at + 6] = min(best - value, GAP_SPAN) / GAP_SPAN
        copy_into(played, s)
        contract.apply_action(cfg, played, action)
        obs[at + 7] = played[cfg.phase] == GAME_OVER
        obs[at + 8] = count_at(cfg, played, seat, GOAL) > count_at(cfg, s, seat, GOAL)
        obs[at + 9] = played[cfg.phase] == ROLL and played[cfg.player] == seat
        obs[at + 10] = played[cfg.phase] == PUSH
        rivals = 0
        for other in range(n):
            sent = max(count_at(cfg, played, other, START) - count_at(cfg, s, other, START), 0)
            if other == seat:
                obs[at + 11] = min(sent / per, 1.0)
            else:
                rivals += sent
        obs[at + 12] = min(rivals / per, 1.0)
