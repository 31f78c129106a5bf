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
