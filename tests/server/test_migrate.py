"""The store's schema migrations (``spieltisch.server.migrate``) on SQLite and PostgreSQL.

The migrations make exactly the schema the store's queries use; a database made by the
code before migrations (``data/store-before-migrations.json``: its DDL and a game in
progress) is
taken over and its game played on; nodes that start at the same moment on a new
PostgreSQL database make the schema once, without an error.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine

from spieltisch.server import migrate
from spieltisch.server.store import Store, make_engine

from .helpers import unique_prefix

#: The newest revision (``migrations/versions``): a new revision changes this line.
NEWEST = "r0007"

LEGACY = json.loads((Path(__file__).parent / "data" / "store-before-migrations.json")
                    .read_text())


def test_the_migrations_make_the_schema_the_store_queries(db_url: str) -> None:
    store = Store(db_url, unique_prefix())
    try:
        assert migrate.describe(store.engine, store.prefix) == {
            "current": NEWEST, "head": NEWEST, "up_to_date": True}
        with store.engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={
                "version_table": f"{store.prefix}alembic_version",
                # other tests' stores share the PostgreSQL database
                "include_name": lambda name, kind, _: (kind != "table"
                                                       or name.startswith(store.prefix))})
            assert compare_metadata(context, store.metadata) == []
        Store(db_url, store.prefix).close()  # a second start changes nothing
        assert migrate.current(store.engine, store.prefix) == NEWEST
    finally:
        store.drop_all()
        store.close()


def test_a_database_made_before_migrations_is_taken_over_and_played_on(
        db_url: str) -> None:
    from spieltisch.server.app import Lobby
    from spieltisch.server.config import ServerConfig

    prefix = unique_prefix()
    engine = make_engine(db_url)
    with engine.begin() as conn:
        dialect = conn.dialect.name
        for statement in LEGACY["ddl"][dialect] + LEGACY["rows"]:
            conn.execute(text(statement.replace(LEGACY["prefix"], prefix)))
    assert migrate.current(engine, prefix) is None
    legacy = _actions(engine, prefix)
    assert len(legacy) == 12
    cfg = ServerConfig(db_url=db_url, table_prefix=prefix, time_scale=0.0)

    async def run() -> None:
        lobby = Lobby(cfg)
        try:
            assert migrate.current(lobby.store.engine, prefix) == NEWEST
            assert await lobby.recover() == 1
            rt = lobby.tables["OLDGAM"]
            assert rt._driver is not None
            await asyncio.wait_for(asyncio.shield(rt._driver), 300)
            assert rt.status == "over"
            stored = [(r.seat, r.action) for r in lobby.store.load_actions(rt.row.id)]
            assert stored[:12] == legacy and len(stored) > 12
            assert stored == [(s, a) for s, a in rt.log]
            await lobby.close()
        finally:
            lobby.store.drop_all()

    asyncio.run(run())
    engine.dispose()


def test_a_store_at_r0001_gets_the_owner_epoch_and_its_tables_are_claimed(
        db_url: str) -> None:
    """A store at the first revision with a game in progress: the upgrade adds the
    owner epoch (0 for the stored table, nothing else changed), and opening the table
    for writing claims it (epoch 1) with its whole log."""
    from spieltisch.server.store import SeatRow

    prefix = unique_prefix()
    engine = make_engine(db_url)
    migrate.upgrade(engine, prefix, "r0001")
    assert migrate.current(engine, prefix) == "r0001"
    with engine.begin() as conn:
        conn.execute(text(f"INSERT INTO {prefix}tables (id, code, game, players, options, "
                          "seed, status, created, owner) VALUES (7, 'EPOCH2', 'president', "
                          "4, '{}', '5', 'playing', 0, '')"))
        for i in range(4):
            conn.execute(text(f"INSERT INTO {prefix}seats (table_id, seat, kind, name) "
                              f"VALUES (7, {i}, 'human', '')"))
        conn.execute(text(f"INSERT INTO {prefix}actions (table_id, idx, seat, action) "
                          "VALUES (7, 0, 0, '1')"))
    store = Store(db_url, prefix)  # upgrades to the newest revision
    try:
        assert migrate.current(engine, prefix) == NEWEST
        row = store.load_table("EPOCH2")
        assert row is not None and row.epoch == 0 and row.status == "playing"
        assert row.seats == [SeatRow(i, "human") for i in range(4)]
        opened = store.open_table("EPOCH2")
        assert opened is not None
        assert opened[0].epoch == 1 and [(a.index, a.action) for a in opened[1]] == [(0, 1)]
    finally:
        store.drop_all()
        store.close()
        engine.dispose()


def _actions(engine: Engine, prefix: str) -> list[tuple[int, str]]:
    """The stored log, as (seat, action) pairs."""
    with engine.connect() as conn:
        rows = conn.execute(text(f"SELECT seat, action FROM {prefix}actions ORDER BY idx"))
        return [(seat, json.loads(action)) for seat, action in rows]


#: A node's start-up on the database, as ``spieltisch serve`` begins: open the store (which
#: brings the schema up to date), once per prefix given. Once imported it says "ready"; it
#: opens the i-th store when the file ``i`` appears in the folder given, so that all the
#: nodes open it at one moment, and answers "ok i" or the error.
NODE = """
import os, sys, time
from spieltisch.server.store import Store
url, prefixes, go = sys.argv[1], sys.argv[2].split(","), sys.argv[3]
print("ready", flush=True)
for i, prefix in enumerate(prefixes):
    while not os.path.exists(os.path.join(go, str(i))):
        time.sleep(0.001)
    try:
        Store(url, prefix).close()
        print(f"ok {i}", flush=True)
    except Exception as e:
        print(f"{i}: {type(e).__name__}: {e}".replace("\\n", " "), flush=True)
"""


def test_three_nodes_starting_at_once_on_a_new_database(pg_url: str, tmp_path: Path) -> None:
    """20 times: three processes open the same new store at the same moment."""
    prefixes = [unique_prefix() for _ in range(20)]
    env = {k: v for k, v in os.environ.items() if not k.startswith("COVERAGE_PROCESS_")}
    nodes = [subprocess.Popen([sys.executable, "-c", NODE, pg_url, ",".join(prefixes),
                               str(tmp_path)], stdout=subprocess.PIPE, text=True, env=env)
             for _ in range(3)]
    engine = create_engine(pg_url)
    try:
        assert [node.stdout.readline() for node in nodes] == ["ready\n"] * 3
        for i, prefix in enumerate(prefixes):
            (tmp_path / str(i)).touch()
            answers = [node.stdout.readline() for node in nodes]
            assert answers == [f"ok {i}\n"] * 3
            assert migrate.current(engine, prefix) == NEWEST
            with engine.connect() as conn:
                versions = conn.execute(text(
                    f"SELECT count(*) FROM {prefix}alembic_version")).scalar()
            assert versions == 1
        assert [node.wait(60) for node in nodes] == [0, 0, 0]
    finally:
        for node in nodes:
            if node.poll() is None:
                node.kill()
        engine.dispose()
        for prefix in prefixes:
            store = Store(pg_url, prefix)
            store.drop_all()
            store.close()


# -- the commands -------------------------------------------------------------------------
def db(*args: str) -> tuple[int, str]:
    from typer.testing import CliRunner

    from spieltisch.cli.main import app

    result = CliRunner().invoke(app, ["db", *args])
    return result.exit_code, " ".join(result.output.split())


def test_db_upgrade_and_current_on_a_new_and_an_old_database(tmp_path: Path) -> None:
    new = f"sqlite:///{tmp_path / 'new.sqlite3'}"
    assert db("current", "--db", new) == (1, f"{new}: at no recorded revision (empty, or made "
                                             f"before migrations), newest {NEWEST} (run: "
                                             "spieltisch db upgrade)")
    assert db("upgrade", "--db", new) == (0, f"{new}: upgraded from no recorded revision to "
                                             + NEWEST)
    assert db("upgrade", "--db", new) == (0, f"{new}: already at the newest revision ({NEWEST})")
    assert db("current", "--db", new) == (0, f"{new}: at {NEWEST}, newest {NEWEST}")
    old = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = make_engine(old)
    with engine.begin() as conn:
        for statement in LEGACY["ddl"]["sqlite"] + LEGACY["rows"]:
            conn.execute(text(statement.replace(LEGACY["prefix"], "st_")))
    assert db("current", "--db", old)[0] == 1
    assert db("upgrade", "--db", old) == (0, f"{old}: upgraded from no recorded revision to "
                                             + NEWEST)
    assert len(_actions(engine, "st_")) == 12  # the game is still there
    engine.dispose()


def test_db_commands_refuse_bad_databases_in_one_line() -> None:
    code, said = db("upgrade", "--db", "no-such-scheme")
    assert code == 2 and said.startswith("error: cannot use the database no-such-scheme: ")
    code, said = db("current", "--db", "postgresql+psycopg://ann:secret@127.0.0.1:1/none")
    assert code == 1 and "secret" not in said and "Traceback" not in said
    assert said.startswith("error: cannot read the database "
                           "postgresql+psycopg://ann:***@127.0.0.1:1/none: ")
