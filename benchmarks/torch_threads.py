"""Training speed by PyTorch thread count, on a quiet machine and beside a busy process.

    python -m benchmarks.torch_threads [--game NAME ...] [--seconds 30] [--threads 1 2]
        [--json FILE]

For each game and thread count, the game's config (``training/configs``) trains MaskablePPO
on the compiled vector env (64 envs, heuristic opponents, as ``training.train`` does) for
``--seconds`` of wall time, twice: on the machine as it is ("quiet") and while a second
process spins on one core ("loaded", what another job, a browser or a second training run
does to a shared machine). Steps per second are printed per setting; compilation happens
before the clock. PyTorch's default is one thread per core: on a loaded machine its
threads wait for one another at every parallel region, which is what makes it collapse.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import torch

from benchmarks.training_speed import StopAfter
from training import cli
from training.common import make_vec_env, new_model
from training.config import load_config


def spinner() -> subprocess.Popen:
    """A CPU-bound process for the "loaded" runs."""
    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


def measure(game: str, threads: int, seconds: float) -> float:
    config = load_config(f"jungle_envs/{game}-v0")
    venv = make_vec_env(
        config["env"], n_envs=64, seed=0, subprocess=False, vectorization="compiled",
        opponents="heuristic", num_players=config["players"], **config["env_options"],
    )  # fmt: skip
    ppo = dict(config["ppo"], n_steps=128)
    arch = ppo.pop("net_arch")
    model = new_model(venv, seed=0, threads=threads, policy_kwargs={"net_arch": arch}, **ppo)
    venv.reset()  # compiles the kernels (cached after the first run) before the clock
    stop = StopAfter(seconds)
    model.learn(total_timesteps=10**9, callback=stop)
    rate = model.num_timesteps / (time.perf_counter() - stop.started)
    venv.close()
    return rate


def main(argv: list[str] | None = None) -> dict:
    parser = cli.parser("benchmarks.torch_threads", __doc__)
    parser.add_argument("--game", nargs="+", default=["JungleSweep", "TropicRace"])
    parser.add_argument("--seconds", type=float, default=30.0, help="training time per run")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, os.cpu_count() or 1])
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    results: dict = {"cores": os.cpu_count(), "torch_default": torch.get_num_threads()}
    for game in args.game:
        measure(game, 1, 1.0)  # compile and warm up before any clock
        for load in ("quiet", "loaded"):
            for threads in args.threads:
                busy = spinner() if load == "loaded" else None
                try:
                    rate = measure(game, threads, args.seconds)
                finally:
                    if busy is not None:
                        busy.kill()
                        busy.wait()
                results[f"{game} {load} {threads} threads"] = round(rate)
                print(
                    f"{game:16} {load:6} {threads} torch threads: {rate:8.0f} steps/s", flush=True
                )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return results


if __name__ == "__main__":
    main()
