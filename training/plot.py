"""Learning curves of a training run, from its CSV and evaluation logs.

python -m training.plot RUN_DIR   # writes RUN_DIR/learning_curve.png
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np

from training import cli
from training.cli import fail


def training_curve(run: Path) -> tuple[list[float], list[float]]:
    steps, rewards = [], []
    for log in sorted((run / "logs").glob("session-*/progress.csv")):
        with log.open() as handle:
            for row in csv.DictReader(handle):
                if row.get("rollout/ep_rew_mean"):
                    steps.append(float(row["time/total_timesteps"]))
                    rewards.append(float(row["rollout/ep_rew_mean"]))
    return steps, rewards


def score_reward(run: Path) -> bool:
    """Whether the run trained (and evaluated) on the score reward rather than win/loss."""
    config = run / "config.json"
    if not config.exists():
        return False
    return json.loads(config.read_text()).get("env_options", {}).get("reward") == "score"


def evaluation_curve(run: Path) -> tuple[list[float], list[float]]:
    """Per evaluation: the share of sole wins (a return of +1), or with the score reward the
    mean score gained (a win/loss share means nothing there)."""
    steps, values = [], []
    scored = score_reward(run)
    for log in sorted((run / "logs").glob("session-*/evaluations.npz")):
        data = np.load(log)
        steps += data["timesteps"].tolist()
        for r in data["results"]:
            values.append(float(np.mean(r)) if scored else float((np.asarray(r) > 0.5).mean()))
    return steps, values


def stage_changes(run: Path) -> list[tuple[float, str]]:
    """Where the curriculum moved on: (timesteps, the stage's opponents), from the
    ``curriculum/stage`` the run logs when a stage begins; empty without a curriculum."""
    config = run / "config.json"
    stages = json.loads(config.read_text()).get("curriculum", []) if config.exists() else []
    stages = sorted(stages, key=lambda stage: stage["from"])
    changes, current = [], None
    for log in sorted((run / "logs").glob("session-*/progress.csv")):
        with log.open() as handle:
            for row in csv.DictReader(handle):
                stage = row.get("curriculum/stage")
                if not stage or int(float(stage)) == current or not stages:
                    continue
                current = int(float(stage))
                mix = stages[current]["opponents"] if current < len(stages) else {}
                label = ", ".join(f"{name} {share:g}" for name, share in mix.items())
                step = float(row["time/total_timesteps"])
                changes.append((step, f"stage {current + 1}: {label}"))
    return changes


def mark_stages(axes, changes: list[tuple[float, str]]) -> None:
    """A dashed line where each curriculum stage begins, so a dip at a change of opponents
    does not read as unlearning."""
    for step, label in changes:
        for ax in axes:
            ax.axvline(step, color="grey", linestyle="--", linewidth=0.8)
        axes[0].annotate(
            label, (step, 1.0), xycoords=("data", "axes fraction"), rotation=90,
            va="top", ha="right", fontsize=7, color="dimgrey",
        )  # fmt: skip


def plot_run(run: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    steps, rewards = training_curve(run)
    left.plot(steps, rewards, color="tab:blue")
    left.set(title="training episodes", xlabel="timesteps", ylabel="mean episode reward")
    steps, values = evaluation_curve(run)
    right.plot(steps, values, marker="o", color="tab:green")
    right.set(title="evaluation (deterministic)", xlabel="timesteps")
    if score_reward(run):
        right.set(ylabel="mean score gained")
    else:
        right.set(ylabel="sole wins", ylim=(0, 1))
    changes = stage_changes(run)
    mark_stages((left, right), changes)
    fig.suptitle(run.name + (" (dashed: curriculum stages)" if changes else ""))
    fig.tight_layout()
    path = run / "learning_curve.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def main(argv: list[str] | None = None) -> Path:
    parser = cli.parser("training.plot", __doc__)
    parser.add_argument("run", type=Path, help="a run folder written by training.train")
    run = parser.parse_args(argv).run
    if not run.is_dir():
        fail(f"plot: error: {str(run)!r} is not a run folder (no such folder)")
    if not training_curve(run)[0] and not evaluation_curve(run)[0]:
        fail(
            f"plot: error: {str(run)!r} has nothing to plot: no logs/session-*/progress.csv "
            "with episode rewards and no logs/session-*/evaluations.npz"
        )
    path = plot_run(run)
    print(path)
    return path


if __name__ == "__main__":
    main()
