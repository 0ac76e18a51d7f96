"""Ray RLlib: the multi-agent env, the masking module, and one training iteration.

Marked ``rllib``: run by ``make test-rllib`` (and CI) in a virtualenv with the rllib extra.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

pytestmark = pytest.mark.rllib
ray = pytest.importorskip("ray")

from test_cli import help_text, option_entries  # noqa: E402

from jungle_envs.rllib import JungleRLlibEnv  # noqa: E402
from training import rllib_train  # noqa: E402


def test_env_hands_turns_to_learners_and_pays_everyone_at_the_end():
    env = JungleRLlibEnv({"game": "SpankTheMonkey-v0", "num_players": 3})
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    while True:
        ((agent, observation),) = obs.items()
        assert set(observation) == {"observations", "action_mask"}
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        obs, rewards, terminated, _, _ = env.step({agent: action})
        if terminated["__all__"]:
            break
        assert rewards == dict.fromkeys(obs, 0.0)
    assert set(rewards) == set(env.possible_agents) and set(obs) == set(env.possible_agents)
    assert sorted(rewards.values()) in ([-1.0, -1.0, 1.0], [0.0, 0.0, 0.0])


def test_fixed_mode_exposes_one_learner_seat():
    env = JungleRLlibEnv(
        {"game": "JungleSweep-v0", "num_players": 4, "learner_seats": "one", "fixed": "heuristic"}
    )
    seen = set()
    for seed in range(6):
        obs, _ = env.reset(seed=seed)
        seen |= set(obs)
        assert len(obs) == 1
    assert len(seen) > 1  # the learner's seat changes between episodes


def test_one_training_iteration_writes_a_checkpoint_that_plays_legally(tmp_path):
    summary = rllib_train.main(
        [
            "--env",
            "TropicRace-v0",
            "--iterations",
            "1",
            "--batch",
            "256",
            "--epochs",
            "1",
            "--hidden",
            "32",
            "--eval-games",
            "4",
            "--out",
            str(tmp_path),
        ]
    )
    assert (tmp_path / "summary.json").exists()
    assert json.loads((tmp_path / "summary.json").read_text())["history"][0]["env_steps"] >= 256
    for opponents in ("random", "heuristic"):
        record = summary[f"vs_{opponents}"]
        assert record["games"] == 4 and record["illegal_actions"] == 0


def test_command_line_takes_short_ids_and_shows_every_default(capsys):
    assert rllib_train.parse_args(["--env", "tropic_race"]).env == "jungle_envs/TropicRace-v0"
    assert rllib_train.parse_args([]).env == "jungle_envs/JungleSweep-v0"
    text = help_text("training.rllib_train", capsys)
    assert text.startswith("usage: python -m training.rllib_train ")
    entries = option_entries(text)
    entries.pop("--help")
    for flag, entry in entries.items():
        assert "(default:" in entry, f"{flag}: {entry}"
    with pytest.raises(SystemExit) as exc:
        rllib_train.parse_args(["--env", "Chess"])
    assert exc.value.code == 2
    assert "jungle_envs/TropicRace-v0" in capsys.readouterr().err
