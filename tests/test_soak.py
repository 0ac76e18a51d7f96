"""The soak command (``benchmarks/soak/``) on a small slice, and on games broken on purpose.

CI plays a few games of every game, player count and path (and every option variant) in
this process; the full soak (``make soak``, a million games) runs by hand. The broken games
show that the soak cannot pass vacuously: an illegal action or a rule that raises is an
error, with the seed that replays it, and the command exits non-zero.
"""

from __future__ import annotations

import importlib
import json

import gymnasium
import numpy as np
import pytest

from benchmarks import soak
from benchmarks.soak import compiled_path, python_paths
from benchmarks.soak.checks import SoakCheckFailed
from jungle_envs.core.registry import GAMES, game_class

SLICE = ["--workers", "1", "--no-progress", "--games", "2", "--games-compiled", "3"]
SLICE += ["--num-envs", "3", "--deep-every", "2", "--check-every", "5"]
SMALL = [*SLICE, "--game", "TropicRace", "--players", "2", "--option-share", "0"]


def run(tmp_path, *argv: str) -> tuple[int, dict]:
    out = tmp_path / "soak.json"
    code = soak.main([*argv, "--json", str(out)])
    return code, json.loads(out.read_text())


def played(summary: dict, key: tuple[str, ...]) -> set[tuple]:
    return {tuple(c[k] for k in key) for c in summary["cells"] if c["games"] > 0}


def test_a_slice_of_every_game_player_count_path_and_variant_plays_without_error(tmp_path):
    code, summary = run(tmp_path, *SLICE)
    assert summary["errors"] == 0, [e["traceback"] for e in summary["error_records"]]
    assert code == 0 and summary["complete"]
    every = {
        (name, path, n)
        for name in GAMES
        for path in soak.PATHS
        for n in game_class(name).spec.player_counts
    }
    assert played(summary, ("game", "path", "players")) == every
    variants = {(name, v.name) for name in GAMES for v in soak.variants(name)}
    assert played(summary, ("game", "variant")) == variants
    assert summary["games"] >= summary["games_planned"] > len(every)
    text = soak.report(summary)
    assert "0 errors" in text and "| **all** | **all** |" in text


def test_an_illegal_action_is_an_error_with_its_seed_on_every_path(tmp_path, monkeypatch):
    def illegal(mask, rng):
        return int(np.flatnonzero(~np.asarray(mask, dtype=bool))[0])

    def illegal_rows(masks, streams, out):
        out[:] = np.argmin(masks, axis=1)  # a 0 of every row's mask

    monkeypatch.setattr(python_paths, "pick_action", illegal)
    monkeypatch.setattr(compiled_path, "compiled_actions", illegal_rows)
    code, summary = run(tmp_path, *SMALL)
    assert code == 1 and summary["errors"] > 0
    failed = {e["path"] for e in summary["error_records"]}
    assert failed == set(soak.PATHS)
    for record in summary["error_records"]:
        assert record["game"] == "TropicRace" and record["players"] == 2
        assert f":{record['seed']}:" in record["replay"]
        assert "illegal" in record["error"].lower() or "not legal" in record["error"]
    assert not any(c["games"] for c in summary["cells"])  # no game counted as played


class FinalRewardOff(gymnasium.Wrapper):
    """Pays 1/8 more on the last step: a reward that disagrees with the final scores."""

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs, reward + 0.125 * terminated, terminated, truncated, info

    def action_masks(self):
        return self.env.action_masks()


@pytest.mark.parametrize("engine", ["compiled", "reference"])
@pytest.mark.parametrize("kind", ["margin", "rank"])
def test_the_env_path_holds_margin_and_rank_rewards_to_the_final_scores(kind, engine):
    env = gymnasium.make(
        "jungle_envs/ElephantFestival-v0", num_players=3, engine=engine, reward=kind
    )
    settings = {"reward": kind, "engine": engine}
    for seed in range(3):
        python_paths.play_env_game(env, settings, seed, deep=True)
    with pytest.raises(SoakCheckFailed, match=f"{kind} reward"):
        python_paths.play_env_game(FinalRewardOff(env), settings, 0, deep=False)


def test_the_compiled_path_holds_the_rank_reward_to_the_final_scores(tmp_path, monkeypatch):
    tables = importlib.import_module("benchmarks.soak.variants")  # the package's name is a function
    monkeypatch.setattr(tables, "COMPILED_SETTINGS", ({"reward": "rank"},))
    code, summary = run(tmp_path, *SMALL, "--paths", "compiled")
    assert code == 0 and summary["errors"] == 0 and summary["games"] > 0
    monkeypatch.setattr(compiled_path, "places", lambda scores: np.zeros(len(scores)))
    code, summary = run(tmp_path, *SMALL, "--paths", "compiled")
    assert code == 1 and "final rank rewards" in summary["error_records"][0]["error"]


def test_a_rule_that_raises_is_an_error_that_its_replay_key_reproduces(tmp_path, monkeypatch):
    from jungle_envs.games.tropic_race import rules

    apply_action = rules.apply_action

    def broken(config, state, action):  # a bug in some positions only
        if state.rolls == 9:
            raise RuntimeError("planted bug")
        apply_action(config, state, action)

    monkeypatch.setattr(rules, "apply_action", broken)
    code, summary = run(tmp_path, *SMALL, "--paths", "engine")
    assert code == 1 and summary["errors"] > 0
    record = summary["error_records"][0]
    assert "RuntimeError: planted bug" in record["error"] and "planted bug" in record["traceback"]
    key = record["replay"].split("--replay ")[1]
    assert soak.main(["--replay", key]) == 1
    monkeypatch.setattr(rules, "apply_action", apply_action)
    assert soak.main(["--replay", key]) == 0


def test_the_same_seed_plays_the_same_games_on_any_number_of_workers(tmp_path):
    argv = [*SMALL, "--paths", "engine", "env", "--games", "3", "--chunk", "2"]
    counts = []
    for workers in ("1", "1", "2", None):
        seed = ["--seed", "1"] if workers is None else ["--workers", workers]
        code, summary = run(tmp_path, *argv, *seed)
        assert code == 0
        counts.append(sorted((c["path"], c["games"], c["steps"]) for c in summary["cells"]))
    assert counts[0] == counts[1] == counts[2] != counts[3]


def test_write_replaces_the_text_between_the_markers_and_needs_them(tmp_path, capsys):
    page = tmp_path / "reliability.md"
    page.write_text(f"# Reliability\n\nbefore\n{soak.MARK_START}\nold\n{soak.MARK_END}\nafter\n")
    code, _ = run(tmp_path, *SMALL, "--paths", "engine", "--write", str(page))
    text = page.read_text()
    assert code == 0 and "old" not in text
    assert text.startswith("# Reliability\n\nbefore\n") and text.endswith(
        f"{soak.MARK_END}\nafter\n"
    )
    assert "0 errors" in text and "| TropicRace | engine |" in text
    page.write_text("no markers\n")
    with pytest.raises(SystemExit):
        soak.main([*SMALL, "--paths", "engine", "--write", str(page)])
    assert "soak:start" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        soak.main([*SMALL, "--write", str(tmp_path / "missing.md")])


@pytest.mark.slow  # `make test-all`: about 5 minutes on 2 cores
def test_a_larger_slice_on_two_workers_plays_without_error(tmp_path):
    argv = ["--workers", "2", "--no-progress", "--games", "60", "--games-compiled", "3000"]
    code, summary = run(tmp_path, *argv, "--seed", "1")
    assert summary["errors"] == 0, [e["traceback"] for e in summary["error_records"]]
    assert code == 0 and summary["complete"] and summary["games"] >= summary["games_planned"]
