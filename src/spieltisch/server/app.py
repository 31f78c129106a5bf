"""The Starlette application: HTTP lobby API and the WebSocket game protocol.

See ``docs/server.md`` for the protocol.
"""

from __future__ import annotations

import asyncio
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

from ..bots import available_bots, levels
from ..core.game import SpieltischError
from ..core.options import Option
from ..core.registry import game_names, get_spec
from ..i18n import N_, Translator, language_from_accept, translator
from .config import ServerConfig
from .store import SeatRow, Store, TableRow
from .table import Conn, TableRuntime, err, hash_token
from .texts import language, seat_names, server_tr

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

    def __init__(self, config: ServerConfig, clock: Callable[[], float] = time.time) -> None:
        self.config = config
        #: Wall-clock seconds for waiting tables' expiry (tests pass their own clock).
        self.clock = clock
        self.store = Store(config.resolved_db_url(), config.table_prefix)
        self.tables: dict[str, TableRuntime] = {}
        self._finished: OrderedDict[str, TableRuntime] = OrderedDict()
        self._sweeper: asyncio.Task[None] | None = None

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
            rt.waiting_since = self.clock()  # a restart gives waiting tables a fresh period
            self.tables[row.code] = rt
            rt.activate()
            n += 1
        return n

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for rt in list(self.tables.values()):
            await rt.close()
        self.store.close()

    def start_sweeper(self) -> None:
        """Look for expired waiting tables every so often (a tenth of the expiry, at most
        once a minute); nothing to do when ``waiting_expiry`` is 0."""
        limit = self.config.waiting_expiry * 60
        if limit > 0 and self._sweeper is None:
            every = min(60.0, max(0.05, limit / 10))
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep(every))

    async def _sweep(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.expire_waiting()
            except Exception:  # one failing sweep (a database hiccup) must not end them
                logging.getLogger("spieltisch.server").exception("expiring tables failed")

    async def expire_waiting(self) -> list[str]:
        """Expire every waiting table nobody joined for ``waiting_expiry`` minutes (since
        its creation or its latest join); the codes expired."""
        limit = self.config.waiting_expiry * 60
        if limit <= 0:
            return []
        now = self.clock()
        gone = []
        for rt in list(self.tables.values()):
            if rt.status == "waiting" and now - rt.waiting_since >= limit \
                    and await rt.expire_waiting():
                self._evict(rt)
                gone.append(rt.code)
        return gone

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
        # a finished or expired table (not kept live): rebuilt read-only for status and
        # replay
        rt = TableRuntime(row, self.store, self.config)
        rt.rebuild()
        if rt.status in ("over", "expired"):
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
            raise ApiError(400, "bad_request", N_("'game' must be a game name."))
        spec = get_spec(game_name)
        players = body.get("players", spec.default_players)
        if not isinstance(players, int) or isinstance(players, bool) \
                or not spec.min_players <= players <= spec.max_players:
            allowed = {"min": spec.min_players, "max": spec.max_players}
            if spec.min_players == spec.max_players:
                raise ApiError(400, "bad_players", N_("{game} is for {n} players."), allowed,
                               game=spec.title, n=spec.min_players)
            raise ApiError(400, "bad_players", N_("{game} is for {min} to {max} players."),
                           allowed, game=spec.title, **allowed)
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise ApiError(400, "bad_request", N_("'options' must be an object."))
        game = spec.configure(players, options)
        seats_spec = body.get("seats")
        if seats_spec is None:  # the creator plays seat 0, medium bots the others
            seats_spec = ["human"] + [f"bot:{levels.Level.MEDIUM.value}"] * (players - 1)
        if not isinstance(seats_spec, list) or len(seats_spec) != players:
            raise ApiError(400, "bad_request", N_("'seats' must list {n} entries: 'human' or "
                                                  "'bot:LEVEL' (easy, medium, hard)."),
                           n=players)
        seats: list[SeatRow] = []
        for i, s in enumerate(seats_spec):
            if s == "human":
                seats.append(SeatRow(i, "human"))
            elif isinstance(s, str) and s.startswith("bot:"):
                levels.make_seat_bot(game, s[4:], i, 0)  # validates the level or bot spec
                seats.append(SeatRow(i, "bot", s[4:]))
            else:
                raise ApiError(400, "bad_request", N_("Seat {seat}: {spec} is not 'human' or "
                                                      "'bot:LEVEL'."), seat=i + 1, spec=repr(s))
        live = sum(1 for t in self.tables.values()
                   if t.row.owner == owner and t.row.status != "over")
        if live >= self.config.max_tables_per_client:
            raise ApiError(429, "too_many_tables",
                           N_("At most {n} unfinished tables per player."),
                           n=self.config.max_tables_per_client)
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbits(62)
        elif not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**62:
            raise ApiError(400, "bad_request", N_("'seed' must be an integer in 0..2^62."))
        code = self._new_code()
        table_id = self.store.create_table(code, spec.name, game.num_players, game.options,
                                           seed, seats, owner)
        row = self.store.load_table(code)
        assert row is not None and row.id == table_id
        rt = self._runtime(row)
        rt.waiting_since = self.clock()
        self.tables[code] = rt
        rt.activate()
        await rt.start_if_full()
        return rt

    async def join(self, rt: TableRuntime, body: dict[str, Any]) -> tuple[int, str]:
        name = body.get("name", "")
        if not isinstance(name, str) or len(name) > 64:
            raise ApiError(400, "bad_request",
                           N_("'name' must be a string of at most 64 characters."))
        wanted = body.get("seat")
        async with rt.lock:
            free = rt.free_seats()
            if rt.status == "expired":
                raise ApiError(409, "expired", N_("This table expired: nobody joined in time."))
            if not free or rt.status != "waiting":
                raise ApiError(409, "table_full", N_("There is no free seat at this table."))
            if wanted is None:
                seat = free[0]
            elif wanted in free and isinstance(wanted, int):
                seat = wanted
            else:
                raise ApiError(409, "seat_taken", N_("Seat {seat} is not free."),
                               seat=wanted + 1 if isinstance(wanted, int) else repr(wanted))
            token = secrets.token_urlsafe(32)
            th = hash_token(token)
            if not self.store.claim_seat(rt.row.id, seat, name, th):
                raise ApiError(409, "seat_taken", N_("Seat {seat} is not free."), seat=seat + 1)
            for s in rt.row.seats:
                if s.seat == seat:
                    s.token_hash = th
                    s.name = name
            rt.waiting_since = self.clock()
        await rt.start_if_full()
        return seat, token


class ApiError(Exception):
    """An HTTP error: ``message`` is an English template (marked ``N_``) filled with
    ``args`` after translation into the request's language."""

    def __init__(self, status: int, code: str, message: str,
                 extra: dict[str, Any] | None = None, **args: Any) -> None:
        super().__init__(message.format(**args))
        self.status = status
        self.code = code
        self.message = message
        self.args_ = args
        #: More fields of the error's JSON body (``bad_players``: ``min``, ``max``).
        self.extra = extra or {}

    def text(self, tr: Translator) -> str:
        return tr.format(self.message, **self.args_)


def _client(request: Request | WebSocket) -> str:
    return request.client.host if request.client else ""


def request_language(request: Request | WebSocket) -> str:
    """``?lang=`` when given (unknown: English), else the ``Accept-Language`` header."""
    lang = request.query_params.get("lang")
    if lang is not None:
        return language(lang)
    return language_from_accept(request.headers.get("accept-language"))


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise ApiError(413, "too_large", N_("The request body is over {n} bytes."), n=MAX_BODY)
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ApiError(400, "malformed", N_("The body is not valid JSON.")) from None
    if not isinstance(data, dict):
        raise ApiError(400, "malformed", N_("The body must be a JSON object."))
    return data


def _lobby(request: Request | WebSocket) -> Lobby:
    return request.app.state.lobby  # type: ignore[no-any-return]


def _table(request: Request) -> TableRuntime:
    rt = _lobby(request).get(request.path_params["code"])
    if rt is None:
        raise ApiError(404, "no_table", N_("There is no table {table}."),
                       table=request.path_params["code"][:16])
    return rt


def _translated(tr: Translator, text: str) -> str:
    """``text`` in ``tr``'s language; an empty text stays empty (gettext("") is the
    catalog's header)."""
    return tr.gettext(text) if text else ""


def _value_key(value: Any) -> str:
    """An option value as a JSON object key: as JavaScript's ``String(value)`` writes it."""
    return value if isinstance(value, str) else json.dumps(value)


def option_info(option: Option, tr: Translator) -> dict[str, Any]:
    """One option for the lobby form; ``label``, ``help`` and ``value_labels`` in the
    language of ``tr`` (a label-less option shows its name in words)."""
    return {"name": option.name, "kind": option.kind.__name__, "default": option.default,
            "choices": list(option.choices) if option.choices else None,
            "minimum": option.minimum, "maximum": option.maximum,
            "label": _translated(tr, option.label) or option.name.replace("_", " ").capitalize(),
            "help": _translated(tr, option.help),
            "value_labels": {_value_key(v): _translated(tr, text)
                             for v, text in (option.value_labels or {}).items()}}


async def list_games(request: Request) -> Response:
    lang = request_language(request)
    out = []
    for name in game_names():
        spec = get_spec(name)
        tr = translator(lang, name, "core")
        out.append({
            "name": name, "title": _translated(tr, spec.title),
            "min_players": spec.min_players, "max_players": spec.max_players,
            "default_players": spec.default_players,
            "summary": _translated(tr, spec.summary),
            "options": [option_info(o, tr) for o in spec.options],
            "bots": levels.offered(lang),
            "bot_names": sorted(available_bots(spec.configure())),
        })
    return JSONResponse(out, headers={"vary": "accept-language"})


def stored_info(row: TableRow, lang: str) -> dict[str, Any]:
    """A finished or expired table from the store, as the lobby lists it: the players'
    names and the winner's (an expired table has no result and no winner)."""
    names = seat_names(row.seats, lang)
    winner = row.result.get("winner") if row.result else None
    return {"code": row.code, "game": row.game, "players": row.players,
            "options": row.options, "status": row.status, "result": row.result,
            "seats": [{"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name}
                      for s in row.seats],
            "names": names, "winner": names[winner] if isinstance(winner, int) else None}


async def list_tables(request: Request) -> Response:
    lobby = _lobby(request)
    lang = request_language(request)
    live = [rt.public_info(lang) for rt in lobby.tables.values()]
    codes = {t["code"] for t in live}
    ended = [stored_info(row, lang)
             for row in lobby.store.list_tables(("over", "expired"), limit=200)
             if row.code not in codes]
    return JSONResponse(live + ended, headers={"vary": "accept-language"})


async def create_table(request: Request) -> Response:
    body = await _body(request)
    rt = await _lobby(request).create(body, _client(request))
    return JSONResponse(rt.public_info(request_language(request)), status_code=201)


async def table_status(request: Request) -> Response:
    return JSONResponse(_table(request).public_info(request_language(request)))


async def join_table(request: Request) -> Response:
    body = await _body(request)
    rt = _table(request)
    seat, token = await _lobby(request).join(rt, body)
    return JSONResponse({"code": rt.code, "seat": seat, "token": token,
                         "ws": f"/ws/{rt.code}"}, status_code=201)


async def replay(request: Request) -> Response:
    rt = _table(request)
    if rt.status != "over":
        raise ApiError(409, "not_over", N_("Replays are available when the game is over."))
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
        if rt is not None and rt.status not in ("over", "expired"):
            rt = None  # never a second runtime of a live table
    conn = Conn(ws.send, _client(ws))
    conn.lang = request_language(ws)
    tr = conn.tr
    if rt is None:
        conn.send(err("no_table", tr.format(N_("There is no table {table}."),
                                            table=ws.path_params["code"][:16])))
        await conn.flush()
        await ws.close(code=4404)
        return
    limit = RateLimit(cfg.messages_per_second, cfg.message_burst)
    too_large = N_("Messages are limited to {n} bytes.")
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            tr = conn.tr  # the language may have changed
            text = message.get("text")
            if text is None and message.get("bytes") is not None:
                raw = message["bytes"]
                if len(raw) > cfg.max_message_bytes:
                    conn.send(err("too_large", tr.format(too_large, n=cfg.max_message_bytes)))
                    continue
                try:
                    text = raw.decode()
                except UnicodeDecodeError:
                    conn.send(err("malformed",
                                  tr.gettext(N_("Binary messages must be UTF-8 JSON."))))
                    continue
            if text is None:
                continue
            if len(text) > cfg.max_message_bytes:
                conn.send(err("too_large", tr.format(too_large, n=cfg.max_message_bytes)))
                continue
            if not limit.allow():
                conn.send(err("rate_limited", tr.format(
                    N_("More than {n} messages per second: this one was dropped."),
                    n=f"{cfg.messages_per_second:g}")))
                continue
            try:
                msg = json.loads(text)
            except (json.JSONDecodeError, RecursionError):
                conn.send(err("malformed", tr.gettext(N_("The message is not valid JSON."))))
                continue
            if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
                conn.send(err("malformed", tr.gettext(
                    N_("A message is a JSON object with a string 'type'."))))
                continue
            await handle(rt, conn, msg)
    except WebSocketDisconnect:
        pass
    finally:
        await rt.detach(conn)
        await conn.flush()


async def handle(rt: TableRuntime, conn: Conn, msg: dict[str, Any]) -> None:
    kind = msg["type"]
    tr = conn.tr
    if kind == "ping":
        conn.send({"type": "pong", "id": msg.get("id")})
    elif kind == "hello":
        if conn.bound:
            conn.send(err("already_joined",
                          tr.gettext(N_("This connection has already said hello."))))
            return
        token = msg.get("token")
        if token is None:
            await rt.attach(conn, None)
            return
        seat = rt.seat_of_token(token)
        if seat is None:
            conn.send(err("bad_token",
                          tr.gettext(N_("This token holds no seat at this table."))))
            return
        await rt.attach(conn, seat)
    elif kind == "action":
        if not conn.bound:
            conn.send(err("not_joined", tr.gettext(N_("Send 'hello' with your seat token "
                                                      "first.")),
                          msg.get("id") if isinstance(msg.get("id"), (str, int)) else None))
            return
        reply = await rt.player_action(conn, msg)
        if reply is not None:
            conn.send(reply)
    elif kind == "state":
        if not conn.bound:
            conn.send(err("not_joined", tr.gettext(N_("Send 'hello' first."))))
            return
        async with rt.lock:
            conn.send(rt.snapshot(conn.seat, "state", conn.lang))
    elif kind == "lang":
        if not isinstance(msg.get("lang"), str):
            conn.send(err("malformed", tr.gettext(
                N_("A 'lang' message names a language: en, de or nl."))))
            return
        await rt.set_language(conn, language(msg["lang"]))
    else:
        conn.send(err("unknown_type", tr.format(N_("Unknown message type {type}."),
                                                type=repr(kind[:40]))))


async def api_error(request: Request, exc: Exception) -> Response:
    if isinstance(exc, ApiError):
        tr = server_tr(request_language(request))
        return JSONResponse({"error": exc.code, "message": exc.text(tr), **exc.extra},
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
        lobby.start_sweeper()
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
