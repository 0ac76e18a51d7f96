"""Round-robin tournament between policies, with a Bradley-Terry rating table.

    python -m training.tournament --env jungle_envs/TropicRace-v0 \
        --policies random heuristic runs/TropicRace/model.zip [--players 4] \
        [--games 200] [--seed 0] [--workers 2]

Every pair of policies plays ``--games`` games. In a game the seats alternate between the
two policies (A B A B ...), the pattern shifting each game so both sit everywhere. A game
is won by a policy when every winner sits in its seats; a shared or empty win is a draw.
Ratings are Bradley-Terry strengths fitted to all results (draws count half), shown on the
Elo scale with the mean at 1500.
"""

from __future__ import annotations

import argparse
import itertools
import math
import multiprocessing
from collections.abc import Sequence

import numpy as np

import jungle_envs
from jungle_envs.core.policies import make_policy
from jungle_envs.evaluation import play_game


def seating(players: int, game_index: int) -> list[int]:
    """0 or 1 per seat: which policy of the pair sits there in this game."""
    return [(seat + game_index) % 2 for seat in range(players)]


def play_pair(job: tuple) -> tuple[int, int, float, float, int]:
    """Results of one pair: (i, j, points of i, points of j, games)."""
    env_id, players, names, i, j, games, seed = job
    import torch

    torch.set_num_threads(1)
    game = jungle_envs.make_game(env_id, players)
    pair = [make_policy(names[i], game), make_policy(names[j], game)]
    points = [0.0, 0.0]
    for g in range(games):
        sides = seating(game.num_players, g)
        winners = play_game(game, [pair[side] for side in sides], seed + 1000 * i + g)
        teams = {sides[w] for w in winners}
        if len(teams) == 1:
            points[teams.pop()] += 1.0
        else:
            points[0] += 0.5
            points[1] += 0.5
    return i, j, points[0], points[1], games


def bradley_terry(wins: np.ndarray, iterations: int = 500) -> np.ndarray:
    """Strengths from ``wins[i, j]`` (points of i against j) by the MM algorithm."""
    n = len(wins)
    games = wins + wins.T
    strength = np.ones(n)
    for _ in range(iterations):
        new = np.empty(n)
        for i in range(n):
            denom = sum(games[i, j] / (strength[i] + strength[j]) for j in range(n) if j != i)
            new[i] = (wins[i].sum() + 0.5) / (denom + 1.0 / (strength[i] + 1.0))  # weak prior
        strength = new / np.exp(np.log(new).mean())
    return strength


def elo(strength: np.ndarray) -> np.ndarray:
    return 1500 + 400 * np.log10(strength)


def run(
    env_id: str, names: Sequence[str], players: int | None, games: int, seed: int, workers: int = 1
) -> tuple[np.ndarray, np.ndarray]:
    if players is None:
        players = jungle_envs.game_class(env_id).spec.default_players
    jobs = [
        (env_id, players, list(names), i, j, games, seed)
        for i, j in itertools.combinations(range(len(names)), 2)
    ]
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            results = pool.map(play_pair, jobs)
    else:
        results = [play_pair(job) for job in jobs]
    wins = np.zeros((len(names), len(names)))
    for i, j, points_i, points_j, _ in results:
        wins[i, j] += points_i
        wins[j, i] += points_j
    return wins, elo(bradley_terry(wins))


def main(argv: list[str] | None = None) -> list[tuple[str, float]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", default="jungle_envs/JungleSweep-v0", choices=jungle_envs.ENV_IDS)
    parser.add_argument("--policies", nargs="+", default=["random", "heuristic"])
    parser.add_argument("--players", type=int)
    parser.add_argument("--games", type=int, default=200, help="games per pair")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    if len(args.policies) < 2:
        parser.error("a tournament needs at least two policies")
    wins, ratings = run(args.env, args.policies, args.players, args.games, args.seed, args.workers)
    order = np.argsort(-ratings)
    width = max(len(name) for name in args.policies)
    print(f"{args.env}: {args.games} games per pair, seats alternating between the two")
    print(f"{'policy':<{width}}  rating  points / games")
    table = []
    for k in order:
        games = (wins[k] + wins[:, k]).sum()
        print(f"{args.policies[k]:<{width}}  {ratings[k]:6.0f}  {wins[k].sum():6.1f} / {games:.0f}")
        table.append((args.policies[k], float(ratings[k])))
    print("head to head (row's points against column):")
    for k in order:
        cells = " ".join(f"{wins[k, m]:6.1f}" if m != k else "     -" for m in order)
        print(f"  {args.policies[k]:<{width}} {cells}")
    if not math.isfinite(float(ratings.sum())):
        raise SystemExit("ratings did not converge")
    return table


if __name__ == "__main__":
    main()
