"""Jungle Sweep's table picture (``render_image``): one frame size for every state, viewer and
option, face-down coconuts that show nothing a seat may not see, and pieces where they stand."""

from __future__ import annotations

import numpy as np
import pytest
from random_games import states

from jungle_envs.core.image import BACKGROUND, SEAT_COLORS
from jungle_envs.core.registry import make_game
from jungle_envs.games.jungle_sweep import image
from jungle_envs.games.jungle_sweep.tables import CHOOSE_DIE, LAY_RING, PALM

# The soak's largest ring (benchmarks/soak.py): 43 terrain tiles and up to 6 palms.
BIG_TERRAIN = {"jungle_path": 24, "clearing": 6, "water_hole": 6, "hill": 6}
SHAPE = (image.FRAME_SIZE[1], image.FRAME_SIZE[0], 3)


def mid_game(players: int, seed: int = 0, **options):
    """A copy of the first state from round 2 on where a seat chooses a die (so coconuts
    are out)."""
    game = make_game("JungleSweep", players, **options)
    for state in states(game, seed):
        if state.round >= 1 and state.phase == CHOOSE_DIE:
            return game, state.copy()
    raise AssertionError("no die was chosen after round 1")


def frame(game, state, viewer=None) -> np.ndarray:
    picture = game.render_image(state, viewer)
    assert picture.dtype == np.uint8 and picture.shape == SHAPE
    return picture


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_state_and_viewer_gives_a_frame_of_the_one_size(players):
    game = make_game("JungleSweep", players)
    viewers = (None, *range(players))
    for state in states(game, seed=0):
        for viewer in viewers:
            frame(game, state, viewer)
    # One more game, each state drawn for one viewer in turn (a frame costs 2-3 ms).
    for step, state in enumerate(states(game, seed=1)):
        frame(game, state, viewers[step % len(viewers)])


@pytest.mark.parametrize("players", [2, 6])
def test_the_largest_ring_stays_inside_the_frame_with_margins_kept_clear(players):
    game = make_game("JungleSweep", players, terrain=BIG_TERRAIN, coconuts={1: 60})
    for size in (game.config.ring_size(0), game.config.max_ring_size):
        centers, tile = image.ring_layout(size)
        for center in centers:
            (px, py), radius = image.piece_spot(center, tile)
            # a tile with its border, a piece with the ring that marks the deciding monkey
            for x, y, half in ((*center, tile / 2 + 2), (px, py, radius + 5)):
                assert 4 <= x - half <= x + half <= image.PANEL_LEFT - 4, (x, half)
                assert image.STATUS_HEIGHT + 4 <= y - half <= y + half <= image.FRAME_SIZE[1] - 4
    background = np.array(BACKGROUND, dtype=np.uint8)
    for state in states(game, seed=1):
        picture = frame(game, state, 0)
        assert (picture[-4:] == background).all(), "bottom margin drawn on"
        below_status = picture[image.STATUS_HEIGHT + 1 :]
        assert (below_status[:, :4] == background).all(), "left margin drawn on"
        assert (below_status[:, -4:] == background).all(), "right margin drawn on"


def swap_coconut(game, state, monkey: int):
    """The same state but one coconut of ``monkey`` has another value (swapped with one in
    the supply, so the totals still add up)."""
    other, values = state.copy(), game.config.coconut_values
    old = other.coconuts[monkey][0]
    new = next(v for i, v in enumerate(values) if v != old and other.supply[i] > 0)
    other.coconuts[monkey][0] = new
    other.supply[values.index(new)] -= 1
    other.supply[values.index(old)] += 1
    game.validate_state(other)
    return other


@pytest.mark.parametrize("players", [2, 4, 5])
def test_another_seats_coconut_values_never_change_a_seats_picture(players):
    game, state = mid_game(players, seed=3)
    monkey = next(m for m in range(game.config.num_monkeys) if state.coconuts[m])
    owner = monkey % players
    other = swap_coconut(game, state, monkey)
    for viewer in range(players):
        same = np.array_equal(frame(game, state, viewer), frame(game, other, viewer))
        assert same == (viewer != owner), (viewer, owner)
    assert not np.array_equal(frame(game, state), frame(game, other))


def test_the_supply_and_set_aside_coconuts_stay_face_down_for_everyone():
    game, state = mid_game(3, seed=2)
    aside = next(i for i, n in enumerate(state.set_aside) if n)
    swap = next(i for i, n in enumerate(state.supply) if n and i != aside)
    other = state.copy()
    other.set_aside[aside] -= 1
    other.set_aside[swap] += 1
    other.supply[swap] -= 1
    other.supply[aside] += 1
    game.validate_state(other)
    for viewer in (None, 0, 1, 2):
        assert np.array_equal(frame(game, state, viewer), frame(game, other, viewer))


def pixel(picture: np.ndarray, xy) -> tuple[int, ...]:
    return tuple(int(v) for v in picture[round(xy[1]), round(xy[0])])


def below_label(spot, radius: float) -> tuple[float, float]:
    """A point of a pawn under its label, where the seat colour shows."""
    return spot[0], spot[1] + radius * 0.7


@pytest.mark.parametrize("options", [{}, {"terrain": BIG_TERRAIN}])
def test_a_monkey_shows_in_its_seat_colour_on_the_field_it_moves_to(options):
    game, state = mid_game(4, seed=5, **options)
    monkey = next(m for m, pos in enumerate(state.monkey_pos) if pos != -1)
    taken = {*state.monkey_pos, state.broom, state.pending}
    target = next(i for i in range(len(state.ring)) if i not in taken)
    moved = state.copy()
    moved.monkey_pos[monkey] = target
    game.validate_state(moved)
    centers, tile = image.ring_layout(len(state.ring))
    spot = below_label(*image.piece_spot(centers[target], tile))
    old = below_label(*image.piece_spot(centers[state.monkey_pos[monkey]], tile))
    before, after = frame(game, state), frame(game, moved)
    colour = SEAT_COLORS[monkey % 4]
    assert pixel(before, old) == colour != pixel(before, spot)
    assert pixel(after, spot) == colour != pixel(after, old)


def test_the_broom_shows_on_its_field():
    game, state = mid_game(4, seed=6)
    taken = {*state.monkey_pos, state.broom}
    target = next(i for i in range(len(state.ring)) if i not in taken)
    moved = state.copy()
    moved.broom = target
    game.validate_state(moved)
    centers, tile = image.ring_layout(len(state.ring))
    box = [
        round(v)
        for v in (*np.subtract(centers[target], tile / 2), *np.add(centers[target], tile / 2))
    ]

    def broom_pixels(picture):
        region = picture[box[1] : box[3], box[0] : box[2]].reshape(-1, 3)
        return int((region == np.array(image.BROOM, dtype=np.uint8)).all(axis=1).sum())

    assert broom_pixels(frame(game, state)) == 0
    assert broom_pixels(frame(game, moved)) > 20


def test_a_laid_tile_shows_its_terrain_colour():
    game = make_game("JungleSweep", 4)
    state = game.new_state()
    centers, tile = image.ring_layout(game.config.ring_size(0))
    corner = (centers[0][0] - tile / 2 + 6, centers[0][1] + tile / 2 - 6)
    empty = pixel(frame(game, state), corner)
    for code in (0, 3, PALM + 2):
        laid = state.copy()
        game.apply_chance(laid, code)
        assert laid.phase == LAY_RING and laid.ring == [code]
        terrain = min(code, PALM)
        assert pixel(frame(game, laid), corner) == image.TERRAIN_COLORS[terrain] != empty


def test_stamped_labels_are_the_pixels_canvas_text_draws():
    # core.image.stamp_text, which both tables use for speed, must not change a picture
    from jungle_envs.core.image import Canvas, stamp_text

    drawn, stamped = Canvas(200, 60), Canvas(200, 60)
    for anchor, xy in (("la", (3, 4)), ("mm", (100, 30)), ("ra", (197, 2)), ("md", (60, 58))):
        drawn.text(xy, "seat 0a: 4", size=13, anchor=anchor)
        stamp_text(stamped, xy, "seat 0a: 4", size=13, anchor=anchor)
    assert np.array_equal(drawn.to_array(), stamped.to_array())
