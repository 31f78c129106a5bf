"""Crash recovery: a real server process killed with SIGKILL and restarted on its database."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from spieltisch.replay import Replay

from .helpers import (
    TIMEOUT,
    Client,
    create_table,
    has_view,
    join,
    play_scripted,
    wait_until_serving,
)

#: The line ``spieltisch serve`` prints once its socket is bound (``--port 0``: any port).
SERVING = re.compile(r"^spieltisch server on http://localhost:(\d+)/", re.MULTILINE)


def start_serve(args: list[str], log: Path) -> tuple[subprocess.Popen[bytes], int]:
    """Start ``spieltisch serve --port 0 ARGS`` with its output appended to ``log``; wait
    until it answers. Returns the process and the port it bound (from its start-up line:
    no other process can take that port between choosing and binding it)."""
    start = log.stat().st_size if log.exists() else 0
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "spieltisch.cli.main", "serve", "--port", "0", *args],
            stdout=out, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    give_up = time.monotonic() + TIMEOUT
    while (found := SERVING.search(log.read_bytes()[start:].decode(errors="replace"))) is None:
        assert proc.poll() is None, log.read_text()
        assert time.monotonic() < give_up, f"no start-up line: {log.read_text()}"
        time.sleep(0.05)
    port = int(found[1])
    wait_until_serving(f"http://127.0.0.1:{port}", proc, log)
    return proc, port


class ServerProcess:
    """A ``spieltisch serve`` process on a database; each start binds a fresh port."""

    def __init__(self, db: str, log: Path) -> None:
        self.db, self.log = db, log
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.proc, self.port = start_serve(
            ["--db", self.db, "--grace", "1000", "--bot-timing", "0",
             "--messages-per-second", "10000"], self.log)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(TIMEOUT)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(TIMEOUT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(TIMEOUT)


@pytest.fixture
def server_proc(tmp_path: Path) -> Iterator[ServerProcess]:
    sp = ServerProcess(f"sqlite:///{tmp_path / 'crash.sqlite3'}", tmp_path / "server.log")
    try:
        yield sp
    finally:
        sp.stop()


def test_sigkill_and_restart_resumes_from_last_acknowledged_action(
        server_proc: ServerProcess) -> None:
    sp = server_proc
    sp.start()
    table = create_table(sp.base, "president", ["human"] * 4, players=4, seed=21)
    code = table["code"]
    tokens = [join(sp.base, code, f"p{i}")["token"] for i in range(4)]
    played = 15
    sent: list[str] = []

    async def first_half() -> list[dict[str, Any]]:
        clients = [await Client.open(sp.ws_base, code, t) for t in tokens]
        latest = [await c.until(has_view) for c in clients]
        for k in range(played):
            seat = next(s for s in range(4) if latest[s].get("required"))
            action = latest[seat]["legal"][0]
            await clients[seat].send({"type": "action", "id": f"k{k}", "action": action})
            ack = await clients[seat].until(lambda m: m["type"] in ("ack", "error"))
            assert ack["type"] == "ack" and ack["index"] == k, ack
            sent.append(action)
            for s in range(4):
                latest[s] = await clients[s].until(
                    lambda m: m["type"] == "update" and m["index"] == k)  # noqa: B023
        return latest

    before = asyncio.run(first_half())
    sp.kill()
    sp.start()

    async def second_half() -> None:
        clients = [await Client.open(sp.ws_base, code, t) for t in tokens]
        welcome = [await c.until(has_view) for c in clients]
        for s in range(4):
            assert welcome[s]["index"] == played  # nothing acknowledged was lost
            assert json.dumps(welcome[s]["view"], sort_keys=True) == \
                json.dumps(before[s]["view"], sort_keys=True)
            assert welcome[s]["legal"] == before[s]["legal"]
        # the client message ids survived: a retry of the last action is not re-applied
        last_seat = next(s for s in range(4) if before[s].get("action") is not None
                         and before[s]["index"] == played - 1)
        await clients[last_seat].send({"type": "action", "id": f"k{played - 1}",
                                       "action": sent[-1]})
        again = await clients[last_seat].until(lambda m: m["type"] in ("ack", "error"))
        assert again["type"] == "ack" and again["index"] == played - 1 and again["repeat"]
        finals = await asyncio.gather(*(play_scripted(c, 10 + i, react_p=0)
                                        for i, c in enumerate(clients)))
        assert all(f["over"] for f in finals)
        for c in clients:
            await c.close()

    asyncio.run(second_half())
    rep = httpx.get(f"{sp.base}/api/tables/{code}/replay", timeout=TIMEOUT).json()
    assert [a for _, a in rep["actions"][:played]] == sent
    assert Replay.from_json(rep).verify().is_over()
