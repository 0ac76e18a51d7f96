"""The demo and benchmark commands run end to end (tiny budgets; no timing asserted)."""

from __future__ import annotations

import json

import pytest

import jungle_envs
from benchmarks import hotspots, step_speed


def test_demo_trains_saves_and_reports_win_rates(tmp_path, capsys):
    pytest.importorskip("sb3_contrib")
    from training import demo

    rates = demo.main(
        [
            "--timesteps",
            "256",
            "--n-envs",
            "2",
            "--eval-games",
            "8",
            "--out",
            str(tmp_path),
            "--no-progress",
        ]
    )
    assert (tmp_path / "jungle_sweep_maskable_ppo.zip").exists()
    assert set(rates) == {"MaskablePPO agent", "heuristic", "random"}
    assert all(0.0 <= r <= 1.0 for r in rates.values())
    out = capsys.readouterr().out
    assert "MaskablePPO agent" in out and "95% CI" in out


def test_step_speed_reports_every_env_and_player_count(capsys, tmp_path):
    rows = step_speed.main(
        [
            "--seconds",
            "0.02",
            "--repeats",
            "1",
            "--no-vector",
            "--json",
            str(tmp_path / "speed.json"),
        ]
    )
    expected = [
        (env_id, n)
        for env_id in jungle_envs.ENV_IDS
        for n in jungle_envs.game_class(env_id).spec.player_counts
    ]
    assert [(row["env"], row["players"]) for row in rows] == expected
    for row in rows:
        for column in ("engine", "twin", "env_ref", "env_twin"):
            assert row[column]["steps_per_s"] > 0
        assert row["peak_mib"] > 0
    assert "engine" in capsys.readouterr().out
    assert len(json.loads((tmp_path / "speed.json").read_text())["rows"]) == len(expected)


def test_step_speed_measures_vector_envs():
    (row,) = step_speed.main(
        [
            "--env",
            "jungle_envs/TropicRace-v0",
            "--players",
            "2",
            "--seconds",
            "0.05",
            "--repeats",
            "1",
            "--python-vectors",
        ]
    )
    compiled = [f"vec{n}x{t}" for n in (1, 64, 1024) for t in (1, 2)]
    python = ["sync_2", "sync_8", "async_2", "async_8", "batched_2", "batched_8"]
    for setup in compiled + python:
        assert row[setup]["steps_per_s"] > 0


def test_hotspots_name_the_games_own_functions(capsys):
    found = hotspots.main(["--env", "jungle_envs/TropicRace-v0", "--steps", "300", "--top", "5"])
    rows = found["jungle_envs/TropicRace-v0"]
    assert len(rows) == 5 and all(0 < share <= 1 for share, _ in rows)
    assert [share for share, _ in rows] == sorted((share for share, _ in rows), reverse=True)
    assert any("jungle_envs/games/tropic_race/" in where for _, where in rows)
    assert "300 env steps" in capsys.readouterr().out


def test_training_speed_measures_both_setups_on_the_same_config(tmp_path):
    pytest.importorskip("sb3_contrib")
    from benchmarks import training_speed

    out = tmp_path / "speed.json"
    results = training_speed.main(
        ["--game", "TropicRace", "--seconds", "1", "--players", "2", "--json", str(out)]
    )
    assert set(results["TropicRace"]) == {"python", "compiled"}
    assert all(rate > 0 for rate in results["TropicRace"].values())
    assert json.loads(out.read_text()) == results


def test_training_speed_trains_the_configs_move_policy_on_one_setup(capsys):
    pytest.importorskip("sb3_contrib")
    from benchmarks import training_speed

    results = training_speed.main(
        ["--game", "JungleSweep", "--seconds", "1", "--players", "2", "--setup", "compiled"]
    )
    assert set(results["JungleSweep"]) == {"compiled"} and results["JungleSweep"]["compiled"] > 0
    assert "| JungleSweep | moves |" in capsys.readouterr().out


def test_training_speed_puts_the_move_policy_on_a_game_whose_config_has_none(capsys):
    pytest.importorskip("sb3_contrib")
    from benchmarks import training_speed

    config = training_speed.game_config("SpankTheMonkey", "moves")
    assert config["policy"] == "moves" and config["env_options"]["move_features"] is True
    results = training_speed.main(
        ["--game", "SpankTheMonkey", "--seconds", "1", "--players", "2", "--setup", "compiled",
         "--policy", "moves"]
    )  # fmt: skip
    assert results["SpankTheMonkey"]["compiled"] > 0
    assert "| SpankTheMonkey | moves |" in capsys.readouterr().out


def test_own_script_times_every_setup_on_the_requested_steps(tmp_path, capsys):
    pytest.importorskip("sb3_contrib")
    from benchmarks import own_script

    out = tmp_path / "own.json"
    results = own_script.main(
        ["--env", "tropic_race", "--steps", "128", "--players", "2", "--json", str(out)]
    )
    assert list(results) == list(own_script.SETUPS)
    for setup, row in results.items():
        assert row["seconds"] > 0 and row["steps"] >= 128, setup
    # SB3's defaults collect whole rollouts of 2,048 steps on one env
    assert results["script"]["steps"] == 2048
    assert results["script-subprocess-1-thread"]["threads"] == 1
    assert json.loads(out.read_text()) == results
    table = capsys.readouterr().out
    assert all(f"| {setup} |" in table for setup in own_script.SETUPS)


def test_search_speed_times_every_budget(tmp_path, capsys):
    from benchmarks import search_speed

    out = tmp_path / "search.json"
    results = search_speed.main(
        ["--game", "JungleSweep", "--simulations", "4", "8", "--positions", "3", "--json",
         str(out)]
    )  # fmt: skip
    rows = results["JungleSweep"]
    assert sorted(rows) == [4, 8]
    assert all(row["seconds_per_decision"] > 0 for row in rows.values())
    assert json.loads(out.read_text()) == {"JungleSweep": {str(k): v for k, v in rows.items()}}
    assert "| JungleSweep | mcts | 8 |" in capsys.readouterr().out


def test_search_speed_times_the_guided_search_beside_the_plain_one(capsys):
    pytest.importorskip("sb3_contrib")
    from benchmarks import search_speed

    results = search_speed.main(
        ["--game", "TropicRace", "--simulations", "4", "--positions", "2", "--guided"]
    )
    assert set(results) == {"TropicRace", "TropicRace/mcts+ppo"}
    assert results["TropicRace/mcts+ppo"][4]["seconds_per_decision"] > 0
    assert "| TropicRace | mcts+ppo | 4 |" in capsys.readouterr().out


def test_search_speed_times_leaf_values_and_says_where_there_are_none(capsys):
    pytest.importorskip("sb3_contrib")
    from benchmarks import search_speed

    results = search_speed.main(
        ["--game", "TropicRace", "ElephantFestival", "--simulations", "4", "--positions", "2",
         "--leaf", "0.5"]
    )  # fmt: skip
    assert set(results) == {"TropicRace", "TropicRace/mcts+ppo:leaf=0.5", "ElephantFestival"}
    assert results["TropicRace/mcts+ppo:leaf=0.5"][4]["seconds_per_decision"] > 0
    table = capsys.readouterr().out
    assert "| TropicRace | mcts+ppo:leaf=0.5 | 4 |" in table
    assert "| ElephantFestival | mcts+ppo:leaf=0.5 | not available: " in table
    assert "reward='margin'" in table
    with pytest.raises(SystemExit):
        search_speed.main(["--game", "TropicRace", "--leaf", "1.5"])
