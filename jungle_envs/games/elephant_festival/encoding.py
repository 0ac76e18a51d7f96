"""Elephant Festival observation: a flat float32 vector in [0, 1] from one seat's view.

Colours are relative to the observer (colour 0 is the observer's own, then the colours
after it in seat order), and seats are rotated so the observer's ground comes first.
``config.layout`` names the pieces (``config.py``'s ``layout(grid)``: S = 5 seat slots,
C = grid x grid cells, 81 by default, K = 30 tile kinds as relative colour x 6 +
symbols); a ground cell holds ``CELL_FEATURES`` values: top tile colour one-hot (5), start
tile, symbols on the top tile / 5, tiles in the stack / tiles per player (20), elephant 1
here, elephant 2 here.

The bag's contents are hidden: only the tiles not yet seen, which every player can count.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

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
    Config,
)
from jungle_envs.games.elephant_festival.rules import (
    current_player,
    legal_actions,
    placement_values,
)
from jungle_envs.games.elephant_festival.state import ElephantFestivalState
from jungle_envs.games.elephant_festival.tables import (
    ELEPHANTS,
    MAX_PASSES,
    MAX_SYMBOLS,
    NUM_COLORS,
    NUM_KINDS,
    RELATIVE_KIND,
    START_TILE,
    TYPES,
)


def observe(config: Config, state: ElephantFestivalState, seat: int, out=None) -> np.ndarray:
    lay = config.layout
    obs = np.zeros(lay.size, dtype=np.float32) if out is None else out
    if out is not None:
        obs.fill(0.0)
    n, cells = config.num_players, config.grid * config.grid
    index: list[int] = []  # filled sparsely: most cells are empty
    value: list[float] = []
    per_player = config.tiles_per_player
    grounds = lay.offset("grounds")
    for other in range(n):
        base = grounds + ((other - seat) % n) * cells * CELL_FEATURES
        shift = (other - seat) % NUM_COLORS
        for cell, stack in enumerate(state.grounds[other]):
            if not stack:
                continue
            at = base + cell * CELL_FEATURES
            top = stack[-1]
            if top == START_TILE:
                index += (at + shift, at + START_AT)
                value += (1.0, 1.0)
            else:
                index += (
                    at + (top // TYPES - seat) % NUM_COLORS,
                    at + SYMBOLS_AT,
                    at + HEIGHT_AT,
                )
                value += (1.0, (top % TYPES) / MAX_SYMBOLS, len(stack) / per_player)
        for number, cell in enumerate(state.elephants[other]):
            index.append(base + cell * CELL_FEATURES + ELEPHANT_AT + number)
            value.append(1.0)
    obs[index] = value
    display, unseen = lay.offset("display"), lay.offset("unseen")
    most = max(config.tile_counts)
    relative = RELATIVE_KIND[seat]
    for kind in range(NUM_KINDS):
        rel = relative[kind]
        obs[display + rel] = state.display[kind] / n
        obs[unseen + rel] = state.box[kind] / most
    obs[lay.offset("bag")] = state.bag / config.bag_size
    passes = lay.offset("passes")
    for other in range(n):
        slot = (other - seat) % n
        obs[passes + slot] = state.passes[other] / MAX_PASSES
    obs[lay.offset("holder") + (state.holder - seat) % n] = 1.0
    obs[lay.offset("players") + n - MIN_PLAYERS] = 1.0
    if config.move_features:
        write_move_features(config, state, seat, obs)
    return obs


def write_move_features(
    config: Config, state: ElephantFestivalState, seat: int, obs: np.ndarray
) -> None:
    """The ``moves`` piece: for each placement the observer may make now, legal, its score
    change, the room its herd keeps, and where the change ranks among the legal placements
    (zero when another seat decides; see ``config.MOVE_FEATURES``)."""
    if current_player(config, state) != seat:
        return
    moves = config.layout.offset("moves")
    values = placement_values(config, state, seat, legal_actions(config, state))
    if not values:
        return
    best = max(gain for gain, _ in values.values())
    for action, (gain, room) in values.items():
        at = moves + action * MOVE_FEATURES
        obs[at] = 1.0
        obs[at + 1] = min(max(gain + MOVE_GAIN_SPAN, 0), 2 * MOVE_GAIN_SPAN) / (2 * MOVE_GAIN_SPAN)
        obs[at + 2] = room / MAX_ROOM
        obs[at + 3] = float(gain == best)
        obs[at + 4] = min(best - gain, MOVE_GAIN_SPAN) / MOVE_GAIN_SPAN
        obs[at + 5] = float(gain > 0)
        obs[at + 6] = float(gain < 0)


class View(NamedTuple):
    """What a seat sees of its own ground and the display, decoded from its observation (for
    rule-based policies). Tile codes are relative: the observer's colour is 0."""

    ground: list[list[int]]  # per cell, the stack bottom first (only the top tile is known)
    herd: list[int]  # the cell of each of the observer's elephants
    display: list[int]  # face-up tiles per relative kind
    passes: int  # passes the observer has used


def decode(config: Config, obs: np.ndarray) -> View:
    """The observer's own ground, elephants, display and passes: see ``View``. Takes the
    Config or the game itself."""
    config = getattr(config, "config", config)
    pieces = config.layout.split(obs)
    mine = pieces["grounds"][0]
    ground, herd = [], [0] * ELEPHANTS
    for cell in range(config.grid * config.grid):
        row = mine[cell]
        if row[START_AT] > 0.5:
            ground.append([START_TILE])
        elif row[:NUM_COLORS].any():
            color = int(row[:NUM_COLORS].argmax())
            symbols = round(row[SYMBOLS_AT] * MAX_SYMBOLS)
            height = max(1, round(row[HEIGHT_AT] * config.tiles_per_player))
            ground.append([color * TYPES + symbols] * height)  # only the top tile is known
        else:
            ground.append([])
        for index in range(ELEPHANTS):
            if row[ELEPHANT_AT + index] > 0.5:
                herd[index] = cell
    display = np.rint(pieces["display"] * config.num_players).astype(int).tolist()
    passes = round(pieces["passes"][0] * MAX_PASSES)
    return View(ground, herd, display, passes)
