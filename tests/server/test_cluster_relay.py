"""A node's outgoing channel messages when Redis fails to publish them (no server: the
cluster's Redis client is replaced by one whose pipelines fail, then work)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from spieltisch.server import cluster as cluster_module
from spieltisch.server.cluster import Cluster
from spieltisch.server.config import ServerConfig


class FlakyRedis:
    """Pipelines whose first ``failures`` executions raise, as with Redis away; later ones
    publish to ``published`` and report one listener per message."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.published: list[tuple[str, dict[str, Any]]] = []

    def pipeline(self, transaction: bool = True) -> FlakyRedis.Pipe:
        return FlakyRedis.Pipe(self)

    class Pipe:
        def __init__(self, redis: FlakyRedis) -> None:
            self.redis, self.items = redis, []

        def publish(self, channel: str, data: str) -> None:
            self.items.append((channel, json.loads(data.partition("\n")[0])))

        async def execute(self) -> list[int]:
            if self.redis.failures:
                self.redis.failures -= 1
                raise ConnectionError("Redis is away")
            self.redis.published.extend(self.items)
            return [1] * len(self.items)


def test_endings_lost_while_redis_is_away_go_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A relay's "end" and "close" go again until Redis takes them (a lost "end" left a
    relayed client connected to nothing: a table that ended while Redis was away kept
    its client waiting); what they ended is not sent again."""
    monkeypatch.setattr(cluster_module, "backoff", lambda failures: 0.0)

    async def flush() -> list[tuple[str, dict[str, Any]]]:
        node = Cluster(None, ServerConfig(redis_url="redis://127.0.0.1:1/0"))  # type: ignore[arg-type]
        node.redis = FlakyRedis(failures=2)  # type: ignore[assignment]
        node._send("relay-a", {"k": "end", "c": "c1", "code": 4001})
        node._send("owner-b", {"k": "close", "c": "c2"})
        node._send("owner-b", {"k": "msg", "c": "c3", "from": node.node}, "{}")
        await node._flusher  # type: ignore[misc]
        return node.redis.published  # type: ignore[attr-defined,no-any-return]

    published = asyncio.run(flush())
    assert [(ch.rsplit(":", 1)[1], head) for ch, head in published] == [
        ("relay-a", {"k": "end", "c": "c1", "code": 4001}),
        ("owner-b", {"k": "close", "c": "c2"})]


def test_the_loops_end_though_a_step_swallows_the_cancel() -> None:
    """A node leaving ends its tick loop even when a step swallows the cancel, as 3.11's
    ``asyncio.wait_for`` can when its call finishes as the cancel comes: the loop kept
    ticking and the node never exited on SIGTERM (test_cluster's deploy-script test)."""
    entered: list[bool] = []

    async def swallowing_step() -> None:
        if entered:  # once: a second cancel (asyncio.run's, at the end) ends the loop
            return
        entered.append(True)
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            pass  # as if the call had finished just then

    async def nothing() -> None:
        pass

    async def leave() -> bool:
        node = Cluster(None, ServerConfig(redis_url="redis://127.0.0.1:1/0",  # type: ignore[arg-type]
                                          lease_renew=0.01))
        for step in ("renew", "refresh_info", "_check_channel", "_check_relays",
                     "_check_remote", "scan"):
            setattr(node, step, nothing)
        node._beat = swallowing_step  # type: ignore[method-assign]
        node._loops = [asyncio.get_running_loop().create_task(node._tick_loop())]
        while not entered:
            await asyncio.sleep(0.01)
        stopping = asyncio.ensure_future(node._stop_loops())  # as Cluster.close does
        await asyncio.wait({stopping}, timeout=2)
        return stopping.done() and node._loops[0].done()

    assert asyncio.run(leave())
