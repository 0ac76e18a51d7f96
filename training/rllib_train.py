"""Train PPO with Ray RLlib on any env of the package, locally or on a Ray cluster.

    python -m training.rllib_train --env JungleSweep [--players 4] [--mode self|fixed]
        [--fixed random] [--iterations 20] [--num-env-runners 1] [--address ADDRESS]
        [--out runs/rllib-JungleSweep] [--seed 0]

``--mode self`` (default) exposes every seat as an agent and maps them all to one shared
policy (self-play); ``--mode fixed`` makes one random seat per episode the learner and
plays the others with ``--fixed`` (random, heuristic, a model). Observations carry the
action mask, which ``jungle_envs.rllib.MaskedPPOModule`` applies to the logits. A
checkpoint is written after training (and every ``--checkpoint-every`` iterations); then
the command evaluates it against random and heuristic opponents with the package's
evaluation (``training.evaluate --agent rllib:CHECKPOINT``).

Without ``--address`` Ray starts on this machine; ``--address auto`` (or ``ray://host:10001``)
joins a running cluster, where ``--num-env-runners`` can be raised to the cluster's size.
Nothing else changes.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

try:
    import ray
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.tune.registry import register_env
except ModuleNotFoundError as exc:
    if (exc.name or "").partition(".")[0] != "ray":
        raise
    # one line on stderr and exit status 1, no traceback
    raise SystemExit(
        "training.rllib_train needs Ray RLlib: pip install 'jungle-envs[rllib]'"
    ) from None

from jungle_envs.rllib import MODULE_ID, JungleRLlibEnv, MaskedPPOModule
from training import cli
from training.evaluate import report, run_evaluation

ENV_NAME = "jungle_envs_rllib"


def build_config(args: argparse.Namespace) -> PPOConfig:
    env_config = {
        "game": args.env,
        "num_players": args.players,
        "learner_seats": "all" if args.mode == "self" else "one",
        "fixed": args.fixed,
    }
    return (
        PPOConfig()
        # RLlib's env check steps with unmasked random actions, which the games refuse.
        .environment(ENV_NAME, env_config=env_config, disable_env_checking=True)
        .multi_agent(policies={MODULE_ID}, policy_mapping_fn=lambda agent_id, *a, **k: MODULE_ID)
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    MODULE_ID: RLModuleSpec(
                        module_class=MaskedPPOModule, model_config={"fcnet_hiddens": args.hidden}
                    ),
                }
            )
        )
        .env_runners(
            num_env_runners=args.num_env_runners,
            num_envs_per_env_runner=1,
            rollout_fragment_length="auto",
        )
        .learners(num_learners=args.num_learners)
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=min(256, args.batch),
            num_epochs=args.epochs,
            lr=args.lr,
            gamma=1.0,
            entropy_coeff=0.01,
        )
        .debugging(seed=args.seed)
    )


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = cli.parser("training.rllib_train", __doc__)
    parser.add_argument(
        "--env",
        type=cli.env_id,
        default="jungle_envs/JungleSweep-v0",
        help="env id or game name (TropicRace-v0, TropicRace, tropic_race)",
    )
    parser.add_argument("--players", type=int, help="player count (None: the game's default)")
    parser.add_argument(
        "--mode",
        choices=["self", "fixed"],
        default="self",
        help="self: every seat is the shared policy; fixed: one learner seat per episode",
    )
    parser.add_argument("--fixed", default="random", help="opponents in --mode fixed")
    parser.add_argument("--iterations", type=int, default=20, help="training iterations")
    parser.add_argument("--num-env-runners", type=int, default=1, help="env runner processes")
    parser.add_argument("--address", help="a Ray cluster to join (None: start Ray here)")
    parser.add_argument(
        "--num-learners", type=int, default=0, help="learner processes (0: learn in the driver)"
    )
    parser.add_argument("--batch", type=int, default=4000, help="env steps per iteration")
    parser.add_argument("--epochs", type=int, default=5, help="passes over each batch")
    parser.add_argument("--lr", type=float, default=3e-4, help="learning rate")
    parser.add_argument(
        "--hidden", type=int, nargs="+", default=[256, 256], help="hidden layer sizes"
    )
    parser.add_argument(
        "--checkpoint-every", type=int, default=10, help="iterations between checkpoints"
    )
    parser.add_argument(
        "--eval-games", type=int, default=500, help="games against each of random and heuristic"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the run")
    parser.add_argument("--out", type=Path, help="run folder (None: runs/rllib-<game>)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> dict:
    args = parse_args(argv)
    game = args.env.removeprefix("jungle_envs/").removesuffix("-v0")
    out = (args.out or Path("runs") / f"rllib-{game}").resolve()
    out.mkdir(parents=True, exist_ok=True)
    ray.init(
        address=args.address, include_dashboard=False, ignore_reinit_error=True, log_to_driver=False
    )
    register_env(ENV_NAME, lambda config: JungleRLlibEnv(dict(config)))
    algo = build_config(args).build_algo()
    history, start = [], time.perf_counter()
    for iteration in range(1, args.iterations + 1):
        result = algo.train()
        runners = result.get("env_runners", {})
        steps = result.get(
            "num_env_steps_sampled_lifetime", runners.get("num_env_steps_sampled_lifetime", 0)
        )
        history.append(
            {
                "iteration": iteration,
                "env_steps": steps,
                "seconds": round(time.perf_counter() - start, 1),
                "episode_return_mean": runners.get("episode_return_mean"),
            }
        )
        print(json.dumps(history[-1]), flush=True)
        if iteration % args.checkpoint_every == 0 or iteration == args.iterations:
            checkpoint = algo.save(str(out / "checkpoint")).checkpoint.path
    algo.stop()
    ray.shutdown()
    summary = {
        "env": args.env,
        "mode": args.mode,
        "checkpoint": checkpoint,
        "num_env_runners": args.num_env_runners,
        "history": history,
    }
    if args.eval_games:
        for opponents in ("random", "heuristic"):
            result = run_evaluation(
                args.env,
                f"rllib:{checkpoint}",
                opponents,
                args.eval_games,
                args.players,
                seed=10_000,
            )
            summary[f"vs_{opponents}"] = report(result, "rllib", opponents, 0.0)
            print(f"RLlib agent vs {opponents}: {result.summary()}")
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


if __name__ == "__main__":
    main()
