"""Persistence of tables, seats and the action log with SQLAlchemy 2.x.

The log is the truth: a table is its setup (game, players, options, seed) plus
the actions applied, in order. Every action row is committed before the action is
applied, acknowledged or pushed to anyone (``ActionWriter`` groups the rows of one
event-loop turn into one transaction), so a restarted server rebuilds each unfinished
table by replaying its log from the seed. Seat tokens are stored as SHA-256 hashes.

A table's ``epoch`` fences its log: the runtime that serves a table for writing claimed
it (a new table starts at epoch 1; ``open_table`` raises the epoch and reads the log in
one transaction), and an action row is stored only while the table's epoch is still the
one its writer claimed. A runtime whose epoch moved on (another node took the table
over) gets ``StaleOwner`` and must stop serving the table: it can never append to a
log that another runtime has read.

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
import threading
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
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import IntegrityError, OperationalError

from .accounts import define as define_accounts
from .ratings import define as define_ratings

if TYPE_CHECKING:
    from ..core.game import Game, State

T = TypeVar("T")


class StorageError(Exception):
    """An action could not be stored (the database failed); nothing was applied."""


class StaleOwner(StorageError):
    """The table was claimed by another runtime since this one claimed it (its epoch
    moved on), or its log already holds the index: nothing was stored, and this runtime
    must stop serving the table (the one with the current epoch serves it)."""


#: The epoch a new table is stored with: its creator's claim. Tables stored before
#: epochs have 0 until a server opens them; a runtime that claimed nothing (a finished
#: table rebuilt read-only) holds 0 and cannot write.
FIRST_EPOCH = 1

#: The longest (s) an action's transaction waits for a lock, or for any one statement,
#: before it fails for its table (PostgreSQL's ``lock_timeout`` and ``statement_timeout``,
#: SQLite's busy timeout): its player gets ``storage`` and may send it again.
WRITE_WAIT = 2.0


@dataclass
class SeatRow:
    seat: int
    kind: str  # "human" or "bot"
    bot: str | None = None
    name: str = ""
    token_hash: str | None = None
    #: The account of the person sitting here (``accounts``); None for a guest or a bot.
    account_id: int | None = None


@dataclass
class TableRow:
    id: int
    code: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    status: str  # "waiting", "playing", "over", "abandoned", "expired", "broken"
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
    #: The owner epoch this row was read or claimed with (``Store.open_table``): the
    #: fencing token its runtime writes actions under.
    epoch: int = 0
    #: The length bound an abandoned table stopped at (``TableRuntime.length_bound``).
    bound: int | None = None
    #: A rated table: its result changes the ratings of the accounts at it (``ratings``);
    #: a casual table (the default) changes nothing.
    rated: bool = False

    def first_state(self, game: Game) -> State:
        """The state before the first action: the position, else the deal from the seed
        (and the stacked deck)."""
        if self.position is not None:
            return game.state_from_position(self.position)
        return game.new_state(seed=self.seed, deck=self.deck)

    def setup_json(self) -> str | None:
        """The ``setup`` column: what a practice table started from, a pace other than
        the rule's, when the game started and ended, the rematch codes, and the length
        bound an abandoned table stopped at."""
        setup: dict[str, Any] = {}
        if self.practice:
            setup.update(practice=True, deck=self.deck, position=self.position)
        if self.pace != "rules":
            setup["pace"] = self.pace
        for key in ("started", "ended", "rematch", "rematch_of", "bound"):
            if getattr(self, key) is not None:
                setup[key] = getattr(self, key)
        if self.rated:
            setup["rated"] = True
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
        # "rematch" and "rematch_of" (codes), "bound" (an abandoned table's length bound);
        # null for none of them
        Column("setup", Text, nullable=True),
        # the owner epoch: raised by every runtime that opens the table for writing,
        # checked by every action's transaction (the fencing token)
        Column("epoch", Integer, nullable=False, server_default="0"),
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
        # the signed-in person who sits here (accounts); null for guests and bots
        Column("account_id", Integer, nullable=True, index=True),
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

    def __init__(self, url: str, prefix: str = "st_", threads: int = 4,
                 write_wait: float = WRITE_WAIT) -> None:
        self.url = url
        self.prefix = prefix
        self.engine = make_engine(url)
        self.metadata, self.tables, self.seats, self.actions = _schema(prefix)
        # the accounts' tables join the same schema (one MetaData, one migration chain)
        self.account_tables = define_accounts(self.metadata, prefix)
        from .passkeys import define as define_passkeys

        self.passkey_tables = define_passkeys(self.metadata, prefix)  # passkeys, challenges
        from .chat import define as define_chat  # here: chat.py needs texts, which needs us

        self.chat_tables = define_chat(self.metadata, prefix)
        self.rating_tables = define_ratings(self.metadata, prefix)  # ratings, leaves
        from .meeting import define as define_meeting  # here: meeting.py needs app, lobby

        self.waiting_table = define_meeting(self.metadata, prefix)  # the waiting lists
        # the schema is the migrations' (migrate.py): a new database gets it, an old one
        # is brought up to date
        from .migrate import upgrade

        upgrade(self.engine, prefix)
        self.writer = ActionWriter(self, threads, write_wait)
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
            return self.insert_table(conn, code, game, players, options, seed, seats,
                                     owner, setup)

    def insert_table(self, conn: Connection, code: str, game: str, players: int,
                     options: dict[str, Any], seed: int, seats: list[SeatRow], owner: str,
                     setup: str | None) -> int:
        """Store a new waiting table and its seats in ``conn``'s transaction; its id."""
        res = conn.execute(insert(self.tables).values(
            code=code, game=game, players=players, options=json.dumps(options),
            seed=str(seed), status="waiting", created=time.time(), owner=owner,
            setup=setup, epoch=FIRST_EPOCH))
        pk = res.inserted_primary_key
        assert pk is not None
        table_id = int(pk[0])
        conn.execute(insert(self.seats), [
            {"table_id": table_id, "seat": s.seat, "kind": s.kind, "bot": s.bot,
             "name": s.name, "token_hash": s.token_hash, "account_id": s.account_id}
            for s in seats])
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
            self.insert_table(conn, new.code, new.game, new.players, new.options, new.seed,
                              new.seats, new.owner, new.setup_json())
        return new.code

    def claim_seat(self, table_id: int, seat: int, name: str, token_hash: str,
                   account_id: int | None = None) -> bool:
        """Give a free human seat a token; False if somebody took it first."""
        with self.engine.begin() as conn:
            res = conn.execute(update(self.seats).where(
                self.seats.c.table_id == table_id, self.seats.c.seat == seat,
                self.seats.c.kind == "human", self.seats.c.token_hash.is_(None),
            ).values(name=name, token_hash=token_hash, account_id=account_id))
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
        transaction: all are stored or none. Unfenced (no epoch is checked): for tests and
        tools; the server appends through ``writer``."""
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
                        setup.get("rematch"), setup.get("rematch_of"), r.epoch,
                        setup.get("bound"), bool(setup.get("rated")))

    def _seats(self, conn: Any, table_id: int) -> list[SeatRow]:
        rows = conn.execute(select(self.seats).where(self.seats.c.table_id == table_id)
                            .order_by(self.seats.c.seat)).all()
        return [SeatRow(r.seat, r.kind, r.bot, r.name or "", r.token_hash, r.account_id)
                for r in rows]

    def open_table(self, code: str) -> tuple[TableRow, list[ActionRow]] | None:
        """Claim the unfinished table ``code`` for a runtime that will write its log: raise
        its epoch and read it with its log, in one transaction (None if it is not waiting
        or playing). The row's ``epoch`` is the claim. A write under an older epoch that
        committed first is in the log read; one that comes later is refused
        (``StaleOwner``): PostgreSQL's row lock orders the two, SQLite's write lock too.
        A lock held on the row longer than ``write_wait`` fails it (``OperationalError``)."""
        t = self.tables
        with self.engine.begin() as conn:
            if not self.writer.sqlite:  # an operator's lock on the row fails the claim after
                # the writer's wait, not never: the caller tries again (``Lobby._reopen``)
                conn.execute(text("SELECT set_config('lock_timeout', :ms, true)"),
                             {"ms": f"{self.writer.wait_ms}ms"})
            bumped = conn.execute(update(t).where(
                t.c.code == code, t.c.status.in_(("waiting", "playing")),
            ).values(epoch=t.c.epoch + 1))
            if bumped.rowcount != 1:
                return None
            r = conn.execute(select(t).where(t.c.code == code)).one()
            rows = conn.execute(select(self.actions).where(self.actions.c.table_id == r.id)
                                .order_by(self.actions.c.idx)).all()
            return (self._row(r, self._seats(conn, r.id)),
                    [ActionRow(a.idx, a.seat, json.loads(a.action), a.client_id)
                     for a in rows])

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
        q = (select(t, s.c.seat, s.c.kind, s.c.bot, s.c.name, s.c.token_hash,
                    s.c.account_id)
             .select_from(t.outerjoin(s, s.c.table_id == t.c.id))
             .order_by(t.c.id.desc(), s.c.seat))
        out: list[TableRow] = []
        with self.engine.connect() as conn:
            for r in conn.execute(q):
                if not out or out[-1].id != r.id:
                    out.append(self._row(r, []))
                if r.seat is not None:
                    out[-1].seats.append(SeatRow(r.seat, r.kind, r.bot, r.name or "",
                                                 r.token_hash, r.account_id))
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


class _Locked:
    """The row of a table another transaction holds locked (PostgreSQL): its rows are
    written apart, in a transaction that waits for the lock (``ActionWriter``)."""


LOCKED = _Locked()
Outcome = BaseException | _Locked | None
#: A row to write: the action tuple and the epoch its runtime claimed.
Fenced = tuple[ActionTuple, int]
Waiting = tuple[ActionTuple, int, asyncio.Future[None]]


class ActionWriter:
    """Group commit of action rows, fenced by epoch, off the event loop.

    ``await writer.append(...)`` returns once the row is committed, or raises what the
    database raised for it (``StaleOwner`` when the table's epoch moved on). Every
    transaction runs in a thread of the writer's, never in the loop: a locked or slow
    database stops no table's pings, clocks or bots. Rows that arrive while lanes are
    busy share the next transaction; a transaction first locks the rows of its tables
    (``FOR SHARE``) and checks each table's epoch, then inserts the rows of the tables
    whose epoch holds, and commits.

    One table's slow write stalls no other table. On PostgreSQL up to ``FAST_LANES``
    group transactions run at once and lock with ``SKIP LOCKED``: a table whose row
    another transaction holds (an operator's ``SELECT ... FOR UPDATE``, a long update)
    is left out of the group and written in a transaction of its own on another pool
    (``threads`` lanes), which waits for the lock at most ``write_wait`` seconds and
    then fails for that table only. SQLite has one writer at a time: one lane, whose
    ``BEGIN IMMEDIATE`` waits ``write_wait`` seconds at most for another writer. A
    group that failed for one row's sake (a duplicate index) is retried row by row, so
    that row fails no other. Each lane keeps its own connection: checking one out
    of the pool and back for every batch cost three times the insert and commit.
    """

    #: Group transactions in flight at once on PostgreSQL (SQLite: one).
    FAST_LANES = 2

    def __init__(self, store: Store, threads: int = 4, write_wait: float = WRITE_WAIT) -> None:
        self.store = store
        self.sqlite = store.url.startswith("sqlite")
        self.wait_ms = max(1, int(write_wait * 1000))
        self.lanes = 1 if self.sqlite else self.FAST_LANES
        self._threads = max(1, threads)
        self._pending: list[Waiting] = []
        self._scheduled = False
        self._in_flight = 0
        self._fast: ThreadPoolExecutor | None = None
        self._slow: ThreadPoolExecutor | None = None
        self._closed = False
        #: Each writer thread's own connection (``_connection``), and all of them (the
        #: lock guards the list and the counters below).
        self._local = threading.local()
        self._conns: list[Connection] = []
        self._conns_lock = threading.Lock()
        t = store.tables
        self._insert = insert(store.actions)
        self._epochs = select(t.c.id, t.c.epoch).where(t.c.id.in_(bindparam("ids",
                                                                            expanding=True)))
        #: Transactions and rows written so far (the load benchmark's batch size).
        self.batches = 0
        self.rows = 0

    async def append(self, table_id: int, epoch: int, index: int, seat: int, action: Any,
                     client_id: str | None = None) -> None:
        """Store one action row of a table whose runtime claimed ``epoch``."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._pending.append(((table_id, index, seat, action, client_id), epoch, fut))
        if not self._scheduled:
            self._scheduled = True
            # next loop turn: every action that arrives in this turn joins the batch
            loop.call_soon(self._flush, loop)
        await fut

    def _flush(self, loop: asyncio.AbstractEventLoop) -> None:
        self._scheduled = False
        if not self._pending or self._in_flight >= self.lanes:
            return  # a lane that ends flushes what waits then
        batch, self._pending = self._pending, []
        self._in_flight += 1
        try:
            done = loop.run_in_executor(self._pool("fast"), self._write,
                                        [(r, e) for r, e, _ in batch])
        except Exception as e:  # closed (server shutdown): its waiters fail, none hangs
            self._in_flight -= 1
            _fail(batch, e)
            return
        done.add_done_callback(lambda f: self._done(loop, batch, f, fast=True))

    def _pool(self, which: str) -> ThreadPoolExecutor:
        """The group lanes (``fast``) or the lanes that wait for a lock (``slow``);
        ``StorageError`` once the writer is closed."""
        if self._closed:
            raise StorageError("the server is shutting down: nothing more is stored")
        if which == "fast":
            if self._fast is None:
                self._fast = ThreadPoolExecutor(self.lanes, thread_name_prefix="spieltisch-db")
            return self._fast
        if self._slow is None:
            self._slow = ThreadPoolExecutor(self._threads,
                                            thread_name_prefix="spieltisch-db-wait")
        return self._slow

    def _done(self, loop: asyncio.AbstractEventLoop, batch: list[Waiting],
              f: asyncio.Future[list[Outcome]], fast: bool) -> None:
        if fast:
            self._in_flight -= 1
        exc = f.exception() if not f.cancelled() else asyncio.CancelledError()
        results: list[Outcome] = [exc] * len(batch) if exc is not None else f.result()
        locked: dict[int, list[Waiting]] = {}
        for item, outcome in zip(batch, results, strict=True):
            fut = item[2]
            if fut.done():  # the waiter was cancelled (server shutting down)
                continue
            if isinstance(outcome, _Locked):
                locked.setdefault(item[0][0], []).append(item)
            elif outcome is None:
                fut.set_result(None)
            else:
                fut.set_exception(outcome)
        for rows in locked.values():  # each table apart, waiting for its lock
            try:
                later = loop.run_in_executor(self._pool("slow"), self._write_waiting,
                                             [(r, e) for r, e, _ in rows])
            except Exception as e:
                _fail(rows, e)
                continue
            later.add_done_callback(functools.partial(self._waited, loop, rows))
        if fast and self._pending and not self._scheduled:
            self._flush(loop)

    def _waited(self, loop: asyncio.AbstractEventLoop, rows: list[Waiting],
                f: asyncio.Future[list[Outcome]]) -> None:
        self._done(loop, rows, f, fast=False)

    # -- in the writer's threads ------------------------------------------------------------
    def _write(self, rows: list[Fenced]) -> list[Outcome]:
        """A group transaction; after a failure that may be one row's (a duplicate index,
        a constraint), each row in a transaction of its own, so that it fails no other
        row. A failure of the database itself (locked, gone, too slow: an
        ``OperationalError``) fails every row at once: trying them one by one would only
        wait as long again for each."""
        try:
            return self._commit(rows, wait=False)
        except Exception as e:
            if len(rows) == 1 or isinstance(e, OperationalError):
                return [_failure(e)] * len(rows)
        out: list[Outcome] = []
        for row in rows:
            try:
                out.extend(self._commit([row], wait=False))
            except Exception as e:
                out.append(_failure(e))
        return out

    def _write_waiting(self, rows: list[Fenced]) -> list[Outcome]:
        """One table's rows whose row was locked: wait for the lock (``write_wait`` s)."""
        try:
            return self._commit(rows, wait=True)
        except Exception as e:
            return [_failure(e)] * len(rows)

    def _commit(self, rows: list[Fenced], wait: bool) -> list[Outcome]:
        """Check the epochs of the rows' tables and insert the rows of those whose epoch
        holds, in one transaction on this thread's connection; each row's outcome."""
        with self._conns_lock:  # lanes count from several threads
            self.batches += 1
            self.rows += len(rows)
        conn = self._connection()
        try:
            if self.sqlite:
                conn.exec_driver_sql("BEGIN IMMEDIATE")  # the write lock, then the check
            else:  # this transaction only: a lock or statement that waits too long fails
                conn.execute(text("SELECT set_config('lock_timeout', :ms, true), "
                                  "set_config('statement_timeout', :ms, true)"),
                             {"ms": f"{self.wait_ms}ms"})
            ids = sorted({row[0] for row, _ in rows})
            query = self._epochs if self.sqlite else \
                self._epochs.with_for_update(read=True, skip_locked=not wait)
            epochs = {tid: held for tid, held in conn.execute(query, {"ids": ids})}
            outcomes: list[Outcome] = []
            ok = []
            for row, epoch in rows:
                held = epochs.get(row[0])
                if held is None and not wait and not self.sqlite:
                    outcomes.append(LOCKED)  # locked by another transaction (or gone)
                elif held is None:
                    outcomes.append(StaleOwner(f"table {row[0]} is no longer stored"))
                elif held != epoch or epoch < FIRST_EPOCH:
                    outcomes.append(StaleOwner(
                        f"table {row[0]} was taken over (epoch {held}, this runtime's "
                        f"{epoch})"))
                else:
                    outcomes.append(None)
                    ok.append(row)
            if ok:
                conn.execute(self._insert, action_values(ok))
            if self.sqlite:
                conn.exec_driver_sql("COMMIT")
            else:
                conn.commit()
            return outcomes
        except Exception:
            # nothing half done stays behind; a broken connection (a database server
            # restarted) is replaced by a fresh one next time. SQLite's stays when its
            # rollback works: closing it could checkpoint the write-ahead log, and a
            # full disk would look empty again
            kept = False
            with contextlib.suppress(Exception):
                if self.sqlite:  # (BEGIN IMMEDIATE may have failed: no transaction)
                    if getattr(conn.connection.driver_connection, "in_transaction", True):
                        conn.exec_driver_sql("ROLLBACK")
                    kept = True
                else:
                    conn.rollback()
            if not kept:
                self._local.conn = None
                self._discard(conn)
            raise

    def _connection(self) -> Connection:
        """This thread's connection (SQLite's: autocommit, the writer says BEGIN and
        COMMIT itself; waits ``write_wait`` for the write lock)."""
        conn: Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self.store.engine.connect()
            if self.sqlite:
                conn = conn.execution_options(isolation_level="AUTOCOMMIT")
                conn.exec_driver_sql(f"PRAGMA busy_timeout = {self.wait_ms}")
            self._local.conn = conn
            with self._conns_lock:
                self._conns.append(conn)
        return conn

    def _discard(self, conn: Connection) -> None:
        """Close a writer connection for good (its settings never go back to the pool)."""
        with self._conns_lock:
            if conn in self._conns:
                self._conns.remove(conn)
        with contextlib.suppress(Exception):
            conn.invalidate()
        with contextlib.suppress(Exception):
            conn.close()

    def close(self) -> None:
        """Wait for the writes in flight (server shutdown); later appends fail."""
        self._closed = True
        for pool in (self._fast, self._slow):
            if pool is not None:
                pool.shutdown(wait=True)
        self._fast = self._slow = None
        for conn in list(self._conns):
            self._discard(conn)


def _fail(batch: list[Waiting], e: BaseException) -> None:
    """Fail every waiter of ``batch`` still waiting with ``e``."""
    for _, _, fut in batch:
        if not fut.done():
            fut.set_exception(e)


def _failure(e: BaseException) -> BaseException:
    """What a row of a failed transaction reports: its index already in the log (the
    primary key) means the log moved on under this runtime (``StaleOwner``); anything
    else as it was raised."""
    if isinstance(e, IntegrityError) and _duplicate(e):
        stale = StaleOwner("the log already holds this index")
        stale.__cause__ = e
        return stale
    return e


def _duplicate(e: IntegrityError) -> bool:
    """A unique or primary key violation (PostgreSQL's SQLSTATE 23505, SQLite's
    constraint error codes), not another constraint (a trigger's refusal)."""
    orig = e.orig
    return getattr(orig, "sqlstate", None) == "23505" or getattr(
        orig, "sqlite_errorname", None) in ("SQLITE_CONSTRAINT_PRIMARYKEY",
                                            "SQLITE_CONSTRAINT_UNIQUE")


__all__ = ["FIRST_EPOCH", "WRITE_WAIT", "ActionRow", "ActionWriter", "SeatRow", "StaleOwner",
           "StorageError", "Store", "TableRow", "make_engine"]
