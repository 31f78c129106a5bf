"""The Starlette application: HTTP lobby API and the WebSocket game protocol.

See ``docs/server.md`` for the protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import secrets
import time
from collections import OrderedDict, defaultdict
from collections.abc import AsyncIterator, Callable
from typing import Any

from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..bots import available_bots, levels
from ..core.game import Game, SpieltischError
from ..core.options import Option
from ..core.position import header as position_header
from ..core.registry import game_names, get_spec
from ..i18n import N_, Translator, language_from_accept, translator
from .config import ServerConfig
from .guard import Buckets, Guard, RateLimit, client_address
from .inputs import BadInput, over_limit, parse_json, read_body
from .store import SeatRow, StorageError, Store, TableRow
from .table import Conn, TableRuntime, err, hash_token
from .texts import language, seat_names, server_tr
from .timing import Pace

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
#: Largest request body of the lobby API, in bytes.
MAX_BODY = 16_384

log = logging.getLogger("spieltisch.server")


#: Finished tables kept rebuilt (read-only) for status, replay and late connections.
FINISHED_CACHE = 32


class Lobby:
    """All live tables of one server, backed by a ``Store``.

    ``tables`` holds the waiting and playing tables only: a table leaves it when its
    game ends (after the final messages are queued), so a long-running server does not
    accumulate finished games. Those are rebuilt from the log on demand (``fetch``).
    Every database call of the lobby runs in the store's threads (``Store.call``), so a
    slow database never stops the event loop, and every table on it.
    """

    def __init__(self, config: ServerConfig, clock: Callable[[], float] = time.time) -> None:
        self.config = config
        #: Wall-clock seconds for waiting tables' expiry (tests pass their own clock).
        self.clock = clock
        self.store = Store(config.resolved_db_url(), config.table_prefix, config.store_threads)
        self.tables: dict[str, TableRuntime] = {}
        self._finished: OrderedDict[str, TableRuntime] = OrderedDict()
        self._sweeper: asyncio.Task[None] | None = None
        #: Tables each client address is creating right now (counted against its limit).
        self._creating: defaultdict[str, int] = defaultdict(int)
        #: Joins per client address (``joins_per_minute``).
        self.joins = Buckets(config.joins_per_minute / 60, config.joins_per_minute)
        #: Encoded ``replay/steps`` answers of finished tables, by (code, viewer).
        self.steps = StepsCache()

    def _runtime(self, row: TableRow) -> TableRuntime:
        return TableRuntime(row, self.store, self.config, on_over=self._evict)

    def _evict(self, rt: TableRuntime) -> None:
        if self.tables.get(rt.code) is rt:
            del self.tables[rt.code]

    def _rebuilt(self, row: TableRow) -> TableRuntime:
        """A runtime of ``row`` replayed from its log (blocking: runs in a store thread)."""
        rt = self._runtime(row)
        rt.rebuild()
        return rt

    async def recover(self) -> int:
        """Rebuild every unfinished table from its log. A table that cannot be rebuilt
        (its options or its log no longer hold) is logged, stored as ``broken`` and left
        out: the server serves the rest."""
        n = 0
        rows = await self.store.call(self.store.list_tables, ("waiting", "playing"), 1_000_000)
        for row in reversed(rows):  # oldest first
            try:
                rt = await self.store.call(self._rebuilt, row)
                if rt.status == "over":  # stopped between its last action and marking the end
                    continue
                rt.waiting_since = self.clock()  # a restart gives waiting tables a fresh period
                rt.activate()
            except Exception:
                log.exception("table %s (%s) cannot be rebuilt from its log; stored as broken",
                              row.code, row.game)
                with contextlib.suppress(Exception):
                    await self.store.call(self.store.set_status, row.id, "broken")
                continue
            self.tables[row.code] = rt
            n += 1
            if rt.status == "waiting" and not rt.free_seats():
                await self._start(rt)  # every seat was taken when the server stopped
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
                log.exception("expiring tables failed")

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

    def _known(self, code: str) -> TableRuntime | None:
        """A live table, or a finished one rebuilt lately."""
        rt = self.tables.get(code) or self._finished.get(code)
        if rt is not None and code in self._finished:
            self._finished.move_to_end(code)
        return rt

    def _load(self, code: str) -> TableRuntime | None:
        """A table that is not live, rebuilt read-only from the store (blocking). One that
        cannot be rebuilt is stored as ``broken``: ``ApiError`` 409 ``broken``."""
        row = self.store.load_table(code)
        if row is None:
            return None
        if row.status != "broken":
            try:
                return self._rebuilt(row)
            except SQLAlchemyError:
                raise
            except Exception:
                log.exception("table %s (%s) cannot be rebuilt from its log; stored as broken",
                              row.code, row.game)
                self.store.set_status(row.id, "broken")
        raise ApiError(409, "broken", N_("Table {table} is out of order: its stored game "
                                         "cannot be replayed."), table=code)

    def _keep(self, rt: TableRuntime) -> TableRuntime:
        if rt.status in ("over", "expired"):
            self._finished[rt.code] = rt
            while len(self._finished) > FINISHED_CACHE:
                self._finished.popitem(last=False)
        return rt

    def get(self, code: str) -> TableRuntime | None:
        """The table ``code`` (``fetch`` without leaving the calling thread: it reads the
        database in it; for tests and scripts, not for the event loop)."""
        code = code.upper()
        rt = self._known(code) or self._load(code)
        return None if rt is None else self._keep(rt)

    async def fetch(self, code: str) -> TableRuntime | None:
        """The table ``code``: live, or finished or expired and rebuilt read-only from the
        log for status and replay (in a store thread); None if there is none."""
        code = code.upper()
        rt = self._known(code)
        if rt is None and len(code) <= 16:
            rt = await self.store.call(self._load, code)
            if rt is not None:
                # it may have gone live meanwhile (created, recovered): never two runtimes
                rt = self.tables.get(code) or rt
        return None if rt is None else self._keep(rt)

    def _insert(self, spec_name: str, game: Game, seed: int, seats: list[SeatRow],
                owner: str, probe: TableRow) -> TableRow:
        """Store a new table under a fresh code and read it back (blocking)."""
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
            if code in self.tables:
                continue
            try:
                self.store.create_table(code, spec_name, game.num_players, game.options,
                                        seed, seats, owner, probe.setup_json())
            except IntegrityError:  # the code is taken (the column is unique)
                continue
            row = self.store.load_table(code)
            assert row is not None
            return row
        raise RuntimeError("no free table code after 20 tries")

    async def create(self, body: dict[str, Any], owner: str) -> TableRuntime:
        position = body.get("position")
        if position is not None:
            body = self._from_position(body, position)
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
                                                      "'bot:LEVEL'."), seat=i + 1,
                               spec=repr(s)[:80])
        probe = self._setup(body, game)
        try:
            probe.pace = Pace.parse(body.get("pace")).value
        except ValueError:
            raise ApiError(400, "bad_pace",
                           N_("'pace' must be rules, relaxed or untimed.")) from None
        live = self._creating[owner] + sum(1 for t in self.tables.values()
                                           if t.row.owner == owner and t.row.status != "over")
        if live >= self.config.max_tables_per_client:
            raise ApiError(429, "too_many_tables",
                           N_("At most {n} unfinished tables per player."),
                           n=self.config.max_tables_per_client)
        self._creating[owner] += 1
        try:
            row = await self.store.call(self._insert, spec.name, game, probe.seed, seats,
                                        owner, probe)
        finally:
            self._creating[owner] -= 1
            if not self._creating[owner]:
                del self._creating[owner]
        rt = self._runtime(row)
        rt.waiting_since = self.clock()
        self.tables[row.code] = rt
        rt.activate()
        await self._start(rt)  # a table of bots starts at once
        return rt

    def _from_position(self, body: dict[str, Any], position: Any) -> dict[str, Any]:
        """The create body with the game, player count and options of ``position`` (a
        body that names others is refused)."""
        try:
            game, players, options = position_header(position)
        except SpieltischError as e:
            raise ApiError(400, "bad_position", N_("The position cannot be used: {reason}"),
                           reason=str(e)) from None
        given = {"game": game, "players": players, "options": options}
        for key, value in given.items():
            if key in body and body[key] != value and not (key == "options" and not body[key]):
                raise ApiError(400, "bad_position", N_("'{key}' differs from the position's; "
                                                       "leave it out."), key=key)
        return {**body, **given}

    def _setup(self, body: dict[str, Any], game: Game) -> TableRow:
        """The setup of the new table: its seed, and for a private practice table the
        stacked deck or position asked for. A table strangers can join always gets a
        seed from the server: whoever chose it would know every hidden card."""
        practice = body.get("practice", False)
        if not isinstance(practice, bool):
            raise ApiError(400, "bad_request", N_("'practice' must be true or false."))
        seed, deck, position = body.get("seed"), body.get("deck"), body.get("position")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                                 or not 0 <= seed < 2**62):
            raise ApiError(400, "bad_request", N_("'seed' must be an integer in 0..2^62."))
        if deck is not None and not _is_deck(deck):
            raise ApiError(400, "bad_request", N_("'deck' must be a list of card codes, or a "
                                                  "list of such lists (one per shuffle)."))
        chosen = seed is not None or deck is not None or position is not None
        row = TableRow(0, "", game.name, game.num_players, game.options,
                       secrets.randbits(62) if seed is None else seed, "waiting", 0.0,
                       practice=practice or chosen, deck=deck, position=position)
        if deck is not None or position is not None:
            # the deck or position must set up a game that goes on
            code, text = ("bad_position", N_("The position cannot be used: {reason}")) \
                if position is not None else \
                ("bad_deck", N_("The stacked deck cannot be used: {reason}"))
            try:
                start = row.first_state(game)
            except SpieltischError as e:
                raise ApiError(400, code, text, reason=str(e)) from None
            if start.is_over():
                raise ApiError(400, code, text, reason="the game is over")
        return row

    async def _start(self, rt: TableRuntime) -> None:
        """Start a full table; when the database fails, try again every few seconds (the
        seats are taken: the table must not stay waiting)."""
        try:
            await rt.start_if_full()
        except Exception:
            log.exception("table %s: starting failed; trying again", rt.code)
            loop = asyncio.get_running_loop()
            loop.call_later(2.0, lambda: loop.create_task(self._start(rt)))

    async def join(self, rt: TableRuntime, body: dict[str, Any],
                   client: str = "") -> tuple[int, str]:
        """Take a seat at ``rt`` for ``client`` (its address): a free seat, or the one
        asked for. Joins are limited per client; a practice table takes its creator only."""
        if not self.joins.allow(client):
            raise ApiError(429, "too_many_joins", N_("Too many seats taken from your address: "
                                                     "wait a minute and try again."))
        name = body.get("name", "")
        if not isinstance(name, str) or len(name) > 64:
            raise ApiError(400, "bad_request",
                           N_("'name' must be a string of at most 64 characters."))
        wanted = body.get("seat")
        if wanted is not None and (not isinstance(wanted, int) or isinstance(wanted, bool)):
            raise ApiError(400, "bad_request", N_("'seat' must be a seat number."))
        if rt.row.practice and client != rt.row.owner:
            raise ApiError(403, "private", N_("This is a private practice table: only the "
                                              "player who set it up sits at it."))
        async with rt.lock:
            free = rt.free_seats()
            if rt.status == "expired":
                raise ApiError(409, "expired", N_("This table expired: nobody joined in time."))
            if not free or rt.status != "waiting":
                raise ApiError(409, "table_full", N_("There is no free seat at this table."))
            if wanted is None:
                seat = free[0]
            elif wanted in free:
                seat = wanted
            else:
                raise ApiError(409, "seat_taken", N_("Seat {seat} is not free."),
                               seat=wanted + 1)
            token = secrets.token_urlsafe(32)
            th = hash_token(token)
            if not await self.store.call(self.store.claim_seat, rt.row.id, seat, name, th):
                raise ApiError(409, "seat_taken", N_("Seat {seat} is not free."), seat=seat + 1)
            for s in rt.row.seats:
                if s.seat == seat:
                    s.token_hash = th
                    s.name = name
            rt.waiting_since = self.clock()
        await self._start(rt)
        return seat, token


def _is_deck(deck: Any) -> bool:
    """A stacked deck as the client sends it: card codes, or lists of them."""
    if not isinstance(deck, list) or not deck:
        return False
    orders = deck if isinstance(deck[0], list) else [deck]
    return all(isinstance(o, list) and o and all(isinstance(c, str) for c in o)
               for o in orders)


class StepsCache:
    """Encoded ``replay/steps`` answers of finished games by (code, viewer), the least
    recently asked dropped first past ``budget`` bytes: replaying a game for every
    request would let anyone keep the server busy."""

    def __init__(self, budget: int = 64 << 20) -> None:
        self.budget = budget
        self.size = 0
        self.entries: OrderedDict[tuple[str, str], bytes] = OrderedDict()

    def get(self, key: tuple[str, str]) -> bytes | None:
        body = self.entries.get(key)
        if body is not None:
            self.entries.move_to_end(key)
        return body

    def put(self, key: tuple[str, str], body: bytes) -> None:
        if key in self.entries or len(body) > self.budget:
            return
        self.entries[key] = body
        self.size += len(body)
        while self.size > self.budget:
            _, dropped = self.entries.popitem(last=False)
            self.size -= len(dropped)


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
    return request.app.state.lobby  # type: ignore[no-any-return]


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
            "options": finite(row.options), "status": row.status, "result": row.result,
            "seats": [{"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name}
                      for s in row.seats],
            "names": names, "winner": names[winner] if isinstance(winner, int) else None,
            "practice": row.practice, "pace": row.pace}


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
    codes = {t["code"] for t in live}
    rows = await lobby.store.call(lobby.store.list_tables, ("over", "expired"), 200)
    ended = [stored_info(row, lang) for row in rows if row.code not in codes]
    return JSONResponse(live + ended, headers={"vary": "accept-language"})


async def create_table(request: Request) -> Response:
    body = await _body(request)
    rt = await _lobby(request).create(body, _client(request))
    return JSONResponse(rt.public_info(request_language(request)), status_code=201)


async def table_status(request: Request) -> Response:
    return JSONResponse((await _table(request)).public_info(request_language(request)))


async def join_table(request: Request) -> Response:
    body = await _body(request)
    rt = await _table(request)
    seat, token = await _lobby(request).join(rt, body, _client(request))
    return JSONResponse({"code": rt.code, "seat": seat, "token": token,
                         "ws": f"/ws/{rt.code}"}, status_code=201)


async def replay(request: Request) -> Response:
    rt = await _table(request)
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


async def ws_endpoint(ws: WebSocket) -> None:
    lobby = _lobby(ws)
    cfg = lobby.config
    await ws.accept()
    code = ws.path_params["code"].upper()
    conn = Conn(ws.send, _client(ws))
    conn.lang = request_language(ws)
    tr = conn.tr
    try:  # a finished game is rebuilt read-only, for a late reconnect
        rt = await lobby.fetch(code)
        if rt is not None and rt.code not in lobby.tables \
                and rt.status not in ("over", "expired"):
            rt = None  # never a second runtime of a live table
        problem = err("no_table", tr.format(N_("There is no table {table}."),
                                            table=ws.path_params["code"][:16]))
    except ApiError as e:  # a broken table
        rt, problem = None, err(e.code, e.text(tr))
    except SQLAlchemyError:
        rt, problem = None, err("unavailable", tr.gettext(DATABASE_DOWN))
    if rt is None:
        conn.send(problem)
        await conn.flush()
        await ws.close(code=4404)
        return
    limit = RateLimit(cfg.messages_per_second, cfg.message_burst)
    too_large = N_("Messages are limited to {n} bytes.")
    try:
        loop = asyncio.get_running_loop()
        while True:
            message = await ws.receive()
            arrival = loop.time()  # the server's clock stamps it; a client's is never read
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
            if over_limit(text, cfg.max_message_bytes):
                conn.send(err("too_large", tr.format(too_large, n=cfg.max_message_bytes)))
                continue
            if not limit.allow():
                conn.send(err("rate_limited", tr.format(
                    N_("More than {n} messages per second: this one was dropped."),
                    n=f"{cfg.messages_per_second:g}")))
                continue
            try:
                msg = parse_json(text)
            except BadInput:
                conn.send(err("malformed", tr.gettext(N_("The message is not valid JSON."))))
                continue
            if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
                conn.send(err("malformed", tr.gettext(
                    N_("A message is a JSON object with a string 'type'."))))
                continue
            try:
                await handle(rt, conn, msg, arrival)
            except Exception:  # a bug: the player hears of it, the connection stays
                log.exception("table %s: handling a %r message failed", rt.code,
                              msg["type"][:40])
                conn.send(err("server_error", tr.gettext(
                    N_("The server failed to handle this message; nothing changed."))))
    except WebSocketDisconnect:
        pass
    finally:
        await rt.detach(conn)
        await conn.flush()


async def handle(rt: TableRuntime, conn: Conn, msg: dict[str, Any],
                 arrival: float | None = None) -> None:
    """One client message, stamped ``arrival`` (the loop's clock) when it came in."""
    kind = msg["type"]
    tr = conn.tr
    if arrival is None:
        arrival = asyncio.get_running_loop().time()
    if kind == "ping":
        conn.send({"type": "pong", "id": msg.get("id")})
    elif kind == "pong":  # the answer to the server's ping: a round trip (docs: "Time")
        rt.pong(conn, msg, arrival)
    elif kind == "ready":  # the client drew the started table (the clocks wait for it)
        await rt.ready(conn)
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
        reply = await rt.player_action(conn, msg, arrival)
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


#: What a player reads while the database does not answer.
DATABASE_DOWN = N_("The database is not available right now; try again in a moment.")


async def api_error(request: Request, exc: Exception) -> Response:
    """An ``ApiError`` or a game's ``SpieltischError`` (a bad option, say) as JSON."""
    if isinstance(exc, ApiError):
        tr = server_tr(request_language(request))
        return JSONResponse({"error": exc.code, "message": exc.text(tr), **exc.extra},
                            status_code=exc.status)
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

    from .lab_pages import lab_routes  # the designer's lab reports (docs/lab.md)
    from .web import web_routes  # the browser client (static/, docs/client.md)

    routes = [
        *web_routes(),  # serves "/" before the placeholder below
        *lab_routes(),  # the lab's reports made on this machine, at /lab
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
                     middleware=[Middleware(Guard, config=cfg)],
                     exception_handlers={ApiError: api_error, SpieltischError: api_error,
                                         SQLAlchemyError: database_error,
                                         StorageError: database_error})


__all__ = ["ApiError", "Lobby", "create_app"]
