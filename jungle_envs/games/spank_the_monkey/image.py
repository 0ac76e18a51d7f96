"""Spank the Monkey as a picture: every tower against one height scale, the monkey and its
spank window across them, the hands below, and the deck, discard pile and pending attack
in the middle of the table.

Heights are what the game is about (a tower spanks from the monkey's height to two above),
so card boxes are as tall as the cards' heights on a shared scale rather than one row per
card. What a viewer may not see follows ``render.py``: other seats' hands are backs with a
count and the deck is a pile of backs, so those pixels never depend on the hidden cards.
"""

from __future__ import annotations

import numpy as np

from jungle_envs.core.image import HIGHLIGHT, INK, MUTED, SEAT_COLORS, Canvas, font, stamp_text
from jungle_envs.games.spank_the_monkey.config import Config
from jungle_envs.games.spank_the_monkey.rules import attack_value, current_player, defense_value
from jungle_envs.games.spank_the_monkey.state import NO_CARD, SpankState, can_spank, tower_height
from jungle_envs.games.spank_the_monkey.tables import (
    ATTACK_ROLL,
    CARDS,
    COLLAPSE_ROLL,
    DEFEND,
    GAME_OVER,
    INSPECT,
    PHASE_NAMES,
    QUAKE_ROLL,
    SPANK_REACH,
)

FRAME_SIZE = (1280, 720)
WIDTH, HEIGHT = FRAME_SIZE
MARGIN = 6  # the outer rows and columns stay background: nothing is drawn there
TABLE = (44, 132)  # top and bottom of the middle of the table: deck, discard, attack
TOWERS = (150, 516)  # top of the tallest scale and the ground the towers stand on
SCALE_X = 92  # towers start right of the height scale and the monkey
PLATES = (522, 562)
HANDS = (568, HEIGHT - MARGIN - 2)
MIN_SCALE = 16  # the scale shows at least 0-16 so that most frames of a game compare
JUNK_WIDTH, REINFORCEMENT_WIDTH = 150, 110
KIND_COLORS = {
    "junk": (226, 200, 150),
    "reinforcement": (160, 210, 140),
    "attack": (238, 145, 130),
    "defense": (145, 185, 235),
    "special": (205, 165, 220),
}
# Narrow columns (six players) use these before cutting a name short.
SHORT_NAMES = {
    "Dinosaur Skeleton": "Dino Skeleton",
    "Pinball Machine": "Pinball",
    "Moonshine Still": "Moonshine",
    "Stolen Bicycle": "Bicycle",
    "Duct Tape": "Tape",
    "Chicken Wire": "Wire",
    "Security Guard": "Guard",
    "Flock of Seagulls": "Seagulls",
    "Satellite Dish": "Dish",
}
EFFECTS = {  # what a card's effect does, for its face
    "DRAW": "draw 1",
    "SALVAGE": "salvage",
    "BRACE": "brace",
    "SHAKE": "monkey +1",
    "CANCEL": "cancels",
    "REDIRECT": "redirects",
    "EARTHQUAKE": "all roll",
    "GORILLA": "monkey +2",
    "BANANA_PEEL": "monkey -1",
    "SCRAP_DEALER": "draw 2",
    "INSPECTION": "others lose 1",
}
MONKEY = (125, 80, 40)
WINDOW = (255, 232, 140)
SCALE_LINE = (226, 219, 200)


def fit(text: str, width: float, size: int) -> str:
    """``text``, or its short name, or cut short (ending in '.') to fit ``width`` pixels."""
    face = font(size)
    if face.getlength(text) <= width:
        return text
    text = SHORT_NAMES.get(text, text)
    while len(text) > 1 and face.getlength(text + ".") > width:
        text = text[:-1]
    return text if face.getlength(text) <= width else text + "."


def labelled(canvas: Canvas, box, name: str, value: str, size: int) -> None:
    """A one-line label inside ``box``: ``name`` left, cut to fit, ``value`` right."""
    left, top, right, bottom = box
    room = right - left - 10 - font(size).getlength(value)
    stamp_text(canvas, (left + 4, (top + bottom) / 2), fit(name, room, size), size, anchor="lm")
    stamp_text(canvas, (right - 4, (top + bottom) / 2), value, size, anchor="rm")


def detail(t: int) -> str:
    """What a card does, in a few characters: a face-up card's second line."""
    card = CARDS[t]
    effect = EFFECTS.get(card.effect, card.effect)
    if card.kind == "junk":
        return f"h{card.height} s{card.strength}" + (f" {effect}" if effect else "")
    if card.kind == "attack":
        return f"{card.effect} {card.strength}"
    return f"+{card.strength}" if card.strength else effect


def face(canvas: Canvas, box, t: int) -> None:
    """A face-up card: kind colour, name and what it does."""
    left, top, right, bottom = box
    canvas.box(box, fill=KIND_COLORS[CARDS[t].kind], radius=4)
    name = fit(CARDS[t].name, right - left - 6, 12)
    stamp_text(canvas, ((left + right) / 2, top + 6), name, 12, anchor="ma")
    stamp_text(canvas, ((left + right) / 2, bottom - 6), detail(t), 11, anchor="md")


def scale_of(state: SpankState) -> tuple[int, float]:
    """The top of the height scale and pixels per unit: the scale stretches to the tallest
    tower and the monkey's window, so every tower fits whatever its height."""
    tallest = max(tower_height(tower, CARDS) for tower in state.towers)
    top = max(MIN_SCALE, tallest + 1, state.monkey + SPANK_REACH + 2)
    return top, (TOWERS[1] - TOWERS[0]) / top


def draw(config: Config, state: SpankState, viewer: int | None) -> np.ndarray:
    canvas = Canvas(*FRAME_SIZE)
    n = config.num_players
    scale_top, unit = scale_of(state)
    column = (WIDTH - MARGIN - SCALE_X) / n
    title(canvas, config, state)
    middle(canvas, state)
    scale(canvas, state, scale_top, unit)
    for seat in range(n):
        x = SCALE_X + seat * column
        tower(canvas, state, seat, x, column, unit)
        plate(canvas, config, state, seat, viewer, x, column)
        hand(canvas, state.hands[seat], viewer in (None, seat), x, column)
    return canvas.to_array()


def title(canvas: Canvas, config: Config, state: SpankState) -> None:
    head = f"Spank the Monkey - {config.num_players} players - turn {state.turns}"
    stamp_text(canvas, (MARGIN + 6, 12), head, 20)
    if state.phase == GAME_OVER:
        status = (
            f"seat {state.winner} spanked the monkey and wins!"
            if state.winner >= 0
            else "the deck ran dry: the monkey wins, nobody else does"
        )
        stamp_text(canvas, (WIDTH / 2 - 60, 14), "GAME OVER: " + status, 17, HIGHLIGHT)
        return
    decider = current_player(config, state)
    if state.player < 0:
        status = f"dealing ({PHASE_NAMES[state.phase]})"
    elif decider >= 0 and decider != state.player:
        status = f"seat {state.player}'s turn - seat {decider} decides: {PHASE_NAMES[state.phase]}"
    else:
        status = f"seat {state.player}'s turn: {PHASE_NAMES[state.phase]}"
    stamp_text(canvas, (WIDTH / 2 - 60, 14), status, 17)


def pile(canvas: Canvas, x: float, y: float, count: int) -> None:
    """A face-down pile: a few backs offset by how many cards it holds, nothing else."""
    if not count:
        canvas.box((x, y, x + 54, y + 76), outline=MUTED, radius=4)
        stamp_text(canvas, (x + 27, y + 38), "empty", 11, MUTED, anchor="mm")
    for layer in range(min(3, (count + 9) // 10)):
        canvas.card(
            (x + 3 * layer, y - 3 * layer, x + 54 + 3 * layer, y + 76 - 3 * layer), face_up=False
        )


def middle(canvas: Canvas, state: SpankState) -> None:
    top = TABLE[0] + 10
    pile(canvas, MARGIN + 10, top + 6, sum(state.deck))
    stamp_text(canvas, (MARGIN + 80, top + 20), "deck", 14)
    stamp_text(canvas, (MARGIN + 80, top + 40), f"{sum(state.deck)} cards", 14)
    x = 190
    if state.discard:
        face(canvas, (x, top + 4, x + 118, top + 80), state.discard[-1])
    else:
        canvas.box((x, top + 4, x + 118, top + 80), outline=MUTED, radius=4)
    stamp_text(canvas, (x + 128, top + 20), "discard pile", 14)
    stamp_text(canvas, (x + 128, top + 40), f"{len(state.discard)} cards", 14)
    stamp_text(canvas, (x + 128, top + 60), "(top card shown)", 11, MUTED)
    attack_panel(canvas, state, 450, top)
    legend(canvas, 1000, top - 2)


def attack_panel(canvas: Canvas, state: SpankState, x: float, top: float) -> None:
    canvas.box((x - 10, top - 4, x + 530, top + 86), outline=MUTED, radius=6)
    if not state.attack:
        queue = ", ".join(f"seat {s}" for s in state.queue)
        line = {
            QUAKE_ROLL: f"Earthquake! Still to roll (a 1 or 2 drops the top card): {queue}",
            INSPECT: f"Inspection! Still to lose a random card: {queue}",
        }.get(state.phase, "no attack pending")
        stamp_text(canvas, (x, top + 34), line, 14, INK if state.queue else MUTED)
        return
    card, target, level, defense, redirected = state.attack
    face(canvas, (x, top + 4, x + 118, top + 80), card)
    lines = [f"attack by seat {state.player}"]
    if target < 0:
        lines.append("choosing the target seat")
    elif level < 0:
        lines.append(f"on seat {target}: choosing the card")
    elif state.phase == COLLAPSE_ROLL:
        lines += [f"destroyed seat {target}'s level {level}", "collapse roll for the cards above"]
    else:
        lines.append(
            f"on seat {target}, level {level}: {CARDS[state.towers[target][level][0]].name}"
        )
    if defense != NO_CARD:
        lines.append(
            f"defended with {CARDS[defense].name}" + (" (redirected)" if redirected else "")
        )
    if state.phase in (DEFEND, ATTACK_ROLL):
        need = defense_value(state) - attack_value(state, 0)
        lines.append(f"succeeds on a die of {max(need, 1)}+" if need <= 6 else "cannot succeed")
    for row, line in enumerate(lines):
        stamp_text(canvas, (x + 130, top + 4 + 20 * row), line, 14, HIGHLIGHT if row == 0 else INK)


def legend(canvas: Canvas, x: float, top: float) -> None:
    for row, (kind, color) in enumerate(KIND_COLORS.items()):
        cx, cy = x + 130 * (row % 2), top + 18 * (row // 2)
        canvas.box((cx, cy, cx + 22, cy + 13), fill=color, radius=2)
        stamp_text(canvas, (cx + 28, cy), kind, 12)
    canvas.box((x, top + 56, x + 22, top + 69), fill=WINDOW, outline=None)
    stamp_text(canvas, (x + 28, top + 56), f"spank window: monkey to +{SPANK_REACH}", 12)
    stamp_text(canvas, (x, top + 74), "h height, s strength (+brace bonus)", 12, MUTED)


def scale(canvas: Canvas, state: SpankState, scale_top: int, unit: float) -> None:
    left, right, ground = SCALE_X, WIDTH - MARGIN - 2, TOWERS[1]
    high, low = ground - (state.monkey + SPANK_REACH) * unit, ground - state.monkey * unit
    canvas.box((left, high, right, low), fill=WINDOW, outline=None)
    step = next(s for s in (1, 2, 5, 10, 20, 50) if s * unit >= 15)
    for h in range(0, scale_top + 1, step):
        y = ground - h * unit
        canvas.line([(left, y), (right, y)], SCALE_LINE)
        stamp_text(canvas, (left - 6, y), str(h), 11, MUTED, anchor="rm")
    canvas.line([(left, ground), (right, ground)], INK, 2)
    y = ground - state.monkey * unit
    canvas.line([(left - 30, y), (right, y)], MONKEY, 2)
    monkey(canvas, MARGIN + 24, y - 16)
    stamp_text(canvas, (MARGIN + 4, y + 4), f"monkey {state.monkey}", 12, MONKEY)


def monkey(canvas: Canvas, x: float, y: float) -> None:
    for side in (-1, 1):
        canvas.circle((x + 12 * side, y - 2), 5, fill=MONKEY, outline=None)
    canvas.circle((x, y), 12, fill=MONKEY, outline=None)
    canvas.circle((x, y + 4), 7, fill=(225, 190, 150), outline=None)
    for side in (-1, 1):
        canvas.circle((x + 4 * side, y - 3), 2, fill=INK, outline=None)


def tower(canvas: Canvas, state: SpankState, seat: int, x: float, column: float, unit: float):
    junk_width = min(JUNK_WIDTH, column * 0.6)
    side = min(REINFORCEMENT_WIDTH, column - junk_width - 18)
    left = x + (column - junk_width - side - 4) / 2
    attacked = state.attack[2] if state.attack and state.attack[1] == seat else -1
    base = 0
    for level, (junk, bonus, reinforcement) in enumerate(state.towers[seat]):
        card = CARDS[junk]
        bottom, top = TOWERS[1] - base * unit, TOWERS[1] - (base + card.height) * unit
        gap = 1 if card.height * unit >= 6 else 0
        box = (left, top + gap, left + junk_width, bottom - gap)
        tall = bottom - top
        canvas.box(box, fill=KIND_COLORS["junk"], radius=3 if tall > 8 else 0)
        strength = f"s{card.strength}" + (f"+{bonus}" if bonus else "")
        if tall >= 28:
            stamp_text(canvas, (left + 4, top + 3), fit(card.name, junk_width - 8, 11), 11)
            stamp_text(canvas, (left + 4, top + 16), f"h{card.height} {strength}", 11)
        elif tall >= 13:
            labelled(canvas, box, card.name, strength, 11 if tall >= 15 else 10)
        if level == attacked and state.phase != COLLAPSE_ROLL:
            canvas.box(
                (left - 3, box[1] - 3, left + junk_width + 3, box[3] + 3), None, HIGHLIGHT, 3, 3
            )
        if reinforcement != NO_CARD:
            extra = CARDS[reinforcement]
            rbox = (left + junk_width + 4, box[1], left + junk_width + 4 + side, box[3])
            canvas.box(rbox, fill=KIND_COLORS["reinforcement"], radius=3 if tall > 8 else 0)
            if tall >= 13:
                labelled(canvas, rbox, extra.name, f"+{extra.strength}", 10)
        base += card.height


def plate(canvas, config: Config, state: SpankState, seat, viewer, x: float, column: float) -> None:
    color = SEAT_COLORS[seat]
    tint = tuple(int(c + (255 - c) * 0.75) for c in color)
    box = (x + 4, PLATES[0], x + column - 4, PLATES[1])
    to_move = state.phase != GAME_OVER and seat in (state.player, current_player(config, state))
    canvas.box(box, fill=tint, outline=color, width=4 if to_move else 2, radius=6)
    name = f"seat {seat}" + (" (you)" if seat == viewer else "")
    stamp_text(canvas, (x + 12, PLATES[0] + 5), name, 15)
    if seat == state.winner:
        tag = "SPANKED!"
    elif to_move:
        tag = "to play" if seat == state.player else "decides"
    else:
        tag = ""
    stamp_text(canvas, (x + column - 12, PLATES[0] + 6), tag, 13, HIGHLIGHT, anchor="ra")
    line = f"height {tower_height(state.towers[seat], CARDS)}"
    line += " - IN REACH" if can_spank(state, seat) else ""
    stamp_text(canvas, (x + 12, PLATES[0] + 24), line, 13, MONKEY if "REACH" in line else INK)


def hand(canvas: Canvas, cards: list[int], face_up: bool, x: float, column: float) -> None:
    left, right, count = x + 8, x + column - 8, sum(cards)
    stamp_text(canvas, (left, HANDS[0]), f"hand: {count} card{'s' * (count != 1)}", 13)
    top = HANDS[0] + 20
    if not face_up:
        shown = min(count, 40)
        step = min(18.0, (right - left - 34) / max(shown - 1, 1))
        for k in range(shown):
            canvas.card((left + k * step, top, left + k * step + 34, top + 50), face_up=False)
        return
    entries = [(t, k) for t, k in enumerate(cards) if k]
    per_row = max(2, int((right - left + 4) // 110))
    width = (right - left + 4) / per_row - 4
    rows = int((HANDS[1] - top) // 22)
    if len(entries) > per_row * rows:  # no hand limit: the last slot says how many are left
        hidden = entries[per_row * rows - 1 :]
        entries = [*entries[: per_row * rows - 1], (-1, sum(k for _, k in hidden))]
    for i, (t, k) in enumerate(entries):
        cx, cy = left + (i % per_row) * (width + 4), top + (i // per_row) * 22
        if t < 0:
            stamp_text(canvas, (cx + 4, cy + 10), f"+{k} more", 12, anchor="lm")
            continue
        canvas.box((cx, cy, cx + width, cy + 19), fill=KIND_COLORS[CARDS[t].kind], radius=3)
        labelled(canvas, (cx, cy, cx + width, cy + 19), CARDS[t].name, f"x{k}" * (k > 1), 11)
