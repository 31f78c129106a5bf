"""Crash recovery: a real server process killed with SIGKILL and restarted on its database."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    def __init__(self, db: str, port: int, log: Path) -> None:
        self.db, self.port, self.log = db, port, log
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        out = self.log.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "spieltisch.cli.main", "serve", "--port", str(self.port),
             "--db", self.db, "--grace", "1000", "--bot-delay", "0",
             "--messages-per-second", "10000"],
            stdout=out, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        wait_until_serving(self.base, self.proc, self.log)

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
    sp = ServerProcess(f"sqlite:///{tmp_path / 'crash.sqlite3'}", free_port(),
                       tmp_path / "server.log")
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
    ws_base = sp.base.replace("http", "ws")
    played = 15
    sent: list[str] = []

    async def first_half() -> list[dict[str, Any]]:
        clients = [await Client.open(ws_base, code, t) for t in tokens]
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
        clients = [await Client.open(ws_base, code, t) for t in tokens]
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
