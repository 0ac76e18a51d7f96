"""Steps per second of every registered env: the raw rules engine and the Gymnasium env.

    python -m benchmarks.step_speed [--env ID] [--players N] [--seconds S]

(a) engine: random legal moves for every seat, chance sampled, no observation built; a
    step is one decision by any seat.
(b) env: ``gymnasium.make`` with random opponents; a step is one learner ``env.step`` with
    a random legal action (opponent moves, chance, observation and mask included).
Each figure is the median of three timed runs of ``--seconds`` each.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import gymnasium as gym
import numpy as np

import jungle_envs
from jungle_envs.core.game import CHANCE, TERMINAL
from jungle_envs.core.play import random_step
from jungle_envs.core.registry import game_class


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


def env_run(env_id: str, players: int, seconds: float, seed: int) -> tuple[float, float]:
    env = gym.make(env_id, num_players=players, opponents="random")
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


def median_of(run, repeats: int, *args) -> tuple[float, float]:
    results = [run(*args, seed) for seed in range(repeats)]
    return (
        statistics.median(r[0] for r in results),
        statistics.median(r[1] for r in results),
    )


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", help="one env id (default: every registered env)")
    parser.add_argument("--players", type=int, help="player count (default: the game's)")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of each timed run")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    env_ids = [args.env] if args.env else jungle_envs.ENV_IDS
    print(
        f"Python {platform.python_version()} on {platform.machine()}, "
        f"{args.repeats} runs x {args.seconds:g} s, median"
    )
    header = (
        f"{'env':<28}{'players':>8}{'engine steps/s':>16}{'engine games/s':>16}"
        f"{'env steps/s':>14}{'env games/s':>13}"
    )
    print(header)
    print("-" * len(header))
    rows = []
    for env_id in env_ids:
        players = args.players or game_class(env_id).spec.default_players
        engine = median_of(engine_run, args.repeats, env_id, players, args.seconds)
        env = median_of(env_run, args.repeats, env_id, players, args.seconds)
        print(
            f"{env_id:<28}{players:>8}{engine[0]:>16,.0f}{engine[1]:>16,.1f}"
            f"{env[0]:>14,.0f}{env[1]:>13,.1f}"
        )
        rows.append(
            {
                "env": env_id,
                "players": players,
                "engine_steps_per_s": engine[0],
                "engine_games_per_s": engine[1],
                "env_steps_per_s": env[0],
                "env_games_per_s": env[1],
            }
        )
    return rows


if __name__ == "__main__":
    main()
