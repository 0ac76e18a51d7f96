"""Tropic Race's table picture (``render_image``): one frame size for every state, viewer and
option, START and GOAL with room for the most monkeys, and pieces and tiles where they are."""

from __future__ import annotations

import numpy as np
import pytest
from random_games import states
from tropic_race_positions import position

from jungle_envs.core.image import BACKGROUND, SEAT_COLORS
from jungle_envs.core.registry import make_game
from jungle_envs.games.tropic_race import image
from jungle_envs.games.tropic_race.tables import GOAL, LOC, MOVE, SLOTS, START

SHAPE = (image.FRAME_SIZE[1], image.FRAME_SIZE[0], 3)


def frame(game, state, viewer=None) -> np.ndarray:
    picture = game.render_image(state, viewer)
    assert picture.dtype == np.uint8 and picture.shape == SHAPE
    return picture


def pixel(picture: np.ndarray, xy) -> tuple[int, ...]:
    return tuple(int(v) for v in picture[round(xy[1]), round(xy[0])])


def below_label(xy, radius: float = 15) -> tuple[float, float]:
    """A point of a pawn on a field under its label, where the seat colour shows."""
    return xy[0], xy[1] + radius * 0.7


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_state_and_viewer_gives_a_frame_of_the_one_size(players):
    game = make_game("TropicRace", players)
    viewers = (None, *range(players))
    for state in states(game, seed=0):
        for viewer in viewers:
            frame(game, state, viewer)
    # Two more games, each state drawn for one viewer in turn (a frame costs 2-3 ms).
    for seed in (1, 2):
        for step, state in enumerate(states(game, seed)):
            frame(game, state, viewers[step % len(viewers)])


# The soak's extreme options (benchmarks/soak.py) with the most players.
EXTREMES = [
    {"monkeys": 12},
    {"tile_mix": {"bridge": 40, "near_only": 20, "far_only": 20, "empty": 20}},
    {"die_faces": ["9", "9", "LION", "ARROW"], "lion_start": "B9", "die_fields": ["T2", "B1"]},
]


@pytest.mark.parametrize("options", EXTREMES)
def test_extreme_options_keep_the_frame_margins_clear(options):
    game = make_game("TropicRace", 5, **options)
    background = np.array(BACKGROUND, dtype=np.uint8)
    for state in states(game, seed=0):
        below_status = frame(game, state, 0)[image.STATUS_HEIGHT + 1 :]
        assert (below_status[-4:] == background).all(), "bottom margin drawn on"
        assert (below_status[:, :4] == background).all(), "left margin drawn on"
        assert (below_status[:, -4:] == background).all(), "right margin drawn on"


@pytest.mark.parametrize("box, columns", [(image.START_BOX, 1), (image.GOAL_BOX, 5)])
def test_start_and_goal_show_a_pawn_for_each_of_twelve_monkeys_of_five_seats(box, columns):
    left, top, right, bottom = box
    for seat in range(5):
        _, spots = image.pool_spots(box, 5, columns, seat)
        assert len(spots) >= 12
        for x, y in spots[:12]:
            assert left + 6 <= x <= right - 6 and top + 6 <= y <= bottom - 6
    game = make_game("TropicRace", 5, monkeys=12)
    state = game.new_state()
    state.monkeys[3] = [GOAL] * 12
    picture = frame(game, state)
    loc = GOAL if box == image.GOAL_BOX else START
    for seat in range(5):
        _, spots = image.pool_spots(box, 5, columns, seat)
        shown = state.monkeys[seat].count(loc)
        for k, spot in enumerate(spots[:13]):
            assert (pixel(picture, spot) == SEAT_COLORS[seat]) == (k < shown), (seat, k)


def test_a_monkey_shows_in_its_seat_colour_on_the_field_it_stands_on():
    game, state = position({0: ["B3"], 1: ["NT2", "T2"]}, num_players=3)
    picture = frame(game, state)
    for seat, names in ((0, ["B3"]), (1, ["NT2", "T2"])):
        for name in names:
            assert pixel(picture, below_label(image.POSITIONS[LOC[name]])) == SEAT_COLORS[seat]
    _, moved = position({0: ["B4"], 1: ["NT2", "T2"]}, num_players=3)
    after = frame(game, moved)
    assert pixel(after, below_label(image.POSITIONS[LOC["B4"]])) == SEAT_COLORS[0]
    assert pixel(after, below_label(image.POSITIONS[LOC["B3"]])) != SEAT_COLORS[0]


def test_the_lion_shows_where_it_stands():
    for name in ("B5", "B1", "T1"):
        game, moved = position(lion=name)
        picture = frame(game, moved)
        for other in ("B5", "B1", "T1"):
            colour = pixel(picture, below_label(image.POSITIONS[LOC[other]], 20))
            assert (colour == image.LION_FILL) == (other == name), (name, other)


def test_each_river_slot_shows_its_tiles_turtles():
    slots = ("bridge", "near_only", "far_only", "empty", "bridge")
    game, state = position(slots=slots)
    picture = frame(game, state)
    for i, kind in enumerate(slots):
        near = pixel(picture, below_label(image.POSITIONS[LOC[f"NT{i + 1}"]], 20))
        far = pixel(picture, below_label(image.POSITIONS[LOC[f"FT{i + 1}"]], 20))
        assert (near == image.TURTLE) == (kind in ("bridge", "near_only")), (i, kind)
        assert (far == image.TURTLE) == (kind in ("bridge", "far_only")), (i, kind)
    # a push: every tile one slot to the right, a new one in slot 1
    _, pushed = position(slots=("empty", *slots[: SLOTS - 1]))
    assert not np.array_equal(picture, frame(game, pushed))


def test_whose_turn_and_the_pending_steps_show():
    game, state = position({0: ["B3"]}, phase=MOVE, steps=3, player=0)
    _, other = position({0: ["B3"]}, phase=MOVE, steps=4, player=0)
    _, turn = position({0: ["B3"]}, phase=MOVE, steps=3, player=1)
    picture = frame(game, state)
    assert not np.array_equal(picture, frame(game, other))
    assert not np.array_equal(picture, frame(game, turn))
