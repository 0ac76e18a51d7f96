"""The compiled kernels' disk cache never serves code other than the sources on disk.

An edit (or a checkout) while a process runs must not leave compiled code behind under the
new sources' stamp: the process imported some modules before the change and compiles them
after it. The kernels of such a process are not cached at all.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from jungle_envs.core import sources
from jungle_envs.core.compiled import jit
from jungle_envs.core.compiled.cache import PackageCacheLocator

ROOT = Path(__file__).resolve().parents[1]


def cached(dispatcher) -> bool:
    return type(dispatcher._cache).__name__ != "NullCache"


def test_kernels_are_cached_while_the_sources_are_those_imported():
    assert sources.unchanged_since_start()

    def double(x):
        return 2 * x

    assert cached(jit.kernel(double)) == jit.INSTALLED


def test_a_kernel_defined_after_the_sources_changed_is_not_cached(monkeypatch):
    changed = (*sources.STARTED[:-1], (sources.STARTED[-1][0], -1, -1))
    monkeypatch.setattr(sources, "STARTED", changed)

    def triple(x):
        return 3 * x

    with pytest.warns(RuntimeWarning, match="not cached"):
        dispatcher = jit.kernel(triple)
    assert not cached(dispatcher)
    assert dispatcher(2) == 6  # it still compiles and runs


def test_an_edit_to_a_source_file_is_seen_and_changes_the_stamp(tmp_path):
    """The fingerprint follows every file's size and modification time, and a game's
    stamp covers its own files and the core's (checked on a copy of the package)."""
    shutil.copytree(
        sources.PACKAGE_DIR, tmp_path / "jungle_envs", ignore=shutil.ignore_patterns("__pycache__")
    )
    script = (
        "import pathlib, jungle_envs.core.sources as s\n"
        "before = s.sources_digest('tropic_race'), s.sources_digest('jungle_sweep')\n"
        "path = pathlib.Path(s.PACKAGE_DIR, 'games', 'tropic_race', 'rules.py')\n"
        "path.write_text(path.read_text() + '\\n# edited\\n')\n"
        "assert not s.unchanged_since_start()\n"
        "s.sources_digest.cache_clear()\n"
        "after = s.sources_digest('tropic_race'), s.sources_digest('jungle_sweep')\n"
        "assert before[0] != after[0] and before[1] == after[1]\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_the_locator_stamps_a_games_kernels_with_its_scope():
    from jungle_envs.games.tropic_race.compiled import rules

    py_file = rules.apply_action.py_func.__code__.co_filename
    locator = PackageCacheLocator.from_function(rules.apply_action.py_func, py_file)
    assert locator is not None
    assert locator.get_source_stamp() == sources.sources_digest("tropic_race")


def test_every_generated_kernel_resolver_has_a_name_of_its_own():
    """numba names compiled code by qualified name; two cached implementations of one
    name loaded into one process are linked as one."""
    from jungle_envs.core.compiled import contract

    templates = [contract._generic(name, params) for name, params in contract.SIGNATURES.items()]
    names = {t.__qualname__ for t in templates}
    assert len(names) == len(contract.SIGNATURES)


ORDER_SCRIPT = """
import numpy as np, jungle_envs
from jungle_envs.core.compiled.twin import Twin
from jungle_envs.core.game import CHANCE, TERMINAL
name, first = {name!r}, {first!r}
game = jungle_envs.make_game(name, 3)
twin = Twin(game)
state, rng = game.new_state(), np.random.default_rng(5)
row = twin.pack(state)
for kernel in first:  # bind these entry points before any other
    if kernel == "apply_chance":
        twin.sample_chance(row, 0.5)
    getattr(twin, kernel)(row) if kernel in ("current_player", "legal_mask") else None
for step in range(400):
    player = game.current_player(state)
    assert twin.current_player(row) == player, step
    if player == TERMINAL:
        break
    if player == CHANCE:
        outcome = game.sample_chance(state, rng)
        game.apply_chance(state, outcome)
        twin.apply_chance(row, outcome)
    else:
        legal = game.legal_actions(state)
        action = legal[rng.integers(len(legal))]
        game.apply_action(state, action)
        twin.apply_action(row, action)
    assert twin.unpack(row).to_dict() == state.to_dict(), step
print("agree")
"""


@pytest.mark.parametrize("name", ["TropicRace", "ElephantFestival"])
@pytest.mark.parametrize("first", [("apply_chance",), ("current_player", "legal_mask")])
def test_the_twin_agrees_whichever_entry_point_is_bound_first(name, first):
    """A fresh process, so that the entry points load from the cache in this order."""
    done = subprocess.run(
        [sys.executable, "-c", ORDER_SCRIPT.format(name=name, first=first)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "agree"


def test_cached_kernels_of_earlier_sources_are_pruned_and_current_ones_kept(tmp_path):
    from jungle_envs.core.compiled.cache import prune_stale
    from jungle_envs.core.sources import sources_digest

    current = sources_digest("tropic_race")[:12]
    kept = [
        tmp_path / f"rules.apply_action-30-{current}.py311.nbi",
        tmp_path / f"rules.apply_action-30-{current}.py311.1.nbc",
        tmp_path / "someone_elses.cache-12.py311.nbi",  # not stamped by this package
    ]
    stale = [
        tmp_path / "rules.apply_action-30-0123456789ab.py311.nbi",
        tmp_path / "sub" / "runner.env_call-160-ba9876543210.py312.2.nbc",
    ]
    for path in kept + stale:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x")
    assert prune_stale([tmp_path, tmp_path / "missing"]) == 2
    assert all(path.exists() for path in kept) and not any(path.exists() for path in stale)
