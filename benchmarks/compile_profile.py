"""What a game's first env compiles, function by function (numba's compile events).

    python -m benchmarks.compile_profile [--env GAME ...] [--top N]

Each game in a fresh process with an empty cache: ``gymnasium.make``, ``reset`` and one
``step``, as a new user's first cell. Prints the seconds, how many functions numba
compiled (a function compiled for two argument types counts twice) and the slowest ones
with the time they took, their callees included. ``benchmarks.compiled`` times the same
start without the listing.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

import jungle_envs
from training import cli

PROFILE = """
import json, sys, time
from numba.core import event

stack, rows = [], []


class Listener(event.Listener):
    def on_start(self, ev):
        stack.append(time.perf_counter())

    def on_end(self, ev):
        function = ev.data["dispatcher"].py_func
        name = f"{function.__module__}.{function.__qualname__}"
        rows.append((time.perf_counter() - stack.pop(), name))


event.register("numba:compile", Listener())
import gymnasium as gym, numpy as np
import jungle_envs

start = time.perf_counter()
env = gym.make(sys.argv[1])
_, info = env.reset(seed=0)
env.step(int(np.flatnonzero(info["action_mask"])[0]))
print(json.dumps({"seconds": time.perf_counter() - start, "compiles": sorted(rows)[::-1]}))
"""


def profile(env_id: str) -> dict:
    with tempfile.TemporaryDirectory() as cache:
        environ = {**os.environ, "NUMBA_CACHE_DIR": cache, "JUNGLE_ENVS_COMPILE_NOTICE": "0"}
        out = subprocess.run(
            [sys.executable, "-c", PROFILE, env_id],
            env=environ,
            capture_output=True,
            text=True,
            check=True,
        )
    return json.loads(out.stdout)


def main(argv: list[str] | None = None) -> dict[str, dict]:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.compile_profile", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--env", nargs="+", type=cli.env_id, help="games or env ids (default: every game)"
    )
    parser.add_argument("--top", type=int, default=10, help="functions listed per game")
    args = parser.parse_args(argv)
    env_ids = args.env or jungle_envs.ENV_IDS
    results = {}
    for env_id in env_ids:
        result = results[env_id] = profile(env_id)
        compiles = result["compiles"]
        print(f"{env_id}: {result['seconds']:.1f} s, {len(compiles)} functions compiled")
        for seconds, name in compiles[: args.top]:
            print(f"  {seconds:6.2f} s  {name}")
    return results


if __name__ == "__main__":
    main()
