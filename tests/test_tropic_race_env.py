"""Tropic Race beyond single rulings: options, states, the observation, the heuristic."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from tropic_race_positions import position, targets

from jungle_envs.core.compiled import lockstep
from jungle_envs.core.game import TERMINAL
from jungle_envs.core.random_play import random_step
from jungle_envs.core.state import StateError
from jungle_envs.evaluation import evaluate
from jungle_envs.games.tropic_race.encoding import decode
from jungle_envs.games.tropic_race.game import TropicRace
from jungle_envs.games.tropic_race.tables import LOC, MOVE, MOVE_INDEX

ENV_ID = "jungle_envs/TropicRace-v0"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_state_of_random_games_is_valid(players):
    game = TropicRace(players)
    rng = np.random.default_rng(players)
    for _ in range(20):
        state = game.new_state()
        game.validate_state(state)
        while random_step(game, state, rng) != TERMINAL:
            game.validate_state(state)


def test_observation_decodes_to_the_position_seen_from_the_observer():
    game, state = position(
        {0: ["B3", "NT2"], 1: ["FB1", "GOAL"]},
        num_players=3,
        lion="T2",
        slots=("bridge", "bridge", "empty", "far_only", "near_only"),
        phase=MOVE,
        steps=4,
        player=1,
    )
    seen = decode(game, game.observe(state, 1))
    assert seen.monkeys == [state.monkeys[1], state.monkeys[2], state.monkeys[0]]
    assert (seen.lion, seen.slots, seen.supply) == (state.lion, state.slots, state.supply)
    assert (seen.phase, seen.steps) == (MOVE, 4)


def test_options_change_the_die_tiles_lion_fields_and_monkeys():
    game = TropicRace(
        3,
        die_faces=["1", "2", "LION", "ARROW"],
        tile_mix={"empty": 0},
        lion_start="T1",
        die_fields=["B9"],
        arrow_fields=[],
        monkeys=2,
    )
    config = game.config
    assert config.die_event.distribution() == pytest.approx({1: 0.25, 2: 0.25, 10: 0.25, 11: 0.25})
    assert sum(config.tile_mix) == 17 and config.monkeys_per_player == 2
    state = game.new_state()
    assert state.lion == LOC["T1"] and len(state.monkeys[0]) == 2
    assert config.die_fields == {LOC["B9"]} and not config.arrow_fields


@pytest.mark.parametrize(
    "option,value,message",
    [
        ("die_faces", ["7", "DRAGON"], "unknown faces"),
        ("tile_mix", {"bridge": 1, "near_only": 1, "far_only": 1, "empty": 1}, "more than 5"),
        ("lion_start", "NT3", "not a land field"),
        ("die_fields", ["B4"], "both a die and an arrow field"),
        ("monkeys", 0, "int >= 1"),
        ("move_features", 1, "True or False"),
        ("die_faces", ["1", "LION"], "keep an ARROW"),
    ],
)
def test_bad_option_values_are_refused(option, value, message):
    with pytest.raises(ValueError, match=message):
        TropicRace(2, **{option: value})


@pytest.mark.parametrize(
    "field,value,message",
    [
        ("monkeys", [[LOC["B3"]] * 6, [LOC["START"]] * 6], "share a field"),
        ("lion", LOC["NT3"], "lion"),
        ("slots", [0, 0, 0, 0, 9], "unknown tile kind"),
        ("steps", 3, "steps belong to a move"),
    ],
)
def test_impossible_states_are_refused(field, value, message):
    game, state = position({0: ["B3"]}, lion="B9")
    setattr(state, field, value)
    with pytest.raises(StateError, match=message):
        game.state_from_json(game.state_to_json(state))


def test_a_move_with_nothing_to_move_is_refused():
    slots = ("bridge", "bridge", "near_only", "bridge", "bridge")
    game, state = position({0: ["GOAL"] * 5 + ["NT3"]}, lion="B5", slots=slots)
    state.phase, state.steps = MOVE, 3
    with pytest.raises(StateError, match="nothing legal"):
        game.validate_state(state)


def test_more_tiles_of_a_kind_than_the_box_holds_are_refused():
    game, state = position({}, lion="B5")
    state.supply = [14, 1, 0, 0]  # the box holds 10 bridges: 5 in the river, 5 left
    with pytest.raises(StateError, match="too many bridge tiles"):
        game.validate_state(state)


def test_monkey_on_a_missing_turtle_is_refused():
    game, state = position({0: ["NT2"]}, lion="B9")
    state.slots[1] = 3  # empty tile
    with pytest.raises(StateError, match="missing NT2"):
        game.validate_state(state)


def test_heuristic_takes_a_monkey_home_when_it_can():
    game, state = position({0: ["FB3", "B2"]}, lion="B9", phase=MOVE, steps=1)
    assert ("FB3", "GOAL") in targets(game, state)
    action = game.heuristic_policy().act(game.observe(state, 0), game.legal_mask(state), None)
    assert action == MOVE_INDEX[(LOC["FB3"], LOC["GOAL"])]


def test_heuristic_sends_the_lion_at_an_opponent():
    game, state = position({0: ["B7"], 1: ["B3"]}, lion="B5", phase=5)
    action = game.heuristic_policy().act(game.observe(state, 0), game.legal_mask(state), None)
    assert game.spec.action_names[action] == "lion to B1"


@pytest.mark.parametrize("players", [2, 4])
def test_heuristic_beats_random_opponents_clearly(players):
    result = evaluate(ENV_ID, "heuristic", "random", games=300, num_players=players, seed=5)
    assert result.ci95[0] > 1.0 / players + 0.1
    assert result.illegal_actions == 0


@pytest.mark.parametrize("engine", ["reference", "compiled"])
@pytest.mark.parametrize("players", [2, 5])
def test_observations_stay_in_the_space_for_any_number_of_monkeys(engine, players):
    """Shares of monkeys per location: counted, then divided once, so a location holding
    all of a player's monkeys is exactly 1.0 (summing 1/monkeys in float32 passed it)."""
    for monkeys in (1, 3, 7, 10, 13, 30):
        env = gym.make(ENV_ID, num_players=players, monkeys=monkeys, engine=engine)
        obs, info = env.reset(seed=monkeys)
        rng = np.random.default_rng(monkeys)
        for _ in range(300):
            assert env.observation_space.contains(obs), (monkeys, float(obs.max()))
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, _, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                obs, info = env.reset()
        start = env.unwrapped.game.observe(env.unwrapped.game.new_state(), 0)
        assert start.max() == 1.0  # every monkey of a player on the start field
        if engine == "compiled":  # and the twin's observations are the reference's, bit for bit
            report = lockstep.run("TropicRace", players, 3, first_seed=monkeys, monkeys=monkeys)
            assert report.games == 3 and report.decisions > 0


# --- the move_features option: what each action would do -----------------------------------
def move_rows(game, state, seat):
    from jungle_envs.games.tropic_race.config import MOVE_FEATURES

    return game.config.layout.split(game.observe(state, seat))["moves"].reshape(-1, MOVE_FEATURES)


def test_move_features_mark_homecomings_extra_turns_pushes_and_the_best_move():
    game, state = position(
        {0: ["FB3", "B3", "B5"]}, lion="B9", phase=MOVE, steps=1, move_features=True
    )
    rows = move_rows(game, state, 0)
    legal = game.legal_actions(state)
    assert set(np.flatnonzero(rows[:, 0])) == set(legal)
    names = game.spec.action_names
    ends = {a: names[a].split("->")[1] for a in legal}
    assert {"GOAL", "B2", "B4"} <= set(ends.values())  # home, a die field, an arrow field
    for action, end in ends.items():
        assert rows[action, 8] == (end == "GOAL")  # a monkey home
        assert rows[action, 9] == (end in ("T2", "B2", "B8"))  # an extra turn at once
        assert rows[action, 10] == (end in ("B4", "B6"))  # pushes the river
    home = MOVE_INDEX[(LOC["FB3"], LOC["GOAL"])]
    assert rows[home, 3] == 1.0  # a monkey at home is worth most
    heuristic = game.heuristic_policy().act(game.observe(state, 0), game.legal_mask(state), None)
    assert heuristic == home and rows[home, 5] == 1.0 and rows[home, 6] == 0.0
    assert all(rows[a, 6] > 0 for a in legal if rows[a, 5] == 0)  # the others fall short
    assert not move_rows(game, state, 1).any()  # the seat that waits sees no moves


def test_move_features_count_the_monkeys_a_lion_walk_sends_home():
    game, state = position({0: ["B7"], 1: ["B3"]}, lion="B5", phase=5, move_features=True)
    rows = move_rows(game, state, 0)
    per = game.config.monkeys_per_player
    walks = {name.removeprefix("lion to "): a for a, name in enumerate(game.spec.action_names)
             if name.startswith("lion to ")}  # fmt: skip
    assert rows[walks["B1"], 1] == 1.0
    assert rows[walks["B1"], 11:13] == pytest.approx([0.0, 1 / per])  # the rival's, on B3
    assert rows[walks["B9"], 11:13] == pytest.approx([1 / per, 0.0])  # mine, on B7
    assert rows[walks["B1"], 5] == 1.0  # the heuristic's choice is the best-marked
