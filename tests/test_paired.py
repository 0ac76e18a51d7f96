"""training.paired: the paired tables of the shipped agents, written into a page."""

import json

import pytest

from training import ladder, paired


def result(opponents, agent_rate, baseline_rate, wins, margins):
    def entry(mean, low, high):
        return {"games": 10, "mean": mean, "ci95": [low, high]}

    return {
        "env": "jungle_envs/SpankTheMonkey-v0", "players": 4, "agent": "ppo",
        "baseline": "heuristic", "opponents": opponents, "games": 10, "seed": 95_000,
        "agent_result": {"win_rate": agent_rate, "mean_margin": 0.0},
        "baseline_result": {"win_rate": baseline_rate, "mean_margin": 0.0},
        "win_rate_difference": entry(*wins), "margin_difference": entry(*margins),
    }  # fmt: skip


def test_a_target_is_met_only_by_the_interval_or_the_right_measure():
    above = result("heuristic", 0.3, 0.2, (0.1, 0.01, 0.19), (1.0, 0.5, 1.5))
    touching = result("heuristic", 0.3, 0.2, (0.1, -0.01, 0.21), (1.0, 0.5, 1.5))
    assert paired.target_met(above) and not paired.target_met(touching)
    # against random players: level or better on the mean, on the margin when both always win
    assert paired.target_met(result("random", 0.7, 0.7, (0.0, -0.02, 0.02), (-1, -2, 0)))
    assert not paired.target_met(result("random", 0.6, 0.7, (-0.1, -0.2, 0.0), (1, 0, 2)))
    assert paired.target_met(result("random", 1.0, 1.0, (0.0, 0.0, 0.0), (2.0, 1.0, 3.0)))
    assert not paired.target_met(result("random", 1.0, 1.0, (0.0, 0.0, 0.0), (-2.0, -3, -1)))
    line = paired.row(touching)
    assert line.startswith("| Spank the Monkey 4p | 3 heuristics | 0.300 / 0.200 |")
    assert line.endswith("| missed |") and "+0.100 (-0.010...+0.210)" in line


def test_the_tables_are_played_and_written_into_their_section(tmp_path, capsys):
    page = tmp_path / "results.md"
    start, end = ladder.markers("paired")
    page.write_text(f"# Results\n{start}\nold\n{end}\nend\n")
    out = tmp_path / "paired.json"
    results = paired.main(
        ["--game", "TropicRace", "--players", "2", "--random-at", "4", "--games", "4",
         "--write", str(page), "--json", str(out), "--quiet"]
    )  # fmt: skip
    assert [(r["players"], r["opponents"]) for r in results] == [(2, "heuristic"), (4, "random")]
    for data in results:  # both policies played the same four games
        assert data["win_rate_difference"]["games"] == 4 and data["seed"] == 95_000
    assert json.loads(out.read_text()) == results
    text = page.read_text()
    assert "old" not in text and text.endswith(f"{end}\nend\n")
    assert "| Tropic Race 2p | 1 heuristic |" in text and "| Tropic Race 4p | 3 random |" in text
    assert "seeds 95,000-95,003; targets met in" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "TropicRace", "--players", "3"], "no shipped agent for TropicRace at 3"),
        (["--game", "TropicRace", "--players", "9"], "TropicRace takes 2-5 players"),
        (["--games", "1"], "--games must be >= 2"),
    ],
)
def test_bad_requests_are_refused_before_any_game(argv, message, capsys, tmp_path):
    with pytest.raises(SystemExit) as exc:
        paired.main(argv)
    assert exc.value.code == 2 and message in capsys.readouterr().err
    page = tmp_path / "results.md"
    page.write_text("no sections here\n")
    with pytest.raises(SystemExit):
        paired.main(["--game", "TropicRace", "--write", str(page)])
    assert page.read_text() == "no sections here\n"
