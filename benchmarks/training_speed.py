"""Training throughput before and after the compiled core: MaskablePPO steps per second.

    python -m benchmarks.training_speed [--game NAME ...] [--seconds 90] [--players 4]
        [--policy config|moves|mlp] [--json FILE]

For each game, the game's config (``training/configs``: env options, policy, network,
epochs, batch; the move-scoring policy where the config has ``"policy": "moves"``;
``--policy moves`` or ``mlp`` sets the policy for every game, ``moves`` with the game's
``move_features`` option) trains
for ``--seconds`` of wall time on each set-up (``--setup``; both by default), in one run on
one machine:

- **python**: the Gymnasium env (Python reference engine) in 8 worker processes, as the
  package trained before the compiled core (8 envs, rollouts of 1,024 steps each);
- **compiled**: the compiled vector env in this process, 64 envs (rollouts of 128 each).

Both collect 8,192 steps per update with the same PPO settings, so the ratio is the gain
from the env alone; PyTorch gets one thread beside the worker processes and every core
with the compiled env. Opponents: the heuristic. Compilation happens before the clock.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from stable_baselines3.common.callbacks import BaseCallback

from training import cli
from training.common import make_vec_env, new_model, policy_setup
from training.config import load_config

SETUPS = {"python": (8, 1024), "compiled": (64, 128)}  # envs, steps per env per rollout


class StopAfter(BaseCallback):
    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds
        self.started = 0.0

    def _on_training_start(self) -> None:
        self.started = time.perf_counter()

    def _on_step(self) -> bool:
        return time.perf_counter() - self.started < self.seconds


def game_config(game: str, policy: str = "config") -> dict:
    """The game's training config, with ``policy`` ("moves", "mlp") put in where not
    "config"; "moves" turns the game's move features on, "mlp" off."""
    config = load_config(f"jungle_envs/{game}-v0")
    if policy != "config":
        options = {**config["env_options"], "move_features": policy == "moves"}
        config = {**config, "policy": policy, "env_options": options}
    return config


def measure(
    game: str,
    setup: str,
    seconds: float,
    players: int,
    threads: int | None = None,
    policy: str = "config",
) -> float:
    """Steps/s of the game's config on ``setup``; ``threads`` PyTorch threads (None: the
    training scripts' choice); ``policy`` as ``game_config`` takes it."""
    config = game_config(game, policy)
    envs, steps = SETUPS[setup]
    venv = make_vec_env(
        config["env"], n_envs=envs, seed=0, subprocess=setup == "python",
        vectorization=setup, opponents="heuristic", num_players=players,
        **config["env_options"],
    )  # fmt: skip
    ppo = dict(config["ppo"], n_steps=steps)
    arch = ppo.pop("net_arch")
    policy, policy_kwargs = policy_setup({**config, "players": players}, arch)
    model = new_model(
        venv, seed=0, threads=threads, policy=policy, policy_kwargs=policy_kwargs, **ppo
    )
    venv.reset()  # compiles the kernels (cached after the first run) before the clock
    stop = StopAfter(seconds)
    model.learn(total_timesteps=10**9, callback=stop)
    rate = model.num_timesteps / (time.perf_counter() - stop.started)
    venv.close()
    return rate


def main(argv: list[str] | None = None) -> dict:
    parser = cli.parser("benchmarks.training_speed", __doc__)
    cli.add_games(parser)
    parser.add_argument("--seconds", type=float, default=90.0, help="training time per game")
    parser.add_argument("--players", type=int, default=4, help="player count")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--policy", choices=["config", "moves", "mlp"], default="config",
                        help="the policy of every game (config: each game's own)")  # fmt: skip
    parser.add_argument("--setup", choices=[*SETUPS, "both"], default="both",
                        help="which env set-up to time")  # fmt: skip
    args = parser.parse_args(argv)
    setups = list(SETUPS) if args.setup == "both" else [args.setup]
    results = {}
    print("| game | policy | " + " | ".join(f"{s} (steps/s)" for s in setups)
          + (" | ratio |" if len(setups) == 2 else " |"))  # fmt: skip
    print("| --- " * (2 + len(setups) + (len(setups) == 2)) + "|")
    for game in args.game:
        rates = {
            setup: measure(game, setup, args.seconds, args.players, policy=args.policy)
            for setup in setups
        }
        results[game] = rates
        policy = game_config(game, args.policy).get("policy") or "mlp"
        cells = [f"{rates[s]:,.0f}" for s in setups]
        if len(setups) == 2:
            cells.append(f"{rates['compiled'] / rates['python']:.2f}x")
        print(f"| {game} | {policy} | " + " | ".join(cells) + " |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return results


if __name__ == "__main__":
    main()
