"""The store's schema migrations (``spieltisch.server.migrate``) on SQLite and PostgreSQL.

The migrations make exactly the schema the store's queries use; a database made by the
code before migrations (``data/store-0.1.0.json``: its DDL and a game in progress) is
taken over and its game played on; nodes that start at the same moment on a new
PostgreSQL database make the schema once, without an error.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import multiprocessing.synchronize
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine

from spieltisch.server import migrate
from spieltisch.server.store import Store, make_engine

from .helpers import unique_prefix

LEGACY = json.loads((Path(__file__).parent / "data" / "store-0.1.0.json").read_text())


def test_the_migrations_make_the_schema_the_store_queries(db_url: str) -> None:
    store = Store(db_url, unique_prefix())
    try:
        assert migrate.describe(store.engine, store.prefix) == {
            "current": "r0001", "head": "r0001", "up_to_date": True}
        with store.engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={
                "version_table": f"{store.prefix}alembic_version",
                # other tests' stores share the PostgreSQL database
                "include_name": lambda name, kind, _: (kind != "table"
                                                       or name.startswith(store.prefix))})
            assert compare_metadata(context, store.metadata) == []
        Store(db_url, store.prefix).close()  # a second start changes nothing
        assert migrate.current(store.engine, store.prefix) == "r0001"
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
            assert migrate.current(lobby.store.engine, prefix) == "r0001"
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


def _actions(engine: Engine, prefix: str) -> list[tuple[int, str]]:
    """The stored log, as (seat, action) pairs."""
    with engine.connect() as conn:
        rows = conn.execute(text(f"SELECT seat, action FROM {prefix}actions ORDER BY idx"))
        return [(seat, json.loads(action)) for seat, action in rows]


def _start_node(url: str, prefix: str, barrier: multiprocessing.synchronize.Barrier,
                errors: multiprocessing.Queue[str]) -> None:
    """One node's start-up on the database: what ``spieltisch serve`` does first."""
    try:
        barrier.wait(30)
        Store(url, prefix).close()
    except Exception as e:  # reported to the test, which fails on any
        errors.put(f"{type(e).__name__}: {e}")


def test_three_nodes_starting_at_once_on_a_new_database(pg_url: str) -> None:
    """20 times: three processes open the same new store at the same moment."""
    ctx = multiprocessing.get_context("fork")  # each opens its own engine after the fork
    errors: multiprocessing.Queue[str] = ctx.Queue()
    for _ in range(20):
        prefix = unique_prefix()
        barrier = ctx.Barrier(3)
        nodes = [ctx.Process(target=_start_node, args=(pg_url, prefix, barrier, errors))
                 for _ in range(3)]
        for node in nodes:
            node.start()
        for node in nodes:
            node.join(60)
        problems = []
        while not errors.empty():
            problems.append(errors.get())
        engine = create_engine(pg_url)
        try:
            assert problems == [] and [n.exitcode for n in nodes] == [0, 0, 0]
            assert migrate.current(engine, prefix) == "r0001"
            with engine.connect() as conn:
                versions = conn.execute(text(
                    f"SELECT count(*) FROM {prefix}alembic_version")).scalar()
            assert versions == 1
        finally:
            store = Store(pg_url, prefix)
            store.drop_all()
            store.close()
            engine.dispose()
