"""The browser table's server: every refusal, what each seat may see, replays, limits."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
from starlette.testclient import TestClient

from jungle_envs.core.registry import GAMES
from jungle_envs.web.app import MAX_BODY, MAX_REPLAY_BODY, create_app
from jungle_envs.web.tables import Store


@pytest.fixture
def store():
    return Store(max_tables=4, max_replays=2)


@pytest.fixture
def client(store):
    return TestClient(create_app(store))


def new_table(client, game="TropicRace", seats=("human", "random"), seed=1, **extra):
    response = client.post(
        "/api/tables", json={"game": game, "seats": list(seats), "seed": seed, **extra}
    )
    assert response.status_code == 200, response.text
    return response.json()


def view(client, table, token):
    response = client.get(f"/api/tables/{table}", params={"token": token})
    assert response.status_code == 200, response.text
    return response.json()


def image(client, table, token):
    response = client.get(f"/api/tables/{table}/image", params={"token": token})
    assert response.status_code == 200
    return response


def play_out(client, made, choose=lambda actions: actions[0]["id"]):
    """Play every human seat's first legal move (or ``choose``'s) until the game ends."""
    tokens = made["tokens"]
    current = view(client, made["table"], next(iter(tokens.values())))
    moves = 0
    while not current["over"]:
        token = tokens[str(current["to_move"])]
        current = view(client, made["table"], token)
        response = client.post(
            f"/api/tables/{made['table']}/act",
            json={
                "token": token,
                "action": choose(current["actions"]),
                "version": current["version"],
            },
        )
        assert response.status_code == 200, response.text
        current = response.json()
        moves += 1
    return current, moves


def test_the_page_and_the_lobby_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and 'id="new-table"' in page.text
    assert client.get("/static/app.js").status_code == 200
    games = client.get("/api/games").json()
    assert [g["name"] for g in games["games"]] == list(GAMES)
    assert {"human", "random", "heuristic", "ppo", "mcts"} <= set(games["seats"])


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_full_game_of_every_game_against_the_heuristic(client, game):
    made = new_table(client, game=game, seats=("human", "heuristic", "heuristic"), seed=7)
    final, moves = play_out(client, made)
    assert moves > 3 and final["over"] and final["actions"] == []
    assert final["result"]["winners"] and len(final["result"]["scores"]) == 3
    image = client.get(f"/api/tables/{made['table']}/image", params={"token": made["tokens"]["0"]})
    assert image.status_code == 200 and image.content[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    "request_body, reason",
    [
        ({"game": "Chess", "seats": ["human", "random"]}, "unknown game"),
        ({"game": "TropicRace", "seats": ["human"]}, "takes 2 to"),
        ({"game": "TropicRace", "seats": ["human", "wizard"]}, "unknown seat"),
        ({"game": "TropicRace", "seats": ["human", "mcts:0"]}, "mcts:N"),
        ({"game": "TropicRace", "seats": ["human", "../agent.zip"]}, "unknown seat"),
        ({"game": "TropicRace", "seats": ["human", "random"], "seed": -1}, "seed"),
        ({"game": "TropicRace", "seats": ["human", "random"], "seed": True}, "seed"),
        ({"game": "TropicRace", "seats": ["human", "random"], "colour": 1}, "unknown field"),
        ({"game": "TropicRace", "seats": ["human", "random"], "options": {"x": 1}}, "x"),
        ({"game": "TropicRace", "seats": "human"}, "seats"),
        (["TropicRace"], "JSON object"),
    ],
)
def test_a_bad_new_table_is_refused_with_its_reason(client, store, request_body, reason):
    response = client.post("/api/tables", json=request_body)
    assert response.status_code == 400 and reason in response.json()["error"]
    assert store.tables == {}


def test_bodies_that_are_not_json_or_too_large_are_refused(client, store):
    assert client.post("/api/tables", content=b"{not json").status_code == 400
    big = json.dumps({"game": "TropicRace", "seats": ["human"] * 2, "pad": "x" * MAX_BODY})
    assert client.post("/api/tables", content=big).status_code == 413
    assert client.post("/api/replays", content=b"x" * (MAX_REPLAY_BODY + 1)).status_code == 413
    assert store.tables == {} and store.replays == {}


def test_illegal_stale_and_foreign_moves_are_refused_and_change_nothing(client):
    made = new_table(client, seats=("human", "human"), seed=3)
    table, tokens = made["table"], made["tokens"]
    first = view(client, table, tokens["0"])
    mover = str(first["to_move"])
    other = tokens["1" if mover == "0" else "0"]
    mine = view(client, table, tokens[mover])
    legal = {a["id"] for a in mine["actions"]}
    illegal = next(a for a in range(200) if a not in legal)
    attempts = [
        ({"token": tokens[mover], "action": illegal, "version": mine["version"]}, 400),
        ({"token": tokens[mover], "action": "1", "version": mine["version"]}, 400),
        ({"token": tokens[mover], "action": True, "version": mine["version"]}, 400),
        ({"token": tokens[mover], "action": min(legal), "version": mine["version"] + 1}, 409),
        ({"token": other, "action": min(legal), "version": mine["version"]}, 409),
        ({"token": "guess", "action": min(legal), "version": mine["version"]}, 403),
        ({"token": tokens[mover], "action": min(legal)}, 400),
    ]
    for move, status in attempts:
        response = client.post(f"/api/tables/{table}/act", json=move)
        assert response.status_code == status, (move, response.text)
        assert view(client, table, tokens[mover]) == mine
    assert client.get(f"/api/tables/{table}", params={"token": "guess"}).status_code == 403
    assert client.get("/api/tables/nosuch", params={"token": tokens["0"]}).status_code == 404
    # the same move twice: the second one is stale
    move = {"token": tokens[mover], "action": min(legal), "version": mine["version"]}
    assert client.post(f"/api/tables/{table}/act", json=move).status_code == 200
    assert client.post(f"/api/tables/{table}/act", json=move).status_code == 409


@pytest.mark.parametrize("game", ["SpankTheMonkey", "JungleSweep"])
def test_a_seat_sees_nothing_of_what_it_may_not_know(client, store, game):
    """What a seat's page gets (view and picture) stays the same when everything that
    seat cannot know is dealt anew (``Game.resample``): no hidden card reaches it."""
    made = new_table(client, game=game, seats=("human", "human", "human"), seed=5)
    table = store.table(made["table"])
    rng = np.random.default_rng(0)
    dealt_anew = 0
    for _ in range(6):
        seat = table.session.to_move()
        token = made["tokens"][str(seat)]
        for viewer, viewer_token in made["tokens"].items():
            before = view(client, made["table"], viewer_token)
            picture = client.get(
                f"/api/tables/{made['table']}/image", params={"token": viewer_token}
            )
            real = table.session.state
            table.session.state = table.session.game.resample(real, int(viewer), rng)
            dealt_anew += table.session.state != real
            table.version += 1000  # a new picture is drawn
            after = view(client, made["table"], viewer_token)
            redrawn = client.get(
                f"/api/tables/{made['table']}/image", params={"token": viewer_token}
            )
            table.session.state, table.version = real, table.version - 1000
            after["version"] = before["version"]
            assert after == before and redrawn.content == picture.content
        current = view(client, made["table"], token)
        client.post(
            f"/api/tables/{made['table']}/act",
            json={
                "token": token,
                "action": current["actions"][-1]["id"],
                "version": current["version"],
            },
        )
    assert dealt_anew > 0  # the hidden part did change, so the views were put to the test


def test_a_finished_game_opens_as_a_replay_stepped_both_ways(client):
    made = new_table(client, seats=("human", "heuristic"), seed=2)
    table, token = made["table"], made["tokens"]["0"]
    assert client.get(f"/api/tables/{table}/replay", params={"token": token}).status_code == 409
    final, _ = play_out(client, made)
    replay = client.get(f"/api/tables/{table}/replay", params={"token": token}).json()
    opened = client.post("/api/replays", content=json.dumps(replay)).json()
    assert opened["total"] == final["steps"] > 0
    rid, total = opened["replay"], opened["total"]
    end = client.get(f"/api/replays/{rid}/{total}").json()
    start = client.get(f"/api/replays/{rid}/0").json()
    assert start["step"] == "the start" and end["k"] == total and start["board"] != end["board"]
    assert client.get(f"/api/replays/{rid}/1").json()["step"].startswith(("chance:", "seat "))
    assert client.get(f"/api/replays/{rid}/0").json() == start  # and back again
    assert client.get(f"/api/replays/{rid}/{total + 1}").status_code == 400
    assert client.get(f"/api/replays/{rid}/-1").status_code == 400
    assert client.get(f"/api/replays/{rid}/3/image").content[:4] == b"\x89PNG"


def test_a_bad_replay_is_refused_with_the_step_that_breaks_it(client, store):
    made = new_table(client, seats=("human", "heuristic"), seed=2)
    play_out(client, made)
    replay = client.get(
        f"/api/tables/{made['table']}/replay", params={"token": made["tokens"]["0"]}
    ).json()
    decision = next(i for i, (seat, _) in enumerate(replay["steps"]) if seat is not None)
    replay["steps"][decision][1] = 10_000  # not an action of the game
    response = client.post("/api/replays", content=json.dumps(replay))
    assert response.status_code == 400 and f"step {decision + 1}" in response.json()["error"]
    for bad in (b"[]", b"{}", b"not json", b"\xff\xfe"):
        assert client.post("/api/replays", content=bad).status_code == 400
    assert store.replays == {}


def test_the_play_cli_save_file_opens_as_a_replay(client, tmp_path):
    from jungle_envs.core.registry import make_game
    from jungle_envs.play import Session

    session = Session(make_game("ElephantFestival", 2), ["heuristic", "heuristic"], seed=4)
    session.advance()
    path = session.save(tmp_path / "game.json")
    opened = client.post("/api/replays", content=path.read_text())
    assert opened.status_code == 200 and opened.json()["total"] == len(session.history) > 10


def test_the_number_of_open_tables_is_bounded(client, store):
    made = [new_table(client, seats=("human", "human"), seed=s) for s in range(4)]
    response = client.post("/api/tables", json={"game": "TropicRace", "seats": ["human", "human"]})
    assert response.status_code == 503 and len(store.tables) == 4
    play_out(client, made[1])  # a finished table makes room
    new_table(client, seats=("human", "human"), seed=9)
    assert made[1]["table"] not in store.tables and len(store.tables) == 4


def test_no_path_from_the_browser_reaches_the_file_system(client):
    for url in ("/static/../app.py", "/static/%2e%2e/app.py", "/static/..%2fapp.py", "/static/x"):
        assert client.get(url).status_code == 404, url


def test_a_table_of_agents_only_is_watched_with_everything_shown(client):
    made = new_table(client, game="SpankTheMonkey", seats=("heuristic", "random"), seed=1)
    assert made["tokens"] == {} and made["watch"]
    watched = view(client, made["table"], made["watch"])
    assert watched["over"] and watched["seat"] is None and "hand of seat 1" in watched["board"]


def test_the_serve_command_starts_the_table_on_this_machine_only():
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "jungle_envs", "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert f"http://127.0.0.1:{port}/" in server.stdout.readline()
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games") as answer:
                    assert json.load(answer)["games"]
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.2)
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_the_serve_command_refuses_a_bad_port(capsys):
    from jungle_envs.__main__ import main

    with pytest.raises(SystemExit):
        main(["serve", "--port", "70000"])
    assert "--port" in capsys.readouterr().err


def test_a_request_for_another_host_name_is_refused():
    """DNS rebinding: a page of another site that resolves its name to this machine."""
    guarded = TestClient(create_app(allowed_hosts=["127.0.0.1", "localhost"]))
    assert guarded.get("/api/games", headers={"host": "evil.example"}).status_code == 400
    assert guarded.get("/api/games", headers={"host": "localhost"}).status_code == 200
