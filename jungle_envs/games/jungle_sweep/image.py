"""Jungle Sweep as a picture: the ring with its terrain, broom and monkeys, the dice in the
middle of the table, and each seat's coconuts at the side.

What a seat may see follows ``render.py``: coconut values only of the viewer's own monkeys
(all of them once the game is over); the supply and the set-aside coconuts stay face down.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

from jungle_envs.core.image import (
    BACKGROUND,
    CARD_BACK,
    HIGHLIGHT,
    INK,
    MUTED,
    SEAT_COLORS,
    Canvas,
    Color,
    stamp_text,
)
from jungle_envs.games.jungle_sweep.config import Config
from jungle_envs.games.jungle_sweep.render import monkey_label, result_text
from jungle_envs.games.jungle_sweep.rules import seat_monkeys, winners
from jungle_envs.games.jungle_sweep.state import JungleSweepState
from jungle_envs.games.jungle_sweep.tables import (
    CHOOSE_DIE,
    CLEARING_CHOICE,
    DIE_FACE_LABELS,
    GAME_OVER,
    HILL_CHOICE,
    LAY_RING,
    PALM,
    PALM_FACE,
    PHASE_NAMES,
    ROLL,
    ROUNDS,
    SET_ASIDE,
    TERRAIN_LABELS,
    TERRAIN_SYMBOLS,
    WATER,
)

FRAME_SIZE = (960, 640)
STATUS_HEIGHT = 34
# The ring: tile centres on a circle, the first tile laid at the top, clockwise.
RING_CENTER = (322, 340)
RING_RADIUS = 252
MAX_TILE = 58  # a 20-field ring; bigger rings shrink the tiles to keep gaps between them
PANEL_LEFT = 640  # seats, supply and legend
DIE_SIZE = 40

# By terrain code (tables: path, quicksand, clearing, water hole, hill, palm).
TERRAIN_COLORS: tuple[Color, ...] = (
    (150, 190, 110),
    (214, 178, 112),
    (244, 236, 180),
    (120, 178, 228),
    (176, 136, 96),
    (46, 120, 66),
)
LIGHT_TEXT = (255, 255, 255)
BROOM = (110, 60, 30)
COCONUT = (120, 80, 40)
DECIDING = {
    CHOOSE_DIE: "choose a die",
    WATER: "enter the water hole (?) or stay",
    HILL_CHOICE: "step on (?) from the hill or stay",
    CLEARING_CHOICE: "re-roll or stay on the clearing",
}


def text_on(fill: Color) -> Color:
    """Ink on light fills, white on dark ones, so labels read on every seat colour."""
    r, g, b = fill
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else LIGHT_TEXT


def ring_layout(size: int) -> tuple[list[tuple[float, float]], float]:
    """Tile centres for a ring of ``size`` fields and the tile's side."""
    spacing = 2 * math.pi * RING_RADIUS / max(size, 1)
    tile = min(MAX_TILE, spacing * 0.86)
    cx, cy = RING_CENTER
    angles = [-math.pi / 2 + 2 * math.pi * i / max(size, 1) for i in range(size)]
    return [(cx + RING_RADIUS * math.cos(a), cy + RING_RADIUS * math.sin(a)) for a in angles], tile


def piece_spot(center: tuple[float, float], tile: float) -> tuple[tuple[float, float], float]:
    """Where the piece on a field stands, and its radius: on the tile below the terrain
    label, or, when tiles are too small for both, just inside the ring by its field."""
    x, y = center
    if tile >= 44:
        return (x, y + tile * 0.12), tile * 0.28
    inward = (tile + 14) / RING_RADIUS
    return (x + (RING_CENTER[0] - x) * inward, y + (RING_CENTER[1] - y) * inward), 11.0


def ring_size(config: Config, state: JungleSweepState) -> int:
    # While the ring is being laid, the empty places of this round's ring show too.
    return len(state.ring) if state.round >= ROUNDS else config.ring_size(state.round)


def pawn(c: Canvas, center, radius: float, seat: int, label: str, ring: Color | None = None):
    if ring is not None:
        c.circle(center, radius + 4, fill=None, outline=ring, width=3)
    fill = SEAT_COLORS[seat]
    c.circle(center, radius, fill=fill, outline=INK, width=2)
    stamp_text(c, center, label, size=max(9, int(radius * 0.95)), fill=text_on(fill), anchor="mm")


def broom(c: Canvas, center, size: float) -> None:
    x, y = center
    h = size * 0.42
    c.line([(x - h * 0.2, y - h), (x + h * 0.25, y + h * 0.1)], fill=BROOM, width=4)
    c.polygon(
        [(x - h * 0.2, y), (x + h * 0.8, y - h * 0.1), (x + h, y + h), (x - h * 0.4, y + h)],
        fill=(230, 200, 90),
        outline=BROOM,
    )


def coconut(c: Canvas, center, radius: float, value: int | None) -> None:
    """A coconut token: its value, or its back (the same for every value) when hidden."""
    if value is None:
        c.circle(center, radius, fill=CARD_BACK, outline=INK)
        c.circle(center, radius - 3, outline=BACKGROUND)
    else:
        c.circle(center, radius, fill=COCONUT, outline=INK)
        stamp_text(c, center, str(value), size=int(radius * 1.2), fill=LIGHT_TEXT, anchor="mm")


@lru_cache(maxsize=8)
def fixed_layer(players: int, ring: tuple[int, ...], size: int) -> Any:
    """What stays put through a round (the tiles with their names, the legend), drawn once
    per ring and pasted under every frame: it is most of a frame's shapes and labels."""
    c = Canvas(*FRAME_SIZE)
    c.box((0, 0, FRAME_SIZE[0], STATUS_HEIGHT), fill=(226, 218, 196), outline=None)
    centers, tile = ring_layout(size)
    half = tile / 2
    for i, (x, y) in enumerate(centers):
        box = (x - half, y - half, x + half, y + half)
        if i >= len(ring):
            c.box(box, outline=MUTED, radius=6)
            continue
        terrain = min(ring[i], PALM)
        palm = ring[i] >= PALM
        owner = SEAT_COLORS[(ring[i] - PALM) % players] if palm else INK
        c.box(box, fill=TERRAIN_COLORS[terrain], outline=owner, width=4 if palm else 1)
        label = TERRAIN_LABELS[terrain] if tile >= 50 else TERRAIN_SYMBOLS[terrain]
        font_size = 10 if tile >= 50 else max(8, int(tile / 3))
        ink = text_on(TERRAIN_COLORS[terrain])
        stamp_text(c, (x, y - half + 3), label, size=font_size, fill=ink, anchor="ma")
    # Clockwise: an arrow just inside the first field, pointing the way pieces move.
    x, y = RING_CENTER[0], RING_CENTER[1] - RING_RADIUS + half + 18
    c.line([(x - 22, y), (x + 18, y)], fill=MUTED, width=2)
    c.polygon([(x + 24, y), (x + 14, y - 6), (x + 14, y + 6)], fill=MUTED, outline=MUTED)
    stamp_text(c, (x, y + 8), "clockwise", size=11, fill=MUTED, anchor="ma")
    x0, y = PANEL_LEFT, FRAME_SIZE[1] - 96
    stamp_text(c, (x0, y), "fields", size=12, fill=MUTED)
    for terrain in range(PALM + 1):
        x, ty = x0 + (terrain % 3) * 102, y + 18 + (terrain // 3) * 24
        c.box((x, ty, x + 16, ty + 16), fill=TERRAIN_COLORS[terrain], outline=INK, radius=3)
        label = f"{TERRAIN_SYMBOLS[terrain]} {TERRAIN_LABELS[terrain]}"
        stamp_text(c, (x + 22, ty + 2), label, size=12)
    broom(c, (x0 + 10, y + 76), 26)
    stamp_text(c, (x0 + 22, y + 70), "broom", size=12)
    # Each palm is some monkey's home: its border takes that monkey's colour.
    c.box((x0 + 70, y + 68, x0 + 86, y + 84), fill=TERRAIN_COLORS[PALM], outline=SEAT_COLORS[0],
          width=3)  # fmt: skip
    stamp_text(c, (x0 + 92, y + 70), "border colour: whose home palm", size=12)
    return c.image


def draw_pieces(c: Canvas, config: Config, state: JungleSweepState) -> None:
    centers, tile = ring_layout(ring_size(config, state))
    deciding = state.phase in DECIDING
    for i, (x, y) in enumerate(centers):
        piece, radius = piece_spot((x, y), tile)
        if i == state.pending:
            half = tile / 2
            c.box((x - half, y - half, x + half, y + half), outline=HIGHLIGHT, width=3, radius=2)
            stamp_text(c, piece, "?", size=int(radius * 1.6), fill=HIGHLIGHT, anchor="mm")
        if i == state.broom:
            broom(c, piece, radius * 2.7)
    if state.phase == GAME_OVER:
        return
    for m, at in enumerate(state.monkey_pos):
        if at != -1:
            piece, radius = piece_spot(centers[at], tile)
            ring = HIGHLIGHT if deciding and m == state.mover else None
            pawn(c, piece, radius, m % config.num_players, monkey_label(config, m), ring)


def draw_centre(c: Canvas, config: Config, state: JungleSweepState) -> None:
    cx, cy = RING_CENTER
    if state.phase == GAME_OVER:
        stamp_text(c, (cx, cy - 60), "game over", size=26, anchor="mm")
        stamp_text(c, (cx, cy - 26), result_text(config, state), size=16, anchor="mm")
        return
    stamp_text(c, (cx, cy - 120), f"round {state.round + 1} of {ROUNDS}", size=22, anchor="mm")
    stamp_text(
        c, (cx, cy - 94), f"dice round {state.dice_round + 1}", size=14, fill=MUTED, anchor="mm"
    )
    faces = [f for f, n in enumerate(state.pool) for _ in range(n)]
    blank = config.num_dice - len(faces) if state.phase == ROLL else 0
    if faces or blank:
        holder = state.active % config.num_players
        what = "rolling" if state.phase == ROLL else "dice to take"
        stamp_text(c, (cx, cy - 62), f"{what} (seat {holder} holds the dice)", size=13, anchor="mm")
        left = cx - (len(faces) + blank) * (DIE_SIZE + 8) / 2 + 4
        for k in range(len(faces) + blank):
            xy = (left + k * (DIE_SIZE + 8), cy - 44)
            if k >= len(faces):
                c.die(xy, DIE_SIZE, "", fill=(225, 225, 225))
            elif faces[k] == PALM_FACE:
                c.die(xy, DIE_SIZE, "", fill=TERRAIN_COLORS[PALM])
                mid = (xy[0] + DIE_SIZE / 2, xy[1] + DIE_SIZE / 2)
                stamp_text(c, mid, "PALM", size=11, fill=LIGHT_TEXT, anchor="mm")
            else:
                c.die(xy, DIE_SIZE, DIE_FACE_LABELS[faces[k]])
    stamp_text(c, (cx, cy + 16), "swept out (in order)", size=13, anchor="mm")
    out = state.leaving_order
    left = cx - len(out) * 30 / 2 + 15
    for k, m in enumerate(out):
        pawn(c, (left + 30 * k, cy + 44), 12, m % config.num_players, monkey_label(config, m))
    if not out:
        stamp_text(c, (cx, cy + 44), "none yet", size=12, fill=MUTED, anchor="mm")
    if state.awards:
        owed = ", ".join(monkey_label(config, m) for m in state.awards)
        stamp_text(c, (cx, cy + 80), f"coconuts owed to: {owed}", size=13, anchor="mm")
    if state.phase in DECIDING:
        who = f"seat {state.mover % config.num_players}, monkey {monkey_label(config, state.mover)}"
        stamp_text(c, (cx, cy + 84), f"{who}:", size=14, fill=HIGHLIGHT, anchor="mm")
        stamp_text(c, (cx, cy + 104), DECIDING[state.phase], size=14, fill=HIGHLIGHT, anchor="mm")


def draw_panel(c: Canvas, config: Config, state: JungleSweepState, viewer: int | None):
    x0, over = PANEL_LEFT, state.phase == GAME_OVER
    # Monkeys stand on the ring once it is laid; until then none is swept out.
    placed = state.phase not in (SET_ASIDE, LAY_RING, GAME_OVER)
    row = min(74, 430 / config.num_players)
    winning = set(winners(config, state)) if over else set()
    deciding = state.mover % config.num_players if state.phase in DECIDING else -1
    for seat in range(config.num_players):
        y = STATUS_HEIGHT + 14 + seat * row
        monkeys = seat_monkeys(config, seat)
        values = sorted(v for m in monkeys for v in state.coconuts[m])
        shown = viewer is None or viewer == seat or over
        if seat == viewer:
            c.box((x0 - 6, y - 5, FRAME_SIZE[0] - 6, y + row - 9), outline=INK, radius=6)
        for k, m in enumerate(monkeys):
            gone = state.monkey_pos[m] == -1 and placed
            pawn(c, (x0 + 12 + 28 * k, y + 11), 11, seat, monkey_label(config, m))
            if gone:
                c.line([(x0 + 28 * k, y), (x0 + 24 + 28 * k, y + 22)], fill=HIGHLIGHT, width=3)
        name = f"seat {seat}" + (" (you)" if seat == viewer else "")
        if seat in winning:
            name += " - wins"
        elif placed and all(state.monkey_pos[m] == -1 for m in monkeys):
            name += " - swept out"
        if seat == deciding:
            c.polygon([(x0 - 8, y + 11), (x0 - 20, y + 3), (x0 - 20, y + 19)], fill=HIGHLIGHT)
        tx = x0 + 10 + 28 * len(monkeys)
        stamp_text(c, (tx, y + 3), name, size=15)
        total = f"value {sum(values)}" if shown else "values hidden"
        count = f"{len(values)} coconut" + ("" if len(values) == 1 else "s")
        stamp_text(c, (FRAME_SIZE[0] - 14, y + 5), f"{count}, {total}", size=12, anchor="ra")
        step = min(24, (FRAME_SIZE[0] - x0 - 30) / max(len(values), 1))
        for k, value in enumerate(values):
            coconut(c, (x0 + 12 + step * k, y + 40), 10, value if shown else None)
    y = STATUS_HEIGHT + 14 + config.num_players * row + 6
    stacks = [("supply", sum(state.supply))]
    if config.set_aside_count:
        stacks.append(("set aside", sum(state.set_aside)))
    for k, (what, n) in enumerate(stacks):
        x = x0 + 150 * k
        for j in range(min(n, 4)):  # a small pile: its height hints at the count
            coconut(c, (x + 12 + 3 * j, y + 14 - 3 * j), 11, None)
        stamp_text(c, (x + 36, y + 6), f"{what}: {n}", size=13)
        stamp_text(c, (x + 36, y + 21), "face down", size=11, fill=MUTED)


def status_line(config: Config, state: JungleSweepState) -> str:
    head = f"Jungle Sweep, {config.num_players} players"
    if state.phase == GAME_OVER:
        return f"{head} | game over: {result_text(config, state)}"
    text = f"{head} | round {state.round + 1}/{ROUNDS} | {PHASE_NAMES[state.phase]}"
    if state.phase in DECIDING:
        mover = state.mover
        text += (
            f" | seat {mover % config.num_players} to decide (monkey {monkey_label(config, mover)})"
        )
    elif state.ring and state.phase == ROLL:
        text += f" | seat {state.active % config.num_players} rolls"
    return text


def draw(config: Config, state: JungleSweepState, viewer: int | None) -> np.ndarray:
    c = Canvas(*FRAME_SIZE)
    c.image.paste(fixed_layer(config.num_players, tuple(state.ring), ring_size(config, state)))
    stamp_text(c, (12, STATUS_HEIGHT / 2), status_line(config, state), size=16, anchor="lm")
    draw_pieces(c, config, state)
    draw_centre(c, config, state)
    draw_panel(c, config, state, viewer)
    return c.to_array()
