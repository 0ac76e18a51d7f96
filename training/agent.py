"""One table's agent in one command: train by the game's config, select, ship, time it.

    python -m training.agent --game JungleSweep --players 4 [--select 300] [--workers 2]
        [--out runs/train/JungleSweep-4p] [--ship | --dest DIR] [--set KEY=VALUE ...]

The stages, each timed: training by the game's config (``training/configs/<game>.json``,
its imitation warm start first when the config has one, then PPO for its wall time), the
choice of the best of the warm start, the checkpoints and the final model on ``--select``
validation games (seeds 40,000 on; ``training.ship --select``), and shipping it. By default
the agent is shipped into ``OUT/shipped`` and the package is left as it is; ``--ship``
replaces the package's agent (``jungle_envs/agents``), ``--dest`` writes elsewhere.
``OUT/stages.json`` records each stage's seconds. ``--set`` changes the config as
``training.train --set`` does (e.g. ``--set wall_seconds=600``).
"""

from __future__ import annotations

import json
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
    from training import ship, train

    stages: dict[str, Any] = {"game": game, "players": players}
    started = time.perf_counter()
    argv = ["--env", game, "--players", str(players), "--out", str(out), "--overwrite",
            "--no-progress"] + [arg for value in overrides for arg in ("--set", value)]  # fmt: skip
    train.main(argv)
    trained = time.perf_counter() - started
    warm = imitation_seconds(out)
    stages.update(imitation_seconds=round(warm, 1), ppo_seconds=round(trained - warm, 1))
    clock = time.perf_counter()
    model, selection = ship.select(out, select_games, workers)
    stages["selection_seconds"] = round(time.perf_counter() - clock, 1)
    clock = time.perf_counter()
    dest.mkdir(parents=True, exist_ok=True)
    target = ship.ship(out, model, dest, selection)
    stages["ship_seconds"] = round(time.perf_counter() - clock, 1)
    stages.update(
        total_seconds=round(time.perf_counter() - started, 1),
        selected=str(model.relative_to(out)),
        shipped=str(target),
    )
    (out / "stages.json").write_text(json.dumps(stages, indent=1) + "\n")
    return stages


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
