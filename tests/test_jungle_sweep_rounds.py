"""Jungle Sweep rulings on set-up, the broom, scoring and the end, one test per ruling."""

from __future__ import annotations

import numpy as np
import pytest
from jungle_sweep_positions import RING_BROOM, make_game, parse_ring, position, roll, take

from jungle_envs.core.game import CHANCE, TERMINAL
from jungle_envs.core.random_play import play_randomly
from jungle_envs.games.jungle_sweep.game import JungleSweep
from jungle_envs.games.jungle_sweep.rules import DIE_ROLL
from jungle_envs.games.jungle_sweep.tables import (
    CHOOSE_DIE,
    DRAW_COCONUT,
    GAME_OVER,
    JUNGLE_PATH,
    LAY_RING,
    PALM,
    QUICKSAND,
    ROLL,
    SET_ASIDE,
)

# RING_BROOM: 0 Q, 1 J, 2 P0, 3 P1, 4 J, 5 W, 6 H, 7 J, 8 C, 9 J, 10 P2, 11 J, 12 P3, 13 J


def test_dice_have_six_fair_faces():
    assert DIE_ROLL.outcomes == (0, 1, 2, 3, 4, 5)
    assert DIE_ROLL.probabilities == pytest.approx([1 / 6] * 6)


@pytest.mark.parametrize("players,monkeys", [(2, 4), (3, 3), (4, 4), (5, 5), (6, 6)])
def test_one_monkey_palm_and_die_per_monkey(players, monkeys):
    game = JungleSweep(players)
    tiles = game.config.ring_tiles(0)
    assert game.config.num_monkeys == game.config.num_dice == monkeys
    assert sorted(code for code in tiles if code >= PALM) == [PALM + m for m in range(monkeys)]
    assert sum(n for code, n in tiles.items() if code < PALM) == 14


@pytest.mark.parametrize(
    "players,total,hollow,aside",
    [
        (2, 16, 0, 0),
        (3, 16, 0, 4),
        (4, 16, 0, 0),
        (5, 20, 4, 0),
        (6, 20, 4, 0),
    ],
)
def test_coconut_supply_depends_on_player_count(players, total, hollow, aside):
    game = JungleSweep(players)
    state = game.new_state()
    assert sum(state.supply) == total
    assert state.supply[game.config.coconut_values.index(0)] == hollow
    assert (state.phase == SET_ASIDE) == (aside > 0)
    for value in (1, 1, 4, 2)[:aside]:  # three players: four set aside, unseen
        game.apply_chance(state, value)
    assert sum(state.set_aside) == aside and state.phase == LAY_RING


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_four_rounds_hand_out_exactly_the_supply(players):
    game = JungleSweep(players)
    state = game.new_state()
    play_randomly(game, state, np.random.default_rng(players))
    assert state.phase == GAME_OVER and state.round == 4
    assert sum(state.supply) == 0
    per_round = {3: 3, 4: 4, 5: 5, 6: 5}[game.config.num_monkeys]
    assert sum(len(c) for c in state.coconuts) == 4 * per_round


def test_ring_is_laid_by_draws_and_loses_one_jungle_path_per_round():
    game = JungleSweep(4)
    state = game.new_state()
    rng = np.random.default_rng(1)
    sizes, paths = [], []
    while game.current_player(state) != TERMINAL:
        if state.phase == LAY_RING and not state.ring:
            event = game.chance_event(state)
            tiles = game.config.ring_tiles(state.round)
            assert event.distribution() == pytest.approx(
                {code: n / sum(tiles.values()) for code, n in tiles.items()}
            )
        if state.phase == ROLL and state.dice_round == 0 and sum(state.pool) == 0:
            sizes.append(len(state.ring))
            paths.append(state.ring.count(JUNGLE_PATH))
        if game.current_player(state) == CHANCE:
            game.apply_chance(state, game.chance_event(state).sample(rng))
        else:
            game.apply_action(state, game.legal_actions(state)[0])
    assert sizes == [18, 17, 16, 15]
    assert paths == [8, 7, 6, 5]


def test_round_starts_with_broom_on_quicksand_and_monkeys_on_their_palms():
    game = make_game("J P2 J Q J P0 J P1 W H C J P3 J")
    state = game.new_state()
    for code in parse_ring("J P2 J Q J P0 J P1 W H C J P3 J"):
        game.apply_chance(state, code)
    assert state.broom == 3 and state.ring[3] == QUICKSAND
    assert state.monkey_pos == [5, 7, 1, 12]
    assert state.active == 0  # P0 on field 5 is the first palm clockwise from the broom
    assert state.phase == ROLL


def test_start_player_search_wraps_round_the_ring():
    game = make_game("P3 J J J P0 J P1 W H C J P2 J Q")
    state = game.new_state()
    for code in parse_ring("P3 J J J P0 J P1 W H C J P2 J Q"):
        game.apply_chance(state, code)
    assert state.active == 3


def test_broom_moves_by_the_sum_of_number_faces_and_counts_every_field():
    game, state = position(RING_BROOM, monkeys={0: 2, 1: 3, 2: 10, 3: 12}, phase=ROLL)
    roll(game, state, "3 P 1 0")  # 4 fields: 1, 2 and 3 (occupied palms count), 4
    assert state.broom == 4 and state.leaving_order == []


def test_broom_stopping_on_an_occupied_palm_goes_on_to_the_next_other_field():
    game, state = position(RING_BROOM, monkeys={0: 2, 1: 3, 2: 10, 3: 12}, phase=ROLL)
    roll(game, state, "2 0 0 0")  # stops on 2 (palm, monkey), 3 (palm, monkey): goes to 4
    assert state.broom == 4


def test_broom_sweeps_monkeys_off_palms_in_the_order_it_reaches_them():
    game, state = position(RING_BROOM, monkeys={0: 7, 1: 4, 2: 10, 3: 12}, phase=ROLL)
    roll(game, state, "4 4 0 0")  # fields 1..8: monkey 1 on 4, then monkey 0 on 7
    assert state.leaving_order == [1, 0]
    assert state.monkey_pos == [-1, -1, 10, 12]
    assert state.broom == 8 and state.phase == CHOOSE_DIE


def test_broom_going_on_past_occupied_palms_sweeps_the_monkey_it_stops_on():
    game, state = position(RING_BROOM, monkeys={0: 2, 1: 3, 2: 4, 3: 12}, phase=ROLL)
    roll(game, state, "2 0 0 0")  # 2 and 3 are palms with monkeys: on to 4
    assert state.broom == 4 and state.leaving_order == [2]


def test_broom_lapping_the_ring_sweeps_a_monkey_once():
    game, state = position(RING_BROOM, monkeys={0: 2, 1: 3, 2: 1, 3: 12}, phase=ROLL)
    roll(game, state, "4 4 4 4")  # 16 fields on a ring of 14: field 1 is passed twice
    assert state.leaving_order == [2]
    assert state.broom == 4  # 16 ends on 2: two occupied palms, then 4


def test_broom_stands_still_when_the_dice_show_only_zero_and_palm():
    game, state = position(RING_BROOM, monkeys={0: 2, 1: 3, 2: 1, 3: 12}, phase=ROLL)
    roll(game, state, "0 P 0 P")
    assert state.broom == 0 and state.leaving_order == [] and state.phase == CHOOSE_DIE


def test_broom_stopping_on_a_monkey_sweeps_it():
    game, state = position(RING_BROOM, monkeys={0: 4, 1: 3, 2: 10, 3: 12}, phase=ROLL)
    roll(game, state, "4 0 0 0")
    assert state.leaving_order == [0] and state.broom == 4


def test_broom_on_a_free_palm_blocks_it():
    game, state = position(RING_BROOM, monkeys={0: 2, 1: 13, 2: 10, 3: 6}, phase=ROLL, active=1)
    roll(game, state, "3 P 0 0")  # 1, 2 (monkey on palm), 3: the free palm of monkey 1
    assert state.broom == 3 and state.leaving_order == []
    take(game, state, "P")  # monkey 1 from 13: palm 2 taken, 3 blocked, 10 taken, 12 free
    assert state.monkey_pos[1] == 12


def test_round_ends_at_once_when_one_monkey_is_left():
    game, state = position(RING_BROOM, monkeys={0: 1, 1: 4, 2: 7, 3: 12}, phase=ROLL)
    roll(game, state, "4 3 0 0")
    assert state.leaving_order == [0, 1, 2]
    assert state.phase == DRAW_COCONUT and game.current_player(state) == CHANCE
    # First out: nothing; later ones: one each; the one left in play: two.
    assert state.awards == [1, 2, 3, 3]


def test_broom_sweeping_everyone_gives_two_coconuts_to_the_last_it_reaches():
    game, state = position(RING_BROOM, monkeys={0: 1, 1: 4, 2: 7, 3: 9}, phase=ROLL)
    roll(game, state, "4 4 1 0")
    assert state.leaving_order == [0, 1, 2, 3]
    assert state.awards == [1, 2, 3, 3]


def test_six_players_first_two_out_get_nothing():
    ring = "Q J J J J J J P0 P1 P2 P3 P4 P5 W"
    monkeys = {0: 1, 1: 2, 2: 3, 3: 4, 4: 5, 5: 12}
    game, state = position(ring, monkeys=monkeys, num_players=6, phase=ROLL)
    roll(game, state, "4 1 0 0 0 0")
    assert state.leaving_order == [0, 1, 2, 3, 4]
    assert state.awards == [2, 3, 4, 5, 5]


def test_three_players_first_out_nothing_then_one_then_two():
    ring = "Q J J P0 J W H J C P1 J P2 J J"
    game, state = position(ring, monkeys={0: 1, 1: 2, 2: 4}, num_players=3, phase=ROLL)
    roll(game, state, "4 0 0")
    assert state.leaving_order == [0, 1, 2]
    assert state.awards == [1, 2, 2]


def test_five_players_first_out_nothing_then_one_each_then_two():
    ring = "Q J J J J P0 P1 P2 P3 P4 J J W H"
    monkeys = {0: 1, 1: 2, 2: 3, 3: 4, 4: 9}
    game, state = position(ring, monkeys=monkeys, num_players=5, phase=ROLL)
    roll(game, state, "4 0 0 0 0")
    assert state.awards == [1, 2, 3, 4, 4]


def test_two_players_score_each_monkey_for_the_team():
    game, state = position(RING_BROOM, monkeys={0: 1, 1: 4, 2: 7, 3: 12}, num_players=2, phase=ROLL)
    roll(game, state, "4 3 0 0")
    assert state.awards == [1, 2, 3, 3]  # as with four monkeys
    for value in (4, 1, 3, 2):
        game.apply_chance(state, value)
    assert game.scores(state) == [1.0, 9.0]  # seat 0: monkeys 0, 2; seat 1: monkeys 1, 3


def test_coconuts_are_drawn_from_the_supply_for_each_award():
    game, state = position(RING_BROOM, monkeys={0: 1, 1: 4, 2: 7, 3: 12}, phase=ROLL)
    roll(game, state, "4 3 0 0")
    event = game.chance_event(state)
    assert event.distribution() == pytest.approx({1: 6 / 16, 2: 5 / 16, 3: 3 / 16, 4: 2 / 16})
    for value in (4, 1, 3, 2):
        game.apply_chance(state, value)
    assert state.coconuts == [[], [4], [1], [3, 2]]
    assert sum(state.supply) == 12
    assert state.phase == LAY_RING and state.round == 1


def test_later_rounds_start_with_the_first_palm_after_the_broom():
    game, state = position(RING_BROOM, monkeys={0: 1, 1: 4, 2: 7, 3: 12}, phase=ROLL)
    roll(game, state, "4 3 0 0")
    for value in (4, 1, 3, 2):
        game.apply_chance(state, value)
    ring = "J P1 Q J P3 J P0 W H C J P2 J"  # one jungle path fewer
    for code in parse_ring(ring):
        game.apply_chance(state, code)
    assert state.round == 1 and state.broom == 2 and state.active == 3
    assert state.monkey_pos == [6, 1, 11, 4] and state.leaving_order == []


def test_last_draw_of_round_four_ends_the_game():
    game, state = position(RING_BROOM, monkeys={0: 1, 1: 4, 2: 7, 3: 12}, phase=ROLL, round_index=3)
    roll(game, state, "4 3 0 0")
    for value in (4, 1, 3):
        game.apply_chance(state, value)
    assert game.current_player(state) == CHANCE
    game.apply_chance(state, 2)
    assert state.phase == GAME_OVER and game.current_player(state) == TERMINAL
    assert game.winners(state) == [3]


def test_safety_net_sweeps_the_rest_clockwise_from_the_broom():
    game, state = position(
        RING_BROOM, monkeys={0: 2, 1: 9, 2: 11}, swept=(3,), broom=5, pool="0 0 0 0"
    )
    state.dice_round = game.config.max_dice_rounds - 1  # the 200th dice round is under way
    take(game, state, "0 0 0 0")
    assert state.leaving_order == [3, 1, 2, 0]
    assert state.awards == [1, 2, 0, 0]


def test_safety_net_limit_is_an_option():
    game, state = position(
        RING_BROOM,
        monkeys={0: 2, 1: 9, 2: 11},
        swept=(3,),
        broom=5,
        pool="0 0 0 0",
        max_dice_rounds=1,
    )
    take(game, state, "0 0 0 0")
    assert state.phase == DRAW_COCONUT


def finished(num_players: int, coconuts: list[list[int]]):
    game, state = position(RING_BROOM, num_players=num_players, phase=ROLL, round_index=3)
    for m, values in enumerate(coconuts):
        for v in values:
            state.supply[game.config.coconut_values.index(v)] -= 1
        state.coconuts[m] = list(values)
    state.phase, state.round = GAME_OVER, 4
    game.validate_state(state)
    return game, state


def test_highest_coconut_value_wins():
    game, state = finished(4, [[4, 1], [3, 3], [1], [2]])
    assert game.current_player(state) == TERMINAL
    assert game.scores(state) == [5.0, 6.0, 1.0, 2.0]
    assert game.winners(state) == [1]
    assert game.returns(state) == [-1.0, 1.0, -1.0, -1.0]


def test_equal_value_more_coconuts_wins():
    game, state = finished(4, [[4], [2, 2], [1], [1]])
    assert game.winners(state) == [1]


def test_equal_value_and_count_share_the_win():
    game, state = finished(4, [[4, 1], [3, 2], [1], [1]])
    assert game.winners(state) == [0, 1]
    assert game.returns(state) == [0.0, 0.0, -1.0, -1.0]


def test_hollow_coconuts_count_in_the_tie_break():
    ring = "Q J J J J P0 P1 P2 P3 P4 J J W H"
    game, state = position(ring, num_players=5, phase=ROLL, round_index=3)
    for m, values in enumerate([[2, 0], [2], [1], [1], [0]]):
        for v in values:
            state.supply[game.config.coconut_values.index(v)] -= 1
        state.coconuts[m] = values
    state.phase, state.round = GAME_OVER, 4
    game.validate_state(state)
    assert game.winners(state) == [0]


def test_two_players_equal_teams_and_best_monkey_then_count_then_shared():
    game, state = finished(2, [[4], [4], [1, 1], [2]])
    assert game.winners(state) == [0]  # 6 each, best monkey 4 each, 3 coconuts against 2
    game, state = finished(2, [[4], [4], [1], [1]])
    assert game.winners(state) == [0, 1]


def test_two_players_score_as_a_team_ties_broken_by_the_best_monkey():
    # Seat 0 runs monkeys 0 and 2, seat 1 runs 1 and 3: both teams have 5.
    game, state = finished(2, [[4], [3], [1], [2]])
    assert game.scores(state) == [5.0, 5.0]
    assert game.winners(state) == [0]


def test_rolls_draws_and_rerolls_are_chance_not_decisions():
    game, state = position(RING_BROOM, monkeys={0: 7, 1: 3, 2: 10, 3: 12}, phase=ROLL)
    assert game.current_player(state) == CHANCE and game.legal_actions(state) == []
    roll(game, state, "1 0 0 0")  # the broom moves on its own
    assert state.broom == 1 and game.current_player(state) == 0
    take(game, state, "1")  # onto the clearing: re-rolling is a decision, the roll is chance
    assert game.current_player(state) == 0 and game.legal_actions(state) == [10, 11]
    game.apply_action(state, 10)
    assert game.current_player(state) == CHANCE and game.legal_actions(state) == []
    assert len(game.spec.action_names) == 12  # six dice faces, water hole, hill, clearing
