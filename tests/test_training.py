"""Training tools end to end on tiny budgets: train, checkpoint, resume, evaluate, rate."""

from __future__ import annotations

import json

import numpy as np
import pytest

import jungle_envs

pytest.importorskip("sb3_contrib")

from training import evaluate as evaluate_cli
from training import results, tournament, train
from training.config import load_config
from training.selfplay import SnapshotPool

ENV_IDS = [pytest.param(env_id, id=env_id.split("/")[1]) for env_id in jungle_envs.ENV_IDS]
TINY = [  # no imitation stage (tests/test_imitate.py runs it)
    "--set",
    "imitate.rounds=0",
    "--set",
    "ppo.n_steps=64",
    "--set",
    "ppo.batch_size=64",
    "--set",
    "ppo.n_epochs=1",
    "--set",
    "checkpoint_freq=128",
    "--set",
    "eval.freq=128",
    "--set",
    "eval.games=2",
    "--set",
    "ppo.net_arch=[32,32]",
    "--no-progress",
]


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_train_checkpoint_resume_and_evaluate(env_id, tmp_path):
    out = tmp_path / "run"
    train.main(["--env", env_id, "--timesteps", "256", "--n-envs", "2", "--out", str(out), *TINY])
    for name in (
        "model.zip",
        "config.json",
        "versions.json",
        "summary.json",
        "learning_curve.png",
        "logs/session-0/progress.csv",
    ):
        assert (out / name).exists(), name
    first = json.loads((out / "checkpoints" / "latest.json").read_text())
    assert first["timesteps"] >= 256
    config = json.loads((out / "config.json").read_text())
    assert config["env"] == env_id and config["ppo"]["n_steps"] == 64

    train.main(["--resume", str(out), "--timesteps", "512", "--no-progress"])
    second = json.loads((out / "checkpoints" / "latest.json").read_text())
    assert second["timesteps"] >= 512 > first["timesteps"]
    assert (out / "logs" / "session-1" / "progress.csv").exists()

    options = [
        f"--option={key}={json.dumps(value)}" for key, value in config["env_options"].items()
    ]
    result = evaluate_cli.main(
        ["--env", env_id, "--agent", str(out / "model.zip"), "--games", "4", "--json", *options]
    )
    assert result["games"] == 4 and result["illegal_actions"] == 0


def test_self_play_pools_snapshots_and_swaps_only_between_episodes(tmp_path):
    out = tmp_path / "selfplay"
    env_id = "jungle_envs/JungleSweep-v0"
    train.main(
        [
            "--env",
            env_id,
            "--opponents",
            "self",
            "--timesteps",
            "256",
            "--n-envs",
            "2",
            "--out",
            str(out),
            "--set",
            "self_play.snapshot_freq=64",
            *TINY,
        ]
    )
    pool = json.loads((out / "pool" / "pool.json").read_text())
    assert len(pool) >= 2 and all((out / "pool" / name).exists() for name in pool)

    options = json.loads((out / "config.json").read_text())["env_options"]
    seat = SnapshotPool(out / "pool", env_id, 4, options, ["heuristic"], fixed_ratio=0.5)
    rng = np.random.default_rng(0)
    chosen = set()
    for _ in range(20):
        seat.start_episode(rng)
        current = seat.current
        game = jungle_envs.make_game(env_id, **options)
        obs = np.zeros(game.observation_size, np.float32)
        mask = np.zeros(game.spec.num_actions, bool)
        mask[[0, 2]] = True
        for _ in range(3):
            assert seat.act(obs, mask, rng) in (0, 2)
            assert seat.current is current  # no swap inside an episode
        chosen.add(seat.current_name)
    assert "heuristic" in chosen and chosen & set(pool)


def test_evaluation_does_not_depend_on_the_number_of_workers():
    args = ("jungle_envs/TropicRace-v0", "random", "random", 12, 3, 5)
    one = evaluate_cli.run_evaluation(*args, workers=1)
    two = evaluate_cli.run_evaluation(*args, workers=2)
    assert one.wins == pytest.approx(two.wins)  # summed in another order
    assert (one.score_total, one.decisions, one.games) == (two.score_total, two.decisions, 12)


def test_evaluate_passes_game_options_to_the_env(capsys):
    data = evaluate_cli.main(
        [
            "--env",
            "jungle_envs/JungleSweep-v0",
            "--agent",
            "random",
            "--games",
            "2",
            "--option",
            "move_features=true",
            "--json",
        ]
    )
    assert data["games"] == 2
    # the option reached the env: a game option it does not know is refused by name
    with pytest.raises(ValueError, match="no_such_option"):
        evaluate_cli.main(
            ["--env", "jungle_envs/JungleSweep-v0", "--games", "1", "--option", "no_such_option=1"]
        )
    with pytest.raises(SystemExit):
        evaluate_cli.parse_args(["--option", "move_features"])
    assert "KEY=VALUE" in capsys.readouterr().err


def test_tournament_rates_the_heuristic_above_random():
    table = tournament.main(
        ["--env", "jungle_envs/TropicRace-v0", "--policies", "random", "heuristic", "--games", "20"]
    )
    assert [name for name, _ in table] == ["heuristic", "random"]
    assert table[0][1] > table[1][1]


def test_bradley_terry_recovers_the_order_of_strengths():
    wins = np.array([[0, 30, 45], [20, 0, 35], [5, 15, 0]], dtype=float)
    ratings = tournament.elo(tournament.bradley_terry(wins))
    assert ratings[0] > ratings[1] > ratings[2] and abs(ratings.mean() - 1500) < 1e-6


def test_config_files_and_overrides():
    config = load_config("jungle_envs/TropicRace-v0", overrides=["ppo.learning_rate=0.001"])
    assert config["env"] == "jungle_envs/TropicRace-v0" and config["ppo"]["learning_rate"] == 0.001
    with pytest.raises(ValueError, match="unknown config key"):
        load_config("jungle_envs/TropicRace-v0", overrides=["ppo.lr=1"])
    with pytest.raises(ValueError, match=r"key\.sub=value"):
        load_config("jungle_envs/TropicRace-v0", overrides=["oops"])
    # game options are open: the env checks them when the run starts
    config = load_config("jungle_envs/JungleSweep-v0", overrides=["env_options.move_features=true"])
    assert config["env_options"] == {"move_features": True}


def test_train_refuses_an_unknown_game_option_before_starting(tmp_path):
    out = tmp_path / "run"
    with pytest.raises(ValueError, match="no_such_option"):
        train.main(
            [
                "--env",
                "jungle_envs/JungleSweep-v0",
                "--out",
                str(out),
                "--set",
                "env_options.no_such_option=1",
            ]
        )
    assert not out.exists()


def test_results_table_evaluates_a_run_and_a_chosen_checkpoint(tmp_path, capsys, monkeypatch):
    from jungle_envs import agents

    monkeypatch.setattr(agents, "MANIFEST", tmp_path / "no-manifest.json")  # no shipped agent
    runs = tmp_path / "runs"
    train.main(
        [
            "--env",
            "jungle_envs/TropicRace-v0",
            "--players",
            "2",
            "--timesteps",
            "256",
            "--n-envs",
            "2",
            "--out",
            str(runs / "TropicRace-2p"),
            "--set",
            "keep_checkpoints=10",
            *TINY,
        ]
    )
    run = runs / "TropicRace-2p"
    checkpoint = run / "checkpoints" / "step-0000000128.zip"
    assert checkpoint.exists()
    page = tmp_path / "page.md"
    page.write_text(f"before\n{results.START}\nold\n{results.END}\nafter\n")
    args = ["--runs", str(runs), "--games", "4", "--workers", "1", "--players", "2"]
    rows = results.main(
        [*args, "--game", "TropicRace", "--images", str(tmp_path / "img"), "--write", str(page)]
    )
    (row,) = rows
    assert row["agent"] == str(run / "model.zip") and row["timesteps"] >= 256
    for key in ("agent_heuristic", "heuristic_heuristic", "agent_random", "heuristic_random"):
        assert row[key]["games"] == 4 and row[key]["illegal_actions"] == 0
        lo, hi = row[key]["margin_ci95"]
        assert lo <= row[key]["mean_margin"] <= hi
    text = page.read_text()
    assert "old" not in text and text.startswith("before") and text.endswith("after\n")
    assert "| TropicRace | 2 |" in text and (tmp_path / "img" / "TropicRace-2p_curve.png").exists()
    # a checkpoint: its steps and the wall time the run had taken then
    (row,) = results.main([*args, "--game", "TropicRace", "--model", f"TropicRace-2p={checkpoint}"])
    assert row["timesteps"] == 128 and row["wall_seconds"] >= 0
    assert results.main([*args, "--game", "JungleSweep"]) == []  # no agent: skipped
    with pytest.raises(SystemExit):
        results.main([*args, "--model", "TropicRace"])
    assert "GAME-Np=PATH" in capsys.readouterr().err


def test_targets_are_judged_with_intervals_and_margins():
    def cell(rate, lo, hi, margin=0.0):
        return {"win_rate": rate, "ci95": [lo, hi], "mean_margin": margin}

    row = {
        "agent_heuristic": cell(0.40, 0.37, 0.43),
        "heuristic_heuristic": cell(0.25, 0.22, 0.28),
        "agent_random": cell(0.80, 0.77, 0.83),
        "heuristic_random": cell(0.75, 0.72, 0.78),
    }
    assert results.verdicts(row) == ("met", "met")
    row["heuristic_heuristic"] = cell(0.38, 0.35, 0.41)
    assert results.verdicts(row)[0].startswith("missed: higher by 0.020")
    row["agent_random"] = cell(1.0, 0.99, 1.0, margin=20.0)
    row["heuristic_random"] = cell(1.0, 0.99, 1.0, margin=30.5)
    assert results.verdicts(row)[1] == "missed: margin lower by 10.5"


def test_a_wall_time_budget_stops_training_and_drives_the_curriculum(tmp_path):
    out = tmp_path / "timed"
    train.main(
        [
            "--env",
            "jungle_envs/TropicRace-v0",
            "--timesteps",
            "10000000",
            "--n-envs",
            "4",
            "--out",
            str(out),
            "--set",
            "wall_seconds=3",
            *TINY,
        ]
    )
    summary = json.loads((out / "summary.json").read_text())
    assert 0 < summary["timesteps"] < 10_000_000 and 3 <= summary["wall_seconds"] < 60
    # resuming a run whose wall budget is spent trains no further
    train.main(["--resume", str(out), "--no-progress"])
    assert json.loads((out / "summary.json").read_text())["timesteps"] == summary["timesteps"]
    # the curriculum follows whichever budget runs out first (earlier sessions count too)
    timed = train.CheckpointCallback(out, 100, 1, wall_before=30.0, wall_budget=60.0)
    assert 0.5 <= timed.progress(total_steps=10**9) < 0.6
    stepped = train.CheckpointCallback(out, 100, 1, wall_before=30.0, wall_budget=None)
    stepped.num_timesteps = 250
    assert stepped.progress(total_steps=1000) == 0.25


def test_opponents_on_the_command_line_replace_the_configs_curriculum():
    config, _, _ = train.resolve(train.parse_args(["--env", "jungle_envs/TropicRace-v0"]))
    assert config["curriculum"] and config["wall_seconds"] == 1800
    args = train.parse_args(["--env", "jungle_envs/TropicRace-v0", "--opponents", "random"])
    config, _, _ = train.resolve(args)
    assert config["curriculum"] == [] and config["opponents"] == "random"


def test_a_model_carries_the_env_it_was_trained_on(tmp_path):
    from jungle_envs.core.policies import make_policy
    from jungle_envs.evaluation import evaluate
    from jungle_envs.maskable_ppo import trained_on
    from training.common import make_vec_env, mark_trained_on, new_model

    env_id, options = "jungle_envs/JungleSweep-v0", {"move_features": True}
    venv = make_vec_env(env_id, n_envs=2, num_players=3, **options)
    model = new_model(venv, n_steps=32, batch_size=32, policy_kwargs={"net_arch": [8]})
    mark_trained_on(model, env_id, 3, options)
    model.save(tmp_path / "m.zip")
    assert trained_on(tmp_path / "m.zip") == {
        "env": env_id,
        "num_players": 3,
        "env_options": options,
    }
    # Evaluated without options, it gets its own player count and move features.
    result = evaluate(env_id, str(tmp_path / "m.zip"), "random", games=3)
    assert result.num_players == 3 and result.illegal_actions == 0
    # As an opponent in a game it was not trained for, it is refused by name.
    for game in (
        jungle_envs.make_game(env_id, 4, move_features=True),
        jungle_envs.make_game(env_id, 4),
        jungle_envs.make_game(env_id, 3, coconuts={1: 8, 2: 8}),
        jungle_envs.make_game("TropicRace", 3),
    ):
        with pytest.raises(ValueError, match="trained on jungle_envs/JungleSweep-v0 with 3"):
            make_policy(str(tmp_path / "m.zip"), game)


def test_a_curriculum_switches_the_opponents_during_training(tmp_path):
    import csv

    out = tmp_path / "curriculum"
    stages = [
        {"from": 0.0, "opponents": {"random": 1}},
        {"from": 0.5, "opponents": {"heuristic": 1}},
    ]
    train.main(
        [
            "--env",
            "jungle_envs/TropicRace-v0",
            "--timesteps",
            "512",
            "--n-envs",
            "4",
            "--out",
            str(out),
            "--set",
            f"curriculum={json.dumps(stages)}",
            *TINY,
        ]
    )
    rows = list(csv.DictReader((out / "logs" / "session-0" / "progress.csv").open()))
    seen = [float(r["curriculum/stage"]) for r in rows if r.get("curriculum/stage")]
    assert seen[0] == 0.0 and seen[-1] == 1.0
    # the learning curve marks where each stage began, with its opponents
    from training import plot

    changes = plot.stage_changes(out)
    assert [label for _, label in changes] == ["stage 1: random 1", "stage 2: heuristic 1"]
    assert changes[0][0] < changes[1][0] <= 512
    assert plot.plot_run(out).is_file()
    with pytest.raises(SystemExit, match="curriculum"):
        train.main(
            [
                "--env",
                "jungle_envs/TropicRace-v0",
                "--opponents",
                "self",
                "--set",
                f"curriculum={json.dumps(stages)}",
                "--out",
                str(tmp_path / "x"),
            ]
        )


def test_a_league_pool_of_snapshots_plays_its_share_of_the_seats(tmp_path):
    import csv

    out = tmp_path / "league"
    stages = [
        {"from": 0.0, "opponents": {"random": 1}},
        {"from": 0.25, "opponents": {"heuristic": 1, "pool": 1}},
    ]
    train.main(
        [
            "--env",
            "jungle_envs/TropicRace-v0",
            "--players",
            "2",
            "--timesteps",
            "768",
            "--n-envs",
            "4",
            "--out",
            str(out),
            "--set",
            f"curriculum={json.dumps(stages)}",
            "--set",
            "league.snapshot_freq=256",
            "--set",
            "league.pool_size=2",
            *TINY,
        ]
    )
    rows = list(csv.DictReader((out / "logs" / "session-0" / "progress.csv").open()))
    sizes = [float(r["league/pool_size"]) for r in rows if r.get("league/pool_size")]
    assert sizes and max(sizes) == 2.0  # snapshots joined, the oldest left
    with pytest.raises(SystemExit, match="league pool"):
        train.main(
            ["--env", "jungle_envs/TropicRace-v0", "--out", str(tmp_path / "x"), "--set",
             'opponents={"pool": 1}', "--set", "vec_env=python"]
        )  # fmt: skip
    assert not (tmp_path / "x").exists()


def test_evaluation_reports_the_score_margin_over_the_best_opponent():
    from jungle_envs.evaluation import evaluate

    env_id = "jungle_envs/ElephantFestival-v0"
    strong = evaluate(env_id, "heuristic", "random", games=20, num_players=3)
    weak = evaluate(env_id, "random", "heuristic", games=20, num_players=3)
    assert strong.mean_margin > 0 > weak.mean_margin
    for result in (strong, weak):
        lo, hi = result.margin_ci95
        assert lo < result.mean_margin < hi
    assert "margin over the best opponent" in strong.summary()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_evaluation_counts_games_cut_off_by_a_step_limit_apart(env_id):
    from jungle_envs.evaluation import evaluate

    for limit in (1, 3, 10, 40):
        result = evaluate(env_id, "random", "random", games=6, max_episode_steps=limit)
        assert result.games == 6 and result.illegal_actions == 0
        assert result.truncated + result.scored_games == 6
        assert result.wins <= result.scored_games
    assert evaluate(env_id, "random", "random", games=3, max_episode_steps=1).truncated == 3
