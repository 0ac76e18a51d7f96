"""Elephant Festival's final scoring as compiled kernels: ``rules.score``'s total, exactly.

Only the total is needed (``scores``, ``returns`` and the heuristic read nothing else), and
it has a short form. Per colour, keeping the best fields by symbols + arch + 2 per tile
(the start tile's field first, then one more of the owner's colour, one of any other) and
paying 2 per removed tile comes to the kept fields' values minus 2 per tile of the colour;
summed over colours, minus 2 per tile on the ground. So a colour needs only its best
field's value and the owner's colour also its start field's; which of two equal fields
is kept changes the score lines, never the total.

Fields are found by a flood fill from the occupied cells only (the start cell, the
ground's log and one cell a tile is being tried on), with a caller's scratch marks that
the fill leaves cleared, so one score costs the ground's tiles, not the grid.
"""

from __future__ import annotations

import numpy as np

from jungle_envs.core.compiled.jit import kernel
from jungle_envs.core.compiled.results import returns_from_keys
from jungle_envs.games.elephant_festival.tables import (
    ARCH_POINTS,
    DIRECTIONS,
    ELEPHANTS,
    GAME_OVER,
    MISSING_COLOR_POINTS,
    NUM_COLORS,
    REMOVED_TILE_POINTS,
    STANDING_ELEPHANT_POINTS,
    START_TILE,
    SYMBOL_POINTS,
    TYPES,
)

NUM_DIRECTIONS = len(DIRECTIONS)
NO_FIELD = -(1 << 40)  # below any field's value


@kernel(inline=True)
def color_of(code, owner):
    return owner if code == START_TILE else code // TYPES


@kernel
def score_ground(cfg, top, height, owner, standing, log, laid, extra, mark, seen, best):
    """The final score's total of one ground: ``top``/``height`` per cell, occupied cells
    among the start cell, ``log[:laid]`` and ``extra`` (-1: none). The rest is scratch from
    ``scratch``; ``mark`` is left clear."""
    start, nb = cfg.start_cell, cfg.neighbours
    best[:] = NO_FIELD  # per colour, its best field without the start tile
    start_value, tiles, written = 0, 0, 0
    for i in range(laid + 2):
        first = start if i == 0 else (log[i - 1] if i <= laid else extra)
        if first < 0 or mark[first]:
            continue
        color = color_of(top[first], owner)
        facing = (color - owner - 1) % NUM_COLORS  # the arch of this colour, if any
        arch = nb[start, facing] if facing < NUM_DIRECTIONS else -1
        mark[first] = 1
        seen[written] = first
        read, written = written, written + 1
        size, value, has_start = 0, 0, False
        while read < written:
            cell = seen[read]
            read += 1
            if cell == start:
                has_start = True
            else:
                size += height[cell]
                value += (top[cell] % TYPES) * SYMBOL_POINTS
            if cell == arch:
                value += ARCH_POINTS
            for d in range(NUM_DIRECTIONS):
                nxt = nb[cell, d]
                if nxt < 0 or mark[nxt] or height[nxt] == 0:
                    continue
                if color_of(top[nxt], owner) == color:
                    mark[nxt] = 1
                    seen[written] = nxt
                    written += 1
        value -= REMOVED_TILE_POINTS * size
        tiles += size
        if has_start:
            start_value = value
        elif value > best[color]:
            best[color] = value
    for i in range(written):
        mark[seen[i]] = 0
    total = standing * STANDING_ELEPHANT_POINTS + start_value + REMOVED_TILE_POINTS * tiles
    for color in range(NUM_COLORS):
        if best[color] > NO_FIELD:
            total += best[color]
        elif color != owner:
            total += MISSING_COLOR_POINTS
    return total


@kernel
def scratch(cfg, extra):
    """Scratch for ``score_ground``: marks per cell (clear), room for every occupied cell
    of a ground with ``extra`` tiles more than its log holds, a value per colour."""
    mark = np.zeros(cfg.cells, dtype=np.uint8)
    seen = np.empty(cfg.log_size + 1 + extra, dtype=np.int64)
    return mark, seen, np.empty(NUM_COLORS, dtype=np.int64)


@kernel
def seat_score(cfg, s, seat, mark, seen, best):
    cells, log_size = cfg.cells, cfg.log_size
    at, log = seat * cells, cfg.log_cell + seat * log_size
    return score_ground(
        cfg,
        s[cfg.top + at : cfg.top + at + cells],
        s[cfg.height + at : cfg.height + at + cells],
        seat,
        ELEPHANTS - s[cfg.passes + seat],
        s[log : log + log_size],
        s[cfg.placed + seat],
        -1,
        mark,
        seen,
        best,
    )


@kernel
def scores(cfg, s, out):
    mark, seen, best = scratch(cfg, 0)
    for seat in range(cfg.num_players):
        out[seat] = seat_score(cfg, s, seat, mark, seen, best)


@kernel
def returns(cfg, s, out):
    out[:] = 0.0
    if s[cfg.phase] != GAME_OVER:
        return
    totals = np.zeros(cfg.num_players)
    scores(cfg, s, totals)
    returns_from_keys(totals, out)
