"""The README's Python examples run as written, each alone in a fresh namespace (as a
reader copies one into a new session), and its set-up commands are the Makefile's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)


def test_the_readme_starts_with_the_two_setup_commands():
    first = re.search(r"```bash\n(.*?)```", README, flags=re.DOTALL)
    assert first is not None and README.index(first.group(0)) < README.index("\n## ")
    commands = [line.split("#")[0].strip() for line in first.group(1).splitlines()]
    assert commands == ["make demo", "make test"]
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^demo: ", makefile, flags=re.MULTILINE)
    assert re.search(r"^test: ", makefile, flags=re.MULTILINE)
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def test_every_python_example_runs(tmp_path, monkeypatch, capsys):
    pytest.importorskip("sb3_contrib")
    from training import demo

    # the model an example loads is the one `make demo` writes; a tiny one stands in
    monkeypatch.chdir(tmp_path)
    demo.main(["--timesteps", "64", "--n-envs", "1", "--eval-games", "2", "--no-progress"])
    assert (tmp_path / "runs" / "demo" / "jungle_sweep_maskable_ppo.zip").exists()
    blocks = python_blocks(README)
    assert len(blocks) >= 5
    for number, block in enumerate(blocks, 1):
        namespace: dict = {"__name__": "readme"}  # each block as if copied alone
        try:
            exec(compile(block, f"README.md python block {number}", "exec"), namespace)
        except Exception as exc:  # name the block that failed, then fail
            raise AssertionError(f"README python block {number} failed: {exc!r}") from exc
    out = capsys.readouterr().out
    assert "[" in out  # the first example prints the scores and winners
    assert "win rate" in out and "EvaluationResult(" not in out  # an evaluation prints as text


def test_the_training_recipe_uses_the_game_configs_settings():
    pytest.importorskip("sb3_contrib")
    from training.config import load_config

    (block,) = [b for b in python_blocks(README) if "CompiledVecEnv(" in b]
    made: dict = {}

    class Recorder:  # stands in for MaskablePPO: the recipe's arguments, not a training run
        def __init__(self, policy, venv, **kwargs):
            made.update(kwargs, policy=policy, venv=venv)

        def learn(self, total_timesteps):
            made["learn"] = total_timesteps

    import sb3_contrib

    namespace: dict = {}
    original = sb3_contrib.MaskablePPO
    sb3_contrib.MaskablePPO = Recorder
    try:
        exec(compile(block, "README.md recipe", "exec"), namespace)
    finally:
        sb3_contrib.MaskablePPO = original
    config = load_config(made["venv"].env_id)
    ppo = dict(config["ppo"])
    assert made["policy_kwargs"] == {"net_arch": ppo.pop("net_arch")}
    for key, value in ppo.items():
        if key in made:
            assert made[key] == value, key
    assert {"n_steps", "batch_size", "n_epochs", "gamma", "ent_coef"} <= set(made)
    assert made["venv"].num_envs == config["n_envs"] and made["device"] == "cpu"
