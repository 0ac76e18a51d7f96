"""Worker processes end with their parent, and a vector env whose worker failed says so."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
from gymnasium.error import ClosedEnvironmentError

from jungle_envs.core.workers import ORPHAN_EXIT_CODE, EndsWithParent, end_with_parent
from jungle_envs.process_vector_env import BatchedVectorEnv

ROOT = Path(__file__).resolve().parents[1]
ENV_ID = "jungle_envs/TropicRace-v0"

# A parent process that starts workers, writes their pids to argv[1], then waits to be
# killed. Each kind is a way the project starts workers.
PARENT = textwrap.dedent(
    """
    import json, multiprocessing, os, sys, time

    kind, out = sys.argv[1], sys.argv[2]
    if kind.startswith("batched"):
        from jungle_envs.process_vector_env import BatchedVectorEnv

        context = kind.partition(":")[2] or None
        envs = BatchedVectorEnv(
            "jungle_envs/TropicRace-v0", 3, num_workers=2, context=context, num_players=2
        )
        pids = [process.pid for _, process in envs._workers]
    elif kind == "sb3":
        from training.common import make_vec_env

        venv = make_vec_env(
            "jungle_envs/TropicRace-v0", n_envs=2, subprocess=True, vectorization="python",
            num_players=2,
        )
        pids = [process.pid for process in venv.processes]
    elif kind == "poll":  # the fallback where prctl is not available
        from jungle_envs.core.workers import end_with_parent

        def wait(parent_pid):
            end_with_parent(parent_pid, use_prctl=False, interval=0.2)
            time.sleep(600)

        ctx = multiprocessing.get_context("fork")
        workers = [ctx.Process(target=wait, args=(os.getpid(),), daemon=True) for _ in range(2)]
        for worker in workers:
            worker.start()
        pids = [worker.pid for worker in workers]
    with open(out + ".tmp", "w") as f:
        json.dump(pids, f)
    os.replace(out + ".tmp", out)
    time.sleep(600)
    """
)


def gone(pid: int) -> bool:
    """Whether the process is gone: no such process, or a zombie (it holds no memory; the
    init that inherited it reaps it when it gets to it, and some container inits never do)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return True
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] in ("Z", "X")  # the state, after the name


def start_parent(kind: str, tmp_path: Path) -> tuple[subprocess.Popen, list[int]]:
    out = tmp_path / "pids.json"
    path = [str(ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, kind, str(out)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(path)},
    )
    deadline = time.monotonic() + 60
    while not out.exists():
        if parent.poll() is not None:
            pytest.fail(f"the parent exited with {parent.returncode} before its workers ran")
        if time.monotonic() > deadline:
            parent.kill()
            parent.wait()
            pytest.fail("the parent process did not start its workers within 60 s")
        time.sleep(0.05)
    return parent, json.loads(out.read_text())


@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL and fork")
@pytest.mark.parametrize("kind", ["batched", "batched:forkserver", "sb3", "poll"])
def test_workers_end_when_their_parent_is_killed(kind, tmp_path):
    parent, pids = start_parent(kind, tmp_path)
    try:
        assert len(pids) == 2 and not any(gone(pid) for pid in pids)
    finally:
        parent.send_signal(signal.SIGKILL)  # no handler or atexit in the parent can run
        parent.wait()
    deadline = time.monotonic() + 10
    while not all(gone(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    alive = [pid for pid in pids if not gone(pid)]
    for pid in alive:  # leave no strays behind, even when the test fails
        os.kill(pid, signal.SIGKILL)
    assert not alive, f"workers {alive} outlived their killed parent"


def test_a_worker_whose_parent_is_already_gone_exits_at_once():
    ctx = multiprocessing.get_context("fork")
    # a pid that is not the worker's parent: what the worker sees once its parent has died
    worker = ctx.Process(target=end_with_parent, args=(-1,))
    worker.start()
    worker.join(timeout=10)
    assert worker.exitcode == ORPHAN_EXIT_CODE


def test_a_factory_called_in_its_own_process_only_calls_the_factory():
    factory = EndsWithParent(lambda: "env", "fork")
    assert factory() == "env"
    assert factory.watch.parent_pid == os.getpid()


def assert_closed_for_good(envs: BatchedVectorEnv, because: str) -> None:
    """Every later call names the failure; close() still works, twice too."""
    actions = np.zeros(envs.num_envs, dtype=np.int64)
    for call in (lambda: envs.step(actions), lambda: envs.reset(seed=0), envs.action_masks):
        with pytest.raises(ClosedEnvironmentError, match=f"closed because {because}"):
            call()
    envs.close()
    envs.close()
    assert envs.closed


def test_after_a_worker_raises_every_call_says_the_env_is_closed_and_why():
    envs = BatchedVectorEnv(ENV_ID, 3, num_workers=2, num_players=2, illegal_action="raise")
    _, info = envs.reset(seed=0)
    actions = np.array([int(np.flatnonzero(mask)[0]) for mask in info["action_mask"]])
    actions[2] = int(np.flatnonzero(info["action_mask"][2] == 0)[0])  # env 2: the last worker
    with pytest.raises(RuntimeError, match=r"worker 1 of BatchedVectorEnv failed: .*IllegalAction"):
        envs.step(actions)
    assert_closed_for_good(envs, r"worker 1 failed \(.*IllegalActionError")


def test_after_a_worker_dies_every_call_says_the_env_is_closed_and_why():
    envs = BatchedVectorEnv(ENV_ID, 3, num_workers=2, num_players=2)
    _, info = envs.reset(seed=0)
    process = envs._workers[0][1]
    os.kill(process.pid, signal.SIGKILL)
    process.join(timeout=10)
    actions = np.array([int(np.flatnonzero(mask)[0]) for mask in info["action_mask"]])
    with pytest.raises(RuntimeError, match=r"worker 0 of BatchedVectorEnv failed: .*SIGKILL"):
        envs.step(actions)
    assert_closed_for_good(envs, r"worker 0 failed \(the process died of SIGKILL\)")


def test_a_closed_env_says_it_was_closed():
    envs = BatchedVectorEnv(ENV_ID, 2, num_workers=1, num_players=2)
    envs.close()
    assert_closed_for_good(envs, r"close\(\) was called")


FORK_AFTER_TORCH = """
import sys, time, numpy as np, torch
torch.set_num_threads(2)
torch.ones(512, 512) @ torch.ones(512, 512)  # the parent's OpenMP pool is started
from jungle_envs.process_vector_env import BatchedVectorEnv
from training.common import make_vec_env
model = "jungle_envs/agents/TropicRace-2p.zip"
if sys.argv[1] == "batched":
    envs = BatchedVectorEnv("jungle_envs/TropicRace-v0", num_envs=2, num_workers=1,
                            context="fork", opponents=model, num_players=2)
    envs.reset(seed=0)
    for _ in range(5):
        envs.step(envs.action_masks().argmax(1))
else:
    envs = make_vec_env("jungle_envs/TropicRace-v0", n_envs=2, seed=0, subprocess=True,
                        vectorization="python", opponents=model, num_players=2)
    envs.reset()
    for _ in range(5):
        envs.step(np.array(envs.env_method("action_masks")).argmax(1))
envs.close()
print("stepped")
"""


@pytest.mark.parametrize("kind", ["batched", "sb3"])
def test_workers_forked_after_torch_ran_on_threads_play_model_opponents(kind):
    # Before the fix both workers waited forever at an OpenMP barrier in the model's first
    # forward pass (a forked child has no threads for the pool its parent started).
    run = subprocess.run(
        [sys.executable, "-c", FORK_AFTER_TORCH, kind], capture_output=True, text=True, timeout=300,
        cwd=Path(__file__).resolve().parents[1],
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    assert "stepped" in run.stdout
