"""The win reward with the coconut draw averaged out (``training.luck``) and its use in
``training.allseat --average-luck``."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import jungle_envs
from jungle_envs.core.game import CHANCE
from training import allseat, luck
from training.luck import expected_returns, seat_returns


def finished_states(players, games, seed, **options):
    """Final states and returns of random-play games on the rules engine."""
    game = jungle_envs.make_game("JungleSweep", num_players=players, **options)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(games):
        state = game.new_state()
        while not game.is_terminal(state):
            if game.current_player(state) == CHANCE:
                game.apply_chance(state, game.sample_chance(state, rng))
            else:
                game.apply_action(state, int(rng.choice(game.legal_actions(state))))
        out.append((game, state, game.returns(state)))
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_the_ranking_on_the_actual_deal_is_the_games_own(players):
    for _, state, returns in finished_states(players, 25, 100 * players):
        sums = np.array([[sum(c) for c in state.coconuts]])
        counts = np.array([len(c) for c in state.coconuts])
        assert seat_returns(sums, counts, players)[0].tolist() == list(returns)


def exact_mean_returns(values, box, counts, players):
    """The mean over every distinct deal of the box (each multiset order equally likely)."""
    coconuts = [v for v, n in zip(values, box, strict=True) for _ in range(n)]
    deals = set(itertools.permutations(coconuts))
    total = np.zeros(players)
    edges = np.concatenate([[0], np.cumsum(counts)])
    for deal in deals:
        sums = np.array([[sum(deal[a:b]) for a, b in itertools.pairwise(edges)]])
        total += seat_returns(sums, np.array(counts), players)[0]
    return total / len(deals)


@pytest.mark.parametrize(
    "values,box,counts,players",
    [((0, 1, 2, 3), (1, 2, 2, 2), (2, 3, 1, 1), 4),  # one monkey a seat, ties on value
     ((1, 2, 4), (3, 2, 1), (2, 1, 1, 2), 2),  # two monkeys a seat: team sum, best monkey
     ((1, 3), (3, 2), (1, 2, 1), 3)],  # one coconut left in the box (set aside)
)  # fmt: skip
def test_the_averaged_reward_is_the_mean_over_every_deal(values, box, counts, players):
    got = luck._mean_returns(values, box, counts, players)
    # SAMPLES deals: a standard error under 0.01; 0.03 is three of them
    assert np.asarray(got) == pytest.approx(exact_mean_returns(values, box, counts, players),
                                            abs=0.03)  # fmt: skip


def test_the_same_counts_pay_the_same_whatever_values_were_drawn():
    states = [s for _, s, _ in finished_states(4, 200, 7)]
    game = jungle_envs.make_game("JungleSweep", num_players=4)
    by_counts = {}
    for state in states:
        key = tuple(len(c) for c in state.coconuts)
        paid = expected_returns(game.config, state)
        if key in by_counts:
            assert paid.tolist() == by_counts[key].tolist()
        by_counts[key] = paid
    assert len(by_counts) < len(states)  # some count vectors came twice
    # a seat with more coconuts than every other is paid more than one with fewer
    for key, paid in by_counts.items():
        most, least = int(np.argmax(key)), int(np.argmin(key))
        if key[most] > key[least]:
            assert paid[most] > paid[least]


def test_over_many_games_it_pays_what_the_win_reward_pays_on_average():
    finished = finished_states(4, 400, 11)
    drawn = np.array([r for _, _, r in finished])
    averaged = np.array([expected_returns(g.config, s) for g, s, _ in finished])
    assert averaged.var(axis=0).mean() < 0.8 * drawn.var(axis=0).mean()  # less noise
    # the same mean: the difference's standard error over 400 games is about 0.03
    assert np.abs(averaged.mean(axis=0) - drawn.mean(axis=0)).max() < 0.12


MOVES = {"move_features": True}


def small_js_model():
    import argparse

    args = argparse.Namespace(game="JungleSweep", players=4, init=None, option=[],
                              learning_rate=1e-4, ent_coef=0.0, batch_size=64, epochs=1,
                              threads=1, seed=0, vf_coef=None)  # fmt: skip
    return allseat.build_model(args, "jungle_envs/JungleSweep-v0", MOVES)


def test_allseat_pays_each_finished_lane_the_averaged_reward():
    model = small_js_model()
    trainer = allseat.AllSeatTrainer(model, "JungleSweep", 4, ["learner"] * 4, MOVES, num_envs=8,
                                     rollout=400, seed=3, average_luck=True)  # fmt: skip
    paid = []
    original = trainer.pay_averaged

    def spy(view, ended):
        states = [trainer.batch.twin.unpack(trainer.batch.rows[i]) for i in ended]
        original(view, ended)
        for i, state in zip(ended, states, strict=True):
            assert view.rewards[i].tolist() == expected_returns(trainer.batch.game.config,
                                                                state).tolist()  # fmt: skip
            paid.extend(view.rewards[i].tolist())

    trainer.pay_averaged = spy
    trainer.collect()
    lanes = trainer.lanes
    order, _ = lanes.advantages(model.gamma, model.gae_lambda)
    finals = order[lanes.final[order]]
    assert trainer.games > 0 and len(finals) == 4 * trainer.games
    assert sorted(lanes.rewards[finals].tolist()) == pytest.approx(sorted(paid))
    assert not set(lanes.rewards[finals].tolist()) <= {-1.0, 0.0, 1.0}  # means, not draws


@pytest.mark.parametrize(
    "game,option,message",
    [("TropicRace", [], "a final draw no decision affects"),
     ("JungleSweep", ["--option", "reward=score"], "reward 'win', not 'score'")],
)  # fmt: skip
def test_average_luck_is_refused_where_there_is_no_draw_to_average(
    tmp_path, capsys, game, option, message
):
    with pytest.raises(SystemExit):
        allseat.main(["--game", game, "--players", "4", "--out", str(tmp_path / "x"),
                      "--average-luck", *option])  # fmt: skip
    assert message in capsys.readouterr().err
    assert not (tmp_path / "x").exists()
    with pytest.raises(ValueError, match=message):
        luck.check_averaged(game, "score" if option else "win")


def test_the_command_prints_both_rewards_per_seat(capsys):
    luck.main(["--players", "3", "--games", "30", "--seed", "5"])
    lines = capsys.readouterr().out.splitlines()
    rows = [line.split() for line in lines[2:5]]
    assert [int(r[0]) for r in rows] == [0, 1, 2]
    drawn, averaged = luck.heuristic_games(3, 30, 5)
    for seat, row in enumerate(rows):
        assert float(row[1]) == pytest.approx(drawn[:, seat].mean(), abs=5e-4)
        assert float(row[4]) == pytest.approx(averaged[:, seat].var(), abs=5e-4)
    assert "of the win reward's variance" in lines[-1]


@pytest.mark.parametrize("argv", [["--games", "1"], ["--players", "7", "--games", "5"]])
def test_the_command_refuses_what_it_cannot_measure(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        luck.main(argv)
    assert exit_info.value.code == 2
    assert "error:" in capsys.readouterr().err
