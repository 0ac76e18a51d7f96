"""Timing loops for the compiled twins, shared by ``step_speed`` and ``peers``.

- twin engine: random legal moves for every seat inside one kernel call, chance sampled,
  no observation built; a step is one decision by any seat (as the reference's engine row).
- compiled vector env: ``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")``
  with random opponents, ``copy=False``, learner actions drawn by a compiled helper (a
  learner that costs nothing); a step is one learner step of one env.
- compile times (``python -m benchmarks.compiled``): a fresh Python process with an empty
  numba cache makes the env, resets and steps it (cold), then the vector env; a second
  process does the same with the cache present (warm). The times include importing the
  package; the vector column is the time to the vector env's first step, counted from the
  start of the process.
- pgx connect_four on the CPU (optional: ``pip install -e '.[pgx]'``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

import gymnasium as gym
import numpy as np

import jungle_envs
from jungle_envs.core.compiled import calls
from jungle_envs.core.compiled.rng import stream_state
from jungle_envs.core.compiled.twin import Twin
from training import cli

VECTOR_SIZES = (1, 64, 1024)
THREADS = (1, 2)


def twin_engine_run(env_id: str, players: int, seconds: float, seed: int) -> tuple[float, float]:
    twin = Twin(jungle_envs.make_game(env_id, players))
    row = twin.new_row()
    streams = stream_state(seed)
    mask = np.zeros(twin.num_actions, dtype=np.int8)
    chunk = 2_000
    calls.random_play(twin.cfg, row, streams, mask, chunk)  # loaded before the clock starts
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        games += calls.random_play(twin.cfg, row, streams, mask, chunk)
        steps += chunk
        chunk = min(chunk * 2, 200_000)
    elapsed = time.perf_counter() - start
    return steps / elapsed, games / elapsed


def vector_run(
    env_id: str,
    players: int,
    seconds: float,
    seed: int,
    num_envs: int,
    threads: int,
    final_details: bool = True,
) -> tuple[float, float]:
    """The compiled vector env's learner steps/s and games/s; ``final_details=False``: as
    the SB3 adapter runs it, without the ended games' winners and game keys in ``info``."""
    envs = gym.make_vec(
        env_id,
        num_envs=num_envs,
        vectorization_mode="vector_entry_point",
        num_players=players,
        opponents="random",
        num_threads=threads,
        copy=False,
        final_details=final_details,
    )
    _, info = envs.reset(seed=seed)
    streams = np.array([stream_state(seed + 10_000 + i) for i in range(num_envs)])
    actions = np.zeros(num_envs, dtype=np.int64)
    for _ in range(3):  # warm up the threads
        calls.random_actions(info["action_mask"], streams, actions)
        _, _, _, _, info = envs.step(actions)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        calls.random_actions(info["action_mask"], streams, actions)
        _, _, terminated, truncated, info = envs.step(actions)
        steps += num_envs
        games += int(np.count_nonzero(terminated | truncated))
    elapsed = time.perf_counter() - start
    envs.close()
    return steps / elapsed, games / elapsed


def batch_run(
    env_id: str, players: int, seconds: float, seed: int, num_envs: int, threads: int | None
) -> tuple[float, float]:
    """The all-seat batch (``jungle_envs.make_batch``): decisions/s summed over the envs,
    every seat random (chosen by a kernel, so the caller costs nothing), and games/s."""
    batch = jungle_envs.make_batch(
        env_id, num_envs, num_players=players, seed=seed, num_threads=threads, copy=False
    )
    view = batch.view()
    streams = np.array([stream_state(seed + 10_000 + i) for i in range(num_envs)])
    actions = np.zeros(num_envs, dtype=np.int64)
    masks = batch.masks  # the batch's own int8 buffer, written by every step
    for _ in range(3):  # warm up the threads
        calls.random_actions(masks, streams, actions)
        view = batch.step(actions)
    decisions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        calls.random_actions(masks, streams, actions)
        decisions += num_envs - int(np.count_nonzero(view.terminated))  # those deal anew
        view = batch.step(actions)
        games += int(np.count_nonzero(view.terminated))
    elapsed = time.perf_counter() - start
    batch.close()
    return decisions / elapsed, games / elapsed


STARTUP = """
import sys, time
start = time.perf_counter()
import gymnasium as gym, numpy as np
import jungle_envs


class Stderr:  # when the first compile notice is written, from the make call
    notice = -1.0

    def write(self, text):
        if Stderr.notice < 0 and "jungle_envs: compiling" in text:
            Stderr.notice = time.perf_counter() - made
        return sys.__stderr__.write(text)

    def flush(self):
        sys.__stderr__.flush()


sys.stderr = Stderr()
made = time.perf_counter()
env = gym.make({env_id!r}, opponents="random", engine="compiled")
_, info = env.reset(seed=0)
env.step(int(np.flatnonzero(info["action_mask"])[0]))
single = time.perf_counter() - start
envs = gym.make_vec({env_id!r}, num_envs=4, vectorization_mode="vector_entry_point")
_, info = envs.reset(seed=0)
envs.step(np.argmax(info["action_mask"], axis=1))
print(single, time.perf_counter() - start, Stderr.notice)
"""


def compile_times(env_id: str) -> dict[str, float]:
    """Seconds to a first step with an empty cache (cold) and with the cache (warm), and
    from ``gymnasium.make`` to the first compile notice on stderr (cold; -1: none)."""
    with tempfile.TemporaryDirectory() as cache:
        environ = {**os.environ, "NUMBA_CACHE_DIR": cache}
        code = STARTUP.format(env_id=env_id)
        times = {}
        for kind in ("cold", "warm"):
            out = subprocess.run(
                [sys.executable, "-c", code],
                env=environ,
                capture_output=True,
                text=True,
                check=True,
            ).stdout.split()
            times[f"{kind}_env_s"], times[f"{kind}_vector_s"] = float(out[0]), float(out[1])
            if kind == "cold":
                times["notice_s"] = float(out[2])
        return times


PGX_LOOP = """
import json, sys, time
import jax, jax.numpy as jnp
import pgx
batch, seconds, name = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
env = pgx.make(name)
init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
key = jax.random.PRNGKey(0)
key, sub = jax.random.split(key)
state = init(jax.random.split(sub, batch))

def act(key, state):
    logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
    return jax.random.categorical(key, logits, axis=-1)

def once(key, state):
    key, pick, dice, deal = jax.random.split(key, 4)
    # the step's key is its chance (backgammon's dice); connect_four ignores it
    state = step(state, act(pick, state), jax.random.split(dice, batch))
    done = state.terminated | state.truncated
    fresh = init(jax.random.split(deal, batch))
    return key, jax.tree_util.tree_map(
        lambda a, b: jnp.where(done.reshape(-1, *([1] * (a.ndim - 1))), a, b), fresh, state
    )

once = jax.jit(once)
key, state = once(key, state)
state.current_player.block_until_ready()
steps, start = 0, time.perf_counter()
while time.perf_counter() - start < seconds:
    key, state = once(key, state)
    state.current_player.block_until_ready()
    steps += batch
print(json.dumps(steps / (time.perf_counter() - start)))
"""


def pgx_run(batch: int, seconds: float, name: str = "connect_four") -> float | None:
    """pgx ``name`` steps/s on the CPU at ``batch`` (random legal moves, autoreset; every
    step one seat's move, backgammon's dice drawn inside it); None when pgx is not
    installed."""
    probe = subprocess.run([sys.executable, "-c", "import pgx"], capture_output=True)
    if probe.returncode != 0:
        return None
    environ = {**os.environ, "JAX_PLATFORMS": "cpu"}
    out = subprocess.run(
        [sys.executable, "-c", PGX_LOOP, str(batch), str(seconds), name],
        env=environ,
        capture_output=True,
        text=True,
        check=True,
    )
    return float(json.loads(out.stdout.strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> dict[str, dict[str, float]]:
    """Cold and warm start of every game: ``python -m benchmarks.compiled``."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.compiled",
        description="Compile and start-up times of the twins.",
        formatter_class=cli.HelpFormatter,
    )
    parser.add_argument(
        "--env",
        type=cli.env_id,
        help="one env id or game name (TropicRace, tropic_race); None: every registered env",
    )
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args(argv)
    env_ids = [args.env] if args.env else jungle_envs.ENV_IDS
    print("seconds from a fresh Python to the first step (imports included)")
    print(
        f"{'env':<34}{'cold env':>10}{'+ vector':>10}{'warm env':>10}{'+ vector':>10}{'notice':>10}"
    )
    rows = {}
    for env_id in env_ids:
        t = rows[env_id] = compile_times(env_id)
        print(
            f"{env_id:<34}{t['cold_env_s']:>10.1f}{t['cold_vector_s']:>10.1f}"
            f"{t['warm_env_s']:>10.1f}{t['warm_vector_s']:>10.1f}{t['notice_s']:>10.1f}",
            flush=True,
        )
    if args.json:
        with open(args.json, "w") as out:
            json.dump(rows, out, indent=2)
    return rows


if __name__ == "__main__":
    main()
