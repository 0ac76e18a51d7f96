"""Step speed of every registered env and player count.

    python -m benchmarks.step_speed [--env ID] [--players N] [--seconds S] [--repeats R]
                                    [--json FILE] [--no-vector] [--python-vectors]

For each env and player count:
(a) engine: random legal moves for every seat, chance sampled, no observation built; a step
    is one decision by any seat. ``engine`` is the Python reference, ``twin`` the compiled
    twin (``benchmarks/compiled.py``).
(b) env: ``gymnasium.make`` with random opponents; a step is one learner ``env.step`` with
    a random legal action (opponent moves, chance, observation and mask included), on the
    reference engine (``env_ref``) and on the compiled twin (``env_twin``, the default).
(c) vector: the compiled vector env with 1, 64 and 1,024 envs on 1 and 2 threads
    (``vec1024x2``: 1,024 envs, 2 threads); steps count learner steps summed over the envs.
    ``--python-vectors`` adds Gymnasium's sync and async modes with 2 and 8 envs and
    ``jungle_envs.process_vector_env.BatchedVectorEnv`` with 2 and 8 envs in two processes.
(d) memory: peak Python memory (tracemalloc) of creating one env and playing 20 games.
Each speed is the median of ``--repeats`` timed runs of ``--seconds`` each; the JSON has the
minimum and maximum too.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import gymnasium as gym
import numpy as np

import jungle_envs
from benchmarks import compiled
from jungle_envs.core.game import CHANCE, TERMINAL
from jungle_envs.core.random_play import random_step
from jungle_envs.core.registry import game_class
from jungle_envs.process_vector_env import BatchedVectorEnv
from training import cli

# (mode, envs); "batched" is jungle_envs.process_vector_env.BatchedVectorEnv
VECTOR_SETUPS = (
    ("sync", 2), ("sync", 8), ("async", 2), ("async", 8), ("batched", 2), ("batched", 8)
)  # fmt: skip
BATCHED_WORKERS = 1  # plus the caller: two processes step envs on two cores


def engine_run(env_id: str, players: int, seconds: float, seed: int) -> tuple[float, float]:
    game = jungle_envs.make_game(env_id, players)
    rng = np.random.default_rng(seed)
    steps = games = 0
    state = game.new_state()
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        player = random_step(game, state, rng)
        if player == TERMINAL:
            games += 1
            if time.perf_counter() > deadline:
                break
            state = game.new_state()
        elif player != CHANCE:
            steps += 1
    elapsed = time.perf_counter() - start
    return steps / elapsed, games / elapsed


def env_run(
    env_id: str, players: int, seconds: float, seed: int, engine: str = "auto"
) -> tuple[float, float]:
    env = gym.make(env_id, num_players=players, opponents="random", engine=engine)
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    steps = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        legal = np.flatnonzero(info["action_mask"])
        _, _, terminated, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
        if terminated or truncated:
            games += 1
            if time.perf_counter() > deadline:
                break
            _, info = env.reset()
    elapsed = time.perf_counter() - start
    return steps / elapsed, games / elapsed


def vector_run(
    env_id: str, players: int, seconds: float, seed: int, mode: str, num_envs: int
) -> tuple[float, float]:
    kwargs = {"num_players": players, "opponents": "random"}
    if mode == "batched":
        envs = BatchedVectorEnv(env_id, num_envs, num_workers=BATCHED_WORKERS, **kwargs)
    else:
        envs = gym.make_vec(env_id, num_envs=num_envs, vectorization_mode=mode, **kwargs)
    rng = np.random.default_rng(seed)
    _, info = envs.reset(seed=seed)
    steps = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        masks = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        _, _, terminated, truncated, info = envs.step(actions)
        steps += num_envs
        games += int(np.sum(terminated | truncated))
    elapsed = time.perf_counter() - start
    envs.close()
    return steps / elapsed, games / elapsed


def peak_memory(env_id: str, players: int) -> float:
    """Peak traced memory (MiB) of one env over its creation and 20 random games."""
    tracemalloc.start()
    env = gym.make(env_id, num_players=players, opponents="random")
    rng = np.random.default_rng(0)
    for game in range(20):
        _, info = env.reset(seed=game)
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            _, _, done, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
            done = done or truncated
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    env.close()
    return peak / 2**20


def measure(run: Callable, repeats: int, *args) -> dict[str, float]:
    results = [run(*args, seed) for seed in range(repeats)]
    steps = [r[0] for r in results]
    return {
        "steps_per_s": statistics.median(steps),
        "min": min(steps),
        "max": max(steps),
        "games_per_s": statistics.median(r[1] for r in results),
    }


SINGLE_COLUMNS = ("engine", "twin", "env_ref", "env_twin")
VECTOR_COLUMNS = tuple(f"vec{n}x{t}" for n in compiled.VECTOR_SIZES for t in compiled.THREADS)


def benchmark(
    env_id: str,
    players: int,
    seconds: float,
    repeats: int,
    vector: bool = True,
    python_vectors: bool = False,
) -> dict:
    row = {
        "env": env_id,
        "players": players,
        "engine": measure(engine_run, repeats, env_id, players, seconds),
        "twin": measure(compiled.twin_engine_run, repeats, env_id, players, seconds),
        "env_ref": measure(
            lambda e, p, s, seed: env_run(e, p, s, seed, "reference"),
            repeats,
            env_id,
            players,
            seconds,
        ),
        "env_twin": measure(env_run, repeats, env_id, players, seconds),
    }
    if vector:
        for n in compiled.VECTOR_SIZES:
            for t in compiled.THREADS:
                row[f"vec{n}x{t}"] = measure(
                    lambda e, p, s, seed, k=n, th=t: compiled.vector_run(e, p, s, seed, k, th),
                    repeats,
                    env_id,
                    players,
                    seconds,
                )
    if python_vectors:
        for mode, n in VECTOR_SETUPS:
            row[f"{mode}_{n}"] = measure(
                lambda e, p, s, seed, m=mode, k=n: vector_run(e, p, s, seed, m, k),
                repeats,
                env_id,
                players,
                seconds,
            )
    row["peak_mib"] = peak_memory(env_id, players)
    return row


def fmt(cell: dict) -> str:
    return f"{cell['steps_per_s']:,.0f}"


def main(argv: list[str] | None = None) -> list[dict]:
    parser = cli.parser("benchmarks.step_speed", __doc__)
    parser.add_argument(
        "--env",
        type=cli.env_id,
        help="one env id or game name (TropicRace, tropic_race); None: every registered env",
    )
    parser.add_argument("--players", type=int, help="one player count (None: every one)")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of a timed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per cell")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--no-vector", action="store_true", help="skip the vector envs")
    parser.add_argument(
        "--python-vectors", action="store_true", help="add the Python vector envs (slow)"
    )
    cli.add_quiet(parser)
    args = parser.parse_args(argv)
    env_ids = [args.env] if args.env else jungle_envs.ENV_IDS
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; "
        f"median of {args.repeats} runs x {args.seconds:g} s; steps/s"
    )
    columns = list(SINGLE_COLUMNS)
    if not args.no_vector:
        columns += VECTOR_COLUMNS
    if args.python_vectors:
        columns += [f"{m}_{n}" for m, n in VECTOR_SETUPS]
    header = f"{'env':<18}{'N':>2}" + "".join(f"{c:>11}" for c in columns) + f"{'MiB':>6}"
    print(header)
    print("-" * len(header))
    rows = []
    cells = []
    for env_id in env_ids:
        spec = game_class(env_id).spec
        counts = [args.players] if args.players else list(spec.player_counts)
        cells += [(env_id, players) for players in counts]
    for env_id, players in cli.progress(cells, len(cells), "benchmarks", args.quiet):
        row = benchmark(
            env_id,
            players,
            args.seconds,
            args.repeats,
            not args.no_vector,
            args.python_vectors,
        )
        rows.append(row)
        name = env_id.split("/")[1].removesuffix("-v0")
        print(
            f"{name:<18}{players:>2}"
            + "".join(f"{fmt(row[c]):>11}" for c in columns)
            + f"{row['peak_mib']:>6.1f}",
            flush=True,
        )
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "python": platform.python_version(),
                    "machine": platform.machine(),
                    "cpus": os.cpu_count(),
                    "rows": rows,
                },
                indent=2,
            )
        )
    return rows


if __name__ == "__main__":
    main()
