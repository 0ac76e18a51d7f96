"""Self-play at kernel speed: MaskablePPO whose learner plays every seat, or a chosen
subset, of ``jungle_envs.make_batch``'s games, against its own snapshots and built-in
players that never leave the kernel.

    python -m training.allseat --game TropicRace --players 4 --out runs/tr4-self \\
        --seats learner,learner,snapshot,heuristic \\
        --init jungle_envs/agents/TropicRace-4p.zip --seconds 1500

Each seat is one of:

- ``learner``: the model being trained decides, and learns from every such decision;
- ``snapshot``: a frozen copy of the learner, drawn from a pool of the newest copies at
  each rollout (a copy joins every ``--snapshot-every`` rollouts; with 0 none joins, so
  the snapshot seats keep the model the run started from: a learner that has to beat
  that model, as AlphaGo Zero's new networks had to beat the best one so far); a
  snapshot samples its moves, or with ``--greedy-snapshots`` plays its likeliest move,
  as a saved model does when it is named as an opponent;
- ``random`` / ``heuristic``: played inside the compiled kernel.

Every learner seat of every game is a lane (``training.lanes``): a decision is paid what
its seat earned until the seat's next decision, and its advantage is GAE along the lane.
The PPO update is MaskablePPO's own, on a buffer of the closed decisions. The model is
saved as ``OUT/model.zip`` (loads as ``opponents="OUT/model.zip"``), with checkpoints
and ``OUT/progress.csv`` (steps, seconds, steps/s, games, the mean final return of the
learner's seats over the games that ended in the rollout (nan if none), the losses).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch as th
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer
from stable_baselines3.common.logger import configure
from stable_baselines3.common.vec_env import DummyVecEnv

import jungle_envs
from jungle_envs.maskable_ppo import trained_on
from training import cli
from training.common import mark_trained_on, new_model, policy_setup, sharpen_logits
from training.config import load_config
from training.lanes import LaneBuffer
from training.luck import check_averaged, expected_returns
from training.selfplay import atomic_save

SEAT_KINDS = ("learner", "snapshot", "random", "heuristic")
BUILT_IN = {"random": "random", "heuristic": "heuristic"}


def parse_seats(text: str, players: int) -> list[str]:
    seats = [part.strip() for part in text.split(",")]
    if len(seats) == 1:
        seats *= players
    unknown = sorted(set(seats) - set(SEAT_KINDS))
    if unknown or len(seats) != players:
        raise ValueError(
            f"--seats needs {players} of {SEAT_KINDS} (or one for every seat), got {text!r}"
        )
    if "learner" not in seats:
        raise ValueError("--seats needs at least one learner seat")
    return seats


class AllSeatTrainer:
    """PPO on a ``GameBatch`` whose learner seats the model plays (see the module)."""

    def __init__(
        self,
        model: MaskablePPO,
        game: str,
        players: int,
        seats: list[str],
        env_options: dict[str, Any],
        num_envs: int = 256,
        rollout: int = 8192,
        seed: int = 0,
        pool_size: int = 8,
        snapshot_every: int = 10,
        greedy_snapshots: bool = False,
        average_luck: bool = False,
    ) -> None:
        self.model, self.seats = model, seats
        if getattr(model, "_logger", None) is None:
            model.set_logger(configure(None, []))  # train() records its losses here
        spec = jungle_envs.game_class(game).spec
        names = {option.name for option in spec.options}
        self.game_options = {k: v for k, v in env_options.items() if k in names}
        self.reward = env_options.get("reward", "win")
        if average_luck:
            check_averaged(game, self.reward)
        self.average_luck = average_luck
        self.batch = jungle_envs.make_batch(
            game,
            num_envs,
            num_players=players,
            seed=seed,
            reward=self.reward,
            skip_forced_actions=True,
            opponents=[BUILT_IN.get(kind) for kind in seats],
            **self.game_options,
        )
        self.learner = np.array([kind == "learner" for kind in seats])
        self.snapshot = np.array([kind == "snapshot" for kind in seats])
        self.learner_seats = np.flatnonzero(self.learner)
        self.rollout, self.rng = rollout, np.random.default_rng(seed)
        if pool_size < 1 or snapshot_every < 0:
            raise ValueError(
                f"pool_size must be at least 1 and snapshot_every at least 0 (0: never), "
                f"got {pool_size} and {snapshot_every}"
            )
        self.pool: list[Any] = [self.frozen()]
        self.pool_size, self.snapshot_every = pool_size, snapshot_every
        self.greedy_snapshots = greedy_snapshots
        self.lanes = LaneBuffer(
            num_envs,
            players,
            self.batch.observation_size,
            self.batch.num_actions,
            rollout + 2 * num_envs * players,
        )
        self.view = self.batch.reset()
        self.steps = self.rollouts = self.games = 0
        self.final_returns: list[float] = []

    def frozen(self) -> Any:
        """A copy of the learner's policy as it is now (its weights; no optimizer)."""
        model = self.model
        policy = model.policy_class(
            model.observation_space, model.action_space, model.lr_schedule, **model.policy_kwargs
        )
        policy.load_state_dict(model.policy.state_dict())
        policy.set_training_mode(False)
        return policy

    @staticmethod
    def act(policy: Any, obs: np.ndarray, masks: np.ndarray, deterministic: bool = False):
        with th.no_grad():
            actions, values, log_probs = policy(
                th.as_tensor(obs), deterministic=deterministic, action_masks=masks
            )
        return actions.numpy(), values.numpy().ravel(), log_probs.numpy()

    def collect(self) -> None:
        """Play until ``rollout`` learner decisions have closed."""
        opponent = self.pool[self.rng.integers(len(self.pool))]
        self.final_returns = []
        while self.lanes.num_closed < self.rollout:
            view = self.view
            live = ~view.terminated
            actions = np.zeros(self.batch.num_envs, dtype=np.int64)
            mine = np.flatnonzero(live & self.learner[view.current_player])
            if len(mine):
                obs, masks = view.observation[mine], view.legal_action_mask[mine]
                chosen, values, log_probs = self.act(self.model.policy, obs, masks)
                actions[mine] = chosen
                self.lanes.decide(
                    mine, view.current_player[mine], obs, masks, chosen, values, log_probs
                )
                self.steps += len(mine)
            theirs = np.flatnonzero(live & self.snapshot[view.current_player])
            if len(theirs):
                masks = view.legal_action_mask[theirs]
                actions[theirs] = self.act(
                    opponent, view.observation[theirs], masks, self.greedy_snapshots
                )[0]
            self.view = view = self.batch.step(actions)
            ended = np.flatnonzero(view.terminated)
            if self.average_luck:
                self.pay_averaged(view, ended)
            self.lanes.earn(view.rewards, self.learner_seats)
            if len(ended):
                self.lanes.end_games(ended)
                self.games += len(ended)
                self.final_returns += view.returns[ended][:, self.learner_seats].ravel().tolist()

    def pay_averaged(self, view: Any, ended: np.ndarray) -> None:
        """Replace the win reward of the games that ended by its mean over the draw no
        decision affects (``training.luck``); the win reward is paid only at the end."""
        batch = self.batch
        for i in ended:
            view.rewards[i] = expected_returns(batch.game.config, batch.twin.unpack(batch.rows[i]))

    def closed_buffer(self) -> MaskableRolloutBuffer:
        """MaskablePPO's rollout buffer of the closed decisions, with their advantages."""
        model, lanes = self.model, self.lanes
        order, advantages = lanes.advantages(model.gamma, model.gae_lambda)
        # whole minibatches only (a minibatch of one has no advantage spread): a few
        # decisions, drawn at random, sit this update out
        size = len(order) - len(order) % model.batch_size or len(order)
        keep = np.sort(self.rng.permutation(len(order))[:size])
        order, advantages = order[keep], advantages[keep]
        buffer = MaskableRolloutBuffer(
            size,
            model.observation_space,
            model.action_space,
            device="cpu",
            gamma=model.gamma,
            gae_lambda=model.gae_lambda,
            n_envs=1,
        )
        buffer.observations[:, 0] = lanes.obs[order]
        buffer.actions[:, 0, 0] = lanes.actions[order]
        buffer.rewards[:, 0] = lanes.rewards[order]
        buffer.values[:, 0] = lanes.values[order]
        buffer.log_probs[:, 0] = lanes.log_probs[order]
        buffer.advantages[:, 0] = advantages
        buffer.returns[:, 0] = advantages + lanes.values[order]
        buffer.action_masks[:, 0] = lanes.masks[order]
        buffer.pos, buffer.full = size, True
        return buffer

    def update(self) -> dict[str, float]:
        """One PPO update on the closed decisions; the open ones wait for the next rollout."""
        model = self.model
        model.rollout_buffer = self.closed_buffer()
        model.num_timesteps = self.steps
        model._current_progress_remaining = 1.0  # the run is timed: schedules stay at start
        model.train()
        self.lanes = self.lanes.carried()
        self.rollouts += 1
        if self.snapshot_every and self.rollouts % self.snapshot_every == 0:
            self.pool = [*self.pool, self.frozen()][-self.pool_size :]
        logged = model.logger.name_to_value
        return {
            key.split("/")[-1]: float(logged[key]) for key in logged if key.startswith("train/")
        }

    def close(self) -> None:
        self.batch.close()


def run_options(args: argparse.Namespace) -> dict[str, Any]:
    """The env options of the run: the ``--init`` model's own, then ``--option`` k=v."""
    options: dict[str, Any] = {}
    if args.init:
        trained = trained_on(MaskablePPO.load(args.init, device="cpu"))
        options = dict((trained or {}).get("env_options") or {})
    for item in args.option:
        key, _, raw = item.partition("=")
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    return options


def build_model(args: argparse.Namespace, env_id: str, env_options: dict[str, Any]):
    """The learner: the ``--init`` model with this run's PPO settings, or a new one by the
    game's training config (its policy and network)."""
    config = load_config(env_id, players=args.players)
    ppo = {
        **config["ppo"],
        "learning_rate": args.learning_rate,
        "ent_coef": args.ent_coef,
        "batch_size": args.batch_size,
        "n_epochs": args.epochs,
    }
    if args.vf_coef is not None:
        ppo["vf_coef"] = args.vf_coef
    arch = ppo.pop("net_arch")
    th.set_num_threads(args.threads)
    if args.init:
        names = ("learning_rate", "ent_coef", "batch_size", "n_epochs")
        keep = {key: ppo[key] for key in names}
        if args.vf_coef is not None:
            keep["vf_coef"] = args.vf_coef
        model = MaskablePPO.load(args.init, device="cpu", custom_objects=keep)
        if args.sharpen != 1.0:
            sharpen_logits(model, args.sharpen)
        return model
    run = {**config, "players": args.players, "env_options": env_options}
    policy, policy_kwargs = policy_setup(run, arch)
    env = gym.make(env_id, num_players=args.players, **env_options)
    return new_model(
        DummyVecEnv([lambda: env]),
        seed=args.seed,
        threads=args.threads,
        policy=policy,
        policy_kwargs=policy_kwargs,
        **ppo,
    )


def main(argv: list[str] | None = None) -> Path:
    parser = cli.parser("training.allseat", __doc__)
    parser.add_argument("--game", required=True, type=cli.game_name, help="the game, by name")
    parser.add_argument("--players", type=int, default=4, help="player count")
    parser.add_argument(
        "--seats",
        default="learner",
        help=f"per seat, comma-separated, of {SEAT_KINDS} (one: every seat)",
    )
    parser.add_argument("--init", help="start from this model (else a new one)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        help="an env option key=value (JSON), e.g. reward=rank (repeatable)",
    )
    parser.add_argument("--out", type=Path, required=True, help="run folder")
    parser.add_argument("--seconds", type=float, default=1500.0, help="wall-time budget")
    parser.add_argument("--steps", type=int, default=10**9, help="learner decisions budget")
    parser.add_argument("--num-envs", type=int, default=256, help="games played at once")
    parser.add_argument("--rollout", type=int, default=8192, help="decisions per update")
    parser.add_argument("--learning-rate", type=float, default=1e-4, help="PPO step size")
    parser.add_argument("--ent-coef", type=float, default=0.003, help="entropy bonus")
    parser.add_argument(
        "--sharpen",
        type=float,
        default=1.0,
        help="multiply the --init model's logits by this (same likeliest moves, draws "
        "closer to them)",
    )
    parser.add_argument(
        "--vf-coef",
        type=float,
        help="value loss weight (default: the --init model's, else the config's); the value "
        "head shares the state embedding with the move scores, so a large value error "
        "(a score margin) can drown the policy's gradient there",
    )
    parser.add_argument("--batch-size", type=int, default=1024, help="PPO minibatch")
    parser.add_argument("--epochs", type=int, default=4, help="PPO epochs per update")
    parser.add_argument("--pool-size", type=int, default=8, help="snapshots kept")
    parser.add_argument(
        "--snapshot-every", type=int, default=10, help="rollouts (0: keep the starting model)"
    )
    parser.add_argument(
        "--greedy-snapshots",
        action="store_true",
        help="snapshot seats play their likeliest move, as a model does as an opponent",
    )
    parser.add_argument(
        "--average-luck",
        action="store_true",
        help="pay each game's end by the win reward's mean over the draw no decision "
        "affects (Jungle Sweep: the coconut values, given every monkey's count), a "
        "reward with the same mean and less noise (training.luck)",
    )
    parser.add_argument("--checkpoint-every", type=int, default=50, help="rollouts")
    parser.add_argument("--threads", type=int, default=1, help="PyTorch threads")
    parser.add_argument("--seed", type=int, default=0, help="env i is dealt seed + i")
    args = parser.parse_args(argv)
    try:
        seats = parse_seats(args.seats, args.players)
    except ValueError as exc:
        parser.error(str(exc))
    if args.sharpen <= 0 or (args.sharpen != 1.0 and not args.init):
        parser.error("--sharpen must be positive and needs --init")
    if args.vf_coef is not None and args.vf_coef < 0:
        parser.error("--vf-coef must be 0 or more")
    if args.pool_size < 1 or args.snapshot_every < 0:
        parser.error("--pool-size must be at least 1 and --snapshot-every at least 0")
    env_id = f"jungle_envs/{jungle_envs.game_class(args.game).spec.env_name}-v0"
    env_options = run_options(args)
    if args.average_luck:
        try:
            check_averaged(args.game, env_options.get("reward", "win"))
        except ValueError as exc:
            parser.error(str(exc))
    out = args.out
    (out / "checkpoints").mkdir(parents=True, exist_ok=True)
    model = build_model(args, env_id, env_options)
    model.set_logger(configure(str(out), ["csv"]))
    trainer = AllSeatTrainer(
        model,
        args.game,
        args.players,
        seats,
        env_options,
        num_envs=args.num_envs,
        rollout=args.rollout,
        seed=args.seed,
        pool_size=args.pool_size,
        snapshot_every=args.snapshot_every,
        greedy_snapshots=args.greedy_snapshots,
        average_luck=args.average_luck,
    )
    if model.observation_space.shape != (trainer.batch.observation_size,):
        raise SystemExit(
            f"the model sees {model.observation_space.shape} values, the game "
            f"with {env_options} shows {trainer.batch.observation_size}"
        )
    (out / "run.json").write_text(
        json.dumps(
            {**vars(args), "out": str(out), "seats": seats, "env_options": env_options}, indent=2
        )
    )
    started = time.perf_counter()
    try:
        while time.perf_counter() - started < args.seconds and trainer.steps < args.steps:
            trainer.collect()
            finals = trainer.final_returns
            stats = trainer.update()
            seconds = time.perf_counter() - started
            for key, value in (
                ("steps", trainer.steps),
                ("seconds", round(seconds, 1)),
                ("steps_per_s", round(trainer.steps / seconds)),
                ("games", trainer.games),
                ("final_return", float(np.mean(finals)) if finals else float("nan")),
            ):
                model.logger.record(f"selfplay/{key}", value)
            model.logger.dump(trainer.steps)
            print(
                f"rollout {trainer.rollouts}: {trainer.steps:,} decisions, {seconds:.0f} s, "
                f"{trainer.steps / seconds:,.0f}/s, final return "
                f"{np.mean(finals) if finals else float('nan'):+.3f}, "
                f"value loss {stats.get('value_loss', 0.0):.4f}",
                flush=True,
            )
            if trainer.rollouts % args.checkpoint_every == 0:
                atomic_save(model, out / "checkpoints" / f"model-{trainer.steps:010d}.zip")
    finally:
        trainer.close()
    mark_trained_on(model, env_id, args.players, env_options)
    atomic_save(model, out / "model.zip")
    print(f"saved {out / 'model.zip'} after {trainer.steps:,} learner decisions")
    return out / "model.zip"


if __name__ == "__main__":
    main()
