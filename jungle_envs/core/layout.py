"""Observation layouts: a flat vector described once as a table of named pieces.

Each game's ``encoding.py`` declares its observation as an ordered list of pieces (name,
shape, meaning), as OpenSpiel's observers name their tensor pieces. The reference encoder,
the compiled twin, ``decode`` and the layout tables in ``docs/rules/`` all take their
offsets from that one table, so no offset is ever written by hand twice.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np


@dataclass(frozen=True)
class Piece:
    """A named block of the observation: ``shape`` values, row-major."""

    name: str
    shape: tuple[int, ...]
    doc: str = ""

    def __post_init__(self) -> None:
        shape = (self.shape,) if isinstance(self.shape, int) else tuple(self.shape)
        if not shape or any(isinstance(n, bool) or int(n) < 0 for n in shape):
            raise ValueError(f"piece {self.name!r}: a shape of sizes >= 0, got {self.shape!r}")
        object.__setattr__(self, "shape", tuple(int(n) for n in shape))

    @property
    def size(self) -> int:
        return math.prod(self.shape)


class Layout:
    """Pieces laid end to end: ``layout.offset("lion")``, ``layout["lion"]`` (a slice),
    ``layout.size``, ``layout.split(obs)`` (a view per piece) and ``layout.table()`` (the
    Markdown table of the docs)."""

    def __init__(self, pieces: Sequence[Piece]) -> None:
        self.pieces = tuple(pieces)
        self._slices: dict[str, slice] = {}
        at = 0
        for piece in self.pieces:
            if piece.name in self._slices:
                raise ValueError(f"observation piece {piece.name!r} appears twice")
            self._slices[piece.name] = slice(at, at + piece.size)
            at += piece.size
        self.size = at

    def __iter__(self) -> Iterator[Piece]:
        return iter(self.pieces)

    def __contains__(self, name: object) -> bool:
        return name in self._slices

    def __getitem__(self, name: str) -> slice:
        try:
            return self._slices[name]
        except KeyError:
            raise KeyError(f"no observation piece {name!r}; pieces: {list(self._slices)}") from None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Layout) and self.pieces == other.pieces

    def __hash__(self) -> int:
        return hash(self.pieces)

    def __repr__(self) -> str:
        inner = ", ".join(f"{p.name}{list(p.shape)}" for p in self.pieces)
        return f"Layout({inner}; size {self.size})"

    def offset(self, name: str) -> int:
        return self[name].start

    def offsets(self) -> dict[str, int]:
        """Piece name -> first index (what a compiled twin keeps in its config)."""
        return {name: s.start for name, s in self._slices.items()}

    def piece(self, name: str) -> Piece:
        self[name]  # the error names the known pieces
        return next(p for p in self.pieces if p.name == name)

    def split(self, observation: np.ndarray) -> dict[str, np.ndarray]:
        """Each piece of one flat observation as a view of its shape."""
        obs = np.asarray(observation)
        if obs.shape != (self.size,):
            raise ValueError(f"expected an observation of shape ({self.size},), got {obs.shape}")
        return {p.name: obs[self._slices[p.name]].reshape(p.shape) for p in self.pieces}

    def table(self) -> str:
        """The layout as a Markdown table: piece, offset, shape, meaning."""
        rows = ["| piece | offset | shape | meaning |", "| --- | --- | --- | --- |"]
        for p in self.pieces:
            shape = " x ".join(str(n) for n in p.shape)
            rows.append(f"| `{p.name}` | {self._slices[p.name].start} | {shape} | {p.doc} |")
        return "\n".join(rows)


# The layout table of each game's rules page sits between these lines, written by
# ``python -m jungle_envs.core.layout --write`` and checked by the tests.
TABLE_START, TABLE_END = "<!-- layout:start -->", "<!-- layout:end -->"


def with_table(page: str, table: str) -> str:
    """``page`` with the text between the layout markers replaced by ``table``."""
    if page.count(TABLE_START) != 1 or page.count(TABLE_END) != 1:
        raise ValueError(f"a rules page needs one {TABLE_START} and one {TABLE_END} line")
    head, rest = page.split(TABLE_START)
    _, tail = rest.split(TABLE_END)
    return f"{head}{TABLE_START}\n{table}\n{TABLE_END}{tail}"


def documented_layouts(root: Path) -> dict[Path, str]:
    """Each game's rules page -> its text with the default config's layout table."""
    from jungle_envs.core.registry import GAMES, make_game

    pages = {}
    for name, package in GAMES.items():
        page = root / "docs" / "rules" / f"{package.rsplit('.', 1)[1]}.md"
        pages[page] = with_table(page.read_text(), make_game(name).config.layout.table())
    return pages


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m jungle_envs.core.layout",
        description="Check (or --write) the observation layout tables of docs/rules/*.md "
        "against the games' layouts (default player count and options).",
    )
    parser.add_argument("--root", default=".", help="the repository's root (default: .)")
    parser.add_argument("--write", action="store_true", help="rewrite the tables")
    args = parser.parse_args(argv)
    stale = []
    for page, text in documented_layouts(Path(args.root)).items():
        if page.read_text() != text:
            stale.append(page)
            if args.write:
                page.write_text(text)
    for page in stale:
        print(f"{'wrote' if args.write else 'stale'}: {page}")
    return 1 if stale and not args.write else 0


if __name__ == "__main__":
    raise SystemExit(main())
