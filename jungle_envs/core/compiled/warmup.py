"""Compile every game's kernels ahead of use, a few games at a time in parallel processes.

    jungle-envs warmup [GAME ...] [--workers 2]     (or python -m jungle_envs warmup)

The first use of a game compiles its kernels into numba's on-disk cache (tens of seconds per
game); later processes load them in well under a second. ``make test`` runs this first, so
the test workers load the kernels instead of each compiling them again. It exercises every
entry point: the single env, the vector env, the one-rule calls of ``Twin``, the all-seat
batch and the multi-agent envs' table.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

from jungle_envs.core.registry import GAMES


def compile_game(name: str) -> float:
    import gymnasium as gym
    import numpy as np

    from jungle_envs.core.compiled import runner
    from jungle_envs.core.compiled.twin import Twin

    start = time.perf_counter()
    # the single env without heuristic seats and with them (two versions of its kernel)
    for opponents in ("random", "heuristic"):
        env = gym.make(f"jungle_envs/{name}-v0", engine="compiled", opponents=opponents)
        _, info = env.reset(seed=0)
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
    envs = gym.make_vec(
        f"jungle_envs/{name}-v0", num_envs=2, vectorization_mode="vector_entry_point"
    )
    _, info = envs.reset(seed=0)
    envs.step(np.argmax(info["action_mask"], axis=1))
    twin = Twin(env.unwrapped.game)
    row = twin.new_row()
    while twin.current_player(row) < 0:
        twin.apply_chance(row, twin.sample_chance(row, 0.5))
    seat = twin.current_player(row)
    twin.heuristic_action(row, seat)
    twin.apply_action(row, int(np.flatnonzero(twin.legal_mask(row))[0]))
    twin.scores(row)
    twin.returns(row)
    # the search's rollout (jungle_envs.search), one compiled call per game
    heuristic = np.full(twin.num_players, runner.HEURISTIC, np.int8)
    twin.playout(twin.new_row(), np.zeros(2, np.uint64), heuristic)
    # the all-seat batch and the PettingZoo envs (core/compiled/seat_runner.py)
    from jungle_envs.batch import make_batch
    from jungle_envs.core.turns import make_table

    batch = make_batch(name, 2, num_players=twin.num_players, seed=0, num_threads=1)
    batch.step(batch.view().legal_action_mask.argmax(axis=1))
    table = make_table(env.unwrapped.game, "compiled")
    table.deal(0, True)
    return time.perf_counter() - start


def warm_up(names: list[str], workers: int = 2) -> dict[str, float]:
    """Compile (or load) ``names``' kernels, ``workers`` games at a time; seconds per game.
    Cached kernels of sources no longer on disk are deleted first."""
    from jungle_envs.core.compiled.cache import prune_stale

    start = time.perf_counter()
    stale = prune_stale()
    if stale:
        print(f"deleted {stale} cached kernels of earlier sources")
    with ProcessPoolExecutor(max(1, min(workers, len(names)))) as pool:
        seconds = dict(zip(names, pool.map(compile_game, names), strict=True))
    for name, s in seconds.items():
        print(f"{name}: kernels ready in {s:.1f} s")
    print(f"all ready in {time.perf_counter() - start:.1f} s")
    return seconds


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="default: all")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    return warm_up(args.game or list(GAMES), args.workers)


if __name__ == "__main__":
    main()
