"""The play CLI's save and load under hostile files: a failed save keeps the old one, a
failed load keeps the game, and ``--load`` of a bad file exits 2 in one line.

Hypothesis edits one value anywhere in a real save file (a number blown up past any
integer type or past 4,300 digits, a wrong type, a negative number) and holds the
promise to account, in game and from the command line.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from jungle_envs.core.files import (
    MAX_READ_BYTES,
    atomic_write,
    atomic_write_text,
    read_text_limited,
)
from jungle_envs.play import Session, TerminalGame, main
from jungle_envs.play.session import LoadError, read_save

GAMES = ["JungleSweep", "SpankTheMonkey", "TropicRace", "ElephantFestival"]


def table(game: str, seed: int = 1) -> TerminalGame:
    session = Session.new(game, 2, {}, ["human", "heuristic"], seed)
    return TerminalGame(session, Console(file=io.StringIO(), width=100))


def paths(value, prefix=()):
    """Every (path, leaf) of a JSON value."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*prefix, index))
    else:
        yield prefix, value


def replaced(value, path, new):
    if not path:
        return new
    copy = list(value) if isinstance(value, list) else dict(value)
    copy[path[0]] = replaced(value[path[0]], path[1:], new)
    return copy


HOSTILE = st.sampled_from(
    ["10**60", "-10**60", "-1", "9" * 5000, '"x"', "[]", "{}", "null", "1.5", "true", "1e400"]
)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])  # fmt: skip
@given(data=st.data(), literal=HOSTILE)
def test_a_load_of_an_edited_save_loads_or_leaves_the_game_as_it_was(game, tmp_path, data, literal):
    source = table(game)
    path = tmp_path / "save.json"
    source.session.save(path)
    saved = json.loads(path.read_text())
    leaves = list(paths(saved))
    where = data.draw(st.sampled_from([p for p, _ in leaves]), label="path")
    marker = "__HOSTILE__"
    text = json.dumps(replaced(saved, where, marker)).replace(f'"{marker}"', literal)
    path.write_text(text)

    playing = table(game, seed=2)
    before = (playing.session, playing.session.game.state_to_json(playing.session.state))
    outcome = playing.load(str(path))  # in game: never raises
    if outcome is None:
        assert (playing.session, playing.session.game.state_to_json(playing.session.state)) == (
            before
        )
    try:
        status = main(["--load", str(path)], Console(file=io.StringIO()), lambda _: "quit")
    except SystemExit as exc:  # argument errors leave through argparse
        status = exc.code
    assert status in (0, 2)  # a game that loads and is left, or one line and 2
    if outcome is None:
        assert status == 2


def test_a_save_that_fails_keeps_the_old_save_whole(tmp_path):
    game = table("TropicRace")
    path = tmp_path / "save.json"
    game.session.save(path)
    old = path.read_text()
    code = (
        "import resource, signal, sys\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (100, resource.RLIM_INFINITY))\n"
        "from jungle_envs.play import Session\n"
        "s = Session.new('TropicRace', 2, {}, ['human', 'heuristic'], 1)\n"
        "try:\n    s.save(sys.argv[1])\nexcept OSError as exc:\n    print('refused', exc)\n"
    )
    run = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True)
    assert "refused" in run.stdout, run.stderr
    assert path.read_text() == old  # whole, and still the old save
    json.loads(path.read_text())
    assert [p.name for p in tmp_path.iterdir()] == ["save.json"]  # no temporary file left


def test_atomic_write_keeps_the_old_file_when_writing_fails(tmp_path):
    path = tmp_path / "run.json"
    atomic_write_text(path, "old")

    def cut_short(tmp):
        tmp.write_text("half")
        raise OSError(27, "File too large")

    with pytest.raises(OSError, match="too large"):
        atomic_write(path, cut_short)
    assert path.read_text() == "old"
    assert os.listdir(tmp_path) == ["run.json"]


def test_loads_read_regular_files_of_bounded_size_only(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as file:
        file.truncate(MAX_READ_BYTES + 1)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path, message in [
        ("/dev/zero", "is not a regular file"),
        (str(fifo), "is not a regular file"),  # would wait for a writer forever
        (str(big), "is larger than"),
        (str(tmp_path), "Is a directory"),
    ]:
        with pytest.raises(LoadError, match=message):
            read_save(path)
        game = table("JungleSweep")
        session = game.session
        assert game.load(path) is None
        assert game.session is session
    (tmp_path / "latin1.json").write_bytes(b"\xff\xfe")
    with pytest.raises(ValueError, match="not a text file"):
        read_text_limited(tmp_path / "latin1.json")


@pytest.mark.parametrize("content", ['{"format": "jungle_envs.play", "version": 1}', "9" * 5000])
def test_load_from_the_command_line_exits_2_in_one_line(tmp_path, content):
    path = tmp_path / "bad.json"
    path.write_text(content)
    run = subprocess.run(
        [sys.executable, "-m", "jungle_envs.play", "--load", str(path)],
        capture_output=True, text=True, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "cannot load" in run.stderr
