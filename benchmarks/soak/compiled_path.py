"""The compiled path: a task's games on one vector env, stepped in batch, with one env's
state checked against the reference rules now and then."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from jungle_envs.core.game import Game, places

from .checks import check, check_engine_state, fail, out_of_range
from .tasks import Knobs, Task, TaskResult


def compiled_actions(masks: np.ndarray, streams: np.ndarray, out: np.ndarray) -> None:
    """A random legal action per row of ``masks``, drawn in a compiled loop (tests replace
    this to break the soak on purpose)."""
    from jungle_envs.core.compiled import calls

    calls.random_actions(masks, streams, out)


def play_compiled(
    envs: Any, game: Game, task: Task, knobs: Knobs, result: TaskResult, settings: dict
) -> None:
    """Step the vector env with random legal actions until ``task.games`` episodes ended;
    counts into ``result``. Raises on the first failed check."""
    from jungle_envs.core.compiled.rng import stream_state

    num_envs = envs.num_envs
    n = game.num_players
    kind = settings.get("reward", "win")
    obs, info = envs.reset(seed=task.seed)
    streams = np.array([stream_state([task.seed, 1, i]) for i in range(num_envs)])
    actions = np.zeros(num_envs, dtype=np.int64)
    rng = np.random.default_rng([task.seed, 2])
    ended = np.zeros(num_envs, dtype=bool)
    since_end, step = 0, 0
    patience = game.spec.max_decisions + 10
    while result.games < task.games:
        if knobs.deadline is not None and time.time() > knobs.deadline:
            result.aborted = "time limit"
            return
        masks = info["action_mask"]
        if not masks.any(axis=1).all():
            fail(f"step {step}: envs {_empty_rows(masks)} have no legal action")
        if not (obs.min() >= 0.0 and obs.max() <= 1.0):  # a NaN fails too
            fail(f"step {step}: {_bad_rows(obs)}")
        seats = info["agent_seat"]
        if not ((seats >= 0) & (seats < n)).all():
            fail(f"step {step}: agent seats {seats}")
        if knobs.full or step % knobs.check_every_compiled == 0:
            live = np.flatnonzero(~ended)  # none when every game ended at the last step
            for i in live if knobs.full or not live.size else live[rng.integers(live.size, size=1)]:
                check_compiled_row(envs, game, int(i), obs, masks, f"step {step}, env {i}")
        compiled_actions(masks, streams, actions)
        obs, rewards, terminated, truncated, info = envs.step(actions)
        step += 1
        result.steps += int(np.count_nonzero(~ended))
        if not np.isfinite(rewards).all():
            fail(f"step {step}: rewards {rewards}")
        if (terminated & truncated).any():
            fail(f"step {step}: terminated and truncated")
        if rewards[ended].any() or (terminated | truncated)[ended].any():
            fail(f"step {step}: an env reset by autoreset got a reward or ended")
        done = terminated | truncated
        if done.any():
            if info["illegal_action"][done].any():
                fail(
                    f"step {step}: illegal actions in envs {np.flatnonzero(info['illegal_action'])}"
                )
            rows = np.flatnonzero(terminated)
            returns, scores = info["returns"][rows], info["scores"][rows]
            if not np.isfinite(scores).all():
                fail(f"step {step}: scores {scores}")
            if not np.isin(returns, (-1.0, 0.0, 1.0)).all():
                fail(f"step {step}: returns {returns}")
            own = returns[np.arange(len(rows)), info["agent_seat"][rows]]
            if kind == "rank":
                seats = info["agent_seat"][rows]
                place = np.array([places(s)[seat] for s, seat in zip(scores, seats, strict=True)])
                own = (own + place) / 2.0
            if kind in ("win", "rank") and not np.allclose(rewards[rows], own, rtol=0, atol=1e-6):
                fail(f"step {step}: final {kind} rewards {rewards[rows]} != {own}")
            result.games += int(np.count_nonzero(done))
            result.truncated += int(np.count_nonzero(truncated))
            since_end = 0
        else:
            since_end += 1
            if since_end > patience:
                fail(f"no episode ended in {patience} steps")
        ended = done
    check_refusals(envs, task.seed)


def check_refusals(envs: Any, seed: int) -> None:
    """At a task's end: bad seeds and options change no row or stream, numpy seeds reset as
    Python ints do, and a closed env refuses every call."""
    rows, streams = envs.buffers.rows, envs.buffers.streams
    before = rows.tobytes(), streams.tobytes()
    bad_seeds = [[seed, -1] + [seed] * (envs.num_envs - 2), "1", 1.5, [seed] * (envs.num_envs + 1)]
    for bad in [*({"seed": s} for s in bad_seeds), {"options": 5}, {"options": {"x": 1}}]:
        try:
            envs.reset(**bad)
        except (ValueError, TypeError):
            check((rows.tobytes(), streams.tobytes()) == before, f"reset({bad}) changed a row")
        else:
            fail(f"reset({bad}) was accepted")
    envs.reset(seed=np.arange(seed, seed + envs.num_envs))
    by_numpy = rows.tobytes(), streams.tobytes()
    envs.reset(seed=seed)
    check((rows.tobytes(), streams.tobytes()) == by_numpy, "numpy seeds reset otherwise")
    envs.close()
    for name, call in (("step", lambda: envs.step(np.zeros(envs.num_envs, dtype=np.int64))),
                       ("reset", lambda: envs.reset(seed=seed)),
                       ("action_masks", envs.action_masks)):  # fmt: skip
        try:
            call()
        except RuntimeError:
            continue
        fail(f"{name}() after close() was accepted")


def _empty_rows(masks: np.ndarray) -> list[int]:
    return np.flatnonzero(~masks.any(axis=1))[:8].tolist()


def _bad_rows(obs: np.ndarray) -> str:
    rows = np.flatnonzero(~((obs >= 0.0) & (obs <= 1.0)).all(axis=1))
    first = out_of_range(obs[rows[0]])
    return f"envs {rows[:8].tolist()} have observations outside [0, 1]: {first}"


def check_compiled_row(envs: Any, game: Game, i: int, obs: Any, masks: Any, what: str) -> None:
    """One env of the vector env against the reference rules."""
    state = envs.twin.unpack(envs.buffers.rows[i])
    check_engine_state(game, state, what)
    seat = int(envs.buffers.learners[i])
    player = game.current_player(state)
    check(player == seat, lambda: f"{what}: seat {player} to move, not the learner {seat}")
    check(
        np.array_equal(masks[i].astype(bool), game.legal_mask(state)),
        lambda: f"{what}: mask != the rules' legal_mask",
    )
    check(
        np.array_equal(obs[i], game.observe(state, seat)),
        lambda: f"{what}: observation != the rules' view",
    )
