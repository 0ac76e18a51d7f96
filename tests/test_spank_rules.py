"""Spank the Monkey rulings, one test per ruling (docs/rules/spank_the_monkey.md)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from spank_positions import card, legal_names, play, position

from jungle_envs.core.game import CHANCE, TERMINAL
from jungle_envs.games.spank_the_monkey.game import SpankTheMonkey
from jungle_envs.games.spank_the_monkey.tables import (
    ATTACK_CHOICE,
    ATTACK_ROLL,
    BUILD_JUNK,
    BUILD_REINFORCE,
    CARDS,
    COLLAPSE_ROLL,
    DEFEND,
    DISCARD,
    DRAW,
    DRAW_SECOND,
    GAME_OVER,
    INSPECT,
    PICK_START,
    QUAKE_ROLL,
    SPANK,
    SPANK_ROLL,
)

KEEP = "Gorilla"  # a card that keeps the attacker in the attack phase
TWELVE = ["Totem Pole", "Dinosaur Skeleton", "Piano", "Surfboard"]  # 4 + 4 + 3 + 1


def heights(state):
    return [sum(CARDS[junk].height for junk, _, _ in tower) for tower in state.towers]


def names(state, seat):
    return [CARDS[junk].name for junk, _, _ in state.towers[seat]]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_monkey_starts_at_fourteen_minus_the_players(players):
    assert SpankTheMonkey(players).new_state().monkey == 14 - players


def test_deck_has_94_cards_in_five_kinds():
    kinds = Counter()
    for c, n in zip(CARDS, SpankTheMonkey(2).config.deck_counts, strict=True):
        kinds[c.kind] += n
    assert dict(kinds) == {
        "junk": 42,
        "reinforcement": 13,
        "attack": 23,
        "defense": 9,
        "special": 7,
    }


def test_everyone_is_dealt_five_then_a_random_player_starts():
    game = SpankTheMonkey(3)
    state = game.new_state()
    while state.phase == DRAW:
        game.apply_chance(state, game.chance_event(state).outcomes[0])
    assert [sum(h) for h in state.hands] == [5, 5, 5] and sum(state.deck) == 94 - 15
    assert state.phase == PICK_START and game.chance_event(state).distribution() == pytest.approx(
        {0: 1 / 3, 1: 1 / 3, 2: 1 / 3}
    )
    game.apply_chance(state, 1)
    assert state.player == 1 and state.phase == DRAW and state.draws == [1]  # five cards: draw 1


def next_turn_with_hand(size: int, deck_left: int | None = None):
    """Seat 1 ends its turn; seat 0 starts one holding ``size`` cards (deck optionally cut
    to ``deck_left`` cards, the rest on the discard pile)."""
    game, state = position(
        {0: ["Umbrella", "Wok", "Ivy", "Anvil", "Duct Tape"][:size], 1: ["Flock of Seagulls"]},
        phase=DISCARD,
        player=1,
    )
    if deck_left is not None:
        kept = 0
        for t in range(len(state.deck)):
            keep = min(state.deck[t], deck_left - kept)
            state.discard += [t] * (state.deck[t] - keep)
            state.deck[t], kept = keep, kept + keep
    play(game, state, "stop discarding")
    return game, state


def test_holding_five_or_more_draws_one_card_and_builds():
    game, state = next_turn_with_hand(5)
    assert state.player == 0 and state.phase == DRAW and state.draws == [0]
    game.apply_chance(state, card("Piano"))
    assert sum(state.hands[0]) == 6 and state.phase == BUILD_JUNK


def test_holding_four_or_fewer_may_draw_a_second_card_after_the_first():
    game, state = next_turn_with_hand(4)
    assert state.phase == DRAW and state.draws == [0]  # the first card is not a choice
    game.apply_chance(state, card("Piano"))
    assert game.current_player(state) == 0 and state.phase == DRAW_SECOND
    assert legal_names(game, state) == ["draw a second card", "do not draw a second card"]
    play(game, state, "draw a second card")
    assert state.phase == DRAW and state.draws == [0]
    game.apply_chance(state, card("Bathtub"))
    assert sum(state.hands[0]) == 6 and state.phase == BUILD_JUNK


def test_the_second_card_may_be_declined():
    game, state = next_turn_with_hand(4)
    deck = sum(state.deck)
    game.apply_chance(state, card("Piano"))
    play(game, state, "do not draw a second card")
    assert sum(state.hands[0]) == 5 and sum(state.deck) == deck - 1
    assert state.phase == BUILD_JUNK and game.current_player(state) == 0


def test_the_second_card_is_not_offered_when_the_deck_is_empty():
    game, state = next_turn_with_hand(0, deck_left=1)
    last = next(t for t in range(len(state.deck)) if state.deck[t])
    game.apply_chance(state, last)
    assert sum(state.deck) == 0 and sum(state.hands[0]) == 1
    assert state.phase != GAME_OVER  # only a card that must be drawn lets the monkey win
    assert state.phase != DRAW_SECOND and game.current_player(state) == 0


def test_deck_that_cannot_feed_a_draw_lets_the_monkey_win():
    game, state = position({0: ["Anvil"]}, phase=DISCARD, player=1)
    state.discard += [t for t in range(len(state.deck)) for _ in range(state.deck[t])]
    state.deck = [0] * len(state.deck)
    play(game, state, "stop discarding")
    assert state.phase == GAME_OVER and game.winners(state) == []
    assert game.returns(state) == [0.0, 0.0]


def test_build_one_junk_card_then_one_reinforcement_beside_it():
    game, state = position({0: ["Piano", "Bathtub", "Duct Tape", "Ivy", KEEP]}, phase=BUILD_JUNK)
    play(game, state, "build Piano")
    assert state.phase == BUILD_REINFORCE and names(state, 0) == ["Piano"]
    play(game, state, "reinforce with Ivy")
    assert state.towers[0][-1][2] == card("Ivy") and state.phase == ATTACK_CHOICE


def test_building_is_optional():
    game, state = position({0: ["Piano", "Anvil"]}, {1: ["Bathtub"]}, phase=BUILD_JUNK)
    play(game, state, "build nothing")
    assert state.towers[0] == [] and state.phase == ATTACK_CHOICE


def test_reinforcement_only_beside_a_top_card_without_one():
    game, state = position({0: ["Duct Tape", KEEP]}, {0: [("Piano", 0, "Ivy")]}, phase=BUILD_JUNK)
    play(game, state, "build nothing")
    assert state.phase == ATTACK_CHOICE  # nothing to reinforce: the step passes by itself


def test_reinforcement_may_go_on_the_top_card_without_building_this_turn():
    towers = {0: ["Bathtub", "Piano"]}
    game, state = position({0: ["Duct Tape", "Old Fridge", KEEP]}, towers, phase=BUILD_JUNK)
    play(game, state, "build nothing")
    assert state.phase == BUILD_REINFORCE
    play(game, state, "reinforce with Duct Tape")
    assert state.towers[0][-1] == [card("Piano"), 0, card("Duct Tape")]  # the top card
    assert state.towers[0][0][2] == -1 and state.phase == ATTACK_CHOICE


def test_draw_junk_draws_a_card():
    game, state = position({0: ["Pinball Machine"]}, phase=BUILD_JUNK)
    play(game, state, "build Pinball Machine")
    assert state.phase == DRAW and state.draws == [0]
    game.apply_chance(state, card("Anvil"))
    assert state.hands[0][card("Anvil")] == 1


def test_salvage_takes_the_top_card_of_the_discard_pile():
    game, state = position(
        {0: ["Moonshine Still"]}, phase=BUILD_JUNK, discard=["Umbrella", "Dynamite"]
    )
    play(game, state, "build Moonshine Still")
    assert state.hands[0][card("Dynamite")] == 1 and state.discard == [card("Umbrella")]


def test_salvage_from_an_empty_pile_takes_nothing():
    game, state = position({0: ["Stuffed Bear"]}, phase=BUILD_JUNK)
    play(game, state, "build Stuffed Bear")
    assert sum(state.hands[0]) == 0 and state.discard == []


def test_brace_strengthens_the_card_below_for_good():
    game, state = position({0: ["Tractor Tyre"]}, {0: ["Garden Gnome", "Piano"]}, phase=BUILD_JUNK)
    play(game, state, "build Tractor Tyre")
    assert state.towers[0][1][1] == 1  # the Piano, directly below
    state.towers[0].pop(0)  # the Gnome goes: the braced Piano slides down with its bonus
    assert state.towers[0][0][:2] == [card("Piano"), 1]


def test_shake_lifts_the_monkey_by_one():
    game, state = position({0: ["Rodeo Bull"]}, phase=BUILD_JUNK)
    play(game, state, "build Rodeo Bull")
    assert state.monkey == 13


def test_throw_and_sneak_attacks_hit_any_level_of_another_tower():
    game, state = position({0: ["Anvil", "Wasp's Nest"]}, {0: ["Piano"], 1: ["Piano", "Bathtub"]})
    for name in ("Anvil", "Wasp's Nest"):
        g, s = game, state.copy()
        play(g, s, f"attack with {name}")
        assert legal_names(g, s) == ["target the player 1 seat(s) on"]  # never my own
        play(g, s, "target the player 1 seat(s) on")
        assert legal_names(g, s) == ["target tower level 0", "target tower level 1"]


def test_hand_attack_reaches_only_the_card_at_my_height():
    # My tower is 3 high. Seat 1: Piano spans 0-3, Bathtub 3-5, Surfboard 5-6.
    game, state = position({0: ["Crowbar"]}, {0: ["Piano"], 1: ["Piano", "Bathtub", "Surfboard"]})
    play(game, state, "attack with Crowbar", "target the player 1 seat(s) on")
    assert legal_names(game, state) == ["target tower level 0", "target tower level 1"]


def test_hand_attack_with_nothing_at_my_height_cannot_be_played():
    game, state = position({0: ["Crowbar", KEEP]}, {0: ["Piano", "Bathtub"], 1: ["Surfboard"]})
    assert "attack with Crowbar" not in legal_names(game, state)


def attack(game, state, attack_card, level=0, target_step=1):
    play(
        game,
        state,
        f"attack with {attack_card}",
        f"target the player {target_step} seat(s) on",
        f"target tower level {level}",
    )


def test_attack_succeeds_when_attack_and_die_reach_the_defense_ties_included():
    # Bathtub 5 + Duct Tape 1 = 6 against Anvil 3: a 3 ties and wins, a 2 fails.
    for die, survives in ((3, False), (2, True)):
        game, state = position({0: ["Anvil", KEEP]}, {1: [("Bathtub", 0, "Duct Tape")]})
        attack(game, state, "Anvil")
        assert state.phase == ATTACK_ROLL  # seat 1 has no defense card: no question asked
        game.apply_chance(state, die)
        assert bool(state.towers[1]) == survives


def test_destroyed_card_leaves_with_its_reinforcement():
    game, state = position({0: ["Dynamite", KEEP]}, {1: [("Piano", 0, "Ivy")]})
    attack(game, state, "Dynamite")
    game.apply_chance(state, 6)
    assert state.towers[1] == []
    assert state.discard == [card("Dynamite"), card("Piano"), card("Ivy")]


@pytest.mark.parametrize(
    "die,left",
    [(3, ["Surfboard", "Bathtub", "Piano"]), (5, ["Surfboard", "Piano"]), (6, ["Surfboard"])],
)
def test_collapse_roll_decides_what_falls_above(die, left):
    tower = ["Surfboard", "Lawn Mower", "Bathtub", "Piano"]
    game, state = position({0: ["Dynamite", KEEP]}, {1: tower})
    attack(game, state, "Dynamite", level=1)
    game.apply_chance(state, 6)  # Lawn Mower destroyed
    assert state.phase == COLLAPSE_ROLL and game.current_player(state) == CHANCE
    game.apply_chance(state, die)
    assert names(state, 1) == left


def test_destroying_the_top_card_needs_no_collapse_roll():
    game, state = position({0: ["Dynamite", KEEP]}, {1: ["Surfboard", "Piano"]})
    attack(game, state, "Dynamite", level=1)
    game.apply_chance(state, 6)
    assert state.phase == ATTACK_CHOICE and names(state, 1) == ["Surfboard"]


def test_wasps_nest_ignores_reinforcement():
    game, state = position({0: ["Wasp's Nest", KEEP]}, {1: [("Surfboard", 0, "Security Guard")]})
    attack(game, state, "Wasp's Nest")
    game.apply_chance(state, 1)  # 2 + 1 >= 2 (the guard's +3 does not count)
    assert state.towers[1] == []


@pytest.mark.parametrize(
    "attacker,junk,die,destroyed",
    [
        ("Lawyer", "Slot Machine", 1, True),  # ILLEGAL: 1 + 3 + 1 >= 2
        ("Lawyer", "Garden Gnome", 1, False),  # not ILLEGAL: 1 + 1 < 3
        ("Termites", "Bathtub", 1, True),  # HOUSEHOLD: 1 + 3 + 1 >= 5
        ("Termites", "Lawn Mower", 2, True),  # GARDEN: 1 + 3 + 2 >= 4
        ("Termites", "Rusty Car", 3, False),  # neither: 1 + 3 < 5
    ],
)
def test_lawyer_and_termites_get_three_against_their_categories(attacker, junk, die, destroyed):
    game, state = position({0: [attacker, KEEP]}, {1: [junk]})
    attack(game, state, attacker)
    game.apply_chance(state, die)
    assert (state.towers[1] == []) == destroyed


def test_ball_cannon_topples_everything_above_without_a_roll():
    game, state = position({0: ["Ball Cannon", KEEP]}, {1: ["Surfboard", "Garden Gnome", "Piano"]})
    attack(game, state, "Ball Cannon", level=1)
    game.apply_chance(state, 6)
    assert names(state, 1) == ["Surfboard"] and state.phase == ATTACK_CHOICE


def test_attacked_player_answers_with_one_defense_card():
    game, state = position({0: ["Anvil", KEEP], 1: ["Wok", "Umbrella"]}, {1: ["Bathtub"]})
    attack(game, state, "Anvil")
    assert state.phase == DEFEND and game.current_player(state) == 1
    assert legal_names(game, state) == ["defend with Umbrella", "defend with Wok", "no defense"]
    play(game, state, "defend with Wok")
    assert state.phase == ATTACK_ROLL
    game.apply_chance(state, 4)  # 3 + 4 = 7 < 5 + 3
    assert names(state, 1) == ["Bathtub"] and state.hands[1][card("Wok")] == 0


@pytest.mark.parametrize("defense,value", [("Umbrella", 1), ("Satellite Dish", 2), ("Wok", 3)])
def test_defense_cards_add_their_value(defense, value):
    game, state = position({0: ["Dynamite", KEEP], 1: [defense]}, {1: ["Garden Gnome"]})
    attack(game, state, "Dynamite")
    play(game, state, f"defend with {defense}")
    from jungle_envs.games.spank_the_monkey.rules import defense_value

    assert defense_value(state) == 3 + value


def test_guard_dog_cancels_the_attack_without_a_roll():
    game, state = position({0: ["Dynamite", KEEP], 1: ["Guard Dog"]}, {1: ["Surfboard"]})
    attack(game, state, "Dynamite")
    play(game, state, "defend with Guard Dog")
    assert state.phase == ATTACK_CHOICE and names(state, 1) == ["Surfboard"]
    assert state.discard == [card("Dynamite"), card("Guard Dog")]


def test_trampoline_sends_the_attack_to_the_same_level_or_the_top_of_another_tower():
    towers = {0: ["Piano"], 1: ["Surfboard", "Bathtub", "Piano"], 2: ["Garden Gnome"]}
    hands = {0: ["Dynamite", KEEP], 1: ["Trampoline"], 2: ["Wok"]}
    game, state = position(hands, towers, num_players=3)
    attack(game, state, "Dynamite", level=2)
    play(game, state, "defend with Trampoline")
    assert game.current_player(state) == 1
    assert legal_names(game, state) == [
        "target the player 1 seat(s) on",
        "target the player 2 seat(s) on",
    ]  # seat 2 and seat 0
    play(game, state, "target the player 1 seat(s) on")  # seat 2: its top card is level 0
    assert state.attack[1:3] == [2, 0] and state.phase == ATTACK_ROLL  # seat 2 may not defend
    game.apply_chance(state, 6)
    assert state.towers[2] == [] and names(state, 1) == ["Surfboard", "Bathtub", "Piano"]


def test_trampoline_may_send_the_attack_back_to_the_attacker():
    game, state = position(
        {0: ["Anvil", KEEP], 1: ["Trampoline"]}, {0: ["Surfboard"], 1: ["Surfboard"]}
    )
    attack(game, state, "Anvil")
    play(game, state, "defend with Trampoline", "target the player 1 seat(s) on")
    game.apply_chance(state, 6)
    assert state.towers[0] == [] and names(state, 1) == ["Surfboard"]


def test_earthquake_every_player_rolls_and_loses_the_top_card_on_one_or_two():
    towers = {0: ["Surfboard", "Piano"], 1: ["Bathtub"], 2: ["Garden Gnome", "Wheelbarrow"]}
    game, state = position({0: ["Earthquake", KEEP]}, towers, num_players=3)
    play(game, state, "play Earthquake")
    assert state.phase == QUAKE_ROLL and state.queue == [0, 1, 2]
    for die in (2, 3, 1):
        game.apply_chance(state, die)
    assert [names(state, s) for s in range(3)] == [["Surfboard"], ["Bathtub"], ["Garden Gnome"]]


def test_gorilla_lifts_the_monkey_two_and_banana_peel_lowers_it_one_not_below_five():
    game, state = position({0: ["Gorilla", "Banana Peel", "Banana Peel"]}, monkey=6)
    play(game, state, "play Gorilla")
    assert state.monkey == 8
    game, state = position({0: ["Banana Peel", "Banana Peel", KEEP]}, monkey=6)
    play(game, state, "play Banana Peel", "play Banana Peel")
    assert state.monkey == 5


def test_scrap_dealer_draws_two():
    game, state = position({0: ["Scrap Dealer"]})
    play(game, state, "play Scrap Dealer")
    assert state.phase == DRAW and state.draws == [0, 0]


def test_inspection_makes_every_other_player_discard_a_random_card():
    hands = {0: ["Inspection", KEEP], 1: ["Wok", "Anvil", "Anvil"], 2: [], 3: ["Ivy"]}
    game, state = position(hands, num_players=4)
    play(game, state, "play Inspection")
    assert state.phase == INSPECT and state.queue == [1, 3]  # seat 2 holds nothing
    assert game.chance_event(state).distribution() == pytest.approx(
        {card("Anvil"): 2 / 3, card("Wok"): 1 / 3}
    )
    game.apply_chance(state, card("Anvil"))
    game.apply_chance(state, card("Ivy"))
    assert sum(state.hands[1]) == 2 and sum(state.hands[3]) == 0
    assert state.discard[-2:] == [card("Anvil"), card("Ivy")]


@pytest.mark.parametrize(
    "tower,allowed",
    [
        (["Totem Pole", "Dinosaur Skeleton", "Surfboard"], False),  # 9 < 12
        (TWELVE, True),  # the monkey's height
        ([*TWELVE, "Bathtub"], True),  # 14: two above
        ([*TWELVE, "Rusty Car"], False),  # 15: too high
    ],
)
def test_spank_needs_a_tower_from_the_monkeys_height_to_two_above(tower, allowed):
    game, state = position({0: ["Anvil"]}, {0: tower}, phase=SPANK)
    assert ("spank the monkey" in legal_names(game, state)) == allowed


@pytest.mark.parametrize(
    "tower,die,hit",
    [
        (TWELVE, 3, True),
        (TWELVE, 2, False),
        ([*TWELVE, "Garden Gnome"], 4, True),
        ([*TWELVE, "Garden Gnome"], 3, False),
        ([*TWELVE, "Bathtub"], 5, True),
        ([*TWELVE, "Bathtub"], 4, False),
    ],
)
def test_spank_hits_on_three_four_or_five_by_the_height_difference(tower, die, hit):
    game, state = position({0: ["Anvil"]}, {0: tower}, phase=SPANK)
    play(game, state, "spank the monkey")
    assert state.phase == SPANK_ROLL
    game.apply_chance(state, die)
    assert (game.current_player(state) == TERMINAL) == hit
    if hit:
        assert game.winners(state) == [0] and game.returns(state) == [1.0, -1.0]
    else:
        assert state.phase == DISCARD  # one spank per turn


def test_discard_up_to_two_cards():
    game, state = position({0: ["Anvil", "Wok", "Ivy"]}, phase=DISCARD)
    play(game, state, "discard Anvil", "discard Wok")
    assert state.phase == DRAW and state.player == 1  # the third discard is not offered
    assert state.hands[0][card("Ivy")] == 1


def test_actions_name_card_types_not_copies():
    game, state = position({0: ["Bowling Ball"] * 3}, {1: ["Piano"]})
    assert legal_names(game, state) == ["attack with Bowling Ball", "end attacks"]


def test_steps_with_nothing_to_choose_pass_by_themselves():
    # Seat 0 starts its turn holding only attack cards: no junk, no reinforcement to place.
    game, state = position(
        {0: ["Anvil"] * 2 + ["Bowling Ball"] * 3, 1: ["Wok"]},
        {1: ["Piano"]},
        phase=DISCARD,
        player=1,
    )
    play(game, state, "stop discarding")
    game.apply_chance(state, card("Umbrella"))  # five in hand: one card drawn
    assert state.phase == ATTACK_CHOICE
    assert legal_names(game, state) == [
        "attack with Bowling Ball",
        "attack with Anvil",
        "end attacks",
    ]
    play(game, state, "end attacks")  # not in reach of the monkey: no spank question
    assert state.phase == DISCARD


@pytest.mark.parametrize(
    "name,expected",
    [
        ("Old Fridge", ("junk", 3, 2, 4, ("HOUSEHOLD", "MACHINE"), "")),
        ("Rodeo Bull", ("junk", 2, 2, 3, ("MACHINE", "LEISURE", "ANIMAL"), "SHAKE")),
        ("Tractor Tyre", ("junk", 3, 1, 6, ("VEHICLE", "GARDEN"), "BRACE")),
        ("Stuffed Bear", ("junk", 2, 2, 2, ("ANIMAL", "ILLEGAL"), "SALVAGE")),
        ("Security Guard", ("reinforcement", 2, 0, 3, (), "")),
        ("Blowtorch", ("attack", 1, 0, 5, (), "hand")),
        ("Ball Cannon", ("attack", 1, 0, 3, (), "sneak")),
        ("Wok", ("defense", 1, 0, 3, (), "")),
        ("Banana Peel", ("special", 2, 0, 0, (), "BANANA_PEEL")),
    ],
)
def test_card_table_rows_match_the_rulings(name, expected):
    c = CARDS[card(name)]
    assert (c.kind, c.copies, c.height, c.strength, c.categories, c.effect) == expected


@pytest.mark.parametrize(
    "hand,actions",
    [
        (["Pinball Machine"], ["build Pinball Machine"]),
        (["Scrap Dealer"], ["play Scrap Dealer"]),
    ],
)
def test_a_card_effect_draw_on_an_empty_deck_lets_the_monkey_win(hand, actions):
    game, state = position({0: hand}, phase=BUILD_JUNK if "Pinball" in hand[0] else ATTACK_CHOICE)
    for t in range(len(state.deck)):
        state.discard += [t] * state.deck[t]
        state.deck[t] = 0
    play(game, state, *actions)
    assert state.phase == GAME_OVER and game.winners(state) == []


def test_brace_bonus_counts_against_every_attack():
    # Piano 4 + brace 1 = 5 against a Wasp's Nest (2): a 2 fails, a 3 ties and wins.
    for die, survives in ((2, True), (3, False)):
        towers = {1: [("Piano", 1, None), "Tractor Tyre"]}
        game, state = position({0: ["Wasp's Nest", KEEP]}, towers)
        attack(game, state, "Wasp's Nest", level=0)
        game.apply_chance(state, die)
        assert ("Piano" in names(state, 1)) == survives


def test_reinforcements_fall_with_their_cards_in_a_collapse_and_an_earthquake():
    towers = {1: ["Surfboard", "Lawn Mower", ("Bathtub", 0, "Ivy")]}
    game, state = position({0: ["Dynamite", KEEP]}, towers)
    attack(game, state, "Dynamite", level=1)
    game.apply_chance(state, 6)
    game.apply_chance(state, 4)  # the Bathtub above falls too, with its Ivy
    assert state.discard[-2:] == [card("Bathtub"), card("Ivy")]
    game, state = position({0: ["Earthquake", KEEP]}, {1: [("Bathtub", 0, "Ivy")]})
    play(game, state, "play Earthquake")
    game.apply_chance(state, 1)
    assert state.towers[1] == [] and state.discard[-2:] == [card("Bathtub"), card("Ivy")]


@pytest.mark.parametrize(
    "defense,die,destroyed",
    [
        ("Umbrella", 2, False),
        ("Umbrella", 3, True),  # Anvil 3 + die against Bathtub 5 + 1
        ("Satellite Dish", 3, False),
        ("Satellite Dish", 4, True),  # against 5 + 2
    ],
)
def test_value_defenses_raise_what_the_roll_must_reach(defense, die, destroyed):
    game, state = position({0: ["Anvil", KEEP], 1: [defense]}, {1: ["Bathtub"]})
    attack(game, state, "Anvil")
    play(game, state, f"defend with {defense}")
    game.apply_chance(state, die)
    assert (state.towers[1] == []) == destroyed


def test_trampoline_needs_another_tower_to_send_the_attack_to():
    game, state = position({0: ["Anvil", KEEP], 1: ["Trampoline", "Umbrella"]}, {1: ["Piano"]})
    attack(game, state, "Anvil")
    assert legal_names(game, state) == ["defend with Umbrella", "no defense"]


def test_a_hand_attack_from_an_empty_tower_reaches_the_bottom_card():
    game, state = position({0: ["Crowbar"]}, {1: ["Piano", "Bathtub"]})
    play(game, state, "attack with Crowbar", "target the player 1 seat(s) on")
    assert legal_names(game, state) == ["target tower level 0"]


def test_the_rules_page_shows_the_observation_layout_of_the_default_game():
    page = Path(__file__).parents[1] / "docs" / "rules" / "spank_the_monkey.md"
    text = page.read_text(encoding="utf-8")
    shown = text.split("<!-- layout:start -->\n", 1)[1].split("\n<!-- layout:end -->", 1)[0]
    game = SpankTheMonkey()  # 4 players, the spec's default; the layout is the same for all
    assert shown == game.config.layout.table()
    assert game.config.layout == SpankTheMonkey(2, monkey_base=20).config.layout
