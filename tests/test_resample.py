"""Determinization (``Game.resample``): what a seat cannot see is dealt anew, with the
right odds, from what the seat may know only."""

from __future__ import annotations

import math

import numpy as np
import pytest

import jungle_envs
from jungle_envs.core.game import CHANCE, TERMINAL
from jungle_envs.core.registry import GAMES, game_class

CASES = [
    pytest.param(name, n, id=f"{name}-{n}p")
    for name in GAMES
    for n in game_class(name).spec.player_counts
]
HIDDEN = {"JungleSweep", "SpankTheMonkey"}  # the games with something a seat cannot see


def random_states(game, seed: int, every: int = 1):
    """States at decisions of a masked-random game (every ``every``-th one)."""
    rng = np.random.default_rng(seed)
    state, count = game.new_state(), 0
    while (player := game.current_player(state)) != TERMINAL:
        if player == CHANCE:
            game.apply_chance(state, game.sample_chance(state, rng))
            continue
        if count % every == 0:
            yield state
        count += 1
        game.apply_action(state, int(rng.choice(game.legal_actions(state))))


def play_out(game, state, rng) -> None:
    while (player := game.current_player(state)) != TERMINAL:
        if player == CHANCE:
            game.apply_chance(state, game.sample_chance(state, rng))
        else:
            game.apply_action(state, int(rng.choice(game.legal_actions(state))))
        game.validate_state(state)


@pytest.mark.parametrize("name,players", CASES)
def test_a_resampled_state_looks_the_same_to_the_seat_and_plays_on(name, players):
    game = jungle_envs.make_game(name, players)
    rng = np.random.default_rng(players)
    changed = 0
    for i, state in enumerate(random_states(game, seed=players, every=3)):
        before = game.state_to_json(state)
        for seat in range(players):
            resampled = game.resample(state, seat, rng)
            assert np.array_equal(game.observe(resampled, seat), game.observe(state, seat))
            game.validate_state(resampled)
            changed += resampled != state
        assert game.state_to_json(state) == before  # the true state is never touched
        if i % 10 == 0:
            play_out(game, game.resample(state, i % players, rng), rng)
    # a game with hidden parts deals them differently from the truth most of the time
    assert (changed > 0) == (name in HIDDEN)


@pytest.mark.parametrize("name,players", CASES)
def test_a_resample_depends_only_on_what_the_seat_may_know(name, players):
    """Two states the seat cannot tell apart give the same deals from the same generator,
    so nothing hidden in the true state shapes a determinization."""
    game = jungle_envs.make_game(name, players)
    for i, state in enumerate(random_states(game, seed=100 + players, every=7)):
        seat = i % players
        twin = game.resample(state, seat, np.random.default_rng(i))  # hidden parts differ
        for k in range(3):
            a = game.resample(state, seat, np.random.default_rng([i, k]))
            b = game.resample(twin, seat, np.random.default_rng([i, k]))
            assert a == b


def test_resample_refuses_a_seat_outside_the_table():
    game = jungle_envs.make_game("SpankTheMonkey", 3)
    for seat in (-1, 3, 1.0, True):
        with pytest.raises(ValueError, match=r"seat must be a seat in 0\.\.2"):
            game.resample(game.new_state(), seat, np.random.default_rng(0))


def hypergeometric(k: int, size: int, good: int, total: int) -> float:
    return math.comb(good, k) * math.comb(total - good, size - k) / math.comb(total, size)


def assert_hypergeometric(counts: list[int], size: int, good: int, total: int) -> None:
    """``counts`` (one per draw) against the hypergeometric law: a chi-square statistic
    over the outcomes expected at least 5 times, below a bound that a correct deal exceeds
    with odds far below one in a thousand."""
    draws = len(counts)
    seen = np.bincount(counts, minlength=size + 1)
    stat, cells = 0.0, 0
    for k in range(size + 1):
        expected = draws * hypergeometric(k, size, good, total)
        if expected >= 5:
            stat += (seen[k] - expected) ** 2 / expected
            cells += 1
        else:
            assert seen[k] <= max(5 * expected, 3), (k, seen[k], expected)
    dof = max(cells - 1, 1)
    assert stat < dof + 6 * math.sqrt(2 * dof), (stat, dof, seen)


def mid_game(game, seed: int, decisions: int):
    for i, state in enumerate(random_states(game, seed)):
        if i == decisions:
            return state.copy()
    raise AssertionError("the game ended first")


def test_spank_hands_are_dealt_with_hypergeometric_odds():
    game = jungle_envs.make_game("SpankTheMonkey", 4)
    state = mid_game(game, seed=3, decisions=12)
    pool = np.array(state.deck) + sum(np.array(state.hands[s]) for s in (1, 2, 3))
    size, total = sum(state.hands[1]), int(pool.sum())
    kinds = [t for t in np.argsort(-pool)[:3]]  # the three commonest unseen cards
    rng = np.random.default_rng(0)
    draws = [game.resample(state, 0, rng) for _ in range(3000)]
    for t in kinds:
        counts = [d.hands[1][t] for d in draws]
        assert_hypergeometric(counts, size, int(pool[t]), total)
    for d in draws[:200]:  # sizes kept, cards conserved, seat 0's hand as it was
        assert [sum(h) for h in d.hands] == [sum(h) for h in state.hands]
        assert d.hands[0] == state.hands[0]
        assert (np.array(d.deck) + sum(np.array(d.hands[s]) for s in (1, 2, 3)) == pool).all()


def test_jungle_sweep_coconuts_are_dealt_with_hypergeometric_odds():
    game = jungle_envs.make_game("JungleSweep", 3)  # 3 players: coconuts set aside too
    rng = np.random.default_rng(1)
    state = next(
        s for s in random_states(game, seed=5)
        if sum(len(c) for m, c in enumerate(s.coconuts) if m % 3 != 0) >= 2
    )  # fmt: skip
    values = game.config.coconut_values
    other = next(m for m, c in enumerate(state.coconuts) if m % 3 != 0 and c)
    pool = np.array(state.supply) + np.array(state.set_aside)
    for m, coconuts in enumerate(state.coconuts):
        if m % 3 != 0:
            for value in coconuts:
                pool[values.index(value)] += 1
    draws = [game.resample(state, 0, rng) for _ in range(3000)]
    size, total = len(state.coconuts[other]), int(pool.sum())
    for index in np.argsort(-pool)[:2]:
        counts = [d.coconuts[other].count(values[index]) for d in draws]
        assert_hypergeometric(counts, size, int(pool[index]), total)
    mine = [state.coconuts[m] for m in range(0, game.config.num_monkeys, 3)]
    for d in draws[:200]:
        assert [d.coconuts[m] for m in range(0, game.config.num_monkeys, 3)] == mine
        assert sum(d.set_aside) == sum(state.set_aside)
