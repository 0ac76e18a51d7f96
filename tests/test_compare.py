"""Paired comparison of two policies on the same games (``training.compare``)."""

from __future__ import annotations

import math

import pytest

from jungle_envs.evaluation import evaluate
from training import compare
from training import evaluate as evaluate_cli

ENV = "jungle_envs/TropicRace-v0"


def test_a_policy_paired_with_itself_differs_by_nothing_in_every_game():
    one = evaluate(ENV, "heuristic", "random", games=12, num_players=3, seed=40)
    two = evaluate(ENV, "heuristic", "random", games=12, num_players=3, seed=40)
    paired = compare.compare_results(one, two)
    assert sorted(one.outcomes) == list(range(12))
    assert paired["win_rate_difference"]["mean"] == 0.0
    assert paired["win_rate_difference"]["ci95"] == [0.0, 0.0]
    assert paired["margin_difference"]["games"] == 12


def test_the_paired_mean_is_the_difference_of_the_rates_and_workers_do_not_change_it():
    args = (ENV, "heuristic", "random", 16, 3, 7)
    strong = evaluate_cli.run_evaluation(*args, workers=2)
    weak = evaluate_cli.run_evaluation(ENV, "random", "random", 16, 3, 7, workers=1)
    assert strong.outcomes == evaluate_cli.run_evaluation(*args, workers=1).outcomes
    paired = compare.compare_results(strong, weak)
    difference = paired["win_rate_difference"]
    assert difference["mean"] == pytest.approx(strong.win_rate - weak.win_rate)
    low, high = difference["ci95"]
    assert low < difference["mean"] < high or low == high == difference["mean"]
    margins = [strong.outcomes[i][1] - weak.outcomes[i][1] for i in range(16)]
    assert paired["margin_difference"]["mean"] == pytest.approx(sum(margins) / 16)


def test_games_cut_off_by_the_step_limit_count_as_no_win_and_no_margin():
    result = evaluate(ENV, "random", "random", games=4, num_players=2, step_limit=3)
    assert all(credit == 0.0 and math.isnan(margin) for credit, margin in result.outcomes.values())
    paired = compare.compare_results(result, result)
    assert paired["margin_difference"]["games"] == 0


def test_evaluations_of_different_games_are_refused():
    one = evaluate(ENV, "random", "random", games=3, num_players=2, seed=0)
    two = evaluate(ENV, "random", "random", games=4, num_players=2, seed=0)
    with pytest.raises(ValueError, match="same games"):
        compare.compare_results(one, two)


def test_the_command_prints_the_paired_interval(capsys):
    data = compare.main(["--env", "TropicRace", "--players", "2", "--agent", "heuristic",
                         "--baseline", "random", "--opponents", "random", "--games", "10",
                         "--seed", "3", "--quiet"])  # fmt: skip
    out = capsys.readouterr().out
    assert "paired difference" in out and data["games"] == 10 and data["agent"] == "heuristic"
    assert data["win_rate_difference"]["games"] == 10


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--games", "1"], "--games must be an integer >= 2"),
        (["--players", "9"], "--players must be from"),
        (["--baseline", "nobody"], "--baseline"),
        (["--opponents", "random,nobody"], "--opponents"),
    ],
)
def test_bad_arguments_fail_in_one_line_before_any_game(argv, message, capsys):
    with pytest.raises(SystemExit) as stop:
        compare.main(["--env", "TropicRace", "--agent", "random", *argv])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1
