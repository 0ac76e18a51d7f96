"""Spank the Monkey's table picture (``render_image``): one frame size for every state,
viewer and option, hidden hands and the deck drawn face down, and towers and the monkey
where their heights put them."""

from __future__ import annotations

import numpy as np
import pytest
from random_games import first, states

from jungle_envs.core.image import BACKGROUND, HIGHLIGHT
from jungle_envs.core.registry import make_game
from jungle_envs.games.spank_the_monkey import image
from jungle_envs.games.spank_the_monkey.tables import (
    ACTIONS,
    BUILD_JUNK,
    CARD_INDEX,
    CARDS,
    DEFEND,
    JUNK_TYPES,
    REINFORCEMENT_TYPES,
)

NAME = "SpankTheMonkey"
SHAPE = (image.FRAME_SIZE[1], image.FRAME_SIZE[0], 3)
JUNK = np.array(image.KIND_COLORS["junk"], dtype=np.uint8)


def frame(game, state, viewer=None) -> np.ndarray:
    picture = game.render_image(state, viewer)
    assert picture.dtype == np.uint8 and picture.shape == SHAPE
    margin = image.MARGIN  # the layout promises an empty border
    for border in (picture[:margin], picture[-margin:], picture[:, :margin], picture[:, -margin:]):
        assert (border == BACKGROUND).all()
    return picture


def column(game, seat: int) -> slice:
    width = (image.WIDTH - image.MARGIN - image.SCALE_X) / game.num_players
    return slice(int(image.SCALE_X + seat * width), int(image.SCALE_X + (seat + 1) * width))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_state_gives_a_frame_of_the_one_size_for_every_viewer(players):
    game = make_game(NAME, players)
    viewers = (None, *range(players))
    # Each state drawn for one viewer in turn (a frame costs a few ms, a game ~350 states);
    # the last one for all.
    for step, state in enumerate(states(game, seed=players)):
        frame(game, state, viewers[step % len(viewers)])
    for viewer in viewers:
        frame(game, state, viewer)


def test_the_tallest_tower_and_the_highest_monkey_fit_with_huge_hands():
    # 42 Totem Poles (height 4): a tower of every junk card is 168 high; the monkey 194.
    deck = {CARDS[t].name: 0 for t in JUNK_TYPES} | {"Totem Pole": 42}
    game = make_game(NAME, 6, deck=deck, monkey_base=200)
    state = game.new_state()
    pole = CARD_INDEX["Totem Pole"]
    extras = [t for t in REINFORCEMENT_TYPES for _ in range(state.deck[t])]
    state.towers[5] = [[pole, 1, extras[i] if i < len(extras) else -1] for i in range(42)]
    for t in (pole, *REINFORCEMENT_TYPES):
        state.deck[t] = 0
    for t in range(len(CARDS)):  # no hand limit: every other card in two hands
        seat = 0 if CARDS[t].kind in ("attack", "defense") else 1
        state.hands[seat][t], state.deck[t] = state.hands[seat][t] + state.deck[t], 0
    state.deck[pole] = 0
    top, unit = image.scale_of(state)
    assert top >= 194 + 2 and image.TOWERS[1] - 194 * unit >= image.TOWERS[0]
    for viewer in (None, 0, 1, 5):
        picture = frame(game, state, viewer)
        area = picture[image.TABLE[1] : image.PLATES[0], column(game, 5)]
        rows = np.nonzero((area == JUNK).all(axis=2).any(axis=1))[0] + image.TABLE[1]
        # The whole tower is drawn, from the ground up to its top on the stretched scale.
        assert rows.min() >= image.TOWERS[0] and rows.max() <= image.TOWERS[1]
        assert abs(rows.min() - (image.TOWERS[1] - 168 * unit)) <= 2


def test_hidden_hands_and_the_deck_never_change_the_picture_for_who_may_not_see_them():
    game = make_game(NAME, 4)
    state = first(game, 3, lambda s: s.turns >= 8 and s.phase == BUILD_JUNK and sum(s.hands[1]))
    held = next(t for t, n in enumerate(state.hands[1]) if n)
    other = next(t for t, n in enumerate(state.deck) if n and t != held and not state.hands[1][t])
    swapped = state.copy()  # seat 1 holds another card, the deck the one it held
    swapped.hands[1][held] -= 1
    swapped.hands[1][other] += 1
    swapped.deck[other] -= 1
    swapped.deck[held] += 1
    game.validate_state(swapped)
    for viewer in (0, 2, 3):
        assert np.array_equal(frame(game, state, viewer), frame(game, swapped, viewer))
    for viewer in (1, None):
        assert not np.array_equal(frame(game, state, viewer), frame(game, swapped, viewer))
    shuffled = state.copy()  # the same number of cards in the deck, other ones
    shuffled.deck[other] -= 1
    shuffled.deck[next(t for t in range(len(CARDS)) if t != other)] += 1
    for viewer in (None, 0, 1, 2, 3):
        assert np.array_equal(frame(game, state, viewer), frame(game, shuffled, viewer))


def test_building_a_card_and_a_climbing_monkey_show_where_they_happen():
    game = make_game(NAME, 4)
    state = first(
        game,
        5,
        lambda s: (
            s.phase == BUILD_JUNK
            and any(a in ACTIONS.build.values() for a in game.legal_actions(s))
        ),
    )
    seat = state.player
    viewer = (seat + 1) % 4
    built = state.copy()
    game.apply_action(built, next(a for a in game.legal_actions(built) if a != ACTIONS.skip_build))
    assert len(built.towers[seat]) == len(state.towers[seat]) + 1
    towers = slice(image.TOWERS[0], image.TOWERS[1] + 1)
    before, after = frame(game, state, viewer), frame(game, built, viewer)
    for other in range(4):
        changed = not np.array_equal(
            before[towers, column(game, other)], after[towers, column(game, other)]
        )
        assert changed == (other == seat)
    climbed = state.copy()
    climbed.monkey += 1  # what a Gorilla or a Shake junk card does
    scale = (slice(image.TOWERS[0], image.TOWERS[1] + 1), slice(0, image.SCALE_X))
    assert not np.array_equal(
        frame(game, state, viewer)[scale], frame(game, climbed, viewer)[scale]
    )


def test_an_attacked_card_is_marked_in_its_owners_tower():
    game = make_game(NAME, 4)
    state = first(game, 0, lambda s: s.phase == DEFEND)
    target = state.attack[1]
    picture = frame(game, state, None)
    towers = slice(image.TOWERS[0] - 4, image.TOWERS[1] + 4)
    for seat in range(4):
        marked = (picture[towers, column(game, seat)] == HIGHLIGHT).all(axis=2).any()
        assert marked == (seat == target)
