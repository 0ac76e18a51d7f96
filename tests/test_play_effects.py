"""What a move did, in the play log: ``Game.describe_effect`` and the session's lines."""

from __future__ import annotations

import numpy as np
import pytest
from spank_positions import card, play
from spank_positions import position as spank_position
from tropic_race_positions import position as tropic_position

from jungle_envs.core.game import CHANCE, TERMINAL
from jungle_envs.core.registry import GAMES, make_game
from jungle_envs.games.jungle_sweep.render import monkey_label
from jungle_envs.games.spank_the_monkey.tables import BUILD_JUNK
from jungle_envs.games.tropic_race.tables import LION
from jungle_envs.play import Session


def effect_of(game, state, action_name: str) -> str:
    action = game.spec.action_names.index(action_name)
    before = state.copy()
    game.apply_action(state, action)
    return game.describe_effect(before, state)


def test_the_lion_sending_a_monkey_home_is_told():
    game, state = tropic_position({1: ["B3"]}, phase=LION, player=0)
    assert effect_of(game, state, "lion to B1") == "seat 1's monkey on B3 back to START"


def test_a_plain_move_has_no_effect_line():
    game, state = tropic_position({0: ["T3"]}, phase=LION, player=0, lion="B9")
    assert effect_of(game, state, "lion to B1") == ""


def test_a_salvaged_card_and_the_growing_tower_are_told():
    game, state = spank_position(
        {0: ["Moonshine Still"]}, phase=BUILD_JUNK, discard=["Umbrella", "Dynamite"]
    )
    before = state.copy()
    play(game, state, "build Moonshine Still")
    assert state.hands[0][card("Dynamite")] == 1  # the rule, as test_spank_rules checks it
    effect = game.describe_effect(before, state)
    assert "seat 0 takes Dynamite back from the discard pile" in effect
    assert "seat 0's tower rises to height" in effect


def test_an_elephant_festival_pass_and_a_score_change_are_told():
    game = make_game("ElephantFestival", 2)
    before = game.new_state()
    after = before.copy()
    after.passes[1] += 1  # a lying elephant scores less than a standing one
    old, new = game.scores(before)[1], game.scores(after)[1]
    assert new < old
    assert game.describe_effect(before, after) == (
        f"seat 1 now scores {new:+.0f} (was {old:+.0f}); seat 1 passes: 1 of its elephants lie down"
    )


def test_a_jungle_sweep_monkey_swept_out_is_told_with_its_place():
    game = make_game("JungleSweep", 2)
    rng = np.random.default_rng(0)
    state = game.new_state()
    while not any(pos >= 0 for pos in state.monkey_pos):  # play the deal until monkeys stand
        game._apply_chance(state, game.sample_chance(state, rng))
    before = state.copy()
    after = state.copy()
    m = next(m for m, pos in enumerate(after.monkey_pos) if pos >= 0)
    after.monkey_pos[m] = -1
    after.leaving_order.append(m)
    label = monkey_label(game.config, m)  # 2 players: two monkeys each, "0a"
    assert game.describe_effect(before, after) == f"monkey {label} is swept out (#1)"


def test_a_viewer_outside_the_table_is_refused():
    game = make_game("TropicRace", 2)
    state = game.new_state()
    with pytest.raises(ValueError):
        game.describe_effect(state, state, viewer=5)


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("players", [2, 4])
def test_every_step_of_random_games_describes_without_error(name, players):
    """A fuzz over whole games: every decision and chance outcome gets a description for
    every viewer (no state change it cannot read), and some have an effect."""
    for seed in range(3):
        game = make_game(name, players)
        rng = np.random.default_rng(seed)
        state = game.new_state()
        effects = 0
        while (player := game.current_player(state)) != TERMINAL:
            before = state.copy()
            if player == CHANCE:
                game._apply_chance(state, game.sample_chance(state, rng))
            else:
                game._apply_action(state, int(rng.choice(game.legal_actions(state))))
            for viewer in [None, *range(players)]:
                text = game.describe_effect(before, state, viewer)
                assert isinstance(text, str) and "\n" not in text
            effects += bool(game.describe_effect(before, state))
        assert effects > 0


def test_the_session_log_puts_the_effect_after_the_move():
    game = make_game("TropicRace", 3)
    session = Session(game, ["heuristic"] * 3, seed=3)
    assert session.advance() == TERMINAL
    lines = [event.what for event in session.log(None)]
    assert any("=> seat" in line and "back to START" in line for line in lines)
