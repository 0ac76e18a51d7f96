"""Running tasks: one in this process (errors caught and recorded with a replay key), or
the plan shared among spawned worker processes."""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import signal
import time
import traceback
from typing import Any

import gymnasium as gym

import jungle_envs

from .compiled_path import play_compiled
from .progress import Progress
from .python_paths import play_engine_game, play_env_game, play_pettingzoo_game
from .tasks import Knobs, Task, TaskResult
from .variants import settings_for, variant_options


def make_env(path: str, task: Task, options: dict[str, Any], settings: dict[str, Any]) -> Any:
    env_id = f"jungle_envs/{task.game}-v0"
    if path == "env":
        return gym.make(env_id, num_players=task.players, opponents="random", **settings, **options)
    if path == "pettingzoo":
        from jungle_envs import multiagent

        return multiagent.env(env_id, num_players=task.players, **options)
    if path == "compiled":
        return gym.make_vec(
            env_id,
            num_envs=task.num_envs,
            vectorization_mode="vector_entry_point",
            num_players=task.players,
            opponents="random",
            num_threads=1,
            copy=False,
            **settings,
            **options,
        )
    return jungle_envs.make_game(task.game, task.players, **options)


def run_task(task: Task, knobs: Knobs) -> TaskResult:
    """Play a task's games, catching and recording every error."""
    result = TaskResult(task)
    start = time.perf_counter()
    options = variant_options(task.game, task.variant, task.players) or {}
    settings = settings_for(task.path, task.settings, task.players)

    def record(exc: BaseException, seed: int | None) -> None:
        result.errors += 1
        result.records.append(error_record(task, options, settings, seed, exc))

    try:
        subject = make_env(task.path, task, options, settings)
    except Exception as exc:
        record(exc, None)
        result.aborted = "could not make the env"
        result.seconds = time.perf_counter() - start
        return result
    if task.path == "compiled":
        try:
            play_compiled(subject, subject.game, task, knobs, result, settings)
        except Exception as exc:
            record(exc, None)
            result.aborted = "error"
        subject.close()
        result.seconds = time.perf_counter() - start
        return result
    for k in range(task.games):
        if knobs.deadline is not None and time.time() > knobs.deadline:
            result.aborted = "time limit"
            break
        seed = task.seed + k
        deep = knobs.full or (seed % knobs.deep_every == 0)
        try:
            if task.path == "engine":
                steps, truncated = play_engine_game(subject, seed, deep, knobs.check_every)
            elif task.path == "env":
                steps, truncated = play_env_game(subject, settings, seed, deep)
            else:
                steps, truncated = play_pettingzoo_game(subject, seed, deep)
        except Exception as exc:
            record(exc, seed)
            if result.errors >= knobs.max_task_errors:
                result.aborted = f"{result.errors} errors"
                break
            try:  # a failed game may leave the env anywhere: start from a fresh one
                subject = make_env(task.path, task, options, settings)
            except Exception as again:
                record(again, None)
                result.aborted = "could not make the env"
                break
            continue
        result.games += 1
        result.steps += steps
        result.truncated += truncated
    if hasattr(subject, "close"):
        subject.close()
    result.seconds = time.perf_counter() - start
    return result


def error_record(
    task: Task, options: dict, settings: dict, seed: int | None, exc: BaseException
) -> dict[str, Any]:
    key = task.key(seed)
    return {
        "path": task.path,
        "game": task.game,
        "players": task.players,
        "variant": task.variant,
        "options": repr(options),
        "settings": repr(settings),
        "seed": seed if seed is not None else task.seed,
        "error": f"{type(exc).__name__}: {exc}",
        "traceback": "".join(traceback.format_exception(exc))[-4000:],
        "replay": f"python -m benchmarks.soak --replay {key}",
    }


def _worker(conn: multiprocessing.connection.Connection, knobs: Knobs) -> None:
    """A worker process: run the tasks the parent sends until it sends None or goes away."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        result = run_task(task, knobs)
        try:
            conn.send(result)
        except (BrokenPipeError, OSError):
            return


def run_plan(
    tasks: list[Task], knobs: Knobs, workers: int, progress: Progress
) -> tuple[list[TaskResult], bool]:
    """Run the tasks on ``workers`` processes (1: in this process); returns the results and
    whether the run was interrupted."""
    results: list[TaskResult] = []
    if workers <= 1:
        try:
            for task in tasks:
                if knobs.deadline is not None and time.time() > knobs.deadline:
                    break
                result = run_task(task, knobs)
                results.append(result)
                progress.advance(result.games, result.errors)
        except KeyboardInterrupt:
            return results, True
        return results, False

    context = multiprocessing.get_context("spawn")  # no forked locks or threads
    queue = list(reversed(tasks))
    pool: dict[int, tuple[Any, Any, Task | None]] = {}  # id -> (process, conn, its task)

    def start_worker(wid: int) -> None:
        parent, child = context.Pipe()
        process = context.Process(target=_worker, args=(child, knobs), daemon=True)
        process.start()
        child.close()
        pool[wid] = (process, parent, None)

    def give(wid: int) -> None:
        process, conn, _ = pool[wid]
        if queue and not (knobs.deadline is not None and time.time() > knobs.deadline):
            task = queue.pop()
            conn.send(task)
            pool[wid] = (process, conn, task)
        else:
            conn.send(None)
            conn.close()
            process.join(timeout=10)
            del pool[wid]

    interrupted = False
    try:
        for wid in range(workers):
            start_worker(wid)
            give(wid)
        while pool:
            waitables = [conn for _, conn, _ in pool.values()]
            waitables += [process.sentinel for process, _, _ in pool.values()]
            multiprocessing.connection.wait(waitables, timeout=5)
            for wid, (process, conn, task) in list(pool.items()):
                result = None
                try:
                    if conn.poll():
                        result = conn.recv()
                except (EOFError, OSError):
                    pass
                if result is not None:
                    results.append(result)
                    progress.advance(result.games, result.errors)
                    give(wid)
                elif not process.is_alive():  # died in the middle of its task
                    conn.close()
                    crashed = TaskResult(task, errors=1, aborted="worker died")
                    crashed.records.append(
                        error_record(
                            task,
                            variant_options(task.game, task.variant, task.players) or {},
                            settings_for(task.path, task.settings, task.players),
                            None,
                            RuntimeError(
                                f"the worker process died (exit code {process.exitcode}) playing "
                                f"this task"
                            ),
                        )
                    )
                    results.append(crashed)
                    progress.advance(0, 1)
                    start_worker(wid)
                    give(wid)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        for process, conn, _ in pool.values():
            if process.is_alive():
                process.terminate()
            process.join(timeout=5)
            conn.close()
    return results, interrupted
