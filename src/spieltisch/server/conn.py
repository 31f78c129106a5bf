"""One WebSocket connection of a table (``Conn``) and the error message it is sent."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from ..i18n import Translator
from .guard import RateLimit
from .texts import server_tr
from .timing import LagMeter


class Conn:
    """One WebSocket connection: a seat (``None`` = spectator) and its outgoing messages.

    ``send`` hands a message to the WebSocket at once, in the caller's turn of the event
    loop: uvicorn's ASGI send finishes without waiting unless the socket's buffer is full,
    so the usual message costs no task, queue or extra wake-up (a broadcast to four seats
    used to wake four writer tasks). Only a send that must wait (a slow reader) is
    finished by a task, which then sends every later message of this connection, in order.
    """

    def __init__(self, send: Callable[[dict[str, Any]], Coroutine[Any, Any, None]],
                 address: str = "") -> None:
        self._send = send  # the ASGI send of the connection
        self.address = address
        self.seat: int | None = None
        self.bound = False
        #: Ends the connection with a WebSocket close code and reason (a refused
        #: spectator); None where the socket is not this node's (a cluster relay).
        self.hangup: Callable[[int, str], Awaitable[None]] | None = None
        #: The budget of its ``state`` and ``lang`` requests, and whether a snapshot
        #: that waits for it is coming (``TableRuntime.request_state``).
        self.snapshots: RateLimit | None = None
        self.snapshot_coming = False
        self.closed = False
        #: The language this connection reads (``?lang=``, the ``lang`` message).
        self.lang = "en"
        #: Messages behind a send that waits (``None``: nothing waits, send at once).
        self._backlog: deque[str] | None = None
        self._flusher: asyncio.Task[None] | None = None
        #: The network delay of this connection, from the server's pings (after ``ready``).
        self.lag = LagMeter()

    def send(self, msg: dict[str, Any] | str) -> None:
        if self.closed:
            return
        text = msg if isinstance(msg, str) else json.dumps(msg)
        if self._backlog is not None:
            self._backlog.append(text)
            return
        # run the send coroutine by hand up to its first wait; it rarely has one
        coro = self._send({"type": "websocket.send", "text": text})
        try:
            waiting = coro.send(None)
        except StopIteration:
            return  # sent: the transport took it
        except Exception:  # the peer went away; the reader notices too
            self.closed = True
            return
        self._backlog = deque()
        self._flusher = asyncio.get_running_loop().create_task(self._finish(coro, waiting))

    async def _finish(self, coro: Coroutine[Any, Any, None], waiting: Any) -> None:
        """Drive a send that had to wait to its end, then send the backlog in order."""
        try:
            loop = asyncio.get_running_loop()
            while True:
                # wait until the future the send waits for is done, then resume the send
                # (as a task would; the send reads the future's outcome itself)
                if waiting is None:  # a bare yield: give the loop one turn
                    await asyncio.sleep(0)
                else:
                    resume = loop.create_future()
                    waiting.add_done_callback(
                        lambda _, r=resume: r.done() or r.set_result(None))
                    await resume
                try:
                    waiting = coro.send(None)
                except StopIteration:
                    break
            while self._backlog:
                text = self._backlog.popleft()
                await self._send({"type": "websocket.send", "text": text})
        except asyncio.CancelledError:
            coro.close()
            raise
        except Exception:  # the peer went away
            self.closed = True
        finally:
            self._backlog = None
            self._flusher = None

    @property
    def tr(self) -> Translator:
        """The server's messages in this connection's language."""
        return server_tr(self.lang)

    def close(self) -> None:
        """Take no more messages (the connection ends); those already taken still go."""
        self.closed = True
        self.lag.stop()

    async def flush(self) -> None:
        """Wait until every message handed to ``send`` has gone to the transport."""
        if self._flusher is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(self._flusher)


def err(code: str, message: str, client_id: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if client_id is not None:
        out["id"] = client_id
    return out
