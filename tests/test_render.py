"""Text rendering of every game: what a finished game shows, and per-game layout fixes."""

from __future__ import annotations

import re

import numpy as np
import pytest
from elephant_positions import position as elephant_position
from tropic_race_positions import position as tropic_position

from jungle_envs import make_game
from jungle_envs.core.game import TERMINAL
from jungle_envs.core.random_play import random_step
from jungle_envs.core.registry import GAMES
from jungle_envs.games.elephant_festival.render import CELL_WIDTH
from jungle_envs.games.tropic_race.tables import MOVE

# What only a game in progress may show: whose turn it is and where the round stands.
IN_PROGRESS = re.compile(r"to play|to act|to decide|dice round|bag holder")


def finished(name: str, players: int, seed: int):
    game = make_game(name, players)
    state = game.new_state()
    rng = np.random.default_rng(seed)
    while random_step(game, state, rng) != TERMINAL:
        pass
    return game, state


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("players", [2, 4])
def test_a_finished_game_shows_its_result_and_not_whose_turn_it_was(name, players):
    for seed in range(3):
        game, state = finished(name, players, seed)
        for viewer in (None, 0):
            text = game.render(state, viewer)
            header = text.splitlines()[0]
            assert "game over" in header, header
            assert not IN_PROGRESS.search(header), header
            last = text.splitlines()[-1]
            assert last.startswith("game over")
            for seat in game.winners(state):
                assert f"seat {seat}" in last


def test_jungle_sweep_shows_every_coconut_value_once_the_game_is_over():
    game, state = finished("JungleSweep", 4, seed=1)
    text = game.render(state, viewer=0)
    assert "values hidden" not in text
    for seat in range(4):
        values = sorted(v for v in state.coconuts[seat])
        assert f"value {sum(values)} {values}" in text


def test_jungle_sweep_hides_other_values_during_the_game():
    game = make_game("JungleSweep", 4)
    state = game.new_state()
    rng = np.random.default_rng(0)
    while not any(state.coconuts[1]):
        random_step(game, state, rng)
    assert "seat 1: 1 coconut, values hidden" in game.render(state, viewer=0)


@pytest.mark.parametrize("steps,label", [(1, "(1 step)"), (2, "(2 steps)")])
def test_tropic_race_counts_the_steps_of_a_move_in_words(steps, label):
    game, state = tropic_position({0: ["B2"]}, phase=MOVE, steps=steps)
    header = game.render(state).splitlines()[0]
    assert header.endswith(label), header


def ground_blocks(text: str) -> list[list[str]]:
    """The grid lines under each seat's heading."""
    blocks, current = [], None
    for line in text.splitlines():
        if line.startswith("seat "):
            current = []
            blocks.append(current)
        elif current is not None and line.startswith("   "):
            current.append(line)
        else:
            current = None
    return blocks


def test_elephant_festival_frames_every_ground_alike_with_numbered_rows_and_columns():
    # Seat 0 grows north-west of the start tile on (4, 4), seat 1 south-east: one frame
    # (rows 3-5 and columns 2-5, plus a margin of one) must hold both.
    game, state = elephant_position(
        grounds={0: {(4, 3): "G2", (3, 3): "R1", (3, 2): "P0"}, 1: {(4, 5): "B3", (5, 5): "Y0"}},
        elephants={0: [(4, 3), (3, 2)], 1: [(4, 5), (5, 5)]},
    )
    blocks = ground_blocks(game.render(state))
    assert len(blocks) == 2
    for block in blocks:
        header, *rows = block
        assert header.split() == ["col", *map(str, range(1, 7))]
        assert [row.split()[:2] for row in rows] == [["row", str(r)] for r in range(2, 7)]
    assert blocks[0][0] == blocks[1][0]  # the same columns, in the same places
    column = blocks[0][0].index(" 2 ") + 1  # where column 2 starts
    assert blocks[0][2][column:].startswith("P0")  # row 3, column 2
    assert blocks[1][4][column + 3 * CELL_WIDTH :].startswith("Y0")  # row 5, column 5
