"""``Conn``: messages go to the WebSocket at once, in order, and a send that must wait
(a slow reader) holds the later ones back without losing or reordering any."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from spieltisch.server.table import Conn


class FakeSocket:
    """An ASGI send that records texts; while ``blocked`` is clear, sends wait for it
    (as uvicorn's do while the transport's buffer is full)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.blocked = asyncio.Event()
        self.blocked.set()
        self.fail = False

    async def send(self, message: dict[str, Any]) -> None:
        assert message["type"] == "websocket.send"
        await self.blocked.wait()
        if self.fail:
            raise OSError("the peer went away")
        self.sent.append(message["text"])


def test_sends_at_once_in_order_without_a_task() -> None:
    async def main() -> None:
        sock = FakeSocket()
        conn = Conn(sock.send)
        tasks_before = len(asyncio.all_tasks())
        conn.send({"type": "ack", "id": 1, "index": 0})
        conn.send('{"type": "update", "index": 0}')
        # delivered within the caller's turn: nothing scheduled, nothing awaited
        assert [json.loads(t)["type"] for t in sock.sent] == ["ack", "update"]
        assert len(asyncio.all_tasks()) == tasks_before
        await conn.flush()

    asyncio.run(main())


def test_a_waiting_send_keeps_the_order_of_later_messages() -> None:
    async def main() -> None:
        sock = FakeSocket()
        conn = Conn(sock.send)
        conn.send("m0")
        sock.blocked.clear()  # the transport's buffer is full
        for i in range(1, 6):
            conn.send(f"m{i}")
        await asyncio.sleep(0.01)
        assert sock.sent == ["m0"]  # m1 waits; m2..m5 queue behind it
        sock.blocked.set()
        conn.send("m6")  # still behind the backlog, not ahead of it
        await conn.flush()
        assert sock.sent == [f"m{i}" for i in range(7)]
        conn.send("m7")  # the backlog is gone: at once again
        assert sock.sent[-1] == "m7"

    asyncio.run(main())


def test_a_failed_send_closes_the_connection() -> None:
    async def main() -> None:
        sock = FakeSocket()
        conn = Conn(sock.send)
        sock.fail = True
        conn.send("lost")
        assert conn.closed
        sock.fail = False
        conn.send("after")  # nothing is sent on a closed connection
        assert sock.sent == []

        # the same when the send fails after waiting
        sock2 = FakeSocket()
        conn2 = Conn(sock2.send)
        sock2.blocked.clear()
        conn2.send("a")
        conn2.send("b")
        sock2.fail = True
        sock2.blocked.set()
        await conn2.flush()
        assert conn2.closed and sock2.sent == []

    asyncio.run(main())


def test_close_stops_sending_and_cancelling_the_flusher_is_clean() -> None:
    async def main() -> None:
        sock = FakeSocket()
        conn = Conn(sock.send)
        sock.blocked.clear()
        conn.send("a")
        conn.send("b")
        conn.close()
        conn.send("c")  # after close: dropped
        flusher = conn._flusher
        assert flusher is not None
        await asyncio.sleep(0.01)  # the flusher waits with the send of "a"
        flusher.cancel()
        await asyncio.gather(flusher, return_exceptions=True)
        assert flusher.cancelled() and sock.sent == []
        # the waiting send was abandoned: the event has no waiter left behind
        assert not sock.blocked._waiters  # type: ignore[attr-defined]

    asyncio.run(main())


def test_a_message_that_fails_is_answered_in_the_player_s_language_and_kept() -> None:
    """A bug while handling a message (here in answering a pong) is logged, the player
    reads a server_error in their language, and the connection stays open. Relayed
    clients of a cluster node go through the same ``handle``."""
    from spieltisch.server.ws import handle

    class Broken:
        code = "BROKEN"

        def pong(self, conn: Conn, msg: dict[str, Any], arrival: float) -> None:
            raise RuntimeError("a bug")

    async def main() -> None:
        sock = FakeSocket()
        conn = Conn(sock.send)
        conn.lang = "de"
        await handle(Broken(), conn, {"type": "pong"}, 0.0, via="relayed ")  # type: ignore[arg-type]
        await handle(Broken(), conn, {"type": "ping", "id": 7}, 0.0)  # type: ignore[arg-type]
        assert [json.loads(t) for t in sock.sent] == [
            {"type": "error", "code": "server_error", "message": "Der Server konnte diese "
             "Nachricht nicht bearbeiten; nichts hat sich geändert."},
            {"type": "pong", "id": 7}]
        assert not conn.closed

    asyncio.run(main())
