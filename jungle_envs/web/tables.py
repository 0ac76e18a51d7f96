"""The browser table's games and replays, without the web framework: what each seat sees.

A ``Table`` is a play ``Session`` with one secret token per human seat. Everything a page
gets goes through ``Table.view(token)``: the board drawn and written for that seat (its
own cards only), that seat's log, and its legal moves when it is to move; the game's state
itself never leaves the server. A move names the version of the view it was chosen on, so a
stale or repeated click is refused and changes nothing. The store keeps a bounded number of
tables and replays: when full, the least recently used finished one makes room, else a new
one is refused.
"""

from __future__ import annotations

import io
import secrets
import threading
import time
from collections import OrderedDict
from typing import Any

from jungle_envs.core.game import TERMINAL
from jungle_envs.core.registry import GAMES, game_class
from jungle_envs.play.session import HUMAN, Session, find_game
from jungle_envs.replay import Replay, load_replay

MAX_TABLES = 32
MAX_REPLAYS = 32
MAX_PLAYERS_SEATS = 8  # a bound on a request, above every game's own limit
SEAT_KINDS = ("human", "random", "heuristic", "ppo", "mcts")


class Refused(ValueError):
    """A request the server refuses; ``status`` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def png(image) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.fromarray(image).save(out, format="PNG", optimize=False, compress_level=3)
    return out.getvalue()


def check_seat_spec(spec: Any) -> str:
    """A seat as the lobby sends it: human, random, heuristic, ppo or mcts:N (N simulations)."""
    if not isinstance(spec, str) or len(spec) > 32:
        raise Refused(f"a seat is one of {', '.join(SEAT_KINDS)} or mcts:N")
    kind, _, arg = spec.partition(":")
    if kind not in SEAT_KINDS or (arg and (kind != "mcts" or not arg.isdigit())):
        raise Refused(f"unknown seat {spec!r}; choose from {', '.join(SEAT_KINDS)} or mcts:N")
    if arg and not 1 <= int(arg) <= 5000:
        raise Refused("mcts:N takes 1 to 5,000 simulations")
    return spec


class Table:
    """One game at the browser table."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.tokens = {secrets.token_urlsafe(16): seat for seat in session.humans}
        if not session.humans:  # agents only: one token to watch everything
            self.tokens[secrets.token_urlsafe(16)] = None
        self.version = 0
        self.lock = threading.Lock()
        self.touched = time.monotonic()
        self._images: dict[int | None, tuple[int, bytes]] = {}
        self.session.advance()

    @property
    def over(self) -> bool:
        return self.session.to_move() == TERMINAL

    def seat_of(self, token: Any) -> int | None:
        if not isinstance(token, str) or token not in self.tokens:
            raise Refused("unknown seat token", status=403)
        self.touched = time.monotonic()
        return self.tokens[token]

    def view(self, token: Any) -> dict[str, Any]:
        """What the seat of ``token`` may see now."""
        with self.lock:
            seat = self.seat_of(token)
            session, game = self.session, self.session.game
            to_move = session.to_move()
            mine = seat is not None and to_move == seat
            view = {
                "game": game.spec.env_name,
                "players": game.num_players,
                "seats": session.seats,
                "seat": seat,
                "to_move": to_move if to_move >= 0 else None,
                "version": self.version,
                "board": game.render(session.state, viewer=seat),
                "log": [{"seat": event.seat, "text": event.what} for event in session.log(seat)],
                "actions": [
                    {"id": a, "name": session.action_name(a)} for a in session.legal_actions()
                ]
                if mine
                else [],
                "over": self.over,
                "steps": len(session.history),
            }
            if self.over:
                info = game.final_info(session.state)
                view["result"] = {"scores": info["scores"], "winners": info["winners"]}
            return view

    def image(self, token: Any) -> bytes:
        """The board as a PNG for the seat of ``token`` (drawn once per version and seat)."""
        with self.lock:
            seat = self.seat_of(token)
            cached = self._images.get(seat)
            if cached is None or cached[0] != self.version:
                picture = self.session.game.render_image(self.session.state, viewer=seat)
                cached = self._images[seat] = (self.version, png(picture))
            return cached[1]

    def act(self, token: Any, action: Any, version: Any) -> dict[str, Any]:
        """The seat's move, chosen on view ``version``; then the others play on."""
        with self.lock:
            seat = self.seat_of(token)
            if isinstance(version, bool) or version != self.version:
                raise Refused("the table has moved on since this view; reload it", status=409)
            if seat is None or self.session.to_move() != seat:
                raise Refused("it is not this seat's turn", status=409)
            if isinstance(action, bool) or not isinstance(action, int):
                raise Refused("an action is an integer id")
            if action not in self.session.legal_actions():
                raise Refused(f"action {action} is not legal here")
            self.session.act(action)
            self.session.advance()
            self.version += 1
        return self.view(token)


class Store:
    """The open tables and loaded replays, bounded."""

    def __init__(self, max_tables: int = MAX_TABLES, max_replays: int = MAX_REPLAYS) -> None:
        self.max_tables, self.max_replays = max_tables, max_replays
        self.tables: OrderedDict[str, Table] = OrderedDict()
        self.replays: OrderedDict[str, Replay] = OrderedDict()
        self.lock = threading.Lock()

    def new_table(self, request: Any) -> tuple[str, Table]:
        if not isinstance(request, dict):
            raise Refused("a new table is a JSON object: game, seats, seed, options")
        unknown = sorted(set(request) - {"game", "seats", "seed", "options"})
        if unknown:
            raise Refused(f"unknown field(s) {unknown}")
        try:
            name = find_game(str(request.get("game", "")))
        except ValueError as exc:
            raise Refused(str(exc)) from None
        seats = request.get("seats")
        if not isinstance(seats, list) or not 1 <= len(seats) <= MAX_PLAYERS_SEATS:
            raise Refused("seats is a list with one entry per player")
        seats = [check_seat_spec(s) for s in seats]
        spec = game_class(name).spec
        if not spec.min_players <= len(seats) <= spec.max_players:
            raise Refused(f"{name} takes {spec.min_players} to {spec.max_players} players")
        seed = request.get("seed")
        if seed is not None and (
            isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63
        ):
            raise Refused("the seed is a non-negative integer or null")
        options = request.get("options") or {}
        if not isinstance(options, dict):
            raise Refused("options is an object of the game's options")
        try:
            session = Session.new(name, len(seats), options, seats, seed)
        except (ValueError, TypeError, OSError) as exc:
            raise Refused(f"cannot set this table: {exc}") from None
        table = Table(session)
        with self.lock:
            self._make_room(self.tables, self.max_tables, lambda t: t.over, "tables")
            table_id = secrets.token_urlsafe(8)
            self.tables[table_id] = table
        return table_id, table

    def table(self, table_id: Any) -> Table:
        return self._find(self.tables, table_id, "no such table (it may have been closed)")

    def new_replay(self, text: str) -> tuple[str, Replay]:
        try:
            replay = load_replay(text)
        except ValueError as exc:
            raise Refused(str(exc)) from None
        with self.lock:
            self._make_room(self.replays, self.max_replays, lambda r: True, "replays")
            replay_id = secrets.token_urlsafe(8)
            self.replays[replay_id] = replay
        return replay_id, replay

    def replay(self, replay_id: Any) -> Replay:
        return self._find(self.replays, replay_id, "no such replay (it may have been dropped)")

    def _find(self, items: OrderedDict, key: Any, missing: str) -> Any:
        """The item under ``key``, now the most recently used."""
        with self.lock:
            item = items.get(key) if isinstance(key, str) else None
            if item is None:
                raise Refused(missing, status=404)
            items.move_to_end(key)
            return item

    @staticmethod
    def _make_room(items: OrderedDict, limit: int, closable, what: str) -> None:
        while len(items) >= limit:
            oldest = next((key for key, item in items.items() if closable(item)), None)
            if oldest is None:
                raise Refused(f"the server holds {limit} {what} in play; finish one", 503)
            del items[oldest]


def replay_frame(replay: Replay, k: Any) -> dict[str, Any]:
    """Position ``k`` of a replay (everything shown: a recorded game has no one to hide
    from) with the step that led to it."""
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= len(replay):
        raise Refused(f"a position from 0 to {len(replay)}")
    state = replay.position(k)
    return {
        "game": replay.game.spec.env_name,
        "players": replay.game.num_players,
        "seats": replay.seats,
        "k": k,
        "total": len(replay),
        "board": replay.game.render(state),
        "step": replay.describe(k) if k else "the start",
    }


def lobby() -> dict[str, Any]:
    """The games, their player counts and the seat kinds, for the lobby's form."""
    games = []
    for name in GAMES:
        spec = game_class(name).spec
        games.append(
            {
                "name": name,
                "min_players": spec.min_players,
                "max_players": spec.max_players,
                "default_players": spec.default_players,
                "options": [
                    {"name": option.name, "default": option.default, "doc": option.doc}
                    for option in spec.options
                ],
            }
        )
    return {"games": games, "seats": list(SEAT_KINDS), "human": HUMAN}
