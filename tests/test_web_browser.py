"""The browser table in a real browser: Playwright driving Debian's Chromium.

Set up by ``make test-browser`` (Debian's ``chromium`` package; Playwright's own browser
download is never used). Skipped, with the reason, where Playwright or Chromium is missing.
"""

from __future__ import annotations

import shutil
import socket
import threading
import time

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Debian's chromium is not installed (make test-browser installs it)"
)

import uvicorn  # noqa: E402

from jungle_envs.core.registry import GAMES  # noqa: E402
from jungle_envs.web.app import create_app  # noqa: E402


@pytest.fixture(scope="module")
def server():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not running.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    opened = context.new_page()
    errors = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.goto(server)
    yield opened
    context.close()
    assert errors == []


def sit_down(page, game: str, seats: list[str], seed: int) -> None:
    page.select_option("#game", game)
    page.select_option("#players", str(len(seats)))
    for seat, who in enumerate(seats):
        page.select_option(f"#seat-{seat}", who)
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_function(
        "!document.querySelector('#table').hidden"
        " || document.querySelector('#lobby-error').textContent.length > 0"
    )
    assert page.inner_text("#lobby-error") == ""


def take_seat(page) -> None:
    page.click("#take-seat")
    page.wait_for_selector("#handover", state="hidden")


def play_by_clicking(page, limit: int = 2000) -> int:
    """Click a legal move (the first shown) until the game is over; the clicks made."""
    clicks = 0
    while True:
        page.wait_for_function(
            "document.querySelector('#actions button:not([disabled])') !== null"
            " || document.querySelector('#status').textContent.includes('game over')"
            " || !document.querySelector('#handover').hidden"
        )
        if "game over" in page.inner_text("#status"):
            return clicks
        if page.is_visible("#handover"):
            take_seat(page)
            continue
        page.click("#actions button >> nth=0")
        clicks += 1
        assert clicks < limit


@pytest.mark.parametrize("game", list(GAMES))
def test_a_full_game_of_every_game_played_by_clicking(page, game):
    sit_down(page, game, ["human", "heuristic"], seed=11)
    assert play_by_clicking(page) > 3
    assert "won by" in page.inner_text("#status")
    page.wait_for_function(  # the final picture, drawn for this seat, loads
        "(() => { const img = document.querySelector('#board-img');"
        " return img.complete && img.naturalWidth > 0; })()"
    )


@pytest.mark.parametrize("game", list(GAMES))
def test_a_full_game_of_every_game_against_the_shipped_agents(page, game):
    pytest.importorskip("sb3_contrib", reason="ppo seats need the train extra")
    sit_down(page, game, ["human", "ppo"], seed=3)  # agents are shipped for 2 and 4 players
    assert play_by_clicking(page) > 3
    assert "won by" in page.inner_text("#status")


def test_hot_seat_hides_each_players_cards_from_the_other(page):
    sit_down(page, "SpankTheMonkey", ["human", "human"], seed=4)
    seen = set()
    for _ in range(12):
        page.wait_for_function(
            "document.querySelector('#actions button:not([disabled])') !== null"
            " || !document.querySelector('#handover').hidden"
        )
        if page.is_visible("#handover"):
            # the handover screen covers the table until the next player takes the seat
            take_seat(page)
            continue
        board = page.text_content("#board-text")
        seat = int(page.inner_text("#status").split("you are seat ")[1].split(";")[0])
        seen.add(seat)
        assert f"your hand (seat {seat})" in board
        assert "hand of seat" not in board  # no other seat's hand in the page's data
        page.click("#actions button >> nth=0")
    assert seen == {0, 1}


def test_a_finished_game_is_stepped_forwards_and_backwards(page):
    sit_down(page, "ElephantFestival", ["human", "random"], seed=2)
    play_by_clicking(page)
    page.click("#watch-replay")
    page.wait_for_selector("#replay:not([hidden])")
    page.wait_for_function("document.querySelector('#replay-step').textContent === 'the start'")
    page.click("#forward")
    page.wait_for_function(
        "document.querySelector('#replay-status').textContent.includes('position 1 of')"
    )
    first_step = page.inner_text("#replay-step")
    page.click("#last")
    page.wait_for_function(
        "(() => { const s = document.querySelector('#replay-status').textContent;"
        " const m = s.match(/position (\\d+) of (\\d+)/); return m && m[1] === m[2]; })()"
    )
    page.click("#back")
    page.click("#first")
    page.wait_for_function("document.querySelector('#replay-step').textContent === 'the start'")
    page.click("#forward")
    page.wait_for_function(f"document.querySelector('#replay-step').textContent === {first_step!r}")


def test_a_broken_replay_file_is_refused_on_the_page(page, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "jungle_envs.replay", "version": 1, "start": {}, "steps": []}')
    page.set_input_files("#replay-file", str(bad))
    page.click("#open")
    page.wait_for_function("document.querySelector('#lobby-error').textContent.length > 0")
    assert "start position" in page.inner_text("#lobby-error")


def monkey_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("monkey height"))


def first_board(options: dict, seats: list[str], seed: int) -> str:
    """The human's board at its first decision in a table set up as the lobby does."""
    from jungle_envs.play.session import Session

    session = Session.new("SpankTheMonkey", len(seats), options, seats, seed)
    session.advance()
    return session.game.render(session.state, viewer=0)


def test_game_options_are_set_in_the_lobby_and_a_bad_one_is_refused(page):
    page.select_option("#game", "SpankTheMonkey")
    page.select_option("#players", "2")
    page.select_option("#seat-0", "human")
    page.select_option("#seat-1", "random")
    page.fill("#seed", "3")
    page.click("#options-box summary")
    page.fill("#option-monkey_base", "-5")
    page.click("#start")
    page.wait_for_function("document.querySelector('#lobby-error').textContent.length > 0")
    assert "monkey_base" in page.inner_text("#lobby-error")
    page.fill("#option-monkey_base", "9")
    page.click("#start")
    page.wait_for_selector("#table:not([hidden])")
    # The monkey may climb before the human's first decision: compare with the same table
    # set up on the server, with the option and without it.
    expected = monkey_line(first_board({"monkey_base": 9}, ["human", "random"], 3))
    assert expected != monkey_line(first_board({}, ["human", "random"], 3))
    assert monkey_line(page.text_content("#board-text")) == expected


def test_a_saved_game_file_opens_as_a_replay(page, tmp_path):
    from jungle_envs.core.registry import make_game
    from jungle_envs.play import Session

    session = Session(make_game("JungleSweep", 3), ["heuristic"] * 3, seed=8)
    session.advance()
    path = session.save(tmp_path / "saved.json")
    page.set_input_files("#replay-file", str(path))
    page.click("#open")
    page.wait_for_selector("#replay:not([hidden])")
    total = len(session.history)
    page.wait_for_function(
        f"document.querySelector('#replay-status').textContent.includes('of {total}')"
    )
    page.fill("#scrub", "10")
    page.dispatch_event("#scrub", "change")
    page.wait_for_function(
        "document.querySelector('#replay-status').textContent.includes('position 10 of')"
    )
    assert page.inner_text("#replay-step") != "the start"
