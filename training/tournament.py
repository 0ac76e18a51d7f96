"""Round-robin tournament between policies, with Bradley-Terry ratings and intervals.

    python -m training.tournament --env jungle_envs/TropicRace-v0 \
        --policies random heuristic ppo runs/TropicRace/model.zip [--players 4] \
        [--games 200] [--seed 0] [--workers 2]

Every pair of policies plays ``--games`` games. In a game the seats alternate between the
two policies (A B A B ...), the pattern shifting each game so both sit everywhere. A game
is won by a policy when every winner sits in its seats; a shared or empty win is a draw.
Ratings are Bradley-Terry strengths fitted to all results (draws count half), shown on the
Elo scale with the mean at 1500; the 95% intervals come from a bootstrap over the games.
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import jungle_envs
from jungle_envs.core.policies import make_policy
from jungle_envs.evaluation import play_game
from jungle_envs.replay import Replay
from training import cli
from training.validate import check_policy_name


def seating(players: int, game_index: int) -> list[int]:
    """0 or 1 per seat: which policy of the pair sits there in this game."""
    return [(seat + game_index) % 2 for seat in range(players)]


def play_pair(job: tuple) -> tuple[int, int, np.ndarray]:
    """One pair's games: (i, j, [wins of i, draws, wins of j])."""
    env_id, players, policies, i, j, games, seed, replays = job
    import torch

    torch.set_num_threads(1)
    game = jungle_envs.make_game(env_id, players)
    pair = [make_policy(policies[i], game), make_policy(policies[j], game)]
    counts = np.zeros(3, dtype=np.int64)
    for g in range(games):
        sides = seating(game.num_players, g)
        history = [] if replays and g < replays[1] else None
        winners = play_game(game, [pair[side] for side in sides], seed + 1000 * i + g, history)
        if history is not None:  # the game as played, from its start
            names = [str(policies[i if side == 0 else j]) for side in sides]
            replay = Replay(game, game.new_state(), history, names)
            replay.save(Path(replays[0]) / f"pair-{i}-{j}-game-{g}.json")
        teams = {sides[w] for w in winners}
        counts[teams.pop() * 2 if len(teams) == 1 else 1] += 1
    return i, j, counts


def points(outcomes: dict[tuple[int, int], np.ndarray], n: int) -> np.ndarray:
    """``wins[i, j]``: points of i against j, a draw counting half to each."""
    wins = np.zeros((n, n))
    for (i, j), (won, drawn, lost) in outcomes.items():
        wins[i, j] += won + drawn / 2
        wins[j, i] += lost + drawn / 2
    return wins


def bradley_terry(wins: np.ndarray, iterations: int = 500) -> np.ndarray:
    """Strengths from ``wins[i, j]`` (points of i against j) by the MM algorithm, with a weak
    prior (half a win against a player of strength 1) that keeps them finite when a policy
    wins or loses every game."""
    games = wins + wins.T
    won = wins.sum(axis=1)
    strength = np.ones(len(wins))
    for _ in range(iterations):
        denom = (games / (strength[:, None] + strength[None, :])).sum(axis=1)
        new = (won + 0.5) / (denom + 1.0 / (strength + 1.0))
        strength = new / np.exp(np.log(new).mean())
    return strength


def elo(strength: np.ndarray) -> np.ndarray:
    return 1500 + 400 * np.log10(strength)


def bootstrap(
    outcomes: dict[tuple[int, int], np.ndarray], n: int, reps: int = 500, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """95% percentile intervals of the Elo ratings, resampling every pair's games."""
    rng = np.random.default_rng(seed)
    samples = np.empty((reps, n))
    for r in range(reps):
        drawn = {pair: rng.multinomial(int(c.sum()), c / c.sum()) for pair, c in outcomes.items()}
        samples[r] = elo(bradley_terry(points(drawn, n), iterations=200))
    return np.percentile(samples, 2.5, axis=0), np.percentile(samples, 97.5, axis=0)


@dataclass
class Tournament:
    names: list[str]
    outcomes: dict[tuple[int, int], np.ndarray]  # (i, j) -> [wins of i, draws, wins of j]
    ratings: np.ndarray
    low: np.ndarray
    high: np.ndarray

    @property
    def wins(self) -> np.ndarray:
        return points(self.outcomes, len(self.names))

    def order(self) -> np.ndarray:
        return np.argsort(-self.ratings, kind="stable")


def run(
    env_id: str,
    policies: Sequence[object],
    players: int | None,
    games: int,
    seed: int,
    workers: int = 1,
    names: Sequence[str] | None = None,
    quiet: bool = True,
    replays: tuple[str, int] | None = None,
) -> Tournament:
    """``quiet=False``: a progress bar over the pairs on stderr (when it is a terminal).
    ``replays=(DIR, K)`` writes each pair's first K games into DIR as replays."""
    if players is None:
        players = jungle_envs.game_class(env_id).spec.default_players
    jobs = [
        (env_id, players, list(policies), i, j, games, seed, replays)
        for i, j in itertools.combinations(range(len(policies)), 2)
    ]
    desc = f"{env_id.split('/')[-1]} pairs"
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            results = list(cli.progress(pool.imap(play_pair, jobs), len(jobs), desc, quiet))
    else:
        results = list(cli.progress(map(play_pair, jobs), len(jobs), desc, quiet))
    n = len(policies)
    outcomes = {(i, j): counts for i, j, counts in results}
    ratings = elo(bradley_terry(points(outcomes, n)))
    low, high = bootstrap(outcomes, n, seed=seed)
    return Tournament([str(x) for x in (names or policies)], outcomes, ratings, low, high)


def print_table(result: Tournament) -> None:
    wins, order = result.wins, result.order()
    width = max(len(name) for name in result.names)
    print(f"{'policy':<{width}}  rating  95% interval  points / games")
    for k in order:
        games = (wins[k] + wins[:, k]).sum()
        print(
            f"{result.names[k]:<{width}}  {result.ratings[k]:6.0f}  "
            f"{result.low[k]:5.0f}-{result.high[k]:<5.0f}  {wins[k].sum():6.1f} / {games:.0f}"
        )
    print("head to head (row's points against column):")
    for k in order:
        cells = " ".join(f"{wins[k, m]:6.1f}" if m != k else "     -" for m in order)
        print(f"  {result.names[k]:<{width}} {cells}")


def main(argv: list[str] | None = None) -> list[tuple[str, float]]:
    parser = cli.parser("training.tournament", __doc__)
    parser.add_argument(
        "--env",
        default="jungle_envs/JungleSweep-v0",
        type=cli.env_id,
        help="env id or game name (TropicRace, tropic_race)",
    )
    parser.add_argument(
        "--policies",
        nargs="+",
        default=["random", "heuristic"],
        help="built-in players (random, heuristic, ppo) or model paths",
    )
    parser.add_argument("--players", type=int, help="player count (None: the game's default)")
    parser.add_argument("--games", type=int, default=200, help="games per pair")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--workers", type=int, default=1, help="processes sharing the pairs")
    parser.add_argument(
        "--replays", metavar="DIR", help="write replays (jungle_envs.replay) of games into DIR"
    )
    parser.add_argument(
        "--replay-games", type=int, default=1, metavar="K",
        help="with --replays: the first K games of each pair (default: 1)",
    )  # fmt: skip
    cli.add_quiet(parser)
    args = parser.parse_args(argv)
    if len(args.policies) < 2:
        parser.error("a tournament needs at least two policies")
    if args.games < 1:
        parser.error("--games must be at least 1")
    for name in args.policies:
        check_policy_name("tournament", "--policies", name)
    if args.replay_games < 1:
        parser.error("--replay-games must be at least 1")
    replays = None
    if args.replays:
        Path(args.replays).mkdir(parents=True, exist_ok=True)
        replays = (args.replays, args.replay_games)
    result = run(
        args.env, args.policies, args.players, args.games, args.seed, args.workers,
        quiet=args.quiet, replays=replays,
    )  # fmt: skip
    print(f"{args.env}: {args.games} games per pair, seats alternating between the two")
    print_table(result)
    if not math.isfinite(float(result.ratings.sum())):
        raise SystemExit("ratings did not converge")
    return [(result.names[k], float(result.ratings[k])) for k in result.order()]


if __name__ == "__main__":
    main()
