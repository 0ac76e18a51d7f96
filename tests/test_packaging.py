"""Packaging: the wheel installs jungle_envs only (with its data and typing marker), a
missing extra is named when it is needed, and training refuses a game without its config."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import gymnasium
import pytest

import jungle_envs  # noqa: F401  (registers the envs)
from jungle_envs.core.registry import ENTRIES, rules_text
from training import config as training_config
from training import train
from training.config import ConfigError, game_config_path, load_config

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(env_id for env_id in gymnasium.registry if env_id.startswith("jungle_envs/"))


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory) -> list[str]:
    """The file names in a wheel built offline from a copy of the sources (so the build
    leaves nothing in the checkout)."""
    pytest.importorskip("setuptools", minversion="68")
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, src / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("jungle_envs", "training", "benchmarks"):
        shutil.copytree(ROOT / name, src / name, ignore=ignore)
    out = tmp / "dist"
    options = ["--no-deps", "--no-build-isolation", "--no-index", "-q", "-w", str(out)]
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(src), *options],
        check=True,
        cwd=tmp,
        timeout=120,
    )
    (wheel,) = out.glob("jungle_envs-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def test_the_wheel_installs_jungle_envs_only(wheel_names):
    tops = {name.split("/")[0] for name in wheel_names}
    (dist_info,) = (top for top in tops if top.endswith(".dist-info"))
    assert tops == {"jungle_envs", dist_info}
    assert not [n for n in wheel_names if n.startswith(("training/", "benchmarks/"))]
    assert not [n for n in wheel_names if "configs/" in n or "__pycache__" in n]


def test_the_wheel_carries_the_package_data_and_the_licence(wheel_names):
    names = set(wheel_names)
    agents = sorted((ROOT / "jungle_envs" / "agents").glob("*.zip"))
    assert agents
    for path in agents:
        assert f"jungle_envs/agents/{path.name}" in names
    assert "jungle_envs/agents/manifest.json" in names
    assert "jungle_envs/py.typed" in names
    for package in ("elephant_festival", "jungle_sweep", "spank_the_monkey", "tropic_race"):
        assert f"jungle_envs/games/{package}/RULES.md" in names  # the rules page, offline
    assert [n for n in names if n.endswith("LICENSE") and ".dist-info/" in n]


def test_the_wheel_has_every_file_of_the_package(wheel_names):
    """Nothing under jungle_envs/ that the package might need at run time is left out."""
    source = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "jungle_envs").rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    }
    assert source - set(wheel_names) == set()


def python_in_repo(code: str) -> subprocess.CompletedProcess:
    """``code`` in a fresh Python at the repository's root: nothing imported before it."""
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_multiagent_without_pettingzoo_names_the_extra():
    code = (
        "import importlib, sys\n"
        "sys.modules['pettingzoo'] = None\n"
        "try:\n"
        "    importlib.import_module('jungle_envs.multiagent')\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
        "else:\n"
        "    print('imported')\n"
    )
    done = python_in_repo(code)
    assert done.returncode == 0, done.stderr
    assert "pip install 'jungle-envs[multiagent]'" in done.stdout


def test_gymnasium_make_finds_an_env_without_importing_the_package_first():
    code = (
        "import sys, gymnasium\n"
        "env = gymnasium.make('jungle_envs:jungle_envs/JungleSweep-v0', num_players=3)\n"
        "obs, info = env.reset(seed=0)\n"
        "print(env.unwrapped.game.num_players, obs.shape == env.observation_space.shape)\n"
    )
    done = python_in_repo(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["3", "True"]


def test_rllib_train_without_ray_names_the_extra():
    code = (
        "import runpy, sys\n"
        "sys.modules['ray'] = None\n"
        "runpy.run_module('training.rllib_train', run_name='__main__')\n"
    )
    done = python_in_repo(code)
    assert done.returncode != 0
    err = done.stderr.strip()
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    assert "pip install 'jungle-envs[rllib]'" in err


@pytest.mark.parametrize("env_id", GAMES)
def test_every_game_has_its_training_config(env_id):
    assert game_config_path(env_id).is_file()


def test_a_missing_game_config_fails_loudly(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(training_config, "CONFIG_DIR", tmp_path / "configs")
    env_id = "jungle_envs/TropicRace-v0"
    with pytest.raises(ConfigError, match=r"tropic_race\.json"):
        load_config(env_id)
    with pytest.raises(ConfigError, match=r"jungle_sweep\.json"):
        load_config(None)  # the default env's file is missing too
    with pytest.raises(SystemExit) as exit_info:
        train.main(["--env", env_id, "--out", str(tmp_path / "run")])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("config error: ") and "tropic_race.json" in err
    assert "--config" in err
    assert not (tmp_path / "run").exists()
    # a file given with --config is used instead
    given = tmp_path / "mine.json"
    given.write_text('{"timesteps": 1234}')
    assert load_config(env_id, given)["timesteps"] == 1234


def test_make_test_all_runs_slow_tests_that_make_test_leaves_out():
    makefile = (ROOT / "Makefile").read_text()
    test_all = makefile.split("\ntest-all:")[1].split("\n\n")[0]
    assert "-m ''" in test_all  # every marker, slow included
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "slow", "-p", "no:xdist"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    slow = [line for line in done.stdout.splitlines() if "::" in line]
    assert len(slow) >= 2, done.stdout[-2000:]
    assert {line.split("::")[0] for line in slow} >= {
        "tests/test_saved_state_properties.py",
        "tests/test_soak.py",
    }


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_the_package_carries_each_games_rules_page(name):
    page = ROOT / "docs" / "rules" / f"{ENTRIES[name].package.rsplit('.', 1)[1]}.md"
    assert rules_text(name) == page.read_text(encoding="utf-8")


def test_the_rules_command_prints_a_page_and_refuses_an_unknown_game():
    run = [sys.executable, "-m", "jungle_envs", "rules"]
    done = subprocess.run([*run, "tropic_race"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("# Tropic Race\n")
    bad = subprocess.run([*run, "Chess"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "unknown game 'Chess'" in bad.stderr
    with pytest.raises(ValueError, match="unknown game"):
        rules_text("Chess")
