"""Imitation warm start (training.imitate): the student learns the teacher's moves on the
states it reaches, its value head the returns, and PPO continues from the saved model."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from jungle_envs import agents
from jungle_envs.maskable_ppo import MaskablePPOPolicy
from jungle_envs.sb3 import CompiledVecEnv
from training import imitate, ship, train
from training.common import new_model

ENV = "jungle_envs/TropicRace-v0"
SMALL = ["--set", "ppo.net_arch=[32,32]"]


def test_fitting_the_teachers_moves_raises_agreement_and_returns_are_the_results():
    venv = CompiledVecEnv(ENV, num_envs=8, seed=3, num_players=2, opponents="heuristic")
    model = new_model(venv, seed=0, policy_kwargs={"net_arch": [32, 32]}, n_steps=64,
                      batch_size=64, learning_rate=3e-3)  # fmt: skip
    rng = np.random.default_rng(0)
    data, _ = imitate.collect(model, venv, venv.reset(), 1024, 1.0, 1.0, rng)
    obs, masks, teacher, returns = data
    assert masks[np.arange(len(teacher)), teacher].all()  # the teacher moves legally
    known = returns[~np.isnan(returns)]
    assert known.size and set(np.unique(known)) <= {-1.0, 0.0, 1.0}  # win reward, gamma 1
    before = imitate.agreement(model, obs, masks, teacher)
    imitate.fit(model, data, epochs=15, vf_coef=0.5, seed=0)
    after = imitate.agreement(model, obs, masks, teacher)
    assert after > before + 0.1 and after > 0.6, (before, after)
    venv.close()


def test_imitate_saves_a_model_that_plays_and_that_training_continues(tmp_path):
    out = tmp_path / "imitated"
    model = imitate.main(["--env", ENV, "--players", "2", "--rounds", "2", "--steps", "256",
                          "--epochs", "2", "--n-envs", "8", "--out", str(out), *SMALL])  # fmt: skip
    log = json.loads((out / "imitation.json").read_text())["rounds"]
    assert [r["beta"] for r in log] == [1.0, 0.5] and log[1]["decisions"] > log[0]["decisions"]
    policy = MaskablePPOPolicy(str(model))
    assert policy.trained_on["env"] == ENV and policy.trained_on["num_players"] == 2
    run = tmp_path / "run"
    train.main(["--env", ENV, "--players", "2", "--timesteps", "128", "--n-envs", "8",
                "--out", str(run), "--set", f"init={model}", "--set", "ppo.n_steps=16",
                "--set", "ppo.batch_size=64", "--set", "eval.freq=10000", "--no-progress",
                *SMALL])  # fmt: skip
    assert (run / "model.zip").is_file()


def test_an_init_model_of_another_network_is_one_line(tmp_path, capsys):
    model = imitate.main(["--env", ENV, "--players", "2", "--rounds", "1", "--steps", "64",
                          "--epochs", "1", "--n-envs", "8", "--out", str(tmp_path / "m"),
                          *SMALL])  # fmt: skip
    with pytest.raises(SystemExit) as exit_info:
        train.main(["--env", ENV, "--players", "2", "--timesteps", "64", "--n-envs", "8",
                    "--out", str(tmp_path / "run"), "--set", f"init={model}",
                    "--set", "ppo.net_arch=[16,16]", "--no-progress"])  # fmt: skip
    assert exit_info.value.code == 2
    assert "does not fit this run's network" in capsys.readouterr().err


def test_a_config_with_imitation_rounds_warm_starts_the_run_in_one_command(
    tmp_path, capsys, monkeypatch
):
    run = tmp_path / "run"
    common = ["--timesteps", "128", "--n-envs", "8", "--no-progress"]
    train.main(["--env", ENV, "--players", "2", "--out", str(run), *common,
                "--set", "imitate.rounds=1", "--set", "imitate.steps=128",
                "--set", "imitate.epochs=1", "--set", "ppo.n_steps=16",
                "--set", "ppo.batch_size=64", "--set", "eval.freq=10000", *SMALL])  # fmt: skip
    record = json.loads((run / "imitate" / "imitation.json").read_text())
    assert record["players"] == 2 and len(record["rounds"]) == 1
    assert "imitation warm start" in capsys.readouterr().out
    assert (run / "model.zip").is_file()
    stamp = (run / "imitate" / "model.zip").stat().st_mtime_ns
    train.main(["--resume", str(run), "--timesteps", "256"])
    assert (run / "imitate" / "model.zip").stat().st_mtime_ns == stamp  # not imitated again
    capsys.readouterr()
    # shipping picks among the warm start, the checkpoints and the final model
    folder = tmp_path / "agents"
    folder.mkdir()
    monkeypatch.setattr(agents, "AGENTS_DIR", folder)
    monkeypatch.setattr(agents, "MANIFEST", folder / "manifest.json")
    agents._load.cache_clear()
    ship.main([str(run), "--select", "2", "--workers", "1", "--dest", str(folder)])
    record = json.loads((folder / "manifest.json").read_text())["TropicRace-2p"]
    assert {"imitate/model.zip", "model.zip"} <= set(record["selected"]["win_rates"])
    agents._load.cache_clear()


def test_bad_imitation_settings_are_one_line(tmp_path, capsys):
    with pytest.raises(SystemExit):
        train.main(["--env", ENV, "--out", str(tmp_path / "r"), "--set", "imitate.rounds=-1"])
    err = capsys.readouterr().err.strip()
    assert "imitate.rounds" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize(
    ("opponents", "curriculum", "expected"),
    [
        ("self", [], "heuristic"),  # a pool of snapshots does not exist yet
        ({"heuristic": 0.7, "pool": 0.3}, [], {"heuristic": 0.7}),
        ("random,heuristic", [], ["random", "heuristic"]),
        ("random", [{"from": 0.0, "opponents": {"random": 1.0, "pool": 0.0}}], {"random": 1.0}),
        ({"pool": 1.0}, [], "heuristic"),
    ],
)
def test_imitation_plays_the_runs_first_opponents_that_the_compiled_env_can(
    opponents, curriculum, expected
):
    config = {"opponents": opponents, "curriculum": curriculum}
    assert imitate.first_opponents(config) == expected
