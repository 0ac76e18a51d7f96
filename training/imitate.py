"""Warm-start a MaskablePPO model by imitating a teacher on the states the student reaches
(DAgger), then let ``training.train --set init=MODEL`` continue it with PPO.

    python -m training.imitate --env ElephantFestival [--players 4] [--rounds 4]
        [--steps 32768] [--epochs 8] [--lr 0.001] [--batch-size 256] [--seed 0]
        [--out runs/imitate/<Game>-<N>p]

The game's config (``training/configs``) gives the network, the env options, the opponents
(its first curriculum stage, else its ``opponents``) and the learning rate, so the model
fits the run that continues it. Round 0 follows the teacher (the compiled heuristic of the
learner's seat); round r plays the teacher's move with probability ``0.5**r`` and the
student's otherwise, and labels every learner decision with the teacher's move (Ross, Gordon
and Bagnell 2011: the student learns the teacher's answer on its own mistakes). The data of
all rounds is kept. After each round the policy is fitted by cross-entropy on the masked
action distribution, and the value head to the learner's Monte Carlo return from each
state (the config's gamma), so that PPO starts with a critic that matches the actor.

Each round prints how often the student, before training on that round, picks the
teacher's move on it (held-out agreement); ``imitation.json`` in ``--out`` keeps them.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

import jungle_envs
from jungle_envs.core.files import atomic_write_text
from jungle_envs.sb3 import CompiledVecEnv
from training import cli
from training.cli import fail
from training.common import POOL, built_in, mark_trained_on, new_model, policy_setup, torch_threads
from training.config import ConfigError, load_config
from training.selfplay import atomic_save
from training.validate import check_config, split_opponents


class Dataset:
    """Learner decisions: observation, mask, the teacher's move and the return from there."""

    def __init__(self) -> None:
        self.parts: list[tuple[np.ndarray, ...]] = []

    def add(self, obs, masks, teacher, returns) -> None:
        self.parts.append((obs, masks, teacher, returns))

    def arrays(self) -> tuple[np.ndarray, ...]:
        return tuple(np.concatenate(column) for column in zip(*self.parts, strict=True))


def first_opponents(config: dict[str, Any]) -> Any:
    """The opponents the continuing run starts against, as far as the compiled env plays
    them: the league's pool share is left out (it is empty before training), and self-play
    or model opponents give way to the heuristic."""
    stages = config["curriculum"]
    opponents = split_opponents(stages[0]["opponents"] if stages else config["opponents"])
    if isinstance(opponents, dict):
        opponents = {name: w for name, w in opponents.items() if name != POOL and w > 0}
    return opponents if opponents and built_in(opponents) else "heuristic"


def teacher_actions(venv: CompiledVecEnv) -> np.ndarray:
    """The heuristic's move for the learner's seat of every env, in one compiled call."""
    b = venv.vector.buffers  # the learner's observation and mask of every env
    return venv.vector.twin.heuristic_actions(b.rows, b.learners, b.obs, b.masks)


def collect(
    model: Any, venv: CompiledVecEnv, obs: np.ndarray, steps: int, beta: float,
    gamma: float, rng: np.random.Generator,
) -> tuple[tuple[np.ndarray, ...], np.ndarray]:  # fmt: skip
    """``steps`` learner decisions (over all envs); returns (obs, masks, teacher moves,
    returns) and the observation to go on from. Decisions of episodes still running at
    the end get a NaN return (left out of the value fit)."""
    n = venv.num_envs
    rounds = max(1, steps // n)
    size = (rounds, n)
    all_obs = np.zeros((*size, obs.shape[1]), dtype=np.float32)
    all_masks = np.zeros((*size, venv.action_space.n), dtype=bool)
    teacher = np.zeros(size, dtype=np.int64)
    rewards = np.zeros(size)
    dones = np.zeros(size, dtype=bool)
    for t in range(rounds):
        masks = venv.action_masks()
        moves = teacher_actions(venv)
        with torch.no_grad():
            obs_t = torch.as_tensor(obs)
            student = model.policy.get_distribution(obs_t, action_masks=masks).sample().numpy()
        chosen = np.where(rng.random(n) < beta, moves, student)
        all_obs[t], all_masks[t], teacher[t] = obs, masks, moves
        obs, rewards[t], dones[t], _ = venv.step(chosen)
    returns = np.full(size, np.nan)
    to_go = np.full(n, np.nan)  # unknown until the episode ends
    for t in range(rounds - 1, -1, -1):
        to_go = np.where(dones[t], rewards[t], rewards[t] + gamma * to_go)
        returns[t] = to_go
    flat = (all_obs.reshape(-1, obs.shape[1]), all_masks.reshape(-1, all_masks.shape[-1]),
            teacher.reshape(-1), returns.reshape(-1))  # fmt: skip
    return flat, obs


def agreement(model: Any, obs: np.ndarray, masks: np.ndarray, teacher: np.ndarray) -> float:
    """How often the student's most likely legal move is the teacher's."""
    hits = 0
    with torch.no_grad():
        for start in range(0, len(obs), 8192):
            part = slice(start, start + 8192)
            dist = model.policy.get_distribution(
                torch.as_tensor(obs[part]), action_masks=masks[part]
            )
            hits += int((dist.distribution.probs.argmax(1).numpy() == teacher[part]).sum())
    return hits / max(len(obs), 1)


def fit(
    model: Any, data: tuple[np.ndarray, ...], epochs: int, vf_coef: float, seed: int,
    batch_size: int = 256, lr: float | None = None,
) -> dict:  # fmt: skip
    """Cross-entropy on the teacher's moves plus ``vf_coef`` x the value error (over the
    returns' variance), minibatches of ``batch_size``, with the model's own optimizer at
    learning rate ``lr`` (None: as it is). Imitation is supervised and can take larger
    steps than PPO: at PPO's rate a few hundred steps barely move the move scores."""
    obs, masks, teacher, returns = data
    policy, rng = model.policy, np.random.default_rng(seed)
    if lr is not None:
        for group in policy.optimizer.param_groups:
            group["lr"] = lr
    # the value error in units of the returns' variance: score returns run to hundreds,
    # and unscaled they would swamp the move loss in the clipped gradient
    known_returns = returns[~np.isnan(returns)]
    scale = max(float(known_returns.var()), 1.0) if known_returns.size else 1.0
    policy.set_training_mode(True)
    losses = []
    for _ in range(epochs):
        for batch in np.array_split(rng.permutation(len(obs)), max(1, len(obs) // batch_size)):
            obs_t = torch.as_tensor(obs[batch])
            values, log_prob, _ = policy.evaluate_actions(  # one forward pass for both heads
                obs_t, torch.as_tensor(teacher[batch]), action_masks=masks[batch]
            )
            action_loss = -log_prob.mean()
            known = ~np.isnan(returns[batch])
            value_loss = torch.zeros(())
            if known.any():
                values = values.flatten()[torch.as_tensor(known)]
                target = torch.as_tensor(returns[batch][known], dtype=values.dtype)
                value_loss = torch.nn.functional.mse_loss(values, target) / scale
            loss = action_loss + vf_coef * value_loss
            policy.optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), model.max_grad_norm)
            policy.optimizer.step()
            losses.append((action_loss.item(), value_loss.item()))
    policy.set_training_mode(False)
    action, value = np.mean(losses, axis=0)
    return {"action_loss": round(float(action), 4), "value_loss": round(float(value), 4)}


def parse_args(argv: list[str] | None = None):
    parser = cli.parser("training.imitate", __doc__)
    parser.add_argument("--env", type=cli.env_id, required=True, help="env id or game name")
    parser.add_argument("--players", type=int, help="player count (None: the config's)")
    parser.add_argument("--rounds", type=int, default=4, help="DAgger rounds")
    parser.add_argument("--steps", type=int, default=32_768, help="learner decisions per round")
    parser.add_argument("--epochs", type=int, default=8, help="passes over the data per round")
    parser.add_argument("--batch-size", type=int, default=256, help="minibatch size of the fit")
    parser.add_argument("--lr", type=float, default=1e-3, help="learning rate of the fit")
    parser.add_argument("--n-envs", type=int, default=64, help="compiled envs")
    parser.add_argument("--seed", type=int, default=0, help="seed of the envs and the network")
    parser.add_argument("--out", type=Path, help="folder (None: runs/imitate/<Game>-<N>p)")
    parser.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE",
        help="override a config entry as training.train does, e.g. ppo.net_arch=[64,64]",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if not 0 < args.lr < 1:
        fail(f"imitate: error: --lr must be a number between 0 and 1, got {args.lr}")
    for flag, value in (("--rounds", args.rounds), ("--steps", args.steps),
                        ("--epochs", args.epochs), ("--n-envs", args.n_envs),
                        ("--batch-size", args.batch_size)):  # fmt: skip
        if value < 1:
            fail(f"imitate: error: {flag} must be an integer >= 1, got {value}")
    return args


def warm_start(
    config: dict[str, Any], players: int, out: Path, *, rounds: int, steps: int, epochs: int,
    batch_size: int, learning_rate: float, n_envs: int = 64, seed: int = 0,
) -> Path:  # fmt: skip
    """Imitate the heuristic with ``config``'s network and options; saves ``out/model.zip``
    (with ``imitation.json``: every round's agreement, losses and seconds) and returns it."""
    out.mkdir(parents=True, exist_ok=True)
    env_id = config["env"]
    venv = CompiledVecEnv(
        env_id, num_envs=n_envs, seed=seed, num_players=players,
        opponents=first_opponents(config), **config["env_options"],
    )  # fmt: skip
    ppo = dict(config["ppo"])
    arch = ppo.pop("net_arch")
    policy, policy_kwargs = policy_setup({**config, "players": players}, arch)
    model = new_model(venv, seed=seed, policy=policy, policy_kwargs=policy_kwargs, **ppo)
    mark_trained_on(model, env_id, players, config["env_options"])
    torch.set_num_threads(torch_threads(venv))
    rng = np.random.default_rng(seed)
    obs, data, log = venv.reset(), Dataset(), []
    start = time.perf_counter()
    for r in range(rounds):
        beta = 0.5**r
        began = time.perf_counter()
        part, obs = collect(model, venv, obs, steps, beta, ppo["gamma"], rng)
        held_out = agreement(model, *part[:3])
        data.add(*part)
        collected = time.perf_counter()
        losses = fit(model, data.arrays(), epochs, ppo["vf_coef"], seed + r, batch_size,
                     learning_rate)  # fmt: skip
        entry = {"round": r, "beta": beta, "decisions": len(data.arrays()[0]),
                 "agreement_before": round(held_out, 4), **losses,
                 "collect_seconds": round(collected - began, 1),
                 "fit_seconds": round(time.perf_counter() - collected, 1),
                 "seconds": round(time.perf_counter() - start, 1)}  # fmt: skip
        log.append(entry)
        print(json.dumps(entry), flush=True)
    part, obs = collect(model, venv, obs, max(steps // 4, 1), 0.0, ppo["gamma"], rng)
    final = {"agreement_after": round(agreement(model, *part[:3]), 4), "decisions": len(part[0]),
             "seconds": round(time.perf_counter() - start, 1)}  # fmt: skip
    print(json.dumps(final), flush=True)
    venv.close()
    for group in model.policy.optimizer.param_groups:  # PPO goes on at its own rate
        group["lr"] = model.lr_schedule(1.0)
    atomic_save(model, out / "model.zip")
    settings = {"rounds": rounds, "steps": steps, "epochs": epochs, "batch_size": batch_size,
                "learning_rate": learning_rate, "n_envs": n_envs, "seed": seed}  # fmt: skip
    record = {"env": env_id, "players": players, "settings": settings, "rounds": log,
              "final": final}  # fmt: skip
    atomic_write_text(out / "imitation.json", json.dumps(record, indent=2, default=str))
    return out / "model.zip"


def main(argv: list[str] | None = None) -> Path:
    args = parse_args(argv)
    try:
        config = load_config(args.env, None, args.set, args.players)
        check_config(config)
    except ConfigError as exc:
        fail(f"config error: {exc}")
    players = (
        args.players or config["players"] or jungle_envs.game_class(args.env).spec.default_players
    )
    if players not in jungle_envs.game_class(args.env).spec.player_counts:
        fail(f"imitate: error: --players {players} is not a player count of {args.env}")
    stem = args.env.split("/")[-1].removesuffix("-v0")
    out = args.out or Path("runs") / "imitate" / f"{stem}-{players}p"
    model = warm_start(
        config, players, out, rounds=args.rounds, steps=args.steps, epochs=args.epochs,
        batch_size=args.batch_size, learning_rate=args.lr, n_envs=args.n_envs, seed=args.seed,
    )  # fmt: skip
    print(f"model: {model}; continue with: python -m training.train --env {args.env} "
          f"--players {players} --set init={model}")  # fmt: skip
    return model


if __name__ == "__main__":
    main()
