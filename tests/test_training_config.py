"""Training configs are checked whole before a run folder or worker exists: a bad field
ends the command with one line naming it and status 2, never a traceback."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from training import evaluate, plot, train
from training.config import CONFIG_DIR, DEFAULTS, load_config
from training.validate import FIELDS, check_config

ENV = "jungle_envs/TropicRace-v0"
STAGE = '[{"from": "half", "opponents": {"random": 1}}]'

# (id, arguments after --env/--out, files to write first, the field the message names);
# {tmp} is the test's folder
CASES = [
    ("n_steps=0", ["--set", "ppo.n_steps=0"], {}, "ppo.n_steps"),
    ("n_epochs=0", ["--set", "ppo.n_epochs=0"], {}, "ppo.n_epochs"),
    ("batch_size=0", ["--set", "ppo.batch_size=0"], {}, "ppo.batch_size"),
    ("n_steps=-5", ["--set", "ppo.n_steps=-5"], {}, "ppo.n_steps"),
    ("learning_rate=abc", ["--set", "ppo.learning_rate=abc"], {}, "ppo.learning_rate"),
    ("net_arch=5", ["--set", "ppo.net_arch=5"], {}, "ppo.net_arch"),
    ("seed=abc", ["--set", "seed=abc"], {}, "seed"),
    ("--n-envs 0", ["--n-envs", "0"], {}, "n_envs"),
    ("n_envs=0", ["--set", "n_envs=0"], {}, "n_envs"),
    ("--opponents heuristc", ["--opponents", "heuristc"], {}, "heuristc"),
    ("gamma=2", ["--set", "ppo.gamma=2"], {}, "ppo.gamma"),
    ("--timesteps -1", ["--timesteps", "-1"], {}, "timesteps"),
    ("eval.freq=0", ["--set", "eval.freq=0"], {}, "eval.freq"),
    ("checkpoint_freq=0", ["--set", "checkpoint_freq=0"], {}, "checkpoint_freq"),
    ("keep_checkpoints=0", ["--set", "keep_checkpoints=0"], {}, "keep_checkpoints"),
    ("eval.games=0", ["--set", "eval.games=0"], {}, "eval.games"),
    ("unknown key", ["--set", "ppo.lr=1"], {}, "ppo.lr"),
    ("unknown key in a file", ["--config", "{tmp}/c.json"], {"c.json": '{"lr": 1}'}, "lr"),
    ("stage type", ["--set", f"curriculum={STAGE}"], {}, "curriculum[0].from"),
    (
        "stage opponent",
        ["--set", 'curriculum=[{"from": 0, "opponents": {"heuristc": 1}}]'],
        {},
        "curriculum[0].opponents",
    ),
    ("stage keys", ["--set", 'curriculum=[{"at": 0}]'], {}, "curriculum[0].at"),
    ("league", ["--set", "league.pool_size=0"], {}, "league.pool_size"),
    ("wall_seconds", ["--set", "wall_seconds=-5"], {}, "wall_seconds"),
    ("env option value", ["--set", "env_options.reward=points"], {}, "env_options"),
    ("game option", ["--set", "env_options.no_such_option=1"], {}, "no_such_option"),
    ("players", ["--players", "9"], {}, "players"),
    ("mixture weight", ["--set", 'opponents={"random": -1}'], {}, "opponents"),
    ("model path", ["--opponents", "{tmp}/missing.zip"], {}, "missing.zip"),
    ("eval opponents", ["--set", "eval.opponents=self"], {}, "eval.opponents"),
    ("self-play fixed", ["--opponents", "self", "--set", 'self_play.fixed=["x"]'], {}, "fixed"),
    ("vec_env", ["--set", "vec_env=gpu"], {}, "vec_env"),
    ("pool on workers", ["--set", "vec_env=python"], {}, "vec_env"),
    ("torch_threads", ["--set", "torch_threads=0"], {}, "torch_threads"),
    (
        "one-sample batch",
        ["--set", "ppo.n_steps=129", "--set", "ppo.batch_size=64", "--n-envs", "1"],
        {},
        "ppo.batch_size",
    ),
    ("--config missing", ["--config", "{tmp}/nope.json"], {}, "nope.json"),
    ("--config invalid", ["--config", "{tmp}/bad.json"], {"bad.json": "{oops"}, "bad.json"),
    ("--config a list", ["--config", "{tmp}/list.json"], {"list.json": "[]"}, "list.json"),
    ("tables", ["--set", 'tables={"four": {}}'], {}, "tables"),
    ("table entry", ["--config", "{tmp}/t.json"], {"t.json": '{"tables": {"4": {"lr": 1}}}'}, "lr"),
    ("recipe stage shape", ["--set", 'stages=[{"name": "a"}]'], {}, "stages[0]"),
    ("recipe stage name", ["--set", 'stages=[{"name": "a b", "set": {}}]'], {}, "stages[0]"),
    (
        "recipe stage names",
        ["--set", 'stages=[{"name": "a", "set": {}}, {"name": "a", "set": {}}]'],
        {},
        "stages[1]",
    ),
    (
        "recipe stage value",
        ["--set", 'stages=[{"name": "a", "set": {"ppo.n_steps": 0}}]'],
        {},
        "stages[0].set: ppo.n_steps",
    ),
    (
        "recipe stage key",
        ["--set", 'stages=[{"name": "a", "set": {"ppo.lr": 1}}]'],
        {},
        "stages[0].set: unknown config key 'ppo.lr'",
    ),
    (
        "recipe stage fixed",
        ["--set", 'stages=[{"name": "a", "set": {"players": 2}}]'],
        {},
        "stages[0].set may not change players",
    ),
    (
        "recipe stage select",
        ["--set", 'stages=[{"name": "a", "set": {}, "select": "best"}]'],
        {},
        "stages[0].select",
    ),
    (
        "allseat stage key",
        ["--set", 'stages=[{"name": "a", "allseat": {"init": "x.zip"}}]'],
        {},
        "stages[0].allseat.init",
    ),
    (
        "allseat stage value",
        ["--set", 'stages=[{"name": "a", "allseat": {"seconds": -1}}]'],
        {},
        "stages[0].allseat.seconds",
    ),
    (
        "distill stage key",
        ["--set", 'stages=[{"name": "a", "distill": {"init": "x.zip"}}]'],
        {},
        "stages[0].distill.init",
    ),
    (
        "distill stage teacher",
        ["--set", 'stages=[{"name": "a", "distill": {"teacher": "oracle"}}]'],
        {},
        "stages[0].distill.teacher",
    ),
    (
        "distill stage value",
        ["--set", 'stages=[{"name": "a", "distill": {"beta": 2}}]'],
        {},
        "stages[0].distill.beta",
    ),
    (
        "distill stage select",
        ["--set", 'stages=[{"name": "a", "distill": {}, "select": "validation"}]'],
        {},
        "a stage of distill ships its final model",
    ),
    (
        "distill stage values target without move values",
        ["--set", 'stages=[{"name": "a", "distill": {"teacher": "mcts:300", "target": "values"}}]'],
        {},
        'target "values" needs a round-rollout teacher',
    ),
    (
        "distill stage temperature",
        ["--set", 'stages=[{"name": "a", "distill": {"temperature": 0}}]'],
        {},
        "stages[0].distill.temperature",
    ),
    (
        "distill stage data from a later or unknown stage",
        [
            "--set",
            'stages=[{"name": "a", "distill": {"data_from": ["b"]}}, {"name": "b", "distill": {}}]',
        ],
        {},
        "stages[0].distill.data_from: 'b' is not an earlier distill stage",
    ),
    (
        "distill stage data from a training stage",
        [
            "--set",
            'stages=[{"name": "a", "set": {}}, {"name": "b", "distill": {"data_from": ["a"]}}]',
        ],
        {},
        "stages[1].distill.data_from: 'a' is not an earlier distill stage",
    ),
    (
        "distill stage values from a stage without move values",
        [
            "--set",
            'stages=[{"name": "a", "distill": {"teacher": "mcts:8"}}, {"name": "b", '
            '"distill": {"teacher": "round-rollout", "target": "values",'
            ' "data_from": ["a"]}}]',
        ],
        {},
        "stage 'a''s teacher 'mcts:8' does not value moves",
    ),
    (
        "distill stage opponents",
        ["--set", 'stages=[{"name": "a", "distill": {"opponents": "random,oracle"}}]'],
        {},
        "stages[0].distill.opponents names an unknown opponent 'oracle'",
    ),
    (
        "distill stage opponents mixture",
        ["--set", 'stages=[{"name": "a", "distill": {"opponents": {"pool": 1}}}]'],
        {},
        "stages[0].distill.opponents",
    ),
]


def fill(items: list[str], tmp: Path) -> list[str]:
    return [item.replace("{tmp}", str(tmp)) for item in items]


@pytest.fixture
def no_workers(monkeypatch):
    """Fails the test if the run gets as far as making its vector envs."""
    made = []
    monkeypatch.setattr(train, "make_vec_env", lambda *a, **k: made.append(a) or 1 / 0)
    return made


def snapshot(folder: Path) -> dict[str, float]:
    return {str(p): p.stat().st_mtime_ns for p in sorted(folder.rglob("*"))}


def refused(capsys, argv: list[str]) -> str:
    """Runs ``train.main(argv)``; the one line it printed to stderr."""
    with pytest.raises(SystemExit) as exit_info:
        train.main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert str(exit_info.value) == err
    return err


@pytest.mark.parametrize(
    ("args", "files", "field"), [pytest.param(*case[1:], id=case[0]) for case in CASES]
)
def test_a_bad_config_stops_the_run_before_anything_is_written(
    args, files, field, tmp_path, capsys, no_workers
):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    out = tmp_path / "run"
    err = refused(capsys, ["--env", ENV, "--out", str(out), *fill(args, tmp_path)])
    assert err.startswith("config error: ") and field in err
    assert not out.exists() and not no_workers


def test_an_error_names_the_allowed_values(capsys, tmp_path, no_workers):
    err = refused(capsys, ["--env", ENV, "--out", str(tmp_path / "r"), "--set", "ppo.n_steps=0"])
    assert err == "config error: ppo.n_steps must be an integer >= 1, got 0"
    err = refused(capsys, ["--env", ENV, "--out", str(tmp_path / "r"), "--opponents", "heuristc"])
    allowed = "allowed: heuristic, mcts, mcts+ppo, ppo, ppo-sample, random, rollout, self, "
    assert allowed + "mcts:BUDGET" in err
    err = refused(capsys, ["--env", ENV, "--out", str(tmp_path / "r"), "--set", "foo=1"])
    assert "known here" in err and "'ppo'" in err


def make_run(folder: Path, **changes) -> Path:
    """A run folder as train.main leaves it, with ``changes`` to its config."""
    config = copy.deepcopy(DEFAULTS)
    config.update(env=ENV, players=2, **changes)
    (folder / "checkpoints").mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps(config))
    (folder / "checkpoints" / "latest.json").write_text(
        json.dumps({"path": "step-0000000064.zip", "timesteps": 64, "wall_seconds": 1.0})
    )
    return folder


@pytest.mark.parametrize(
    ("setup", "extra", "field"),
    [
        pytest.param(lambda p: p.mkdir(), [], "config.json", id="no config.json"),
        pytest.param(lambda p: None, [], "does not exist", id="no folder"),
        pytest.param(lambda p: make_run(p, n_envs=0), [], "n_envs", id="bad saved config"),
        pytest.param(make_run, ["--timesteps", "0"], "timesteps", id="--timesteps 0"),
        pytest.param(
            lambda p: (make_run(p) / "checkpoints" / "latest.json").unlink(),
            [],
            "no checkpoint",
            id="no checkpoint",
        ),
    ],
)
def test_resume_refuses_what_it_cannot_continue(setup, extra, field, tmp_path, capsys, no_workers):
    run = tmp_path / "run"
    setup(run)
    before = snapshot(run) if run.exists() else None
    err = refused(capsys, ["--resume", str(run), *extra])
    assert err.startswith("config error: ") and field in err
    assert (snapshot(run) if run.exists() else None) == before and not no_workers


def test_from_the_shell_a_bad_config_is_one_line_and_no_traceback(tmp_path):
    out = tmp_path / "run"
    command = ["-m", "training.train", "--env", ENV, "--out", str(out), "--opponents", "heuristc"]
    proc = subprocess.run(
        [sys.executable, *command],
        capture_output=True,
        text=True,
        cwd=Path(__file__).parents[1],
        timeout=300,
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "config error: opponents names an unknown opponent 'heuristc'; allowed: heuristic, "
        "mcts, mcts+ppo, ppo, ppo-sample, random, rollout, self, mcts:BUDGET, mcts+ppo:BUDGET, "
        "rollout:ROLLOUTS, a model path that exists or rllib:CHECKPOINT_DIR"
    ]
    assert not out.exists()


@pytest.mark.parametrize("path", sorted(CONFIG_DIR.glob("*.json")), ids=lambda p: p.stem)
def test_the_shipped_configs_are_valid(path):
    config = json.loads(path.read_text())
    assert set(config) <= {name.partition(".")[0] for name in FIELDS}
    check_config(load_config(config["env"]))
    check_config(load_config(None, path))


@pytest.mark.parametrize("name", ["TropicRace-v0", "TropicRace", "tropic_race"])
def test_a_short_env_id_in_a_file_or_an_override_names_the_full_one(name, tmp_path):
    config = json.loads((CONFIG_DIR / "tropic_race.json").read_text())
    path = tmp_path / "short.json"
    path.write_text(json.dumps({**config, "env": name}))
    from_file = load_config(None, path)
    assert from_file["env"] == ENV
    check_config(from_file)
    assert load_config(None, path, [f"env={name}"])["env"] == ENV


def test_an_unknown_env_in_a_config_names_the_allowed_ids(tmp_path):
    config = load_config(None, CONFIG_DIR / "tropic_race.json", ["env=Chess"])
    assert config["env"] == "Chess"
    with pytest.raises(ValueError, match=r"^env must be one of jungle_envs/JungleSweep-v0"):
        check_config(config)


def test_a_table_takes_its_entries_over_the_file_and_the_command_line_has_the_last_word(
    tmp_path,
):
    file = tmp_path / "c.json"
    file.write_text(json.dumps({
        "env": ENV, "players": 4, "opponents": {"random": 0.5, "heuristic": 0.5},
        "ppo": {"learning_rate": 3e-4, "net_arch": {"pi": [64], "vf": [64]}},
        "tables": {
            "2": {"opponents": {"heuristic": 1.0}, "ppo": {"net_arch": {"pi": [32]}}},
            "4": {"env_options": {"reward": "rank"}, "wall_seconds": 60},
        },
    }))  # fmt: skip
    two = load_config(None, file, ["ppo.learning_rate=1e-4"], players=2)
    assert two["opponents"] == {"heuristic": 1.0}  # a mixture is replaced, never blended
    assert two["ppo"]["net_arch"] == {"pi": [32]} and two["ppo"]["learning_rate"] == 1e-4
    assert two["env_options"] == {} and two["tables"] == {}
    four = load_config(None, file, ["wall_seconds=90"])  # the file's own player count
    assert four["env_options"] == {"reward": "rank"} and four["wall_seconds"] == 90
    assert four["opponents"] == {"random": 0.5, "heuristic": 0.5}
    three = load_config(None, file, [], players=3)  # no table: the file as it is
    assert three["ppo"]["net_arch"] == {"pi": [64], "vf": [64]} and three["wall_seconds"] is None
    for config in (two, four, three):
        check_config(config)


def test_the_defaults_are_valid_and_every_field_has_a_rule():
    check_config(copy.deepcopy(DEFAULTS))

    def leaves(node: dict, prefix: str = "") -> set[str]:
        found = set()
        for key, value in node.items():
            if isinstance(value, dict) and key not in ("env_options", "opponents", "tables"):
                found |= leaves(value, f"{prefix}{key}.")
            else:
                found.add(prefix + key)
        return found

    assert leaves(DEFAULTS) == set(FIELDS)


def test_valid_variants_pass():
    base = load_config(ENV)
    for changes in (
        {"opponents": "random,heuristic,random", "curriculum": [], "players": 4},
        {"opponents": "self", "curriculum": [], "vec_env": "python"},
        {"opponents": {"heuristic": 1, "pool": 1}, "wall_seconds": None, "torch_threads": 2},
        {"ppo": {**base["ppo"], "net_arch": {"pi": [8], "vf": [8]}, "gamma": 1}},
        {"env_options": {"reward": "score", "observation_mode": "dict"}, "seed": 0},
    ):
        check_config({**base, **changes})


@pytest.mark.parametrize(
    ("argv", "field"),
    [
        (["--games", "0"], "--games"),
        (["--games", "-3"], "--games"),
        (["--workers", "0"], "--workers"),
        (["--agent", "runs/none/model.zip"], "--agent"),
        (["--opponents", "random,heuristc"], "--opponents"),
        (["--env", ENV, "--players", "9"], "--players"),
    ],
)
def test_evaluate_refuses_bad_arguments_in_one_line(argv, field, capsys):
    with pytest.raises(SystemExit) as exit_info:
        evaluate.main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and field in err, err


def test_plot_refuses_a_missing_run_folder(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        plot.main([str(tmp_path / "none")])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        f"plot: error: {str(tmp_path / 'none')!r} is not a run folder (no such folder)"
    ]


def test_a_model_opponent_must_fit_the_run(tmp_path):
    from training.common import make_vec_env, mark_trained_on, new_model
    from training.config import ConfigError

    venv = make_vec_env(ENV, n_envs=1, vectorization="python", num_players=2, engine="reference")
    model = new_model(venv, n_steps=32, batch_size=32, policy_kwargs={"net_arch": [8]})
    mark_trained_on(model, ENV, 2, {})
    model.save(tmp_path / "m.zip")
    venv.close()
    base = {**load_config(ENV), "curriculum": [], "opponents": str(tmp_path / "m.zip")}
    check_config({**base, "players": 2})
    with pytest.raises(ConfigError, match=r"^opponents: .*trained on"):
        check_config({**base, "players": 3})


@pytest.mark.parametrize(
    ("flags", "field"),
    [
        (["--env", ENV], "--env"),
        (["--players", "2", "--opponents", "random"], "--players, --opponents"),
        (["--set", "ppo.learning_rate=1e-4"], "--set"),
        (["--overwrite"], "--overwrite"),
    ],
)
def test_resume_refuses_arguments_that_would_change_the_run(
    flags, field, tmp_path, capsys, no_workers
):
    run = make_run(tmp_path / "run")
    before = snapshot(run)
    err = refused(capsys, ["--resume", str(run), *flags])
    assert f"drop {field}" in err and "only --timesteps" in err
    assert snapshot(run) == before and not no_workers


def test_a_folder_holding_a_run_is_refused_unless_overwrite(tmp_path, capsys, no_workers):
    run = make_run(tmp_path / "run")
    before = snapshot(run)
    err = refused(capsys, ["--env", ENV, "--out", str(run)])
    assert "holds a run" in err and f"--resume {run}" in err and "--overwrite" in err
    assert snapshot(run) == before
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    err = refused(capsys, ["--env", ENV, "--out", str(other), "--overwrite"])
    assert "other files" in err and (other / "notes.txt").read_text() == "mine"
    assert not no_workers


def test_the_default_run_folder_is_not_overwritten_by_the_same_command_twice(
    tmp_path, capsys, monkeypatch, no_workers
):
    monkeypatch.chdir(tmp_path)
    make_run(tmp_path / "runs" / "TropicRace-seed0", seed=0)
    err = refused(capsys, ["--env", ENV, "--seed", "0"])
    assert "holds a run" in err and not no_workers


@pytest.mark.parametrize("out", ["/proc/no-such-run", "{file}/run"])
def test_an_unwritable_run_folder_is_one_line(out, tmp_path, capsys):
    (tmp_path / "file").write_text("")
    err = refused(capsys, ["--env", ENV, "--out", out.format(file=tmp_path / "file")])
    assert err.startswith("config error: ") and "run folder" in err


def test_overwrite_starts_the_new_run_in_an_empty_folder(tmp_path):
    run = make_run(tmp_path / "run")
    (run / "checkpoints" / "step-0000000064.zip").write_text("old game's checkpoint")
    train.check_new_run_folder(run, overwrite=True)
    train.prepare_run_folder(run, overwrite=True)
    assert run.is_dir() and not any(run.iterdir())  # nothing of the old run to mix in


def test_the_move_policy_needs_the_move_features(tmp_path, capsys, no_workers):
    no_features = ["--set", "policy=moves", "--set", "env_options.move_features=false"]
    err = refused(capsys, ["--env", "ElephantFestival", "--out", str(tmp_path / "r"), *no_features])
    assert "env_options.move_features=true" in err and not (tmp_path / "r").exists()


@pytest.mark.parametrize(
    ("name", "known"),
    [("mcts:300", True), ("mcts+ppo", True), ("mcts+ppo:300", True), ("mcts+ppo:0.5s", True),
     ("mcts+ppo:x", False), ("mcts+ppox", False), ("mcts+random:9", False)],
)  # fmt: skip
def test_search_names_are_known_only_with_a_valid_budget(name, known):
    from training.validate import opponent_known

    assert opponent_known(name) is known
