"""The Starlette application: HTTP lobby API and the WebSocket game protocol.

See ``docs/server.md`` for the protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
from collections.abc import AsyncIterator, Callable
from typing import Any

from sqlalchemy.exc import SQLAlchemyError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..bots import available_bots, levels
from ..core.game import SpieltischError
from ..core.options import Option
from ..core.registry import client_module, game_names, get_spec
from ..i18n import N_, Translator, language_from_accept, translator
from .accounts import current_account
from .config import ServerConfig
from .guard import Guard, client_address
from .inputs import BadInput, parse_json, read_body
from .lobby import DATABASE_DOWN, Lobby, LobbyError
from .store import StorageError, TableRow
from .table import ENDED, Conn, TableRuntime, abandoned_note, err
from .texts import language, seat_names, server_tr
from .ws import Framing, handle

#: What the database or a cluster's Redis raise when they are away: a 503 or an
#: ``unavailable`` message, never a traceback to the client.
STORAGE_ERRORS: tuple[type[Exception], ...] = (SQLAlchemyError,)
try:
    from redis.exceptions import RedisError

    STORAGE_ERRORS += (RedisError,)
except ImportError:  # a single server without the cluster extra
    pass

#: The close code that tells a client to reconnect: its table moved to another node.
MOVED = 1012
#: Largest request body of the lobby API, in bytes.
MAX_BODY = 16_384

log = logging.getLogger("spieltisch.server")


#: The HTTP status of each refusal of the lobby (``LobbyError.code``); 400 otherwise.
HTTP_STATUS = {
    "private": 403, "no_table": 404, "broken": 409, "expired": 409, "not_over": 409,
    "seat_taken": 409, "table_full": 409, "too_large": 413, "too_many_joins": 429,
    "too_many_tables": 429, "unavailable": 503, "rated_needs_account": 403,
    "rated_seated": 409,
}


class ApiError(LobbyError):
    """An error of the HTTP routes themselves, with its status (``LobbyError`` codes get
    theirs from ``HTTP_STATUS``)."""

    def __init__(self, status: int, code: str, message: str,
                 extra: dict[str, Any] | None = None, **args: Any) -> None:
        super().__init__(code, message, extra, **args)
        self.status = status


def http_status(e: LobbyError) -> int:
    """The HTTP status that answers ``e``."""
    return e.status if isinstance(e, ApiError) else HTTP_STATUS.get(e.code, 400)


def _client(request: Request | WebSocket) -> str:
    return client_address(request.scope)


def request_language(request: Request | WebSocket) -> str:
    """``?lang=`` when given (unknown: English), else the ``Accept-Language`` header."""
    lang = request.query_params.get("lang")
    if lang is not None:
        return language(lang)
    return language_from_accept(request.headers.get("accept-language"))


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object; at most ``MAX_BODY`` bytes are ever read."""
    try:
        raw = await read_body(request, MAX_BODY)
    except BadInput as e:
        if e.code == "too_large":
            raise ApiError(413, "too_large", N_("The request body is over {n} bytes."),
                           n=MAX_BODY) from None
        raise ApiError(400, "malformed", N_("The body is not valid JSON.")) from None
    if not raw:
        return {}
    try:
        data = parse_json(raw)
    except BadInput:
        raise ApiError(400, "malformed", N_("The body is not valid JSON.")) from None
    if not isinstance(data, dict):
        raise ApiError(400, "malformed", N_("The body must be a JSON object."))
    return data


def _lobby(request: Request | WebSocket) -> Lobby:
    return request.app.state.lobby


async def _table(request: Request) -> TableRuntime:
    rt = await _lobby(request).fetch(request.path_params["code"])
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
                             for v, text in (option.value_labels or {}).items()},
            "seat": option.seat}


async def list_games(request: Request) -> Response:
    lang = request_language(request)
    out = []
    for name in game_names():
        spec = get_spec(name)
        tr = translator(lang, name, "core")
        out.append({
            "name": name, "title": _translated(tr, spec.title),
            "min_players": spec.min_players, "max_players": spec.max_players,
            "default_players": spec.default_players, "realtime": spec.realtime,
            "summary": _translated(tr, spec.summary),
            "options": [option_info(o, tr) for o in spec.options],
            "bots": levels.offered(lang, name),
            "bot_names": sorted(available_bots(spec.configure())),
            # the browser module in the game's package; none: the generic table draws it
            "client": f"/games/{name}/client.js" if client_module(name) else None,
        })
    return JSONResponse(out, headers={"vary": "accept-language"})


def stored_info(row: TableRow, lang: str) -> dict[str, Any]:
    """A finished or expired table from the store, as the lobby lists it: the players'
    names and the winner's (an expired table has no result and no winner)."""
    names = seat_names(row.seats, lang)
    winner = row.result.get("winner") if row.result else None
    return abandoned_note(row.status, lang) | {
        "code": row.code, "game": row.game, "players": row.players,
        "options": finite(row.options), "status": row.status, "result": row.result,
        "seats": [{"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name}
                  for s in row.seats],
        "names": names, "winner": names[winner] if isinstance(winner, int) else None,
        "practice": row.practice, "pace": row.pace, "rematch": row.rematch,
        "rematch_of": row.rematch_of, "rated": row.rated}


def finite(value: Any) -> Any:
    """``value`` with every NaN or infinite number as null: a row stored before options
    were checked for them must not make the lobby's JSON unwritable."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [finite(v) for v in value]
    return value


async def list_tables(request: Request) -> Response:
    lobby = _lobby(request)
    lang = request_language(request)
    live = [rt.public_info(lang) for rt in lobby.tables.values()]
    if lobby.cluster is not None:  # and the live tables of every other node
        live += await lobby.cluster.listing(lang)
    codes = {t["code"] for t in live}
    rows = await lobby.store.call(lobby.store.list_tables, ("over", "abandoned", "expired"),
                                200)
    ended = [stored_info(row, lang) for row in rows if row.code not in codes]
    return JSONResponse(live + ended, headers={"vary": "accept-language"})


async def create_table(request: Request) -> Response:
    body = await _body(request)
    rt = await _lobby(request).create(body, _client(request))
    return JSONResponse(rt.public_info(request_language(request)), status_code=201)


async def table_status(request: Request) -> Response:
    lobby = _lobby(request)
    code = request.path_params["code"].upper()
    if lobby.cluster is not None and code not in lobby.tables and len(code) <= 16:
        info = await lobby.cluster.info(code, request_language(request))
        if info is not None:  # live on another node
            return JSONResponse(info)
    return JSONResponse((await _table(request)).public_info(request_language(request)))


async def join_table(request: Request) -> Response:
    body = await _body(request)
    code, seat, token = await _lobby(request).join_code(
        request.path_params["code"], body, _client(request), await current_account(request))
    return JSONResponse({"code": code, "seat": seat, "token": token,
                         "ws": f"/ws/{code}"}, status_code=201)


async def replay(request: Request) -> Response:
    rt = await _table(request)
    if rt.status not in ENDED:
        raise ApiError(409, "not_over", N_("Replays are available when the game is over."))
    lobby = _lobby(request)
    # a long game's log is megabytes of JSON: encoded off the loop, once for requests
    # that come together
    body = await lobby.flights.run(("replay", rt.code),
                                   lambda: lobby.replay_call(encoded_replay, rt))
    return Response(body, media_type="application/json", headers={
        "content-disposition": f'attachment; filename="{rt.row.game}-{rt.code}.json"'})


def encoded_replay(rt: TableRuntime) -> bytes:
    """The replay file of ``rt`` as JSON (blocking: a replay thread runs it)."""
    return json.dumps(rt.replay(), ensure_ascii=False, allow_nan=False,
                      separators=(",", ":")).encode()


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


async def ws_endpoint(ws: WebSocket) -> None:
    """A client's WebSocket: framed here (``ws.Framing``), dispatched to its table here,
    or relayed to the node that owns the table (``cluster``)."""
    lobby = _lobby(ws)
    await ws.accept()
    code = ws.path_params["code"].upper()
    conn = Conn(ws.send, _client(ws))
    conn.hangup = lambda code, reason: ws.close(code=code, reason=reason)
    conn.lang = request_language(ws)
    tr = conn.tr
    cluster = lobby.cluster
    if cluster is not None and cluster.draining:  # this node is handing its tables over
        await ws.close(code=MOVED)
        return
    try:  # a finished game is rebuilt read-only, for a late reconnect
        where = await cluster.route(code) if cluster is not None and len(code) <= 16 \
            else None
        if isinstance(where, str):  # another node owns it
            await cluster.relay(ws, conn, code, where)  # type: ignore[union-attr]
            return
        rt = where or await lobby.fetch(code)
        if rt is not None and rt.code not in lobby.tables \
                and rt.status not in ("over", "abandoned", "expired"):
            rt = None  # never a second runtime of a live table
        problem = err("no_table", tr.format(N_("There is no table {table}."),
                                            table=ws.path_params["code"][:16]))
    except LobbyError as e:  # a broken table
        rt, problem = None, err(e.code, e.text(tr))
    except STORAGE_ERRORS:
        rt, problem = None, err("unavailable", tr.gettext(DATABASE_DOWN))
    if rt is None:
        conn.send(problem)
        await conn.flush()
        await ws.close(code=4404)
        return
    if cluster is not None:
        cluster.sockets[rt.code].add(ws)
    framing = Framing(conn, lobby.config)
    try:
        loop = asyncio.get_running_loop()
        while True:
            message = await ws.receive()
            arrival = loop.time()  # the server's clock stamps it; a client's is never read
            if message["type"] == "websocket.disconnect":
                break
            frame = framing.check(message, arrival)
            if frame is None:
                continue
            await handle(rt, conn, frame.msg, arrival)
    except (WebSocketDisconnect, RuntimeError):  # RuntimeError: closed by the cluster
        pass
    finally:
        if cluster is not None:
            cluster.sockets.get(rt.code, set()).discard(ws)
        await rt.detach(conn)
        await conn.flush()


async def api_error(request: Request, exc: Exception) -> Response:
    """A ``LobbyError`` (the lobby's refusals and the routes' own ``ApiError``) or a
    game's ``SpieltischError`` (a bad option, say) as JSON, with its HTTP status."""
    if isinstance(exc, LobbyError):
        tr = server_tr(request_language(request))
        return JSONResponse({"error": exc.code, "message": exc.text(tr), **exc.extra},
                            status_code=http_status(exc))
    return JSONResponse({"error": "bad_request", "message": finite_text(str(exc))},
                        status_code=400)


async def database_error(request: Request, exc: Exception) -> Response:
    """The database failed (down, full, locked): 503, and the reason in the log."""
    log.error("%s %s: the database failed: %s", request.method, request.url.path,
              str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__)
    tr = server_tr(request_language(request))
    return JSONResponse({"error": "unavailable", "message": tr.gettext(DATABASE_DOWN)},
                        status_code=503, headers={"retry-after": "5"})


def finite_text(text: str) -> str:
    """``text`` as UTF-8 can carry it (a lone surrogate of a client's input replaced)."""
    return text.encode("utf-8", "replace").decode("utf-8")


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

    # sign up, sign in (accounts.py); the CSRF check of signed-in requests
    from .account_routes import CsrfCheck, account_routes
    from .chat_routes import chat_routes  # reporting a chat message (chat.py)
    from .lab_pages import lab_routes  # the designer's lab reports (docs/lab.md)
    from .meeting import meeting_routes  # open tables, quick-join, waiting lists
    from .my_games import my_games_routes  # a person's games (history.js)
    from .passkey_routes import passkey_routes  # passkeys (WebAuthn) of accounts
    from .rating_routes import rating_routes  # profiles and leaderboards (ratings.py)
    from .web import web_routes  # the browser client (static/, docs/client.md)

    routes = [
        *web_routes(),  # serves "/" before the placeholder below
        *lab_routes(),  # the lab's reports made on this machine, at /lab
        *account_routes(),
        *passkey_routes(),
        *chat_routes(),
        *rating_routes(),
        *meeting_routes(),
        *my_games_routes(),
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
                     middleware=[Middleware(Guard, config=cfg), Middleware(CsrfCheck)],
                     exception_handlers={LobbyError: api_error, SpieltischError: api_error,
                                         StorageError: database_error,
                                         **{e: database_error for e in STORAGE_ERRORS}})


__all__ = ["HTTP_STATUS", "ApiError", "Lobby", "LobbyError", "create_app", "http_status"]
