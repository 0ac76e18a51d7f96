"""A vector env that steps a share of its envs in each worker process and one in the caller.

Gymnasium's ``AsyncVectorEnv`` runs one env per process and pays a pipe round trip per env
and step; our env steps take 80-220 µs, less than that round trip, so it runs slower than
a single env. ``BatchedVectorEnv`` splits ``num_envs`` envs into shares: the calling
process steps the first share itself while ``num_workers`` worker processes step one
share each, one message per worker and step, so the round trip is paid once per share
and the caller does not sit idle while the workers run::

    from jungle_envs.process_vector_env import BatchedVectorEnv

    envs = BatchedVectorEnv("jungle_envs/TropicRace-v0", num_envs=8, num_workers=1,
                            num_players=4, opponents="heuristic")
    obs, info = envs.reset(seed=0)                  # env i is seeded seed + i
    obs, rewards, terminated, truncated, info = envs.step(actions)
    envs.action_masks()                             # bool, (num_envs, n)

It is a ``gymnasium.vector.VectorEnv`` with the same results as ``SyncVectorEnv`` for the
same seeds and actions, next-step autoreset included (the step after an episode ends
resets that env and ignores its action). ``num_workers=0`` steps every env in the calling
process; the default, one worker per core besides the caller's, keeps every core busy.
Out-of-space actions raise ``ValueError`` before any env moves; an env that raises, or a
worker that dies, closes the vector env (its shares would be out of step): the error
reaches the caller, and every later call raises ``ClosedEnvironmentError`` naming it.
Workers end by themselves when the process that started them dies, even by SIGKILL.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import traceback
from collections.abc import Sequence
from typing import Any, NoReturn

import gymnasium as gym
import numpy as np
from gymnasium.error import ClosedEnvironmentError
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array

from jungle_envs.core.arguments import check_count, check_reset_options, check_seeds, is_integer
from jungle_envs.core.workers import ParentWatch


class _InfoBatcher(gym.vector.VectorEnv):
    """Gymnasium's own rules for batching infos (``VectorEnv._add_info``), for a share."""

    def __init__(self, num_envs: int) -> None:
        self.num_envs = num_envs

    def batch(self, infos: list[dict]) -> dict[str, Any]:
        merged: dict[str, Any] = {}
        for i, info in enumerate(infos):
            merged = self._add_info(merged, info, i)
        return merged


class EnvBatch:
    """A few envs stepped one after the other, with next-step autoreset; results come back
    already batched (arrays and a batched info), so a worker does that work, not the caller."""

    def __init__(self, env_id: str, count: int, env_kwargs: dict[str, Any]) -> None:
        self.envs = [gym.make(env_id, **env_kwargs) for _ in range(count)]
        self.space = self.envs[0].observation_space
        self.infos = _InfoBatcher(count)
        self.ended = [False] * count

    def reset(self, seeds: Sequence[int | None], options: dict | None) -> tuple:
        out = [
            env.reset(seed=seed, options=options)
            for env, seed in zip(self.envs, seeds, strict=True)
        ]
        self.ended = [False] * len(self.envs)
        return self._obs([obs for obs, _ in out]), self.infos.batch([info for _, info in out])

    def step(self, actions: Sequence[int]) -> tuple:
        observations, rewards, terminated, truncated, infos = [], [], [], [], []
        for k, (env, action) in enumerate(zip(self.envs, actions, strict=True)):
            if self.ended[k]:
                obs, info = env.reset()
                reward, term, trunc = 0.0, False, False
            else:
                obs, reward, term, trunc, info = env.step(int(action))
            self.ended[k] = term or trunc
            observations.append(obs)
            rewards.append(reward)
            terminated.append(term)
            truncated.append(trunc)
            infos.append(info)
        return (
            self._obs(observations),
            np.array(rewards, dtype=np.float64),
            np.array(terminated, dtype=bool),
            np.array(truncated, dtype=bool),
            self.infos.batch(infos),
        )

    def _obs(self, observations: list) -> Any:
        out = create_empty_array(self.space, len(observations))
        return concatenate(self.space, observations, out)

    def close(self) -> None:
        for env in self.envs:
            env.close()


def _serve(conn, env_id: str, count: int, env_kwargs: dict[str, Any], watch: ParentWatch) -> None:
    """A worker process: answers ``(command, data)`` messages for its batch of envs."""
    watch.install()
    batch = None
    try:
        batch = EnvBatch(env_id, count, env_kwargs)
        conn.send(("ok", None))
        while True:
            command, data = conn.recv()
            if command == "close":
                break
            conn.send(("ok", getattr(batch, command)(*data)))
    except (KeyboardInterrupt, EOFError):
        pass
    except Exception:  # reported to the driver, which raises it
        conn.send(("error", traceback.format_exc()))
    finally:
        if batch is not None:
            batch.close()
        conn.close()


class BatchedVectorEnv(gym.vector.VectorEnv):
    """``num_envs`` copies of one env in ``num_workers + 1`` shares: the caller's and one per
    worker process.

    Args:
        env_id: a registered env id.
        num_envs: how many envs.
        num_workers: worker processes besides the caller (default: one per core less one,
            at most ``num_envs - 1``); 0 steps every env in this process.
        context: a ``multiprocessing`` start method (default: the platform's).
        **env_kwargs: passed to ``gymnasium.make`` for every env (``num_players``,
            ``opponents``, game options, ...).
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        env_id: str,
        num_envs: int,
        num_workers: int | None = None,
        context: str | None = None,
        **env_kwargs: Any,
    ) -> None:
        num_envs = check_count("num_envs", num_envs)
        if num_workers is None:
            num_workers = min(num_envs, os.cpu_count() or 1) - 1
        if not is_integer(num_workers) or not 0 <= num_workers < num_envs:
            raise ValueError(
                f"num_workers must be an int in 0..{num_envs - 1} (the caller steps a share "
                f"too), got {num_workers!r}"
            )
        probe = gym.make(env_id, **env_kwargs)  # bad ids, counts and options fail here, by name
        self.single_observation_space = probe.observation_space
        self.single_action_space = probe.action_space
        probe.close()
        self.num_envs, self.num_workers = num_envs, int(num_workers)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._masks = np.ones((num_envs, int(self.single_action_space.n)), dtype=bool)
        shares = np.array_split(np.arange(num_envs), num_workers + 1)
        self._sizes = [len(share) for share in shares]
        # Why the env was closed, for the calls made after that.
        self._closed_because: str | None = None
        self._local = EnvBatch(env_id, self._sizes[0], env_kwargs)
        self._workers: list[tuple[Any, Any]] = []
        ctx = multiprocessing.get_context(context)
        watch = ParentWatch.for_workers(ctx.get_start_method())
        for size in self._sizes[1:]:
            parent, child = ctx.Pipe()
            process = ctx.Process(
                target=_serve, args=(child, env_id, size, env_kwargs, watch), daemon=True
            )
            process.start()
            child.close()
            self._workers.append((parent, process))
        for k in range(len(self._workers)):
            self._receive(k)

    # --- the VectorEnv API -------------------------------------------------------------
    def reset(self, *, seed: int | Sequence[int | None] | None = None, options=None):
        self._check_open()
        check_reset_options(options)
        seeds = check_seeds(seed, self.num_envs)  # all checked before any env resets
        if seed is not None and seeds[0] is not None:
            self._np_random, self._np_random_seed = seeding.np_random(seeds[0])
        obs, info = self._run("reset", self._split(seeds), options)
        self._masks = info["action_mask"].astype(bool)
        return obs, info

    def step(self, actions):
        self._check_open()
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(
                f"actions must be {self.num_envs} ints, one per env; got shape "
                f"{actions.shape} of {actions.dtype}"
            )
        n = int(self.single_action_space.n)
        if actions.min() < 0 or actions.max() >= n:
            raise ValueError(f"every action must be in 0..{n - 1}; got {actions.tolist()}")
        obs, rewards, terminated, truncated, info = self._run("step", self._split(actions.tolist()))
        self._masks = info["action_mask"].astype(bool)
        return obs, rewards, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions of every env, bool ``(num_envs, n)`` (what MaskablePPO reads)."""
        self._check_open()
        return self._masks.copy()

    def close_extras(self, **kwargs: Any) -> None:
        if self._closed_because is None:
            self._closed_because = "close() was called"
        self._local.close()
        for conn, process in self._workers:
            with contextlib.suppress(BrokenPipeError, OSError):
                conn.send(("close", None))
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()
            conn.close()
        self._workers = []

    # --- plumbing ----------------------------------------------------------------------
    def _split(self, values: list) -> list[list]:
        parts, start = [], 0
        for size in self._sizes:
            parts.append(values[start : start + size])
            start += size
        return parts

    def _check_open(self) -> None:
        if self.closed:
            raise ClosedEnvironmentError(
                f"this BatchedVectorEnv is closed because {self._closed_because}; make a new one"
            )

    def _run(self, command: str, parts: list[list], *extra: Any) -> list:
        """Send one batch to every worker, then join their batched answers in env order."""
        for k, ((conn, _), part) in enumerate(zip(self._workers, parts[1:], strict=True)):
            try:
                conn.send((command, (part, *extra)))
            except OSError as error:  # a dead worker's pipe refuses the message
                self._fail(k, self._death(k, error))
        try:
            answers = [getattr(self._local, command)(parts[0], *extra)]  # while the workers run
        except Exception as error:
            # the workers' envs have moved and this share's have not
            self._closed_because = (
                f"an env in the calling process failed: {type(error).__name__}: {error}"
            )
            self.close()
            raise
        answers += [self._receive(k) for k in range(len(self._workers))]
        if len(answers) == 1:
            return list(answers[0])
        return [
            _join([answer[i] for answer in answers], self._sizes) for i in range(len(answers[0]))
        ]

    def _receive(self, k: int) -> Any:
        try:
            status, payload = self._workers[k][0].recv()
        except (EOFError, OSError) as error:
            self._fail(k, self._death(k, error))
        if status == "error":
            cause = payload.strip().splitlines()[-1]
            self._fail(k, cause, payload)
        return payload

    def _death(self, k: int, error: BaseException) -> str:
        """What became of worker ``k``, whose pipe broke with ``error``."""
        process = self._workers[k][1]
        process.join(timeout=1)  # a worker whose pipe broke is on its way out
        if process.exitcode is None:
            return f"its pipe broke ({type(error).__name__}) while it still runs"
        if process.exitcode < 0:
            return f"the process died of {signal.Signals(-process.exitcode).name}"
        return f"the process exited with status {process.exitcode}"

    def _fail(self, k: int, cause: str, details: str = "") -> NoReturn:
        """Close the env for good because worker ``k`` failed, and raise that."""
        self._closed_because = f"worker {k} failed ({cause})"
        self.close()
        message = f"worker {k} of BatchedVectorEnv failed: {cause}"
        raise RuntimeError(f"{message}\n\n{details}" if details else message)


def _join(parts: list, sizes: list[int]) -> Any:
    """Concatenate the workers' batched values; an info key that only some workers have
    gets the empty value (zeros, False, None) for the others, as Gymnasium would give."""
    if isinstance(parts[0], np.ndarray):
        return np.concatenate(parts)
    keys = list(dict.fromkeys(key for part in parts for key in part))
    joined = {}
    for key in keys:
        present = [part[key] for part in parts if key in part]
        if isinstance(present[0], dict):
            joined[key] = _join([part.get(key, {}) for part in parts], sizes)
            continue
        like = present[0]
        pieces = []
        for part, size in zip(parts, sizes, strict=True):
            if key in part:
                pieces.append(part[key])
            elif like.dtype == object:
                pieces.append(np.full(size, None, dtype=object))
            else:
                pieces.append(np.zeros((size, *like.shape[1:]), dtype=like.dtype))
        joined[key] = np.concatenate(pieces)
    return joined
