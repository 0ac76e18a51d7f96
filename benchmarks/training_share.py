"""How much of MaskablePPO's wall time goes into stepping the env, for each game.

    python -m benchmarks.training_share [--env ID] [--timesteps T] [--n-envs K] [--json FILE]

Trains each game's default config (training/configs) for ``--timesteps`` steps with K
envs in one process (DummyVecEnv), every env wrapped in a timer around ``step``, ``reset``
and ``action_masks``: the env's share is the time inside them (observation, mask, opponents
and chance included) over the wall time of ``model.learn``. In-process envs make the share
exact; worker processes would hide it behind inter-process communication.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import gymnasium as gym
from stable_baselines3.common.vec_env import DummyVecEnv

import jungle_envs
from training import cli
from training.common import new_model
from training.config import load_config


class StepTimer(gym.Wrapper):
    """Adds the seconds spent in the wrapped env to a shared counter."""

    def __init__(self, env: gym.Env, clock: list[float]) -> None:
        super().__init__(env)
        self.clock = clock

    def step(self, action):
        start = time.perf_counter()
        out = self.env.step(action)
        self.clock[0] += time.perf_counter() - start
        return out

    def reset(self, **kwargs):
        start = time.perf_counter()
        out = self.env.reset(**kwargs)
        self.clock[0] += time.perf_counter() - start
        return out

    def action_masks(self):
        start = time.perf_counter()
        out = self.env.get_wrapper_attr("action_masks")()
        self.clock[0] += time.perf_counter() - start
        return out


def share(env_id: str, timesteps: int, n_envs: int) -> dict:
    config = load_config(env_id)
    clock = [0.0]

    def factory(rank: int):
        def make():
            env = StepTimer(gym.make(env_id, num_players=config["players"]), clock)
            env.reset(seed=rank)
            return env

        return make

    venv = DummyVecEnv([factory(i) for i in range(n_envs)])
    ppo = dict(config["ppo"])
    net_arch = ppo.pop("net_arch")
    ppo["n_steps"] = min(ppo["n_steps"], max(timesteps // n_envs, 64))
    model = new_model(venv, policy_kwargs={"net_arch": net_arch}, **ppo)
    clock[0] = 0.0
    start = time.perf_counter()
    model.learn(total_timesteps=timesteps)
    wall = time.perf_counter() - start
    return {
        "env": env_id,
        "timesteps": int(model.num_timesteps),
        "wall_s": wall,
        "env_s": clock[0],
        "share": clock[0] / wall,
    }


def main(argv: list[str] | None = None) -> list[dict]:
    parser = cli.parser("benchmarks.training_share", __doc__)
    parser.add_argument(
        "--env",
        type=cli.env_id,
        help="one env id or game name (TropicRace, tropic_race); None: every registered env",
    )
    parser.add_argument("--timesteps", type=int, default=40_960, help="training steps")
    parser.add_argument("--n-envs", type=int, default=8, help="parallel envs")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    rows = []
    print(f"{'env':<34}{'steps':>9}{'wall s':>9}{'env s':>9}{'env share':>11}")
    for env_id in [args.env] if args.env else jungle_envs.ENV_IDS:
        row = share(env_id, args.timesteps, args.n_envs)
        rows.append(row)
        print(
            f"{env_id:<34}{row['timesteps']:>9}{row['wall_s']:>9.1f}{row['env_s']:>9.1f}"
            f"{row['share']:>10.1%}",
            flush=True,
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    return rows


if __name__ == "__main__":
    main()
