"""One line on stderr when a kernel compiles, and one when it is ready.

A game's first use on a machine compiles its kernels for tens of seconds; without a word a
notebook user takes that for a hang. ``bind`` (``twin.py``) wraps every compile in
``compiling``: when numba's cache has no code for the call, it says at once which game and
entry point compile, about how long that takes here, and where the result is kept, and
when it is ready. A kernel loaded from the cache says nothing. The expected time is the
last compile of the same kernel on this machine, else the reference time below scaled by
how this machine compared on the kernels it did compile, else the reference time itself.

``JUNGLE_ENVS_COMPILE_NOTICE=0`` silences it.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

# Rough seconds of one compile on a quiet 2-core machine, by entry point, near the slow end
# of what was measured there (a first single env 8-14 s, 16-20 s with heuristic seats, a
# first vector env 7-13 s more, a first search 22.5 s more), so a first guess errs long;
# after one compile on a machine its own record takes over.
REFERENCE_SECONDS = {
    "env_call": 20.0,
    "batch_call": 20.0,
    "seats_call": 15.0,
    "table_call": 12.0,
    "playout": 8.0,
}
ONE_RULE_SECONDS = 3.0  # each of ``calls``' one-rule entry points
WHAT = {
    "env_call": "single env",
    "batch_call": "vector env",
    "seats_call": "all-seat batch",
    "table_call": "multi-agent table",
    "playout": "search rollout",
}
TIMES_FILE = "compile_seconds.json"


def enabled() -> bool:
    return os.environ.get("JUNGLE_ENVS_COMPILE_NOTICE", "1") != "0"


def game_of(config: Any) -> str:
    """The env name (``SpankTheMonkey``) of a twin config, from the module defining it."""
    from jungle_envs.core.registry import ENTRIES

    module = type(config).__module__
    for name, entry in ENTRIES.items():
        if module.startswith(entry.package + "."):
            return name
    return type(config).__name__


def cached(dispatcher: Any, signature: tuple) -> bool | None:
    """Whether numba's cache holds code for ``signature`` (None: cannot tell, e.g. a numba
    whose cache internals differ; then the notice is left out rather than guessed)."""
    try:
        cache = dispatcher._cache
        key = cache._index_key(signature, dispatcher.targetctx.codegen())
        return key in cache._cache_file._load_index()
    except Exception:  # an internal of numba this version lacks: stay quiet
        return None


def times_path() -> Path:
    from jungle_envs.core.compiled.cache import user_cache_dir

    return user_cache_dir() / TIMES_FILE


def load_times() -> dict[str, float]:
    try:
        record = json.loads(times_path().read_text())
        return {str(k): float(v) for k, v in record.items()}
    except (OSError, ValueError, AttributeError):
        return {}


def save_time(key: str, seconds: float) -> None:
    times = load_times()
    times[key] = round(seconds, 1)
    try:
        path = times_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        scratch = path.with_suffix(f".{os.getpid()}.tmp")
        scratch.write_text(json.dumps(times, indent=1, sort_keys=True))
        scratch.replace(path)
    except OSError:  # a read-only home: the next guess is the reference again
        pass


def reference(kernel: str) -> float:
    return REFERENCE_SECONDS.get(kernel, ONE_RULE_SECONDS)


def expected_seconds(key: str, kernel: str, times: dict[str, float]) -> tuple[float, str]:
    """The guess and what it rests on."""
    if key in times:
        return times[key], "last time here"
    ratios = [seconds / reference(k.split(":")[1]) for k, seconds in times.items() if ":" in k]
    if ratios:
        return reference(kernel) * statistics.median(ratios), "here"
    return reference(kernel), "on a 2-core machine"


def folder_of(dispatcher: Any) -> str:
    try:
        return str(dispatcher._cache.cache_path)
    except AttributeError:
        return "numba's cache"


@contextmanager
def compiling(dispatcher: Any, signature: tuple, config: Any):
    """Around ``dispatcher.compile(signature)``: the two lines when it compiles."""
    if not enabled() or cached(dispatcher, signature) is not False:
        yield
        return
    kernel = dispatcher.py_func.__name__
    game = game_of(config)
    key = f"{game}:{kernel}"
    what = WHAT.get(kernel, f"rule call {kernel}")
    guess, basis = expected_seconds(key, kernel, load_times())
    print(
        f"jungle_envs: compiling {game}'s {what} (first use of this code; about "
        f"{guess:.0f} s {basis}), kept in {folder_of(dispatcher)}",
        file=sys.stderr,
        flush=True,
    )
    start = time.perf_counter()
    yield
    seconds = time.perf_counter() - start
    save_time(key, seconds)
    print(f"jungle_envs: {game}'s {what} ready in {seconds:.1f} s", file=sys.stderr, flush=True)
