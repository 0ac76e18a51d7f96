"""Tropic Race rulings, one test per ruling (docs/rules/tropic_race.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tropic_race_positions import ARROW, LION, move, position, targets, where

from jungle_envs.core.game import CHANCE, TERMINAL
from jungle_envs.games.tropic_race.game import TropicRace
from jungle_envs.games.tropic_race.tables import (
    GAME_OVER,
    LAY_TILE,
    LION_ACTION,
    LOC,
    MOVE,
    PICK_START,
    PUSH,
    ROLL,
    TILE_KINDS,
)
from jungle_envs.games.tropic_race.tables import LION as LION_PHASE

BRIDGE, NEAR_ONLY, FAR_ONLY, EMPTY = range(4)


@pytest.mark.parametrize("players,monkeys", [(2, 6), (3, 5), (4, 4), (5, 4)])
def test_monkeys_per_player_count_all_waiting_in_start(players, monkeys):
    game = TropicRace(players)
    state = game.new_state()
    assert state.monkeys == [[LOC["START"]] * monkeys for _ in range(players)]


def test_die_has_six_numbers_two_lions_two_arrows():
    game = TropicRace(2)
    assert game.config.die_event.distribution() == pytest.approx(
        {1: 0.1, 2: 0.1, 3: 0.1, 4: 0.1, 5: 0.1, 6: 0.1, LION: 0.2, ARROW: 0.2}
    )


def test_twenty_river_tiles_in_four_kinds():
    game = TropicRace(2)
    assert dict(zip(TILE_KINDS, game.config.tile_mix, strict=True)) == {
        "bridge": 10,
        "near_only": 4,
        "far_only": 3,
        "empty": 3,
    }


def test_set_up_lays_five_tiles_then_picks_a_random_start_player():
    game = TropicRace(3)
    state = game.new_state()
    assert state.phase == LAY_TILE and state.lion == LOC["B5"]
    event = game.chance_event(state)
    assert event.distribution() == pytest.approx({0: 0.5, 1: 0.2, 2: 0.15, 3: 0.15})
    for kind in (BRIDGE, EMPTY, NEAR_ONLY, BRIDGE, FAR_ONLY):
        game.apply_chance(state, kind)
    assert state.slots == [BRIDGE, EMPTY, NEAR_ONLY, BRIDGE, FAR_ONLY]
    assert sum(state.supply) == 15 and state.phase == PICK_START
    assert game.chance_event(state).distribution() == pytest.approx({0: 1 / 3, 1: 1 / 3, 2: 1 / 3})
    game.apply_chance(state, 2)
    assert state.player == 2 and state.phase == ROLL


def test_route_forks_at_b5_and_never_turns_back():
    game, state = position({0: ["T3"]}, lion="B9", phase=MOVE, steps=2)
    assert targets(game, state) == {("T3", "B4"), ("T3", "B6"), ("T3", "NT3"), ("START", "T2")}
    game, state = position({0: ["B4"]}, lion="B9", phase=MOVE, steps=1)
    assert ("B4", "B3") in targets(game, state)
    assert not {t for f, t in targets(game, state) if f == "B4"} - {"B3"}


def test_turtle_steps_need_their_turtle_and_go_straight_over():
    slots = ("bridge", "empty", "bridge", "bridge", "bridge")
    game, state = position({0: ["B3", "NT3"]}, lion="B9", slots=slots, phase=MOVE, steps=1)
    assert {t for f, t in targets(game, state) if f == "B3"} == {"B2"}  # no NT2
    assert {t for f, t in targets(game, state) if f == "NT3"} == {"FT3"}  # no tile hopping


def test_reaching_goal_ends_the_move_and_spare_steps_are_lost():
    game, state = position({0: ["FB2"]}, lion="B9", phase=MOVE, steps=5)
    assert ("FB2", "GOAL") in targets(game, state)
    move(game, state, "FB2", "GOAL")
    assert "GOAL" in where(state, 0)


def test_route_that_dead_ends_before_its_last_step_cannot_be_chosen():
    slots = ("bridge", "bridge", "near_only", "bridge", "bridge")
    game, state = position({0: ["B5"]}, lion="T1", slots=slots, phase=MOVE, steps=2)
    assert {t for f, t in targets(game, state) if f == "B5"} == {"B3", "B7"}
    game, state = position({0: ["B5"]}, lion="T1", slots=slots, phase=MOVE, steps=1)
    assert {t for f, t in targets(game, state) if f == "B5"} == {"B4", "B6", "NT3"}


def test_passing_monkeys_and_the_lion_is_free():
    game, state = position({0: ["T1"], 1: ["T2"]}, lion="T3", phase=MOVE, steps=3)
    move(game, state, "T1", "B5")
    assert "B5" in where(state, 0)


def test_ending_on_a_monkey_goes_on_along_the_route_to_the_next_free_field():
    game, state = position({0: ["T1"], 1: ["T3", "B5"]}, lion="B9", phase=MOVE, steps=2)
    assert {t for f, t in targets(game, state) if f == "T1"} == {"B4", "B6", "NT3"}


def test_no_free_field_ahead_goes_back_to_the_first_free_field_behind():
    slots = ("near_only", "empty", "bridge", "bridge", "bridge")
    game, state = position(
        {0: ["B4"], 1: ["B2", "B1", "NT1"]}, lion="T1", slots=slots, phase=MOVE, steps=2
    )
    assert {t for f, t in targets(game, state) if f == "B4"} == {"B3"}


def test_ending_on_the_lion_sends_the_monkey_home_without_field_effects():
    game, state = position({0: ["B5"]}, lion="B6", phase=MOVE, steps=1)
    supply = list(state.supply)
    move(game, state, "B5", "B6")  # B6 is an arrow field: no push happens
    assert where(state, 0).count("START") == 6
    assert state.phase == ROLL and state.player == 1 and state.supply == supply


def test_arrow_field_pushes_the_river_without_an_extra_step():
    game, state = position({0: ["B5"]}, lion="T1", phase=MOVE, steps=1)
    move(game, state, "B5", "B4")
    assert state.phase == PUSH and game.current_player(state) == CHANCE
    game.apply_chance(state, EMPTY)
    assert state.slots[0] == EMPTY and state.phase == ROLL and state.player == 1


def test_die_field_gives_an_extra_turn():
    game, state = position({0: ["T1"]}, lion="B9", phase=MOVE, steps=1)
    move(game, state, "T1", "T2")
    assert state.phase == ROLL and state.player == 0
    game.apply_chance(state, 1)
    move(game, state, "T2", "T3")
    assert state.player == 1  # the extra turn is used up


def test_turns_go_clockwise():
    game, state = position({}, num_players=3, lion="B9", phase=MOVE, steps=3, player=2)
    move(game, state, "START", "T3")
    assert state.player == 0 and state.phase == ROLL


def test_no_legal_move_for_a_number_pushes_instead_then_one_step():
    home = ["GOAL"] * 5
    slots = ("near_only", "bridge", "bridge", "bridge", "bridge")
    game, state = position({0: [*home, "B1"]}, lion="T1", slots=slots)
    game.apply_chance(state, 4)  # B1 -> NT1 is a dead end after one step
    assert state.phase == PUSH
    game.apply_chance(state, BRIDGE)
    assert state.phase == MOVE and state.steps == 1
    assert targets(game, state) == {("B1", "NT1")}


def test_lion_walks_only_to_an_end_it_is_not_on():
    game, state = position({}, lion="B1", phase=LION_PHASE)
    names = [game.spec.action_names[a] for a in game.legal_actions(state)]
    assert names == ["lion to T1", "lion to B9"]


def test_lion_sends_home_the_first_monkey_it_meets_and_stops_there():
    game, state = position({0: ["B2"], 1: ["B3"]}, lion="B5", phase=LION_PHASE)
    game.apply_action(state, LION_ACTION + 1)  # toward B1
    assert state.lion == LOC["B3"]
    assert where(state, 1).count("START") == 6 and "B2" in where(state, 0)


def test_lion_triggers_no_field_then_one_monkey_steps():
    game, state = position({}, lion="B5", phase=LION_PHASE)
    supply = list(state.supply)
    game.apply_action(state, LION_ACTION + 1)  # over B4 (arrow) and B2 (die) to B1
    assert state.lion == LOC["B1"] and state.supply == supply
    assert state.phase == MOVE and state.steps == 1 and state.player == 0
    assert targets(game, state) == {("START", "T1")}


def test_lion_with_no_monkey_able_to_step_ends_the_turn():
    slots = ("bridge", "bridge", "near_only", "bridge", "bridge")
    game, state = position({0: ["GOAL"] * 5 + ["NT3"]}, lion="B5", slots=slots, phase=LION_PHASE)
    game.apply_action(state, LION_ACTION)
    assert state.phase == ROLL and state.player == 1


def test_arrow_roll_pushes_then_one_step():
    game, state = position({}, lion="B9")
    game.apply_chance(state, ARROW)
    assert state.phase == PUSH
    game.apply_chance(state, FAR_ONLY)
    assert state.slots[0] == FAR_ONLY and state.phase == MOVE and state.steps == 1


def test_one_step_move_has_the_landing_effects_of_a_number_move():
    game, state = position({0: ["T1"]}, lion="B9")
    game.apply_chance(state, ARROW)
    game.apply_chance(state, BRIDGE)
    move(game, state, "T1", "T2")  # the die field
    assert state.phase == ROLL and state.player == 0


def test_push_moves_every_tile_right_with_its_riders():
    game, state = position({0: ["NT2", "FT4"], 1: ["NT5", "FB3"]}, lion="B9")
    before = list(state.slots)
    game.apply_chance(state, ARROW)
    game.apply_chance(state, EMPTY)
    assert state.slots == [EMPTY, *before[:4]]
    assert set(where(state, 0)) >= {"NT3", "FT5"}
    assert where(state, 1).count("START") == 5 and "FB3" in where(state, 1)  # NT5 fell off


def test_push_with_the_last_supply_tile_erupts_the_volcano_at_once():
    mix = {"bridge": 6, "near_only": 0, "far_only": 0, "empty": 0}
    game, state = position({0: ["GOAL", "GOAL"], 1: ["GOAL", "NT5"]}, lion="B9", tile_mix=mix)
    assert sum(state.supply) == 1
    game.apply_chance(state, ARROW)
    game.apply_chance(state, BRIDGE)
    assert state.phase == GAME_OVER and state.volcano and game.current_player(state) == TERMINAL
    assert game.winners(state) == [0]  # NT5 fell off: 2 home against 1


def test_volcano_with_equal_monkeys_home_is_a_shared_win():
    mix = {"bridge": 6, "near_only": 0, "far_only": 0, "empty": 0}
    game, state = position({0: ["GOAL"], 1: ["GOAL"]}, lion="B9", tile_mix=mix)
    game.apply_chance(state, ARROW)
    game.apply_chance(state, BRIDGE)
    assert game.winners(state) == [0, 1] and game.returns(state) == [0.0, 0.0]


def test_every_monkey_home_wins_at_once():
    game, state = position(
        {0: ["GOAL"] * 5 + ["FB3"], 1: ["GOAL"] * 5}, lion="B9", phase=MOVE, steps=1
    )
    move(game, state, "FB3", "GOAL")
    assert state.phase == GAME_OVER and not state.volcano
    assert game.winners(state) == [0] and game.returns(state) == [1.0, -1.0]


def test_actions_name_a_from_and_to_location_or_a_lion_end():
    names = TropicRace(2).spec.action_names
    assert names[0] == "move START->T1" and len(names) == 219
    assert names[-3:] == ("lion to T1", "lion to B1", "lion to B9")
    assert all(name.startswith(("move ", "lion to ")) for name in names)


def test_the_ends_of_the_bank_lead_onto_slots_one_and_five():
    game, state = position({0: ["B1", "B9"]}, lion="T1", phase=MOVE, steps=1)
    assert {("B1", "NT1"), ("B9", "NT5")} <= targets(game, state)


def test_a_far_only_tile_cannot_be_entered():
    slots = ("bridge", "bridge", "far_only", "bridge", "bridge")
    game, state = position({0: ["B5"]}, lion="T1", slots=slots, phase=MOVE, steps=1)
    assert {t for f, t in targets(game, state) if f == "B5"} == {"B4", "B6"}


def test_lion_walks_across_the_fork():
    game, state = position({0: ["B8"]}, lion="B2", phase=LION_PHASE)
    game.apply_action(state, LION_ACTION + 2)  # toward B9: B3, B4, B5, B6, B7, then B8
    assert state.lion == LOC["B8"] and where(state, 0).count("START") == 6
    game, state = position({}, lion="T1", phase=LION_PHASE)
    game.apply_action(state, LION_ACTION + 1)  # up the T and left along the bank
    assert state.lion == LOC["B1"]


def test_going_on_past_taken_fields_can_end_on_the_lion():
    game, state = position({0: ["T1"], 1: ["T3"]}, lion="B5", phase=MOVE, steps=2)
    assert ("T1", "B5") in targets(game, state)  # T3 is taken; B5 is free of monkeys
    move(game, state, "T1", "B5")
    assert where(state, 0).count("START") == 6


def test_going_on_past_taken_fields_can_reach_the_goal():
    game, state = position({0: ["FT2"], 1: ["FB2"]}, lion="B9", phase=MOVE, steps=1)
    assert targets(game, state) >= {("FT2", "GOAL")}


def test_a_push_sends_far_turtle_riders_of_the_last_tile_home():
    game, state = position({0: ["FT5"]}, lion="B9")
    game.apply_chance(state, ARROW)
    game.apply_chance(state, BRIDGE)
    assert where(state, 0).count("START") == 6


def test_an_arrow_field_push_with_the_last_tile_erupts_the_volcano():
    mix = {"bridge": 6, "near_only": 0, "far_only": 0, "empty": 0}
    game, state = position({0: ["B5"]}, lion="T1", phase=MOVE, steps=1, tile_mix=mix)
    move(game, state, "B5", "B4")
    game.apply_chance(state, BRIDGE)
    assert state.phase == GAME_OVER and state.volcano


def test_a_push_instead_of_a_number_can_erupt_the_volcano():
    mix = {"bridge": 6, "near_only": 0, "far_only": 0, "empty": 0}
    game, state = position({0: ["GOAL"] * 5 + ["FB1"], 1: ["GOAL"]}, lion="T1", tile_mix=mix)
    game.apply_chance(state, 2)  # FB1 reaches GOAL with any number: a legal move exists
    assert state.phase == MOVE
    mix = {"bridge": 5, "near_only": 1, "far_only": 0, "empty": 0}
    slots = ("near_only", "bridge", "bridge", "bridge", "bridge")
    game, state = position({0: ["GOAL"] * 5 + ["B1"]}, lion="T1", tile_mix=mix, slots=slots)
    game.apply_chance(state, 3)  # B1 cannot go 3 steps: push instead, with the last tile
    game.apply_chance(state, BRIDGE)
    assert state.phase == GAME_OVER and state.volcano and game.winners(state) == [0]


def test_a_push_instead_of_a_number_with_no_step_possible_ends_the_turn():
    slots = ("bridge", "bridge", "near_only", "bridge", "bridge")
    game, state = position({0: ["GOAL"] * 5 + ["NT3"]}, lion="B9", slots=slots)
    game.apply_chance(state, 2)
    game.apply_chance(state, BRIDGE)  # NT3's tile moves to slot 4, still near-only
    assert state.phase == ROLL and state.player == 1


def test_a_win_ends_the_game_before_an_arrow_field_push():
    game, state = position(
        {0: ["GOAL"] * 5 + ["B5"]},
        lion="T1",
        phase=MOVE,
        steps=4,
        die_fields=[],
        arrow_fields=["B4", "B6"],
    )
    move(game, state, "B5", "GOAL")
    assert state.phase == GAME_OVER and not state.volcano


def test_a_monkey_moved_onto_the_lion_from_start_is_a_legal_move():
    game, state = position({}, lion="T1")
    game.apply_chance(state, 1)
    assert state.phase == MOVE and targets(game, state) == {("START", "T1")}
    move(game, state, "START", "T1")
    assert where(state, 0).count("START") == 6 and state.player == 1


def test_the_observation_table_of_the_rules_page_is_the_layout_of_the_default_game():
    """docs/rules/tropic_race.md shows ``layout.table()`` of the default 4 players."""
    page = Path(__file__).parents[1] / "docs" / "rules" / "tropic_race.md"
    text = page.read_text(encoding="utf-8")
    shown = text.split("<!-- layout:start -->\n")[1].split("\n<!-- layout:end -->")[0]
    game = TropicRace()
    assert game.num_players == TropicRace.spec.default_players == 4
    assert shown == game.config.layout.table()
    assert game.config.observation_size == game.observation_size == 210
