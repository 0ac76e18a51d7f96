"""Elephant Festival's table picture (``render_image``): one frame size for every state,
viewer and option, grounds that stay in their slots whatever the grid, the bag drawn closed,
and tiles and elephants where they lie."""

from __future__ import annotations

import numpy as np
import pytest
from random_games import first, states

from jungle_envs.core.game import TERMINAL
from jungle_envs.core.image import BACKGROUND
from jungle_envs.core.random_play import random_step
from jungle_envs.core.registry import make_game
from jungle_envs.games.elephant_festival import image
from jungle_envs.games.elephant_festival.tables import NUM_KINDS, PASS_ACTION, PLACE

NAME = "ElephantFestival"
SHAPE = (image.FRAME_SIZE[1], image.FRAME_SIZE[0], 3)
COLOURS = np.array([image.GRASS, *image.TILE_RGB], dtype=np.uint8)


def frame(game, state, viewer=None) -> np.ndarray:
    picture = game.render_image(state, viewer)
    assert picture.dtype == np.uint8 and picture.shape == SHAPE
    margin = image.MARGIN  # the layout promises an empty border
    for border in (picture[:margin], picture[-margin:], picture[:, :margin], picture[:, -margin:]):
        assert (border == BACKGROUND).all()
    return picture


def grounds(game, state, pad: int = 4) -> list[tuple[slice, slice]]:
    """Rows and columns of every seat's ground and ``pad`` pixels around it (the turn
    marker)."""
    (rows, cols), places = image.layout(game.config, state)
    boxes = []
    for _, _, _, x, y, cell in places:
        right, bottom = x + cell * len(cols), y + cell * len(rows)
        assert x - 4 >= image.MARGIN and right + 4 < image.PANEL_X - 8
        assert y - 4 >= image.TOP and bottom + 4 <= image.HEIGHT - image.MARGIN
        boxes.append(
            (slice(int(y) - pad, int(bottom) + pad + 2), slice(int(x) - pad, int(right) + pad + 2))
        )
    return boxes


def assert_nothing_outside_the_grounds(game, state, picture) -> None:
    """Grass and tile colours appear only on the grounds, the seat swatches in their
    headers and the panel of the middle of the table."""
    outside = np.ones(picture.shape[:2], dtype=bool)
    outside[:, image.PANEL_X - 8 :] = False
    for rows, cols in grounds(game, state):
        outside[rows, cols] = False
    for x, y, width, *_ in image.layout(game.config, state)[1]:
        outside[int(y) : int(y) + image.HEADER, int(x) : int(x + width)] = False
    coloured = (picture[:, :, None, :] == COLOURS[None, None]).all(axis=3).any(axis=2)
    assert not (coloured & outside).any()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_state_gives_a_frame_of_the_one_size_for_every_viewer(players):
    game = make_game(NAME, players)
    viewers = (None, *range(players))
    # Each state drawn for one viewer in turn; the last one for all.
    for step, state in enumerate(states(game, seed=players)):
        frame(game, state, viewers[step % len(viewers)])
    for viewer in viewers:
        assert_nothing_outside_the_grounds(game, state, frame(game, state, viewer))


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (5, {"grid": 3}),
        (2, {"grid": 3}),
        (5, {"grid": 21}),
        (2, {"grid": 101, "tiles_per_color": {0: 100, 1: 0, 2: 0, 3: 0, 4: 0, 5: 0}}),
    ],
)
def test_extreme_grids_and_long_games_stay_inside_their_slots(players, options):
    game = make_game(NAME, players, **options)
    state = game.new_state()
    rng = np.random.default_rng(0)
    while random_step(game, state, rng) != TERMINAL:
        pass
    assert_nothing_outside_the_grounds(game, state, frame(game, state, 0))
    tall = state.copy()  # a stack of a hundred tiles in a corner of the shown part
    (rows, cols), _ = image.layout(game.config, tall)
    tall.grounds[1][rows[0] * game.config.grid + cols[0]] = [0] * 100
    assert_nothing_outside_the_grounds(game, tall, frame(game, tall, None))


def test_what_is_left_in_the_bag_never_changes_the_picture():
    game = make_game(NAME, 3)
    state = first(game, 1, lambda s: s.phase == PLACE and s.bag < 40)
    kinds = [k for k in range(NUM_KINDS) if state.box[k]]
    other = state.copy()  # the same number of unseen tiles, other ones
    other.box[kinds[0]] -= 1
    other.box[next(k for k in range(NUM_KINDS) if k != kinds[0])] += 1
    for viewer in (None, 0, 1, 2):
        assert np.array_equal(frame(game, state, viewer), frame(game, other, viewer))


def test_a_placed_tile_and_an_elephant_lying_down_show_on_their_ground_only():
    game = make_game(NAME, 4)
    state = first(game, 2, lambda s: s.phase == PLACE and s.holder == 1 and s.turn == 1)
    seat = 2
    boxes = grounds(game, state, pad=-1)  # inside the ground's edge: the marker moves on
    before = frame(game, state, 0)
    for action in (game.legal_actions(state)[0], PASS_ACTION):
        after_state = state.copy()
        game.apply_action(after_state, action)
        after = frame(game, after_state, 0)
        for other, (rows, cols) in enumerate(boxes):
            changed = not np.array_equal(before[rows, cols], after[rows, cols])
            assert changed == (other == seat), (action, other)
