"""The server in a background thread on 127.0.0.1 (a port the OS picks).

For tests and benchmarks that talk to a real server over real sockets in-process.
"""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

import uvicorn

from .app import create_app
from .config import ServerConfig, uvicorn_proxy_options


class _Server(uvicorn.Server):
    """uvicorn's server that first tells the lobby it stops: a pending long poll
    (``meeting.py``) answers at once instead of holding the shutdown up."""

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        lobby = getattr(getattr(self.config.app, "state", None), "lobby", None)
        if lobby is not None:
            lobby.stopping.set()
        await super().shutdown(sockets)


class LoopbackServer:
    """``with LoopbackServer(config) as s:`` serves ``create_app(config)`` at ``s.base``."""

    def __init__(self, config: ServerConfig, timeout: float = 60.0) -> None:
        self.config = config
        self.timeout = timeout  # generous: test machines are shared and loaded
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.server = _Server(uvicorn.Config(
            create_app(config), log_level="warning", ws_max_size=1 << 16, lifespan="on",
            **uvicorn_proxy_options(config)))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def __enter__(self) -> LoopbackServer:
        self.thread.start()
        deadline = time.monotonic() + self.timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(self.timeout)
        self.sock.close()
