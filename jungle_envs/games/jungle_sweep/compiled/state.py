"""The compiled twin's state row (mirrors ``state.py``): the kernels' config, ``pack`` and
``unpack`` between a ``JungleSweepState`` and one int32 row.

Scalars come first, then fixed-capacity blocks; a list field keeps its length in a scalar
slot. The layout (field -> offset) is built from the game's config and travels in the
twin config with the observation's offsets, so one compiled kernel serves every option
value.

    scalars  phase round broom active dice_round turn pending ring_len leaving_len
             awards_len, then the coconuts held per monkey (6 slots)
    blocks   ring (ring capacity), monkey_pos (6), leaving (6), pool (6), supply (V),
             set_aside (V), coconuts (6 x 8 values, in the order drawn), awards (8)
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from jungle_envs.core.compiled.twin import observation_offsets
from jungle_envs.games.jungle_sweep.config import Config
from jungle_envs.games.jungle_sweep.state import JungleSweepState
from jungle_envs.games.jungle_sweep.tables import (
    ACTION_NAMES,
    LAST_MONKEY_COCONUTS,
    MAX_MONKEYS,
    NUM_FACES,
    PALM,
    ROUNDS,
    UNREWARDED,
)

SCALARS = (
    "phase",
    "round",
    "broom",
    "active",
    "dice_round",
    "turn",
    "pending",
    "ring_len",
    "leaving_len",
    "awards_len",
)
COCONUTS_PER_MONKEY = ROUNDS * LAST_MONKEY_COCONUTS  # no monkey earns more in a game
MAX_AWARDS = LAST_MONKEY_COCONUTS + MAX_MONKEYS  # coconuts handed out in one round, at most
# The observation's pieces (``config.layout``); the config carries where each starts as
# ``obs_at[OBS_<PIECE>]`` ("moves" only with the move_features option, else -1).
OBSERVATION_PIECES = (
    "fields",
    "monkeys",
    "pool",
    "phase",
    "round",
    "dice_rounds",
    "players",
    "supply",
    "own_coconuts",
    "own_value",
    "moves",
)
OBS_FIELDS = 0
OBS_MONKEYS = 1
OBS_POOL = 2
OBS_PHASE = 3
OBS_ROUND = 4
OBS_DICE_ROUNDS = 5
OBS_PLAYERS = 6
OBS_SUPPLY = 7
OBS_OWN_COCONUTS = 8
OBS_OWN_VALUE = 9
OBS_MOVES = 10

# Named as the module attribute so that numba's cache pickles it by reference.
JungleSweepTwinConfig = namedtuple(
    "JungleSweepTwinConfig",
    [
        "num_players", "num_actions", "obs_size", "row_size",
        "num_monkeys", "num_dice", "set_aside_count", "max_dice_rounds", "unrewarded",
        "max_ring_size", "move_features", "total_supply",
        "coconut_values", "initial_supply", "ring_counts", "short_of",
        # offsets into the row
        "phase", "round", "broom", "active", "dice_round", "turn", "pending", "ring_len",
        "leaving_len", "awards_len", "held", "ring", "monkey_pos", "leaving", "pool",
        "supply", "set_aside", "coconuts", "awards",
        # offsets into the observation
        "obs_at",
    ],
)  # fmt: skip
# The same fields with the move_features option, as a class of its own: numba compiles
# a game's kernels per config class, so a config without move features never
# compiles them (its first env is ready sooner).
JungleSweepMovesTwinConfig = namedtuple("JungleSweepMovesTwinConfig", JungleSweepTwinConfig._fields)


def make_twin_config(config: Config) -> JungleSweepTwinConfig:
    """The kernels' config for the game's ``config``: its numbers, its tables as arrays and
    the offsets into the state row and the observation."""
    at = {name: i for i, name in enumerate(SCALARS)}
    size = len(SCALARS)
    nvals = len(config.coconut_values)
    for name, length in (
        ("held", MAX_MONKEYS),
        ("ring", config.max_ring_size),
        ("monkey_pos", MAX_MONKEYS),
        ("leaving", MAX_MONKEYS),
        ("pool", NUM_FACES),
        ("supply", nvals),
        ("set_aside", nvals),
        ("coconuts", MAX_MONKEYS * COCONUTS_PER_MONKEY),
        ("awards", MAX_AWARDS),
    ):
        at[name], size = size, size + length
    ring_counts = np.array(config.ring_counts, dtype=np.int64)  # rounds x tile codes
    config_class = JungleSweepMovesTwinConfig if config.move_features else JungleSweepTwinConfig
    return config_class(
        num_players=config.num_players,
        num_actions=len(ACTION_NAMES),
        obs_size=config.observation_size,
        row_size=size,
        num_monkeys=config.num_monkeys,
        num_dice=config.num_dice,
        set_aside_count=config.set_aside_count,
        max_dice_rounds=config.max_dice_rounds,
        unrewarded=UNREWARDED[config.num_monkeys],
        max_ring_size=config.max_ring_size,
        move_features=bool(config.move_features),
        total_supply=max(sum(config.initial_supply), 1),
        coconut_values=np.array(config.coconut_values, dtype=np.int64),
        initial_supply=np.array(config.initial_supply, dtype=np.int64),
        ring_counts=ring_counts.reshape(ROUNDS, PALM + MAX_MONKEYS),
        short_of=np.asarray(config.short_of, dtype=np.float64),
        **at,
        obs_at=observation_offsets(config.layout, OBSERVATION_PIECES),
    )


def pack(cfg: JungleSweepTwinConfig, state: JungleSweepState, row: np.ndarray) -> None:
    row[cfg.phase], row[cfg.round], row[cfg.broom] = state.phase, state.round, state.broom
    row[cfg.active], row[cfg.dice_round], row[cfg.turn] = (
        state.active,
        state.dice_round,
        state.turn,
    )
    row[cfg.pending] = state.pending
    row[cfg.ring_len] = len(state.ring)
    row[cfg.ring : cfg.ring + len(state.ring)] = state.ring
    monkeys = len(state.monkey_pos)
    row[cfg.monkey_pos : cfg.monkey_pos + monkeys] = state.monkey_pos
    row[cfg.leaving_len] = len(state.leaving_order)
    row[cfg.leaving : cfg.leaving + len(state.leaving_order)] = state.leaving_order
    row[cfg.pool : cfg.pool + NUM_FACES] = state.pool
    nvals = len(state.supply)
    row[cfg.supply : cfg.supply + nvals] = state.supply
    row[cfg.set_aside : cfg.set_aside + nvals] = state.set_aside
    for m, values in enumerate(state.coconuts):
        row[cfg.held + m] = len(values)
        start = cfg.coconuts + m * COCONUTS_PER_MONKEY
        row[start : start + len(values)] = values
    row[cfg.awards_len] = len(state.awards)
    row[cfg.awards : cfg.awards + len(state.awards)] = state.awards


def unpack(cfg: JungleSweepTwinConfig, row: np.ndarray) -> JungleSweepState:
    def block(at: int, length: int) -> list[int]:
        return row[at : at + length].tolist()

    monkeys, nvals = cfg.num_monkeys, len(cfg.coconut_values)
    coconuts = [
        block(cfg.coconuts + m * COCONUTS_PER_MONKEY, int(row[cfg.held + m]))
        for m in range(monkeys)
    ]
    return JungleSweepState(
        phase=int(row[cfg.phase]),
        round=int(row[cfg.round]),
        ring=block(cfg.ring, int(row[cfg.ring_len])),
        broom=int(row[cfg.broom]),
        monkey_pos=block(cfg.monkey_pos, monkeys),
        leaving_order=block(cfg.leaving, int(row[cfg.leaving_len])),
        active=int(row[cfg.active]),
        dice_round=int(row[cfg.dice_round]),
        pool=block(cfg.pool, NUM_FACES),
        turn=int(row[cfg.turn]),
        pending=int(row[cfg.pending]),
        supply=block(cfg.supply, nvals),
        set_aside=block(cfg.set_aside, nvals),
        coconuts=coconuts,
        awards=block(cfg.awards, int(row[cfg.awards_len])),
    )
