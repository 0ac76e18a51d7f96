"""Step speed of earlier versions of the package, to see what each change bought.

    python -m benchmarks.history [--commits REV ...] [--players 4] [--seconds 2] [--repeats 3]

Checks every revision out into a temporary git worktree and times, in a fresh Python with
that revision's ``jungle_envs`` first on the path, the rules engine (a decision by any
seat) and the Gymnasium env with random opponents (a learner step), for every game that
revision has, at ``--players``. The timing loop below uses only calls every revision has.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from training import cli

# Revisions whose speed docs/performance.md reports: (revision, what it changed).
DEFAULT_COMMITS = (
    ("0481bc0", "first Jungle Sweep env"),
    ("d23cb1c", "observation from lists, no observation for random opponents"),
    ("d099da8", "all four games, before the changes below"),
    ("f139497", "chance drawn without building events; scores only when rewarded"),
    ("50fb99a", "Elephant Festival: neighbour table, arithmetic actions, sparse fill"),
    ("5aa997d", "Tropic Race: legal moves cached per position"),
)

TIMER = r"""
import json, sys, time
import numpy as np, gymnasium as gym
import jungle_envs
from jungle_envs.core.game import CHANCE, TERMINAL

players, seconds, repeats = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])

def engine(env_id, seed):
    game = jungle_envs.make_game(env_id, players)
    rng = np.random.default_rng(seed)
    sample = getattr(game, "sample_chance", None)
    state, steps = game.new_state(), 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        player = game.current_player(state)
        if player == TERMINAL:
            state = game.new_state()
        elif player == CHANCE:
            outcome = sample(state, rng) if sample else game.chance_event(state).sample(rng)
            game._apply_chance(state, outcome)
        else:
            legal = game.legal_actions(state)
            game._apply_action(state, legal[rng.integers(len(legal))])
            steps += 1
    return steps / (time.perf_counter() - start)

def env(env_id, seed):
    e = gym.make(env_id, num_players=players, opponents="random")
    rng = np.random.default_rng(seed)
    _, info = e.reset(seed=seed)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        legal = np.flatnonzero(info["action_mask"])
        _, _, term, trunc, info = e.step(int(legal[rng.integers(len(legal))]))
        steps += 1
        if term or trunc:
            _, info = e.reset()
    return steps / (time.perf_counter() - start)

out = {}
for env_id in jungle_envs.ENV_IDS:
    out[env_id] = {kind: [run(env_id, seed) for seed in range(repeats)]
                   for kind, run in (("engine", engine), ("env", env))}
print(json.dumps(out))
"""


def time_revision(rev: str, players: int, seconds: float, repeats: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(tree), rev], check=True, capture_output=True
        )
        try:
            result = subprocess.run(
                [sys.executable, "-c", TIMER, str(players), str(seconds), str(repeats)],
                cwd=tree,
                env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
                check=True,
                capture_output=True,
                text=True,
            )
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(tree)], check=True, capture_output=True
            )
    return json.loads(result.stdout)


def main(argv: list[str] | None = None) -> dict:
    parser = cli.parser("benchmarks.history", __doc__)
    parser.add_argument("--commits", nargs="+", help="revisions (None: the documented ones)")
    parser.add_argument("--players", type=int, default=4, help="player count")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of a timed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per speed")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    commits = [(c, "") for c in args.commits] if args.commits else list(DEFAULT_COMMITS)
    results = {}
    print(
        f"median of {args.repeats} x {args.seconds:g} s at {args.players} players: "
        f"engine decisions/s | env learner steps/s"
    )
    for rev, what in commits:
        timing = time_revision(rev, args.players, args.seconds, args.repeats)
        results[rev] = timing
        cells = "  ".join(
            f"{env_id.split('/')[1].removesuffix('-v0')} {statistics.median(t['engine']):,.0f}"
            f" | {statistics.median(t['env']):,.0f}"
            for env_id, t in timing.items()
        )
        print(f"{rev} {what}\n    {cells}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return results


if __name__ == "__main__":
    main()
