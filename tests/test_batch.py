"""The batched all-seat API (``jungle_envs.make_batch``).

Each env of a batch is replayed on the reference engine from its own streams: the same
chance uniforms, the built-in seats' draws, the caller's actions. Seat to move,
observation (bit for bit), mask, every seat's reward, scores, returns and the state must
agree at every step, through autoresets, on one thread and on two.
"""

from __future__ import annotations

import numpy as np
import pytest

import jungle_envs
from jungle_envs.core.compiled.lockstep import FixedUniform
from jungle_envs.core.compiled.rng import CHANCE_STREAM, stream_state, uniform
from jungle_envs.core.compiled.runner import random_legal
from jungle_envs.core.game import CHANCE, TERMINAL, IllegalActionError
from jungle_envs.core.registry import GAMES

NAMES = sorted(GAMES)


class ReferenceEnv:
    """One env of a batch, replayed on the reference engine."""

    def __init__(self, game, seed, seats, skip_forced, reward):
        self.game, self.seats, self.skip_forced, self.reward = game, seats, skip_forced, reward
        self.streams = stream_state(seed).copy()
        self.heuristic = game.heuristic_policy()
        self.deal()

    def deal(self):
        while True:
            self.state = self.game.new_state()
            if self.advance() != TERMINAL:
                self.scores = np.array(self.game.scores(self.state))
                return

    def advance(self):
        game, state = self.game, self.state
        while True:
            player = game.current_player(state)
            if player == CHANCE:
                u = uniform(self.streams, CHANCE_STREAM)
                game.apply_chance(state, game.sample_chance(state, FixedUniform(u)))
                continue
            if player == TERMINAL:
                return player
            mask = game.legal_mask(state)
            seat = self.seats[player]
            if seat == "random":
                game.apply_action(state, int(random_legal(mask.astype(np.int8), self.streams)))
            elif seat == "heuristic":
                view = game.observe(state, player)
                game.apply_action(state, self.heuristic.act(view, mask, None))
            elif self.skip_forced and mask.sum() == 1:
                game.apply_action(state, int(np.flatnonzero(mask)[0]))
            else:
                self.player = player
                return player

    def step(self, action):
        """Every seat's reward for playing ``action``; whether the game ended."""
        self.game.apply_action(self.state, int(action))
        done = self.advance() == TERMINAL
        before = self.potentials()
        self.scores = np.array(self.game.scores(self.state))
        rewards = self.potentials() - before if self.reward == "margin" else 0 * before
        if done and self.reward == "win":
            rewards = np.array(self.game.returns(self.state))
        return rewards, done

    def potentials(self):
        best_other = [max(np.delete(self.scores, seat)) for seat in range(len(self.scores))]
        return self.scores - np.array(best_other)


def check_rows(batch, view, refs):
    game = batch.game
    for i, ref in enumerate(refs):
        state = batch.states[i]
        assert game.state_to_json(state) == game.state_to_json(ref.state), f"env {i}"
        assert view.current_player[i] == ref.player
        np.testing.assert_array_equal(view.scores[i], ref.scores)
        if view.terminated[i]:
            assert view.legal_action_mask[i].all()
            np.testing.assert_array_equal(view.returns[i], game.returns(ref.state))
            assert batch.winners(i) == game.winners(ref.state)
            continue
        obs = game.observe(ref.state, ref.player)
        assert view.observation[i].tobytes() == obs.tobytes(), f"env {i} seat {ref.player}"
        np.testing.assert_array_equal(view.legal_action_mask[i], game.legal_mask(ref.state))
        np.testing.assert_array_equal(view.returns[i], 0.0)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(
    "players,seats,threads,reward,skip",
    [
        (4, [None, None, None, None], 1, "win", False),
        (4, [None, "heuristic", None, "random"], 2, "margin", True),
        (2, [None, None], 2, "win", True),
    ],
    ids=["4p-all-seats", "4p-two-seats-2-threads", "2p-2-threads"],
)
def test_every_env_plays_as_the_reference_engine(name, players, seats, threads, reward, skip):
    num_envs, seed = 4, 11
    opponents = None if all(s is None for s in seats) else seats
    batch = jungle_envs.make_batch(name, num_envs, num_players=players, seed=seed,
                                   opponents=opponents, reward=reward, num_threads=threads,
                                   skip_forced_actions=skip)  # fmt: skip
    assert len(batch._shares) == threads
    refs = [ReferenceEnv(batch.game, seed + i, seats, skip, reward) for i in range(num_envs)]
    rng = np.random.default_rng(3)
    view, games_ended = batch.view(), 0
    check_rows(batch, view, refs)
    for _ in range(120):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in view.legal_action_mask])
        ended_before = view.terminated.copy()
        view = batch.step(actions)
        for i, ref in enumerate(refs):
            if ended_before[i]:  # next-step autoreset: a new game, the action ignored
                ref.deal()
                assert not view.terminated[i]
                np.testing.assert_array_equal(view.rewards[i], 0.0)
                continue
            rewards, done = ref.step(actions[i])
            assert view.terminated[i] == done
            np.testing.assert_allclose(view.rewards[i], rewards, atol=1e-12)
            games_ended += done
        check_rows(batch, view, refs)
    if name in ("JungleSweep", "TropicRace"):  # short enough to reach autoresets here
        assert games_ended > 0


@pytest.mark.parametrize("name", NAMES)
def test_same_seed_same_games_on_any_thread_count(name):
    runs = []
    for threads in (1, 2):
        batch = jungle_envs.make_batch(name, 512, num_players=3, seed=4, num_threads=threads)
        rng, view, seen = np.random.default_rng(0), batch.view(), []
        for _ in range(40):
            actions = rng.random(view.legal_action_mask.shape) * view.legal_action_mask
            view = batch.step(actions.argmax(axis=1))
            seen.append((view.current_player, view.observation, view.rewards))
        runs.append(seen)
    for one, two in zip(*runs, strict=True):
        for a, b in zip(one, two, strict=True):
            np.testing.assert_array_equal(a, b)


def test_every_seat_is_paid_each_game_once():
    """Win rewards: every seat's rewards over a game sum to its return, and the rows that
    ended show the game's winners."""
    batch = jungle_envs.make_batch("TropicRace", 64, num_players=4, seed=1)
    rng, view = np.random.default_rng(2), batch.view()
    totals, ended = np.zeros((64, 4)), 0
    for _ in range(400):
        was_over = view.terminated.copy()
        view = batch.step((rng.random(view.legal_action_mask.shape)
                           * view.legal_action_mask).argmax(axis=1))  # fmt: skip
        totals[was_over] = 0.0
        totals += view.rewards
        for i in np.flatnonzero(view.terminated):
            np.testing.assert_array_equal(totals[i], view.returns[i])
            winners = batch.winners(int(i))
            assert (view.returns[i][winners] >= 0).all() and len(winners) >= 1
            ended += 1
    assert ended > 64


def test_bad_input_is_refused_and_changes_nothing():
    batch = jungle_envs.make_batch("JungleSweep", 3, num_players=4, seed=0)
    before = batch.rows.copy(), batch.view()
    legal = before[1].legal_action_mask.argmax(axis=1)
    illegal = legal.copy()
    illegal[1] = np.flatnonzero(~before[1].legal_action_mask[1])[0]
    with pytest.raises(IllegalActionError, match=r"envs \[1\]"):
        batch.step(illegal)
    with pytest.raises(ValueError, match="out of the action space"):
        batch.step(np.array([legal[0], 99, legal[2]]))
    with pytest.raises(ValueError, match="3 integers"):
        batch.step(legal[:2])
    with pytest.raises(ValueError, match="3 integers"):
        batch.step(legal.astype(float))
    with pytest.raises(ValueError, match="3 booleans"):
        batch.reset_where([1, 0, 1])
    with pytest.raises(ValueError, match="seeds"):
        batch.reset(seed=-1)
    np.testing.assert_array_equal(batch.rows, before[0])
    np.testing.assert_array_equal(batch.view().observation, before[1].observation)
    with pytest.raises(ValueError, match="has not ended"):
        batch.winners(0)
    bad = [
        ({"opponents": ["heuristic"] * 4}, "no seat to the caller"),
        ({"opponents": [None, "ppo", None, None]}, "'ppo'"),
        ({"opponents": "heuristic"}, "one per seat"),
        ({"reward": "points"}, "reward must be one of"),
        ({"num_players": 9}, "num_players"),
        ({"colour": 3}, "colour"),
        ({"skip_forced_actions": "yes"}, "True or False"),
    ]
    for kwargs, message in bad:
        with pytest.raises(ValueError, match=message):
            jungle_envs.make_batch("JungleSweep", 2, **{"num_players": 4, **kwargs})
    with pytest.raises(ValueError, match="unknown game"):
        jungle_envs.make_batch("Chess", 2)


def test_reset_where_deals_only_the_chosen_envs():
    batch = jungle_envs.make_batch("SpankTheMonkey", 4, num_players=4, seed=3)
    view = batch.view()
    rows = batch.rows.copy()
    view = batch.step(view.legal_action_mask.argmax(axis=1))
    stepped = batch.rows.copy()
    which = np.array([True, False, True, False])
    batch.reset_where(which)
    np.testing.assert_array_equal(batch.rows[~which], stepped[~which])
    fresh = jungle_envs.make_batch("SpankTheMonkey", 4, num_players=4, seed=3)
    np.testing.assert_array_equal(fresh.rows, rows)
    assert not batch.view().terminated.any()
