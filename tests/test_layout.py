"""Observation layouts: one table of named pieces per game, from which the reference
encoder, the compiled twin, ``decode`` and the docs take their offsets."""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest

import jungle_envs
from jungle_envs.core.layout import Layout, Piece, documented_layouts, main, with_table
from jungle_envs.core.registry import GAMES

ROOT = Path(__file__).resolve().parents[1]


def test_pieces_lie_end_to_end_and_split_a_vector_into_views():
    layout = Layout([Piece("a", (2, 3), "grid"), Piece("b", 4, "flags"), Piece("c", (0,))])
    assert layout.size == 10
    assert layout.offsets() == {"a": 0, "b": 6, "c": 10}
    assert layout["b"] == slice(6, 10)
    obs = np.arange(10, dtype=np.float32)
    parts = layout.split(obs)
    assert parts["a"].shape == (2, 3) and parts["a"][1, 2] == 5
    parts["b"][0] = -1  # a view of the observation, not a copy
    assert obs[6] == -1
    assert "| `b` | 6 | 4 | flags |" in layout.table()


def test_a_layout_refuses_what_it_cannot_lay_out():
    with pytest.raises(ValueError, match="twice"):
        Layout([Piece("a", 1), Piece("a", 2)])
    with pytest.raises(ValueError, match="shape"):
        Piece("a", (2, -1))
    with pytest.raises(KeyError, match="pieces"):
        Layout([Piece("a", 1)])["b"]
    with pytest.raises(ValueError, match="shape"):
        Layout([Piece("a", 2)]).split(np.zeros(3))


def test_the_docs_table_is_replaced_between_its_markers_only():
    page = "intro\n<!-- layout:start -->\nold\n<!-- layout:end -->\noutro\n"
    assert (
        with_table(page, "new") == "intro\n<!-- layout:start -->\nnew\n<!-- layout:end -->\noutro\n"
    )
    with pytest.raises(ValueError, match="needs one"):
        with_table("no markers", "new")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_observes_through_its_layout(name):
    for players in jungle_envs.game_class(name).spec.player_counts:
        game = jungle_envs.make_game(name, players)
        layout = game.config.layout
        assert isinstance(layout, Layout)
        assert layout.size == game.observation_size
        obs = game.observe(game.new_state(), 0)
        assert obs.shape == (layout.size,)


def test_the_rules_pages_show_each_games_layout():
    stale = [
        str(page) for page, text in documented_layouts(ROOT).items() if page.read_text() != text
    ]
    assert stale == [], "run: python -m jungle_envs.core.layout --write"
    assert main(["--root", str(ROOT)]) == 0


@pytest.mark.parametrize("name", GAMES)
def test_the_twin_takes_every_piece_offset_from_the_layout(name):
    game = jungle_envs.make_game(name, 2)
    state = importlib.import_module(game.compiled_twin().__name__ + ".state")
    cfg = state.make_twin_config(game.config)
    offsets = game.config.layout.offsets()
    if "obs_at" in cfg._fields:  # a layout that varies with the options: one array
        for index, piece in enumerate(state.OBSERVATION_PIECES):
            assert getattr(state, f"OBS_{piece.upper()}") == index
            assert cfg.obs_at[index] == offsets.get(piece, -1)
        assert set(offsets) <= set(state.OBSERVATION_PIECES)
    else:  # one layout for every option: constants compiled in
        for piece, offset in offsets.items():
            assert getattr(state, f"OBS_{piece.upper()}") == offset
    # no config field per piece: every kernel call would pass them all
    fields = [f for f in cfg._fields if f.startswith("obs_") and f not in ("obs_at", "obs_size")]
    assert not fields
