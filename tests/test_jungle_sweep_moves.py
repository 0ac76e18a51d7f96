"""Jungle Sweep rulings on monkey moves, one test per ruling (docs/rules/jungle_sweep.md)."""

from __future__ import annotations

from jungle_sweep_positions import RING_A, position, roll, take

from jungle_envs.core.game import CHANCE
from jungle_envs.games.jungle_sweep.tables import (
    CHOOSE_DIE,
    CLEARING_CHOICE,
    CLEARING_REROLL,
    CLEARING_STAY,
    HILL_CHOICE,
    HILL_STAY,
    HILL_STEP,
    PALM_FACE,
    REROLL,
    WATER,
    WATER_ENTER,
    WATER_STAY,
)

# RING_A: 0 Q, 1 J, 2 J, 3 P0, 4 J, 5 W, 6 H, 7 J, 8 C, 9 P1, 10 J, 11 P2, 12 J, 13 P3


def test_die_zero_leaves_the_monkey_where_it_is():
    game, state = position(monkeys={0: 4, 1: 9, 2: 11, 3: 13}, pool="0 1 2 3")
    take(game, state, "0")
    assert state.monkey_pos[0] == 4
    assert state.turn == 1


def test_number_move_skips_occupied_fields_and_overtakes_the_broom():
    # Monkey 0 on field 1, broom on 2, monkey 1 on 3: one step lands on field 4.
    game, state = position(monkeys={0: 1, 1: 3, 2: 11, 3: 13}, broom=2, pool="1 0 0 0")
    take(game, state, "1")
    assert state.monkey_pos[0] == 4
    assert state.leaving_order == []  # passing the broom is safe: only the broom sweeps


def test_entering_the_quicksand_costs_two_steps():
    # Monkey 0 on 12; field 13 is a free palm, field 0 the quicksand, field 1 a path.
    for face, expected in (("2", 13), ("3", 0), ("4", 1)):
        game, state = position(monkeys={0: 12, 1: 9, 2: 11, 3: 10}, broom=7, pool=f"{face} 0 0 0")
        take(game, state, face)
        assert state.monkey_pos[0] == expected, face


def test_one_step_left_in_front_of_the_quicksand_ends_the_move():
    game, state = position(monkeys={0: 13, 1: 9, 2: 11, 3: 10}, broom=7, pool="1 0 0 0")
    take(game, state, "1")
    assert state.monkey_pos[0] == 13


def test_occupied_quicksand_is_skipped_without_cost():
    # The broom sits on the quicksand: one step from 13 goes to field 1.
    game, state = position(monkeys={0: 13, 1: 9, 2: 11, 3: 10}, broom=0, pool="1 0 0 0")
    take(game, state, "1")
    assert state.monkey_pos[0] == 1


def test_palm_die_jumps_to_next_free_palm_ignoring_other_fields():
    # From 4 the palms ahead are 9 (monkey 1), 11 (broom: blocked), 13 (free). The water
    # hole, hill and clearing on the way have no effect.
    game, state = position(monkeys={0: 4, 1: 9, 2: 12, 3: 1}, broom=11, pool="P 0 0 0")
    take(game, state, "P")
    assert state.monkey_pos[0] == 13
    assert state.phase == CHOOSE_DIE and state.turn == 1


def test_palm_die_may_land_on_the_palm_it_stands_on():
    game, state = position(monkeys={0: 3, 1: 9, 2: 11, 3: 13}, broom=0, pool="P 0 0 0")
    take(game, state, "P")
    assert state.monkey_pos[0] == 3


def test_palm_die_with_no_free_palm_stays():
    game, state = position(monkeys={0: 4, 1: 9, 2: 11, 3: 13}, broom=3, pool="P 0 0 0")
    take(game, state, "P")
    assert state.monkey_pos[0] == 4


def test_water_hole_player_may_enter():
    game, state = position(monkeys={0: 4, 1: 9, 2: 11, 3: 13}, pool="1 0 0 0")
    take(game, state, "1")
    assert state.phase == WATER and state.pending == 5
    assert game.current_player(state) == 0
    assert game.legal_actions(state) == [WATER_ENTER, WATER_STAY]
    game.apply_action(state, WATER_ENTER)
    assert state.monkey_pos[0] == 5 and state.turn == 1


def test_water_hole_player_may_stay_where_the_monkey_was():
    game, state = position(monkeys={0: 4, 1: 9, 2: 11, 3: 13}, pool="1 0 0 0")
    take(game, state, "1")
    game.apply_action(state, WATER_STAY)
    assert state.monkey_pos[0] == 4 and state.turn == 1


def test_passing_a_water_hole_is_no_landing():
    game, state = position(monkeys={0: 4, 1: 9, 2: 11, 3: 13}, pool="3 0 0 0")
    take(game, state, "3")  # 5 (water), 6 (hill), 7: lands on the path
    assert state.monkey_pos[0] == 7 and state.phase == CHOOSE_DIE


def test_hill_offers_one_more_step():
    game, state = position(monkeys={0: 4, 1: 9, 2: 11, 3: 13}, pool="2 0 0 0")
    take(game, state, "2")  # 5, 6: the hill
    assert state.phase == HILL_CHOICE and state.monkey_pos[0] == 6 and state.pending == 7
    game.apply_action(state, HILL_STEP)
    assert state.monkey_pos[0] == 7 and state.turn == 1


def test_hill_step_may_be_declined():
    game, state = position(monkeys={0: 4, 1: 9, 2: 11, 3: 13}, pool="2 0 0 0")
    take(game, state, "2")
    game.apply_action(state, HILL_STAY)
    assert state.monkey_pos[0] == 6 and state.turn == 1


def test_hill_step_skips_occupied_fields_and_applies_the_new_field():
    # Field 7 holds monkey 1, so the step goes to the clearing on 8, which offers a re-roll.
    game, state = position(monkeys={0: 4, 1: 7, 2: 11, 3: 13}, pool="2 0 0 0")
    take(game, state, "2")
    assert state.pending == 8
    game.apply_action(state, HILL_STEP)
    assert state.phase == CLEARING_CHOICE and game.current_player(state) == 0
    game.apply_action(state, CLEARING_REROLL)
    assert state.phase == REROLL and game.current_player(state) == CHANCE
    roll(game, state, "1")  # from the clearing: the palm on 9
    assert state.monkey_pos[0] == 9 and state.turn == 1


def test_hill_step_onto_a_water_hole_needs_no_second_decision():
    ring = "Q J J P0 J H W J C P1 J P2 J P3"
    game, state = position(ring, monkeys={0: 4, 1: 9, 2: 11, 3: 13}, pool="1 0 0 0")
    take(game, state, "1")
    assert state.phase == HILL_CHOICE and state.pending == 6
    game.apply_action(state, HILL_STEP)
    assert state.monkey_pos[0] == 6 and state.phase == CHOOSE_DIE and state.turn == 1


def test_hill_in_front_of_the_quicksand_offers_no_step():
    ring = "Q J J P0 J P1 W J P2 C J P3 J H"
    game, state = position(ring, monkeys={0: 12, 1: 5, 2: 8, 3: 11}, broom=2, pool="1 0 0 0")
    take(game, state, "1")
    assert state.monkey_pos[0] == 13 and state.phase == CHOOSE_DIE and state.turn == 1


def test_clearing_offers_the_owner_a_reroll_or_staying():
    game, state = position(monkeys={0: 7, 1: 3, 2: 11, 3: 13}, pool="1 0 0 0", active=3)
    take(game, state, "0 1")  # monkey 3 stays; monkey 0 steps onto the clearing on 8
    assert state.phase == CLEARING_CHOICE and state.monkey_pos[0] == 8
    assert game.current_player(state) == 0 and state.mover == 0
    assert game.legal_actions(state) == [CLEARING_REROLL, CLEARING_STAY]
    assert game.spec.action_names[CLEARING_REROLL] == "re-roll on the clearing"
    assert game.spec.action_names[CLEARING_STAY] == "stay on the clearing"


def test_clearing_stay_ends_the_move_on_the_clearing_without_a_roll():
    game, state = position(monkeys={0: 7, 1: 3, 2: 11, 3: 13}, pool="1 0 0 0")
    take(game, state, "1")
    game.apply_action(state, CLEARING_STAY)
    assert state.monkey_pos[0] == 8 and state.turn == 1
    assert state.phase == CHOOSE_DIE and game.current_player(state) == 1


def test_clearing_rerolls_and_moves_again():
    game, state = position(monkeys={0: 7, 1: 3, 2: 11, 3: 13}, pool="1 0 0 0")
    take(game, state, "1")
    game.apply_action(state, CLEARING_REROLL)
    assert state.phase == REROLL and state.monkey_pos[0] == 8
    roll(game, state, "2")  # 9 (a free palm), 10
    assert state.monkey_pos[0] == 10 and state.turn == 1


def test_clearing_reroll_of_zero_stays_and_palm_jumps():
    game, state = position(monkeys={0: 7, 1: 3, 2: 11, 3: 13}, pool="1 0 0 0")
    take(game, state, "1")
    game.apply_action(state, CLEARING_REROLL)
    roll(game, state, "0")
    assert state.monkey_pos[0] == 8 and state.phase == CHOOSE_DIE  # no second offer
    game, state = position(monkeys={0: 7, 1: 9, 2: 11, 3: 1}, pool="1 0 0 0")
    take(game, state, "1")
    game.apply_action(state, CLEARING_REROLL)
    roll(game, state, "P")  # 9 and 11 are taken: the palm on 13
    assert state.monkey_pos[0] == 13


def test_clearing_reroll_onto_a_water_hole_may_stay_on_the_clearing():
    ring = "Q J J P0 C J W J P1 J P2 H J P3"
    game, state = position(ring, monkeys={0: 3, 1: 8, 2: 10, 3: 13}, pool="1 0 0 0")
    take(game, state, "1")
    game.apply_action(state, CLEARING_REROLL)
    roll(game, state, "2")
    assert state.phase == WATER and state.pending == 6
    game.apply_action(state, WATER_STAY)
    assert state.monkey_pos[0] == 4


def test_swept_monkey_still_takes_a_die_and_does_not_move():
    game, state = position(monkeys={1: 9, 2: 11, 3: 13}, swept=(0,), pool="4 0 0 0")
    take(game, state, "4")
    assert state.monkey_pos[0] == -1 and state.turn == 1
    assert state.pool[4] == 0


def test_every_seat_takes_a_die_in_seat_order_from_the_active_player():
    game, state = position(monkeys={0: 3, 1: 9, 3: 13}, swept=(2,), active=1, pool="0 0 0 P")
    seen = []
    for _ in range(3):
        seen.append(game.current_player(state))
        take(game, state, "0")
    seen.append(game.current_player(state))
    assert seen == [1, 2, 3, 0]
    assert game.legal_actions(state) == [PALM_FACE]  # the last player gets the last die
    take(game, state, "P")
    assert state.turn == 0 and state.phase != CHOOSE_DIE


def test_dice_pass_to_the_left_after_every_monkey_moved():
    game, state = position(monkeys={0: 3, 1: 9, 3: 13}, swept=(2,), active=3, pool="0 0 0 0")
    take(game, state, "0 0 0 0")
    assert state.active == 0 and state.dice_round == 1
    assert game.current_player(state) == CHANCE and sum(state.pool) == 0


def test_two_players_alternate_their_two_monkeys():
    game, state = position(RING_A, num_players=2, pool="0 0 0 0")
    assert game.config.num_monkeys == 4 and game.config.num_dice == 4
    order = []
    for _ in range(4):
        order.append(game.current_player(state))
        take(game, state, "0")
    assert order == [0, 1, 0, 1]


def test_number_move_skips_a_palm_the_broom_blocks():
    game, state = position(monkeys={0: 7, 1: 1, 2: 11, 3: 13}, broom=9, pool="2 0 0 0")
    take(game, state, "2")  # 8 (the clearing, passed), 9 (broom: skipped), 10
    assert state.monkey_pos[0] == 10 and state.phase == CHOOSE_DIE


def test_hill_step_onto_another_hill_offers_another_step():
    ring = "Q J J P0 J H H J C P1 J P2 J P3"
    game, state = position(ring, monkeys={0: 4, 1: 9, 2: 11, 3: 13}, pool="1 0 0 0")
    take(game, state, "1")
    assert state.phase == HILL_CHOICE and state.pending == 6
    game.apply_action(state, HILL_STEP)
    assert state.phase == HILL_CHOICE and state.monkey_pos[0] == 6 and state.pending == 7
    game.apply_action(state, HILL_STEP)
    assert state.monkey_pos[0] == 7 and state.turn == 1


def test_clearing_reroll_onto_a_hill_offers_the_step():
    ring = "Q J J P0 J C H J W P1 J P2 J P3"
    game, state = position(ring, monkeys={0: 4, 1: 9, 2: 11, 3: 13}, pool="1 0 0 0")
    take(game, state, "1")
    game.apply_action(state, CLEARING_REROLL)
    roll(game, state, "1")
    assert state.phase == HILL_CHOICE and state.monkey_pos[0] == 6 and state.pending == 7


def test_move_cut_short_by_the_quicksand_still_lands_on_a_water_hole():
    ring = "Q J J P0 J P1 H J P2 C J P3 J W"
    game, state = position(ring, monkeys={0: 12, 1: 5, 2: 8, 3: 11}, broom=2, pool="2 0 0 0")
    take(game, state, "2")  # 13 (water), then the quicksand would need two steps
    assert state.phase == WATER and state.pending == 13


def test_two_player_dice_order_from_a_later_active_monkey():
    game, state = position(RING_A, num_players=2, active=3, pool="0 0 0 0")
    order = []
    for _ in range(4):
        order.append((state.mover, game.current_player(state)))
        take(game, state, "0")
    assert order == [(3, 1), (0, 0), (1, 1), (2, 0)]


def test_swept_monkey_can_hold_the_dice_and_choose_first():
    game, state = position(monkeys={0: 3, 2: 11, 3: 13}, swept=(1,), active=0, pool="0 0 0 0")
    take(game, state, "0 0 0 0")
    assert state.active == 1 and game.current_player(state) == CHANCE
    roll(game, state, "0 0 0 1")
    assert game.current_player(state) == 1 and state.mover == 1


def test_clearing_reroll_onto_another_clearing_offers_the_choice_again():
    ring = "Q J J P0 J C C J W P1 J P2 J P3"
    game, state = position(ring, monkeys={0: 4, 1: 9, 2: 11, 3: 13}, pool="1 0 0 0")
    take(game, state, "1")
    game.apply_action(state, CLEARING_REROLL)
    roll(game, state, "1")
    assert state.phase == CLEARING_CHOICE and state.monkey_pos[0] == 6
    game.apply_action(state, CLEARING_STAY)
    assert state.monkey_pos[0] == 6 and state.turn == 1
