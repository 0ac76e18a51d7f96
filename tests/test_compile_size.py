"""What a game's first env compiles: one copy of each kernel, and only what it runs.

A kernel called from another kernel with a constant or an int32 compiled a copy per
literal and per integer width (Spank the Monkey's ``enter`` six times), and a config
without move features still compiled them. Each such copy added seconds to the first
``gymnasium.make``; these tests fail when one comes back. The games' own counts need a
cold compile (a fresh cache, 15-30 s per game), so they are slow tests (``make test-all``);
the mechanism itself is checked on two small kernels in every run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from numba import types

from jungle_envs.core.compiled.jit import KernelDispatcher, call_type
from jungle_envs.core.registry import ENTRIES

# Run in a fresh process, so that only the single env's compile is counted.
COUNT = """
import json, sys
from numba.core import event

compiled = {}


class Listener(event.Listener):  # every function numba compiles, kernels and generics alike
    def on_start(self, ev):
        pass

    def on_end(self, ev):
        function = ev.data["dispatcher"].py_func
        name = f"{function.__module__}.{function.__qualname__}"
        compiled.setdefault(name, []).append(ev.data["args"])


event.register("numba:compile", Listener())
import gymnasium as gym, numpy as np
import jungle_envs
from jungle_envs.core.compiled.jit import call_type

env = gym.make(sys.argv[1], **json.loads(sys.argv[2]))
_, info = env.reset(seed=0)
env.step(int(np.flatnonzero(info["action_mask"])[0]))
counts = {}
for name, signatures in compiled.items():
    if name.startswith("jungle_envs"):
        # copies that only a literal or an integer width tells apart
        plain = {tuple(str(call_type(t)) for t in sig) for sig in signatures}
        counts[name] = [len(signatures), len(plain)]
print(json.dumps(counts))
"""


def compiled_kernels(env_id: str, cache: str, **options) -> dict[str, list[int]]:
    """Every package kernel the first step of ``env_id`` compiled: its copies, and how many
    of them differ in more than literals and integer widths (a process with an empty
    cache: a kernel loaded from the cache brings its callees along, uncounted)."""
    out = subprocess.run(
        [sys.executable, "-c", COUNT, env_id, json.dumps(options)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "JUNGLE_ENVS_COMPILE_NOTICE": "0", "NUMBA_CACHE_DIR": cache},
    )
    return json.loads(out.stdout)


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(ENTRIES))
def test_the_first_env_compiles_each_kernel_once_and_no_move_features(game, tmp_path):
    counts = compiled_kernels(f"jungle_envs/{game}-v0", str(tmp_path))
    package = ENTRIES[game].package
    assert f"{package}.compiled.encoding.observe_board" in counts
    assert f"{package}.compiled.encoding.observe" not in counts  # the one with moves
    copies = {name: n for name, (n, distinct) in counts.items() if n > distinct}
    assert copies == {}
    assert f"{package}.compiled.heuristic.heuristic_action" not in counts  # random seats only


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(ENTRIES))
def test_heuristic_seats_compile_the_heuristic_once(game, tmp_path):
    counts = compiled_kernels(f"jungle_envs/{game}-v0", str(tmp_path), opponents="heuristic")
    package = ENTRIES[game].package
    assert counts.get(f"{package}.compiled.heuristic.heuristic_action") == [1, 1]
    # a rule the heuristic calls directly and the runner through the contract: twice
    assert {name: n for name, (n, distinct) in counts.items() if n > distinct} == {}


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(ENTRIES))
def test_move_features_compile_the_observation_with_moves(game, tmp_path):
    counts = compiled_kernels(f"jungle_envs/{game}-v0", str(tmp_path), move_features=True)
    package = ENTRIES[game].package
    assert counts.get(f"{package}.compiled.encoding.observe") == [1, 1]


def test_call_types_are_plain_and_wide():
    assert call_type(types.IntegerLiteral(10)) == types.int64
    assert call_type(types.int32) == types.int64
    assert call_type(types.int8) == types.int64
    assert call_type(types.BooleanLiteral(True)) == types.boolean
    assert call_type(types.uint64) == types.uint64  # unsigned kept: int64 cannot hold it
    assert call_type(types.float32) == types.float32
    row = types.Array(types.int32, 1, "C")
    assert call_type(row) == row


def plain(function):
    """A kernel as ``jit.kernel`` makes it, without the disk cache (a cached caller would
    load without compiling its callee)."""
    return KernelDispatcher(py_func=function, locals={}, targetoptions={"nopython": True})


def leaf_py(cfg, x):
    return cfg + x


leaf = plain(leaf_py)


@plain
def caller(row):
    # a literal, an int32 read from the row, an int64 index: one copy of ``leaf``
    total = leaf(1, 10) + leaf(row[0], row[1])
    for i in range(row.shape[0]):
        total += leaf(i, 2)
    return total


def test_a_kernel_called_with_literals_and_int32s_compiles_once():
    row = np.arange(3, dtype=np.int32)
    assert caller(row) == 11 + 1 + (0 + 2) + (1 + 2) + (2 + 2)
    assert [tuple(signature) for signature in leaf.overloads] == [(types.int64, types.int64)]


def test_a_twin_kernel_must_take_the_contracts_parameter_names():
    """numba compiles a game's kernel in place of the contract's generic function, which
    needs the same parameter names: a twin that renames one is refused when it loads."""
    from jungle_envs.core.compiled import contract

    def apply_chance(cfg, s, kind):  # the contract says (cfg, s, outcome)
        return None

    import jungle_envs.games.tropic_race.compiled as twin

    kernels = {**contract._REGISTRY[twin.TwinConfig], "apply_chance": plain(apply_chance)}
    with pytest.raises(TypeError, match=r"apply_chance must take \('cfg', 's', 'outcome'\)"):
        contract.register_twin(type("Config", (), {}), **kernels)
