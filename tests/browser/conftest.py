"""Fixtures for the browser-client tests: a loopback server and Debian's chromium.

Playwright drives ``/usr/bin/chromium`` (installed by ``scripts/test.sh``); it never
downloads a browser. Without chromium (or the ``playwright`` package) the tests skip.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ARTIFACTS = Path(__file__).parent / "artifacts"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium_path() -> str | None:
    for cand in (os.environ.get("SPIELTISCH_CHROMIUM"), "/usr/bin/chromium",
                 shutil.which("chromium"), shutil.which("chromium-browser")):
        if cand and os.path.exists(cand):
            return cand
    return None


class ServerThread:
    """uvicorn serving the app on 127.0.0.1 (a port the OS picks) in a daemon thread."""

    def __init__(self, db_url: str) -> None:
        import uvicorn

        from spieltisch.server import ServerConfig, create_app

        # long deadlines (x100) so the clock never acts in the middle of a test
        cfg = ServerConfig(db_url=db_url, time_scale=100.0, grace_seconds=600.0)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(create_app(cfg), log_level="warning",
                                                    lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(30)
        self.sock.close()


@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    pytest.importorskip("uvicorn")
    db = tmp_path_factory.mktemp("browser") / "server.sqlite3"
    with ServerThread(f"sqlite:///{db}") as srv:
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
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
