"""Spank the Monkey beyond single rulings: secrets, defenders, options, the heuristic."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from spank_positions import card, position

from jungle_envs.core.game import TERMINAL
from jungle_envs.core.random_play import random_step
from jungle_envs.core.state import StateError
from jungle_envs.evaluation import evaluate
from jungle_envs.games.spank_the_monkey.encoding import decode
from jungle_envs.games.spank_the_monkey.game import SpankTheMonkey
from jungle_envs.games.spank_the_monkey.tables import ACTIONS, DEFEND, DRAW_SECOND, SPANK

ENV_ID = "jungle_envs/SpankTheMonkey-v0"


def test_an_opponents_hand_never_reaches_my_observation():
    game, state = position({0: ["Anvil", "Wok"], 1: ["Piano", "Ivy", "Dynamite"]}, {1: ["Bathtub"]})
    other = state.copy()
    # Same size, other cards: the swapped cards come from the deck.
    for name in ("Piano", "Ivy", "Dynamite"):
        other.hands[1][card(name)] -= 1
        other.deck[card(name)] += 1
    for name in ("Guard Dog", "Trampoline", "Earthquake"):
        other.hands[1][card(name)] += 1
        other.deck[card(name)] -= 1
    game.validate_state(other)
    np.testing.assert_array_equal(game.observe(state, 0), game.observe(other, 0))
    assert not np.array_equal(game.observe(state, 1), game.observe(other, 1))


def test_the_learner_answers_attacks_on_other_players_turns():
    env = gym.make(ENV_ID, num_players=2, agent_seat=1, opponents="random")
    base = env.unwrapped
    rng = np.random.default_rng(0)
    defended = 0
    for seed in range(20):
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            if base.state.phase == DEFEND:
                assert base.state.player == 0 and base.game.current_player(base.state) == 1
                view = decode(base.game, base.game.observe(base.state, 1))
                assert view.attack_card == base.state.attack[0] and view.attack_target == 0
                defended += 1
            mask = info["action_mask"]
            _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(mask))))
    assert defended > 0


@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_state_of_random_games_is_valid(players):
    game = SpankTheMonkey(players)
    rng = np.random.default_rng(players)
    for _ in range(10):
        state = game.new_state()
        while random_step(game, state, rng) != TERMINAL:
            game.validate_state(state)


def test_options_change_the_deck_and_the_monkey():
    game = SpankTheMonkey(3, deck={"Gorilla": 0, "Anvil": 4}, monkey_base=16, monkey_floor=3)
    counts = game.config.deck_counts
    assert counts[card("Gorilla")] == 0 and counts[card("Anvil")] == 4
    assert game.new_state().monkey == 13 and game.config.monkey_floor == 3


@pytest.mark.parametrize(
    "options,message",
    [
        ({"deck": {"Laser": 2}}, "unknown cards"),
        ({"deck": {"Piano": -1}}, "ints >= 0"),
        ({"deck": {"Surfboard": 40}}, "at most 42 junk"),
        ({"monkey_base": 6}, "below its floor"),
        ({"move_features": "yes"}, "True or False"),
    ],
)
def test_bad_options_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        SpankTheMonkey(2, **options)


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda s: s.hands[0].__setitem__(card("Anvil"), 3), "do not add up"),
        (lambda s: s.towers[0].append([card("Anvil"), 0, -1]), "needs a junk card"),
        (lambda s: setattr(s, "monkey", 2), "below its floor"),
        (lambda s: setattr(s, "attack", [card("Anvil"), 1, 0, -1, 0]), "attack steps"),
    ],
)
def test_impossible_states_are_refused(change, message):
    game, state = position({0: ["Anvil"]}, {1: ["Piano"]})
    change(state)
    with pytest.raises(StateError, match=message):
        game.state_from_json(game.state_to_json(state))


def test_heuristic_spanks_when_it_can():
    game, state = position(
        {0: ["Anvil"]}, {0: ["Totem Pole", "Dinosaur Skeleton", "Piano", "Surfboard"]}, phase=SPANK
    )
    action = game.heuristic_policy().act(game.observe(state, 0), game.legal_mask(state), None)
    assert action == ACTIONS.spank


def test_heuristic_attacks_a_tower_in_reach_of_the_monkey():
    towers = {1: ["Totem Pole", "Dinosaur Skeleton", "Piano", "Surfboard"]}
    game, state = position({0: ["Dynamite"]}, towers)
    policy = game.heuristic_policy()
    action = policy.act(game.observe(state, 0), game.legal_mask(state), None)
    assert action == ACTIONS.attack[card("Dynamite")]


@pytest.mark.parametrize("players", [2, 4])
def test_heuristic_beats_random_opponents_clearly(players):
    result = evaluate(ENV_ID, "heuristic", "random", games=200, num_players=players, seed=3)
    random = evaluate(ENV_ID, "random", "random", games=200, num_players=players, seed=3)
    assert result.ci95[0] > random.ci95[1]
    assert result.illegal_actions == 0


def test_heuristic_follows_its_attack_through_to_the_planned_card():
    towers = {1: ["Totem Pole", "Dinosaur Skeleton", "Piano", "Surfboard"]}
    game, state = position({0: ["Dynamite"]}, towers)
    policy = game.heuristic_policy()
    chosen = []
    for _ in range(3):  # card, player, level
        action = policy.act(game.observe(state, 0), game.legal_mask(state), None)
        chosen.append(ACTIONS.names[action])
        game.apply_action(state, action)
    # The bottom card takes the most height with it (the collapse roll included).
    assert chosen == [
        "attack with Dynamite",
        "target the player 1 seat(s) on",
        "target tower level 0",
    ]


def second_card_choice(towers, deck_left=None):
    """Seat 0 chooses whether to draw a second card (2 players, deck cut to ``deck_left``)."""
    game, state = position({0: ["Anvil"]}, towers, phase=DRAW_SECOND)
    if deck_left is not None:
        for t in range(len(state.deck)):
            keep = min(state.deck[t], deck_left)
            state.discard += [t] * (state.deck[t] - keep)
            state.deck[t], deck_left = keep, deck_left - keep
    return game.heuristic_policy().act(game.observe(state, 0), game.legal_mask(state), None)


def test_heuristic_takes_the_second_card_while_the_deck_is_full():
    towers = {0: ["Totem Pole", "Dinosaur Skeleton"], 1: ["Surfboard"]}
    assert second_card_choice(towers) == ACTIONS.draw_second


def test_heuristic_keeps_a_nearly_dry_deck_alive_when_it_leads():
    # Monkey at 12 with two players: my 8 is closer than their 1.
    towers = {0: ["Totem Pole", "Dinosaur Skeleton"], 1: ["Surfboard"]}
    assert second_card_choice(towers, deck_left=3) == ACTIONS.no_second_draw


def test_heuristic_hurries_a_nearly_dry_deck_when_it_is_behind():
    towers = {0: ["Surfboard"], 1: ["Totem Pole", "Dinosaur Skeleton"]}
    assert second_card_choice(towers, deck_left=3) == ACTIONS.draw_second


# --- the move_features option: what each action would do -----------------------------------
def move_rows(game, state, seat):
    from jungle_envs.games.spank_the_monkey.config import MOVE_FEATURES

    return game.config.layout.split(game.observe(state, seat))["moves"].reshape(-1, MOVE_FEATURES)


def test_move_features_show_the_height_and_spank_chance_each_build_leads_to():
    from jungle_envs.games.spank_the_monkey.config import AFTER_AT, MOVE_BUILD, MOVE_KIND_AT
    from jungle_envs.games.spank_the_monkey.tables import BUILD_JUNK

    hands = {0: ["Totem Pole", "Rodeo Bull", "Piano"]}
    towers = {0: ["Dinosaur Skeleton", "Port-a-Potty", "Surfboard"]}  # 8; the monkey at 12
    game, state = position(hands, towers, phase=BUILD_JUNK, move_features=True)
    rows = move_rows(game, state, 0)
    assert set(np.flatnonzero(rows[:, 0])) == set(game.legal_actions(state))
    expected = {  # card: (height after, monkey after, in the window, spank chance)
        "Totem Pole": (12, 12, 1.0, 4 / 6),  # onto the monkey's height: a 3+ spanks
        "Rodeo Bull": (10, 13, 0.0, 0.0),  # its shake lifts the monkey out of reach
        "Piano": (11, 12, 0.0, 0.0),
    }
    for name, (tall, monkey, window, chance) in expected.items():
        row = rows[ACTIONS.build[card(name)]]
        assert row[MOVE_KIND_AT + MOVE_BUILD] == 1.0
        assert row[AFTER_AT : AFTER_AT + 4] == pytest.approx(
            [tall / 30, monkey / 20, window, chance]
        )
    assert rows[ACTIONS.skip_build, AFTER_AT] == pytest.approx(8 / 30)  # building nothing
    assert not move_rows(game, state, 1).any()  # a seat that does not decide sees no moves


def test_move_features_show_each_attack_and_defense_chance_and_expected_fall():
    from jungle_envs.games.spank_the_monkey.config import ATTACK_AT
    from jungle_envs.games.spank_the_monkey.state import NO_CARD
    from jungle_envs.games.spank_the_monkey.tables import ATTACK_CHOICE, ATTACK_LEVEL

    towers = {1: ["Old Fridge", ("Piano", 0, "Ivy"), "Surfboard"]}  # strengths 4, 4+2, 2
    hands = {0: ["Dynamite"], 1: ["Wok", "Guard Dog"]}
    dynamite = card("Dynamite")  # throw, strength 4
    # Level 0 falls for sure and takes, on the collapse roll, the Piano (4-6) and the
    # Surfboard (6) along: 2 + 3 * 3/6 + 1 * 1/6 tower height in expectation.
    falls = [2 + 3 * 3 / 6 + 1 / 6, 3 + 1 * 3 / 6, 1.0]
    chances = [1.0, 5 / 6, 1.0]  # a die of 1+, 2+ (the Ivy) and 1+ beats each level
    game, state = position(hands, towers, phase=ATTACK_CHOICE, move_features=True)
    best = move_rows(game, state, 0)[ACTIONS.attack[dynamite]]
    assert best[ATTACK_AT : ATTACK_AT + 2] == pytest.approx([1.0, falls[0] / 10])
    game, state = position(
        hands, towers, phase=ATTACK_LEVEL, attack=[dynamite, 1, -1, NO_CARD, 0], move_features=True
    )
    rows = move_rows(game, state, 0)
    for level in range(3):
        row = rows[ACTIONS.level[level]]
        assert row[ATTACK_AT : ATTACK_AT + 2] == pytest.approx([chances[level], falls[level] / 10])
        assert row[ATTACK_AT + 3] == pytest.approx(6 / 30)  # the target's tower height
    game, state = position(
        hands, towers, phase=DEFEND, attack=[dynamite, 1, 1, NO_CARD, 0], move_features=True
    )
    rows = move_rows(game, state, 1)  # the defender decides
    defended = {
        ACTIONS.defend[card("Wok")]: 2 / 6,  # +3: a 5+ is needed
        ACTIONS.defend[card("Guard Dog")]: 0.0,  # the attack is called off
        ACTIONS.no_defense: 5 / 6,
    }
    for action, chance in defended.items():
        assert rows[action, ATTACK_AT : ATTACK_AT + 2] == pytest.approx([chance, falls[1] / 10])
    assert not move_rows(game, state, 0).any()
