"""Ship a trained agent inside the package as the ``"ppo"`` opponent of its game.

    python -m training.ship RUN_DIR [--model PATH | --select GAMES] [--dest DIR]

RUN_DIR is a run of ``training.train`` (``config.json``), of the self-play recipe
``training.allseat`` (``run.json``) or of ``training.distill`` (``distill.json``); of the
last two, the final model or ``--model``, no ``--select``.

Takes the run's final model (or ``--model``, e.g. one of its checkpoints; or with
``--select`` the one of the imitation warm start, the run's checkpoints and the final
model that wins most often
against three heuristics on GAMES validation games, seeds 40,000 on, which neither
training nor the reported evaluations use), drops the
optimizer state (only inference is shipped), checks that the file stays under 5 MB and
that it records what it was trained on, writes ``jungle_envs/agents/<Game>-<N>p.zip`` and
records in ``manifest.json`` how it was trained (steps, wall time, opponents, curriculum,
PPO settings) so the docs can say it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from sb3_contrib import MaskablePPO

from jungle_envs import agents
from training import cli
from training.cli import fail
from training.selfplay import atomic_save, atomic_write_text

# What a model keeps only to go on training: the last batch of observations and episode
# statistics (for the largest observation, more than the network itself).
TRAINING_ONLY = ["_last_obs", "_last_original_obs", "_last_episode_starts", "ep_info_buffer",
                 "ep_success_buffer"]  # fmt: skip


def strip_optimizer(model: MaskablePPO) -> None:
    """Replace the optimizer by a fresh one: its running moments are two thirds of a
    checkpoint and mean nothing to a player."""
    policy = model.policy
    policy.optimizer = policy.optimizer_class(
        policy.parameters(), lr=model.lr_schedule(1.0), **policy.optimizer_kwargs
    )


# The settings of a self-play run (``training.allseat``'s run.json) the manifest keeps.
ALLSEAT_SETTINGS = ("seats", "seconds", "num_envs", "rollout", "learning_rate", "ent_coef",
                    "batch_size", "epochs", "pool_size", "snapshot_every", "seed")  # fmt: skip


# The settings of a distillation (``training.distill``'s distill.json) the manifest keeps.
DISTILL_SETTINGS = ("teacher", "rounds", "games", "beta", "epochs", "batch_size", "lr",
                    "target", "temperature", "min_share", "overruled_weight", "move_layers",
                    "refit_layers", "opponents", "seed", "data")  # fmt: skip
RUN_FILES = ("config.json", "run.json", "distill.json")


def run_config(run: Path) -> tuple[str, dict[str, Any]]:
    """Which recipe wrote the run ("train", "allseat" or "distill") and its settings (a
    distillation's with its ``init``, its seconds and its rounds)."""
    if (run / "config.json").is_file():
        return "train", json.loads((run / "config.json").read_text())
    if (run / "distill.json").is_file():
        record = json.loads((run / "distill.json").read_text())
        return "distill", {**record["settings"], "seconds": record["seconds"],
                           "rounds_log": record["rounds"]}  # fmt: skip
    return "allseat", json.loads((run / "run.json").read_text())


def allseat_wall(run: Path, steps: int) -> float | None:
    """Seconds into a self-play run when its learner had made ``steps`` decisions (its
    progress log: the first rollout that reached them)."""
    import csv

    with open(run / "progress.csv", newline="") as log:
        for row in csv.DictReader(log):
            if int(float(row["selfplay/steps"])) >= steps:
                return round(float(row["selfplay/seconds"]), 1)
    return None


def checkpoint_steps(run: Path, model_path: Path) -> int | None:
    """PPO steps behind a model of the run: 0 for its imitation warm start."""
    if model_path.resolve() == (run / "imitate" / "model.zip").resolve():
        return 0
    found = re.fullmatch(r"step-(\d+)", model_path.stem)
    if found:
        return int(found.group(1))
    summary = run / "summary.json"
    return json.loads(summary.read_text())["timesteps"] if summary.exists() else None


def wall_at(run: Path, steps: int | None) -> float | None:
    """Training wall time when the run had taken ``steps`` steps (its checkpoint log)."""
    if steps == 0:
        return 0.0
    summary = run / "summary.json"
    if summary.exists():
        record = json.loads(summary.read_text())
        if record["timesteps"] == steps:
            return round(record["wall_seconds"], 1)
    from training.results import checkpoint_time

    if steps is None:
        return None
    return round(checkpoint_time(run, Path(f"step-{steps:010d}.zip"))[1], 1)


def imitation_record(run: Path) -> dict[str, Any] | None:
    """The run's imitation stage in brief (None without one): rounds, the student's final
    agreement with the heuristic on its own states, and the seconds it took."""
    path = run / "imitate" / "imitation.json"
    if not path.exists():
        return None
    record = json.loads(path.read_text())
    final = record["final"]
    return {"rounds": len(record["rounds"]), "agreement": final["agreement_after"],
            "seconds": final.get("seconds", record["rounds"][-1]["seconds"])}  # fmt: skip


def continued_from(
    init: Any, target: Path, shipped: dict | None, init_record: dict | None = None
) -> dict[str, Any] | None:
    """The model a run started from (its config's ``init``; None for a fresh run): its
    PPO steps and, when it is the agent this ship replaces (or the model that agent was
    shipped from), that agent's own record."""
    if not init:
        return None
    steps = int(MaskablePPO.load(init, device="cpu").num_timesteps)
    found: dict[str, Any] = {"model": str(init), "timesteps": steps}
    # the shipped agent itself, or the run's model it was shipped from (a chain of stages
    # shipped one after the other keeps every stage's record)
    sources = {target.resolve()}
    if shipped is not None and shipped.get("source"):
        sources.add(Path(shipped["source"]).resolve())
    if init_record is not None:  # a recipe's earlier stage, shipped elsewhere
        found["record"] = init_record
    elif shipped is not None and Path(init).resolve() in sources:
        found["record"] = shipped
    return found


def ship(
    run: Path,
    model_path: Path | None = None,
    dest: Path = agents.AGENTS_DIR,
    selection: dict[str, Any] | None = None,
    init_record: dict[str, Any] | None = None,
) -> Path:
    """Ship ``model_path`` (default: the run's final model) into ``dest`` with its record in
    the manifest; ``init_record`` is the record of the model the run started from, when it
    was shipped somewhere else (a recipe's earlier stage)."""
    model_path = model_path or run / "model.zip"
    recipe, config = run_config(run)
    model = MaskablePPO.load(model_path, device="cpu")
    trained = getattr(model, "trained_on", None)
    if not trained:
        raise SystemExit(f"{model_path} does not record the env it was trained on")
    strip_optimizer(model)
    env_name = trained["env"].split("/")[-1].removesuffix("-v0")
    name = agents.agent_name(env_name, trained["num_players"])
    target = dest / f"{name}.zip"
    manifest_path = dest / agents.MANIFEST.name
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    continued = continued_from(config.get("init"), target, manifest.get(name), init_record)
    atomic_save(model, target, exclude=TRAINING_ONLY)
    size = target.stat().st_size
    if size > agents.MAX_BYTES:
        target.unlink()
        raise SystemExit(
            f"{name}.zip would be {size / 2**20:.1f} MiB, over the 5 MiB limit: train a "
            "smaller network (ppo.net_arch)"
        )
    if recipe == "distill":  # PPO's steps stay the init's; the wall time is the stage's
        steps, wall, imitation = int(model.num_timesteps), config["seconds"], None
        training = {"recipe": "training.distill"}
        training.update({key: config[key] for key in DISTILL_SETTINGS if key in config})
        log = config["rounds_log"]
        training["decisions"] = log[-1]["all_decisions"] if log else None
        training["agreement"] = log[-1]["agreement_after"] if log else None
    elif recipe == "allseat":  # the learner's decisions, as the run counts them
        steps = int(model.num_timesteps)
        wall, imitation = allseat_wall(run, steps), None
        training = {"recipe": "training.allseat"}
        training.update({key: config[key] for key in ALLSEAT_SETTINGS if key in config})
    else:
        steps = checkpoint_steps(run, model_path)
        wall, imitation = wall_at(run, steps), imitation_record(run)
        training = {
            key: config[key]
            for key in ("opponents", "curriculum", "n_envs", "seed", "wall_seconds", "ppo")
            if key in config
        }
    record: dict[str, Any] = {
        "file": target.name,
        "source": str(model_path),
        **trained,
        "timesteps": steps,
        "wall_seconds": wall,
        "bytes": size,
        "selected": selection,
        "imitation": imitation,
        "continued_from": continued,
        "training": training,
    }
    manifest[name] = record
    atomic_write_text(manifest_path, json.dumps(dict(sorted(manifest.items())), indent=2) + "\n")
    print(f"shipped {model_path} as {target} ({size / 2**20:.2f} MiB, {steps} steps)")
    return target


VALIDATION_SEED = 40_000


def select(run: Path, games: int, workers: int = 2) -> tuple[Path, dict[str, Any]]:
    """The run's model that wins most often against three heuristics on validation games,
    and a record of the choice for the manifest."""
    from training.evaluate import run_evaluation

    config = json.loads((run / "config.json").read_text())
    # the imitation warm start (a config's imitate stage) is the run's first candidate:
    # PPO has to beat it on the validation games to be shipped instead
    warm_start = [run / "imitate" / "model.zip"] if (run / "imitate" / "model.zip").exists() else []
    candidates = warm_start + sorted(run.glob("checkpoints/step-*.zip"))
    if (run / "model.zip").exists():
        candidates.append(run / "model.zip")
    if not candidates:
        raise SystemExit(f"{run} has no model or checkpoint")
    rates = {}
    for path in candidates:
        result = run_evaluation(
            config["env"], str(path), "heuristic", games, config["players"], VALIDATION_SEED,
            workers,
        )  # fmt: skip
        rates[path] = result.win_rate
        print(
            f"  {path.relative_to(run)}: {result.win_rate:.3f} against heuristics ({games} games)"
        )
    best = max(candidates, key=lambda p: rates[p])  # the earliest of equals
    print(f"selected {best.relative_to(run)}")
    record = {
        "validation_games": games,
        "validation_seeds_from": VALIDATION_SEED,
        "opponents": "heuristic",
        "win_rates": {str(p.relative_to(run)): round(r, 4) for p, r in rates.items()},
    }
    return best, record


def main(argv: list[str] | None = None) -> Path:
    parser = cli.parser("training.ship", __doc__)
    parser.add_argument("run", type=Path, help="a run folder of training.train, allseat or distill")
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument("--model", type=Path, help="a model of the run (default: model.zip)")
    choice.add_argument(
        "--select", type=int, metavar="GAMES", help="pick the run's best model on validation games"
    )
    parser.add_argument("--workers", type=int, default=2, help="processes for --select")
    parser.add_argument(
        "--dest", type=Path, default=agents.AGENTS_DIR, help="folder of the shipped agents"
    )
    args = parser.parse_args(argv)
    if not any((args.run / name).is_file() for name in RUN_FILES):
        fail(
            f"ship: error: {args.run} is not a run folder (no config.json of training.train, "
            "run.json of training.allseat or distill.json of training.distill)"
        )
    if args.select is not None and not (args.run / "config.json").is_file():
        parser.error("--select picks among a training.train run's checkpoints; give --model")
    if args.select is not None and args.select < 1:
        parser.error("--select needs at least 1 game")
    model, selection = args.model, None
    if args.select:
        model, selection = select(args.run, args.select, args.workers)
    model = model or args.run / "model.zip"
    if not model.is_file():
        what = "--model" if args.model else "the run's model"
        fail(
            f"ship: error: {what} {str(model)!r} does not exist (a run that has not "
            f"finished has only checkpoints: ship one with --model, or pick with --select)"
        )
    return ship(args.run, model, args.dest, selection)


if __name__ == "__main__":
    main()
