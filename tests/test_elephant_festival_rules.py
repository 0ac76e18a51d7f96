"""Elephant Festival rulings, one test per ruling (docs/rules/elephant_festival.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from elephant_positions import cell, ground, place, position, tile

from jungle_envs.core.game import CHANCE, TERMINAL
from jungle_envs.games.elephant_festival.config import SPEC, make_config
from jungle_envs.games.elephant_festival.game import ElephantFestival
from jungle_envs.games.elephant_festival.rules import arch_cells, score
from jungle_envs.games.elephant_festival.tables import (
    DRAW_TILE,
    GAME_OVER,
    NUM_KINDS,
    PASS_ACTION,
    PLACE,
    TYPES,
)


def lines(tiles, standing=2, owner=0):
    result = score(ground(tiles), owner, 9, standing)
    return {k: v for k, v in result.items()}


def test_box_holds_twenty_tiles_of_each_colour_by_symbols():
    game = ElephantFestival(5)
    per_type = [game.config.tile_counts[kind] for kind in range(TYPES)]  # red, 0-5 symbols
    assert per_type == [5, 5, 4, 3, 2, 1] and sum(game.config.tile_counts) == 100


@pytest.mark.parametrize("players,bag", [(2, 40), (3, 60), (4, 80), (5, 100)])
def test_bag_holds_twenty_tiles_per_player(players, bag):
    game = ElephantFestival(players)
    state = game.new_state()
    assert state.bag == bag == game.config.bag_size
    assert game.chance_event(state).distribution() == pytest.approx(
        {kind: n / 100 for kind, n in enumerate(game.config.tile_counts)}
    )


def test_start_tile_at_the_centre_with_both_elephants_on_it():
    game = ElephantFestival(3)
    state = game.new_state()
    for seat in range(3):
        assert state.grounds[seat][cell(4, 4)] == [-1]
        assert state.elephants[seat] == [cell(4, 4)] * 2
        assert sum(map(len, state.grounds[seat])) == 1


def test_start_tile_arches_show_the_other_colours_clockwise_from_north():
    # Seat 2 is green; the colours after it are blue, purple, red and yellow.
    arches = arch_cells(cell(4, 4), 2, 9)
    assert arches == {3: cell(3, 4), 4: cell(4, 5), 0: cell(5, 4), 1: cell(4, 3)}


def test_the_bag_holder_lays_out_one_tile_per_player():
    game = ElephantFestival(3)
    state = game.new_state()
    assert state.phase == DRAW_TILE and game.current_player(state) == CHANCE
    for token in ("R1", "G2", "G2"):
        game.apply_chance(state, tile(token))
    assert state.phase == PLACE and state.display[tile("G2")] == 2 and state.bag == 57


def test_the_draft_goes_clockwise_from_the_bag_holder():
    # Two earlier rounds went untaken: the bag has passed to seat 2.
    game, state = position(display="R1 Y2 G3", num_players=3, discarded="R0 R0 R0 Y0 Y0 Y0")
    assert state.holder == 2
    order = []
    for token, direction in (("R1", "N"), ("Y2", "E"), ("G3", "S")):
        order.append(game.current_player(state))
        place(game, state, token, 1, direction)
    assert order == [2, 0, 1]


def test_identical_face_up_tiles_are_one_action():
    game, state = position(display="R1 R1")
    placing = [a for a in game.legal_actions(state) if a != PASS_ACTION]
    assert len(placing) == 8  # one kind, two elephants, four directions


def test_a_tile_goes_next_to_an_elephant_which_steps_onto_it():
    game, state = position(display="Y2 R0")
    place(game, state, "Y2", 1, "N")
    assert state.grounds[0][cell(3, 4)] == [tile("Y2")]
    assert state.elephants[0] == [cell(3, 4), cell(4, 4)]


def test_never_on_the_start_tile_nor_the_other_elephants_cell():
    game, state = position(
        grounds={0: {(3, 4): "Y2", (3, 5): "G1"}}, elephants={0: [(3, 4), (3, 5)]}, display="R0 B1"
    )
    spots = {(e, d) for e, d, _ in _spots(game, state)}
    assert (0, 2) not in spots  # elephant 1 south: the start tile
    assert (0, 1) not in spots  # elephant 1 east: elephant 2 stands there
    assert (1, 3) not in spots  # elephant 2 west: elephant 1 stands there


def _spots(game, state):
    from jungle_envs.games.elephant_festival.rules import placements

    return placements(state.elephants[0], game.config.start_cell, game.config.grid)


def test_a_tile_may_go_on_top_of_another_to_form_a_stack():
    game, state = position(
        grounds={0: {(3, 4): "Y2", (2, 4): "G1"}},
        elephants={0: [(2, 4), (4, 4)]},
        display="B3 R0",
        discarded="R0 R0",
    )
    place(game, state, "B3", 2, "N")  # elephant 2 on the start tile: onto the Y2
    assert state.grounds[0][cell(3, 4)] == [tile("Y2"), tile("B3")]
    assert state.elephants[0][1] == cell(3, 4)


def test_nothing_goes_outside_the_ground():
    path = {(1, 2): "Y2", (0, 2): "G1", (0, 1): "B0", (0, 0): "P3"}
    game, state = position(
        grounds={0: path},
        elephants={0: [(0, 0), (2, 2)]},
        display="R0 B1",
        grid=5,
        discarded="R0 R0 R0 R0",
    )
    assert {(e, d) for e, d, _ in _spots(game, state) if e == 0} == {(0, 1), (0, 2)}


def test_pass_lays_an_elephant_down_at_most_twice_and_it_still_moves():
    game, state = position(display="R1 Y2", passes={0: 1})
    game.apply_action(state, PASS_ACTION)
    assert state.passes[0] == 2
    # A round later (seat 1 holds the bag and has acted): both of seat 0's passes used.
    game, state = position(display="R1 Y2", passes={0: 2}, discarded="R0 Y0", turn=1)
    assert PASS_ACTION not in game.legal_actions(state)
    place(game, state, "R1", 1, "W")  # both elephants lie, yet they move and anchor tiles
    assert state.elephants[0][0] == cell(4, 3)


def test_a_player_who_cannot_place_must_pass_or_else_does_nothing():
    game, state = position(
        display="R1", num_players=3, passes={2: 2}, discarded="R0 Y0 G0 B0 P0 R1 Y1 G1 B1"
    )
    place(game, state, "R1", 1, "N")
    assert game.current_player(state) == 1 and game.legal_actions(state) == [PASS_ACTION]
    game.apply_action(state, PASS_ACTION)
    assert state.passes == [0, 1, 2]  # seat 2 can neither place nor pass: skipped
    assert state.phase == DRAW_TILE and state.holder == 1


def test_untaken_tiles_leave_the_game_and_the_bag_passes_on():
    game, state = position(display="R1 Y2")
    game.apply_action(state, PASS_ACTION)
    place(game, state, "Y2", 1, "N")
    assert state.discarded[tile("R1")] == 1 and not any(state.display)
    assert state.holder == 1 and state.phase == DRAW_TILE


def test_the_game_ends_when_the_bag_is_empty():
    game = ElephantFestival(2, tiles_per_color={0: 1, 1: 0, 2: 0, 3: 0, 4: 0, 5: 0})
    state = game.new_state()  # a bag of 2 tiles: one round
    game.apply_chance(state, tile("R0"))
    game.apply_chance(state, tile("G0"))
    place(game, state, "R0", 1, "N")
    place(game, state, "G0", 1, "N")
    assert state.phase == GAME_OVER and game.current_player(state) == TERMINAL


def test_missing_colours_cost_five_each():
    result = lines({})
    assert result["missing"] == -20 and result["standing"] == 2 and result["total"] == -18


def test_only_top_tiles_count_for_colour_and_symbols():
    result = lines({(0, 0): "Y1 G4"})
    assert result["symbols"] == 4 and result["missing"] == -15  # the yellow is covered


def test_extra_fields_are_removed_at_two_points_per_tile_stacks_included():
    result = lines({(0, 0): "G5", (0, 1): "G0", (8, 8): "Y0 Y0 G1"})
    assert result == {
        "removed": -6,
        "missing": -15,
        "standing": 2,
        "arches": 0,
        "symbols": 5,
        "total": -14,
    }


def test_keeping_a_smaller_field_on_an_arch_can_beat_a_larger_one():
    # Yellow's arch faces north of the start tile: keep the 1-tile field there (+5 arch,
    # -4 for the 2 tiles removed) rather than the 2-tile field (+1 symbol, -2).
    result = lines({(3, 4): "Y0", (0, 0): "Y1", (0, 1): "Y0"})
    assert (result["removed"], result["arches"], result["symbols"]) == (-4, 5, 0)
    assert result["total"] == -4 + 5 + 0 - 15 + 2


def test_own_colour_keeps_two_fields_the_start_tiles_among_them():
    result = lines({(4, 5): "R4", (0, 0): "R3", (8, 8): "R1", (0, 8): "R2"})
    assert (result["removed"], result["symbols"]) == (-4, 7)  # R1 and R2 go


def test_standing_elephants_score_one_each():
    assert lines({}, standing=1)["standing"] == 1 and lines({}, standing=0)["standing"] == 0


def test_symbols_count_on_the_remaining_top_tiles():
    result = lines({(3, 4): "Y3", (3, 3): "Y2", (5, 5): "B5"})
    assert result["symbols"] == 10 and result["arches"] == 5


def test_worked_example_from_the_rules_document():
    tiles = {
        (3, 4): "Y2",
        (2, 4): "Y1",
        (4, 5): "G0",
        (4, 6): "B3",
        (5, 4): "R1 B2",
        (4, 3): "P4",
        (4, 2): "P0 P0",
        (0, 0): "P5",
        (6, 4): "G3",
    }
    assert lines(tiles, standing=1) == {
        "removed": -6,
        "missing": 0,
        "standing": 1,
        "arches": 20,
        "symbols": 9,
        "total": 24,
    }


def test_highest_total_wins_and_ties_share():
    game, state = position(grounds={0: {(3, 4): "Y2"}, 1: {(3, 4): "R2"}})
    finish(game, state)
    assert game.scores(state) == [-6.0, -11.0] and game.winners(state) == [0]
    game, state = position(grounds={0: {(3, 4): "G2"}, 1: {(3, 4): "R2"}})
    finish(game, state)
    assert game.winners(state) == [0, 1] and game.returns(state) == [0.0, 0.0]


def finish(game, state):
    """Empty the bag into the discarded tiles and end the game."""
    for kind in range(NUM_KINDS):
        take = min(state.box[kind], state.bag)
        state.box[kind] -= take
        state.discarded[kind] += take
        state.bag -= take
    state.phase = GAME_OVER
    game.validate_state(state)


def test_a_full_game_lasts_twenty_rounds_of_one_tile_per_player():
    game = ElephantFestival(3)
    state = game.new_state()
    rng = __import__("numpy").random.default_rng(1)
    from jungle_envs.core.random_play import random_step

    draws = 0
    while (player := random_step(game, state, rng)) != TERMINAL:
        draws += player == CHANCE
    assert draws == 60
    for seat in range(3):
        placed = sum(map(len, state.grounds[seat])) - 1
        assert placed + state.passes[seat] == 20  # every round: one tile or one pass


def test_an_arch_is_lost_when_its_field_is_removed():
    # Two yellow fields: the arch field (1 tile, +5) and a 4-tile field worth more kept.
    tiles = {(3, 4): "Y0", (0, 0): "Y5", (0, 1): "Y5", (0, 2): "Y5", (0, 3): "Y5"}
    result = lines(tiles)
    assert (result["arches"], result["removed"], result["symbols"]) == (0, -2, 20)


def test_scoring_follows_the_owners_colour_and_arches():
    # Seat 3 is blue: its own colour keeps two fields; its north arch is purple.
    tiles = {(3, 4): "P2", (4, 5): "B1", (0, 0): "B4", (8, 8): "B3"}
    result = lines(tiles, owner=3)
    assert result["arches"] == 5  # purple to the north
    assert result["removed"] == -2 and result["symbols"] == 2 + 1 + 4  # B3 goes


def test_the_rules_page_shows_the_observation_layout_of_the_default_game():
    page = Path(__file__).parents[1] / "docs" / "rules" / "elephant_festival.md"
    text = page.read_text(encoding="utf-8")
    between = text.split("<!-- layout:start -->\n", 1)[1].split("\n<!-- layout:end -->", 1)[0]
    config = make_config(SPEC.default_players, {})  # 4 players, the 9 x 9 ground
    assert between == config.layout.table()
    assert config.observation_size == ElephantFestival().observation_size == 4125
