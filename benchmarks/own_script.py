"""A user's own MaskablePPO script against the package's training set-up: time per step.

    python -m benchmarks.own_script [--env TropicRace] [--steps 6144] [--players 4]
        [--setup NAME ...] [--threads N] [--json FILE]

Every set-up trains MaskablePPO for ``--steps`` env steps against heuristic opponents, in
a Python process of its own (so its PyTorch thread setting and imports are its own):

- **script**: the lines a user writes first: ``gymnasium.make``, then
  ``MaskablePPO("MlpPolicy", env)`` with Stable-Baselines3's defaults (one env, rollouts of
  2,048 steps, minibatches of 64, 10 epochs, a 64x64 network);
- **script-subprocess**: the same defaults on SB3's ``make_vec_env`` with 8 envs in
  ``SubprocVecEnv`` worker processes (rollouts of ``--steps`` in all);
- **script-subprocess-1-thread**: the same after ``torch.set_num_threads(1)``, which is
  what ``training.train`` does beside worker processes;
- **script-compiled**: SB3's defaults on ``CompiledVecEnv`` (64 envs stepped in one
  compiled call, rollouts of ``--steps`` in all);
- **recipe**: the README's recipe: ``CompiledVecEnv`` with 64 envs and the game config's
  PPO settings (minibatches of 1,024, 4 epochs, 256x256; ``training/configs``) on the
  threads ``training.train`` gives PyTorch (every core with the compiled env);
- **train**: ``python -m training.train`` itself with ``--timesteps --steps`` against the
  heuristic (its first rollout is the config's 64 x 128 = 8,192 steps).

The script set-ups leave PyTorch on its default number of threads (every core) unless
``--threads`` sets one: on a machine with few cores, ``--threads 8`` shows what threads
beyond the free cores cost. The clock runs over ``learn`` only (``train``: the run's own
``wall_seconds``): imports, compiling and making the envs are not counted (the kernels are
compiled before the first set-up). Set-ups do different numbers of gradient steps per env
step, which is part of what they compare; ``docs/training.md`` explains the differences.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from training import cli

SETUPS = (
    "script",
    "script-subprocess",
    "script-subprocess-1-thread",
    "script-compiled",
    "recipe",
    "train",
)
SUBPROCESS_ENVS, COMPILED_ENVS = 8, 64


def run_setup(setup: str, env_id: str, steps: int, players: int, threads: int | None) -> dict:
    """Train in this process as ``setup`` says; the learn time and the steps done."""
    import gymnasium as gym
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv

    from jungle_envs.sb3 import CompiledVecEnv
    from training.common import torch_threads
    from training.config import load_config

    env_kwargs = {"num_players": players, "opponents": "heuristic"}
    if threads and setup.startswith("script"):
        torch.set_num_threads(threads)
    if setup == "script":
        model = MaskablePPO("MlpPolicy", gym.make(env_id, **env_kwargs), seed=0)
    elif setup.startswith("script-subprocess"):
        if setup.endswith("1-thread"):
            torch.set_num_threads(1)
        venv = make_vec_env(
            env_id, SUBPROCESS_ENVS, seed=0, vec_env_cls=SubprocVecEnv, env_kwargs=env_kwargs
        )
        n_steps = max(1, steps // SUBPROCESS_ENVS)
        model = MaskablePPO("MlpPolicy", venv, n_steps=n_steps, seed=0)
    else:
        venv = CompiledVecEnv(env_id, COMPILED_ENVS, seed=0, **env_kwargs)
        n_steps = max(1, steps // COMPILED_ENVS)
        if setup == "script-compiled":
            model = MaskablePPO("MlpPolicy", venv, n_steps=n_steps, seed=0)
        else:
            ppo = dict(load_config(env_id)["ppo"], n_steps=n_steps)
            arch = ppo.pop("net_arch")
            torch.set_num_threads(torch_threads(venv))
            model = MaskablePPO(
                "MlpPolicy", venv, device="cpu", seed=0, policy_kwargs={"net_arch": arch}, **ppo
            )
    used = torch.get_num_threads()
    start = time.perf_counter()
    model.learn(total_timesteps=steps)
    seconds = time.perf_counter() - start
    model.get_env().close()
    return {"seconds": seconds, "steps": int(model.num_timesteps), "threads": used}


def run_train(env_id: str, steps: int, players: int) -> dict:
    """``python -m training.train`` for ``steps`` steps; its own record of the time."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "run"
        command = [
            sys.executable, "-m", "training.train", "--env", env_id, "--players", str(players),
            "--timesteps", str(steps), "--opponents", "heuristic", "--out", str(out),
            "--no-progress",
        ]  # fmt: skip
        subprocess.run(command, check=True, capture_output=True, text=True)
        summary = json.loads((out / "summary.json").read_text())
        config = json.loads((out / "config.json").read_text())
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    threads = config["torch_threads"] or f"{cores} (every core)"
    return {"seconds": summary["wall_seconds"], "steps": summary["timesteps"], "threads": threads}


def measure(setup: str, env_id: str, steps: int, players: int, threads: int | None) -> dict:
    """One set-up in a fresh process."""
    if setup == "train":
        return run_train(env_id, steps, players)
    command = [
        sys.executable, "-m", "benchmarks.own_script", "--run", setup, "--env", env_id,
        "--steps", str(steps), "--players", str(players), "--threads", str(threads or 0),
    ]  # fmt: skip
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> dict[str, dict]:
    parser = cli.parser("benchmarks.own_script", __doc__)
    parser.add_argument(
        "--env", type=cli.env_id, default="jungle_envs/TropicRace-v0", help="env id or game name"
    )
    parser.add_argument("--steps", type=int, default=6144, help="env steps to train")
    parser.add_argument("--players", type=int, default=4, help="player count")
    parser.add_argument(
        "--setup", nargs="+", choices=SETUPS, default=list(SETUPS), help="set-ups to time"
    )
    parser.add_argument(
        "--threads", type=int, help="PyTorch threads for the script set-ups (None: its default)"
    )
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--run", choices=SETUPS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.steps < 1 or args.players < 1 or (args.threads is not None and args.threads < 0):
        parser.error("--steps and --players must be at least 1, --threads at least 0")
    if args.run:  # a child process: one set-up, one JSON line
        print(json.dumps(run_setup(args.run, args.env, args.steps, args.players, args.threads)))
        return {}
    from jungle_envs.core.compiled.warmup import compile_game

    # compile (or load) the kernels before any clock runs
    compile_game(args.env.removeprefix("jungle_envs/").removesuffix("-v0"))
    print(f"MaskablePPO on {args.env}, {args.players} players, heuristic opponents, "
          f"{args.steps:,} steps requested")  # fmt: skip
    print("| set-up | torch threads | steps | seconds | steps/s | vs script |")
    print("| --- | --- | --- | --- | --- | --- |")
    results: dict[str, dict] = {}
    for setup in args.setup:
        row = results[setup] = measure(setup, args.env, args.steps, args.players, args.threads)
        row["steps_per_s"] = row["steps"] / row["seconds"]
        base = results.get("script", {}).get("steps_per_s")
        ratio = f"{row['steps_per_s'] / base:.1f}x" if base else "-"
        print(
            f"| {setup} | {row['threads']} | {row['steps']:,} | {row['seconds']:.1f} | "
            f"{row['steps_per_s']:,.0f} | {ratio} |",
            flush=True,
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return results


if __name__ == "__main__":
    main()
