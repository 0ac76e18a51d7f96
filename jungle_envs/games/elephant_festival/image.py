"""Elephant Festival as a picture: every seat's ground as a grid of tiles with its two
elephants, and beside them the middle of the table: this round's face-up tiles, the bag,
the tiles out of the game and a legend.

Nothing on this table is secret except what is still in the bag, which is drawn as a
closed bag with its count, as ``render.py`` shows it. Seats wear the game's own colours
(seat 0 red, ...), not the shared seat palette, because a tile's colour names its owner.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from jungle_envs.core.image import BACKGROUND, HIGHLIGHT, INK, MUTED, Canvas, stamp_text
from jungle_envs.games.elephant_festival import rules
from jungle_envs.games.elephant_festival.config import Config
from jungle_envs.games.elephant_festival.render import frame
from jungle_envs.games.elephant_festival.state import ElephantFestivalState
from jungle_envs.games.elephant_festival.tables import (
    COLORS,
    DRAW_TILE,
    ELEPHANTS,
    GAME_OVER,
    NUM_COLORS,
    NUM_KINDS,
    PHASE_NAMES,
    START_TILE,
    TYPES,
)

FRAME_SIZE = (1280, 720)
WIDTH, HEIGHT = FRAME_SIZE
MARGIN = 6  # the outer rows and columns stay background: nothing is drawn there
TOP = 44  # below the title line
PANEL_X = 984  # the middle of the table, right of the grounds
HEADER = 40  # a ground's name, passes and score above its grid
MIN_CELL = 22  # below this a whole ground is cropped to its used part, as render.py does
MAX_CELL = 56  # small grids stay tile-sized rather than filling the slot
# Ground slots (columns, rows) by player count: as large as the frame allows.
SLOTS = {2: (2, 1), 3: (3, 1), 4: (2, 2), 5: (3, 2)}
TILE_RGB = ((215, 55, 45), (240, 196, 30), (55, 160, 75), (45, 110, 205), (145, 80, 175))
GRASS, GRASS_LINE = (214, 228, 188), (190, 208, 160)
ELEPHANT, LYING = (110, 110, 122), (170, 170, 180)
WHITE = (255, 255, 255)


def layout(config: Config, state: ElephantFestivalState):
    """The rows and columns shown of every ground, and per seat the slot's top-left corner
    and width and its ground's top-left corner and cell size."""
    columns, rows = SLOTS[config.num_players]
    slot_w, slot_h = (PANEL_X - 12 - MARGIN) / columns, (HEIGHT - MARGIN - TOP) / rows
    side = min(slot_w - 16, slot_h - HEADER - 12)
    if config.grid * MIN_CELL <= side:
        shown = range(config.grid), range(config.grid)
    else:  # a huge grid: the part every seat uses, the same for all so grounds compare
        shown = frame(config, state)
    cell = min(MAX_CELL, side / max(len(shown[0]), len(shown[1])))
    places = []
    for seat in range(config.num_players):
        x = MARGIN + (seat % columns) * slot_w
        y = TOP + (seat // columns) * slot_h
        places.append((x, y, slot_w, x + (slot_w - cell * len(shown[1])) / 2, y + HEADER, cell))
    return shown, places


def draw(config: Config, state: ElephantFestivalState, viewer: int | None) -> np.ndarray:
    canvas = Canvas(*FRAME_SIZE)
    title(canvas, config, state)
    shown, places = layout(config, state)
    scores, won = rules.scores(config, state), rules.winners(config, state)
    for seat, (x, y, width, gx, gy, cell) in enumerate(places):
        header(canvas, config, state, seat, viewer, scores[seat], seat in won, x + 8, y, width - 16)
        ground(canvas, config, state, seat, shown, gx, gy, cell)
    panel(canvas, config, state, shown)
    return canvas.to_array()


def title(canvas: Canvas, config: Config, state: ElephantFestivalState) -> None:
    stamp_text(canvas, (MARGIN + 6, 12), f"Elephant Festival - {config.num_players} players", 20)
    if state.phase == GAME_OVER:
        best = ", ".join(f"seat {s} ({COLORS[s]})" for s in rules.winners(config, state))
        stamp_text(canvas, (420, 14), f"GAME OVER - winner: {best}", 17, HIGHLIGHT)
        return
    if state.phase == DRAW_TILE:
        status = f"seat {state.holder} draws this round's tiles from the bag"
    else:
        status = f"seat {(state.holder + state.turn) % config.num_players} to act: "
        status += PHASE_NAMES[state.phase]
    stamp_text(canvas, (420, 14), status, 17)


def header(canvas, config, state: ElephantFestivalState, seat, viewer, score, won, x, y, width):
    to_act = state.phase != GAME_OVER and seat == (state.holder + state.turn) % config.num_players
    color = TILE_RGB[seat]
    canvas.box((x, y + 4, x + 16, y + 20), fill=color, radius=3)
    name = f"seat {seat} - {COLORS[seat]}" + (" (you)" if seat == viewer else "")
    stamp_text(canvas, (x + 22, y + 4), name, 15)
    tag = "WINNER" if won else "to act" if to_act and state.phase != DRAW_TILE else ""
    tag += ("  " if tag else "") + ("holds the bag" if seat == state.holder else "")
    stamp_text(
        canvas, (x + width, y + 5), tag, 13, HIGHLIGHT if to_act or won else MUTED, anchor="ra"
    )
    label = "final score" if state.phase == GAME_OVER else "score if it ended now"
    standing = ELEPHANTS - state.passes[seat]
    line = f"passes {state.passes[seat]} ({standing} standing) - {label} {score:+.0f}"
    stamp_text(canvas, (x + 22, y + 22), line, 12)


def ground(canvas, config, state: ElephantFestivalState, seat, shown, x, y, cell) -> None:
    rows, cols = shown
    whole = len(rows) == len(cols) == config.grid
    right, bottom = x + cell * len(cols), y + cell * len(rows)
    canvas.box((x, y, right, bottom), fill=GRASS, outline=None)
    if cell >= 8:
        for k in range(1, max(len(rows), len(cols))):
            if k < len(cols):
                canvas.line([(x + k * cell, y), (x + k * cell, bottom)], GRASS_LINE)
            if k < len(rows):
                canvas.line([(x, y + k * cell), (right, y + k * cell)], GRASS_LINE)
    # Elephants always stand on tiles, so each tile's picture carries its elephants.
    herd, standing = state.elephants[seat], ELEPHANTS - state.passes[seat]
    figures: dict[int, tuple] = {}
    for e, at in enumerate(herd):
        where = 0.48 if herd[0] != herd[1] else 0.32 + 0.36 * e
        figures[at] = (*figures.get(at, ()), (where, e < standing, e + 1))
    # Only occupied cells are visited: a huge grid is mostly grass.
    for at, stack in enumerate(state.grounds[seat]):
        row, col = divmod(at, config.grid)
        if stack and row in rows and col in cols:
            left, top = x + (col - cols[0]) * cell, y + (row - rows[0]) * cell
            piece(canvas, left, top, cell, stack[-1], seat, len(stack), figures.get(at, ()))
    # A thick edge where the ground ends; a thin one where a cropped view cuts it.
    canvas.box((x, y, right, bottom), outline=INK if whole else MUTED, width=2 if whole else 1)
    to_act = state.phase != GAME_OVER and seat == (state.holder + state.turn) % config.num_players
    if to_act and state.phase != DRAW_TILE:
        canvas.box((x - 4, y - 4, right + 4, bottom + 4), outline=HIGHLIGHT, width=3, radius=4)


def piece(canvas, x, y, cell, code, owner, stacked=1, figures=(), background=GRASS) -> None:
    """A tile and the elephants on it, top-left at (x, y), pasted from ``sprite``."""
    image, inset = sprite(cell, code, owner, stacked, figures, background)
    canvas.image.paste(image, (round(x + inset), round(y + inset)))


@lru_cache(maxsize=2048)
def sprite(cell, code, owner, stacked, figures, background) -> tuple[Any, float]:
    """A tile with its elephants ((x as a share of the cell, standing, number) each) as a small
    picture, drawn once: a frame pastes ~100 of them rather than drawing ~600 shapes."""
    inset = 1.5 if cell >= 10 else 0
    side = int(cell - 2 * inset) + 1  # the far edge of the outline included
    art = Canvas(side, side, background)
    tile(art, -inset, -inset, cell, code, owner, stacked)
    for where, standing, number in figures:
        elephant(art, where * cell - inset, 0.62 * cell - inset, cell, standing, number)
    return art.image, inset


def tile(canvas: Canvas, x, y, cell, code: int, owner: int, stacked: int = 1) -> None:
    """One tile, top-left at (x, y): colour, a dot per elephant symbol along its top, the
    stack height in a corner badge; the start tile shows its four arches."""
    inset = 1.5 if cell >= 10 else 0
    box = (x + inset, y + inset, x + cell - inset, y + cell - inset)
    color = owner if code == START_TILE else code // TYPES
    canvas.box(box, fill=TILE_RGB[color], radius=3 if cell >= 12 else 0)
    if cell < 12:
        return
    if code == START_TILE:
        # Clockwise from north the arches show the colours after the owner's.
        long, thick = cell * 0.25, cell * 0.09
        left, top, right, bottom = box
        mid_x, mid_y = (left + right) / 2, (top + bottom) / 2
        bars = (
            (mid_x - long, top, mid_x + long, top + 2 * thick),
            (right - 2 * thick, mid_y - long, right, mid_y + long),
            (mid_x - long, bottom - 2 * thick, mid_x + long, bottom),
            (left, mid_y - long, left + 2 * thick, mid_y + long),
        )
        for d, bar in enumerate(bars):
            canvas.box(bar, fill=TILE_RGB[(owner + 1 + d) % NUM_COLORS], radius=2)
        canvas.circle((mid_x, mid_y - cell * 0.12), cell * 0.1, fill=WHITE)
        return
    # Up to three dots a row, two rows above where the elephants stand: large enough to
    # count at a glance on a 1280 x 720 frame.
    symbols, r = code % TYPES, max(cell * 0.085, 1.5)
    for row, count in enumerate((min(symbols, 3), symbols - 3) if symbols > 3 else (symbols,)):
        for k in range(count):
            dx = (k - (count - 1) / 2) * r * 2.6
            canvas.circle((x + cell / 2 + dx, y + cell * (0.2 + 0.2 * row)), r, fill=WHITE)
    if stacked > 1:
        size, right, bottom = cell * 0.34, x + cell - 2, y + cell - 2
        canvas.box((right - size, bottom - size, right, bottom), fill=WHITE, radius=2)
        stamp_text(
            canvas,
            (right - size / 2, bottom - size / 2),
            str(stacked),
            int(size * 0.85),
            anchor="mm",
        )


def elephant(
    canvas: Canvas, cx: float, cy: float, cell: float, standing: bool, number: int = 0
) -> None:
    """A small elephant in profile, trunk to the left; one that lies (its seat passed) is
    the same figure on its back, legs up, and paler. ``number`` (1 or 2, the one the
    actions name) is written on its body when the figure is large enough to read it."""
    s, fill = cell * 0.28, ELEPHANT if standing else LYING
    if s < 3:
        canvas.circle((cx, cy), max(s, 1.5), fill=fill)
        return

    def at(u: float, v: float) -> tuple[float, float]:
        return cx + u * s, cy + (v if standing else 0.3 - v) * s

    def box(u0: float, v0: float, u1: float, v1: float) -> tuple[float, float, float, float]:
        (x0, y0), (x1, y1) = at(u0, v0), at(u1, v1)
        return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)

    for u in (-0.45, 0.45):
        canvas.box(box(u - 0.17, 0.0, u + 0.17, 0.8), fill=fill, outline=WHITE)
    canvas.draw.ellipse(box(-0.8, -0.5, 0.8, 0.4), fill, WHITE)
    canvas.line([at(-1.0, -0.4), at(-1.15, 0.55)], WHITE, 3)
    canvas.line([at(-1.0, -0.4), at(-1.15, 0.55)], fill, 2)
    canvas.circle(at(-0.85, -0.45), 0.35 * s, fill=fill, outline=WHITE)
    if number and s >= 7:
        ink = WHITE if standing else INK
        stamp_text(canvas, at(0.05, -0.05), str(number), max(int(s * 1.05), 8), ink, anchor="mm")


def panel(canvas: Canvas, config: Config, state: ElephantFestivalState, shown) -> None:
    x, y = PANEL_X, TOP + 4
    canvas.box((x - 8, TOP - 2, WIDTH - MARGIN - 2, HEIGHT - MARGIN - 2), outline=MUTED, radius=6)
    drawn = config.bag_size - state.bag
    rounds = min(-(-(drawn + state.draws_left) // config.num_players), config.tiles_per_player)
    stamp_text(canvas, (x, y), f"round {rounds} of {config.tiles_per_player}", 15)
    rows, cols = shown
    if len(rows) < config.grid or len(cols) < config.grid:
        where = f"rows {rows[0]}-{rows[-1]}, columns {cols[0]}-{cols[-1]} of"
        stamp_text(canvas, (x, HEIGHT - 50), f"shown: {where}", 12, MUTED)
        stamp_text(canvas, (x, HEIGHT - 34), f"the {config.grid}x{config.grid} grounds", 12, MUTED)
    # The bag: a closed sack and its count, whatever is inside.
    bx, by = x + 24, y + 52
    canvas.polygon(
        [(bx - 14, by - 16), (bx + 14, by - 16), (bx + 22, by + 20), (bx - 22, by + 20)],
        fill=(160, 115, 70),
    )
    canvas.box((bx - 10, by - 24, bx + 10, by - 16), fill=(130, 90, 50), radius=2)
    stamp_text(canvas, (x + 56, y + 32), f"bag: {state.bag} tiles", 15)
    stamp_text(
        canvas, (x + 56, y + 52), f"held by seat {state.holder} ({COLORS[state.holder]})", 12
    )
    y += 96
    stamp_text(canvas, (x, y), "face-up tiles this round", 15)
    shown = [k for k in range(NUM_KINDS) for _ in range(state.display[k])]
    for i in range(config.num_players):
        left = x + i * 54
        if i < len(shown):
            piece(canvas, left, y + 22, 48, shown[i], 0, background=BACKGROUND)
        elif i < len(shown) + state.draws_left:
            canvas.box((left + 2, y + 24, left + 46, y + 68), outline=MUTED, radius=3)
            stamp_text(canvas, (left + 24, y + 46), "?", 16, MUTED, anchor="mm")
    y += 86
    stamp_text(canvas, (x, y), f"tiles nobody took, out of the game: {sum(state.discarded)}", 14)
    stamp_text(canvas, (x + 52, y + 20), "elephant symbols on the tile:", 11, MUTED)
    grid_x = x + 52
    for symbols in range(TYPES):
        spot = (grid_x + 14 + symbols * 38, y + 34)
        stamp_text(canvas, spot, str(symbols), 11, MUTED, anchor="ma")
    for color in range(NUM_COLORS):
        top = y + 48 + color * 30
        stamp_text(canvas, (x, top + 14), COLORS[color], 11, anchor="lm")
        for symbols in range(TYPES):
            count = state.discarded[color * TYPES + symbols]
            left = grid_x + symbols * 38
            if count:
                piece(canvas, left, top, 26, color * TYPES + symbols, 0, background=BACKGROUND)
                stamp_text(canvas, (left + 27, top + 13), f"{count}", 11, anchor="lm")
            else:
                stamp_text(canvas, (left + 13, top + 13), "-", 11, GRASS_LINE, anchor="mm")
    legend(canvas, x, y + 206)


def legend(canvas: Canvas, x: float, y: float) -> None:
    piece(canvas, x, y, 36, 3 * TYPES + 3, 0, 2, background=BACKGROUND)
    stamp_text(canvas, (x + 44, y + 2), "dots: elephant symbols", 12)
    stamp_text(canvas, (x + 44, y + 18), "corner: tiles in the stack", 12)
    piece(canvas, x, y + 44, 36, START_TILE, 0, background=BACKGROUND)
    stamp_text(canvas, (x + 44, y + 46), "start tile; edges: arch colours", 12)
    stamp_text(canvas, (x + 44, y + 62), "(N, E, S, W: next colours)", 12)
    elephant(canvas, x + 20, y + 104, 40, True, 1)
    stamp_text(canvas, (x + 44, y + 96), "standing elephant 1 (+1); 1, 2:", 12)
    stamp_text(canvas, (x + 44, y + 112), "the number the actions name", 12)
    elephant(canvas, x + 20, y + 148, 40, False, 2)
    stamp_text(canvas, (x + 44, y + 140), "lying elephant 2 (a pass)", 12)
