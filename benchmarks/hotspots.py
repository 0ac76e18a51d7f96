"""Where an env's step time goes: cProfile over random play, the functions with the most own time.

    python -m benchmarks.hotspots [--env ID] [--players 4] [--steps 20000] [--top 8]

Plays ``--steps`` learner steps of the Gymnasium env on the Python reference engine (the
compiled engine is one opaque call to cProfile) with random opponents and a random
legal learner action (the loop of ``benchmarks.step_speed``'s env column) under cProfile
and prints, per env, the share of the profiled time spent inside each of the ``--top``
functions (own time, callees excluded). cProfile slows pure-Python code unevenly, so read
the shares as where to look, and time any change with ``benchmarks.step_speed``.
"""

from __future__ import annotations

import cProfile
import pstats

import gymnasium as gym
import numpy as np

import jungle_envs
from training import cli


def random_play(env_id: str, players: int, steps: int, seed: int = 0) -> None:
    # The Python reference engine: the compiled one shows up as a single opaque call.
    env = gym.make(env_id, num_players=players, opponents="random", engine="reference")
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    for _ in range(steps):
        legal = np.flatnonzero(info["action_mask"])
        _, _, terminated, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
        if terminated or truncated:
            _, info = env.reset()
    env.close()


def hotspots(env_id: str, players: int, steps: int, top: int) -> list[tuple[float, str]]:
    """``(share of profiled time, "module:line function")`` for the ``top`` functions."""
    profiler = cProfile.Profile()
    profiler.runcall(random_play, env_id, players, steps)
    stats = pstats.Stats(profiler)
    total = stats.total_tt
    rows = []
    for (path, line, name), (_, _, own, _, _) in stats.stats.items():
        where = path.split("site-packages/")[-1]
        if "jungle_envs/" in where:
            where = "jungle_envs/" + where.split("jungle_envs/", 1)[1]
        rows.append((own / total, f"{where}:{line} {name}"))
    return sorted(rows, reverse=True)[:top]


def main(argv: list[str] | None = None) -> dict[str, list[tuple[float, str]]]:
    parser = cli.parser("benchmarks.hotspots", __doc__)
    parser.add_argument(
        "--env",
        type=cli.env_id,
        help="one env id or game name (TropicRace, tropic_race); None: every registered env",
    )
    parser.add_argument("--players", type=int, default=4, help="player count")
    parser.add_argument("--steps", type=int, default=20_000, help="env steps profiled")
    parser.add_argument("--top", type=int, default=8, help="functions shown")
    args = parser.parse_args(argv)
    found = {}
    for env_id in [args.env] if args.env else jungle_envs.ENV_IDS:
        found[env_id] = hotspots(env_id, args.players, args.steps, args.top)
        print(f"{env_id}, {args.players} players, {args.steps} env steps")
        for share, where in found[env_id]:
            print(f"  {share:6.1%}  {where}")
    return found


if __name__ == "__main__":
    main()
