"""Jungle Sweep through the env: hidden coconuts, the observation, the heuristic."""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from jungle_sweep_positions import RING_A, make_game, position

from jungle_envs.evaluation import evaluate
from jungle_envs.games.jungle_sweep.encoding import decode
from jungle_envs.games.jungle_sweep.game import JungleSweep
from jungle_envs.games.jungle_sweep.tables import (
    CLEARING_CHOICE,
    CLEARING_REROLL,
    CLEARING_STAY,
    PALM_FACE,
    ROLL,
    WATER_ENTER,
    WATER_STAY,
)

ENV_ID = "jungle_envs/JungleSweep-v0"
RULES_PAGE = Path(__file__).parents[1] / "docs" / "rules" / "jungle_sweep.md"


def test_other_players_coconut_values_never_reach_the_observation():
    game, state = position(RING_A, pool="0 1 2 3", round_index=1)
    other = state.copy()  # round 0 handed out coconuts: same count, other values
    state.coconuts[1], other.coconuts[1] = [1, 1], [4, 4]
    state.supply[game.config.coconut_values.index(1)] -= 2
    other.supply[game.config.coconut_values.index(4)] -= 2
    game.validate_state(state)
    game.validate_state(other)
    np.testing.assert_array_equal(game.observe(state, 0), game.observe(other, 0))
    assert not np.array_equal(game.observe(state, 1), game.observe(other, 1))


def test_set_aside_coconuts_stay_unseen():
    game, state = position("Q J J P0 J W H J C P1 J P2 J J", num_players=3, phase=ROLL)
    other = state.copy()  # four 1s set aside in state; two 4s and two 3s in other
    other.supply[1] += 4
    other.set_aside[1] = 0
    other.supply[4] -= 2
    other.supply[3] -= 2
    other.set_aside[4], other.set_aside[3] = 2, 2
    game.validate_state(state)
    game.validate_state(other)
    for seat in range(3):
        np.testing.assert_array_equal(game.observe(state, seat), game.observe(other, seat))


def test_observation_puts_the_broom_first_and_the_deciding_monkey_in_slot_zero():
    game, state = position(
        RING_A, monkeys={0: 4, 1: 9, 2: 11, 3: 13}, broom=2, pool="0 1", active=3, turn=2
    )  # monkey 1 decides
    view = decode(game, game.observe(state, 1))
    assert view.terrain[0] == 0  # field 2, a jungle path, under the broom
    assert view.position(0) == 9 - 2  # monkey 1, seven fields ahead of the broom
    assert view.position(3) == 4 - 2  # monkey 0 sits three slots after monkey 1
    assert view.mine == [True, False, False, False]
    assert view.pool == [1, 1, 0, 0, 0, 0]


def test_the_rules_page_shows_the_observation_layout_of_the_default_game():
    text = RULES_PAGE.read_text(encoding="utf-8")
    table = text.split("<!-- layout:start -->\n")[1].split("\n<!-- layout:end -->")[0]
    layout = JungleSweep(4).config.layout
    assert table == layout.table()
    assert layout.size == 329 and JungleSweep(2).config.layout == layout


def test_heuristic_takes_the_die_that_reaches_a_palm():
    # Monkey 0 on field 12 just ahead of the broom: 1 step reaches the palm on 13.
    game, state = position(RING_A, monkeys={0: 12, 1: 9, 2: 11, 3: 3}, broom=10, pool="0 1 3 4")
    policy = game.heuristic_policy()
    action = policy.act(game.observe(state, 0), game.legal_mask(state), np.random.default_rng(0))
    assert action == 1


def test_heuristic_enters_a_water_hole_further_from_the_broom():
    game, state = position(RING_A, monkeys={0: 4, 1: 9, 2: 11, 3: 13}, broom=3, pool="1 0 0 0")
    game.apply_action(state, 1)  # onto the water hole on 5: further from the broom
    policy = game.heuristic_policy()
    obs, mask = game.observe(state, 0), game.legal_mask(state)
    assert policy.act(obs, mask, None) == WATER_ENTER
    assert WATER_STAY in game.legal_actions(state)


def test_heuristic_with_its_monkey_out_takes_the_die_an_opponent_needs():
    game, state = position(
        RING_A, monkeys={1: 12, 2: 11, 3: 3}, swept=(0,), broom=10, pool="0 1 3 P"
    )
    policy = game.heuristic_policy()
    action = policy.act(game.observe(state, 0), game.legal_mask(state), None)
    assert action in (1, PALM_FACE)  # both save monkey 1 (on 12) by reaching a palm


def clearing_choice(broom: int):
    """Monkey 0 steps from 7 onto the clearing on 8; the others sit on palms 9, 11, 13."""
    game, state = position(RING_A, monkeys={0: 7, 1: 9, 2: 11, 3: 13}, broom=broom, pool="1 0 0 0")
    game.apply_action(state, 1)
    assert state.phase == CLEARING_CHOICE
    return game.heuristic_policy().act(game.observe(state, 0), game.legal_mask(state), None)


def test_heuristic_rerolls_on_a_clearing_just_ahead_of_the_broom():
    # Two fields ahead of the broom; any move forward or a jump to the free palm is safer.
    assert clearing_choice(broom=6) == CLEARING_REROLL


def test_heuristic_stays_on_a_clearing_the_broom_has_just_passed():
    # Twelve fields ahead of the broom; most re-rolls would carry it past the broom.
    assert clearing_choice(broom=10) == CLEARING_STAY


def test_heuristic_beats_random_opponents_clearly():
    result = evaluate(ENV_ID, "heuristic", "random", games=300, num_players=4, seed=123)
    lo, _ = result.ci95
    assert lo > 0.4  # chance is 0.25
    assert result.illegal_actions == 0


def test_random_policy_wins_about_its_share():
    result = evaluate(ENV_ID, "random", "random", games=400, num_players=4, seed=7)
    lo, hi = result.ci95
    assert lo < 0.25 < hi


def test_two_player_env_runs_both_monkeys_of_the_learner():
    env = gym.make(ENV_ID, num_players=2, agent_seat=0, skip_forced_actions=False)
    base = env.unwrapped
    _, info = env.reset(seed=0)
    movers = set()
    rng = np.random.default_rng(0)
    done = False
    while not done:
        movers.add(base.state.mover)
        _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert movers == {0, 2}


def test_move_features_show_where_each_die_would_take_my_monkey():
    game, state = position(
        RING_A, monkeys={0: 12, 1: 9, 2: 11, 3: 3}, broom=10, pool="0 1 3 4", move_features=True
    )
    assert game.observation_size == make_game(RING_A).observation_size + 6 * 12
    rows = game.config.layout.split(game.observe(state, 0))["moves"]
    assert rows.shape == (6, 12)
    assert rows[:, 0].tolist() == [1, 1, 0, 1, 1, 0]  # faces in the pool: 0 1 3 4
    assert rows[1, 1] == 1.0 and rows[1, 3] == 1.0  # one step reaches the palm on 13
    assert rows[0, 2] == pytest.approx(2 / 14)  # staying: two fields ahead of the broom
    assert 0 < rows[0, 3] < 1  # ... where the next broom roll may reach it
    # what the heuristic weighs: my move looked ahead, and the next monkey to take a die
    assert rows[1, 7] == 1.0 and rows[0, 7] == rows[0, 3]  # the palm; staying is staying
    assert (rows[:, 9] == 1).all() and (rows[:, 10] == 0).all()  # monkey 1: an opponent's
    assert rows[0, 8] == 1.0  # face 0 leaves it on its palm P1
    # what each face leaves monkey 1: its best value among the other dice of the pool
    for face, others in {0: [1, 3, 4], 1: [0, 3, 4], 3: [0, 1, 4], 4: [0, 1, 3]}.items():
        assert rows[face, 11] == max(rows[g, 8] for g in others)
    assert rows[2, 11] == 0 and rows[5, 11] == 0  # faces not in the pool
    # with 1 3 4 4 in the pool, the 1 is the only die that keeps monkey 1 safe: taking it
    # leaves a 4 at best, taking anything else leaves the 1
    _, state = position(
        RING_A, monkeys={0: 12, 1: 9, 2: 11, 3: 3}, broom=10, pool="1 3 4 4", move_features=True
    )
    rows = game.config.layout.split(game.observe(state, 0))["moves"]
    assert rows[1, 11] == rows[4, 8] < 0.5 and rows[3, 11] == rows[4, 11] == rows[1, 8] == 1.0
    waiting = game.config.layout.split(game.observe(state, 1))["moves"]
    assert not waiting[:, 7:].any()  # only the deciding seat sees the lookahead
