"""Jungle Sweep states: every reachable state validates, impossible ones are refused."""

from __future__ import annotations

import json

import numpy as np
import pytest
from jungle_sweep_positions import RING_A, RING_BROOM, position, roll, take

from jungle_envs.core.game import TERMINAL
from jungle_envs.core.random_play import random_step
from jungle_envs.core.state import StateError
from jungle_envs.games.jungle_sweep.game import JungleSweep
from jungle_envs.games.jungle_sweep.tables import (
    DRAW_COCONUT,
    HILL_CHOICE,
    LAY_RING,
    ROLL,
    SET_ASIDE,
    WATER,
)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("max_dice_rounds", [200, 1])
def test_every_state_of_random_games_is_valid(players, max_dice_rounds):
    game = JungleSweep(players, max_dice_rounds=max_dice_rounds)
    rng = np.random.default_rng(players)
    for _ in range(15):
        state = game.new_state()
        game.validate_state(state)
        while random_step(game, state, rng) != TERMINAL:
            game.validate_state(state)


def reload(game, state):
    return game.state_from_json(game.state_to_json(state))


def refused(game, state, message):
    with pytest.raises(StateError, match=message):
        reload(game, state)


def test_roll_with_every_die_already_rolled_is_refused():
    game, state = position(RING_BROOM, phase=ROLL, pool="0 0 0")
    reload(game, state)
    state.pool[0] += 1
    refused(game, state, "dice left to roll")


def test_set_aside_outside_a_three_player_set_up_is_refused():
    game = JungleSweep(4)
    state = game.new_state()
    state.phase = SET_ASIDE
    refused(game, state, "set-aside is already complete")
    state.phase = LAY_RING
    state.supply[1] -= 4
    state.set_aside[1] = 4
    refused(game, state, "0 coconuts are set aside")


def test_more_awards_than_coconuts_is_refused():
    game, state = position(RING_BROOM, monkeys={0: 1, 1: 4, 2: 7, 3: 12}, phase=ROLL)
    roll(game, state, "4 3 0 0")
    assert state.phase == DRAW_COCONUT
    state.awards = [3] * 17
    refused(game, state, "more coconuts owed")


def test_water_decision_onto_a_taken_field_is_refused():
    game, state = position(RING_A, monkeys={0: 4, 1: 9, 2: 11, 3: 13}, pool="1 0 0 0")
    take(game, state, "1")
    assert state.phase == WATER
    state.pending = 9
    refused(game, state, "pending field is taken")


def test_hill_decision_off_a_hill_is_refused():
    game, state = position(RING_A, monkeys={0: 4, 1: 9, 2: 11, 3: 13}, pool="2 0 0 0")
    take(game, state, "2")
    assert state.phase == HILL_CHOICE
    reload(game, state)
    state.monkey_pos[0] = 7
    state.pending = 10
    refused(game, state, "monkey on a hill")


def test_pending_field_without_a_decision_is_refused():
    game = JungleSweep(4)
    state = game.new_state()
    state.pending = 3
    refused(game, state, "pending field needs a decision")


@pytest.mark.parametrize(
    "field,value,message",
    [
        ("monkey_pos", [3, 3, 11, 13], "share a field"),
        ("broom", 40, "broom is off the ring"),
        ("leaving_order", [2], "leaving order"),
        ("coconuts", [[7], [], [], []], "unknown value"),
        ("phase", 42, "phase 42 unknown"),
        ("ring", [0] * 14, "tiles not in the box"),
    ],
)
def test_impossible_fields_are_refused(field, value, message):
    game, state = position(RING_A, pool="0 1 2 3")
    setattr(state, field, value)
    refused(game, state, message)


def test_saved_state_for_other_options_is_refused():
    game, state = position(RING_A, pool="0 1 2 3")
    other = JungleSweep(4, max_dice_rounds=5)
    payload = json.loads(game.state_to_json(state))
    with pytest.raises(StateError, match="config"):
        other.state_from_json(json.dumps(payload))
