"""The demo and benchmark commands run end to end (tiny budgets; no timing asserted)."""

from __future__ import annotations

import pytest

import jungle_envs
from benchmarks import step_speed


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


def test_step_speed_reports_every_env(capsys):
    rows = step_speed.main(["--seconds", "0.05", "--repeats", "1"])
    assert [row["env"] for row in rows] == jungle_envs.ENV_IDS
    for row in rows:
        assert row["engine_steps_per_s"] > 0 and row["env_steps_per_s"] > 0
    assert "engine steps/s" in capsys.readouterr().out
