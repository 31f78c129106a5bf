"""Load test of the game server: N tables of bot clients over real WebSockets on loopback.

Starts ``spieltisch serve`` as a subprocess on a fresh SQLite file (or ``--db``), then
runs N tables of ``--players`` seats; every seat is a WebSocket client that plays a
random legal action when the game waits for it, after ``--think`` seconds (mean of an
exponential delay; 0 = as fast as possible). Finished games are replaced by new tables
until ``--seconds`` have passed. Prints actions/s, the latency from sending an action
to receiving the update with it (p50/p95/p99), errors, and the server's resident memory
per table (RSS with all tables live minus RSS before, divided by N).

    .venv/bin/python benchmarks/server_load.py --tables 50 --seconds 20 --think 0.2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.errors: dict[str, int] = {}
        self.games = 0


async def seat_client(ws_url: str, token: str, stats: Stats, think: float, rng: random.Random,
                      stop_at: float) -> None:
    async with connect(ws_url, max_size=1 << 24, open_timeout=120) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        pending: dict[int, float] = {}  # action index -> send time
        sent_at: dict[str, float] = {}
        n = 0
        while True:
            try:  # after the end of the run, nobody acts any more: stop listening
                raw = await asyncio.wait_for(
                    ws.recv(), 300 if time.monotonic() < stop_at else 2)
            except TimeoutError:
                return
            msg = json.loads(raw)
            t = msg.get("type")
            if t == "ack":
                pending[msg["index"]] = sent_at.pop(str(msg["id"]), time.perf_counter())
                continue
            if t == "error":
                stats.errors[msg["code"]] = stats.errors.get(msg["code"], 0) + 1
                sent_at.pop(str(msg.get("id")), None)
                continue
            if t == "update" and msg["index"] in pending:
                stats.latencies.append(time.perf_counter() - pending.pop(msg["index"]))
                stats.actions += 1
            if "view" not in msg:
                continue
            if msg.get("over"):
                return
            if msg.get("required") and msg.get("legal") and time.monotonic() < stop_at:
                if think > 0:
                    await asyncio.sleep(rng.expovariate(1 / think))
                n += 1
                sent_at[str(n)] = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "id": n,
                                          "action": rng.choice(msg["legal"])}))
            elif time.monotonic() >= stop_at:
                return


async def table_loop(base: str, game: str, players: int, stats: Stats, think: float,
                     seed: int, stop_at: float, started: asyncio.Event | None) -> None:
    rng = random.Random(seed)
    ws_base = base.replace("http", "ws")
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        first = True
        while time.monotonic() < stop_at:
            r = await http.post("/api/tables", json={"game": game, "players": players,
                                                      "seats": ["human"] * players})
            r.raise_for_status()
            code = r.json()["code"]
            tokens = []
            for i in range(players):
                j = await http.post(f"/api/tables/{code}/join", json={"name": f"p{i}"})
                j.raise_for_status()
                tokens.append(j.json()["token"])
            clients = [seat_client(f"{ws_base}/ws/{code}", t, stats, think,
                                   random.Random(rng.random()), stop_at) for t in tokens]
            if first and started is not None:
                started.set()
                first = False
            await asyncio.gather(*clients)
            stats.games += 1


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(p / 100 * len(s)))]


async def main_async(args: argparse.Namespace, base: str, pid: int) -> None:
    stats = Stats()
    rss0 = rss_kib(pid)
    cpu0 = cpu_seconds(pid)
    stop_at = time.monotonic() + args.seconds
    events = [asyncio.Event() for _ in range(args.tables)]
    t0 = time.perf_counter()
    tasks = [asyncio.create_task(table_loop(base, args.game, args.players, stats, args.think,
                                            i, stop_at, events[i]))
             for i in range(args.tables)]
    waiting = asyncio.ensure_future(asyncio.gather(*(e.wait() for e in events)))
    done, _ = await asyncio.wait([waiting, *tasks], return_when=asyncio.FIRST_COMPLETED)
    for t in done:
        if t is not waiting and t.exception():  # a table failed to start: say why
            raise t.exception()  # type: ignore[misc]
    await waiting
    setup = time.perf_counter() - t0
    # give the tables a moment to be live, then measure memory with all of them running
    await asyncio.sleep(min(2.0, args.seconds / 4))
    rss1 = rss_kib(pid)
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - t0
    cpu = cpu_seconds(pid) - cpu0
    lat = [x * 1000 for x in stats.latencies]
    print(f"tables {args.tables} x {args.players} seats ({args.game}), think {args.think}s, "
          f"{elapsed:.1f}s (setup {setup:.1f}s)")
    print(f"actions {stats.actions}  actions/s {stats.actions / elapsed:.0f}  "
          f"games finished {stats.games}")
    print(f"latency ms  p50 {pct(lat, 50):.1f}  p95 {pct(lat, 95):.1f}  p99 {pct(lat, 99):.1f}"
          f"  max {max(lat, default=float('nan')):.1f}")
    print(f"errors {stats.errors or 0}")
    print(f"server CPU {cpu:.1f}s = {cpu / elapsed * 100:.0f}% of one core, "
          f"{cpu * 1000 / max(1, stats.actions):.2f} ms per action (all clients run in this "
          "process, on the same cores)")
    print(f"server RSS {rss0 / 1024:.1f} MiB before, {rss1 / 1024:.1f} MiB with tables live: "
          f"{(rss1 - rss0) / max(1, args.tables):.0f} KiB per table")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--game", default="president")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--think", type=float, default=0.0)
    ap.add_argument("--db", default=None, help="SQLAlchemy URL (default: a fresh SQLite file)")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="spieltisch-load-")
    db = args.db or f"sqlite:///{tmp}/load.sqlite3"
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "spieltisch.cli.main", "serve", "--port", str(port), "--db", db,
         "--bot-delay", "0", "--grace", "100000", "--messages-per-second", "100000",
         "--max-tables-per-client", "1000000"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        give_up = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/api/games", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > give_up:
                raise SystemExit("the server did not start")
            time.sleep(0.1)
        asyncio.run(main_async(args, base, proc.pid))
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()


if __name__ == "__main__":
    main()
