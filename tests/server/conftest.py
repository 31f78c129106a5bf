"""The databases of the server tests: SQLite in a temporary folder and the machine's
PostgreSQL (127.0.0.1:5432, database ``test``), each test on a table prefix of its own.

Without PostgreSQL those tests are skipped, unless ``SPIELTISCH_REQUIRE_POSTGRES=1`` (set
by ``scripts/test.sh``, the CI command): then they fail.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from spieltisch.server.store import Store

PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def _pg_problem() -> str | None:
    """Why PostgreSQL cannot be used here, or None when it can."""
    try:
        import psycopg

        with psycopg.connect("host=127.0.0.1 port=5432 user=postgres dbname=test",
                             connect_timeout=5):
            return None
    except Exception as e:  # not installed, not running, no such role or database
        return f"{type(e).__name__}: {e}".strip()


def require_postgres() -> None:
    """Skip the test without PostgreSQL (fail it where the suite requires PostgreSQL)."""
    problem = _pg_problem()
    if problem is not None:
        message = f"PostgreSQL is not reachable on 127.0.0.1:5432 ({problem})"
        if os.environ.get("SPIELTISCH_REQUIRE_POSTGRES") == "1":
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.sqlite3'}"
    require_postgres()
    return PG_URL


@pytest.fixture
def pg_url() -> str:
    require_postgres()
    return PG_URL


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[Store]:
    """A store in a fresh SQLite file, dropped after the test."""
    from spieltisch.server.store import Store

    from .helpers import unique_prefix

    s = Store(f"sqlite:///{tmp_path / 'tables.sqlite3'}", unique_prefix())
    yield s
    s.drop_all()
    s.close()
