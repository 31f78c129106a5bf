"""Fixtures for the browser-client tests: a loopback server and Debian's chromium.

Playwright drives ``/usr/bin/chromium`` (installed by ``scripts/test.sh``); it never
downloads a browser. Without chromium (or the ``playwright`` package) the tests skip.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from spieltisch.server.loopback import LoopbackServer

#: Screenshots of the tables (one per game and language), ignored by git.
ARTIFACTS = Path(__file__).resolve().parents[2] / "results" / "browser"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

#: Every browser of the tests comes from 127.0.0.1: the limits per client address would
#: count all their tables, joins and page loads as one player's.
NO_ADDRESS_LIMITS: dict[str, Any] = {"max_tables_per_client": 10_000, "joins_per_minute": 0.0,
                                     "http_requests_per_second": 0.0}


def chromium_path() -> str | None:
    for cand in (os.environ.get("SPIELTISCH_CHROMIUM"), "/usr/bin/chromium",
                 shutil.which("chromium"), shutil.which("chromium-browser")):
        if cand and os.path.exists(cand):
            return cand
    return None


@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoopbackServer]:
    pytest.importorskip("uvicorn")
    db = tmp_path_factory.mktemp("browser") / "server.sqlite3"
    from spieltisch.server import ServerConfig
    from spieltisch.server.loopback import LoopbackServer

    # long deadlines (x100): the clock never acts in the middle of a test
    config = ServerConfig(db_url=f"sqlite:///{db}", time_scale=100.0, grace_seconds=600.0,
                          **NO_ADDRESS_LIMITS)
    with LoopbackServer(config, timeout=30.0) as srv:
        yield srv


@pytest.fixture(scope="package")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoopbackServer]:
    """The rules' own times (x1), for whole games: tables pick short timers by option.
    Any bot spec is accepted (test_fair_clocks seats bots that always accuse)."""
    pytest.importorskip("uvicorn")
    db = tmp_path_factory.mktemp("browser-quick") / "server.sqlite3"
    from spieltisch.server import ServerConfig
    from spieltisch.server.loopback import LoopbackServer

    config = ServerConfig(db_url=f"sqlite:///{db}", time_scale=1.0, grace_seconds=600.0,
                          any_bot_spec=True, **NO_ADDRESS_LIMITS)
    with LoopbackServer(config, timeout=30.0) as srv:
        yield srv


@pytest.fixture(scope="package")
def still_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoopbackServer]:
    """Long clocks (x100) and bots that think for minutes: after a person's move nothing
    else moves while a test looks at the page."""
    pytest.importorskip("uvicorn")
    db = tmp_path_factory.mktemp("browser-still") / "server.sqlite3"
    from spieltisch.server import ServerConfig
    from spieltisch.server.loopback import LoopbackServer

    config = ServerConfig(db_url=f"sqlite:///{db}", time_scale=100.0, grace_seconds=600.0,
                          bot_timing=200.0, **NO_ADDRESS_LIMITS)
    with LoopbackServer(config, timeout=30.0) as srv:
        yield srv


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    path = chromium_path()
    if path is None:
        pytest.skip("chromium not found (scripts/test.sh installs Debian's chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture()
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
