"""Persistence of tables, seats and the action log with SQLAlchemy 2.x.

The log is the truth: a table is its setup (game, players, options, seed) plus
the actions applied, in order. Every action row is committed before the action is
applied, acknowledged or pushed to anyone (``ActionWriter`` groups the rows of one
event-loop turn into one transaction), so a restarted server rebuilds each unfinished
table by replaying its log from the seed. Seat tokens are stored as SHA-256 hashes.

``prefix`` names the tables (``<prefix>tables``, ...) so that several servers or
test runs can share one database.

The server's event loop never waits for the lobby's database work: ``Store.call`` runs
a method in the store's own threads (the action writer has its own rules, below).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url

if TYPE_CHECKING:
    from ..core.game import Game, State

T = TypeVar("T")


class StorageError(Exception):
    """An action could not be stored (the database failed); nothing was applied."""


@dataclass
class SeatRow:
    seat: int
    kind: str  # "human" or "bot"
    bot: str | None = None
    name: str = ""
    token_hash: str | None = None


@dataclass
class TableRow:
    id: int
    code: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    status: str  # "waiting", "playing", "over", "expired", "broken"
    created: float
    owner: str = ""
    result: dict[str, Any] | None = None
    seats: list[SeatRow] = field(default_factory=list)
    #: A private practice table: the creator may have chosen its seed, stacked deck or
    #: position, so nobody but the creator may sit at it.
    practice: bool = False
    #: The stacked deck (card codes) or the position it started from, if any.
    deck: list[Any] | None = None
    position: dict[str, Any] | None = None
    #: The pace its creator chose (``timing.Pace``: rules, relaxed, untimed).
    pace: str = "rules"
    #: When the game started and ended (wall clock, seconds): the score sheet's length.
    started: float | None = None
    ended: float | None = None
    #: The code of this table's rematch once it started, and of the table this one is a
    #: rematch of (``rematch``).
    rematch: str | None = None
    rematch_of: str | None = None

    def first_state(self, game: Game) -> State:
        """The state before the first action: the position, else the deal from the seed
        (and the stacked deck)."""
        if self.position is not None:
            return game.state_from_position(self.position)
        return game.new_state(seed=self.seed, deck=self.deck)

    def setup_json(self) -> str | None:
        """The ``setup`` column: what a practice table started from, a pace other than
        the rule's, when the game started and ended, and the rematch codes."""
        setup: dict[str, Any] = {}
        if self.practice:
            setup.update(practice=True, deck=self.deck, position=self.position)
        if self.pace != "rules":
            setup["pace"] = self.pace
        for key in ("started", "ended", "rematch", "rematch_of"):
            if getattr(self, key) is not None:
                setup[key] = getattr(self, key)
        return json.dumps(setup) if setup else None


@dataclass
class ActionRow:
    index: int
    seat: int
    action: Any
    client_id: str | None = None


def _schema(prefix: str) -> tuple[MetaData, Table, Table, Table]:
    md = MetaData()
    tables = Table(
        f"{prefix}tables", md,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("code", String(16), nullable=False, unique=True),
        Column("game", String(64), nullable=False),
        Column("players", Integer, nullable=False),
        Column("options", Text, nullable=False),
        Column("seed", String(32), nullable=False),
        Column("status", String(16), nullable=False, index=True),
        Column("created", Float, nullable=False),
        Column("owner", String(128), nullable=False, default=""),
        Column("result", Text, nullable=True),
        # JSON: {"practice": true, "deck": ..., "position": ...} for practice tables,
        # {"pace": ...} for a pace other than the rule's, "started" and "ended" (seconds),
        # "rematch" and "rematch_of" (codes); null for none of them
        Column("setup", Text, nullable=True),
    )
    seats = Table(
        f"{prefix}seats", md,
        Column("table_id", Integer, ForeignKey(f"{prefix}tables.id", ondelete="CASCADE"),
               primary_key=True),
        Column("seat", Integer, primary_key=True),
        Column("kind", String(8), nullable=False),
        Column("bot", String(64), nullable=True),
        Column("name", String(64), nullable=False, default=""),
        Column("token_hash", String(64), nullable=True),
    )
    actions = Table(
        f"{prefix}actions", md,
        Column("table_id", Integer, ForeignKey(f"{prefix}tables.id", ondelete="CASCADE"),
               primary_key=True),
        Column("idx", Integer, primary_key=True),
        Column("seat", Integer, nullable=False),
        Column("action", Text, nullable=False),
        Column("client_id", String(128), nullable=True),
    )
    return md, tables, seats, actions


def _private_sqlite_file(url: str) -> None:
    """Create a missing SQLite file readable by its owner only (0600): it holds every
    game's seed and log. SQLite gives its WAL and shared-memory files the same mode."""
    path = make_url(url).database
    if not path or path == ":memory:" or path.startswith("file:") or os.path.exists(path):
        return
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        _private_sqlite_file(url)
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(conn: Any, _record: Any) -> None:  # pragma: no cover - trivial
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


ActionTuple = tuple[int, int, int, Any, str | None]


def action_values(rows: list[ActionTuple]) -> list[dict[str, Any]]:
    """Action rows ``(table_id, index, seat, action, client_id)`` as insert parameters."""
    return [{"table_id": t, "idx": i, "seat": s, "action": json.dumps(a), "client_id": c}
            for t, i, s, a, c in rows]


class Store:
    """Synchronous storage; every write is its own committed transaction.

    The server appends actions through ``writer`` (group commit, below) instead, and
    runs every other method through ``call`` (in the store's threads).
    """

    def __init__(self, url: str, prefix: str = "st_", threads: int = 4) -> None:
        self.url = url
        self.prefix = prefix
        self.engine = make_engine(url)
        self.metadata, self.tables, self.seats, self.actions = _schema(prefix)
        # the schema is the migrations' (migrate.py): a new database gets it, an old one
        # is brought up to date
        from .migrate import upgrade

        upgrade(self.engine, prefix)
        self.writer = ActionWriter(self)
        self._threads = threads
        self._pool: ThreadPoolExecutor | None = None

    async def call(self, method: Callable[..., T], *args: Any) -> T:
        """``method(*args)`` (a method of this store, or any blocking function) in one of
        the store's threads: the event loop serves every table meanwhile."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self._threads, thread_name_prefix="spieltisch-store")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, functools.partial(method, *args))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        self.writer.close()
        self.engine.dispose()

    def drop_all(self) -> None:
        """Remove this prefix's tables and its record of migrations (tests)."""
        from .migrate import drop_version_table

        self.metadata.drop_all(self.engine)
        with self.engine.begin() as conn:
            drop_version_table(conn, self.prefix)

    # -- writes ------------------------------------------------------------
    def create_table(self, code: str, game: str, players: int, options: dict[str, Any],
                     seed: int, seats: list[SeatRow], owner: str = "",
                     setup: str | None = None) -> int:
        """Store a new waiting table; ``setup`` is ``TableRow.setup_json()``."""
        with self.engine.begin() as conn:
            return self._insert_table(conn, code, game, players, options, seed, seats,
                                      owner, setup)

    def _insert_table(self, conn: Connection, code: str, game: str, players: int,
                      options: dict[str, Any], seed: int, seats: list[SeatRow], owner: str,
                      setup: str | None) -> int:
        res = conn.execute(insert(self.tables).values(
            code=code, game=game, players=players, options=json.dumps(options),
            seed=str(seed), status="waiting", created=time.time(), owner=owner,
            setup=setup))
        pk = res.inserted_primary_key
        assert pk is not None
        table_id = int(pk[0])
        conn.execute(insert(self.seats), [
            {"table_id": table_id, "seat": s.seat, "kind": s.kind, "bot": s.bot,
             "name": s.name, "token_hash": s.token_hash} for s in seats])
        return table_id

    def create_rematch(self, old_id: int, new: TableRow) -> str | None:
        """Store ``new`` as the rematch of table ``old_id``, in one transaction with the
        old table's note of it (``rematch`` in its setup), unless that table has a rematch
        already: the code of the rematch (``new``'s or the earlier one's). None when the
        old table's setup changed between reading and writing it (try again); a code
        that is taken raises ``IntegrityError`` and stores nothing."""
        with self.engine.begin() as conn:
            current = conn.execute(select(self.tables.c.setup).where(
                self.tables.c.id == old_id)).scalar_one()
            setup = json.loads(current) if current else {}
            if setup.get("rematch"):
                return str(setup["rematch"])
            setup["rematch"] = new.code
            same = self.tables.c.setup.is_(None) if current is None \
                else self.tables.c.setup == current
            res = conn.execute(update(self.tables).where(self.tables.c.id == old_id, same)
                               .values(setup=json.dumps(setup)))
            if res.rowcount != 1:
                return None
            self._insert_table(conn, new.code, new.game, new.players, new.options, new.seed,
                               new.seats, new.owner, new.setup_json())
        return new.code

    def claim_seat(self, table_id: int, seat: int, name: str, token_hash: str) -> bool:
        """Give a free human seat a token; False if somebody took it first."""
        with self.engine.begin() as conn:
            res = conn.execute(update(self.seats).where(
                self.seats.c.table_id == table_id, self.seats.c.seat == seat,
                self.seats.c.kind == "human", self.seats.c.token_hash.is_(None),
            ).values(name=name, token_hash=token_hash))
            return res.rowcount == 1

    def set_status(self, table_id: int, status: str,
                   result: dict[str, Any] | None = None, setup: str | None = None) -> None:
        """The table's status and result; its ``setup`` too when given (the start and the
        end of a game note their time there)."""
        values: dict[str, Any] = {
            "status": status, "result": json.dumps(result) if result is not None else None}
        if setup is not None:
            values["setup"] = setup
        with self.engine.begin() as conn:
            conn.execute(update(self.tables).where(self.tables.c.id == table_id).values(
                **values))

    def append_action(self, table_id: int, index: int, seat: int, action: Any,
                      client_id: str | None = None) -> None:
        self.append_actions([(table_id, index, seat, action, client_id)])

    def append_actions(self, rows: list[ActionTuple]) -> None:
        """Insert action rows ``(table_id, index, seat, action, client_id)`` in one
        transaction: all are stored or none."""
        with self.engine.begin() as conn:
            conn.execute(insert(self.actions), action_values(rows))

    def delete_table(self, table_id: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(self.actions).where(self.actions.c.table_id == table_id))
            conn.execute(delete(self.seats).where(self.seats.c.table_id == table_id))
            conn.execute(delete(self.tables).where(self.tables.c.id == table_id))

    # -- reads ---------------------------------------------------------------
    def _row(self, r: Any, seats: list[SeatRow]) -> TableRow:
        setup = json.loads(r.setup) if r.setup else {}
        return TableRow(r.id, r.code, r.game, r.players, json.loads(r.options), int(r.seed),
                        r.status, r.created, r.owner or "",
                        json.loads(r.result) if r.result else None, seats,
                        bool(setup.get("practice")), setup.get("deck"), setup.get("position"),
                        setup.get("pace", "rules"), setup.get("started"), setup.get("ended"),
                        setup.get("rematch"), setup.get("rematch_of"))

    def _seats(self, conn: Any, table_id: int) -> list[SeatRow]:
        rows = conn.execute(select(self.seats).where(self.seats.c.table_id == table_id)
                            .order_by(self.seats.c.seat)).all()
        return [SeatRow(r.seat, r.kind, r.bot, r.name or "", r.token_hash) for r in rows]

    def load_table(self, code: str) -> TableRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(self.tables).where(self.tables.c.code == code)).first()
            if r is None:
                return None
            return self._row(r, self._seats(conn, r.id))

    def list_tables(self, statuses: tuple[str, ...] | None = None,
                    limit: int = 1000) -> list[TableRow]:
        """The latest ``limit`` tables (with ``statuses``), newest first, with their
        seats: one query (the tables joined with their seats)."""
        latest = select(self.tables).order_by(self.tables.c.id.desc()).limit(limit)
        if statuses:
            latest = latest.where(self.tables.c.status.in_(statuses))
        t = latest.subquery()
        s = self.seats
        q = (select(t, s.c.seat, s.c.kind, s.c.bot, s.c.name, s.c.token_hash)
             .select_from(t.outerjoin(s, s.c.table_id == t.c.id))
             .order_by(t.c.id.desc(), s.c.seat))
        out: list[TableRow] = []
        with self.engine.connect() as conn:
            for r in conn.execute(q):
                if not out or out[-1].id != r.id:
                    out.append(self._row(r, []))
                if r.seat is not None:
                    out[-1].seats.append(SeatRow(r.seat, r.kind, r.bot, r.name or "",
                                                 r.token_hash))
        return out

    def unfinished_codes(self) -> list[str]:
        """The codes of every waiting or playing table (a cluster node looks for tables
        whose owner is gone among them)."""
        with self.engine.connect() as conn:
            return list(conn.scalars(select(self.tables.c.code).where(
                self.tables.c.status.in_(("waiting", "playing")))))

    def count_unfinished(self, owner: str) -> int:
        """How many waiting or playing tables the client address ``owner`` created."""
        with self.engine.connect() as conn:
            return int(conn.scalar(select(func.count()).select_from(self.tables).where(
                self.tables.c.owner == owner,
                self.tables.c.status.in_(("waiting", "playing")))) or 0)

    def load_actions(self, table_id: int) -> list[ActionRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(self.actions).where(self.actions.c.table_id == table_id)
                                .order_by(self.actions.c.idx)).all()
            return [ActionRow(r.idx, r.seat, json.loads(r.action), r.client_id) for r in rows]


class ActionWriter:
    """Group commit of action rows, for the server's event loop.

    ``await writer.append(...)`` returns once the row is committed (or raises what the
    database raised for it). Rows that arrive in the same loop turn, or while a write
    is in flight, share one transaction. With a database server (PostgreSQL) the
    writes run in one worker thread, so that the loop serves other tables during the
    round trip; SQLite commits in WAL mode take microseconds and run in the loop itself
    (a thread would only add GIL hand-offs to every action's latency). One failing
    row (a duplicate index) does not fail its neighbours: a failed batch is retried
    row by row. The writer keeps one connection of its own: checking one out of the
    pool and back for every batch cost three times the insert and commit (86 against
    28 µs of CPU per one-row SQLite batch).
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._conn: Connection | None = None  # used by one thread at a time (see above)
        self._insert = insert(store.actions)
        self._pending: list[tuple[ActionTuple, asyncio.Future[None]]] = []
        self._busy = False
        self._pool: ThreadPoolExecutor | None = None
        self.threaded = not store.url.startswith("sqlite")
        #: Transactions and rows written so far (the load benchmark's batch size).
        self.batches = 0
        self.rows = 0

    async def append(self, table_id: int, index: int, seat: int, action: Any,
                     client_id: str | None = None) -> None:
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._pending.append(((table_id, index, seat, action, client_id), fut))
        if not self._busy:
            self._busy = True
            # next loop turn: every action that arrives in this turn joins the batch
            loop.call_soon(self._flush, loop)
        await fut

    def _flush(self, loop: asyncio.AbstractEventLoop) -> None:
        batch, self._pending = self._pending, []
        if not self.threaded:
            done: asyncio.Future[list[BaseException | None]] = loop.create_future()
            try:
                done.set_result(self._write([r for r, _ in batch]))
            except Exception as e:
                done.set_exception(e)
            self._done(loop, batch, done)
            return
        if self._pool is None:
            self._pool = ThreadPoolExecutor(1, thread_name_prefix="spieltisch-db")
        done = loop.run_in_executor(self._pool, self._write, [r for r, _ in batch])
        done.add_done_callback(lambda f: self._done(loop, batch, f))

    def _write(self, rows: list[ActionTuple]) -> list[BaseException | None]:
        self.batches += 1
        self.rows += len(rows)
        try:
            self._commit(rows)
            return [None] * len(rows)
        except Exception:
            if len(rows) == 1:
                raise
        out: list[BaseException | None] = []
        for row in rows:
            try:
                self._commit([row])
                out.append(None)
            except Exception as e:
                out.append(e)
        return out

    def _commit(self, rows: list[ActionTuple]) -> None:
        """Insert ``rows`` in one transaction on the writer's connection."""
        if self._conn is None:
            self._conn = self.store.engine.connect()
        conn = self._conn
        try:
            conn.execute(self._insert, action_values(rows))
            conn.commit()
        except Exception:
            # nothing half done stays behind, and a broken connection (a database
            # server restarted) is replaced by a fresh one from the pool next time
            self._conn = None
            with contextlib.suppress(Exception):
                conn.rollback()
            with contextlib.suppress(Exception):
                conn.close()
            raise

    def _done(self, loop: asyncio.AbstractEventLoop,
              batch: list[tuple[ActionTuple, asyncio.Future[None]]],
              f: asyncio.Future[list[BaseException | None]]) -> None:
        exc = f.exception() if not f.cancelled() else asyncio.CancelledError()
        results = [exc] * len(batch) if exc is not None else f.result()
        for (_, fut), e in zip(batch, results, strict=True):
            if fut.done():  # the waiter was cancelled (server shutting down)
                continue
            if e is None:
                fut.set_result(None)
            else:
                fut.set_exception(e)
        if self._pending and self.threaded:
            self._flush(loop)
        elif self._pending:  # cannot happen in the loop's own turn; kept for safety
            loop.call_soon(self._flush, loop)
        else:
            self._busy = False

    def close(self) -> None:
        """Wait for the write in flight (server shutdown)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        if self._conn is not None:
            self._conn.close()
            self._conn = None


__all__ = ["ActionRow", "ActionWriter", "SeatRow", "StorageError", "Store", "TableRow",
           "make_engine"]
