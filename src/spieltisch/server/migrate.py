"""The store's schema, owned by Alembic migrations (``migrations/versions``).

Every server brings its database up to the newest revision when it starts
(``Store``), and ``spieltisch db upgrade`` does it alone. On PostgreSQL the upgrade
holds an advisory lock for the prefix until it commits, so any number of nodes may start
at once on a new database: one creates the schema, the others wait and find it done.

On SQLite (one server per file) there is no such lock, and SQLite runs ``CREATE`` and
``ALTER`` outside the transaction: a revision for it must be safe to run again after an
interruption, as the first one is (it creates only what is missing).

A change to the schema is a new file in ``migrations/versions`` (``down_revision`` the
newest before it, ``upgrade()`` written by hand with Alembic's ``op``) and the same change
in ``store._schema``; ``tests/server/test_migrate.py`` checks that the two agree.
"""

from __future__ import annotations

import hashlib
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

SCRIPTS = "spieltisch.server:migrations"


def _config(connection: Connection | None = None, prefix: str = "st_") -> Config:
    config = Config()
    config.set_main_option("script_location", SCRIPTS)
    config.attributes["connection"] = connection
    config.attributes["prefix"] = prefix
    return config


def head() -> str:
    """The newest revision."""
    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None
    return head


def current(engine: Engine, prefix: str) -> str | None:
    """The revision the database's ``prefix`` store is at (None: none recorded, for an
    empty database or one made before migrations)."""
    with engine.connect() as conn:
        context = MigrationContext.configure(
            conn, opts={"version_table": f"{prefix}alembic_version"})
        return context.get_current_revision()


def lock_key(prefix: str) -> int:
    """The advisory lock of a prefix's migrations: a signed 64-bit number."""
    digest = hashlib.sha256(f"spieltisch-migrate:{prefix}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def upgrade(engine: Engine, prefix: str, revision: str = "head") -> None:
    """Bring the ``prefix`` store to ``revision``, in one transaction (one at a time per
    prefix on PostgreSQL)."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            # held until this transaction ends; the next node then finds the schema made
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": lock_key(prefix)})
        command.upgrade(_config(conn, prefix), revision)


def drop_version_table(conn: Connection, prefix: str) -> None:
    """Forget the prefix's revision (with its tables dropped: tests)."""
    conn.execute(text(f"DROP TABLE IF EXISTS {prefix}alembic_version"))


def describe(engine: Engine, prefix: str) -> dict[str, Any]:
    """Where the store stands: its revision and the newest one."""
    at, newest = current(engine, prefix), head()
    return {"current": at, "head": newest, "up_to_date": at == newest}
