"""Win rate of a policy against opponents, with a 95% confidence interval.

    python -m training.evaluate --env jungle_envs/JungleSweep-v0 --agent heuristic \
        --opponents random --games 2000 --players 4 --seed 0

``--agent`` and ``--opponents`` take a built-in name (random, heuristic) or a path to a
MaskablePPO .zip. Game i is seeded ``seed + i`` and seats the agent in seat i mod N, so a
run is reproducible and every seat is played equally often.
"""

from __future__ import annotations

import argparse
import json
import time

import jungle_envs
from jungle_envs.evaluation import evaluate


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", default="jungle_envs/JungleSweep-v0", choices=jungle_envs.ENV_IDS)
    parser.add_argument("--agent", default="heuristic")
    parser.add_argument("--opponents", default="random")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None):
    args = parse_args(argv)
    start = time.perf_counter()
    result = evaluate(
        args.env,
        args.agent,
        args.opponents,
        games=args.games,
        num_players=args.players,
        seed=args.seed,
    )
    seconds = time.perf_counter() - start
    lo, hi = result.ci95
    if args.json:
        print(
            json.dumps(
                {
                    "env": args.env,
                    "players": result.num_players,
                    "agent": args.agent,
                    "opponents": args.opponents,
                    "games": result.games,
                    "win_rate": result.win_rate,
                    "ci95": [lo, hi],
                    "sole_wins": result.sole_wins,
                    "shared_wins": result.shared_wins,
                    "mean_score": result.mean_score,
                    "illegal_actions": result.illegal_actions,
                    "decisions_per_game": result.decisions / max(result.games, 1),
                    "per_seat": {s: r.win_rate for s, r in sorted(result.per_seat.items())},
                }
            )
        )
        return result
    print(
        f"{args.agent} vs {args.opponents} on {args.env}, {result.num_players} players, "
        f"seeds {args.seed}..{args.seed + args.games - 1} ({seconds:.0f} s)"
    )
    print(f"  {result.summary()}")
    print(
        f"  sole wins {result.sole_wins}, shared wins {result.shared_wins}, "
        f"learner decisions per game {result.decisions / max(result.games, 1):.1f}"
    )
    per_seat = ", ".join(f"seat {s}: {r.win_rate:.3f}" for s, r in sorted(result.per_seat.items()))
    print(f"  per seat: {per_seat}")
    if result.details:
        means = ", ".join(f"{k} {v:.3f}" for k, v in sorted(result.details.items()))
        print(f"  per game (mean): {means}")
    return result


if __name__ == "__main__":
    main()
