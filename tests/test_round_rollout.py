"""The round-rollout teacher: its kernel against the reference engine, its moves and names."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import jungle_envs
from jungle_envs.core.compiled import event_replay
from jungle_envs.core.compiled.lockstep import FixedUniform
from jungle_envs.core.compiled.rng import CHANCE_STREAM
from jungle_envs.core.game import CHANCE
from jungle_envs.games.jungle_sweep.tables import DRAW_COCONUT, GAME_OVER
from training.round_rollout import RoundRollout, compare_with_heuristic, main

ENV = "jungle_envs/JungleSweep-v0"


def decision_states(players: int, games: int, seed: int):
    """(state, seat, mask) at learner decisions with a choice, heuristic games."""
    env = gym.make(ENV, num_players=players, opponents="heuristic")
    game = env.unwrapped.game
    heuristic, rng = game.heuristic_policy(), np.random.default_rng(seed)
    for g in range(games):
        obs, info = env.reset(seed=seed + g)
        done = False
        while not done:
            mask = info["action_mask"]
            if mask.sum() > 1:
                yield game, env.unwrapped.state.copy(), env.unwrapped.agent_seat, mask.copy()
            # a random move now and then, so the rounds do not all go the heuristic's way
            action = heuristic.act(obs, mask, rng)
            if rng.random() < 0.2:
                action = int(rng.choice(np.flatnonzero(mask)))
            obs, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
    env.close()


def reference_round(
    game, state, seat: int, action: int, seed: int, field: str = "heuristic"
) -> np.ndarray:
    """The round played out on the rules engine after ``seat``'s ``action``, with the
    heuristic in ``seat`` and ``field`` (the heuristic, or a random legal move) in the
    others, and the chance and random draws of the kernel's streams, in plain Python ints:
    each seat's coconuts awarded at its end."""
    world, heuristic = state.copy(), game.heuristic_policy()
    streams = [seed, seed]
    start = world.round
    game._apply_action(world, action)
    while world.phase not in (DRAW_COCONUT, GAME_OVER) and world.round == start:
        player = game.current_player(world)
        if player == CHANCE:
            u = event_replay.uniform(streams, CHANCE_STREAM)
            game._apply_chance(world, game.sample_chance(world, FixedUniform(u)))
            continue
        mask = game.legal_mask(world)
        if field == "random" and player != seat:
            game._apply_action(world, event_replay.random_legal(mask, streams))
            continue
        game._apply_action(world, int(heuristic.act(game.observe(world, player), mask, None)))
    awards = np.zeros(game.num_players)
    if world.phase == DRAW_COCONUT:
        for monkey in world.awards:
            awards[monkey % game.num_players] += 1
    return awards


@pytest.mark.parametrize(
    "players, field",
    [(2, "heuristic"), (3, "heuristic"), (4, "heuristic"), (6, "heuristic"),
     (2, "random"), (4, "random"), (5, "random")],
)  # fmt: skip
def test_the_kernel_plays_the_round_as_the_reference_does(players, field):
    checked = differs = 0
    for n, (game, state, seat, mask) in enumerate(decision_states(players, 4, 500 * players)):
        if n % 5:
            continue
        teacher = RoundRollout(game, rollouts=3, field=field)
        legal = np.flatnonzero(mask)
        seeds = np.array([11 + n, 2**63 + n, 7 * n + 1], dtype=np.uint64)
        awards = teacher.round_awards(state, seat, legal, seeds)
        for i, action in enumerate(legal.tolist()):
            for k, seed in enumerate(seeds.tolist()):
                want = reference_round(game, state, seat, action, seed, field)
                assert awards[i, k].tolist() == want.tolist(), (players, n, action, seed)
                checked += 1
        assert awards.sum() > 0
        if field == "random":  # the field's moves are the kernel's, not the heuristic's
            differs += not np.array_equal(
                awards, RoundRollout(game, rollouts=3).round_awards(state, seat, legal, seeds)
            )
    assert checked > 40
    assert field == "heuristic" or differs > 0


def test_what_a_seat_cannot_see_does_not_change_its_move():
    # the rollouts stop before any coconut is drawn: dealing the hidden values anew (what
    # the seat cannot tell apart) leaves every value and so the move as it was
    for n, (game, state, seat, mask) in enumerate(decision_states(4, 2, 1700)):
        if n % 7:
            continue
        teacher = RoundRollout(game, rollouts=8)
        move = teacher.act_state(state, seat, mask, np.random.default_rng(n))
        values = teacher.values.copy()
        dealt = game.resample(state, seat, np.random.default_rng(99 + n))
        assert teacher.act_state(dealt, seat, mask, np.random.default_rng(n)) == move
        assert np.array_equal(teacher.values, values, equal_nan=True)


def test_it_keeps_the_heuristic_move_unless_the_rollouts_show_a_better_one():
    heuristic_only = overruled = decisions = 0
    for n, (game, state, seat, mask) in enumerate(decision_states(4, 6, 1900)):
        heuristic = game.heuristic_policy().act(game.observe(state, seat), mask, None)
        strict = RoundRollout(game, rollouts=8, z=1e9)
        assert strict.act_state(state, seat, mask, np.random.default_rng(n)) == heuristic
        heuristic_only += not strict.overruled
        teacher = RoundRollout(game, rollouts=16, z=1.0)
        move = teacher.act_state(state, seat, mask, np.random.default_rng(n))
        assert mask[move] and teacher.visits[move] == 1.0 and teacher.visits.sum() == 1.0
        assert teacher.overruled == (move != heuristic)
        if teacher.overruled:  # the move it plays is the best mean, clear of the heuristic's
            assert teacher.values[move] == np.nanmax(teacher.values)
            assert teacher.values[move] > teacher.values[heuristic]
        assert np.isnan(teacher.values[mask == 0]).all()
        overruled += teacher.overruled
        decisions += 1
    assert heuristic_only == decisions and 0 < overruled < decisions / 2


def test_same_seed_same_move_and_values():
    game, state, seat, mask = next(decision_states(4, 1, 2100))
    first, again = RoundRollout(game), RoundRollout(game)
    assert first.act_state(state, seat, mask, np.random.default_rng(5)) == again.act_state(
        state, seat, mask, np.random.default_rng(5)
    )
    assert np.array_equal(first.values, again.values, equal_nan=True)


def test_names_settings_and_refusals():
    game = jungle_envs.make_game("JungleSweep", num_players=4)
    teacher = RoundRollout.from_name("round-rollout:64:z=0.5:rival=0", game)
    assert (teacher.rollouts, teacher.z, teacher.rival) == (64, 0.5, 0.0)
    assert RoundRollout.from_name("round-rollout", game).rollouts == 32
    assert RoundRollout.from_name("round-rollout", game).field == "heuristic"
    assert RoundRollout.from_name("round-rollout:8:field=random", game).field == "random"
    for name, message in [
        ("round-rollout:x", "number of rollouts"),
        ("round-rollout:1", "rollouts must be an integer >= 2"),
        ("round-rollout:8:z=-1", "z must be"),
        ("round-rollout:8:rival=11", "rival must be"),
        ("round-rollout:8:depth=2", "unknown setting 'depth'"),
        ("round-rollout:8:field=mcts", "field must be one of heuristic, random"),
        ("round-rollout:8:9", "is not round-rollout"),
        ("rollout:8", "is not round-rollout"),
    ]:
        with pytest.raises(ValueError, match=message):
            RoundRollout.from_name(name, game)
    with pytest.raises(ValueError, match="teaches Jungle Sweep only"):
        RoundRollout(jungle_envs.make_game("TropicRace", num_players=4))
    with pytest.raises(TypeError, match="from the game state"):
        teacher.act(np.zeros(3), np.ones(6, dtype=np.int8), None)
    for argv in (
        ["--players", "7"], ["--rollouts", "1"], ["--games", "1"], ["--z", "-1"],
        ["--field", "mcts"],
    ):  # fmt: skip
        with pytest.raises(SystemExit):
            main(argv)


def test_distill_builds_it_by_name():
    from training.search_data import make_teacher

    game = jungle_envs.make_game("JungleSweep", num_players=4)
    teacher = make_teacher("round-rollout:16:rival=0.5", game)
    assert isinstance(teacher, RoundRollout) and (teacher.rollouts, teacher.rival) == (16, 0.5)


def test_paired_comparison_is_seeded_and_counts_every_game():
    first = compare_with_heuristic(4, 8, 1.0, 0.3, "random", games=8, seed=146_000, workers=1)
    again = compare_with_heuristic(4, 8, 1.0, 0.3, "random", games=8, seed=146_000, workers=2)
    assert first["win_rate_difference"] == again["win_rate_difference"]
    assert first["win_rate_difference"]["games"] == 8 and first["opponents"] == "random"
