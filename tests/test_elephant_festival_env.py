"""Elephant Festival beyond single rulings: states, options, observation, the heuristic."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from elephant_positions import cell, position, tile

from jungle_envs.core.game import TERMINAL
from jungle_envs.core.random_play import random_step
from jungle_envs.core.state import StateError
from jungle_envs.evaluation import evaluate
from jungle_envs.games.elephant_festival.encoding import decode
from jungle_envs.games.elephant_festival.game import ElephantFestival
from jungle_envs.games.elephant_festival.tables import PASS_ACTION, PLACE_ACTIONS, TYPES

ENV_ID = "jungle_envs/ElephantFestival-v0"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_state_of_random_games_is_valid(players):
    game = ElephantFestival(players)
    rng = np.random.default_rng(players)
    for _ in range(5):
        state = game.new_state()
        while random_step(game, state, rng) != TERMINAL:
            game.validate_state(state)


def test_observation_shows_my_ground_in_colours_relative_to_mine():
    game, state = position(
        grounds={1: {(3, 4): "G2", (2, 4): "R1 B3"}},
        elephants={1: [(2, 4), (4, 4)]},
        display="Y0 P4",
        turn=1,
    )
    ground, herd, display, passes = decode(game, game.observe(state, 1))
    # Seat 1 is yellow: green is +1, blue +2, yellow itself 0.
    assert ground[cell(3, 4)] == [1 * TYPES + 2]
    assert ground[cell(2, 4)] == [2 * TYPES + 3] * 2  # top tile, stack of two
    assert sorted(herd) == sorted([cell(2, 4), cell(4, 4)]) and passes == 0
    assert display[0 * TYPES + 0] == 1 and display[3 * TYPES + 4] == 1  # yellow 0, purple +3


def test_actions_name_colours_relative_to_the_deciding_player():
    game, state = position(display="Y2", turn=1)  # seat 1 (yellow) decides
    names = {game.spec.action_names[a] for a in game.legal_actions(state) if a != PASS_ACTION}
    assert all(name.startswith("place own-colour 2-symbol tile") for name in names)


@pytest.mark.parametrize(
    "option,value,message",
    [
        ("tiles_per_color", {7: 1}, "unknown symbol counts"),
        ("tiles_per_color", {k: 0 for k in range(6)}, "1 to 200 tiles"),
        ("grid", 8, "odd int"),
    ],
)
def test_bad_options_are_refused(option, value, message):
    with pytest.raises(ValueError, match=message):
        ElephantFestival(2, **{option: value})


def test_options_change_the_tiles_and_the_ground():
    game = ElephantFestival(2, tiles_per_color={5: 3}, grid=7)
    config = game.config
    assert config.tile_counts[5] == 3 and config.bag_size == 2 * 22 and config.start_cell == 24


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda s: s.grounds[0][40].append(3), "start tile"),
        (lambda s: s.box.__setitem__(0, 9), "do not add up"),
        (lambda s: s.elephants[0].__setitem__(0, 0), "empty cell"),
        (lambda s: setattr(s, "passes", [3, 0]), "passes"),
    ],
)
def test_impossible_states_are_refused(change, message):
    game, state = position(display="R1 Y2")
    change(state)
    with pytest.raises(StateError, match=message):
        game.state_from_json(game.state_to_json(state))


def test_final_info_breaks_every_score_down_by_line():
    env = gym.make(ENV_ID, num_players=3)
    _, info = env.reset(seed=0)
    done = False
    while not done:
        _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    for seat, lines in enumerate(info["score_lines"]):
        assert set(lines) == {"removed", "missing", "standing", "arches", "symbols", "total"}
        assert (
            lines["total"]
            == info["scores"][seat]
            == sum(v for k, v in lines.items() if k != "total")
        )


def test_heuristic_takes_the_tile_that_matches_an_arch():
    game, state = position(display="Y0 R0")  # yellow's arch faces north
    action = game.heuristic_policy().act(game.observe(state, 0), game.legal_mask(state), None)
    kind, _, direction = PLACE_ACTIONS[action]
    assert kind == 1 * TYPES + 0 and direction == 0  # yellow, to the north
    assert tile("Y0") == kind


@pytest.mark.parametrize("players", [2, 4])
def test_heuristic_beats_random_opponents_clearly(players):
    result = evaluate(ENV_ID, "heuristic", "random", games=100, num_players=players, seed=9)
    assert result.ci95[0] > 1.0 / players + 0.15
    assert result.illegal_actions == 0


def test_observation_tells_the_two_elephants_apart():
    grounds = {0: {(3, 4): "Y0", (2, 4): "Y1"}}
    game, one = position(grounds=grounds, elephants={0: [(2, 4), (3, 4)]}, display="R1 G2")
    game, two = position(grounds=grounds, elephants={0: [(3, 4), (2, 4)]}, display="R1 G2")
    assert not np.array_equal(game.observe(one, 0), game.observe(two, 0))


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda s: s.elephants[0].__setitem__(1, 31), "share only the start tile"),
        (lambda s: s.grounds[0][0].append(3), "touches the rest"),
        (lambda s: s.passes.__setitem__(0, 2), "more than once a round"),
        (lambda s: setattr(s, "holder", 0), "bag passes on"),
    ],
)
def test_states_off_the_course_of_play_are_refused(change, message):
    game, state = position(
        grounds={0: {(3, 4): "Y0"}},
        elephants={0: [(3, 4), (4, 4)]},
        display="R1 Y2",
        discarded="G0",
    )
    change(state)
    with pytest.raises(StateError, match=message):
        game.validate_state(state)


def test_move_features_show_each_placements_score_change_and_rank():
    from jungle_envs.games.elephant_festival.config import MOVE_FEATURES, MOVE_GAIN_SPAN
    from jungle_envs.games.elephant_festival.rules import score
    from jungle_envs.games.elephant_festival.tables import ELEPHANTS

    game, state = position(display="Y0 R0", move_features=True)  # Y0 north fits the arch
    rows = game.config.layout.split(game.observe(state, 0))["moves"].reshape(-1, MOVE_FEATURES)
    legal = np.flatnonzero(game.legal_mask(state)[:PASS_ACTION])
    assert set(np.flatnonzero(rows[:, 0])) == set(legal)
    before = score(state.grounds[0], 0, game.config.grid, ELEPHANTS)["total"]
    gains = {}
    for action in legal:
        after = state.copy()
        game.apply_action(after, int(action))
        gains[action] = score(after.grounds[0], 0, game.config.grid, ELEPHANTS)["total"] - before
        gain_column = rows[action, 1] * 2 * MOVE_GAIN_SPAN - MOVE_GAIN_SPAN
        assert gain_column == pytest.approx(gains[action])
    best = max(gains.values())
    assert best > 0  # the arch's yellow tile scores
    for action, gain in gains.items():
        assert rows[action, 3] == (gain == best)
        assert rows[action, 4] == pytest.approx(min(best - gain, MOVE_GAIN_SPAN) / MOVE_GAIN_SPAN)
        assert (rows[action, 5], rows[action, 6]) == (gain > 0, gain < 0)
    heuristic = game.heuristic_policy().act(game.observe(state, 0), game.legal_mask(state), None)
    assert rows[heuristic, 3] == 1.0  # the greedy move is among the best-marked
    waiting = game.config.layout.split(game.observe(state, 1))["moves"]
    assert not waiting.any()  # the seat that does not decide sees no moves


def test_actions_read_with_the_deciding_seats_real_colours_and_cells():
    """The ids count colours from the seat's own (as the observation); the play table and
    logs name the real colour and the cell the tile lands on."""
    from jungle_envs import make_game
    from jungle_envs.core import CHANCE
    from jungle_envs.games.elephant_festival.rules import neighbour
    from jungle_envs.games.elephant_festival.tables import COLORS, PLACE_ACTIONS, TYPES

    game = make_game("ElephantFestival", num_players=3)
    state, rng = game.new_state(), np.random.default_rng(5)
    names = set()
    while len(names) < 3:  # the first decision of each seat
        while game.current_player(state) == CHANCE:
            game.apply_chance(state, game.sample_chance(state, rng))
        seat = game.current_player(state)
        for action in game.legal_actions(state):
            text = game.action_to_string(state, action)
            if action == len(PLACE_ACTIONS):
                assert text == "pass"
                continue
            relative, elephant, direction = PLACE_ACTIONS[action]
            colour = COLORS[(relative // TYPES + seat) % len(COLORS)]
            cell = neighbour(state.elephants[seat][elephant], direction, game.config.grid)
            assert text.startswith(f"place {colour} {relative % TYPES}-symbol tile")
            assert f"elephant {elephant + 1}" in text
            assert text.endswith(f"(row {cell // 9}, col {cell % 9})")
            names.add(seat)
        game.apply_action(state, game.legal_actions(state)[0])
    other = make_game("TropicRace", num_players=2)  # fixed names elsewhere
    assert other.action_to_string(other.new_state(), 0) == other.spec.action_names[0]
