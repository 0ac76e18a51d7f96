"""Train a MaskablePPO agent on any env of the package.

    python -m training.train --env jungle_envs/JungleSweep-v0 [--players N]
        [--opponents random|heuristic|self|MODEL.zip|a,b,c] [--timesteps T] [--n-envs K]
        [--seed S] [--config FILE] [--out DIR] [--resume DIR] [--set ppo.learning_rate=1e-4]

The game's config file (training/configs/<game>.json) gives the defaults: hyperparameters,
network size and budget. The run folder gets the exact config and the library versions,
CSV and TensorBoard logs, periodic evaluations, atomic checkpoints (a killed run loses at
most one interval; ``--resume DIR`` continues it), the final model and a learning curve.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import time
import warnings
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.callbacks import MaskableEvalCallback
from stable_baselines3.common.callbacks import BaseCallback, CallbackList
from stable_baselines3.common.logger import configure

from training import cli
from training.cli import fail
from training.common import (
    make_vec_env,
    mark_trained_on,
    new_model,
    policy_setup,
    set_opponent_mix,
    set_opponent_pool,
    uses_pool,
)
from training.config import DEFAULTS, ConfigError, load_config, merge, read_config_file
from training.plot import plot_run
from training.selfplay import SnapshotCallback, SnapshotPool, atomic_save, atomic_write_text
from training.validate import check_config, split_opponents

PACKAGES = ("jungle-envs", "gymnasium", "numpy", "torch", "stable-baselines3", "sb3-contrib")


def versions() -> dict[str, str]:
    found = {"python": sys.version.split()[0], "platform": platform.platform()}
    for name in PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found


def opponents_for(config: dict[str, Any], out: Path) -> Any:
    spec = config["opponents"]
    if spec != "self":
        return split_opponents(spec)
    players = config["players"]
    sp = config["self_play"]
    return [
        SnapshotPool(
            out / "pool",
            config["env"],
            players,
            config["env_options"],
            sp["fixed"],
            sp["fixed_ratio"],
        )
        for _ in range(players - 1)
    ]


class CurriculumCallback(BaseCallback):
    """Switches the opponent mixture of the compiled vector env at the configured fractions
    of the budget (each stage: ``{"from": fraction, "opponents": mixture}``); ``progress``
    says how much of the budget (steps or wall time) is spent."""

    def __init__(self, stages: list[dict[str, Any]], progress: Callable[[], float]) -> None:
        super().__init__()
        self.stages = sorted(stages, key=lambda stage: stage["from"])
        self.progress = progress
        self.current = -1

    def _on_training_start(self) -> None:
        self._update()

    def _on_step(self) -> bool:
        self._update()
        return True

    def _update(self) -> None:
        done = self.progress()
        stage = max((i for i, st in enumerate(self.stages) if st["from"] <= done), default=-1)
        if stage != self.current and stage >= 0:
            set_opponent_mix(self.training_env, self.stages[stage]["opponents"])
            self.current = stage
            self.logger.record("curriculum/stage", stage)


class LeagueCallback(BaseCallback):
    """Adds a frozen snapshot of the learner to the compiled vector env's pool at the start
    and every ``freq`` steps, keeping the newest ``size`` (an opponent mixture's "pool"
    share plays them)."""

    def __init__(self, freq: int, size: int, deterministic: bool) -> None:
        super().__init__()
        self.freq, self.size, self.deterministic = freq, size, deterministic
        self.players: list[Any] = []
        self._next = 0

    def _on_training_start(self) -> None:
        self._snapshot()

    def _on_step(self) -> bool:
        if self.num_timesteps >= self._next:
            self._snapshot()
        return True

    def _snapshot(self) -> None:
        from jungle_envs.sb3 import PolicyPlayer

        self.players = [*self.players, PolicyPlayer(self.model.policy, self.deterministic)]
        self.players = self.players[-self.size :]
        set_opponent_pool(self.training_env, self.players)
        self._next = self.num_timesteps + self.freq
        self.logger.record("league/pool_size", len(self.players))


class CheckpointCallback(BaseCallback):
    """Saves the model atomically every ``freq`` steps and records where it is; stops the
    run once ``wall_budget`` seconds of training (all sessions together) are spent."""

    def __init__(
        self, out: Path, freq: int, keep: int, wall_before: float, wall_budget: float | None
    ) -> None:
        super().__init__()
        self.dir, self.freq, self.keep = out / "checkpoints", freq, keep
        self.wall_before, self.started = wall_before, time.time()
        self.wall_budget = wall_budget
        self._next = 0

    def _on_training_start(self) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        self._next = self.num_timesteps + self.freq

    def wall_seconds(self) -> float:
        return self.wall_before + time.time() - self.started

    def save(self) -> None:
        path = self.dir / f"step-{self.num_timesteps:010d}.zip"
        atomic_save(self.model, path)
        record = {
            "path": path.name,
            "timesteps": self.num_timesteps,
            "wall_seconds": round(self.wall_seconds(), 1),
        }
        atomic_write_text(self.dir / "latest.json", json.dumps(record))
        for old in sorted(self.dir.glob("step-*.zip"))[: -self.keep]:
            old.unlink(missing_ok=True)

    def _on_step(self) -> bool:
        if self.num_timesteps >= self._next:
            self._next = self.num_timesteps + self.freq
            self.save()
        return self.wall_budget is None or self.wall_seconds() < self.wall_budget

    def progress(self, total_steps: int) -> float:
        """The spent share of the budget: of the steps or of the wall time, whichever
        budget runs out first."""
        steps = self.num_timesteps / max(total_steps, 1)
        if self.wall_budget:
            return max(steps, self.wall_seconds() / self.wall_budget)
        return steps


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = cli.parser("training.train", __doc__)
    parser.add_argument(
        "--env",
        type=cli.env_id,
        help="env id or game name (TropicRace, tropic_race); None: the config's",
    )
    parser.add_argument("--players", type=int, help="player count (None: the config's)")
    parser.add_argument(
        "--opponents",
        help="random, heuristic, ppo, self, a model path, or a,b,c (replaces the config's "
        "opponents and curriculum; None: the config's)",
    )
    parser.add_argument("--timesteps", type=int, help="training steps (None: the config's)")
    parser.add_argument("--n-envs", type=int, help="parallel envs (None: the config's)")
    parser.add_argument("--seed", type=int, help="random seed (None: the config's)")
    parser.add_argument("--config", help="a JSON config file (None: the game's)")
    parser.add_argument("--out", type=Path, help="run folder (None: runs/<Game>-seed<S>)")
    parser.add_argument("--resume", type=Path, help="continue the run in this folder")
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="replace the run already in --out (by default a folder holding a run is refused)",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a config entry, e.g. ppo.learning_rate=1e-4 (repeatable)",
    )
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    return parser.parse_args(argv)


def resolve(args: argparse.Namespace) -> tuple[dict[str, Any], Path, dict | None]:
    """The run's config, folder and checkpoint to resume from (None for a new run); a
    ConfigError before anything is written if the config would not run."""
    if args.resume:
        out = args.resume
        given = [flag for flag, value in (
            ("--env", args.env), ("--players", args.players), ("--opponents", args.opponents),
            ("--n-envs", args.n_envs), ("--seed", args.seed), ("--config", args.config),
            ("--out", args.out), ("--set", args.set), ("--overwrite", args.overwrite),
        ) if value not in (None, [], False)]  # fmt: skip
        if given:
            raise ConfigError(
                f"--resume continues the run as it was saved; drop {', '.join(given)} "
                f"(only --timesteps may change)"
            )
        if not (out / "config.json").is_file():
            what = "has no config.json (is it a run folder?)" if out.is_dir() else "does not exist"
            raise ConfigError(f"--resume {str(out)!r} {what}")
        # a run saved before a key was added to the defaults gets the default
        config = merge(DEFAULTS, read_config_file(out / "config.json"))
        latest_file = out / "checkpoints" / "latest.json"
        if not latest_file.exists():
            raise ConfigError(f"--resume {str(out)!r} has no checkpoint to resume from")
        if args.timesteps is not None:
            config["timesteps"] = args.timesteps
        check_config(config)
        try:
            latest = json.loads(latest_file.read_text())
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{latest_file} is not valid JSON: {exc}") from None
        return config, out, latest
    config = load_config(args.env, args.config, args.set, args.players)
    for key in ("players", "opponents", "timesteps", "n_envs", "seed"):
        value = getattr(args, key)
        if value is not None:
            config[key] = value
    if args.opponents is not None and not any(s.startswith("curriculum=") for s in args.set):
        # --opponents names the opponents of the whole run: the config's curriculum is off
        config["curriculum"] = []
    check_config(config)
    if config["players"] is None:
        import jungle_envs

        config["players"] = jungle_envs.game_class(config["env"]).spec.default_players
    stem = config["env"].split("/")[-1].removesuffix("-v0")
    out = args.out or Path("runs") / f"{stem}-seed{config['seed']}"
    check_new_run_folder(out, args.overwrite)
    return config, out, None


def check_new_run_folder(out: Path, overwrite: bool) -> None:
    """A new run goes to a folder that does not exist or is empty; one holding a finished or
    unfinished run is replaced only with ``--overwrite`` (never mixed with the new run)."""
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out {str(out)!r} is a file, not a run folder")
    if not out.is_dir() or not any(out.iterdir()):
        return
    if not (out / "config.json").is_file():
        raise ConfigError(
            f"--out {str(out)!r} is a folder with other files in it; choose a new or empty one"
        )
    if not overwrite:
        raise ConfigError(
            f"--out {str(out)!r} holds a run; continue it with --resume {out}, replace it with "
            f"--overwrite, or choose another --out"
        )


def prepare_run_folder(out: Path, overwrite: bool) -> None:
    """Make the run folder, after removing the run ``--overwrite`` replaces; a folder that
    cannot be made or written is one line and status 2."""
    try:
        if overwrite and (out / "config.json").is_file():
            shutil.rmtree(out)
        out.mkdir(parents=True, exist_ok=True)
        probe = out / f".write-test.{os.getpid()}"
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        fail(f"config error: cannot write the run folder {str(out)!r}: {exc.strerror or exc}")


def warm_start_run(config: dict[str, Any], out: Path) -> Path:
    """The run's imitation stage (``training.imitate``) into ``out/imitate``; its seconds
    are recorded in ``out/imitate/imitation.json`` and not counted in ``wall_seconds``."""
    from training.imitate import warm_start

    print(f"imitation warm start: {config['imitate']['rounds']} rounds into {out / 'imitate'}")
    return warm_start(
        config, config["players"], out / "imitate", n_envs=config["n_envs"],
        seed=config["seed"], **config["imitate"],
    )  # fmt: skip


def main(argv: list[str] | None = None) -> Path:
    args = parse_args(argv)
    try:
        config, out, latest = resolve(args)
    except ConfigError as exc:
        # one line and status 2, before the run folder or a worker process exists
        fail(f"config error: {exc}")
    env_kwargs = {"num_players": config["players"], **config["env_options"]}
    prepare_run_folder(out, latest is None and args.overwrite)
    session = len(list((out / "logs").glob("session-*"))) if (out / "logs").exists() else 0
    if latest is None:
        atomic_write_text(out / "config.json", json.dumps(config, indent=2))
        atomic_write_text(out / "versions.json", json.dumps(versions(), indent=2))

    venv = make_vec_env(
        config["env"],
        n_envs=config["n_envs"],
        seed=config["seed"] + 1000 * session,
        subprocess=config["n_envs"] > 1,
        vectorization=config["vec_env"],
        opponents=opponents_for(config, out),
        **env_kwargs,
    )
    eval_env = make_vec_env(
        config["env"],
        n_envs=1,
        seed=config["seed"] + 10_000,
        vectorization="python",
        opponents=split_opponents(config["eval"]["opponents"]),
        **env_kwargs,
    )
    ppo = dict(config["ppo"])
    net_arch = ppo.pop("net_arch")
    if latest is None and config["imitate"]["rounds"] and not config["init"]:
        config["init"] = str(warm_start_run(config, out))
    if latest is None:
        policy, policy_kwargs = policy_setup(config, net_arch)
        model = new_model(
            venv,
            seed=config["seed"],
            threads=config["torch_threads"],
            policy=policy,
            policy_kwargs=policy_kwargs,
            **ppo,
        )
        if config["init"]:
            try:  # the network and optimizer of e.g. training.imitate, same architecture
                model.set_parameters(config["init"], exact_match=True, device="cpu")
            except (ValueError, RuntimeError, KeyError) as exc:
                fail(
                    f"config error: init {config['init']!r} does not fit this run's network: {exc}"
                )
        done, wall_before = 0, 0.0
    else:
        model = MaskablePPO.load(out / "checkpoints" / latest["path"], env=venv, device="cpu")
        done, wall_before = latest["timesteps"], latest["wall_seconds"]
    mark_trained_on(model, config["env"], config["players"], config["env_options"])
    session_dir = out / "logs" / f"session-{session}"
    model.set_logger(configure(str(session_dir), ["csv", "tensorboard"]))

    checkpoints = CheckpointCallback(
        out, config["checkpoint_freq"], config["keep_checkpoints"], wall_before,
        config["wall_seconds"],
    )  # fmt: skip
    callbacks = [
        checkpoints,
        MaskableEvalCallback(
            eval_env, n_eval_episodes=config["eval"]["games"],
            eval_freq=max(config["eval"]["freq"] // config["n_envs"], 1),
            log_path=str(session_dir), best_model_save_path=str(out / "best"),
            deterministic=True, verbose=0,
        ),
    ]  # fmt: skip
    if config["opponents"] == "self":
        sp = config["self_play"]
        callbacks.append(SnapshotCallback(out / "pool", sp["snapshot_freq"], sp["pool_size"]))
    if uses_pool(config):
        league = config["league"]
        callbacks.append(
            LeagueCallback(league["snapshot_freq"], league["pool_size"], league["deterministic"])
        )
    if config["curriculum"]:
        total = config["timesteps"]
        callbacks.append(
            CurriculumCallback(config["curriculum"], lambda: checkpoints.progress(total))
        )
    remaining = config["timesteps"] - done
    out_of_time = config["wall_seconds"] and wall_before >= config["wall_seconds"]
    if remaining > 0 and not out_of_time:
        with warnings.catch_warnings():
            # The eval env is one in-process env while training may use worker processes.
            warnings.filterwarnings("ignore", message="Training and eval env are not of the same")
            model.learn(
                total_timesteps=remaining,
                callback=CallbackList(callbacks),
                reset_num_timesteps=latest is None,
                progress_bar=not args.no_progress,
            )
        checkpoints.save()
    atomic_save(model, out / "model.zip")
    summary = {
        "timesteps": int(model.num_timesteps),
        "wall_seconds": checkpoints.wall_seconds(),
        "env": config["env"],
        "players": config["players"],
    }
    atomic_write_text(out / "summary.json", json.dumps(summary, indent=2))
    plot_run(out)
    venv.close()
    eval_env.close()
    print(
        f"trained {summary['timesteps']} steps in {summary['wall_seconds']:.0f} s; "
        f"model: {out / 'model.zip'}"
    )
    return out


if __name__ == "__main__":
    main()
