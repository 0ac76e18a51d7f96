"""Tropic Race as a picture: the board as in the rulings' sketch (START at the bottom, the
path up to the near bank, the river's five tiles with their turtles, the far bank and GOAL
at the top), every monkey by seat colour, the lion, and the turn, roll and supply beside it.

The game has no hidden information, so every viewer sees the same table; only the "you"
mark depends on the viewer.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from jungle_envs.core.image import (
    HIGHLIGHT,
    INK,
    MUTED,
    SEAT_COLORS,
    Canvas,
    Color,
    stamp_text,
)
from jungle_envs.games.tropic_race import rules
from jungle_envs.games.tropic_race.config import Config
from jungle_envs.games.tropic_race.state import TropicRaceState
from jungle_envs.games.tropic_race.tables import (
    FAR_BANK,
    FAR_TURTLE,
    GAME_OVER,
    GOAL,
    LAND,
    LION,
    LOC,
    LOCATION_NAMES,
    MOVE,
    NEAR_TURTLE,
    NO_TILE,
    PHASE_NAMES,
    PUSH,
    SLOT_BANK,
    SLOTS,
    START,
    THEN_STEP_ONE,
    TILE_TURTLES,
)

FRAME_SIZE = (960, 640)
STATUS_HEIGHT = 34
FIELD = 22  # radius of a field
BANK_X = {LOC[f"B{i}"]: 96 + 66 * (i - 1) for i in range(1, 10)}
ROW_Y = {"FB": 150, "FT": 216, "NT": 284, "B": 370}
RIVER = (40, 178, 680, 340)  # the water band, left top right bottom
GOAL_BOX = (40, 40, 680, 122)
START_BOX = (40, 430, 310, 630)
PANEL_LEFT = 700

# Where each field's centre lies: the bank in a row, the trunk under B5, a tile's turtles
# and its far-bank field above the bank field it is entered from.
POSITIONS: dict[int, tuple[float, float]] = {
    **{loc: (x, ROW_Y["B"]) for loc, x in BANK_X.items()},
    **{LOC[f"T{k}"]: (BANK_X[LOC["B5"]], ROW_Y["B"] + 52 * (4 - k)) for k in (1, 2, 3)},
    **{NEAR_TURTLE[i]: (BANK_X[SLOT_BANK[i]], ROW_Y["NT"]) for i in range(SLOTS)},
    **{FAR_TURTLE[i]: (BANK_X[SLOT_BANK[i]], ROW_Y["FT"]) for i in range(SLOTS)},
    **{FAR_BANK[i]: (BANK_X[SLOT_BANK[i]], ROW_Y["FB"]) for i in range(SLOTS)},
}
LAND_FILL: Color = (222, 200, 150)
FAR_FILL: Color = (170, 205, 130)
WATER: Color = (150, 198, 232)
FLOW: Color = (30, 70, 120)
PLANK: Color = (196, 160, 112)
TURTLE: Color = (70, 140, 80)
LION_FILL: Color = (214, 140, 30)
DIE_FIELD: Color = (250, 236, 130)
ARROW_FIELD: Color = (244, 170, 150)
WHITE: Color = (255, 255, 255)
TILE_LABELS = ("bridge", "near only", "far only", "empty")
TRUNK = (LOC["T1"], LOC["T2"], LOC["T3"])
LEGEND = (
    (DIE_FIELD, "die field: roll again"),
    (ARROW_FIELD, "push field: the river moves"),
    (TURTLE, "turtle: a monkey may stand on it"),
    (LION_FILL, "lion: sends a monkey to START"),
)


def text_on(fill: Color) -> Color:
    """Ink on light fills, white on dark ones, so labels read on every seat colour."""
    r, g, b = fill
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else WHITE


def pawn(c: Canvas, center, radius: float, seat: int, ring: bool = False) -> None:
    if ring:
        c.circle(center, radius + 4, outline=HIGHLIGHT, width=3)
    fill = SEAT_COLORS[seat]
    c.circle(center, radius, fill=fill, outline=INK, width=2)
    if radius >= 9:
        stamp_text(c, center, str(seat), size=int(radius * 1.1), fill=text_on(fill), anchor="mm")


def lion(c: Canvas, center) -> None:
    c.circle(center, FIELD - 2, fill=LION_FILL, outline=(120, 60, 10), width=3)
    stamp_text(c, center, "LION", size=11, fill=WHITE, anchor="mm")


def pool_spots(box, seats: int, columns: int, seat: int) -> tuple[tuple[float, float], list]:
    """START or GOAL hold any number of monkeys: a cell per seat, its label's corner and
    the pawn places in it, wrapping in rows (the label's count tells past what fits)."""
    left, top, right, bottom = box
    width = (right - left - 16) / columns
    height = (bottom - top - 30) / -(-seats // columns)
    x, y = left + 10 + width * (seat % columns), top + 28 + height * (seat // columns)
    per_row, rows = max(1, int((width - 6) // 12)), max(1, int((height - 18) // 12))
    spots = [
        (x + 5 + 12 * (k % per_row), y + 22 + 12 * (k // per_row)) for k in range(rows * per_row)
    ]
    return (x, y), spots


def pool(c: Canvas, box, state: TropicRaceState, loc: int, viewer, columns: int) -> None:
    for seat, monkeys in enumerate(state.monkeys):
        corner, spots = pool_spots(box, len(state.monkeys), columns, seat)
        n = monkeys.count(loc)
        name = f"seat {seat}" + (" (you)" if seat == viewer else "")
        stamp_text(c, corner, f"{name}: {n}", size=12, fill=INK if n else MUTED)
        for spot in spots[:n]:
            pawn(c, spot, 5, seat)


@lru_cache(maxsize=8)
def fixed_layer(die_fields: frozenset[int], arrow_fields: frozenset[int]) -> Any:
    """What no move changes (paths, fields, their names, the legend), drawn once per board
    and pasted under every frame: it is most of a frame's shapes and labels."""
    c, pos = Canvas(*FRAME_SIZE), POSITIONS
    c.box((0, 0, FRAME_SIZE[0], STATUS_HEIGHT), fill=(226, 218, 196), outline=None)
    for box, title in ((GOAL_BOX, "GOAL"), (START_BOX, "START")):
        c.box(box, fill=(236, 228, 206), outline=INK, radius=8)
        stamp_text(c, (box[0] + 10, box[1] + 6), title, size=16)
    c.box(RIVER, fill=WATER, outline=None)
    # The paths first, so fields and pieces lie on top of them.
    c.line([pos[LOC[n]] for n in ("T1", "T2", "T3", "B5")], fill=MUTED, width=4)
    c.line([pos[LOC[f"B{i}"]] for i in range(1, 10)], fill=MUTED, width=4)
    c.line([(START_BOX[2], pos[LOC["T1"]][1]), pos[LOC["T1"]]], fill=MUTED, width=4)
    for i in range(SLOTS):
        x = pos[SLOT_BANK[i]][0]
        c.line([(x, ROW_Y["B"]), (x, RIVER[3])], fill=MUTED, width=2)
        c.line([(x, ROW_Y["FB"]), (x, GOAL_BOX[3])], fill=MUTED, width=2)
        label = f"slot {i + 1}" + (" (falls off next)" if i == SLOTS - 1 else "")
        stamp_text(c, (x, RIVER[1] + 3), label, size=11, fill=FLOW, anchor="ma")
        # The flow: arrows in the gaps between tiles, the way a push moves them.
        ax, ay = x + 66, (ROW_Y["FT"] + ROW_Y["NT"]) / 2
        if i < SLOTS - 1:
            c.line([(ax - 12, ay), (ax + 8, ay)], fill=FLOW, width=3)
            c.polygon([(ax + 14, ay), (ax + 6, ay - 6), (ax + 6, ay + 6)], fill=FLOW, outline=FLOW)
    for loc in (*LAND, *FAR_BANK):
        fill = FAR_FILL if loc in FAR_BANK else LAND_FILL
        fill = DIE_FIELD if loc in die_fields else ARROW_FIELD if loc in arrow_fields else fill
        c.circle(pos[loc], FIELD, fill=fill, outline=INK, width=2)
        (x, y), name = pos[loc], LOCATION_NAMES[loc]
        name += " die" if loc in die_fields else " push" if loc in arrow_fields else ""
        if loc in FAR_BANK:
            stamp_text(c, (x + FIELD + 4, y), name, size=10, anchor="lm")
        elif loc == LOC["B5"]:  # the trunk leaves below it: its name goes to the left
            stamp_text(c, (x - FIELD - 2, y + FIELD + 3), name, size=11, anchor="ra")
        elif loc in TRUNK:
            stamp_text(c, (x + FIELD + 6, y), name, size=11, anchor="lm")
        else:
            stamp_text(c, (x, y + FIELD + 3), name, size=11, anchor="ma")
    x, y = pos[LOC["B5"]][0] + 70, ROW_Y["B"] + 44
    stamp_text(c, (x, y), "path forks at B5", size=10, fill=MUTED)
    x0, y = PANEL_LEFT, 452
    for k, (fill, text) in enumerate(LEGEND):
        c.circle((x0 + 8, y + 8 + 22 * k), 8, fill=fill, outline=INK)
        stamp_text(c, (x0 + 24, y + 1 + 22 * k), text, size=12)
    stamp_text(c, (x0, y + 94), "~ : no turtle there (cannot step)", size=12)
    stamp_text(c, (x0, y + 116), "tiles move right one slot per push", size=12)
    stamp_text(c, (x0 + 50, 246), "the last one erupts the volcano", size=11, fill=MUTED)
    return c.image


def draw_board(c: Canvas, config: Config, state: TropicRaceState, viewer) -> None:
    pos = POSITIONS
    for i, kind in enumerate(state.slots):
        x = pos[SLOT_BANK[i]][0]
        tile = (x - 44, RIVER[1] + 16, x + 44, RIVER[3] - 6)
        if kind == NO_TILE:
            c.box(tile, outline=(90, 130, 170), radius=8)
            continue
        c.box(tile, fill=PLANK, outline=INK, radius=8)
        stamp_text(c, (x, tile[3] - 3), TILE_LABELS[kind], size=10, anchor="md")
        for loc, present in zip((NEAR_TURTLE[i], FAR_TURTLE[i]), TILE_TURTLES[kind], strict=True):
            if present:
                c.circle(pos[loc], FIELD + 2, fill=TURTLE, outline=INK, width=2)
            else:
                c.circle(pos[loc], FIELD - 4, fill=WATER, outline=(90, 130, 170))
                stamp_text(c, pos[loc], "~", size=26, fill=(60, 100, 150), anchor="mm")
    lion(c, pos[state.lion])
    moving = state.phase in (MOVE, LION)
    for seat, monkeys in enumerate(state.monkeys):
        for loc in monkeys:
            if loc in pos:
                pawn(c, pos[loc], 15, seat, ring=moving and seat == state.player)
    pool(c, GOAL_BOX, state, GOAL, viewer, config.num_players)
    pool(c, START_BOX, state, START, viewer, 1)


def draw_panel(c: Canvas, config: Config, state: TropicRaceState, viewer) -> None:
    x0, y = PANEL_LEFT, STATUS_HEIGHT + 14
    if state.phase == GAME_OVER:
        how = "the volcano erupted" if state.volcano else "every monkey home"
        stamp_text(c, (x0, y), "game over", size=22)
        stamp_text(c, (x0, y + 30), f"{how}:", size=14)
        winners = ", ".join(f"seat {w}" for w in rules.winners(config, state))
        stamp_text(c, (x0, y + 50), f"{winners} {'wins' if ',' not in winners else 'win'}", size=14)
    elif state.player >= 0:
        pawn(c, (x0 + 12, y + 12), 12, state.player)
        you = " (you)" if state.player == viewer else ""
        stamp_text(c, (x0 + 32, y + 2), f"seat {state.player}{you} to play", size=18)
        stamp_text(c, (x0, y + 32), PHASE_NAMES[state.phase], size=14)
        if state.phase == MOVE:
            c.die((x0, y + 54), 40, str(state.steps))
            steps = f"{state.steps} step{'s' if state.steps > 1 else ''}"
            stamp_text(c, (x0 + 50, y + 66), f"{steps} along one route", size=13)
        elif state.phase == LION:
            c.die((x0, y + 54), 40, "", fill=LION_FILL)
            stamp_text(c, (x0 + 20, y + 74), "LION", size=12, fill=WHITE, anchor="mm")
            stamp_text(c, (x0 + 50, y + 66), "to T1, B1 or B9", size=13)
        elif state.phase == PUSH:
            then = "then one step" if state.then == THEN_STEP_ONE else "then the turn ends"
            stamp_text(c, (x0, y + 60), f"the river moves, {then}", size=13)
    else:
        stamp_text(c, (x0, y + 2), "setting up", size=18)
        stamp_text(c, (x0, y + 32), PHASE_NAMES[state.phase], size=14)
    y = 170
    stamp_text(c, (x0, y), f"rolls so far: {state.rolls}", size=13)
    stamp_text(c, (x0, y + 20), f"lion on {LOCATION_NAMES[state.lion]}", size=13)
    y = 226
    left = sum(state.supply)
    for k in range(min(left, 5)):  # a small pile: its height hints at the count
        c.card((x0 + 3 * k, y + 8 - 3 * k, x0 + 28 + 3 * k, y + 44 - 3 * k), face_up=False)
    stamp_text(c, (x0 + 50, y), f"river supply: {left} tiles", size=14)
    for k, name in enumerate(TILE_LABELS):
        xy = (x0 + 50 + 110 * (k % 2), y + 38 + 16 * (k // 2))
        stamp_text(c, xy, f"{name}: {state.supply[k]}", size=11)
    y = 318
    per = config.monkeys_per_player
    for seat, monkeys in enumerate(state.monkeys):
        ty = y + 24 * seat
        pawn(c, (x0 + 10, ty + 8), 9, seat)
        if seat == state.player and state.phase != GAME_OVER:
            c.polygon([(x0 - 4, ty + 8), (x0 - 14, ty + 1), (x0 - 14, ty + 15)], fill=HIGHLIGHT)
        you = " (you)" if seat == viewer else ""
        home = monkeys.count(GOAL)
        start = monkeys.count(START)
        stamp_text(
            c, (x0 + 26, ty + 1), f"seat {seat}{you}: {home}/{per} home, {start} at START", size=13
        )


def status_line(config: Config, state: TropicRaceState) -> str:
    head = f"Tropic Race, {config.num_players} players"
    if state.phase == GAME_OVER:
        winners = ", ".join(f"seat {w}" for w in rules.winners(config, state))
        how = "volcano" if state.volcano else "all monkeys home"
        return f"{head} | game over ({how}): winner(s) {winners}"
    player = f"seat {state.player} to play" if state.player >= 0 else "setting up"
    text = f"{head} | {player} | {PHASE_NAMES[state.phase]}"
    if state.steps:
        text += f" ({state.steps} step{'s' if state.steps > 1 else ''})"
    return text


def draw(config: Config, state: TropicRaceState, viewer: int | None) -> np.ndarray:
    c = Canvas(*FRAME_SIZE)
    c.image.paste(fixed_layer(config.die_fields, config.arrow_fields))
    stamp_text(c, (12, STATUS_HEIGHT / 2), status_line(config, state), size=16, anchor="lm")
    draw_board(c, config, state, viewer)
    draw_panel(c, config, state, viewer)
    return c.to_array()
