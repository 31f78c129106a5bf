"""One table's slow write against every other table's acks (issue 41, item 6).

A server (in this process, on loopback) serves ``--tables`` tables of President, four
people each, every seat a WebSocket client that plays a random legal action ``--think``
seconds after it may. After ``--warm`` seconds another connection holds a lock for
``--lock`` seconds: on PostgreSQL a row lock on one table's row (``SELECT ... FOR
UPDATE``), on SQLite the file's write lock (``BEGIN IMMEDIATE``). Prints the ack latency
(from sending an action to its ``ack``) of the *other* tables while the lock is held
(p50/p99/max, and how many), the same before it, what the locked table's clients got
meanwhile, and the longest a ``ping`` waited for its ``pong`` meanwhile.

    .venv/bin/python benchmarks/write_stall.py                        # PostgreSQL
    .venv/bin/python benchmarks/write_stall.py --db sqlite            # a temporary file
    PYTHONPATH=/path/to/other/src .venv/bin/python benchmarks/write_stall.py   # another tree
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sqlite3
import statistics
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


@dataclass
class Seen:
    """What the clients measured: (when sent, seconds to the ack) per table index."""

    acks: dict[int, list[tuple[float, float]]] = field(default_factory=dict)
    errors: dict[int, list[tuple[float, str]]] = field(default_factory=dict)
    pings: list[tuple[float, float]] = field(default_factory=list)


async def seat(ws_base: str, code: str, token: str, table: int, seen: Seen, think: float,
               until: float, seed: int) -> None:
    """Play one seat: a random legal action ``think`` s after the seat may act, timed."""
    rng = random.Random(seed)
    async with connect(f"{ws_base}/ws/{code}", max_size=1 << 24) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        n = 0
        sent: dict[str, float] = {}
        while time.monotonic() < until:
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
            except TimeoutError:
                continue
            now = time.monotonic()
            if msg["type"] == "ack" and msg["id"] in sent:
                seen.acks.setdefault(table, []).append((sent[msg["id"]],
                                                        now - sent.pop(msg["id"])))
            elif msg["type"] == "error" and msg.get("id") in sent:
                seen.errors.setdefault(table, []).append((sent.pop(msg["id"]), msg["code"]))
                await ws.send(json.dumps({"type": "state"}))
            elif msg.get("over"):
                return
            elif msg.get("required") and msg.get("legal") and not sent:
                await asyncio.sleep(think)
                n += 1
                sent[f"a{n}"] = time.monotonic()
                await ws.send(json.dumps({"type": "action", "id": f"a{n}",
                                          "action": rng.choice(msg["legal"])}))


async def pinger(ws_base: str, code: str, seen: Seen, until: float) -> None:
    """A spectator that pings every 0.1 s: how long the loop takes to answer."""
    async with connect(f"{ws_base}/ws/{code}") as ws:
        await ws.send(json.dumps({"type": "hello"}))
        i = 0
        while time.monotonic() < until:
            i += 1
            sent = time.monotonic()
            await ws.send(json.dumps({"type": "ping", "id": i}))
            while json.loads(await ws.recv()).get("type") != "pong":
                pass
            seen.pings.append((sent, time.monotonic() - sent))
            await asyncio.sleep(0.1)


@contextlib.contextmanager
def held_lock(db_url: str, prefix: str, table_id: int) -> Any:
    """The lock: a row lock on one table (PostgreSQL) or the file's write lock (SQLite)."""
    if db_url.startswith("sqlite"):
        conn = sqlite3.connect(db_url.removeprefix("sqlite:///"), isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            conn.execute("ROLLBACK")
            conn.close()
        return
    import psycopg

    with psycopg.connect(f"host=127.0.0.1 port=5432 user=postgres "
                         f"dbname={db_url.rsplit('/', 1)[1]}") as pg:
        pg.execute(f"SELECT id FROM {prefix}tables WHERE id = %s FOR UPDATE", (table_id,))
        try:
            yield
        finally:
            pg.rollback()


def figures(samples: list[float]) -> str:
    if not samples:
        return "none"
    s = sorted(samples)
    p99 = s[min(len(s) - 1, int(len(s) * 0.99))]
    return (f"n={len(s)} p50 {statistics.median(s) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
            f"max {s[-1] * 1000:.1f} ms")


def run(db_url: str, tables: int, think: float, warm: float, lock: float) -> Seen:
    from spieltisch.server import ServerConfig
    from spieltisch.server.loopback import LoopbackServer
    from spieltisch.server.store import Store

    prefix = f"ws{uuid.uuid4().hex[:8]}_"
    cfg = ServerConfig(db_url=db_url, table_prefix=prefix, grace_seconds=1000,
                       messages_per_second=1000, http_requests_per_second=1000,
                       http_burst=1000, joins_per_minute=10_000, max_tables_per_client=1000)
    seen = Seen()
    try:
        with LoopbackServer(cfg) as s:
            codes, tokens = [], []
            for _ in range(tables):
                r = httpx.post(f"{s.base}/api/tables", json={
                    "game": "president", "players": 4, "seats": ["human"] * 4}, timeout=60)
                code = r.json()["code"]
                codes.append(code)
                tokens.append([httpx.post(f"{s.base}/api/tables/{code}/join",
                                          json={"name": f"p{i}"}, timeout=60).json()["token"]
                               for i in range(4)])
            store = Store(db_url, prefix)
            row = store.load_table(codes[0])
            store.close()
            assert row is not None
            start = time.monotonic()
            until = start + warm + lock + 1.0
            lock_window: list[float] = []

            def locker() -> None:
                time.sleep(warm)
                with held_lock(db_url, prefix, row.id):
                    lock_window.append(time.monotonic())
                    time.sleep(lock)
                lock_window.append(time.monotonic())

            thread = threading.Thread(target=locker)
            thread.start()

            async def play() -> None:
                await asyncio.gather(
                    *(seat(s.ws_base, code, tokens[t][i], t, seen, think, until, 7 * t + i)
                      for t, code in enumerate(codes) for i in range(4)),
                    pinger(s.ws_base, codes[-1], seen, until))

            asyncio.run(play())
            thread.join()
            t0, t1 = lock_window
            others = [lat for t, acks in seen.acks.items() if t != 0 for sent, lat in acks]
            during = [lat for t, acks in seen.acks.items() if t != 0
                      for sent, lat in acks if t0 <= sent < t1]
            before = [lat for t, acks in seen.acks.items() if t != 0
                      for sent, lat in acks if sent < t0]
            locked = [(round(sent - t0, 2), round(lat, 2)) for sent, lat in
                      seen.acks.get(0, []) if sent + lat >= t0 and sent < t1 + 0.5]
            print(f"{db_url.split(':')[0]}: {tables} tables, lock held {t1 - t0:.2f} s on "
                  f"table 0")
            print(f"  other tables' acks before the lock: {figures(before)}")
            print(f"  other tables' acks while locked:    {figures(during)}")
            print(f"  other tables' acks in all:          {figures(others)}")
            print(f"  pings while locked: {figures([w for t, w in seen.pings if t0 <= t < t1])}")
            print(f"  locked table: acks (sent after lock s, latency s) {locked}; errors "
                  f"{[(round(t - t0, 2), c) for t, c in seen.errors.get(0, [])]}")
            print(f"  other tables' errors: "
                  f"{sum(len(v) for t, v in seen.errors.items() if t != 0)}")
    finally:
        store = Store(db_url, prefix)
        store.drop_all()
        store.close()
    return seen


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", default=PG_URL, help="a database URL, or 'sqlite'")
    ap.add_argument("--tables", type=int, default=8)
    ap.add_argument("--think", type=float, default=0.05)
    ap.add_argument("--warm", type=float, default=2.0)
    ap.add_argument("--lock", type=float, default=5.0)
    args = ap.parse_args()
    db = args.db
    with tempfile.TemporaryDirectory() as tmp:
        if db == "sqlite":
            db = f"sqlite:///{Path(tmp) / 'stall.sqlite3'}"
        run(db, args.tables, args.think, args.warm, args.lock)


if __name__ == "__main__":
    main()
