"""Several server nodes behind one address (``serve --redis URL``): leases, relay, drain.

Every live table has one owner node, which holds its lease in Redis and renews it; only
the owner applies the table's actions and runs its clocks and bots. A client may land on
any node: a node that does not own the client's table relays the client's checked
messages to the owner and the owner's messages for that one connection back, through
Redis pub/sub (each node listens on one channel of its own), so a relay only ever
carries what its own client may see. When an owner dies its leases run out; another
node takes each table over by rebuilding it from the event log in the database. On
SIGTERM a node hands its tables to the others before it exits (``drain``).

PostgreSQL holds the truth (tables, seats, the action log), as on one node, and fences
the log: a node that takes a table over raises its owner epoch, and a write under an
older epoch is refused (``store.StaleOwner``; the node then drops the table, ``give_up``),
so a lease Redis lost early never lets two nodes write one log. Redis holds
only what may be lost with it, under the cluster's name as prefix (``spieltisch:`` by
default): ``lease:CODE`` (the owner's node id, with a time to live), ``node:NODE`` (a
node's heartbeat), ``info`` (a hash of the live tables' lobby entries, refreshed by
their owners), ``joins:CLIENT:MINUTE`` (join
counters) and the channels ``n:NODE``. ``docs/server.md`` ("Cluster") has the whole story.

Redis may go away and come back (a restart, a lost connection): every loop that uses it
waits between its attempts (a bounded exponential back-off with jitter) and never spins;
the listener subscribes again until Redis confirms the subscription, and a node whose
channel lapsed makes its relayed clients reconnect (messages sent meanwhile are gone).
Leaving (SIGTERM) waits for Redis at most ``QUIT_WAIT`` seconds in all.
``docs/cluster.md`` ("When Redis goes away") has what a deployment sees.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import secrets
import socket
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError
from starlette.websockets import WebSocket

from .config import ServerConfig
from .table import Conn, TableRuntime
from .texts import localised
from .ws import Framing, handle

if TYPE_CHECKING:
    from .lobby import Lobby

log = logging.getLogger("spieltisch.server.cluster")

#: WebSocket close code that tells a client to reconnect (the table moved to another node).
MOVED = 1012

#: Renews the leases still held by this node; returns the keys it lost (KEYS: the lease
#: keys, ARGV: node id, time to live in ms).
RENEW = """
local lost = {}
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  else
    table.insert(lost, key)
  end
end
return lost
"""

#: Deletes a lease only if this node holds it.
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


@dataclass
class Relayed:
    """At a relay node: a client whose table another node owns."""

    conn: Conn
    ws: WebSocket
    code: str
    owner: str


@dataclass
class Remote:
    """At the owner: a client connected to another node, with its messages in order."""

    conn: Conn
    rt: TableRuntime
    relay: str
    inbox: asyncio.Queue[tuple[dict[str, Any], float] | None] = field(
        default_factory=asyncio.Queue)
    task: asyncio.Task[None] | None = None


#: Messages that end a relayed connection (``Cluster._flush`` sends them again).
ENDINGS = ("end", "close")


def _head(data: str) -> dict[str, Any]:
    """The head of a message on a node's channel (its first line: ``k`` its kind)."""
    try:
        head = json.loads(data.partition("\n")[0])
    except ValueError:  # pragma: no cover - made by _send
        return {}
    return head if isinstance(head, dict) else {}


def _text(reply: bytes | str) -> str:
    """A Redis reply as text. redis-py types replies ``bytes | str`` (``str`` only with
    ``decode_responses``, which this client leaves off: they are bytes)."""
    return reply.decode() if isinstance(reply, bytes) else reply


#: Connections to Redis a node keeps at most, and how long (s) a call waits for one.
REDIS_CONNECTIONS, REDIS_WAIT = 50, 10.0
#: How long (s) a Redis call waits to connect, and for its answer: a Redis that stopped
#: answering (a lost machine, a partition) fails a call instead of hanging it.
REDIS_SOCKET_TIMEOUT = 5.0
#: The back-off after failures in a row (s): the listener's and publisher's n-th failure
#: waits between half and all of ``min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** (n - 1))``; the
#: round of renewals waits like that from ``lease_renew`` up to ``TICK_BACKOFF_MAX``.
BACKOFF_FIRST, BACKOFF_MAX, TICK_BACKOFF_MAX = 0.1, 2.0, 1.0
#: The listener waits at most ``LISTEN_POLL`` (s) for a message before it looks whether it
#: must subscribe again; Redis confirms a subscription within ``SUBSCRIBE_WAIT`` or the
#: attempt failed.
LISTEN_POLL, SUBSCRIBE_WAIT = 1.0, 5.0
#: A subscription that held this long (s) before it broke starts the back-off afresh.
LISTEN_STABLE = 10.0
#: The longest a node leaving (SIGTERM) waits for Redis while it drains, and again while
#: it closes (s); with Redis away its leases run out instead, and it exits all the same.
QUIT_WAIT = 3.0


def backoff(failures: int, first: float = BACKOFF_FIRST, cap: float = BACKOFF_MAX) -> float:
    """The wait (s) after ``failures`` failures in a row: exponential, bounded by ``cap``,
    with jitter (so that nodes do not come back in step)."""
    bound = min(cap, first * 2 ** min(max(failures, 1) - 1, 30))
    return bound * random.uniform(0.5, 1.0)


async def _within(call: Callable[[], Awaitable[Any]], until: float) -> tuple[bool, Any]:
    """Run ``call()`` if there is time left before ``until`` (loop time) and it answers
    before then: (True, its answer), else (False, None). For a node leaving: Redis away
    must not keep it."""
    left = until - asyncio.get_running_loop().time()
    if left <= 0:
        return False, None
    try:
        return True, await asyncio.wait_for(call(), left)
    except asyncio.CancelledError:
        raise
    except Exception:  # Redis away (or slow): a lease runs out, a heartbeat expires
        return False, None


class Cluster:
    """This node's part in a cluster: its leases, relays, calls and the shared lobby."""

    def __init__(self, lobby: Lobby, config: ServerConfig) -> None:
        self.lobby = lobby
        self.config = config
        self.node = config.node_id or \
            f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(2)}"
        self.prefix = f"{config.cluster_name}:"
        # A burst (500 tables created at once) waits for one of the pool's connections;
        # redis-py's default pool refuses the 101st at once ("Too many connections").
        self.redis = aioredis.Redis.from_pool(aioredis.BlockingConnectionPool.from_url(
            config.redis_url, max_connections=REDIS_CONNECTIONS, timeout=REDIS_WAIT,
            socket_timeout=REDIS_SOCKET_TIMEOUT,
            socket_connect_timeout=REDIS_SOCKET_TIMEOUT))
        self.ttl_ms = int(config.lease_seconds * 1000)
        self._renew = self.redis.register_script(RENEW)
        self._release = self.redis.register_script(RELEASE)
        #: Per owned table: until when (monotonic) its lease surely holds; writes stop then.
        self.valid_until: dict[str, float] = {}
        self.adopting: dict[str, asyncio.Future[TableRuntime | None]] = {}
        self.relayed: dict[str, Relayed] = {}
        self.remote: dict[str, Remote] = {}
        #: The WebSockets of this node's own clients, per table (closed when it moves).
        self.sockets: defaultdict[str, set[WebSocket]] = defaultdict(set)
        self.calls: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.draining = False
        #: Redis did not answer while this node drained (it asks it nothing more).
        self._redis_away = False
        self._out: list[tuple[str, str]] = []
        self._flusher: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loops: list[asyncio.Task[None]] = []
        self._closing = False  # leaving: the listener and the tick loop end
        self._pubsub: Any = None
        #: Redis confirmed the subscription of ``_pubsub`` (cleared: subscribe again);
        #: ``_epoch`` counts the subscriptions made.
        self._listening = False
        self._epoch = 0

    # -- keys ------------------------------------------------------------------------------
    def _lease(self, code: str) -> str:
        return f"{self.prefix}lease:{code}"

    def _channel(self, node: str) -> str:
        return f"{self.prefix}n:{node}"

    def _heartbeat(self, node: str) -> str:
        return f"{self.prefix}node:{node}"

    # -- start and stop ----------------------------------------------------------------------
    async def start(self) -> None:
        """Join the cluster: listen on this node's channel, beat, and take over every
        table nobody owns (at a cluster's first start: all of them)."""
        await self.redis.ping()
        await self._subscribe()
        await self._beat()
        loop = asyncio.get_running_loop()
        self._loops = [loop.create_task(self._listen()), loop.create_task(self._tick_loop())]
        await self.scan()

    async def close(self) -> None:
        """Leave the cluster: hand the tables over (if not yet done) and stop. Waits for
        Redis at most ``QUIT_WAIT`` seconds (and as long while it drains), not at all
        once the drain found it away."""
        until = asyncio.get_running_loop().time() + QUIT_WAIT
        await self.drain(until)
        if self._redis_away:  # found away while draining: ask it nothing more
            until = 0.0
        await self._stop_loops()
        remote = [r.task for r in self.remote.values() if r.task is not None]
        for task in remote:
            task.cancel()
        await asyncio.gather(*remote, return_exceptions=True)
        await self._flush_now(until)
        if self._flusher is not None:  # Redis away: what waits is lost
            self._flusher.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._flusher
        await _within(lambda: self.redis.delete(self._heartbeat(self.node)), until)
        pubsub, self._pubsub, self._listening = self._pubsub, None, False
        if pubsub is not None:
            await _within(pubsub.aclose, max(until, asyncio.get_running_loop().time() + 1))
        await _within(self.redis.aclose, max(until, asyncio.get_running_loop().time() + 1))

    async def _stop_loops(self) -> None:
        """End the listener and the tick loop: cancelled, and by a flag they check each
        round, in case a step swallowed the cancel (3.11's ``wait_for`` can; the node then
        never exited on SIGTERM)."""
        self._closing = True
        for task in self._loops:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- leases ---------------------------------------------------------------------------------
    def holds(self, code: str) -> bool:
        """This node's lease of ``code`` surely still holds: it may write the table's log."""
        return time.monotonic() < self.valid_until.get(code, 0.0)

    def _held_from(self, code: str, asked: float) -> None:
        # a lease renewed by a request sent at ``asked`` holds at least ``ttl`` from then;
        # a second less leaves room for the clocks of two machines to differ
        self.valid_until[code] = asked + self.config.lease_seconds - 1.0

    async def acquire(self, code: str) -> bool:
        """Take the lease of ``code`` if nobody holds it."""
        asked = time.monotonic()
        if await self.redis.set(self._lease(code), self.node, nx=True, px=self.ttl_ms):
            self._held_from(code, asked)
            return True
        return False

    async def release(self, code: str) -> None:
        self.valid_until.pop(code, None)
        await self._release(keys=[self._lease(code)], args=[self.node])

    async def owner(self, code: str) -> str | None:
        value = await self.redis.get(self._lease(code))
        return None if value is None else _text(value)

    async def _beat(self) -> None:
        await self.redis.set(self._heartbeat(self.node), b"1", px=self.ttl_ms)

    async def _tick_loop(self) -> None:
        """Every ``lease_renew`` seconds: beat, renew, refresh, check, look for orphans.
        A round that failed (Redis or the database away) is followed by a longer wait,
        up to ``TICK_BACKOFF_MAX``; the first failed round is logged in full, then one
        line now and then, and the round that works again."""
        every = self.config.lease_renew
        failures = 0
        while not self._closing:
            await asyncio.sleep(backoff(failures, every, max(every, TICK_BACKOFF_MAX))
                                if failures else every)
            failed = False
            for step in (self._beat, self.renew, self.refresh_info, self._check_channel,
                         self._check_relays, self._check_remote, self.scan):
                try:
                    await step()
                except asyncio.CancelledError:
                    raise
                except Exception as e:  # Redis or the database away for a moment
                    failed = True
                    if failures == 0:
                        log.exception("cluster: %s failed", step.__name__)
                    elif failures % 20 == 0:
                        log.warning("cluster: %s still fails (%d rounds): %s: %s",
                                    step.__name__, failures, type(e).__name__, e)
            if failed:
                failures += 1
            elif failures:
                log.warning("cluster: node %s works again after %d failed rounds",
                            self.node, failures)
                failures = 0

    async def renew(self) -> None:
        """Renew every lease this node holds; a table whose lease was lost (this node
        stalled past its time to live) is dropped here: another node owns it now."""
        # a finished table keeps its lease while its rematch offer is open
        codes = [c for c in [*self.lobby.tables, *self.lobby.rematching]
                 if c not in self.adopting]
        if not codes or self.draining:
            return
        asked = time.monotonic()
        lost = await self._renew(keys=[self._lease(c) for c in codes],
                                 args=[self.node, self.ttl_ms])
        gone = {k.decode().rsplit(":", 1)[1] for k in lost}
        for code in codes:
            if self.lobby.serving(code) is None:  # ended (and released) while renewing
                continue
            if code in gone:
                log.warning("cluster: lease of table %s lost; dropping it", code)
                await self.drop(code)
            else:
                self._held_from(code, asked)

    async def scan(self) -> None:
        """Take over every unfinished table whose lease nobody holds (its owner died)."""
        if self.draining:
            return
        store = self.lobby.store
        codes = [c for c in await store.call(store.unfinished_codes)
                 if c not in self.lobby.tables and c not in self.adopting]
        if not codes:
            return
        held = await self.redis.mget([self._lease(c) for c in codes])
        orphans = [c for c, v in zip(codes, held, strict=True) if v is None]
        for code in orphans:  # in tasks of their own: rebuilding must not delay renewals
            self._spawn(self.adopt(code))

    async def adopt(self, code: str) -> TableRuntime | None:
        """Own ``code``: take its lease and rebuild it from the log (None if another
        node holds it, or it is not an unfinished table)."""
        rt = self.lobby.tables.get(code)
        if rt is not None:
            return rt
        pending = self.adopting.get(code)
        if pending is not None:
            return await asyncio.shield(pending)
        if self.draining or len(code) > 16:
            return None
        fut: asyncio.Future[TableRuntime | None] = asyncio.get_running_loop().create_future()
        self.adopting[code] = fut
        rt = None
        try:
            if await self.acquire(code):
                store = self.lobby.store
                row = await store.call(store.load_table, code)
                if row is not None and row.status in ("waiting", "playing"):
                    rt = await self.lobby.recover_one(row, fence=lambda: self.holds(code))
                if rt is None:  # over, or broken: out of the shared lobby too
                    await self.forget(code)
                else:
                    log.info("cluster: node %s owns table %s now", self.node, code)
                    await self.publish_info(rt)
        except Exception:
            log.exception("cluster: taking over table %s failed", code)
            with contextlib.suppress(Exception):
                await self.release(code)
            rt = None
        finally:
            del self.adopting[code]
            fut.set_result(rt)
        return rt

    async def adopt_new(self, code: str) -> bool:
        """Take the lease of a code not yet stored (a table being created)."""
        return await self.acquire(code)

    async def route(self, code: str) -> TableRuntime | str | None:
        """Where table ``code`` lives: this node's runtime, another node's id, or None
        (no such table, or it is over and offers no rematch)."""
        rt = self.lobby.serving(code)
        if rt is not None:
            return rt
        if code in self.adopting:
            return await asyncio.shield(self.adopting[code])
        for _ in range(2):  # once more if another node took it over meanwhile
            owner = await self.owner(code)
            if owner is not None and owner != self.node:
                return owner
            rt = await self.adopt(code)
            if rt is not None:
                return rt
        return None

    async def drop(self, code: str) -> None:
        """Stop serving ``code`` here (its lease is gone): its clients reconnect."""
        self.valid_until.pop(code, None)
        rt = self.lobby.tables.pop(code, None) or self.lobby.rematching.pop(code, None)
        if rt is not None:
            await rt.close()  # a race window's actions are refused: none was stored
        self._disconnect(code)

    async def give_up(self, code: str) -> None:
        """A write of ``code`` found its epoch moved on: another node claimed the table
        since this one did (Redis lost the lease: a restart without persistence, a
        flush, an eviction). Stop serving it here and free its lease if this node still
        holds it: the node with the current epoch serves it, or the next node to take
        the free lease claims it anew from the log."""
        await self.drop(code)
        with contextlib.suppress(Exception):  # Redis away: the lease runs out instead
            await self.release(code)

    def _disconnect(self, code: str) -> None:
        """Tell every client of ``code`` here to reconnect (the proxy finds the owner)."""
        for ws in self.sockets.pop(code, set()):
            self._spawn(_close(ws, MOVED))
        for cid, r in list(self.remote.items()):
            if r.rt.code == code:
                self._send(r.relay, {"k": "end", "c": cid, "code": MOVED})
                r.inbox.put_nowait(None)
                del self.remote[cid]

    async def drain(self, until: float | None = None) -> None:
        """Hand every table of this node to the others (SIGTERM): finish what is held in
        a race window, stop writing, release the lease, and ask a live node to take the
        table over at once; then tell this node's clients to reconnect. Waits for Redis
        until ``until`` (loop time; default ``QUIT_WAIT`` from now) in all: with Redis
        away the leases run out instead and the others take the tables then."""
        if self.draining:
            return
        self.draining = True
        if until is None:
            until = asyncio.get_running_loop().time() + QUIT_WAIT
        peers: list[str] = []
        answered, found = await _within(self.nodes, until)
        if answered:
            peers = [n for n in found if n != self.node]
        else:  # Redis away: ask it nothing more
            until, self._redis_away = 0.0, True
        codes = list(self.lobby.tables)
        handed: defaultdict[str, list[str]] = defaultdict(list)
        for i, code in enumerate(codes):
            rt = self.lobby.tables.pop(code, None)
            if rt is None:  # it ended while an earlier table was handed over
                continue
            async with rt.lock:
                await rt.settle()
                self.valid_until.pop(code, None)  # no write from here on
            await rt.close()
            if not (await _within(partial(self.release, code), until))[0]:
                until, self._redis_away = 0.0, True  # Redis away: its lease runs out
            if peers:
                handed[peers[i % len(peers)]].append(code)
            self._disconnect(code)
        for code in list(self.lobby.rematching):  # finished: the rematch offer ends here
            rt = self.lobby.rematching.pop(code)
            await rt.close()
            if not (await _within(partial(self.release, code), until))[0]:
                until, self._redis_away = 0.0, True
            self._disconnect(code)
        for peer, moved in handed.items():
            self._send(peer, {"k": "adopt", "codes": moved})
        for cid, remote in list(self.remote.items()):  # clients of tables that ended meanwhile
            self._send(remote.relay, {"k": "end", "c": cid, "code": MOVED})
        for relayed in list(self.relayed.values()):
            self._spawn(_close(relayed.ws, MOVED))
        await self._flush_now(until)
        if codes:  # a warning, so that it shows at uvicorn's default log level
            log.warning("cluster: node %s handed %d tables to %s", self.node, len(codes),
                     ", ".join(handed) or "nobody (they are taken over when their leases "
                     "run out)")

    async def nodes(self) -> list[str]:
        """The nodes alive now (their heartbeats)."""
        start = len(self._heartbeat(""))
        return sorted([k.decode()[start:] async for k in
                       self.redis.scan_iter(match=self._heartbeat("*"))])

    # -- the lobby every node shows ------------------------------------------------------
    async def publish_info(self, rt: TableRuntime) -> None:
        await self.redis.hset(f"{self.prefix}info", rt.code, json.dumps(rt.public_info("en")))

    async def refresh_info(self) -> None:
        tables = list(self.lobby.tables.values())
        if tables and not self.draining:
            await self.redis.hset(f"{self.prefix}info", mapping={
                rt.code: json.dumps(rt.public_info("en")) for rt in tables})

    async def forget(self, code: str) -> None:
        """``code`` ended (over, expired): out of the shared lobby, its lease given up."""
        await self.redis.hdel(f"{self.prefix}info", code)
        await self.release(code)

    async def unlist(self, code: str) -> None:
        """``code`` is over but offers a rematch: out of the shared lobby of live tables,
        its lease kept (its players' connections still come to this node)."""
        await self.redis.hdel(f"{self.prefix}info", code)

    async def listing(self, lang: str) -> list[dict[str, Any]]:
        """The live tables other nodes own, as the lobby lists them in ``lang``."""
        out = []
        for code, raw in (await self.redis.hgetall(f"{self.prefix}info")).items():
            if _text(code) not in self.lobby.tables:
                out.append(localised(json.loads(raw), lang))
        return out

    async def info(self, code: str, lang: str) -> dict[str, Any] | None:
        raw = await self.redis.hget(f"{self.prefix}info", code)
        return None if raw is None else localised(json.loads(raw), lang)

    async def allow_join(self, client: str) -> bool:
        """The cluster-wide join limit: at most ``joins_per_minute`` seats per client
        address in each minute (a counter per minute in Redis)."""
        limit = self.config.joins_per_minute
        if limit <= 0:
            return True
        key = f"{self.prefix}joins:{client}:{int(time.time() // 60)}"
        pipe = self.redis.pipeline(transaction=False)
        pipe.incr(key)
        pipe.expire(key, 120)
        count, _ = await pipe.execute()
        return int(count) <= limit

    # -- calls to the owner -----------------------------------------------------------------
    async def call(self, node: str, op: str, args: dict[str, Any],
                   timeout: float = 5.0) -> dict[str, Any]:
        """Ask ``node`` to run ``op`` (``join``) with ``args``; its answer."""
        cid = secrets.token_hex(8)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.calls[cid] = fut
        self._send(node, {"k": "call", "id": cid, "from": self.node, "op": op}, json.dumps(args))
        try:
            return await asyncio.wait_for(fut, timeout)
        finally:
            self.calls.pop(cid, None)

    async def _serve_call(self, head: dict[str, Any], body: str) -> None:
        handler = self.handlers.get(head.get("op", ""))
        try:
            answer = await handler(json.loads(body)) if handler else {"error": "unknown call"}
        except Exception as e:  # reported to the caller, who answers its client
            log.exception("cluster: call %s failed", head.get("op"))
            answer = {"error": f"{type(e).__name__}: {e}"}
        self._send(head["from"], {"k": "reply", "id": head["id"]}, json.dumps(answer))

    @property
    def handlers(self) -> dict[str, Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]]:
        return {"join": self.lobby.join_here}

    # -- relay ----------------------------------------------------------------------------------
    async def relay(self, ws: WebSocket, conn: Conn, code: str, owner: str) -> None:
        """Serve a client of table ``code`` (owned by ``owner``) from this node: check
        its messages here, pass them to the owner, and the owner's answers back."""
        cid = secrets.token_hex(8)
        self.relayed[cid] = Relayed(conn, ws, code, owner)
        self._send(owner, {"k": "open", "c": cid, "t": code, "from": self.node,
                           "lang": conn.lang, "addr": conn.address})
        framing = Framing(conn, self.config)
        loop = asyncio.get_running_loop()
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                frame = framing.check(message, loop.time())
                if frame is not None:
                    self._send(owner, {"k": "msg", "c": cid, "from": self.node},
                               frame.text)
        except Exception:  # the client went away
            pass
        finally:
            if self.relayed.pop(cid, None) is not None:
                self._send(owner, {"k": "close", "c": cid})
            conn.close()
            await conn.flush()

    def _open(self, head: dict[str, Any]) -> None:
        """A client of another node for a table of this one (its ``hello`` follows)."""
        cid, relay = head["c"], head["from"]
        rt = self.lobby.serving(head["t"])
        if rt is None or self.draining or not self.holds(rt.code):
            self._send(relay, {"k": "end", "c": cid, "code": MOVED})
            return
        channel = self._channel(relay)
        prefix = json.dumps({"k": "out", "c": cid}) + "\n"

        async def send(message: dict[str, Any]) -> None:  # the ASGI send of a relay
            self._out.append((channel, prefix + message["text"]))
            self._schedule_flush()

        conn = Conn(send, str(head.get("addr", "")))
        conn.lang = str(head.get("lang", "en"))

        async def hangup(code: int, _reason: str) -> None:  # the relay closes the socket
            if self.remote.pop(cid, None) is not None:  # after what was sent before
                self._send(relay, {"k": "end", "c": cid, "code": code})
                remote.inbox.put_nowait(None)

        conn.hangup = hangup
        remote = self.remote[cid] = Remote(conn, rt, relay)
        remote.task = asyncio.get_running_loop().create_task(self._serve_remote(remote))

    async def _serve_remote(self, r: Remote) -> None:
        try:
            while (item := await r.inbox.get()) is not None:
                msg, arrival = item
                await handle(r.rt, r.conn, msg, arrival, via="relayed ")
        finally:
            await r.rt.detach(r.conn)

    async def _check_relays(self) -> None:
        """Clients relayed to an owner that lost the table reconnect (to the new one)."""
        relayed = list(self.relayed.values())  # those that come meanwhile wait a round
        codes = sorted({r.code for r in relayed})
        if not codes:
            return
        nodes = sorted({r.owner for r in relayed})
        found = await self.redis.mget([*(self._lease(c) for c in codes),
                                       *(self._heartbeat(n) for n in nodes)])
        owners = dict(zip(codes, found[:len(codes)], strict=True))
        alive = {n for n, beat in zip(nodes, found[len(codes):], strict=True) if beat}
        for r in relayed:
            now = owners[r.code]
            # moved, or its owner is gone (a table that ended has no lease: it stays)
            if (now is not None and _text(now) != r.owner) or r.owner not in alive:
                self._spawn(_close(r.ws, MOVED))

    async def _check_remote(self) -> None:
        """Clients whose relay node died are disconnected here (their seats' grace runs).
        The relay is told all the same: a heartbeat is also missing for a moment after
        Redis restarted empty, and a relay alive must not keep a client nobody serves."""
        remote = list(self.remote.items())
        relays = sorted({r.relay for _, r in remote})
        if not relays:
            return
        beats = await self.redis.mget([self._heartbeat(n) for n in relays])
        dead = {n for n, b in zip(relays, beats, strict=True) if b is None}
        for cid, r in remote:
            if r.relay in dead and self.remote.pop(cid, None) is not None:
                self._send(r.relay, {"k": "end", "c": cid, "code": MOVED})
                r.inbox.put_nowait(None)

    # -- the node's channel ---------------------------------------------------------------
    def _send(self, node: str, head: dict[str, Any], body: str = "") -> None:
        self._out.append((self._channel(node), json.dumps(head) + "\n" + body))
        self._schedule_flush()

    def _schedule_flush(self) -> None:
        if self._flusher is None:
            self._flusher = asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        """Publish what waits, in order, one pipeline per batch. A batch that fails is
        dropped (the connections it served start over, ``_unsent``) and the next one
        waits a back-off: Redis away is not hammered, and this never spins."""
        failures = 0
        try:
            while self._out:
                batch, self._out = self._out, []
                pipe = self.redis.pipeline(transaction=False)
                for channel, data in batch:
                    pipe.publish(channel, data)
                try:
                    heard = await pipe.execute()
                    failures = 0
                    # a channel nobody listens to (its node subscribing again after a
                    # lost connection, or dead) dropped the message: as if never sent
                    self._unsent([m for m, n in zip(batch, heard, strict=True) if not n])
                except Exception as e:
                    failures += 1
                    if failures == 1:
                        log.exception("cluster: publishing %d messages failed", len(batch))
                    else:
                        log.warning("cluster: publishing %d messages failed again (%d): %s",
                                    len(batch), failures, e)
                    self._unsent(batch)
                    # Endings go again: a lost "end" leaves a relayed client connected
                    # to nothing (waiting forever if its table ended meanwhile), a lost
                    # "close" an owner's connection for nobody. (A channel nobody
                    # hears, above, starts its relays over when it subscribes again.)
                    self._out[:0] = [m for m in batch if _head(m[1]).get("k") in ENDINGS]
                    await asyncio.sleep(backoff(failures))
        finally:
            self._flusher = None

    def _unsent(self, batch: list[tuple[str, str]]) -> None:
        """Messages that never arrived (not sent, or nobody subscribed to the channel):
        the relays they belonged to start over (their clients reconnect and get the
        whole state again); a call fails at once."""
        for _, data in batch:
            head = _head(data)
            if "c" in head:
                self._end_relay(str(head["c"]))
            elif head.get("k") == "call":
                fut = self.calls.get(str(head.get("id")))
                if fut is not None and not fut.done():
                    fut.set_exception(RedisConnectionError("the call could not be sent"))

    def _end_relay(self, cid: str) -> None:
        """The relayed connection ``cid`` lost messages: end it on this node's side,
        and tell the other side (which ends it too if that arrives)."""
        rel = self.relayed.pop(cid, None)
        if rel is not None:  # a client of this node: it reconnects
            self._send(rel.owner, {"k": "close", "c": cid})
            self._spawn(_close(rel.ws, MOVED))
        r = self.remote.pop(cid, None)
        if r is not None:  # a client relayed to this owner: its relay closes it
            self._send(r.relay, {"k": "end", "c": cid, "code": MOVED})
            r.inbox.put_nowait(None)

    def _channel_lost(self) -> None:
        """This node's subscription lapsed: what was published to it meanwhile is gone.
        Every relayed connection through this node starts over, and calls waiting for
        an answer fail (the client gets 503 and may try again)."""
        for cid in [*self.relayed, *self.remote]:
            self._end_relay(cid)
        for fut in self.calls.values():
            if not fut.done():
                fut.set_exception(RedisConnectionError("the node's channel lapsed"))

    async def _flush_now(self, until: float | None = None) -> None:
        """Publish what waits now; wait for it until ``until`` (loop time) at most."""
        self._schedule_flush()
        if self._flusher is not None:
            flusher = self._flusher
            left = None if until is None else until - asyncio.get_running_loop().time()
            with contextlib.suppress(asyncio.TimeoutError, Exception):
                await asyncio.wait_for(asyncio.shield(flusher), left)

    async def _subscribe(self) -> None:
        """Subscribe to this node's channel on a new connection, and return only once
        Redis confirmed the subscription (else raise: no half-made subscription stays)."""
        old, self._pubsub, self._listening = self._pubsub, None, False
        if old is not None:
            await _within(old.aclose, asyncio.get_running_loop().time() + 1.0)
        channel = self._channel(self.node)
        pubsub = self.redis.pubsub()

        async def confirmed() -> None:
            await pubsub.subscribe(channel)
            while True:  # what comes first on this connection is the confirmation
                message = await pubsub.get_message(timeout=SUBSCRIBE_WAIT)
                if message is None:
                    raise RedisConnectionError("Redis did not confirm the subscription")
                if message["type"] == "subscribe" and _text(message["channel"]) == channel:
                    return

        try:
            await asyncio.wait_for(confirmed(), SUBSCRIBE_WAIT)
            if not pubsub.subscribed:
                raise RedisConnectionError("the subscription was lost at once")
        except BaseException:
            await _within(pubsub.aclose, asyncio.get_running_loop().time() + 1.0)
            raise
        self._pubsub, self._listening = pubsub, True
        self._epoch += 1

    async def _check_channel(self) -> None:
        """Redis really holds this node's subscription (a round's step). If not — a
        Redis restarted while the client still believes it subscribed, a connection
        half open — the listener subscribes again within ``LISTEN_POLL``."""
        epoch = self._epoch
        if not self._listening:
            return
        [(_, count)] = await self.redis.pubsub_numsub(self._channel(self.node))
        if int(count) == 0 and self._listening and epoch == self._epoch:
            log.warning("cluster: Redis has no subscription of node %s; subscribing again",
                        self.node)
            self._listening = False

    async def _listen(self) -> None:
        """Receive this node's channel. After a failure (a lost connection, Redis away,
        a subscription that lapsed) subscribe again, after a back-off, until Redis
        confirms it; every way round this loop awaits."""
        loop = asyncio.get_running_loop()
        failures = 0
        while not self._closing:
            began, problem = None, None
            try:
                if not self._listening:
                    await self._subscribe()
                    log.warning("cluster: node %s subscribed to its channel again",
                                self.node)
                    self._channel_lost()
                began = loop.time()
                await self._receive_all()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                problem = e
            # a subscription that held a while starts the back-off afresh; one that
            # breaks at once (or cannot be made) waits longer each time
            if began is not None and loop.time() - began >= LISTEN_STABLE:
                failures = 0
            failures += 1
            if problem is not None and failures == 1:
                log.error("cluster: the node's channel failed; subscribing again",
                          exc_info=problem)
            elif problem is not None and failures % 10 == 0:
                log.warning("cluster: subscribing to the node's channel still fails "
                            "(%d tries): %s: %s", failures, type(problem).__name__, problem)
            self._listening = False
            await asyncio.sleep(backoff(failures))

    async def _receive_all(self) -> None:
        """Dispatch the messages of the subscription made last, until it must be made
        again (told by ``_check_channel``, or the client lost it); raise on errors."""
        loop = asyncio.get_running_loop()
        pubsub, epoch, early = self._pubsub, self._epoch, 0
        while self._listening and self._epoch == epoch and pubsub.subscribed \
                and not self._closing:
            asked = loop.time()
            message = await pubsub.get_message(timeout=LISTEN_POLL)
            if message is None:
                if loop.time() - asked < LISTEN_POLL / 2:  # not waited as asked: broken?
                    early += 1
                    if early >= 10:
                        raise RedisConnectionError("the node's channel answers at once")
                    await asyncio.sleep(LISTEN_POLL / 10)
                continue
            early = 0
            kind = message["type"]
            if kind == "message":
                try:
                    head_text, _, body = message["data"].decode().partition("\n")
                    self._receive(json.loads(head_text), body, loop.time())
                except Exception:
                    log.exception("cluster: a message on the node's channel failed")
            elif kind == "subscribe":  # the client reconnected and subscribed by itself:
                log.warning("cluster: node %s's channel reconnected", self.node)
                self._channel_lost()  # what was published meanwhile is gone

    def _receive(self, head: dict[str, Any], body: str, arrival: float) -> None:
        """One message on this node's channel, in the order they were sent."""
        kind = head["k"]
        if kind == "msg":  # a relayed client's message, stamped on arrival here
            r = self.remote.get(head["c"])
            if r is not None:
                r.inbox.put_nowait((json.loads(body), arrival))
            elif "from" in head:  # a connection this node does not serve (any more, or
                # its ``open`` was lost): its relay closes it and the client reconnects
                self._send(head["from"], {"k": "end", "c": head["c"], "code": MOVED})
        elif kind == "out":  # the owner's message to a client relayed by this node
            rel = self.relayed.get(head["c"])
            if rel is not None:
                rel.conn.send(body)
        elif kind == "open":
            self._open(head)
        elif kind == "close":
            r = self.remote.pop(head["c"], None)
            if r is not None:
                r.inbox.put_nowait(None)
        elif kind == "end":
            rel = self.relayed.pop(head["c"], None)
            if rel is not None:
                self._spawn(_close(rel.ws, int(head.get("code", MOVED))))
        elif kind == "call":
            self._spawn(self._serve_call(head, body))
        elif kind == "reply":
            fut = self.calls.get(head["id"])
            if fut is not None and not fut.done():
                fut.set_result(json.loads(body))
        elif kind == "adopt":  # a draining node hands these over
            for code in head["codes"]:
                self._spawn(self.adopt(code))


async def _close(ws: WebSocket, code: int) -> None:
    with contextlib.suppress(Exception):
        await ws.close(code=code)


__all__ = ["MOVED", "Cluster"]
