"""The database misbehaving (issue 21): tables that no longer load, writes that fail, a
slow or locked database, a full disk and a data directory that cannot be written.

Storage tests run on SQLite and on PostgreSQL (127.0.0.1:5432, a database of their own
made and dropped by the ``pg_url`` fixture). Without PostgreSQL they are skipped, unless
``SPIELTISCH_REQUIRE_POSTGRES=1``: then they fail.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import resource
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import event

from spieltisch.server import ServerConfig
from spieltisch.server.migrate import drop_version_table
from spieltisch.server.store import SeatRow, Store

from .conftest import require_postgres
from .helpers import TIMEOUT, Client, ServerThread, create_table, has_view, join, unique_prefix
from .test_crash import SERVING, start_serve

PG = "host=127.0.0.1 port=5432 user=postgres"


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    """A PostgreSQL database of this module's own (its connections may be cut at will)."""
    require_postgres()
    import psycopg

    name = f"spt_faults_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(f"{PG} dbname=test", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    finally:
        with psycopg.connect(f"{PG} dbname=test", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'faults.sqlite3'}"
    return str(request.getfixturevalue("pg_url"))


def cut_connections(pg_url: str) -> int:
    """Terminate every connection to the database of ``pg_url`` (the server's); how many."""
    import psycopg

    name = pg_url.rsplit("/", 1)[1]
    with psycopg.connect(f"{PG} dbname=test", autocommit=True) as admin:
        rows = admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                             "WHERE datname = %s AND pid <> pg_backend_pid()", (name,)).fetchall()
    return len(rows)


def status(base: str, code: str) -> httpx.Response:
    return httpx.get(f"{base}/api/tables/{code}", timeout=TIMEOUT)


# -- 1. a table that cannot be rebuilt never stops the server -----------------------------------
def test_tables_that_cannot_be_rebuilt_are_broken_and_the_rest_served(db_url: str) -> None:
    cfg = ServerConfig(db_url=db_url, table_prefix=unique_prefix(), grace_seconds=1000)
    store = Store(cfg.db_url, cfg.table_prefix)
    seats = [SeatRow(i, "human", name=f"p{i}", token_hash=f"{i}" * 64) for i in range(4)]
    # stored by a server that took NaN for an option, and by one with other options
    nan = store.create_table("NANNAN", "hoax", 4, {"first_player": -1,
                                                   "reaction_seconds": math.nan}, 1, seats)
    store.create_table("INFINF", "hood_politix", 4, {"move_seconds": math.inf}, 1,
                             [SeatRow(i, "human") for i in range(4)])
    odd = store.create_table("OPTION", "president", 4, {"no_such_option": 1}, 1, seats)
    bad_log = store.create_table("BADLOG", "president", 4, {}, 1, seats)
    good = store.create_table("GOOD22", "president", 4, {}, 1, seats)
    for tid in (nan, odd, bad_log, good):
        store.set_status(tid, "playing")
    store.append_action(bad_log, 0, 0, "no such action")
    store.close()
    try:
        with ServerThread(cfg) as s:
            listed = httpx.get(s.base + "/api/tables", timeout=TIMEOUT)
            assert listed.status_code == 200
            assert [t["code"] for t in listed.json()] == ["GOOD22"]
            for code in ("NANNAN", "INFINF", "OPTION", "BADLOG"):
                r = status(s.base, code)
                assert r.status_code == 409 and r.json()["error"] == "broken", code
            assert status(s.base, "GOOD22").json()["status"] == "playing"
        store = Store(cfg.db_url, cfg.table_prefix)
        assert {r.code: r.status for r in store.list_tables()} == {
            "NANNAN": "broken", "INFINF": "broken", "OPTION": "broken", "BADLOG": "broken",
            "GOOD22": "playing"}
    finally:
        store.drop_all()
        store.close()


def test_a_database_from_before_practice_tables_gets_their_column(db_url: str) -> None:
    prefix = unique_prefix()
    old = Store(db_url, prefix)
    try:
        with old.engine.begin() as conn:  # as the tables were made before issue 21
            conn.exec_driver_sql(f"ALTER TABLE {prefix}tables DROP COLUMN setup")
            drop_version_table(conn, prefix)  # and before migrations
        old.close()
        store = Store(db_url, prefix)  # adds the column
        tid = store.create_table("OLD234", "hockey", 2, {}, 5, [SeatRow(0, "human"),
                                                             SeatRow(1, "bot", "easy")])
        row = store.load_table("OLD234")
        assert row is not None and row.id == tid and (row.seed, row.practice) == (5, False)
        store.close()
    finally:
        old = Store(db_url, prefix)
        old.drop_all()
        old.close()


# -- 5. a failed write is an error the player can retry; bots try again ---------------------------
def test_a_failed_action_write_is_an_error_and_the_same_id_goes_through_later(
        pg_url: str) -> None:
    cfg = ServerConfig(db_url=pg_url, table_prefix=unique_prefix(), grace_seconds=1000)
    with ServerThread(cfg) as s:
        code = create_table(s.base, "president", ["human"] * 4, players=4, seed=5)["code"]
        tokens = [join(s.base, code, f"p{i}")["token"] for i in range(4)]

        async def run() -> None:
            clients = [await Client.open(s.ws_base, code, t) for t in tokens]
            latest = [await c.until(has_view) for c in clients]

            async def act(msg_id: str) -> dict[str, Any]:
                seat = next(i for i in range(4) if latest[i].get("required"))
                await clients[seat].send({"type": "action", "id": msg_id,
                                          "action": latest[seat]["legal"][0]})
                return await clients[seat].until(lambda m: m["type"] in ("ack", "error"))

            async def sync() -> None:  # every seat's latest update
                for i, c in enumerate(clients):
                    await c.send({"type": "state"})
                    latest[i] = await c.until(lambda m: m["type"] == "state")

            assert (await act("a1"))["index"] == 0
            await sync()
            assert cut_connections(pg_url) >= 1  # the writer's connection among them
            failed = await act("a2")
            assert failed["type"] == "error" and failed["code"] == "storage"
            assert failed["id"] == "a2"
            await sync()
            assert [m["index"] for m in latest] == [1] * 4  # nothing changed
            again = await act("a2")
            assert again == {"type": "ack", "id": "a2", "index": 1}
            seat = next(i for i in range(4) if clients[i].received[-1] is again)
            await clients[seat].send({"type": "ping", "id": "alive"})
            assert await clients[seat].until(lambda m: m["type"] == "pong") == {
                "type": "pong", "id": "alive"}
            for c in clients:
                await c.close()

        asyncio.run(run())


@contextlib.contextmanager
def refused_writes(db_url: str, prefix: str, seat: int) -> Iterator[None]:
    """The database refuses to store actions of ``seat`` (a trigger raises an error)."""
    sqlite = db_url.startswith("sqlite")
    store = Store(db_url, prefix)
    create = ([f"CREATE TRIGGER {prefix}refuse BEFORE INSERT ON {prefix}actions "
               f"WHEN NEW.seat = {seat} BEGIN SELECT RAISE(ABORT, 'refused'); END"] if sqlite
              else [f"CREATE FUNCTION {prefix}refuse() RETURNS trigger AS $$ BEGIN "
                    f"IF NEW.seat = {seat} THEN RAISE EXCEPTION 'refused'; END IF; "
                    "RETURN NEW; END $$ LANGUAGE plpgsql",
                    f"CREATE TRIGGER {prefix}refuse BEFORE INSERT ON {prefix}actions "
                    f"FOR EACH ROW EXECUTE FUNCTION {prefix}refuse()"])
    drop = ([f"DROP TRIGGER {prefix}refuse"] if sqlite
            else [f"DROP TRIGGER {prefix}refuse ON {prefix}actions",
                  f"DROP FUNCTION {prefix}refuse()"])
    try:
        with store.engine.begin() as conn:
            for sql in create:
                conn.exec_driver_sql(sql)
        yield
    finally:
        with store.engine.begin() as conn:
            for sql in drop:
                conn.exec_driver_sql(sql)
        store.close()


def test_a_bot_whose_move_cannot_be_stored_tries_again(db_url: str) -> None:
    """The bot's first move after the table wakes it fails: the table must not stall."""
    cfg = ServerConfig(db_url=db_url, table_prefix=unique_prefix(), grace_seconds=1000)
    with ServerThread(cfg) as s:
        code = create_table(s.base, "hockey", ["human", "bot:easy"], seed=4)["code"]
        with refused_writes(db_url, cfg.table_prefix, seat=1):
            token = join(s.base, code)["token"]  # the table starts

            async def first_moves() -> int:
                me = await Client.open(s.ws_base, code, token)
                view = await me.until(has_view)
                if view["required"]:  # the human's move wakes the bot
                    await me.send({"type": "action", "id": 1, "action": view["legal"][0]})
                    await me.until(lambda m: m["type"] == "ack")
                await asyncio.sleep(1.5)  # the bot tried, and tried again
                await me.close()
                return int(view["required"])

            moved = asyncio.run(first_moves())
            assert status(s.base, code).json()["actions"] == moved  # the bot could not
        give_up = time.monotonic() + TIMEOUT
        while status(s.base, code).json()["actions"] == moved:  # the database is back
            assert time.monotonic() < give_up, "the bot never tried again"
            time.sleep(0.05)
        store = Store(db_url, cfg.table_prefix)
        try:
            row = store.load_table(code)
            assert row is not None
            assert [a.seat for a in store.load_actions(row.id)][moved] == 1  # the bot's move
        finally:
            store.close()


# -- 6. a slow database stops no table ----------------------------------------------------------
@contextlib.contextmanager
def sqlite_write_lock(db_url: str) -> Iterator[None]:
    """Hold SQLite's write lock from another connection (an operator's ``BEGIN
    IMMEDIATE``): other writers wait, readers of a WAL database go on."""
    conn = sqlite3.connect(db_url.removeprefix("sqlite:///"), isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        conn.execute("ROLLBACK")
        conn.close()


@contextlib.contextmanager
def locked(db_url: str, prefix: str) -> Iterator[None]:
    """Hold the lock other writers wait for: PostgreSQL's table lock on the tables, which
    stops readers too, or SQLite's write lock (readers of a WAL database go on)."""
    if db_url.startswith("sqlite"):
        with sqlite_write_lock(db_url):
            yield
        return
    import psycopg

    with psycopg.connect(f"{PG} dbname={db_url.rsplit('/', 1)[1]}") as pg:
        pg.execute(f"LOCK TABLE {prefix}tables IN ACCESS EXCLUSIVE MODE")
        try:
            yield
        finally:
            pg.rollback()


def test_a_locked_database_does_not_hold_up_other_tables(db_url: str) -> None:
    cfg = ServerConfig(db_url=db_url, table_prefix=unique_prefix(), grace_seconds=1000)
    with ServerThread(cfg) as s:
        code = create_table(s.base, "hockey", ["human", "human"])["code"]
        token = join(s.base, code)["token"]
        answers: dict[str, int] = {}

        def lobby_work() -> None:  # each waits for the lock
            answers["create"] = httpx.post(s.base + "/api/tables", json={"game": "hockey"},
                                           timeout=TIMEOUT).status_code
            if not db_url.startswith("sqlite"):
                answers["list"] = httpx.get(s.base + "/api/tables",
                                            timeout=TIMEOUT).status_code

        async def pings() -> list[float]:
            me = await Client.open(s.ws_base, code, token)
            await me.until(lambda m: m["type"] == "welcome")
            waits = []
            for i in range(10):
                sent = time.monotonic()
                await me.send({"type": "ping", "id": i})
                await me.until(lambda m: m["type"] == "pong")
                waits.append(time.monotonic() - sent)
                await asyncio.sleep(0.1)
            await me.close()
            return waits

        with locked(db_url, cfg.table_prefix):
            worker = threading.Thread(target=lobby_work)
            worker.start()
            time.sleep(0.3)  # the lobby's request is waiting for the lock
            waits = asyncio.run(pings())
            assert "create" not in answers  # still waiting: the lock was held throughout
        worker.join(TIMEOUT)
        assert max(waits) < 1.0, waits
        assert answers["create"] == 201
        assert answers.get("list", 200) == 200


def test_the_list_of_tables_is_one_query(db_url: str) -> None:
    store = Store(db_url, unique_prefix())
    try:
        for i in range(12):
            tid = store.create_table(f"T{i:05d}", "hockey", 2, {}, i,
                                     [SeatRow(0, "human", name=f"a{i}"), SeatRow(1, "bot", "easy")])
            store.set_status(tid, "over" if i % 3 else "expired", {"winner": 0} if i % 3 else None)
        statements: list[str] = []
        event.listen(store.engine, "before_cursor_execute",
                     lambda *args: statements.append(args[2]))
        rows = store.list_tables(("over",), limit=5)
        assert len(statements) == 1
        assert [r.code for r in rows] == ["T00011", "T00010", "T00008", "T00007", "T00005"]
        assert [[(s.seat, s.kind, s.name) for s in r.seats] for r in rows] == [
            [(0, "human", f"a{int(r.code[1:])}"), (1, "bot", "")] for r in rows]
    finally:
        store.drop_all()
        store.close()


# -- 9. a full disk, an unwritable data directory ---------------------------------------------
def start_limited(args: list[str], log: Path, limit: int) -> tuple[subprocess.Popen[bytes], int]:
    """``start_serve`` with no file of the server growing past ``limit`` bytes."""
    start = log.stat().st_size
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "spieltisch.cli.main", "serve", "--port", "0", *args],
            stdout=out, stderr=subprocess.STDOUT, preexec_fn=_file_size_limit(limit),
            env={**unmeasured(), "PYTHONUNBUFFERED": "1"})
    give_up = time.monotonic() + TIMEOUT
    while (found := SERVING.search(log.read_bytes()[start:].decode())) is None:
        assert proc.poll() is None and time.monotonic() < give_up, log.read_text()
        time.sleep(0.05)
    port = int(found[1])
    while True:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=5).status_code == 200:
                return proc, port
        assert proc.poll() is None and time.monotonic() < give_up, log.read_text()
        time.sleep(0.05)


def unmeasured() -> dict[str, str]:
    """The environment without coverage's variables: a process whose files may not grow
    could not write its coverage data (``scripts/test.sh`` measures subprocesses)."""
    return {k: v for k, v in os.environ.items() if not k.startswith("COVERAGE_")}


def _file_size_limit(limit: int) -> Any:
    """A ``preexec_fn``: files of the process may not grow past ``limit`` bytes (writes
    past it fail as on a full disk; Python ignores the SIGXFSZ signal that comes along)."""
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


@pytest.mark.waits  # no time measured: servers started, stopped and restarted
def test_a_full_disk_during_play_loses_no_acknowledged_action(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'full.sqlite3'}"
    log = tmp_path / "server.log"
    args = ["--db", db, "--grace", "1000", "--bot-timing", "0", "--messages-per-second", "1000"]
    proc, port = start_serve(args, log)  # to set up the table on a disk with room
    base, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    code = create_table(base, "president", ["human"] * 4, players=4, seed=3)["code"]
    tokens = [join(base, code, f"p{i}")["token"] for i in range(4)]
    proc.terminate()
    proc.wait(TIMEOUT)
    size = sum(p.stat().st_size for p in tmp_path.glob("full.sqlite3*"))
    # room for some 20 more commits in the write-ahead log, then the disk is "full"
    proc, port = start_limited(args, log, size + 160_000)
    base, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    try:

        async def play_until_full() -> tuple[int, dict[str, Any]]:
            clients = [await Client.open(ws, code, t) for t in tokens]
            latest = [await c.until(has_view) for c in clients]
            acks = 0
            while True:
                seat = next(i for i in range(4) if latest[i].get("required"))
                await clients[seat].send({"type": "action", "id": f"m{acks}",
                                          "action": latest[seat]["legal"][0]})
                reply = await clients[seat].until(lambda m: m["type"] in ("ack", "error"))
                if reply["type"] == "error":
                    break
                assert reply == {"type": "ack", "id": f"m{acks}", "index": acks}
                acks += 1
                for i, c in enumerate(clients):
                    latest[i] = await c.until(lambda m: m["type"] == "update")
            # reads go on: a fresh state, a new spectator
            await clients[0].send({"type": "state"})
            state = await clients[0].until(lambda m: m["type"] == "state")
            watcher = await Client.open(ws, code, None)
            welcome = await watcher.until(lambda m: m["type"] == "welcome")
            assert state["index"] == welcome["index"] == acks
            for c in [*clients, watcher]:
                await c.close()
            return acks, reply

        acks, refused = asyncio.run(play_until_full())
        assert acks >= 5
        assert refused["code"] == "storage" and refused["id"] == f"m{acks}"
        assert status(base, code).json()["actions"] == acks
        assert httpx.get(base + "/api/tables", timeout=TIMEOUT).status_code == 200
        created = httpx.post(base + "/api/tables", json={"game": "hockey"}, timeout=TIMEOUT)
        assert (created.status_code, created.json()["error"]) == (503, "unavailable")
    finally:
        proc.kill()
        proc.wait(TIMEOUT)
    # after a crash, on a disk with room again: every acknowledged action is there
    proc, port = start_serve(args, log)
    try:
        again = status(f"http://127.0.0.1:{port}", code).json()
        assert (again["status"], again["actions"]) == ("playing", acks)
    finally:
        proc.terminate()
        proc.wait(TIMEOUT)
    assert "Traceback" not in log.read_text()


@contextlib.contextmanager
def unwritable(folder: Path) -> Iterator[None]:
    """``folder`` that nobody may write to, root included (immutable, ``chattr +i``)."""
    if os.geteuid() == 0:
        made = subprocess.run(["chattr", "+i", str(folder)], capture_output=True)
        if made.returncode != 0:
            pytest.skip(f"cannot make a folder immutable here: {made.stderr!r}")
    else:
        folder.chmod(0o500)
    try:
        yield
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
        else:
            folder.chmod(0o700)


def serve_fails(args: list[str], env: dict[str, str] | None = None,
                limit: int | None = None) -> str:
    """Run ``spieltisch serve ARGS``, which must exit with status 2; what it printed."""
    proc = subprocess.run(
        [sys.executable, "-m", "spieltisch.cli.main", "serve", "--port", "0", *args],
        capture_output=True, text=True, timeout=TIMEOUT,
        env={**(os.environ if limit is None else unmeasured()), **(env or {})},
        preexec_fn=None if limit is None else _file_size_limit(limit))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    return proc.stderr.strip()


def test_an_unwritable_data_directory_is_one_clear_error(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'old.sqlite3'}")  # a database from before
    store.close()
    with unwritable(tmp_path):
        said = serve_fails([], {"XDG_DATA_HOME": str(tmp_path / "data")})
        assert said.startswith(f"error: cannot create the data directory {tmp_path}/data")
        said = serve_fails(["--db", f"sqlite:///{tmp_path / 'old.sqlite3'}"])
        assert said == (f"error: cannot use the database sqlite:///{tmp_path}/old.sqlite3: "
                        "(sqlite3.OperationalError) unable to open database file (can this "
                        f"user write to {tmp_path}, and is there room on its disk?)")


def test_a_full_disk_at_start_is_one_clear_error(tmp_path: Path) -> None:
    said = serve_fails(["--db", f"sqlite:///{tmp_path / 'new.sqlite3'}"], limit=8192)
    assert said == (f"error: cannot use the database sqlite:///{tmp_path}/new.sqlite3: "
                    "(sqlite3.OperationalError) disk I/O error (can this user write to "
                    f"{tmp_path}, and is there room on its disk?)")
