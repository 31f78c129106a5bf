"""``spieltisch serve`` says at start-up which event loop really runs, and runs on
uvloop when it is installed (the ``server`` extra)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import TIMEOUT
from .test_crash import start_serve


def started_line(tmp_path: Path, *flags: str) -> str:
    """Start a server, wait until it answers, stop it; its "event loop" line."""
    log = tmp_path / "serve.log"
    proc, _ = start_serve(["--db", f"sqlite:///{tmp_path / 'serve.sqlite3'}", *flags], log)
    proc.terminate()
    proc.wait(TIMEOUT)
    lines = [x for x in log.read_text().splitlines() if x.startswith("event loop ")]
    assert len(lines) == 1, log.read_text()
    return lines[0]


def test_serve_runs_on_uvloop_when_installed(tmp_path: Path) -> None:
    pytest.importorskip("uvloop")
    pytest.importorskip("httptools")
    line = started_line(tmp_path)
    assert line.startswith("event loop uvloop.Loop, HTTP HttpToolsProtocol"), line


def test_serve_loop_asyncio_forces_the_standard_loop(tmp_path: Path) -> None:
    line = started_line(tmp_path, "--loop", "asyncio")
    assert line.startswith("event loop asyncio."), line
    assert "uvloop" not in line
