"""The command-line tools: --help with every default, short env ids, clear failures."""

from __future__ import annotations

import importlib
import re

import pytest

import jungle_envs
from jungle_envs.core.registry import resolve_env_id

COMMANDS = [
    "training.train",
    "training.evaluate",
    "training.plot",
    "training.results",
    "training.tournament",
    "training.ladder",
    "training.demo",
    "training.ship",
    "training.allseat",
    "training.sharpen",
    "training.gradient_share",
    "training.luck",
    "training.rollout_gaps",
    "training.advantage",
    "benchmarks.step_speed",
    "benchmarks.peers",
    "benchmarks.compiled",
    "benchmarks.hotspots",
    "benchmarks.history",
    "benchmarks.training_share",
    "benchmarks.training_speed",
    "benchmarks.own_script",
    "benchmarks.search_speed",
]


def help_text(module: str, capsys) -> str:
    mod = importlib.import_module(module)
    entry = getattr(mod, "parse_args", None) or mod.main
    with pytest.raises(SystemExit) as exc:
        entry(["--help"])
    assert exc.value.code == 0
    return capsys.readouterr().out


def option_entries(text: str) -> dict[str, str]:
    """Each option of the help (``--flag``) and the text of its entry."""
    entries, current = {}, None
    for line in text.splitlines():
        match = re.match(r"^  (-\w, )?(--[\w-]+)", line)
        if match:
            current = match.group(2)
            entries[current] = line
        elif current and line.startswith("   "):
            entries[current] += " " + line.strip()
        else:
            current = None
    return entries


@pytest.mark.parametrize("module", COMMANDS)
def test_help_shows_every_flag_with_its_default(module, capsys):
    text = help_text(module, capsys)
    assert text.startswith(f"usage: python -m {module} ")
    entries = option_entries(text)
    entries.pop("--help")
    for flag, entry in entries.items():
        assert "(default:" in entry, f"{module} {flag}: {entry}"


@pytest.mark.parametrize(
    "name",
    [
        "jungle_envs/TropicRace-v0",
        "TropicRace-v0",
        "TropicRace",
        "tropicrace",
        "tropic_race",
        "Tropic-Race",
    ],
)
def test_resolver_takes_short_ids(name):
    assert resolve_env_id(name) == "jungle_envs/TropicRace-v0"
    assert jungle_envs.game_class(name).__name__ == jungle_envs.game_class("TropicRace").__name__


def test_resolver_names_the_known_ids():
    with pytest.raises(ValueError) as exc:
        resolve_env_id("Chess")
    for env_id in jungle_envs.ENV_IDS:
        assert env_id in str(exc.value)


def test_evaluate_takes_a_short_id(capsys):
    from training import evaluate

    data = evaluate.main(["--env", "tropic_race", "--games", "2", "--json", "--quiet"])
    assert data["env"] == "jungle_envs/TropicRace-v0"
    assert data["games"] == 2


def test_unknown_env_is_a_one_line_error_naming_the_known_ids(capsys):
    from training import evaluate

    with pytest.raises(SystemExit) as exc:
        evaluate.main(["--env", "Chess", "--games", "2"])
    assert exc.value.code == 2
    errors = [line for line in capsys.readouterr().err.splitlines() if "error" in line]
    assert len(errors) == 1
    for env_id in jungle_envs.ENV_IDS:
        assert env_id in errors[0]


def test_step_speed_takes_a_short_id(capsys):
    from benchmarks import step_speed

    rows = step_speed.main(
        ["--env", "TropicRace-v0", "--players", "2", "--seconds", "0.2", "--repeats", "1",
         "--no-vector", "--quiet"]
    )  # fmt: skip
    assert [row["env"] for row in rows] == ["jungle_envs/TropicRace-v0"]


def test_plot_without_logs_fails_saying_what_is_missing(tmp_path, capsys):
    from training import plot

    with pytest.raises(SystemExit) as exc:
        plot.main([str(tmp_path)])
    assert exc.value.code not in (0, None)
    assert "progress.csv" in capsys.readouterr().err
    assert not (tmp_path / "learning_curve.png").exists()


def fake_row(game, players, agent, trained, games, workers, quiet=True):
    cell = {"win_rate": 0.5, "ci95": [0.4, 0.6], "games": games, "illegal_actions": 0,
            "mean_margin": 0.0, "margin_ci95": [-1.0, 1.0]}  # fmt: skip
    row = {"game": game, "players": players, "agent": agent, **trained}
    for key, _, _ in __import__("training.results").results.MATCHES:
        row[key] = dict(cell)
    return row


def test_results_copies_curves_to_the_runs_folder_not_docs(tmp_path, monkeypatch, capsys):
    from training import results

    monkeypatch.chdir(tmp_path)
    run = tmp_path / "runs" / "JungleSweep-4p"
    run.mkdir(parents=True)
    (run / "learning_curve.png").write_bytes(b"png")
    monkeypatch.setattr(
        results, "find_agent", lambda *a: ("heuristic", {"timesteps": None, "wall_seconds": None})
    )
    monkeypatch.setattr(results, "evaluate_row", fake_row)
    monkeypatch.setattr(results, "shipped_table", lambda: "")
    rows = results.main(
        ["--game", "jungle_sweep", "--players", "4", "--runs", "runs", "--games", "2", "--quiet"]
    )
    assert [row["game"] for row in rows] == ["JungleSweep"]
    assert (tmp_path / "runs" / "img" / "JungleSweep-4p_curve.png").exists()
    assert not (tmp_path / "docs").exists()


def test_results_without_agents_says_what_is_missing(tmp_path, monkeypatch, capsys):
    from training import results

    monkeypatch.setattr(results, "find_agent", lambda *a: None)
    rows = results.main(["--game", "TropicRace", "--players", "2", "--runs", str(tmp_path)])
    assert rows == []
    out, err = capsys.readouterr()
    assert "no agent" in err and "model.zip" in err
    assert "| game |" not in out  # no empty table


def test_progress_bar_batches_give_the_same_result(monkeypatch, capsys):
    from training import cli, evaluate

    plain = evaluate.run_evaluation("jungle_envs/TropicRace-v0", "heuristic", "random", 12, 2, 5)
    monkeypatch.setattr(cli, "bar_on", lambda quiet=False: True)
    shown = evaluate.run_evaluation(
        "jungle_envs/TropicRace-v0", "heuristic", "random", 12, 2, 5, quiet=False
    )
    assert (shown.games, shown.wins, shown.per_seat) == (plain.games, plain.wins, plain.per_seat)
    assert shown.margin_total == pytest.approx(plain.margin_total)
