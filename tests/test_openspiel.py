"""OpenSpiel interop: every game registered as a pyspiel Python game, checked by OpenSpiel's
own random-simulation test, its MCTS bot on a small variant, and against our rules."""

from __future__ import annotations

import json

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from jungle_envs import make_game, openspiel  # noqa: E402
from jungle_envs.core.registry import GAMES  # noqa: E402

SMALL = {"ElephantFestival": {"grid": 3}}


def load(name: str, players: int, **options):
    return pyspiel.load_game(
        openspiel.short_name(name), {"players": players, "options": json.dumps(options)}
    )


def play_random(game, rng, check=None):
    state = game.new_initial_state()
    while not state.is_terminal():
        if check:
            check(state)
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("name", sorted(GAMES))
def test_openspiel_random_simulation_test_passes(name):
    game = load(name, 3, **SMALL.get(name, {}))
    assert game.get_type().short_name == f"jungle_envs_{make_game(name, 3).spec.name}"
    assert game.num_players() == 3
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_chance_views_and_returns_are_the_rules(name):
    game = load(name, 2)
    rules = make_game(name, 2)
    seen = {"chance": 0, "decisions": 0}

    def check(state):
        if state.is_chance_node():
            event = rules.chance_event(state.state)
            assert dict(state.chance_outcomes()) == event.distribution()
            seen["chance"] += 1
            return
        player = state.current_player()
        assert state.legal_actions() == rules.legal_actions(state.state)
        np.testing.assert_array_equal(
            state.observation_tensor(player), rules.observe(state.state, player)
        )
        assert state.observation_string(player) == rules.render(state.state, viewer=player)
        seen["decisions"] += 1

    final = play_random(game, np.random.default_rng(5), check)
    assert final.returns() == rules.returns(final.state)
    assert seen["chance"] > 0 and seen["decisions"] > 0


def test_information_state_is_perfect_recall_of_the_players_own_views():
    """Player 0's information state grows with every move (its view after each), holds its
    own actions, and is not player 1's."""
    game = load("SpankTheMonkey", 2)
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    strings = set()
    for _ in range(40):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            mover = state.current_player()
            action = int(rng.choice(state.legal_actions()))
            state.apply_action(action)
            if mover == 0:
                assert f"a{action}" in state.information_state_string(0).split()
        text = state.information_state_string(0)
        assert text not in strings  # every move adds to what player 0 remembers
        strings.add(text)
        assert state.information_state_string(0) != state.information_state_string(1)


def test_openspiel_mcts_plays_a_small_variant_to_the_end():
    from open_spiel.python.algorithms import mcts

    game = load("ElephantFestival", 2, grid=3)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = mcts.MCTSBot(game, 2.0, 30, evaluator, random_state=np.random.RandomState(1))
    rng = np.random.default_rng(2)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_bad_parameters_are_refused():
    with pytest.raises(Exception, match="2 to 6 players"):
        load("JungleSweep", 9)
    with pytest.raises(Exception, match="colour"):
        load("JungleSweep", 4, colour=1)
    with pytest.raises(Exception, match="JSON object"):
        pyspiel.load_game("jungle_envs_tropic_race", {"players": 2, "options": "[1]"})
