"""One table's agent in one command: train by the game's config, select, ship, time it.

    python -m training.agent --game JungleSweep --players 4 [--select 300] [--workers 2]
        [--out runs/train/JungleSweep-4p] [--ship | --dest DIR] [--set KEY=VALUE ...]

The stages, each timed: training by the game's config (``training/configs/<game>.json``
with its entries for the player count, ``tables``; its imitation warm start first when the
config has one, then PPO for its wall time), the choice of the best of the warm start, the
checkpoints and the final model on ``--select`` validation games (seeds 40,000 on;
``training.ship --select``), then each later stage of the config's ``stages`` (more PPO
with other settings, self-play with ``training.allseat``, or distillation from a teacher
with ``training.distill``) from the model the stage before picked, and shipping the last. By default
the agent is shipped into ``OUT/shipped`` and the package is left as it is; ``--ship``
replaces the package's agent (``jungle_envs/agents``), ``--dest`` writes elsewhere.
``OUT/stages.json`` records each stage's seconds. ``--set`` changes the config as
``training.train --set`` does (e.g. ``--set wall_seconds=600``).
"""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path
from typing import Any

import jungle_envs
from jungle_envs import agents
from training import cli


def imitation_seconds(run: Path) -> float:
    """Seconds the warm start took, from its record (0 without an imitation stage)."""
    record = run / "imitate" / "imitation.json"
    if not record.is_file():
        return 0.0
    return sum(r.get("seconds", 0.0) for r in json.loads(record.read_text()).get("rounds", []))


def make_agent(
    game: str, players: int, out: Path, dest: Path, select_games: int, workers: int,
    overrides: list[str],
) -> dict[str, Any]:  # fmt: skip
    """The table's whole recipe: the config's training run, then each of its later stages
    (``stages``) from the model the one before picked; the last stage's model is shipped
    into ``dest``. ``overrides`` apply to every training stage (``wall_seconds`` and
    ``timesteps`` also cap the self-play stages' seconds and decisions)."""
    from training import ship, train

    record: dict[str, Any] = {"game": game, "players": players}
    started = time.perf_counter()
    argv = ["--env", game, "--players", str(players), "--no-progress"]
    sets = [arg for value in overrides for arg in ("--set", value)]
    train.main([*argv, "--out", str(out), "--overwrite", *sets])
    trained = time.perf_counter() - started
    warm = imitation_seconds(out)
    record.update(imitation_seconds=round(warm, 1), ppo_seconds=round(trained - warm, 1))
    clock = time.perf_counter()
    model, selection = ship.select(out, select_games, workers)
    record["selection_seconds"] = round(time.perf_counter() - clock, 1)
    run, later = out, json.loads((out / "config.json").read_text()).get("stages", [])
    record["stages"] = []
    init_record = None
    for number, stage in enumerate(later, start=1):
        # the stage before ships into its own folder: the next continues that file, and
        # the manifest of the last keeps every stage's record
        (run / "stage-shipped").mkdir(exist_ok=True)
        shipped = ship.ship(run, model, run / "stage-shipped", selection, init_record)
        manifest = json.loads((shipped.parent / agents.MANIFEST.name).read_text())
        init_record = manifest[shipped.stem]
        run = out / f"stage-{number}-{stage['name']}"
        if run.exists():
            shutil.rmtree(run)
        clock = time.perf_counter()
        if "allseat" in stage:
            model, selection = run_allseat(game, players, run, shipped, stage, overrides), None
        elif "distill" in stage:
            model, selection = run_distill(game, players, run, shipped, stage, out), None
        else:
            stage_sets = [f"init={shipped}", "imitate.rounds=0", "stages=[]"]
            stage_sets += [f"{key}={json.dumps(value)}" for key, value in stage["set"].items()]
            stage_args = [arg for value in stage_sets for arg in ("--set", value)]
            train.main([*argv, "--out", str(run), *stage_args, *for_stages(overrides)])
            model, selection = run / "model.zip", None
            if stage.get("select") == "validation":
                model, selection = ship.select(run, select_games, workers)
        record["stages"].append(
            {"name": stage["name"], "seconds": round(time.perf_counter() - clock, 1),
             "selected": str(model.relative_to(out))}
        )  # fmt: skip
    clock = time.perf_counter()
    dest.mkdir(parents=True, exist_ok=True)
    target = ship.ship(run, model, dest, selection, init_record)
    record["ship_seconds"] = round(time.perf_counter() - clock, 1)
    record.update(
        total_seconds=round(time.perf_counter() - started, 1),
        selected=str(model.relative_to(out)),
        shipped=str(target),
    )
    (out / "stages.json").write_text(json.dumps(record, indent=1) + "\n")
    return record


def for_stages(overrides: list[str]) -> list[str]:
    """The command line's overrides a later training stage takes: all but the recipe's."""
    kept = [text for text in overrides if text.partition("=")[0] not in ("stages", "tables")]
    return [arg for value in kept for arg in ("--set", value)]


def run_allseat(
    game: str, players: int, run: Path, init: Path, stage: dict[str, Any], overrides: list[str]
) -> Path:
    """A self-play stage (``training.allseat``) from ``init``; its final model."""
    from training import allseat

    settings = dict(stage["allseat"])
    for text in overrides:  # a shorter budget for every stage, e.g. in a quick check
        key, _, value = text.partition("=")
        if key in ("wall_seconds", "timesteps"):
            name, cap = (
                ("seconds", float(value)) if key == "wall_seconds" else ("steps", int(value))
            )
            settings[name] = min(cap, settings.get(name, cap))
    argv = ["--game", game, "--players", str(players), "--init", str(init), "--out", str(run)]
    for key, value in settings.items():
        flag = f"--{key.replace('_', '-')}"
        if value is True:  # a switch, e.g. "average_luck": true
            argv.append(flag)
        elif value is not False:
            argv += [flag, str(value)]
    allseat.main(argv)
    return run / "model.zip"


def run_distill(
    game: str, players: int, run: Path, init: Path, stage: dict[str, Any], out: Path
) -> Path:
    """A distillation stage (``training.distill``) from ``init``; its fitted model. Its
    ``data_from`` names earlier stages of this recipe run (folders of ``out``) whose
    rounds it fits on as well."""
    from training import distill

    argv = ["--env", game, "--players", str(players), "--init", str(init), "--out", str(run)]
    for key, value in stage["distill"].items():
        if key == "data_from":
            argv += ["--data", *map(str, stage_rounds(out, value))]
        elif isinstance(value, dict):  # an opponents mixture, as --opponents reads it
            argv += [f"--{key.replace('_', '-')}", json.dumps(value)]
        else:
            argv += [f"--{key.replace('_', '-')}", str(value)]
    return distill.main(argv)


def stage_rounds(out: Path, names: list[str]) -> list[Path]:
    """The round data (``round-R.npz``) of the earlier stages ``names`` of the run ``out``."""
    found = []
    for name in names:
        folders = [p for p in out.glob("stage-*") if re.fullmatch(rf"stage-\d+-{name}", p.name)]
        rounds = sorted(path for folder in folders for path in folder.glob("round-*.npz"))
        if not rounds:
            raise FileNotFoundError(f"stage {name!r} left no round data under {out}")
        found += rounds
    return found


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = cli.parser("training.agent", __doc__)
    parser.add_argument("--game", type=cli.game_name, required=True, help="the game, by name")
    parser.add_argument("--players", type=int, default=4, help="player count")
    parser.add_argument("--select", type=int, default=300, help="validation games per model")
    parser.add_argument("--workers", type=int, default=2, help="processes for the selection")
    parser.add_argument("--out", type=Path, help="run folder (None: runs/train/<Game>-<N>p)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--ship", action="store_true", help="replace the package's agent")
    where.add_argument("--dest", type=Path, help="ship into this folder (None: OUT/shipped)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="override a config entry (repeatable)")  # fmt: skip
    args = parser.parse_args(argv)
    spec = jungle_envs.game_class(f"jungle_envs/{args.game}-v0").spec
    if args.players not in spec.player_counts:
        parser.error(f"{args.game} takes {spec.min_players}-{spec.max_players} players")
    if args.select < 1 or args.workers < 1:
        parser.error("--select and --workers must be at least 1")
    out = args.out or Path("runs/train") / f"{args.game}-{args.players}p"
    dest = agents.AGENTS_DIR if args.ship else (args.dest or out / "shipped")
    stages = make_agent(args.game, args.players, out, dest, args.select, args.workers, args.set)
    print(json.dumps(stages))
    return stages


if __name__ == "__main__":
    main()
