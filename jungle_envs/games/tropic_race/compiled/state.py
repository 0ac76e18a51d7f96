"""Tropic Race's compiled twin: the state row and the kernels' config (mirrors state.py).

A state is one int32 row: seven scalars, then the river, the supply and every seat's
monkeys (``monkeys`` slots per seat, kept sorted as the reference keeps its lists). The
layout (field -> offset) travels in the config with the game's options, so one compiled
kernel serves every option value; the observation's offsets are constants (``OBS_<PIECE>``,
from ``config.LAYOUT``).

    scalars  phase player lion steps then volcano rolls
    blocks   slots (5, NO_TILE until laid), supply (4 tile kinds),
             monkeys (players x monkeys per player, each seat's block sorted)
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from jungle_envs.core.compiled.twin import TwinUnavailable
from jungle_envs.games.tropic_race.config import LAYOUT, MOVES_LAYOUT, Config
from jungle_envs.games.tropic_race.state import TropicRaceState
from jungle_envs.games.tropic_race.tables import (
    ACTION_NAMES,
    LAND,
    NUM_LOCATIONS,
    SLOTS,
    TILE_KINDS,
)

SCALARS = ("phase", "player", "lion", "steps", "then", "volcano", "rolls")
# The observation's layout is the same for every option, so where each piece starts is a
# constant compiled into the kernels (a config field per piece would be passed on every
# kernel call: 15 of them made Spank the Monkey's rules 20-25% slower).
OBS_MONKEYS = LAYOUT.offset("monkeys")
OBS_LION = LAYOUT.offset("lion")
OBS_RIVER = LAYOUT.offset("river")
OBS_SUPPLY = LAYOUT.offset("supply")
OBS_PHASE = LAYOUT.offset("phase")
OBS_STEPS = LAYOUT.offset("steps")
OBS_PLAYERS = LAYOUT.offset("players")
OBS_FIELDS = LAYOUT.offset("fields")
OBS_MOVES = MOVES_LAYOUT.offset("moves")  # with the move_features option only
# The heuristic reads counts from the state where the reference decodes them from float32
# observations; both agree only while that decoding is exact, which holds (checked for
# every count) up to these sizes.
MAX_MONKEYS_PER_PLAYER = 1000
MAX_TILES = 1_000_000

# Named as the module attribute so that numba's cache pickles it by reference.
TropicRaceTwinConfig = namedtuple(
    "TropicRaceTwinConfig",
    [
        "num_players", "num_actions", "obs_size", "row_size",
        "monkeys", "lion_start", "total_tiles",
        "tile_mix", "die_outcomes", "die_counts", "die_field", "arrow_field",
        "field_features", "move_features",
        # offsets into the row
        "phase", "player", "lion", "steps", "then", "volcano", "rolls",
        "slots", "supply", "seats",
        # offsets into the observation
    ],
)  # fmt: skip
# The same fields with the move_features option, as a class of its own: numba compiles
# a game's kernels per config class, so a config without move features never
# compiles them (its first env is ready sooner).
TropicRaceMovesTwinConfig = namedtuple("TropicRaceMovesTwinConfig", TropicRaceTwinConfig._fields)
TwinConfig = TropicRaceTwinConfig


def make_twin_config(config: Config) -> TwinConfig:
    if config.layout.pieces != (MOVES_LAYOUT if config.move_features else LAYOUT).pieces:
        raise TwinUnavailable("the twin writes only the game's own observation layout")
    per, total = config.monkeys_per_player, sum(config.tile_mix)
    if per > MAX_MONKEYS_PER_PLAYER:
        raise TwinUnavailable(
            f"the Tropic Race twin supports up to {MAX_MONKEYS_PER_PLAYER} monkeys per "
            f"player (got {per}): the reference heuristic decodes float32 counts, checked "
            "exact only up to there"
        )
    if total > MAX_TILES:
        raise TwinUnavailable(
            f"the Tropic Race twin supports up to {MAX_TILES} river tiles (got {total}): "
            "the reference heuristic decodes float32 counts, checked exact only up to there"
        )
    at = {name: i for i, name in enumerate(SCALARS)}
    size = len(SCALARS)
    for name, length in (
        ("slots", SLOTS),
        ("supply", len(TILE_KINDS)),
        ("seats", config.num_players * per),
    ):
        at[name], size = size, size + length
    die_field = np.zeros(NUM_LOCATIONS, dtype=np.int64)
    die_field[sorted(config.die_fields)] = 1
    arrow_field = np.zeros(NUM_LOCATIONS, dtype=np.int64)
    arrow_field[sorted(config.arrow_fields)] = 1
    features = np.array(
        [flag for f in LAND for flag in (die_field[f], arrow_field[f])], dtype=np.float64
    )
    config_class = TropicRaceMovesTwinConfig if config.move_features else TropicRaceTwinConfig
    return config_class(
        num_players=config.num_players,
        num_actions=len(ACTION_NAMES),
        obs_size=config.observation_size,
        row_size=size,
        monkeys=per,
        lion_start=config.lion_start,
        total_tiles=total,
        tile_mix=np.array(config.tile_mix, dtype=np.int64),
        die_outcomes=np.array(config.die_outcomes, dtype=np.int64),
        die_counts=np.array(config.die_counts, dtype=np.int64),
        die_field=die_field,
        arrow_field=arrow_field,
        field_features=features,
        move_features=bool(config.move_features),
        **at,
    )


def pack(cfg: TwinConfig, state: TropicRaceState, row: np.ndarray) -> None:
    for name in SCALARS:
        row[getattr(cfg, name)] = int(getattr(state, name))
    row[cfg.slots : cfg.slots + SLOTS] = state.slots
    row[cfg.supply : cfg.supply + len(TILE_KINDS)] = state.supply
    for seat, locations in enumerate(state.monkeys):
        start = cfg.seats + seat * cfg.monkeys
        row[start : start + cfg.monkeys] = locations


def unpack(cfg: TwinConfig, row: np.ndarray) -> TropicRaceState:
    def block(at: int, length: int) -> list[int]:
        return row[at : at + length].tolist()

    per = cfg.monkeys
    return TropicRaceState(
        phase=int(row[cfg.phase]),
        player=int(row[cfg.player]),
        monkeys=[block(cfg.seats + seat * per, per) for seat in range(cfg.num_players)],
        lion=int(row[cfg.lion]),
        slots=block(cfg.slots, SLOTS),
        supply=block(cfg.supply, len(TILE_KINDS)),
        steps=int(row[cfg.steps]),
        then=int(row[cfg.then]),
        volcano=bool(row[cfg.volcano]),
        rolls=int(row[cfg.rolls]),
    )
