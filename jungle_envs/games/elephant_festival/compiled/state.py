"""Elephant Festival's compiled twin: the kernels' config and the state row (mirrors
``state.py``).

A state is one int32 row. Scalars come first, then fixed-capacity blocks; the layout
(field -> offset) is built from the game's options and travels in the config, so one
compiled kernel serves every option value. N = players, C = grid x grid cells, K = 30 tile
kinds, L = tiles per player + 1: the most tiles one ground can take, one per round (a
hand-built position whose draws do not come in full rounds may have one round more).

    scalars  phase bag draws_left holder turn
    blocks   passes (N), placed (N: tiles on each ground), elephants (N x 2), box (K),
             display (K), discarded (K), top (N x C: top tile code, START_TILE on the
             start cell), height (N x C: stack height, 0 for an empty cell),
             log_cell (N x L), log_kind (N x L: each ground's tiles in the order laid)

A ground lives twice: ``top``/``height`` are what scoring and the observation read, the
log is what rebuilds the stacks (a stack is its cell's log entries, bottom first) and
lists the occupied cells, so kernels never scan the whole grid.

The config also carries the observation's offsets, ``obs_at[OBS_<PIECE>]`` for each piece of
``config.layout`` (``config.py``'s ``layout``).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from jungle_envs.core.compiled.twin import TwinUnavailable, observation_offsets
from jungle_envs.games.elephant_festival.config import SPEC, Config
from jungle_envs.games.elephant_festival.state import ElephantFestivalState
from jungle_envs.games.elephant_festival.tables import (
    ACTION_NAMES,
    ELEPHANTS,
    NUM_KINDS,
    START_TILE,
)

SCALARS = ("phase", "bag", "draws_left", "holder", "turn")
# The observation's pieces (``config.layout``); the config carries where each starts as
# ``obs_at[OBS_<PIECE>]``.
OBSERVATION_PIECES = (
    "grounds",
    "display",
    "unseen",
    "bag",
    "passes",
    "holder",
    "players",
    "moves",  # with the move_features option only (else -1)
)
OBS_GROUNDS = 0
OBS_DISPLAY = 1
OBS_UNSEEN = 2
OBS_BAG = 3
OBS_PASSES = 4
OBS_HOLDER = 5
OBS_PLAYERS = 6
OBS_MOVES = 7
KNOWN_OPTIONS = {"tiles_per_color", "grid", "move_features"}
MAX_ROW = 2**31 - 1  # cell numbers and offsets are int32 in the row

# Named as the module attribute so that numba's cache pickles it by reference.
ElephantFestivalTwinConfig = namedtuple(
    "ElephantFestivalTwinConfig",
    [
        "num_players", "num_actions", "obs_size", "row_size",
        "grid", "cells", "start_cell", "tiles_per_player", "log_size", "bag_size", "most",
        "tile_counts", "move_features",
        # offsets into the row
        "phase", "bag", "draws_left", "holder", "turn", "passes", "placed", "elephants",
        "box", "display", "discarded", "top", "height", "log_cell", "log_kind",
        # offsets into the observation
        "obs_at",
    ],
)  # fmt: skip
# The same fields with the move_features option, as a class of its own: numba compiles
# a game's kernels per config class, so a config without move features never
# compiles them (its first env is ready sooner).
ElephantFestivalMovesTwinConfig = namedtuple(
    "ElephantFestivalMovesTwinConfig", ElephantFestivalTwinConfig._fields
)
TwinConfig = ElephantFestivalTwinConfig


def make_twin_config(config: Config) -> TwinConfig:
    unknown = sorted({option.name for option in SPEC.options} - KNOWN_OPTIONS)
    if unknown:
        raise TwinUnavailable(f"the Elephant Festival twin does not know option(s) {unknown}")
    n, cells = config.num_players, config.grid * config.grid
    log_size = config.tiles_per_player + 1
    at = {name: i for i, name in enumerate(SCALARS)}
    size = len(SCALARS)
    for name, length in (
        ("passes", n),
        ("placed", n),
        ("elephants", n * ELEPHANTS),
        ("box", NUM_KINDS),
        ("display", NUM_KINDS),
        ("discarded", NUM_KINDS),
        ("top", n * cells),
        ("height", n * cells),
        ("log_cell", n * log_size),
        ("log_kind", n * log_size),
    ):
        at[name], size = size, size + length
    if size > MAX_ROW:
        raise TwinUnavailable(f"a {config.grid} x {config.grid} ground does not fit an int32 row")
    config_class = ElephantFestivalMovesTwinConfig if config.move_features else TwinConfig
    return config_class(
        num_players=n,
        num_actions=len(ACTION_NAMES),
        obs_size=config.observation_size,
        row_size=size,
        grid=config.grid,
        cells=cells,
        start_cell=config.start_cell,
        tiles_per_player=config.tiles_per_player,
        log_size=log_size,
        bag_size=config.bag_size,
        most=max(config.tile_counts),
        tile_counts=tuple(int(count) for count in config.tile_counts),
        move_features=bool(config.move_features),
        **at,
        obs_at=tuple(int(at) for at in observation_offsets(config.layout, OBSERVATION_PIECES)),
    )


def pack(cfg: TwinConfig, state: ElephantFestivalState, row: np.ndarray) -> None:
    n, cells, log_size = cfg.num_players, cfg.cells, cfg.log_size
    for name in SCALARS:
        row[getattr(cfg, name)] = getattr(state, name)
    row[cfg.passes : cfg.passes + n] = state.passes
    for name in ("box", "display", "discarded"):
        at = getattr(cfg, name)
        row[at : at + NUM_KINDS] = getattr(state, name)
    for seat, ground in enumerate(state.grounds):
        row[cfg.elephants + seat * ELEPHANTS : cfg.elephants + (seat + 1) * ELEPHANTS] = (
            state.elephants[seat]
        )
        laid = 0
        for cell, stack in enumerate(ground):
            row[cfg.height + seat * cells + cell] = len(stack)
            if stack:
                row[cfg.top + seat * cells + cell] = stack[-1]
            if cell == cfg.start_cell:
                continue
            if laid + len(stack) > log_size:
                raise TwinUnavailable(f"seat {seat}'s ground holds more than {log_size} tiles")
            for kind in stack:  # any order of cells rebuilds the same stacks
                row[cfg.log_cell + seat * log_size + laid] = cell
                row[cfg.log_kind + seat * log_size + laid] = kind
                laid += 1
        row[cfg.placed + seat] = laid


def unpack(cfg: TwinConfig, row: np.ndarray) -> ElephantFestivalState:
    n, cells, log_size = cfg.num_players, cfg.cells, cfg.log_size

    def block(at: int, length: int) -> list[int]:
        return row[at : at + length].tolist()

    grounds = []
    for seat in range(n):
        ground: list[list[int]] = [[] for _ in range(cells)]
        ground[cfg.start_cell].append(START_TILE)
        laid = int(row[cfg.placed + seat])
        at = seat * log_size
        log_cells = block(cfg.log_cell + at, laid)
        for cell, kind in zip(log_cells, block(cfg.log_kind + at, laid), strict=True):
            ground[cell].append(kind)
        grounds.append(ground)
    return ElephantFestivalState(
        phase=int(row[cfg.phase]),
        grounds=grounds,
        elephants=[block(cfg.elephants + seat * ELEPHANTS, ELEPHANTS) for seat in range(n)],
        passes=block(cfg.passes, n),
        box=block(cfg.box, NUM_KINDS),
        bag=int(row[cfg.bag]),
        draws_left=int(row[cfg.draws_left]),
        display=block(cfg.display, NUM_KINDS),
        holder=int(row[cfg.holder]),
        turn=int(row[cfg.turn]),
        discarded=block(cfg.discarded, NUM_KINDS),
    )
