"""The browser table's HTTP side: a Starlette app over ``tables.Store``.

Starlette because the table needs a handful of JSON routes, a PNG route and static files:
it is small, typed, served by uvicorn, tested in-process by its ``TestClient``, and the
page needs no build step (plain HTML and JavaScript in ``static/``). Flask would do as
well but brings a WSGI server of its own; FastAPI adds pydantic for a few fields checked
here by hand. Every route answers JSON errors with the reason; a request body over its
limit is refused before it is read in full; no route takes a file path.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from jungle_envs.web.tables import Refused, Store, lobby, png, replay_frame

STATIC = Path(__file__).parent / "static"
MAX_BODY = 16 * 1024  # a move or a new table
MAX_REPLAY_BODY = 4 * 1024 * 1024  # a replay or save file


async def read_body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise Refused(f"a request body of at most {limit:,} bytes", status=413)
    body = bytearray()
    async for chunk in request.stream():
        body.extend(chunk)
        if len(body) > limit:
            raise Refused(f"a request body of at most {limit:,} bytes", status=413)
    return bytes(body)


async def read_json(request: Request, limit: int = MAX_BODY) -> Any:
    body = await read_body(request, limit)
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        raise Refused("the request body is not JSON") from None


def create_app(store: Store | None = None, allowed_hosts: list[str] | None = None) -> Starlette:
    """The app over ``store``; ``allowed_hosts``: the Host headers it answers (``serve``
    passes the address it listens on, so a web page elsewhere cannot reach the table
    through a name that resolves to this machine, as in DNS rebinding)."""
    store = store or Store()

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def games(request: Request) -> Response:
        return JSONResponse(lobby())

    async def new_table(request: Request) -> Response:
        table_id, table = store.new_table(await read_json(request))
        seats = {str(seat): token for token, seat in table.tokens.items() if seat is not None}
        watch = next((token for token, seat in table.tokens.items() if seat is None), None)
        return JSONResponse({"table": table_id, "tokens": seats, "watch": watch})

    async def view(request: Request) -> Response:
        table = store.table(request.path_params["table"])
        return JSONResponse(table.view(request.query_params.get("token")))

    async def image(request: Request) -> Response:
        table = store.table(request.path_params["table"])
        return Response(table.image(request.query_params.get("token")), media_type="image/png")

    async def act(request: Request) -> Response:
        table = store.table(request.path_params["table"])
        move = await read_json(request)
        if not isinstance(move, dict) or set(move) != {"token", "action", "version"}:
            raise Refused("a move is a JSON object with token, action and version")
        return JSONResponse(table.act(move["token"], move["action"], move["version"]))

    async def replay(request: Request, table_id: str | None = None) -> Response:
        table = store.table(request.path_params["table"])
        table.seat_of(request.query_params.get("token"))
        if not table.over:
            raise Refused("a game's replay opens when it is over", status=409)
        return JSONResponse(table.session.replay().to_dict())

    async def new_replay(request: Request) -> Response:
        body = await read_body(request, MAX_REPLAY_BODY)
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise Refused("a replay file is UTF-8 JSON") from None
        replay_id, loaded = store.new_replay(text)
        return JSONResponse({"replay": replay_id, "total": len(loaded)})

    def frame_index(request: Request) -> int:
        text = request.path_params["k"]
        if not text.isdigit() or len(text) > 7:
            raise Refused("a position is a number")
        return int(text)

    async def replay_view(request: Request) -> Response:
        loaded = store.replay(request.path_params["replay"])
        return JSONResponse(replay_frame(loaded, frame_index(request)))

    async def replay_image(request: Request) -> Response:
        loaded = store.replay(request.path_params["replay"])
        k = frame_index(request)
        replay_frame(loaded, k)  # checks k
        return Response(png(loaded.game.render_image(loaded.position(k))), media_type="image/png")

    async def refused(request: Request, exc: Refused) -> Response:
        return JSONResponse({"error": str(exc)}, status_code=exc.status)

    routes = [
        Route("/", index),
        Route("/api/games", games),
        Route("/api/tables", new_table, methods=["POST"]),
        Route("/api/tables/{table}", view),
        Route("/api/tables/{table}/image", image),
        Route("/api/tables/{table}/act", act, methods=["POST"]),
        Route("/api/tables/{table}/replay", replay),
        Route("/api/replays", new_replay, methods=["POST"]),
        Route("/api/replays/{replay}/{k}", replay_view),
        Route("/api/replays/{replay}/{k}/image", replay_image),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = []
    if allowed_hosts:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))
    return Starlette(routes=routes, middleware=middleware, exception_handlers={Refused: refused})
