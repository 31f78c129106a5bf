"""The action write path under contention (issue 41, items 4 and 6).

Item 4, the fencing token: a table's ``epoch`` is raised by every runtime that opens it
for writing, and an action is stored only under the epoch its writer claimed; a stale
writer's append fails and stores nothing.

Item 6, one slow write stalls no other table: a row lock on one table in PostgreSQL
(``SELECT ... FOR UPDATE`` held by another connection) leaves every other table's acks
fast, and the locked table's action is acknowledged after the lock or refused with
``storage``, never lost; on SQLite another connection's ``BEGIN IMMEDIATE`` never stops
the event loop (pings answer while an action waits for the lock). Before: the single
group-commit writer stalled every table for the lock's length (PostgreSQL), and SQLite
committed in the loop, which froze for the busy timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError
from websockets.exceptions import ConnectionClosed

from spieltisch.server import ServerConfig
from spieltisch.server.store import FIRST_EPOCH, SeatRow, StaleOwner, StorageError, Store

from .conftest import PG_URL, require_postgres
from .helpers import TIMEOUT, Client, ServerThread, create_table, has_view, join, unique_prefix
from .test_db_faults import sqlite_write_lock

#: How long the other connection holds its lock (s); the server's write wait is 1 s.
LOCK = 3.0


def test_a_stale_epoch_stores_nothing(db_url: str) -> None:
    """Two runtimes' epochs of one table: once the second claimed it, the first one's
    append fails (``StaleOwner``) and stores nothing, alone in its group; the second
    reads every row the first stored before and writes on."""
    store = Store(db_url, unique_prefix())
    seats = [SeatRow(i, "human") for i in range(4)]
    try:
        tid = store.create_table("FENCE2", "president", 4, {}, 1, seats)
        other = store.create_table("OTHER2", "president", 4, {}, 1, seats)
        for t in (tid, other):
            store.set_status(t, "playing")

        async def run() -> None:
            w = store.writer
            await w.append(tid, FIRST_EPOCH, 0, 0, "a")  # the creator's claim
            opened = store.open_table("FENCE2")  # another runtime takes it over
            assert opened is not None
            row, actions = opened
            assert row.epoch == FIRST_EPOCH + 1
            assert [(a.index, a.action) for a in actions] == [(0, "a")]
            with pytest.raises(StaleOwner):
                await w.append(tid, FIRST_EPOCH, 1, 0, "stale")
            # in one group with rows of the current epoch: the stale row alone fails
            out = await asyncio.gather(w.append(tid, FIRST_EPOCH, 1, 1, "stale"),
                                       w.append(tid, row.epoch, 1, 2, "b"),
                                       w.append(other, FIRST_EPOCH, 0, 3, "c"),
                                       return_exceptions=True)
            assert isinstance(out[0], StaleOwner) and out[1:] == [None, None]
            with pytest.raises(StaleOwner):  # a runtime that claimed nothing
                await w.append(other, 0, 1, 0, "read-only")

        asyncio.run(run())
        assert [(a.index, a.seat, a.action) for a in store.load_actions(tid)] == [
            (0, 0, "a"), (1, 2, "b")]
        assert [(a.index, a.action) for a in store.load_actions(other)] == [(0, "c")]
        store.set_status(other, "over")
        assert store.open_table("OTHER2") is None  # a finished table is not claimed
        assert store.load_table("OTHER2").epoch == FIRST_EPOCH  # type: ignore[union-attr]
    finally:
        store.drop_all()
        store.close()


# -- one slow write stalls no other table ------------------------------------------------------
class Table:
    """Four people at a President table, each on a socket of their own."""

    def __init__(self, base: str, ws_base: str) -> None:
        self.code = create_table(base, "president", ["human"] * 4, players=4)["code"]
        self.tokens = [join(base, self.code, f"p{i}")["token"] for i in range(4)]
        self.ws_base = ws_base
        self.clients: list[Client] = []
        self.latest: list[dict[str, Any]] = []
        self.n = 0

    async def open(self) -> None:
        self.clients = [await Client.open(self.ws_base, self.code, t) for t in self.tokens]
        self.latest = [await c.until(has_view) for c in self.clients]

    async def send(self) -> tuple[int, dict[str, Any]]:
        """The seat that must act sends its first legal action; the seat and message."""
        seat = next(i for i in range(4) if self.latest[i].get("required"))
        self.n += 1
        msg = {"type": "action", "id": f"a{self.n}", "action": self.latest[seat]["legal"][0]}
        await self.clients[seat].send(msg)
        return seat, msg

    async def answer(self, seat: int) -> dict[str, Any]:
        return await self.clients[seat].until(lambda m: m["type"] in ("ack", "error"))

    async def sync(self) -> None:
        """Every seat's latest state."""
        for i, c in enumerate(self.clients):
            await c.send({"type": "state"})
            self.latest[i] = await c.until(lambda m: m["type"] == "state")

    async def act(self) -> tuple[dict[str, Any], float]:
        """One action to its answer, and the seconds it took."""
        sent = time.monotonic()
        seat, _ = await self.send()
        got = await self.answer(seat)
        took = time.monotonic() - sent
        await self.sync()
        return got, took

    async def close(self) -> None:
        for c in self.clients:
            await c.close()


class Locker(threading.Thread):
    """Another connection that holds a lock for ``LOCK`` seconds once started: a row lock
    on one table in PostgreSQL (``SELECT ... FOR UPDATE``), or SQLite's write lock (an
    operator's ``BEGIN IMMEDIATE``). ``held`` is set while it holds it."""

    def __init__(self, db_url: str, prefix: str, code: str) -> None:
        super().__init__(daemon=True)
        self.db_url, self.prefix, self.code = db_url, prefix, code
        self.held = threading.Event()
        self.until = 0.0

    def run(self) -> None:
        with self._lock():
            self.until = time.monotonic() + LOCK
            self.held.set()
            time.sleep(LOCK)
        self.held.clear()

    @contextlib.contextmanager
    def _lock(self) -> Iterator[None]:
        if self.db_url.startswith("sqlite"):
            with sqlite_write_lock(self.db_url):
                yield
            return
        import psycopg

        with psycopg.connect("host=127.0.0.1 port=5432 user=postgres dbname=test") as pg:
            pg.execute(f"SELECT id FROM {self.prefix}tables WHERE code = %s FOR UPDATE",
                       (self.code,))
            try:
                yield
            finally:
                pg.rollback()

    async def hold(self) -> float:
        """Start it and return once it holds the lock: until when (monotonic)."""
        self.start()
        while not self.held.is_set():
            await asyncio.sleep(0.01)
        return self.until


def stored_indices(cfg: ServerConfig, code: str) -> list[int]:
    """The indices of the actions stored for the table ``code``."""
    store = Store(cfg.db_url, cfg.table_prefix)
    try:
        row = store.load_table(code)
        assert row is not None
        return [a.index for a in store.load_actions(row.id)]
    finally:
        store.close()


async def resolve(table: Table, seat: int, msg: dict[str, Any],
                  first: dict[str, Any]) -> dict[str, Any]:
    """The locked table's action after the lock: acknowledged, or refused with
    ``storage`` (nothing changed) and then acknowledged when sent again."""
    if first["type"] == "error":
        assert first["code"] == "storage", first
        await table.sync()
        assert [m["index"] for m in table.latest] == [table.latest[0]["index"]] * 4
        await table.clients[seat].send(msg)
        first = await table.answer(seat)
    assert first["type"] == "ack" and first["id"] == msg["id"], first
    return first


def test_a_row_lock_on_one_table_stalls_no_other_table(tmp_path: Path) -> None:
    require_postgres()
    cfg = ServerConfig(db_url=PG_URL, table_prefix=unique_prefix(), grace_seconds=1000,
                       write_wait=1.0, messages_per_second=1000)
    try:
        with ServerThread(cfg) as s:
            tables = [Table(s.base, s.ws_base) for _ in range(4)]
            locked, others = tables[0], tables[1:]

            async def run() -> tuple[list[float], dict[str, Any]]:
                for t in tables:
                    await t.open()
                    await t.act()  # every table has one action stored
                waits: list[float] = []
                locker = Locker(cfg.db_url, cfg.table_prefix, locked.code)
                until = await locker.hold()
                seat, msg = await locked.send()  # waits for the lock

                async def play(t: Table) -> None:
                    while time.monotonic() < until:
                        got, took = await t.act()
                        assert got["type"] == "ack", got
                        waits.append(took)

                await asyncio.gather(*(play(t) for t in others))
                await asyncio.to_thread(locker.join)
                ack = await resolve(locked, seat, msg, await locked.answer(seat))
                for t in tables:
                    await t.close()
                return waits, ack

            waits, ack = asyncio.run(asyncio.wait_for(run(), TIMEOUT))
            print(f"\nother tables' acks during a {LOCK:.0f}-s row lock: n={len(waits)}, "
                  f"median {statistics.median(waits) * 1000:.1f} ms, "
                  f"max {max(waits) * 1000:.1f} ms")
            assert len(waits) >= 3 * len(others)  # they played on throughout
            assert statistics.median(waits) < 0.5
            assert stored_indices(cfg, locked.code) == [0, 1] and ack["index"] == 1
    finally:
        store = Store(cfg.db_url, cfg.table_prefix)
        store.drop_all()
        store.close()


def test_a_locked_sqlite_file_never_stops_the_event_loop(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 'locked.sqlite3'}"
    cfg = ServerConfig(db_url=db_url, table_prefix=unique_prefix(), grace_seconds=1000,
                       write_wait=1.0, messages_per_second=1000)
    with ServerThread(cfg) as s:
        table = Table(s.base, s.ws_base)
        watched = create_table(s.base, "hockey", ["human", "bot:easy"])["code"]

        async def run() -> tuple[list[float], dict[str, Any]]:
            await table.open()
            await table.act()
            spectator = await Client.open(s.ws_base, watched)
            await spectator.until(lambda m: m["type"] == "welcome")
            waits: list[float] = []
            locker = Locker(db_url, cfg.table_prefix, table.code)
            until = await locker.hold()
            seat, msg = await table.send()  # its write waits for the lock
            answer: asyncio.Task[dict[str, Any]] = asyncio.ensure_future(table.answer(seat))
            while time.monotonic() < until:
                sent = time.monotonic()
                await spectator.send({"type": "ping", "id": len(waits)})
                await spectator.until(lambda m: m["type"] == "pong")
                waits.append(time.monotonic() - sent)
                await asyncio.sleep(0.1)
            await asyncio.to_thread(locker.join)
            ack = await resolve(table, seat, msg, await answer)
            await spectator.close()
            await table.close()
            return waits, ack

        waits, ack = asyncio.run(asyncio.wait_for(run(), TIMEOUT))
        print(f"\npings while SQLite is locked: median {statistics.median(waits) * 1000:.1f} "
              f"ms, max {max(waits) * 1000:.1f} ms")
        assert len(waits) >= 5 and statistics.median(waits) < 0.5, waits
        assert stored_indices(cfg, table.code) == [0, 1] and ack["index"] == 1


def test_a_server_whose_table_was_claimed_elsewhere_reopens_it_from_the_log(
        db_url: str) -> None:
    """Another process claims a table a server of its own is serving and stores an action
    under its epoch. The server's next write is refused (``storage``, nothing stored);
    it stops serving that runtime, claims the table anew from the log and closes the
    client's socket with 1012; the client reconnects to a state that holds the other
    process's action too (not one behind the log), and plays on."""
    cfg = ServerConfig(db_url=db_url, table_prefix=unique_prefix(), grace_seconds=1000,
                       messages_per_second=1000)
    other = Store(db_url, cfg.table_prefix)
    try:
        with ServerThread(cfg) as s:
            table = Table(s.base, s.ws_base)

            async def run() -> tuple[dict[str, Any], int | None, dict[str, Any]]:
                await table.open()
                await table.act()  # index 0, by the server
                opened = other.open_table(table.code)
                assert opened is not None
                row, actions = opened
                assert [a.index for a in actions] == [0]
                seat = next(i for i in range(4) if table.latest[i].get("required"))
                await other.writer.append(row.id, row.epoch, 1, seat,
                                          table.latest[seat]["legal"][0])
                _, msg = await table.send()  # the server's runtime is one behind
                refused = await table.answer(seat)
                closed = None
                try:
                    while True:
                        await table.clients[seat].recv()
                except ConnectionClosed as e:
                    closed = e.rcvd.code if e.rcvd else None
                again = await Client.open(s.ws_base, table.code, table.tokens[seat])
                welcome = await again.until(lambda m: m["type"] == "welcome")
                for c in [*table.clients, again]:
                    with contextlib.suppress(Exception):
                        await c.close()
                return refused, closed, welcome

            refused, closed, welcome = asyncio.run(asyncio.wait_for(run(), TIMEOUT))
            assert (refused["type"], refused["code"]) == ("error", "storage")
            assert closed == 1012
            assert welcome["index"] == 2  # the other process's action is in its state
            row = other.load_table(table.code)
            assert row is not None and row.epoch == FIRST_EPOCH + 2  # claimed anew
            assert [a.index for a in other.load_actions(row.id)] == [0, 1]
    finally:
        other.drop_all()
        other.close()


# -- claims and the writer under faults (review of issue 41) ----------------------------------
PG_DSN = "host=127.0.0.1 port=5432 user=postgres dbname=test"


class RowLock(threading.Thread):
    """Another connection that holds ``SELECT ... FOR <mode>`` on one table's row
    (PostgreSQL) from ``with`` until the block ends."""

    def __init__(self, prefix: str, code: str, mode: str = "UPDATE") -> None:
        super().__init__(daemon=True)
        self.query = f"SELECT id FROM {prefix}tables WHERE code = %s FOR {mode}"
        self.code = code
        self.held = threading.Event()
        self.done = threading.Event()

    def run(self) -> None:
        import psycopg

        with psycopg.connect(PG_DSN) as pg:
            pg.execute(self.query, (self.code,))
            self.held.set()
            self.done.wait(TIMEOUT)
            pg.rollback()

    def __enter__(self) -> RowLock:
        self.start()
        assert self.held.wait(TIMEOUT)
        return self

    def __exit__(self, *_: object) -> None:
        self.done.set()
        self.join(TIMEOUT)


def test_a_claim_under_an_operators_row_lock_fails_after_the_wait() -> None:
    """``open_table`` while another connection holds the table's row ``FOR UPDATE``:
    it fails (``OperationalError``) after the store's write wait, claiming nothing,
    instead of waiting for good; after the lock it claims the table. Before: it waited
    as long as the lock was held."""
    require_postgres()
    store = Store(PG_URL, unique_prefix(), write_wait=0.3)
    try:
        tid = store.create_table("CLAIM6", "president", 4, {}, 1,
                                 [SeatRow(i, "human") for i in range(4)])
        store.set_status(tid, "playing")
        outcome: list[BaseException | None] = []

        def claim() -> None:
            try:
                store.open_table("CLAIM6")
                outcome.append(None)
            except Exception as e:
                outcome.append(e)

        with RowLock(store.prefix, "CLAIM6"):
            claiming = threading.Thread(target=claim, daemon=True)
            claiming.start()
            claiming.join(TIMEOUT / 2)  # the lock is held longer than that
            assert not claiming.is_alive(), "open_table waits for the lock for good"
        assert len(outcome) == 1 and isinstance(outcome[0], OperationalError), outcome
        opened = store.open_table("CLAIM6")
        assert opened is not None and opened[0].epoch == FIRST_EPOCH + 1  # one claim
    finally:
        store.drop_all()
        store.close()


def test_a_closed_writer_fails_its_waiters(db_url: str) -> None:
    """Appends that reach a writer whose threads are shut down (server shutdown) fail
    with ``StorageError`` at once, storing nothing; none waits for good and no lane
    stays counted as busy. Before: the writer made new threads after its close (or, with
    its pool shut down under it, left its waiters hanging and its only lane taken)."""
    store = Store(db_url, unique_prefix())
    try:
        tid = store.create_table("CLOSE5", "president", 4, {}, 1,
                                 [SeatRow(i, "human") for i in range(4)])
        store.set_status(tid, "playing")

        async def run() -> list[BaseException | None]:
            await store.writer.append(tid, FIRST_EPOCH, 0, 0, "kept")
            store.writer.close()
            return list(await asyncio.wait_for(asyncio.gather(
                store.writer.append(tid, FIRST_EPOCH, 1, 1, "late"),
                store.writer.append(tid, FIRST_EPOCH, 2, 2, "later"),
                return_exceptions=True), TIMEOUT))

        out = asyncio.run(run())
        assert [type(e) for e in out] == [StorageError, StorageError], out
        assert store.writer._in_flight == 0
        assert [a.action for a in store.load_actions(tid)] == ["kept"]
    finally:
        store.drop_all()
        store.close()


def waiting_claims(prefix: str) -> set[Any]:
    """When each claim of a ``prefix`` table that waits for a lock now began."""
    import psycopg

    with psycopg.connect(PG_DSN, autocommit=True) as pg:
        return {r[0] for r in pg.execute(
            "SELECT query_start FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND query LIKE %s AND query LIKE %s", (f"%{prefix}tables%", "%SET epoch%"))}


async def claims_tried(prefix: str, n: int) -> None:
    """Return once ``n`` claims of a ``prefix`` table have waited for a lock."""
    seen: set[Any] = set()
    while len(seen) < n:
        seen |= await asyncio.to_thread(waiting_claims, prefix)
        await asyncio.sleep(0.02)


def test_a_table_reopened_while_the_database_fails_is_served_again() -> None:
    """A server of its own finds its table claimed elsewhere (a stale write) and claims
    it anew, while another connection holds the table's row ``FOR SHARE`` (the claim
    fails after the write wait: a database error, not a broken log). The server tries
    again with back-off, never marks the table ``broken``; a client that connects
    meanwhile waits and gets the table (not ``no_table``) once the lock is gone, with
    the other process's action in its state, and the table plays on. Before: the first
    failed claim stored the live table as ``broken``, and a client connecting during
    the re-opening read ``no_table``."""
    require_postgres()
    cfg = ServerConfig(db_url=PG_URL, table_prefix=unique_prefix(), grace_seconds=1000,
                       write_wait=0.3, messages_per_second=1000)
    other = Store(PG_URL, cfg.table_prefix)
    try:
        with ServerThread(cfg) as s:
            table = Table(s.base, s.ws_base)

            async def run() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
                await table.open()
                await table.act()  # index 0, by the server
                opened = other.open_table(table.code)
                assert opened is not None
                row = opened[0]
                seat = next(i for i in range(4) if table.latest[i].get("required"))
                await other.writer.append(row.id, row.epoch, 1, seat,
                                          table.latest[seat]["legal"][0])
                with RowLock(cfg.table_prefix, table.code, "SHARE"):
                    await table.send()  # stale: the server re-opens the table
                    refused = await table.answer(seat)
                    await asyncio.wait_for(claims_tried(cfg.table_prefix, 2), TIMEOUT)
                    again = await Client.open(s.ws_base, table.code, table.tokens[seat])
                    await asyncio.wait_for(claims_tried(cfg.table_prefix, 2), TIMEOUT)
                welcome = await again.until(lambda m: m["type"] in ("welcome", "error"))
                later = welcome
                if welcome["type"] == "welcome" and welcome.get("required"):
                    await again.send({"type": "action", "id": "z", "action":
                                      welcome["legal"][0]})
                    later = await again.until(lambda m: m["type"] in ("ack", "error"))
                for c in [*table.clients, again]:
                    with contextlib.suppress(Exception):
                        await c.close()
                return refused, welcome, later

            refused, welcome, later = asyncio.run(asyncio.wait_for(run(), TIMEOUT))
            assert (refused["type"], refused["code"]) == ("error", "storage")
            assert (welcome["type"], welcome["index"]) == ("welcome", 2), welcome
            assert later["type"] == "ack" or not welcome.get("required"), later
            row = other.load_table(table.code)
            assert row is not None and row.status == "playing"
            assert row.epoch == FIRST_EPOCH + 2  # claimed once more, after the lock
    finally:
        other.drop_all()
        other.close()
