"""Play and watch in the browser: ``jungle-envs serve`` (or ``python -m jungle_envs.web``).

A small local web app (Starlette, served by uvicorn on 127.0.0.1 by default): choose a
game, its players and who sits in each seat (human, random, heuristic, ppo, mcts:N), and
play with the same pictures as ``render_mode="rgb_array"``, the legal moves as buttons
with their names and the event log beside the table. Several humans can share one browser
(hot seat: the page asks the next player to take the seat before it shows their cards).
Finished games and the play CLI's save files open as replays, stepped forwards and
backwards. ``tables.py`` holds the games and decides what each seat may see;
``app.py`` is the HTTP side. Needs the ``web`` extra (and ``train`` for ``ppo`` seats).
"""

from __future__ import annotations

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def create_app(**kwargs):
    """The ASGI app (``jungle_envs.web.app.create_app``), imported on first use."""
    from jungle_envs.web.app import create_app as make

    return make(**kwargs)


def serve(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> None:
    """Run the table until interrupted."""
    import uvicorn

    print(f"jungle_envs: the table is at http://{host}:{port}/ (Ctrl+C stops it)", flush=True)
    hosts = [host]  # the Host header's name, its port aside
    if host in ("127.0.0.1", "localhost"):
        hosts = ["127.0.0.1", "localhost"]
    elif host in ("0.0.0.0", "::"):  # every address: the user chose to be reachable
        hosts = ["*"]
    uvicorn.run(create_app(allowed_hosts=hosts), host=host, port=port, log_level="warning")
