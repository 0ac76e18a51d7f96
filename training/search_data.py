"""The data of a distillation round (``training.distill``): games on worker processes in
which a teacher is asked at every decision of the learner's seat and the student's own
moves are mixed in (DAgger), each game on its own seed so the data does not depend on the
number of workers; and the teachers by name."""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

import numpy as np

from training import cli
from training.imitate import first_opponents

SEED_BASE = 1_000_000  # distillation games stay clear of evaluation seeds (0-99,999)


def game_seed(seed: int, round_: int, index: int) -> int:
    return SEED_BASE + 100_000 * seed + 10_000 * round_ + index


def _play(job: tuple) -> dict[str, np.ndarray]:
    """Worker: play the games of ``indices`` and return the learner's decisions."""
    env_id, players, options, opponents, teacher, student, beta, gamma, seed, round_, indices = job
    import gymnasium
    import torch

    from jungle_envs.maskable_ppo import load_maskable_ppo

    torch.set_num_threads(1)
    env = gymnasium.make(env_id, num_players=players, opponents=opponents, **options)
    game = env.unwrapped.game
    search = make_teacher(teacher, game)
    model = load_maskable_ppo(student)
    keys = ("obs", "masks", "visits", "values", "returns", "won", "overruled")
    columns: dict[str, list] = {k: [] for k in keys}
    for i in indices:
        s = game_seed(seed, round_, i)
        rng = np.random.default_rng(s)  # the search's and the mixing draws, not the dice
        obs, info = env.reset(seed=s)
        rewards, done, start = [], False, len(columns["obs"])
        while not done:
            mask = env.unwrapped.action_masks()
            move = search.act_state(env.unwrapped.state, env.unwrapped.agent_seat, mask, rng)
            columns["obs"].append(obs)
            columns["masks"].append(mask)
            columns["visits"].append(search.visits / search.visits.sum())
            columns["overruled"].append(bool(getattr(search, "overruled", False)))
            columns["values"].append(  # the teacher's value of each move (NaN: none)
                np.asarray(getattr(search, "values", np.full(len(mask), np.nan)), np.float32)
            )
            if rng.random() >= beta:
                with torch.no_grad():
                    dist = model.policy.get_distribution(
                        torch.as_tensor(obs[None]), action_masks=mask[None]
                    )
                    probs = dist.distribution.probs[0].numpy().astype(np.float64)
                move = int(rng.choice(len(probs), p=probs / probs.sum()))
            obs, reward, terminated, truncated, info = env.step(move)
            rewards.append(reward)
            done = terminated or truncated
        to_go, returns = 0.0, []
        for reward in reversed(rewards):
            to_go = reward + gamma * to_go
            returns.append(to_go)
        columns["returns"].extend(reversed(returns))
        columns["won"].extend([env.unwrapped.agent_seat in info.get("winners", [])] * (
            len(columns["obs"]) - start))  # fmt: skip
    env.close()
    return {k: np.asarray(v) for k, v in columns.items()}


def make_teacher(teacher: str, game: Any) -> Any:
    """A search by its name, or one of Jungle Sweep's teachers: the broom lookahead (rule
    based) or the round rollouts."""
    if teacher.startswith(ROUND_TEACHER):
        from training.round_rollout import RoundRollout

        return RoundRollout.from_name(teacher, game)
    if teacher.startswith(BROOM_TEACHER):
        from training.broom_lookahead import BroomLookahead

        return BroomLookahead.from_name(teacher, game)
    from jungle_envs.core.policies import make_policy

    return make_policy(teacher, game)


def search_data(
    config: dict[str, Any], players: int, student: Path, teacher: str, games: int,
    beta: float, workers: int, seed: int, round_: int, quiet: bool = True,
    opponents: Any = None,
) -> dict[str, np.ndarray]:  # fmt: skip
    """One round of search data over ``workers`` processes (the result does not depend
    on their number: every game has its own seed); ``opponents`` play the other seats
    (None: the config's first built-in ones)."""
    if opponents is None:
        opponents = first_opponents(config)
    chunks = [list(range(k, min(k + 4, games))) for k in range(0, games, 4)]
    gamma = config["ppo"]["gamma"]
    jobs = [(config["env"], players, config["env_options"], opponents, teacher,
             str(student), beta, gamma, seed, round_, chunk) for chunk in chunks]  # fmt: skip
    if workers <= 1:
        parts = list(cli.progress(map(_play, jobs), len(jobs), "search games", quiet))
    else:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            parts = list(cli.progress(pool.imap(_play, jobs), len(jobs), "search games", quiet))
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


# The rule-based teacher of ``training.broom_lookahead`` (Jungle Sweep, 3 to 6 players).
BROOM_TEACHER = "broom-lookahead"
# The round rollouts of ``training.round_rollout`` (Jungle Sweep).
ROUND_TEACHER = "round-rollout"
JUNGLE_SWEEP_TEACHERS = (BROOM_TEACHER, ROUND_TEACHER)


def check_jungle_sweep_teacher(teacher: str, config: dict[str, Any], players: int) -> None:
    """Raise ValueError unless the broom lookahead or the round rollouts can teach this run."""
    import gymnasium

    if not config["env"].endswith("JungleSweep-v0"):
        head = teacher.split(":")[0]
        raise ValueError(f"{head} teaches Jungle Sweep only, not {config['env']}")
    env = gymnasium.make(config["env"], num_players=players, **config["env_options"])
    try:
        make_teacher(teacher, env.unwrapped.game)
    finally:
        env.close()
