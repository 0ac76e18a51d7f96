"""Drawing a table as an RGB image: what every game's ``image.py`` draws with.

Pillow, not matplotlib: a frame is a few hundred shapes and labels on a fixed canvas, which
Pillow draws in a millisecond or two without a figure, axes or a backend to set up, and
Pillow ships a scalable font, so frames look the same on every machine. Pillow is imported
only when a frame is drawn, so envs that never draw never load it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

Color = tuple[int, int, int]
Box = tuple[float, float, float, float]  # left, top, right, bottom

BACKGROUND: Color = (246, 241, 227)
INK: Color = (40, 40, 40)
MUTED: Color = (130, 130, 130)
CARD_BACK: Color = (70, 95, 140)
HIGHLIGHT: Color = (220, 60, 50)
# One colour per seat, told apart also by people with the common colour-vision deficiencies.
SEAT_COLORS: tuple[Color, ...] = (
    (0, 114, 178),
    (230, 159, 0),
    (0, 158, 115),
    (204, 121, 167),
    (86, 180, 233),
    (213, 94, 0),
)


@lru_cache(maxsize=16)
def font(size: int) -> Any:
    from PIL import ImageFont

    return ImageFont.load_default(size=size)


class Canvas:
    """A fixed-size RGB picture with the few shapes a table needs."""

    def __init__(self, width: int, height: int, background: Color = BACKGROUND) -> None:
        from PIL import Image, ImageDraw

        self.width, self.height = width, height
        self.image = Image.new("RGB", (width, height), background)
        self.draw = ImageDraw.Draw(self.image)

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int = 14,
        fill: Color = INK,
        anchor: str = "la",
    ) -> None:
        """``anchor`` as Pillow's: "la" left-top, "mm" centred, "ra" right-top."""
        self.draw.text(xy, text, fill=fill, font=font(size), anchor=anchor)

    def box(
        self,
        box: Box,
        fill: Color | None = None,
        outline: Color | None = INK,
        width: int = 1,
        radius: int = 0,
    ) -> None:
        self.draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)

    def circle(
        self,
        center: tuple[float, float],
        radius: float,
        fill: Color | None = None,
        outline: Color | None = INK,
        width: int = 1,
    ) -> None:
        x, y = center
        self.draw.ellipse(
            (x - radius, y - radius, x + radius, y + radius),
            fill=fill,
            outline=outline,
            width=width,
        )

    def line(self, points: list[tuple[float, float]], fill: Color = INK, width: int = 1) -> None:
        self.draw.line(points, fill=fill, width=width)

    def polygon(
        self, points: list[tuple[float, float]], fill: Color | None = None, outline: Color = INK
    ) -> None:
        self.draw.polygon(points, fill=fill, outline=outline)

    def die(self, xy: tuple[float, float], size: float, label: str, fill: Color = (255, 255, 255)):
        """A die showing ``label`` (a number or a symbol's name), top-left at ``xy``."""
        x, y = xy
        self.box((x, y, x + size, y + size), fill=fill, radius=int(size / 6), width=2)
        self.text((x + size / 2, y + size / 2), label, size=int(size / 2.4), anchor="mm")

    def card(self, box: Box, label: str = "", face_up: bool = True, fill: Color = (255, 255, 255)):
        """A card: its label when face up, a patterned back when face down, so a frame
        drawn for a seat never shows what that seat may not see."""
        if not face_up:
            self.box(box, fill=CARD_BACK, outline=INK, radius=4)
            left, top, right, bottom = box
            inset = 4
            self.box((left + inset, top + inset, right - inset, bottom - inset), outline=BACKGROUND)
            return
        self.box(box, fill=fill, outline=INK, radius=4)
        left, top, right, _ = box
        self.text(((left + right) / 2, top + 4), label, size=11, anchor="ma")

    def to_array(self) -> np.ndarray:
        """The frame as Gymnasium's ``rgb_array``: uint8, shape (height, width, 3)."""
        return np.asarray(self.image, dtype=np.uint8).copy()


@lru_cache(maxsize=4096)
def _text_mask(text: str, size: int, anchor: str) -> tuple[Any, int, int]:
    from PIL import Image, ImageDraw

    left, top, right, bottom = font(size).getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(1, int(right - left)), max(1, int(bottom - top))), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=font(size), anchor=anchor)
    return mask, int(left), int(top)


def stamp_text(
    canvas: Canvas,
    xy: tuple[float, float],
    text: str,
    size: int = 14,
    fill: Color = INK,
    anchor: str = "la",
) -> None:
    """``canvas.text`` from a cache of rendered labels: Pillow rasterises a label afresh on
    every call (about 0.1 ms), so a frame of dozens of labels pays most of its time there;
    a cached one is pasted in microseconds. Same arguments; positions round to pixels."""
    mask, left, top = _text_mask(text, size, anchor)
    canvas.image.paste(fill, (round(xy[0]) + left, round(xy[1]) + top), mask)
