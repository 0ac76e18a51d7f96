"""Two policies on the same games: the paired difference of their win rates and margins.

    python -m training.compare --env ElephantFestival --players 4 \
        --agent jungle_envs/agents/ElephantFestival-4p.zip --baseline heuristic \
        --opponents heuristic --games 2000 --seed 95000 [--workers 2] [--json]

Both policies play game i with seed ``seed + i`` from seat ``i mod N`` against the same
``--opponents`` (``training.evaluate``'s games), so luck of the deal and of the dice is
shared and the difference is measured per game: its mean and a normal 95% interval over
the games. That is how strength is compared in this project: on seeds no training or
selection saw, with the interval of the paired difference. Margins (score minus the best
opponent's) are paired over the games both policies finished with scores.

``--option KEY=VALUE`` passes a game option to both; a model brings the options it was
trained on (its observation options stay its own).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

import jungle_envs
from jungle_envs.evaluation import EvaluationResult
from training import cli
from training.cli import fail
from training.evaluate import parse_options, run_evaluation
from training.validate import check_policy_name


def paired_difference(values: list[float]) -> dict[str, Any]:
    """Mean of per-game differences with its normal 95% interval."""
    n = len(values)
    if n == 0:
        return {"games": 0, "mean": math.nan, "ci95": [math.nan, math.nan]}
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(variance / n)
    return {"games": n, "mean": mean, "ci95": [mean - half, mean + half]}


def compare_results(agent: EvaluationResult, baseline: EvaluationResult) -> dict[str, Any]:
    """The paired differences (agent minus baseline) of two evaluations of the same games."""
    if agent.outcomes.keys() != baseline.outcomes.keys():
        raise ValueError("the two evaluations did not play the same games")
    wins, margins = [], []
    for index, (credit, margin) in agent.outcomes.items():
        other_credit, other_margin = baseline.outcomes[index]
        wins.append(credit - other_credit)
        if not (math.isnan(margin) or math.isnan(other_margin)):
            margins.append(margin - other_margin)
    return {
        "agent_result": {"win_rate": agent.win_rate, "mean_margin": agent.mean_margin},
        "baseline_result": {"win_rate": baseline.win_rate, "mean_margin": baseline.mean_margin},
        "win_rate_difference": paired_difference(wins),
        "margin_difference": paired_difference(margins),
    }


def interval(entry: dict[str, Any], digits: int) -> str:
    low, high = entry["ci95"]
    return f"{entry['mean']:+.{digits}f} ({low:+.{digits}f}...{high:+.{digits}f})"


def describe(data: dict[str, Any]) -> str:
    """The comparison in three lines."""
    last = data["seed"] + data["games"] - 1
    agent, baseline = data["agent_result"], data["baseline_result"]
    return "\n".join([
        f"{data['agent']} vs {data['baseline']} in the same seats against {data['opponents']} "
        f"on {data['env']}, {data['players']} players, seeds {data['seed']}..{last}",
        f"  win rate {agent['win_rate']:.3f} vs {baseline['win_rate']:.3f}: "
        f"paired difference {interval(data['win_rate_difference'], 3)}",
        f"  margin {agent['mean_margin']:+.2f} vs {baseline['mean_margin']:+.2f}: "
        f"paired difference {interval(data['margin_difference'], 2)} "
        f"over {data['margin_difference']['games']} games",
    ])  # fmt: skip


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = cli.parser("training.compare", __doc__)
    parser.add_argument("--env", type=cli.env_id, required=True, help="env id or game name")
    parser.add_argument("--agent", required=True, help="a built-in player or a .zip")
    parser.add_argument("--baseline", default="heuristic", help="the policy it is held to")
    parser.add_argument(
        "--opponents", default="heuristic",
        help="a built-in player or model for every other seat, or one per seat, comma-separated",
    )  # fmt: skip
    parser.add_argument("--games", type=int, default=2000, help="games per policy")
    parser.add_argument("--players", type=int, help="player count (None: the game's default)")
    parser.add_argument("--seed", type=int, default=95_000, help="game i is seeded seed + i")
    parser.add_argument("--workers", type=int, default=1, help="processes sharing the games")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE",
        help="a game option for both policies' games (repeatable)",
    )  # fmt: skip
    cli.add_quiet(parser)
    args = parser.parse_args(argv)
    for flag, value, low in (("--games", args.games, 2), ("--workers", args.workers, 1),
                             ("--seed", args.seed, 0)):  # fmt: skip
        if value < low:
            fail(f"compare: error: {flag} must be an integer >= {low}, got {value}")
    counts = jungle_envs.game_class(args.env).spec.player_counts
    if args.players is not None and args.players not in counts:
        fail(f"compare: error: --players must be from {counts.start} to {counts.stop - 1} "
             f"for {args.env}, got {args.players}")  # fmt: skip
    for flag, name in [("--agent", args.agent), ("--baseline", args.baseline)] + [
        ("--opponents", name) for name in args.opponents.split(",")
    ]:
        check_policy_name("compare", flag, name)
    try:
        args.options = parse_options(args.option)
    except ValueError as exc:
        parser.error(str(exc))
    return args


def compare(
    env: str, agent: str, baseline: str, opponents: str, games: int, players: int,
    seed: int, workers: int = 1, options: dict[str, Any] | None = None, quiet: bool = True,
) -> dict[str, Any]:  # fmt: skip
    """Both policies on the same games; the result as ``--json`` prints it."""
    start = time.perf_counter()
    results = [
        run_evaluation(env, policy, opponents, games, players, seed, workers, options or {},
                       quiet=quiet, desc=policy)
        for policy in (agent, baseline)
    ]  # fmt: skip
    return {
        "env": env, "players": players, "agent": agent, "baseline": baseline,
        "opponents": opponents, "games": games, "seed": seed,
        **compare_results(*results), "seconds": round(time.perf_counter() - start, 1),
    }  # fmt: skip


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    players = args.players or jungle_envs.game_class(args.env).spec.default_players
    data = compare(args.env, args.agent, args.baseline, args.opponents, args.games, players,
                   args.seed, args.workers, args.options, args.quiet)  # fmt: skip
    if args.json:
        print(json.dumps(data))
        return data
    print(describe(data))
    return data


if __name__ == "__main__":
    main()
