"""Worker processes that end when the process that started them ends.

A worker blocked reading its pipe does not notice its parent's death by itself: forked
workers inherit the parent's ends of the pipes (their own and their elder siblings'), so
a pipe never reports end-of-file and the worker waits for good, holding its memory.
Nothing in the parent can help when it is killed with SIGKILL, so each worker arranges
its own end, first thing::

    from jungle_envs.core.workers import EndsWithParent, ParentWatch

    watch = ParentWatch.for_workers("fork")     # in the parent, before starting workers
    watch.install()                             # in each worker, first thing
    EndsWithParent(make_env, "fork")            # or: an env factory that workers call

On Linux the kernel sends the worker SIGKILL when its parent dies (``PR_SET_PDEATHSIG``);
elsewhere a daemon thread polls ``os.getppid()`` about once a second and exits when the
parent has changed. Only the standard library is imported here, so that workers which
need neither torch nor stable-baselines3 do not load them.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
# The exit status of a worker that finds its parent gone; nobody but init reaps it, so it
# is only for tests and for whoever traces the process.
ORPHAN_EXIT_CODE = 1


def _set_parent_death_signal(sig: int) -> bool:
    """Ask the kernel for ``sig`` when the parent dies; False where that is not available."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        # the symbols already loaded, libc's among them: find_library would run ldconfig
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent_pid: int, interval: float) -> None:
    while os.getppid() == parent_pid:
        time.sleep(interval)
    os._exit(ORPHAN_EXIT_CODE)


def end_with_parent(
    parent_pid: int | None = None, *, use_prctl: bool = True, interval: float = 1.0
) -> str:
    """Make this process end when its parent process dies, however the parent dies.

    Args:
        parent_pid: the parent's pid, taken in the parent (``os.getpid()`` there) before it
            started this process; a parent that died before this call then ends this
            process at once. ``None`` watches whatever process is the parent now.
        use_prctl: False to poll even on Linux. The kernel sends the death signal when the
            *thread* that forked this process exits, not when its process does, so a
            process forked from a thread that may end before its process must poll.
        interval: seconds between polls, where polling is used.

    Returns:
        ``"prctl"`` or ``"poll"``: how the parent is watched.
    """
    if parent_pid is None:
        parent_pid = os.getppid()
    if use_prctl and _set_parent_death_signal(signal.SIGKILL):
        how = "prctl"
    else:
        threading.Thread(
            target=_watch_parent, args=(parent_pid, interval), name="end-with-parent", daemon=True
        ).start()
        how = "poll"
    # A parent that died between the fork and prctl sends no signal any more: this
    # process has already been handed to another parent.
    if os.getppid() != parent_pid:
        os._exit(ORPHAN_EXIT_CODE)
    return how


@dataclass(frozen=True)
class ParentWatch:
    """How workers about to be started from this process should watch their parent: made
    in the parent by ``for_workers``, passed to each worker, ``install``-ed there."""

    parent_pid: int | None
    use_prctl: bool

    @classmethod
    def for_workers(cls, start_method: str) -> ParentWatch:
        """For workers started now, from this thread, with a ``multiprocessing`` start
        method ("fork", "spawn" or "forkserver")."""
        one_torch_thread_after_fork()
        if start_method == "forkserver":
            # The workers' parent is the fork server, whose pid this process does not know;
            # the server exits when this process does, and its main thread forks them.
            return cls(parent_pid=None, use_prctl=True)
        main = threading.current_thread() is threading.main_thread()
        return cls(parent_pid=os.getpid(), use_prctl=main)

    def install(self) -> str:
        """In the worker, first thing: see ``end_with_parent``."""
        return end_with_parent(self.parent_pid, use_prctl=self.use_prctl)


class EndsWithParent(Generic[T]):
    """A factory (an env constructor) for worker processes: called in a worker, it makes the
    worker end with the process that built this wrapper, then calls the factory; called
    in that process itself (vector envs without workers), it only calls the factory.

    Build it in the parent, just before starting the workers with ``start_method``.
    """

    def __init__(self, factory: Callable[[], T], start_method: str) -> None:
        self.factory = factory
        self.builder_pid = os.getpid()
        self.watch = ParentWatch.for_workers(start_method)

    def __call__(self) -> T:
        if os.getpid() != self.builder_pid:
            self.watch.install()
        return self.factory()

    def __repr__(self) -> str:
        return f"EndsWithParent({self.factory!r}, builder_pid={self.builder_pid})"


_torch_guarded = False


def one_torch_thread_after_fork() -> None:
    """From now on, a process forked from this one runs PyTorch on one thread.

    A process that ran PyTorch on several threads and then forks hands its child an OpenMP
    thread pool whose threads do not exist there: the child's first parallel region waits
    at its barrier forever (a model opponent in a forked worker hung this way). On one
    thread PyTorch never enters such a region; PyTorch's own DataLoader workers do the same.
    Call it before the first PyTorch work of a process that may fork (loading a model,
    building one); calling it again does nothing."""
    global _torch_guarded
    if not _torch_guarded and hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=_one_torch_thread)
        _torch_guarded = True


def _one_torch_thread() -> None:
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)
