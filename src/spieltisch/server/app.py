"""The Starlette application: HTTP lobby API and the WebSocket game protocol.

See ``docs/server.md`` for the protocol.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..bots import available_bots, make_bot
from ..core.game import SpieltischError
from ..core.registry import game_names, get_spec
from .config import ServerConfig
from .store import SeatRow, Store, TableRow
from .table import Conn, TableRuntime, err, hash_token

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
MAX_BODY = 16_384


#: Finished tables kept rebuilt (read-only) for status, replay and late connections.
FINISHED_CACHE = 32


class Lobby:
    """All live tables of one server, backed by a ``Store``.

    ``tables`` holds the waiting and playing tables only: a table leaves it when its
    game ends (after the final messages are queued), so a long-running server does not
    accumulate finished games. Those are rebuilt from the log on demand (``get``).
    """

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.store = Store(config.resolved_db_url(), config.table_prefix)
        self.tables: dict[str, TableRuntime] = {}
        self._finished: OrderedDict[str, TableRuntime] = OrderedDict()

    def _runtime(self, row: TableRow) -> TableRuntime:
        return TableRuntime(row, self.store, self.config, on_over=self._evict)

    def _evict(self, rt: TableRuntime) -> None:
        if self.tables.get(rt.code) is rt:
            del self.tables[rt.code]

    async def recover(self) -> int:
        """Rebuild every unfinished table from its log."""
        n = 0
        for row in self.store.list_tables(("waiting", "playing"), limit=1_000_000):
            try:
                rt = self._runtime(row)
                rt.rebuild()
            except Exception:  # one table whose log no longer replays must not stop the rest
                logging.getLogger("spieltisch.server").exception(
                    "table %s (%s) cannot be rebuilt from its log; left out", row.code, row.game)
                continue
            if rt.status == "over":  # stopped between its last action and marking the end
                continue
            self.tables[row.code] = rt
            rt.activate()
            n += 1
        return n

    async def close(self) -> None:
        for rt in list(self.tables.values()):
            await rt.close()
        self.store.close()

    def get(self, code: str) -> TableRuntime | None:
        code = code.upper()
        rt = self.tables.get(code) or self._finished.get(code)
        if rt is not None:
            if code in self._finished:
                self._finished.move_to_end(code)
            return rt
        row = self.store.load_table(code)
        if row is None:
            return None
        # a finished table (not kept live): rebuild it read-only for status and replay
        rt = TableRuntime(row, self.store, self.config)
        rt.rebuild()
        if rt.status == "over":
            self._finished[code] = rt
            while len(self._finished) > FINISHED_CACHE:
                self._finished.popitem(last=False)
        return rt

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
            if code not in self.tables and self.store.load_table(code) is None:
                return code

    async def create(self, body: dict[str, Any], owner: str) -> TableRuntime:
        game_name = body.get("game")
        if not isinstance(game_name, str):
            raise ApiError(400, "bad_request", "'game' must be a game name")
        spec = get_spec(game_name)
        players = body.get("players", spec.default_players)
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise ApiError(400, "bad_request", "'options' must be an object")
        game = spec.configure(players, options)
        seats_spec = body.get("seats")
        if seats_spec is None:
            seats_spec = ["human"] * game.num_players
        if not isinstance(seats_spec, list) or len(seats_spec) != game.num_players:
            raise ApiError(400, "bad_request",
                           f"'seats' must list {game.num_players} entries: 'human' or 'bot:NAME'")
        seats: list[SeatRow] = []
        for i, s in enumerate(seats_spec):
            if s == "human":
                seats.append(SeatRow(i, "human"))
            elif isinstance(s, str) and s.startswith("bot:"):
                make_bot(game, s[4:], i, 0)  # validates the name
                seats.append(SeatRow(i, "bot", s[4:], s[4:]))
            else:
                raise ApiError(400, "bad_request", f"seat {i}: {s!r} is not 'human' or 'bot:NAME'")
        live = sum(1 for t in self.tables.values()
                   if t.row.owner == owner and t.row.status != "over")
        if live >= self.config.max_tables_per_client:
            raise ApiError(429, "too_many_tables",
                           f"at most {self.config.max_tables_per_client} unfinished tables "
                           "per client")
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbits(62)
        elif not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**62:
            raise ApiError(400, "bad_request", "'seed' must be an integer in 0..2^62")
        code = self._new_code()
        table_id = self.store.create_table(code, spec.name, game.num_players, game.options,
                                           seed, seats, owner)
        row = self.store.load_table(code)
        assert row is not None and row.id == table_id
        rt = self._runtime(row)
        self.tables[code] = rt
        rt.activate()
        await rt.start_if_full()
        return rt

    async def join(self, rt: TableRuntime, body: dict[str, Any]) -> tuple[int, str]:
        name = body.get("name", "")
        if not isinstance(name, str) or len(name) > 64:
            raise ApiError(400, "bad_request", "'name' must be a string of at most 64 characters")
        wanted = body.get("seat")
        async with rt.lock:
            free = rt.free_seats()
            if not free or rt.status != "waiting":
                raise ApiError(409, "table_full", "no free seat at this table")
            if wanted is None:
                seat = free[0]
            elif wanted in free and isinstance(wanted, int):
                seat = wanted
            else:
                raise ApiError(409, "seat_taken", f"seat {wanted!r} is not free")
            token = secrets.token_urlsafe(32)
            th = hash_token(token)
            if not self.store.claim_seat(rt.row.id, seat, name, th):
                raise ApiError(409, "seat_taken", f"seat {seat} is not free")
            for s in rt.row.seats:
                if s.seat == seat:
                    s.token_hash = th
                    s.name = name
        await rt.start_if_full()
        return seat, token


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def _client(request: Request | WebSocket) -> str:
    return request.client.host if request.client else ""


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise ApiError(413, "too_large", f"request body over {MAX_BODY} bytes")
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ApiError(400, "malformed", "the body is not valid JSON") from None
    if not isinstance(data, dict):
        raise ApiError(400, "malformed", "the body must be a JSON object")
    return data


def _lobby(request: Request | WebSocket) -> Lobby:
    return request.app.state.lobby  # type: ignore[no-any-return]


def _table(request: Request) -> TableRuntime:
    rt = _lobby(request).get(request.path_params["code"])
    if rt is None:
        raise ApiError(404, "no_table", f"no table {request.path_params['code']!r}")
    return rt


async def list_games(request: Request) -> Response:
    out = []
    for name in game_names():
        spec = get_spec(name)
        out.append({
            "name": name, "title": spec.title, "min_players": spec.min_players,
            "max_players": spec.max_players, "default_players": spec.default_players,
            "summary": spec.summary,
            "options": [{"name": o.name, "kind": o.kind.__name__, "default": o.default,
                         "help": o.help, "choices": list(o.choices) if o.choices else None,
                         "minimum": o.minimum, "maximum": o.maximum} for o in spec.options],
            "bots": sorted(available_bots(spec.configure())),
        })
    return JSONResponse(out)


async def list_tables(request: Request) -> Response:
    lobby = _lobby(request)
    live = [rt.public_info() for rt in lobby.tables.values()]
    codes = {t["code"] for t in live}
    finished = []
    for row in lobby.store.list_tables(("over",), limit=200):
        if row.code not in codes:
            finished.append({"code": row.code, "game": row.game, "players": row.players,
                             "options": row.options, "status": row.status,
                             "result": row.result,
                             "seats": [{"seat": s.seat, "kind": s.kind, "bot": s.bot,
                                        "name": s.name} for s in row.seats]})
    return JSONResponse(live + finished)


async def create_table(request: Request) -> Response:
    body = await _body(request)
    rt = await _lobby(request).create(body, _client(request))
    return JSONResponse(rt.public_info(), status_code=201)


async def table_status(request: Request) -> Response:
    return JSONResponse(_table(request).public_info())


async def join_table(request: Request) -> Response:
    body = await _body(request)
    rt = _table(request)
    seat, token = await _lobby(request).join(rt, body)
    return JSONResponse({"code": rt.code, "seat": seat, "token": token,
                         "ws": f"/ws/{rt.code}"}, status_code=201)


async def replay(request: Request) -> Response:
    rt = _table(request)
    if rt.status != "over":
        raise ApiError(409, "not_over", "replays are available when the game is over")
    return JSONResponse(rt.replay(), headers={
        "content-disposition": f'attachment; filename="{rt.row.game}-{rt.code}.json"'})


async def index(request: Request) -> Response:
    """A placeholder page until the browser client lands: what runs and where."""
    games = ", ".join(game_names())
    return HTMLResponse(
        "<!doctype html><title>spieltisch</title><h1>spieltisch server</h1>"
        f"<p>Games: {games}.</p><p>Lobby API: <a href='/api/tables'>/api/tables</a>, "
        "<a href='/api/games'>/api/games</a>, schema <a href='/api/openapi.json'>"
        "/api/openapi.json</a>; play over the WebSocket <code>/ws/CODE</code> "
        "(see docs/server.md).</p>")


async def openapi(request: Request) -> Response:
    from .openapi import SCHEMA

    return JSONResponse(SCHEMA)


class RateLimit:
    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.last = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


async def ws_endpoint(ws: WebSocket) -> None:
    lobby = _lobby(ws)
    cfg = lobby.config
    await ws.accept()
    code = ws.path_params["code"].upper()
    rt = lobby.tables.get(code)
    if rt is None and len(code) <= 16:  # a finished game: read-only, for a late reconnect
        rt = lobby.get(code)
        if rt is not None and rt.status != "over":  # never a second runtime of a live table
            rt = None
    conn = Conn(ws.send, _client(ws))
    if rt is None:
        conn.send(err("no_table", f"no table {ws.path_params['code']!r}"))
        await conn.flush()
        await ws.close(code=4404)
        return
    limit = RateLimit(cfg.messages_per_second, cfg.message_burst)
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None and message.get("bytes") is not None:
                raw = message["bytes"]
                if len(raw) > cfg.max_message_bytes:
                    conn.send(err("too_large", f"messages are limited to "
                                  f"{cfg.max_message_bytes} bytes"))
                    continue
                try:
                    text = raw.decode()
                except UnicodeDecodeError:
                    conn.send(err("malformed", "binary messages must be UTF-8 JSON"))
                    continue
            if text is None:
                continue
            if len(text) > cfg.max_message_bytes:
                conn.send(err("too_large", f"messages are limited to "
                              f"{cfg.max_message_bytes} bytes"))
                continue
            if not limit.allow():
                conn.send(err("rate_limited", f"more than {cfg.messages_per_second:g} "
                              "messages per second; message dropped"))
                continue
            try:
                msg = json.loads(text)
            except (json.JSONDecodeError, RecursionError):
                conn.send(err("malformed", "the message is not valid JSON"))
                continue
            if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
                conn.send(err("malformed", "a message is a JSON object with a string 'type'"))
                continue
            await handle(rt, conn, msg)
    except WebSocketDisconnect:
        pass
    finally:
        await rt.detach(conn)
        await conn.flush()


async def handle(rt: TableRuntime, conn: Conn, msg: dict[str, Any]) -> None:
    kind = msg["type"]
    if kind == "ping":
        conn.send({"type": "pong", "id": msg.get("id")})
    elif kind == "hello":
        if conn.bound:
            conn.send(err("already_joined", "this connection already said hello"))
            return
        token = msg.get("token")
        if token is None:
            await rt.attach(conn, None)
            return
        seat = rt.seat_of_token(token)
        if seat is None:
            conn.send(err("bad_token", "this token holds no seat at this table"))
            return
        await rt.attach(conn, seat)
    elif kind == "action":
        if not conn.bound:
            conn.send(err("not_joined", "send 'hello' with your seat token first",
                          msg.get("id") if isinstance(msg.get("id"), (str, int)) else None))
            return
        reply = await rt.player_action(conn, msg)
        if reply is not None:
            conn.send(reply)
    elif kind == "state":
        if not conn.bound:
            conn.send(err("not_joined", "send 'hello' first"))
            return
        async with rt.lock:
            conn.send(rt.snapshot(conn.seat))
    else:
        conn.send(err("unknown_type", f"unknown message type {kind[:40]!r}"))


async def api_error(request: Request, exc: Exception) -> Response:
    if isinstance(exc, ApiError):
        return JSONResponse({"error": exc.code, "message": exc.message},
                            status_code=exc.status)
    return JSONResponse({"error": "bad_request", "message": str(exc)}, status_code=400)


def create_app(config: ServerConfig | None = None,
               on_start: Callable[[], None] | None = None) -> Starlette:
    """The application; ``on_start`` runs in the server's event loop once the tables of
    the store are recovered (``spieltisch serve`` reports the loop it runs on)."""
    cfg = config or ServerConfig()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        lobby = Lobby(cfg)
        app.state.lobby = lobby
        await lobby.recover()
        if on_start is not None:
            on_start()
        try:
            yield
        finally:
            await lobby.close()

    from .web import web_routes  # the browser client (static/, docs/client.md)

    routes = [
        *web_routes(),  # serves "/" before the placeholder below
        Route("/", index),
        Route("/api/games", list_games),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{code}", table_status),
        Route("/api/tables/{code}/join", join_table, methods=["POST"]),
        Route("/api/tables/{code}/replay", replay),
        Route("/api/openapi.json", openapi),
        WebSocketRoute("/ws/{code}", ws_endpoint),
    ]
    return Starlette(routes=routes, lifespan=lifespan,
                     exception_handlers={ApiError: api_error, SpieltischError: api_error})


__all__ = ["ApiError", "Lobby", "create_app"]
