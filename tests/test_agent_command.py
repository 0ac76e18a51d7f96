"""training.agent: one table's agent in one command, each stage timed, the package untouched."""

import json

import pytest

from jungle_envs import agents
from training import agent

TINY = ["timesteps=1024", "n_envs=4", "ppo.n_steps=128", "ppo.batch_size=256",
        "imitate.rounds=1", "imitate.steps=256", "checkpoint_freq=512",
        "eval.freq=100000"]  # fmt: skip


def test_one_command_trains_selects_and_ships_outside_the_package(tmp_path):
    before = agents.MANIFEST.read_text()
    out = tmp_path / "run"
    tiny = [*TINY, "stages=[]"]  # the config's run alone (the next test has later stages)
    argv = ["--game", "jungle_sweep", "--players", "2", "--select", "2", "--workers", "1",
            "--out", str(out)] + [arg for value in tiny for arg in ("--set", value)]  # fmt: skip
    stages = agent.main(argv)
    assert json.loads((out / "stages.json").read_text()) == stages
    assert stages["game"] == "JungleSweep" and stages["imitation_seconds"] > 0
    for key in ("ppo_seconds", "selection_seconds", "ship_seconds"):
        assert 0 <= stages[key] <= stages["total_seconds"]
    candidates = {"imitate/model.zip", "model.zip"} | {
        str(path.relative_to(out)) for path in out.glob("checkpoints/step-*.zip")
    }
    assert stages["selected"] in candidates
    manifest = json.loads((out / "shipped" / "manifest.json").read_text())
    record = manifest["JungleSweep-2p"]
    assert record["selected"]["validation_games"] == 2 and record["num_players"] == 2
    assert (out / "shipped" / "JungleSweep-2p.zip").is_file()
    assert agents.MANIFEST.read_text() == before  # the package's agents are left as they are


def test_the_recipe_s_later_stages_continue_the_model_before_and_the_manifest_keeps_each(
    tmp_path,
):
    out = tmp_path / "run"
    stages = [
        {"name": "more", "set": {"ppo.learning_rate": 1e-4, "env_options.reward": "rank"}},
        {"name": "self-play", "allseat": {"seats": "learner,snapshot", "steps": 256,
                                          "num_envs": 8, "rollout": 256, "batch_size": 128}},
    ]  # fmt: skip
    record = agent.main(later_stages_argv(out, stages))
    assert [stage["name"] for stage in record["stages"]] == ["more", "self-play"]
    assert record["selected"] == "stage-2-self-play/model.zip"
    more = json.loads((out / "stage-1-more" / "config.json").read_text())
    assert more["env_options"]["reward"] == "rank" and more["ppo"]["learning_rate"] == 1e-4
    assert more["stages"] == [] and more["init"].endswith("stage-shipped/JungleSweep-2p.zip")
    shipped = json.loads((out / "shipped" / "manifest.json").read_text())["JungleSweep-2p"]
    assert shipped["training"]["recipe"] == "training.allseat"
    before = shipped["continued_from"]["record"]  # the "more" stage, then the first run
    assert (
        before["env_options"]["reward"] == "rank"
        and before["training"]["ppo"]["learning_rate"] == 1e-4
    )
    first = before["continued_from"]["record"]
    assert first["selected"]["validation_games"] == 2 and first["continued_from"] is None


def later_stages_argv(out, stages: list[dict]) -> list[str]:
    """training.agent's arguments for a tiny 2-player Jungle Sweep run, then ``stages``."""
    tiny = [*TINY, "imitate.rounds=0", f"stages={json.dumps(stages)}"]
    return ["--game", "JungleSweep", "--players", "2", "--select", "2", "--workers", "1",
            "--out", str(out)] + [arg for value in tiny for arg in ("--set", value)]  # fmt: skip


def test_a_distill_stage_fits_the_model_before_to_its_teacher_and_ships_it(tmp_path):
    out = tmp_path / "run"
    stages = [{"name": "distill", "distill": {"teacher": "rollout:2", "rounds": 1, "games": 2,
                                              "workers": 1, "epochs": 1, "seed": 3}}]  # fmt: skip
    record = agent.main(later_stages_argv(out, stages))
    assert record["selected"] == "stage-1-distill/model.zip"
    log = json.loads((out / "stage-1-distill" / "distill.json").read_text())
    assert log["settings"]["init"].endswith("stage-shipped/JungleSweep-2p.zip")
    assert log["settings"]["teacher"] == "rollout:2" and log["rounds"][0]["games"] == 2
    shipped = json.loads((out / "shipped" / "manifest.json").read_text())["JungleSweep-2p"]
    training = shipped["training"]
    assert training["recipe"] == "training.distill" and training["teacher"] == "rollout:2"
    assert training["decisions"] == log["rounds"][0]["all_decisions"] > 0
    assert shipped["wall_seconds"] == log["seconds"]
    first = shipped["continued_from"]["record"]  # the config's training run, picked first
    assert first["selected"]["validation_games"] == 2 and first["continued_from"] is None
    assert shipped["timesteps"] == first["timesteps"]  # a fit adds no PPO steps


def test_a_distill_stage_fits_an_earlier_stage_s_rounds_too_against_its_own_opponents(
    tmp_path,
):
    out = tmp_path / "run"
    first = {"teacher": "round-rollout:2", "rounds": 1, "games": 2, "workers": 1, "epochs": 1,
             "target": "values", "seed": 3}  # fmt: skip
    second = {**first, "teacher": "round-rollout:2:field=random", "seed": 4,
              "opponents": {"random": 1.0}, "data_from": ["heuristic-field"]}  # fmt: skip
    stages = [{"name": "heuristic-field", "distill": first},
              {"name": "random-field", "distill": second}]  # fmt: skip
    record = agent.main(later_stages_argv(out, stages))
    assert record["selected"] == "stage-2-random-field/model.zip"
    earlier = json.loads((out / "stage-1-heuristic-field" / "distill.json").read_text())
    log = json.loads((out / "stage-2-random-field" / "distill.json").read_text())
    assert log["settings"]["data"] == [str(out / "stage-1-heuristic-field" / "round-0.npz")]
    assert log["settings"]["opponents"] == {"random": 1.0}
    assert earlier["settings"]["opponents"] != log["settings"]["opponents"]
    own, before = log["rounds"][0], earlier["rounds"][0]
    assert own["all_decisions"] == own["decisions"] + before["decisions"] > own["decisions"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "TropicRace", "--players", "7"], "TropicRace takes 2-5 players"),
        (["--game", "Chess"], "Chess"),
        (["--game", "TropicRace", "--select", "0"], "--select and --workers must be at least 1"),
        (["--game", "TropicRace", "--ship", "--dest", "x"], "not allowed with argument"),
    ],
)
def test_bad_requests_are_refused_before_training(argv, message, capsys, tmp_path):
    with pytest.raises(SystemExit) as exc:
        agent.main([*argv, "--out", str(tmp_path / "run")])
    assert exc.value.code == 2 and message in capsys.readouterr().err
    assert not (tmp_path / "run").exists()
