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
from pathlib import Path

import torch

from benchmarks import training_speed
from training import cli


def spinner() -> subprocess.Popen:
    """A CPU-bound process for the "loaded" runs."""
    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


def measure(game: str, threads: int, seconds: float) -> float:
    """The compiled set-up of ``benchmarks.training_speed`` (64 envs, 4 players)."""
    return training_speed.measure(game, "compiled", seconds, 4, threads)


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
