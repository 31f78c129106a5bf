"""Meeting people (issue 39): the open tables, quick-join and the waiting list per game.

* ``GET /api/open-tables``: the tables strangers can join now (waiting, a free seat, not
  a practice table), oldest first, read from the database: every node of a cluster
  lists the same ones.
* ``POST /api/quick-join``: a seat at the oldest open table of a game (and player count).
* ``POST /api/waiting``: a place on the waiting list of a game and player count. When
  as many people wait as the game needs, a casual table without bots is made for them
  and each is seated. ``POST /api/waiting/poll`` waits (long-poll) until its waiter is
  seated; ``POST /api/waiting/leave`` leaves the list. The waiting token travels in the
  request body, never in a URL (issue 39: tokens never in URLs).

The list lives in the database (``<prefix>waiting``). Seating takes the rows in one
transaction with the table's insert, serialised per game and player count (PostgreSQL:
an advisory lock of the transaction; SQLite: ``BEGIN IMMEDIATE``): two nodes never seat
one waiter twice, and every arrival's own try sees every waiter that arrived before it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    delete,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..core.registry import game_names, get_spec
from ..i18n import N_, translator
from ..narration import Context
from .accounts import Account, current_account
from .app import ApiError, _body, _client, _lobby, _value_key, option_info, request_language
from .lobby import Lobby, LobbyError, new_code
from .store import FIRST_EPOCH, SeatRow, Store, TableRow
from .table import hash_token
from .texts import seat_names

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

log = logging.getLogger("spieltisch.server")

#: A waiter whose client has not asked about its place for this long (seconds) has gone:
#: it is seated nowhere and its row is dropped; a seated waiter's row (it holds the seat's
#: token) is dropped this long after the seating if nobody collected it.
STALE = 60.0
#: The longest a poll waits for its waiter to be seated (seconds): under common proxies'
#: idle timeouts.
LONG_POLL = 25.0
#: How often a poll looks at the database meanwhile (seconds): a waiter seated by another
#: node is told within this; one seated by this node at once.
POLL_EVERY = 1.0
#: A poll refreshes its row's ``seen`` at most this often (seconds): fewer writes.
SEEN_EVERY = 5.0
#: Open tables a quick-join tries before it gives up (a seat taken meanwhile: the next).
QUICK_TRIES = 5
#: Open tables listed at most.
MAX_OPEN = 200


@dataclass(frozen=True)
class Waiter:
    """One place on a waiting list; ``code``, ``seat`` and ``token`` once seated."""

    key: str
    game: str
    players: int
    name: str
    account_id: int | None
    created: float
    code: str | None = None
    seat: int | None = None
    token: str | None = None


def define(md: MetaData, prefix: str) -> Table:
    """The waiting list's table in the store's ``MetaData``."""
    return Table(
        f"{prefix}waiting", md,
        # SHA-256 of the waiter's token: the token itself is never stored
        Column("key", String(64), primary_key=True),
        Column("game", String(64), nullable=False, index=True),
        Column("players", Integer, nullable=False),
        Column("name", String(64), nullable=False, server_default=""),
        # the signed-in person waiting; null for a guest
        Column("account_id", Integer, nullable=True, index=True),
        Column("created", Float, nullable=False),
        # when the waiter's client last asked about its place
        Column("seen", Float, nullable=False),
        # once seated: the table, the seat, its token (until the waiter collects it,
        # ``STALE`` seconds at most) and when
        Column("code", String(16), nullable=True),
        Column("seat", Integer, nullable=True),
        Column("seat_token", String(64), nullable=True),
        Column("seated", Float, nullable=True),
    )


def waiting_key(token: str) -> str:
    return hashlib.sha256(f"spieltisch waiting\n{token}".encode()).hexdigest()


def _queue_lock(prefix: str, game: str, players: int) -> int:
    """The advisory lock (a signed 64-bit number) of one waiting list on PostgreSQL."""
    digest = hashlib.sha256(f"spieltisch waiting\n{prefix}\n{game}\n{players}".encode())
    return int.from_bytes(digest.digest()[:8], "big", signed=True)


class WaitingList:
    """The waiting lists in the database (blocking: run through ``Store.call``)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.t: Table = store.waiting_table
        self.sqlite = store.url.startswith("sqlite")

    @contextlib.contextmanager
    def _serialised(self, game: str, players: int) -> Iterator[Connection]:
        """A transaction that no other seating of the same list runs beside."""
        if self.sqlite:  # the write lock first, then the reads: one writer at a time
            with self.store.engine.connect() as conn:
                conn.execution_options(isolation_level="AUTOCOMMIT")
                conn.exec_driver_sql("BEGIN IMMEDIATE")
                try:
                    yield conn
                    conn.exec_driver_sql("COMMIT")
                except BaseException:
                    with contextlib.suppress(Exception):
                        conn.exec_driver_sql("ROLLBACK")
                    raise
        else:
            with self.store.engine.begin() as conn:
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"),
                             {"k": _queue_lock(self.store.prefix, game, players)})
                yield conn

    def _purge(self, conn: Connection, now: float) -> None:
        """Drop waiters gone quiet and seated rows nobody collected."""
        t = self.t
        conn.execute(delete(t).where(t.c.code.is_(None), t.c.seen < now - STALE))
        conn.execute(delete(t).where(t.c.seated.is_not(None), t.c.seated < now - STALE))

    def add(self, token: str, game: str, players: int, name: str, account_id: int | None,
            now: float) -> bool:
        """Put a waiter on the list of ``game`` for ``players``; False when the account
        waits on that list already."""
        t = self.t
        with self.store.engine.begin() as conn:
            self._purge(conn, now)
            if account_id is not None and conn.execute(select(t.c.key).where(
                    t.c.account_id == account_id, t.c.game == game, t.c.players == players,
                    t.c.code.is_(None))).first() is not None:
                return False
            conn.execute(insert(t).values(key=waiting_key(token), game=game, players=players,
                                          name=name, account_id=account_id, created=now,
                                          seen=now))
        return True

    def get(self, token: str, now: float) -> tuple[Waiter, int] | None:
        """The waiter of ``token`` and how many wait on its list; a seated waiter's row
        goes (its seat is the waiter's from now on). None: not on any list."""
        t = self.t
        key = waiting_key(token)
        with self.store.engine.begin() as conn:
            r = conn.execute(select(t).where(t.c.key == key)).first()
            if r is None:
                return None
            if r.code is not None:
                conn.execute(delete(t).where(t.c.key == key))
            elif r.seen < now - SEEN_EVERY:
                conn.execute(update(t).where(t.c.key == key).values(seen=now))
            waiting = conn.execute(select(func.count()).select_from(t).where(
                t.c.game == r.game, t.c.players == r.players, t.c.code.is_(None),
                t.c.seen >= now - STALE)).scalar_one()
        return Waiter(r.key, r.game, r.players, r.name, r.account_id, r.created, r.code,
                      r.seat, r.seat_token), int(waiting)

    def leave(self, token: str) -> bool:
        """Take the waiter of ``token`` off its list; False if it was on none (or seated
        already)."""
        t = self.t
        with self.store.engine.begin() as conn:
            res = conn.execute(delete(t).where(t.c.key == waiting_key(token),
                                               t.c.code.is_(None)))
        return res.rowcount == 1

    def take(self, game: str, players: int, code: str, options: dict[str, Any], seed: int,
             now: float) -> TableRow | None:
        """Seat the ``players`` longest-waiting people of the list at a new table ``code``
        (in waiting order; one seat per account), in one transaction with the table's
        insert; None (nothing stored) while fewer wait."""
        t = self.t
        with self._serialised(game, players) as conn:
            self._purge(conn, now)
            query = select(t).where(t.c.game == game, t.c.players == players,
                                    t.c.code.is_(None)).order_by(t.c.created, t.c.key)
            if not self.sqlite:
                query = query.with_for_update()
            picked: list[Any] = []
            accounts: set[int] = set()
            for r in conn.execute(query):
                if r.account_id is not None and r.account_id in accounts:
                    continue  # one account sits once at a table
                picked.append(r)
                if r.account_id is not None:
                    accounts.add(r.account_id)
                if len(picked) == players:
                    break
            if len(picked) < players:
                return None
            tokens = [secrets.token_urlsafe(32) for _ in picked]
            seats = [SeatRow(i, "human", None, r.name, hash_token(tok), r.account_id)
                     for i, (r, tok) in enumerate(zip(picked, tokens, strict=True))]
            self.store.insert_table(conn, code, game, players, options, seed, seats, "",
                                    None)
            for i, (r, tok) in enumerate(zip(picked, tokens, strict=True)):
                done = conn.execute(update(t).where(t.c.key == r.key, t.c.code.is_(None))
                                    .values(code=code, seat=i, seat_token=tok, seated=now))
                if done.rowcount != 1:  # left meanwhile: nothing of this try stays
                    raise _Left()
        row = self.store.load_table(code)
        assert row is not None
        row.epoch = FIRST_EPOCH  # the insert's claim (``Lobby._insert``)
        return row


class _Left(Exception):
    """A waiter picked for a table left the list while it was being seated."""


class Meeting:
    """Quick-join and the waiting lists of one server (or node), over its lobby."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.waiting = WaitingList(lobby.store)
        #: Set (and replaced) whenever this node seats waiters: its polls look at once.
        self.seated = asyncio.Event()
        self.long_poll = LONG_POLL

    async def open_tables(self, game: str | None = None, players: int | None = None
                          ) -> list[TableRow]:
        """The tables strangers can join, oldest first."""
        store = self.lobby.store
        rows = await store.call(store.list_tables, ("waiting",), 1000)
        return [r for r in reversed(rows)
                if not r.practice and (game is None or r.game == game)
                and (players is None or r.players == players)
                and any(s.kind == "human" and s.token_hash is None for s in r.seats)][:MAX_OPEN]

    async def quick_join(self, game: str, players: int | None, name: str, client: str,
                         account: Account | None, skip: set[str]) -> tuple[str, int, str]:
        """A seat at the oldest open table of ``game`` (with ``players``) that the person
        does not sit at already: its code, the seat and its token."""
        tried = 0
        for row in await self.open_tables(game, players):
            if row.code in skip or (account is not None and any(
                    s.account_id == account.id for s in row.seats)):
                continue
            try:
                return await self.lobby.join_code(row.code, {"name": name}, client,
                                                  account=account)
            except LobbyError as e:
                if e.code in ("too_many_joins", "unavailable"):
                    raise
            tried += 1
            if tried >= QUICK_TRIES:
                break
        raise ApiError(404, "no_open_table",
                       N_("There is no open {game} table with a free seat."),
                       game=get_spec(game).title)

    async def seat_waiters(self, game: str, players: int) -> str | None:
        """Make a table for the longest-waiting people of a list if enough wait, and serve
        it here: its code, or None."""
        lobby = self.lobby
        options = get_spec(game).configure(players, {}).options
        cluster = lobby.cluster
        for _ in range(20):
            code = new_code()
            if code in lobby.tables:
                continue
            if cluster is not None:  # its lease first: no other node may adopt it
                if cluster.draining:
                    return None  # another node seats them
                if not await cluster.adopt_new(code):
                    continue
            try:
                row = await lobby.store.call(self.waiting.take, game, players, code, options,
                                             secrets.randbits(62), time.time())
            except (IntegrityError, _Left):  # the code is taken, or a waiter left: again
                row = None
                if cluster is not None:
                    await cluster.release(code)
                continue
            except BaseException:
                if cluster is not None:
                    await cluster.release(code)
                raise
            if row is None:
                if cluster is not None:
                    await cluster.release(code)
                return None
            try:
                await lobby.serve_new(row)  # every seat is taken: it starts at once
            except Exception:  # stored: its players reach it once a server recovers it
                log.exception("table %s for the %s waiting list: stored, serving it failed",
                              code, game)
            self.seated.set()
            self.seated = asyncio.Event()
            return code
        return None

    async def wait(self, token: str, first: bool) -> dict[str, Any]:
        """The answer to a poll: seated at once, else after ``long_poll`` seconds of
        waiting (``first``: try to seat the list once before)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.long_poll
        tried = not first
        while True:
            got = await self.lobby.store.call(self.waiting.get, token, time.time())
            if got is None:
                raise ApiError(404, "not_waiting",
                               N_("You are not on a waiting list (any more)."))
            waiter, count = got
            if waiter.code is not None:
                return seated_json(waiter)
            if not tried:
                tried = True
                if await self.seat_waiters(waiter.game, waiter.players) is not None:
                    continue
            left = deadline - loop.time()
            if left <= 0 or self.lobby.stopping.is_set():  # (a stopping server: at once)
                return {"status": "waiting", "game": waiter.game, "players": waiter.players,
                        "waiting": count}
            await self._pause(min(POLL_EVERY, left))

    async def _pause(self, seconds: float) -> None:
        """Wait ``seconds``, less when this node seats waiters or the server stops."""
        woken = [asyncio.ensure_future(e.wait()) for e in (self.seated, self.lobby.stopping)]
        try:
            await asyncio.wait(woken, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in woken:
                task.cancel()


def seated_json(w: Waiter) -> dict[str, Any]:
    return {"status": "seated", "game": w.game, "players": w.players, "code": w.code,
            "seat": w.seat, "token": w.token, "ws": f"/ws/{w.code}"}


def meeting(request: Request) -> Meeting:
    """This application's ``Meeting`` (made with its lobby)."""
    lobby = _lobby(request)
    found: Meeting | None = getattr(request.app.state, "meeting", None)
    if found is None or found.lobby is not lobby:
        found = Meeting(lobby)
        request.app.state.meeting = found
    return found


# -- the HTTP routes -----------------------------------------------------------------------
def _game(value: Any) -> str:
    if not isinstance(value, str) or value not in game_names():
        raise ApiError(400, "bad_game", N_("There is no game {game}."),
                       game=str(value)[:64])
    return value


def _players(game: str, value: Any, default: int | None) -> int | None:
    """A player count the game allows (``default`` when absent)."""
    if value is None:
        return default
    spec = get_spec(game)
    if isinstance(value, str) and value.isascii() and value.isdigit():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) \
            or not spec.min_players <= value <= spec.max_players:
        allowed = {"min": spec.min_players, "max": spec.max_players}
        raise LobbyError("bad_players", N_("{game} is for {min} to {max} players."), allowed,
                         game=spec.title, **allowed)
    return value


def _name(body: dict[str, Any], account: Account | None) -> str:
    if account is not None:
        return account.name
    name = body.get("name", "")
    if not isinstance(name, str) or len(name) > 64:
        raise ApiError(400, "bad_request", N_("'name' must be a string of at most 64 "
                                              "characters."))
    return name.replace("\x00", "").strip()  # (PostgreSQL stores no NUL)


def _token(body: dict[str, Any]) -> str:
    token = body.get("waiting_token")
    if not isinstance(token, str) or not 0 < len(token) <= 128:
        raise ApiError(404, "not_waiting", N_("You are not on a waiting list (any more)."))
    return token


def open_table_json(row: TableRow, lang: str) -> dict[str, Any]:
    """An open table as the lobby lists it: its options with their labels and values in
    words (as the lobby's form shows them), pace, rated or casual, and who sits there."""
    spec = get_spec(row.game)
    tr = translator(lang, row.game, "core")
    nameless = Context(translator(lang, "core"), (), None)
    options = []
    for o in spec.options:
        info = option_info(o, tr)
        value = row.options.get(o.name, o.default)
        word = info["value_labels"].get(_value_key(value))
        if word is None and o.seat and isinstance(value, int) and value >= 0:
            word = nameless.name(value)
        options.append({"name": o.name, "label": info["label"], "value": value,
                        "value_label": word or None, "default": value == o.default})
    names = seat_names(row.seats, lang)
    return {"code": row.code, "game": row.game, "title": tr.gettext(spec.title),
            "players": row.players, "options": options, "pace": row.pace,
            "rated": row.rated, "created": row.created,
            "seats": [{"seat": s.seat, "kind": s.kind, "bot": s.bot,
                       "name": names[s.seat] if s.kind == "bot" or s.token_hash else None,
                       "taken": s.kind == "bot" or s.token_hash is not None}
                      for s in row.seats],
            "free": sum(1 for s in row.seats if s.kind == "human" and s.token_hash is None)}


async def list_open(request: Request) -> Response:
    """``GET /api/open-tables?game=&players=&lang=``."""
    game = request.query_params.get("game") or None
    if game is not None:
        _game(game)
    players = _players(game, request.query_params.get("players"), None) if game else None
    lang = request_language(request)
    rows = await meeting(request).open_tables(game, players)
    return JSONResponse([open_table_json(r, lang) for r in rows],
                        headers={"vary": "accept-language", "cache-control": "no-store"})


async def quick_join(request: Request) -> Response:
    """``POST /api/quick-join {"game", "players"?, "name"?, "skip"?}``."""
    body = await _body(request)
    game = _game(body.get("game"))
    players = _players(game, body.get("players"), None)
    account = await current_account(request)
    skip = body.get("skip") or []
    if not isinstance(skip, list) or len(skip) > 100:
        raise ApiError(400, "bad_request", N_("'skip' must be a list of table codes."))
    code, seat, token = await meeting(request).quick_join(
        game, players, _name(body, account), _client(request), account,
        {str(c).upper() for c in skip})
    return JSONResponse({"code": code, "seat": seat, "token": token, "ws": f"/ws/{code}"},
                        status_code=201)


async def join_waiting(request: Request) -> Response:
    """``POST /api/waiting {"game", "players"?, "name"?}``: 201 with the waiting token,
    seated at once when this waiter completes the list."""
    body = await _body(request)
    game = _game(body.get("game"))
    players = _players(game, body.get("players"), get_spec(game).default_players)
    assert players is not None
    account = await current_account(request)
    name = _name(body, account)
    lobby = _lobby(request)
    client = _client(request)
    allowed = await lobby.cluster.allow_join(client) if lobby.cluster is not None \
        else lobby.joins.allow(client)
    if not allowed:
        raise LobbyError("too_many_joins", N_("Too many seats taken from your address: "
                                              "wait a minute and try again."))
    m = meeting(request)
    token = secrets.token_urlsafe(32)
    if not await lobby.store.call(m.waiting.add, token, game, players, name,
                                  account.id if account else None, time.time()):
        raise ApiError(409, "already_waiting", N_("You are on this waiting list already."))
    await m.seat_waiters(game, players)
    got = await lobby.store.call(m.waiting.get, token, time.time())
    if got is not None and got[0].code is not None:
        answer = seated_json(got[0])
    else:
        answer = {"status": "waiting", "game": game, "players": players,
                  "waiting": got[1] if got else 0}
    return JSONResponse({**answer, "waiting_token": token}, status_code=201)


async def poll_waiting(request: Request) -> Response:
    """``POST /api/waiting/poll {"waiting_token"}``: seated, or still waiting after a while."""
    token = _token(await _body(request))
    answer = await meeting(request).wait(token, first=True)
    return JSONResponse(answer, headers={"cache-control": "no-store"})


async def leave_waiting(request: Request) -> Response:
    """``POST /api/waiting/leave {"waiting_token"}``: off the list (404 when on none)."""
    token = _token(await _body(request))
    lobby = _lobby(request)
    if not await lobby.store.call(meeting(request).waiting.leave, token):
        raise ApiError(404, "not_waiting", N_("You are not on a waiting list (any more)."))
    return JSONResponse({"status": "left"})


def meeting_routes() -> list[BaseRoute]:
    return [
        Route("/api/open-tables", list_open),
        Route("/api/quick-join", quick_join, methods=["POST"]),
        Route("/api/waiting", join_waiting, methods=["POST"]),
        Route("/api/waiting/poll", poll_waiting, methods=["POST"]),
        Route("/api/waiting/leave", leave_waiting, methods=["POST"]),
    ]


__all__ = ["Meeting", "WaitingList", "Waiter", "define", "meeting_routes", "open_table_json"]
