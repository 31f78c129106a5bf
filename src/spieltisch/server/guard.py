"""What every request passes first: the per-client HTTP rate limit and the Origin check.

``Guard`` wraps the application (ASGI middleware). A client address that sends more
HTTP requests than ``http_requests_per_second`` (with a burst of ``http_burst``) gets
429 ``rate_limited`` until its bucket refills. A state-changing request (any method
but GET, HEAD and OPTIONS) and every WebSocket upgrade that carries an ``Origin``
header must come from the server's own origin (scheme and ``Host`` of the request) or
one of ``allowed_origins``: a page elsewhere cannot create or join tables, or play,
in its visitors' names. Clients that send no ``Origin`` (scripts, bots) are not
browsers acting for somebody else and pass.

WebSockets: one client address may hold ``max_sockets_per_client`` open at once (one
more is accepted, told ``too_many_sockets`` and closed with 1008 and the reason); a
handshake for a code that names no table (closed with 4404) spends one request of the
address's HTTP budget, and while that budget is empty a handshake is refused (403)
before the table is looked up.
"""

from __future__ import annotations

import json
import time
from urllib.parse import parse_qs

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..i18n import N_, language_from_accept
from .config import ServerConfig
from .texts import language, server_tr

#: Methods that change nothing (the Origin check leaves them alone).
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: The close code of a WebSocket for a code that names no table (``app.ws_endpoint``).
NO_TABLE = 4404


class RateLimit:
    """A token bucket: ``rate`` tokens a second up to ``burst``; each event takes one."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.last = time.monotonic()

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now

    def allow(self) -> bool:
        self._refill()
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def wait(self) -> float:
        """Seconds until ``allow`` will be true (0: now)."""
        self._refill()
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate

    def full(self) -> bool:
        """Refilled to the brim: its client has been quiet long enough to be forgotten."""
        self._refill()
        return self.tokens >= self.burst


class Buckets:
    """One ``RateLimit`` per client address; ``rate`` 0 means no limit. Buckets that
    have refilled are dropped now and then, so that many addresses cost no memory."""

    #: Addresses kept before the refilled buckets are swept out.
    SWEEP_AT = 10_000

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.by_client: dict[str, RateLimit] = {}

    def allow(self, client: str) -> bool:
        if self.rate <= 0:
            return True
        bucket = self.by_client.get(client)
        if bucket is None:
            if len(self.by_client) >= self.SWEEP_AT:
                self.by_client = {k: b for k, b in self.by_client.items() if not b.full()}
            bucket = self.by_client[client] = RateLimit(self.rate, self.burst)
        return bucket.allow()

    def empty(self, client: str) -> bool:
        """Whether ``client`` has no request left just now (nothing is taken)."""
        bucket = self.by_client.get(client) if self.rate > 0 else None
        if bucket is None:
            return False
        bucket._refill()
        return bucket.tokens < 1


def client_address(scope: Scope) -> str:
    """The client's address as uvicorn gives it (a trusted proxy's ``X-Forwarded-For``
    already applied, see ``ServerConfig.forwarded_allow_ips``)."""
    client = scope.get("client")
    return str(client[0]) if client else ""


def _headers(scope: Scope) -> dict[str, str]:
    """The request's headers by lower-case name (the last of repeated ones)."""
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}


def _own_origin(scope: Scope, headers: dict[str, str]) -> str:
    """``scheme://host[:port]`` of this request as the browser addressed it."""
    scheme = {"ws": "http", "wss": "https"}.get(scope["scheme"], scope["scheme"])
    return f"{scheme}://{headers.get('host', '')}".lower()


def _language(scope: Scope, headers: dict[str, str]) -> str:
    """The language of the refusal: ``?lang=``, else ``Accept-Language``."""
    asked = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang")
    if asked:
        return language(asked[0])
    return language_from_accept(headers.get("accept-language"))


class Guard:
    """ASGI middleware: the HTTP rate limit and the Origin check (module docstring)."""

    def __init__(self, app: ASGIApp, config: ServerConfig) -> None:
        self.app = app
        self.allowed = {o.rstrip("/").lower() for o in config.allowed_origins}
        self.requests = Buckets(config.http_requests_per_second, config.http_burst)
        self.max_sockets = config.max_sockets_per_client
        #: WebSockets open per client address.
        self.sockets: dict[str, int] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        origin = headers.get("origin")
        checked = scope["type"] == "websocket" or scope["method"] not in SAFE_METHODS
        if checked and origin is not None and origin.rstrip("/").lower() not in \
                self.allowed | {_own_origin(scope, headers)}:
            if scope["type"] == "websocket":  # closing before accepting answers 403
                await send({"type": "websocket.close", "code": 1008})
                return
            await _refuse(send, 403, "bad_origin", server_tr(_language(scope, headers)).format(
                N_("Requests from pages at {origin} are not accepted here."),
                origin=origin[:100]))
            return
        if scope["type"] == "websocket":
            await self._socket(scope, receive, send, headers)
            return
        if not self.requests.allow(client_address(scope)):
            await _refuse(send, 429, "rate_limited", server_tr(_language(scope, headers)).gettext(
                N_("Too many requests from your address: wait a moment and try again.")),
                          retry_after=True)
            return
        await self.app(scope, receive, send)

    async def _socket(self, scope: Scope, receive: Receive, send: Send,
                      headers: dict[str, str]) -> None:
        """A WebSocket, counted against its address's cap and HTTP budget."""
        client = client_address(scope)
        if self.requests.empty(client):  # closing before accepting answers 403
            await send({"type": "websocket.close", "code": 1008})
            return
        if 0 < self.max_sockets <= self.sockets.get(client, 0):
            tr = server_tr(_language(scope, headers))
            if (await receive())["type"] != "websocket.connect":
                return
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": json.dumps({
                "type": "error", "code": "too_many_sockets", "message": tr.format(
                    N_("Your address has {n} connections open, as many as it may: close "
                       "one first."), n=self.max_sockets)})})
            await send({"type": "websocket.close", "code": 1008,
                        "reason": "too many connections from your address"})
            return

        async def counted(message: Message) -> None:
            if message["type"] == "websocket.close" and message.get("code") == NO_TABLE:
                self.requests.allow(client)  # a code that names no table: one request
            await send(message)

        self.sockets[client] = self.sockets.get(client, 0) + 1
        try:
            await self.app(scope, receive, counted)
        finally:
            left = self.sockets[client] - 1
            if left:
                self.sockets[client] = left
            else:
                del self.sockets[client]


async def _refuse(send: Send, status: int, code: str, message: str,
                  retry_after: bool = False) -> None:
    body = json.dumps({"error": code, "message": message}).encode()
    headers: list[tuple[bytes, bytes]] = [(b"content-type", b"application/json"),
                                          (b"content-length", str(len(body)).encode())]
    if retry_after:
        headers.append((b"retry-after", b"1"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


__all__ = ["Buckets", "Guard", "RateLimit", "client_address"]
