"""Elephant Festival observation: a flat float32 vector in [0, 1] from one seat's view.

Colours are relative to the observer (colour 0 is the observer's own, then the colours
after it in seat order), and seats are rotated so the observer's ground comes first.
Layout (S = 5 seat slots, C = grid x grid cells, 81 by default, K = 30 tile kinds as
relative colour x 6 + symbols):

    grounds   S x C x 10 per cell: top tile colour one-hot (5), start tile, symbols on the
                         top tile / 5, tiles in the stack / tiles per player (20), elephant
                         1 here, elephant 2 here
    display   K          face-up tiles per kind / players
    unseen    K          tiles per kind neither drawn nor set aside / most of a kind
    bag       1          tiles left in the bag / bag size
    passes    S          passes used per seat / 2
    holder    S          one-hot: the seat holding the bag
    players   4          one-hot 2-5 players

The bag's contents are hidden: only the tiles not yet seen, which every player can count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

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

if TYPE_CHECKING:
    from jungle_envs.games.elephant_festival.game import ElephantFestival

MAX_SEATS = NUM_COLORS
CELL_FEATURES = NUM_COLORS + 5
ELEPHANT_AT = NUM_COLORS + 3  # elephant 1's flag; elephant 2's follows
MIN_PLAYERS = 2


def observation_size(game: ElephantFestival) -> int:
    cells = game.grid * game.grid
    return MAX_SEATS * cells * CELL_FEATURES + 2 * NUM_KINDS + 1 + 2 * MAX_SEATS + 4


def observe(game: ElephantFestival, state: ElephantFestivalState, seat: int, out=None):
    obs = np.zeros(game.observation_size, dtype=np.float32) if out is None else out
    if out is not None:
        obs.fill(0.0)
    n, cells = game.num_players, game.grid * game.grid
    index: list[int] = []  # filled sparsely: most cells are empty
    value: list[float] = []
    per_player = game.tiles_per_player
    for other in range(n):
        base = ((other - seat) % n) * cells * CELL_FEATURES
        shift = (other - seat) % NUM_COLORS
        for cell, stack in enumerate(state.grounds[other]):
            if not stack:
                continue
            at = base + cell * CELL_FEATURES
            top = stack[-1]
            if top == START_TILE:
                index += (at + shift, at + NUM_COLORS)
                value += (1.0, 1.0)
            else:
                index += (
                    at + (top // TYPES - seat) % NUM_COLORS,
                    at + NUM_COLORS + 1,
                    at + NUM_COLORS + 2,
                )
                value += (1.0, (top % TYPES) / MAX_SYMBOLS, len(stack) / per_player)
        for number, cell in enumerate(state.elephants[other]):
            index.append(base + cell * CELL_FEATURES + ELEPHANT_AT + number)
            value.append(1.0)
    obs[index] = value
    at = MAX_SEATS * cells * CELL_FEATURES
    most = max(game.tile_counts)
    relative = RELATIVE_KIND[seat]
    for kind in range(NUM_KINDS):
        rel = relative[kind]
        obs[at + rel] = state.display[kind] / n
        obs[at + NUM_KINDS + rel] = state.box[kind] / most
    at += 2 * NUM_KINDS
    obs[at] = state.bag / game.bag_size
    at += 1
    for other in range(n):
        slot = (other - seat) % n
        obs[at + slot] = state.passes[other] / MAX_PASSES
    obs[at + MAX_SEATS + (state.holder - seat) % n] = 1.0
    obs[at + 2 * MAX_SEATS + n - MIN_PLAYERS] = 1.0
    return obs


class View(NamedTuple):
    """What a seat sees of its own ground and the display, decoded from its observation (for
    rule-based policies). Tile codes are relative: the observer's colour is 0."""

    ground: list[list[int]]  # per cell, the stack bottom first (only the top tile is known)
    herd: list[int]  # the cell of each of the observer's elephants
    display: list[int]  # face-up tiles per relative kind
    passes: int  # passes the observer has used


def decode(game: ElephantFestival, obs: np.ndarray) -> View:
    """The observer's own ground, elephants, display and passes: see ``View``."""
    cells = game.grid * game.grid
    grounds = obs[: MAX_SEATS * cells * CELL_FEATURES].reshape(MAX_SEATS, cells, CELL_FEATURES)
    mine = grounds[0]
    ground, herd = [], [0] * ELEPHANTS
    for cell in range(cells):
        row = mine[cell]
        if row[NUM_COLORS] > 0.5:
            ground.append([START_TILE])
        elif row[:NUM_COLORS].any():
            color = int(row[:NUM_COLORS].argmax())
            symbols = round(row[NUM_COLORS + 1] * MAX_SYMBOLS)
            height = max(1, round(row[NUM_COLORS + 2] * game.tiles_per_player))
            ground.append([color * TYPES + symbols] * height)  # only the top tile is known
        else:
            ground.append([])
        for index in range(ELEPHANTS):
            if row[ELEPHANT_AT + index] > 0.5:
                herd[index] = cell
    at = MAX_SEATS * cells * CELL_FEATURES
    display = np.rint(obs[at : at + NUM_KINDS] * game.num_players).astype(int).tolist()
    passes = round(obs[at + 2 * NUM_KINDS + 1] * MAX_PASSES)
    return View(ground, herd, display, passes)
