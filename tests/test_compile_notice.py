"""The compile notice: a line on stderr when a kernel compiles, none when it is cached."""

from __future__ import annotations

import json
import subprocess
import sys
from types import SimpleNamespace

import numpy as np
import pytest
from numba import typeof

from jungle_envs.core.compiled import notice
from jungle_envs.core.compiled.twin import Twin
from jungle_envs.core.registry import ENTRIES, load_entry_point


@pytest.fixture
def times_file(tmp_path, monkeypatch):
    path = tmp_path / "compile_seconds.json"
    monkeypatch.setattr(notice, "times_path", lambda: path)
    monkeypatch.delenv("JUNGLE_ENVS_COMPILE_NOTICE", raising=False)
    return path


class FakeDispatcher:
    """What ``compiling`` reads of a numba dispatcher."""

    def __init__(self, name):
        self.py_func = SimpleNamespace(__name__=name)


def spank_twin():
    game = load_entry_point(ENTRIES["SpankTheMonkey"].game)(num_players=2)
    return Twin(game)


def test_a_compile_is_announced_at_once_and_its_time_kept(times_file, monkeypatch, capsys):
    monkeypatch.setattr(notice, "cached", lambda dispatcher, signature: False)
    cfg = spank_twin().cfg
    with notice.compiling(FakeDispatcher("batch_call"), (), cfg):
        started = capsys.readouterr().err  # said before the compile ends
    assert started.startswith("jungle_envs: compiling SpankTheMonkey's vector env")
    assert "about 20 s on a 2-core machine" in started
    ended = capsys.readouterr().err
    assert ended.startswith("jungle_envs: SpankTheMonkey's vector env ready in")
    assert "SpankTheMonkey:batch_call" in json.loads(times_file.read_text())


def test_the_guess_is_the_last_time_else_the_machine_scaled_reference():
    twice = 2 * notice.REFERENCE_SECONDS["env_call"]
    times = {"TropicRace:env_call": twice}  # this machine: twice the reference
    assert notice.expected_seconds("TropicRace:env_call", "env_call", times) == (
        twice,
        "last time here",
    )
    guess, basis = notice.expected_seconds("JungleSweep:batch_call", "batch_call", times)
    assert guess == pytest.approx(2 * notice.REFERENCE_SECONDS["batch_call"]) and basis == "here"
    assert notice.expected_seconds("X:init_state", "init_state", {}) == (
        notice.ONE_RULE_SECONDS,
        "on a 2-core machine",
    )


def test_cached_kernels_and_unknown_caches_say_nothing(times_file, monkeypatch, capsys):
    cfg = spank_twin().cfg
    for answer in (True, None):  # cached, or a numba whose cache cannot be read
        monkeypatch.setattr(notice, "cached", lambda dispatcher, signature, a=answer: a)
        with notice.compiling(FakeDispatcher("env_call"), (), cfg):
            pass
    monkeypatch.setattr(notice, "cached", lambda dispatcher, signature: False)
    monkeypatch.setenv("JUNGLE_ENVS_COMPILE_NOTICE", "0")
    with notice.compiling(FakeDispatcher("env_call"), (), cfg):
        pass
    assert capsys.readouterr().err == "" and not times_file.exists()


def test_the_cache_probe_reads_this_numba():
    """After a kernel is bound it is in the cache: the probe must say so (not None, which
    would silence every notice on this numba)."""
    from jungle_envs.core.compiled import calls

    twin = spank_twin()
    row = twin.new_row()
    twin.current_player(row)  # binds (compiles or loads) calls.current_player
    signature = (typeof(twin.cfg), typeof(row))
    assert notice.cached(calls.current_player, signature) is True
    other = (typeof(twin.cfg), typeof(np.zeros(3, dtype=np.float32)))  # never compiled
    assert notice.cached(calls.current_player, other) is False


def test_the_command_line_warms_up_and_refuses_unknown_games():
    run = [sys.executable, "-m", "jungle_envs"]
    done = subprocess.run([*run, "warmup", "tropic_race-v0"], capture_output=True, text=True)
    assert done.returncode == 0 and "TropicRace: kernels ready in" in done.stdout
    bad = subprocess.run([*run, "warmup", "Chess"], capture_output=True, text=True)
    assert bad.returncode == 2 and "unknown game 'Chess'" in bad.stderr
    listed = subprocess.run([*run, "games"], capture_output=True, text=True).stdout
    assert listed.count("jungle_envs/") == len(ENTRIES)
