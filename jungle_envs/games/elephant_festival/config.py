"""Elephant Festival's header, its observation layout, and the frozen Config: the options
and what follows from them.

``SPEC`` declares the game (players, actions, options with their checks); ``layout(grid)``
declares the observation (its grounds piece grows with the grid; ``encoding.py`` writes
and reads it); ``make_config`` turns a player count and checked options into the
``Config`` that every function of this folder takes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from jungle_envs.core.game import GameSpec, Option, integer_keys
from jungle_envs.core.layout import Layout, Piece
from jungle_envs.games.elephant_festival.tables import (
    ACTION_NAMES,
    DEFAULT_GRID,
    DEFAULT_TILES_PER_COLOR,
    ELEPHANTS,
    MAX_SYMBOLS,
    NUM_COLORS,
    NUM_KINDS,
    PASS_ACTION,
    TYPES,
)

MAX_TILES_PER_COLOR = 200
MAX_SEATS = NUM_COLORS
MIN_PLAYERS = 2
MAX_PLAYERS = NUM_COLORS
# A ground cell's values in the observation, in order: colour one-hot, then these.
START_AT = NUM_COLORS  # the start tile lies here
SYMBOLS_AT = NUM_COLORS + 1
HEIGHT_AT = NUM_COLORS + 2
ELEPHANT_AT = NUM_COLORS + 3  # elephant 1's flag; elephant 2's follows
CELL_FEATURES = ELEPHANT_AT + ELEPHANTS


# With the move_features option, per placement action: legal for the observer now, its
# score change (gain + MOVE_GAIN_SPAN) / (2 x MOVE_GAIN_SPAN) clipped to [0, 1], the
# placements the herd has after it / MAX_ROOM, whether no legal placement gains more, how
# far it falls short of the best (clipped to MOVE_GAIN_SPAN, / MOVE_GAIN_SPAN), gain > 0 and
# gain < 0. The flags and the shortfall give a network the ranking of the placements at
# the scale of a point: on the linear column a point is 1/32, which a network at PPO's
# learning rate takes tens of thousands of steps to resolve.
MOVE_FEATURES = 7
MOVE_GAIN_SPAN = 16
MAX_ROOM = ELEPHANTS * 4  # every elephant, every direction


def layout(grid: int, move_features: bool = False) -> Layout:
    """The observation's pieces for a ``grid`` x ``grid`` ground: a flat float32 vector in
    [0, 1] from one seat's view, seats rotated so that the observer's ground comes first,
    colours relative to the observer (see ``encoding.py``); with ``move_features``, what
    each placement would do."""
    moves = [
        Piece(
            "moves", (PASS_ACTION, MOVE_FEATURES),
            f"option `move_features` only, per placement action (all zero unless the "
            f"observer decides now): legal, score change clipped to +-{MOVE_GAIN_SPAN} and "
            f"scaled to [0, 1], placements left to the herd after it / {MAX_ROOM}, no legal "
            f"placement gains more (0/1), shortfall from the best gain / {MOVE_GAIN_SPAN} "
            f"(clipped), gain > 0 (0/1), gain < 0 (0/1)",
        )
    ] if move_features else []  # fmt: skip
    return Layout([
        Piece(
            "grounds", (MAX_SEATS, grid * grid, CELL_FEATURES),
            "per seat (the observer's first) and cell: top colour one-hot (5), start tile, "
            "symbols / 5, stack height / tiles per player, elephant 1 here, elephant 2 here",
        ),
        Piece("display", (NUM_KINDS,), "face-up tiles per kind / players"),
        Piece("unseen", (NUM_KINDS,), "tiles per kind not yet seen / the most of a kind"),
        Piece("bag", (1,), "tiles left in the bag / bag size"),
        Piece("passes", (MAX_SEATS,), "passes used per seat / 2"),
        Piece("holder", (MAX_SEATS,), "one-hot: the seat holding the bag"),
        Piece("players", (MAX_PLAYERS - MIN_PLAYERS + 1,), "one-hot 2-5 players"),
        *moves,
    ])  # fmt: skip


def _check_tiles(value: Any) -> dict[int, int]:
    if not isinstance(value, Mapping):
        raise TypeError(f"expected a mapping symbols -> tiles per colour, got {value!r}")
    value = integer_keys(value, "symbol counts")
    unknown = sorted(set(value) - set(DEFAULT_TILES_PER_COLOR), key=str)
    if unknown:
        raise ValueError(f"unknown symbol counts {unknown}; allowed: 0-{MAX_SYMBOLS}")
    tiles = {**DEFAULT_TILES_PER_COLOR, **value}
    if any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in tiles.values()):
        raise ValueError("tile counts must be ints >= 0")
    if not 0 < sum(tiles.values()) <= MAX_TILES_PER_COLOR:
        raise ValueError(f"each colour needs 1 to {MAX_TILES_PER_COLOR} tiles (one round each)")
    return dict(sorted(tiles.items()))


def _check_grid(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 3 or value % 2 == 0:
        raise ValueError(
            f"the grid size must be an odd int >= 3 (the start tile is central), got {value!r}"
        )
    return value


def _check_flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected True or False, got {value!r}")
    return value


SPEC = GameSpec(
    name="elephant_festival",
    env_name="ElephantFestival",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    default_players=4,
    action_names=ACTION_NAMES,
    max_decisions=MAX_TILES_PER_COLOR,  # one decision per round: 20 with the default tiles
    options=(
        Option(
            "tiles_per_color",
            DEFAULT_TILES_PER_COLOR,
            "tiles of each colour by their number of elephant symbols",
            _check_tiles,
        ),
        Option("grid", DEFAULT_GRID, "side of the square ground", _check_grid),
        Option(
            "move_features",
            False,
            "add, per placement action, what it would do (score change, room left)",
            _check_flag,
            observation_only=True,
        ),
    ),
)


@dataclass(frozen=True)
class Config:
    """One game's numbers: the player count, the options and what the rules derive."""

    num_players: int
    tiles_per_color: tuple[tuple[int, int], ...]  # (symbols, tiles of each colour), sorted
    grid: int  # the ground is grid x grid cells
    tile_counts: tuple[int, ...]  # tiles in the box per kind (colour * TYPES + symbols)
    tiles_per_player: int  # 20 with the default box: the bag holds a colour's worth each
    bag_size: int
    start_cell: int  # the centre cell, where the start tile lies
    move_features: bool  # the observation shows what each placement would do
    layout: Layout  # the observation

    @property
    def observation_size(self) -> int:
        return self.layout.size


def make_config(num_players: int, options: Mapping[str, Any]) -> Config:
    """The Config of ``num_players`` and ``options`` (checked again; missing ones default)."""
    known = {opt.name: opt for opt in SPEC.options}
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise ValueError(
            f"unknown option(s) {unknown} for {SPEC.env_name}; allowed: {sorted(known)}"
        )
    values = {name: opt.resolve(options.get(name, opt.default)) for name, opt in known.items()}
    per_color = values["tiles_per_color"]
    tiles_per_player = sum(per_color.values())
    grid = values["grid"]
    return Config(
        num_players=int(num_players),
        tiles_per_color=tuple(per_color.items()),
        grid=grid,
        tile_counts=tuple(per_color[kind % TYPES] for kind in range(NUM_COLORS * TYPES)),
        tiles_per_player=tiles_per_player,
        bag_size=tiles_per_player * int(num_players),
        start_cell=grid * grid // 2,
        move_features=values["move_features"],
        layout=layout(grid, values["move_features"]),
    )
