"""Train a MaskablePPO agent on Jungle Sweep for a few minutes and report how it plays.

    python -m training.demo [--timesteps 200000] [--players 4] [--eval-games 1000]
        [--no-move-features]

Trains against random opponents, then plays the agent, the rule-based heuristic and a
random policy against three random opponents on the same seeded games and prints each
one's win rate with a 95% confidence interval. The env runs with the game's
``move_features`` option (where each die face would take the agent's monkey), which the
agent learns from faster than from the plain observation (docs/results.md).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from jungle_envs.evaluation import evaluate
from training import cli
from training.common import make_vec_env, mark_trained_on, new_model

ENV_ID = "jungle_envs/JungleSweep-v0"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = cli.parser("training.demo", __doc__)
    parser.add_argument("--timesteps", type=int, default=200_000, help="training steps")
    parser.add_argument("--players", type=int, default=4, help="player count")
    parser.add_argument("--n-envs", type=int, default=4, help="parallel envs")
    parser.add_argument("--eval-games", type=int, default=1000, help="games per evaluation")
    parser.add_argument("--seed", type=int, default=0, help="random seed")
    parser.add_argument("--out", type=Path, default=Path("runs/demo"), help="run folder")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.add_argument(
        "--no-move-features", action="store_true", help="train on the plain observation"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> dict[str, float]:
    args = parse_args(argv)
    options = {"num_players": args.players, "move_features": not args.no_move_features}
    venv = make_vec_env(ENV_ID, n_envs=args.n_envs, seed=args.seed, **options)
    model = new_model(venv, seed=args.seed)
    mark_trained_on(model, ENV_ID, args.players, {"move_features": not args.no_move_features})
    print(
        f"Training MaskablePPO on {ENV_ID} ({args.players} players, random opponents) "
        f"for {args.timesteps} steps ..."
    )
    start = time.perf_counter()
    model.learn(total_timesteps=args.timesteps, progress_bar=not args.no_progress)
    train_seconds = time.perf_counter() - start
    args.out.mkdir(parents=True, exist_ok=True)
    model_path = args.out / "jungle_sweep_maskable_ppo.zip"
    model.save(model_path)
    print(f"trained in {train_seconds:.0f} s; model saved to {model_path}")

    eval_seed = args.seed + 10_000  # games the agent never trained on
    print(
        f"\nWin rate against {args.players - 1} random opponents, {args.eval_games} games "
        f"each (seeds {eval_seed}..{eval_seed + args.eval_games - 1}, seats rotating):"
    )
    rates = {}
    for name, agent in (
        ("MaskablePPO agent", model),
        ("heuristic", "heuristic"),
        ("random", "random"),
    ):
        result = evaluate(ENV_ID, agent, "random", games=args.eval_games, seed=eval_seed, **options)
        lo, hi = result.ci95
        print(
            f"  {name:<18} {result.win_rate:6.3f}  (95% CI {lo:.3f}-{hi:.3f}), "
            f"mean coconut value {result.mean_score:.2f}, illegal actions "
            f"{result.illegal_actions}"
        )
        rates[name] = result.win_rate
    print(f"  (chance: {1 / args.players:.3f})")
    return rates


if __name__ == "__main__":
    main()
