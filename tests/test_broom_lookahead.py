"""The broom-lookahead teacher: its expected coconuts by hand, its moves legal and seeded."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import jungle_envs  # noqa: F401
from training.broom_lookahead import (
    BroomLookahead,
    compare_with_heuristic,
    expected_coconuts,
    main,
    place_pays,
)


def config(players: int):
    env = gym.make("jungle_envs/JungleSweep-v0", num_players=players)
    try:
        return env.unwrapped.game.config
    finally:
        env.close()


def test_places_pay_as_the_rulings_score_a_round():
    assert [place_pays(q, 4) for q in range(1, 5)] == [0.0, 1.0, 1.0, 2.0]
    assert [place_pays(q, 3) for q in range(1, 4)] == [0.0, 1.0, 2.0]
    assert [place_pays(q, 6) for q in range(1, 7)] == [0.0, 0.0, 1.0, 1.0, 1.0, 2.0]


@pytest.mark.parametrize("blend", [0.0, 0.25, 1.0])
def test_no_sweep_possible_pays_the_mean_place(blend):
    # everyone on a palm: nobody is reached, the tie gives every monkey the mean place
    assert expected_coconuts([1.0] * 4, 0, 0, 4, blend) == pytest.approx(1.0)
    assert expected_coconuts([1.0] * 3, 2, 1, 4, blend) == pytest.approx(4 / 3)


def test_sure_sweeps():
    assert expected_coconuts([0.0, 1.0, 1.0, 1.0], 0, 0, 4, 0.5) == 0.0  # first out
    assert expected_coconuts([1.0, 0.0, 0.0, 0.0], 0, 0, 4, 0.5) == 2.0  # left alone
    # swept in the same roll as the others but reached last: the last place pays 2
    assert expected_coconuts([0.3, 0.0, 0.0, 0.0], 0, 0, 4, 0.5) == pytest.approx(2.0)


@pytest.mark.parametrize("blend", [0.0, 0.4, 1.0])
def test_nested_sweep_worked_by_hand(blend):
    # me 0.5, one monkey sure to go, two on palms: below 0.5 the other goes first and I
    # survive with two others (place 2 by safety, 4/3 the mean of places 2-4); above it
    # both go and I am second out (1 coconut)
    survive = blend * 1.0 + (1 - blend) * 4 / 3
    want = 0.5 * survive + 0.5 * 1.0
    assert expected_coconuts([0.5, 0.0, 1.0, 1.0], 0, 0, 4, blend) == pytest.approx(want)


def test_safer_is_never_worse():
    rng = np.random.default_rng(0)
    for _ in range(200):
        others = rng.uniform(0, 1, size=3).tolist()
        low, high = sorted(rng.uniform(0, 1, size=2).tolist())
        for blend in (0.0, 0.25, 1.0):
            worse = expected_coconuts([low, *others], 0, 0, 4, blend)
            better = expected_coconuts([high, *others], 0, 0, 4, blend)
            assert better >= worse - 1e-12


def test_refuses_two_players_and_a_blend_outside_0_1():
    with pytest.raises(ValueError, match="3 to 6 players"):
        BroomLookahead(config(2))
    with pytest.raises(ValueError, match="blend"):
        BroomLookahead(config(4), blend=1.5)
    with pytest.raises(SystemExit):
        main(["--players", "2", "--games", "10"])


def test_plays_legal_moves_and_departs_from_the_heuristic():
    env = gym.make("jungle_envs/JungleSweep-v0", num_players=4, opponents="heuristic")
    game = env.unwrapped.game
    policy, heuristic = BroomLookahead(game.config), game.heuristic_policy()
    rng = np.random.default_rng(0)
    decisions = differ = 0
    for seed in range(30):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            mask = info["action_mask"]
            action = policy.act(obs, mask, rng)
            assert mask[action]
            decisions += 1
            differ += action != heuristic.act(obs, mask, rng)
            obs, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
    assert decisions > 300 and 0 < differ < decisions / 4


def test_paired_comparison_is_seeded():
    first = compare_with_heuristic(4, 0.25, 0.3, games=12, seed=146_000, workers=1)
    again = compare_with_heuristic(4, 0.25, 0.3, games=12, seed=146_000, workers=2)
    assert first["win_rate_difference"] == again["win_rate_difference"]
    assert first["win_rate_difference"]["games"] == 12


def test_as_a_teacher_it_answers_from_the_state_with_a_one_hot_and_says_when_it_overrules():
    from training.search_data import make_teacher

    env = gym.make("jungle_envs/JungleSweep-v0", num_players=4, opponents="heuristic",
                   move_features=True)  # fmt: skip
    game = env.unwrapped.game
    teacher, heuristic = make_teacher("broom-lookahead:0.5:0.2", game), game.heuristic_policy()
    assert isinstance(teacher, BroomLookahead) and (teacher.blend, teacher.rival) == (0.5, 0.2)
    rng = np.random.default_rng(1)
    overruled = 0
    for seed in range(20):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            mask, seat = info["action_mask"], env.unwrapped.agent_seat
            move = teacher.act_state(env.unwrapped.state, seat, mask, rng)
            assert move == teacher.act(obs, mask, rng)  # the state's view is the observation
            assert teacher.visits[move] == 1.0 and teacher.visits.sum() == 1.0
            assert teacher.overruled == (move != heuristic.act(obs, mask, rng))
            overruled += teacher.overruled
            obs, _, terminated, truncated, info = env.step(move)
            done = terminated or truncated
    assert overruled > 0
    with pytest.raises(ValueError, match="blend"):
        BroomLookahead.from_name("broom-lookahead:2", game)
    with pytest.raises(ValueError, match="is not broom-lookahead"):
        BroomLookahead.from_name("broom:1", game)
    with pytest.raises(ValueError, match="is not broom-lookahead"):
        BroomLookahead.from_name("broom-lookahead:0.2:0.3:1", game)
    with pytest.raises(ValueError, match="rival"):
        BroomLookahead.from_name("broom-lookahead:0.2:-1", game)
    with pytest.raises(TypeError, match="needs the Game"):
        BroomLookahead(game.config).act_state(env.unwrapped.state, 0, mask, rng)
