"""Load test of the game server: N tables of bot clients over real WebSockets on loopback.

Starts ``spieltisch serve`` as a subprocess on a fresh SQLite file (or ``--db``), then
runs N tables of ``--players`` seats from ``--clients`` separate client processes. Every
seat is a WebSocket client that, when the game waits for it, thinks for an exponentially
distributed time (mean ``--think`` seconds, default 1 s: a brisk human at a card table;
0 = answer at once, an unbounded closed loop that measures capacity, not people) and then
plays a random legal action. A finished game is replaced by a new table (create, join,
connect: lobby traffic is part of the load). ``--bots N`` makes the last N seats of every
table medium bots, which the server plays.

All tables are created, joined and connected first; the measurement starts when every
seat is connected ("go") and lasts ``--seconds``. Prints actions/s, the latency from
sending an action to receiving the update with it (p50/p95/p99/max), errors, games
finished, the server's CPU time per action (its own process; the clients run elsewhere)
and the clients' CPU share, and the server's resident memory per table at the start and
the end of the run (finished games must not accumulate).

``--signed-in half`` seats signed-in people at every other table (guests at the rest) and
prints the latency of each kind side by side; ``all`` signs in every person. A signed-in
person sends its session cookie with every request and the WebSocket upgrade, and its
CSRF token with the create and join requests (docs/server.md, "Accounts and privacy").
Their accounts and sessions are written to the database before the run, as sign-ups
would leave them (one password hash for all: Argon2id costs once per sign-in, never per
action, and the server's sign-in rate limit would not let one address sign in thousands).

    .venv/bin/python benchmarks/server_load.py --tables 500 --seconds 60
    .venv/bin/python benchmarks/server_load.py --tables 200 --think 0 --seconds 30
    .venv/bin/python benchmarks/server_load.py --tables 500 --seconds 60 --signed-in half
    .venv/bin/python benchmarks/server_load.py --tables 200 --seconds 30 --profile prof.out
    .venv/bin/python -c "import pstats; pstats.Stats('prof.out').sort_stats('tottime')\
.print_stats(30)"
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing as mp
import os
import random
import resource
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

SAMPLE_EVERY = 5.0  # seconds between samples of the server's memory


def rss_kib(pid: int | list[int]) -> int:
    """Resident memory of a process (or the sum of several; a gone one counts 0)."""
    if isinstance(pid, list):
        return sum(rss_kib(p) for p in pid)
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


#: CPU seconds of the cluster nodes killed during a run (``--kill-after``), as last read.
KILLED_CPU: dict[int, tuple[float, float]] = {}


def cpu_times(pid: int | list[int]) -> tuple[float, float]:
    """(user, system) CPU seconds of a process so far (or the sum of several)."""
    if isinstance(pid, list):
        both = [cpu_times(p) for p in pid]
        return sum(u for u, _ in both), sum(s for _, s in both)
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return KILLED_CPU.get(pid, (0.0, 0.0))
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(p / 100 * len(s)))]


# -- one client process ------------------------------------------------------------------

class Run:
    """One client process's view of the run: timing, counters, the go signal."""

    def __init__(self, think: float) -> None:
        self.think = think
        self.go = asyncio.Event()
        self.stop_at = float("inf")  # monotonic; set at "go"
        self.latencies: list[float] = []
        #: The latencies of signed-in people's actions (``--signed-in``), apart.
        self.signed_latencies: list[float] = []
        self.actions = 0
        self.games = 0
        self.errors: dict[str, int] = {}
        #: The seats' listening limits, moved to 2 s after the end at "go".
        self.limits: set[asyncio.Timeout] = set()

    def deadline(self) -> float | None:
        """When the seats stop listening, in loop time (``None`` before "go")."""
        if self.stop_at == float("inf"):
            return None
        return asyncio.get_running_loop().time() + (self.stop_at - time.monotonic()) + 2

    def start(self, stop_at: float) -> None:
        self.stop_at = stop_at
        when = self.deadline()
        for limit in self.limits:
            limit.reschedule(when)
        self.go.set()

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1

    def running(self) -> bool:
        return time.monotonic() < self.stop_at


UPDATE = '{"type": "update", "index": '  # how every update starts (the server's json.dumps)
LEGAL = '"legal": '
INDEX = '"index": '
DECODE = json.JSONDecoder().raw_decode


def top_level_flag(raw: str, key: str) -> bool:
    """Whether a snapshot's top-level ``key`` is true. "over", "required" and "legal" are
    its last fields (after the view), so their last occurrence is theirs."""
    at = raw.rfind(f'"{key}": ')
    return at >= 0 and raw.startswith("true", at + len(key) + 4)


async def seat_client(ws: Any, run: Run, rng: random.Random, signed: bool = False) -> None:
    """Play one seat until the game ends (or the run does); a ``signed`` (in) person's
    latencies are kept apart.

    Parses only what it needs (the clients share the cores with the server): an update's
    index, and the legal actions when the seat is to act; the views are never decoded.
    """
    latencies = run.signed_latencies if signed else run.latencies
    pending: dict[int, float] = {}  # action index -> send time
    sent_at: dict[int, float] = {}  # client message id -> send time
    n = 0
    ready = False  # "ready" said: the first deal is on this seat's screen (docs/server.md)
    acted = -1  # the state (its index) this seat last acted on: one action per state
    # after the end of the run nobody acts any more: stop listening 2 s after it (one
    # timer per seat, set at "go"; a timer per message cost as much as the message)
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout_at(run.deadline()) as limit:
            run.limits.add(limit)
            try:
                while True:
                    raw = await ws.recv()
                    if raw.startswith(UPDATE):
                        index = int(raw[len(UPDATE):raw.index(",", len(UPDATE))])
                        sent = pending.pop(index, None)
                        if sent is not None and run.go.is_set() and run.running():
                            latencies.append(time.perf_counter() - sent)
                            run.actions += 1
                    elif raw.startswith('{"type": "ack"'):
                        msg = json.loads(raw)
                        pending[msg["index"]] = sent_at.pop(msg["id"], time.perf_counter())
                        continue
                    elif raw.startswith('{"type": "error"'):
                        msg = json.loads(raw)
                        run.error(msg["code"])
                        sent_at.pop(msg.get("id"), None)
                        continue
                    elif raw.startswith('{"type": "ping"'):  # the server measures the lag
                        msg = json.loads(raw)
                        await ws.send(json.dumps({"type": "pong", "id": msg["id"]}))
                        continue
                    if LEGAL not in raw:  # no snapshot (seats, pong) or not started yet
                        continue
                    if not ready:  # a started game's first snapshot: its deal is shown
                        ready = True
                        await ws.send('{"type": "ready"}')
                    if top_level_flag(raw, "over"):
                        return
                    if not top_level_flag(raw, "required"):
                        continue
                    # the state's index: actions applied so far (an update tells the
                    # index of its action); the fresh state the clocks' start brings must
                    # not draw a second action on the same state
                    at = raw.index(INDEX) + len(INDEX)
                    index = int(raw[at:raw.index(",", at)]) + raw.startswith(UPDATE)
                    legal = DECODE(raw, raw.rindex(LEGAL) + len(LEGAL))[0]
                    if not legal or index == acted:
                        continue
                    acted = index
                    await run.go.wait()
                    if run.think > 0:
                        await asyncio.sleep(rng.expovariate(1 / run.think))
                    if not run.running():
                        return
                    n += 1
                    sent_at[n] = time.perf_counter()
                    await ws.send(json.dumps({"type": "action", "id": n,
                                              "action": rng.choice(legal)}))
            finally:
                run.limits.discard(limit)


def session_headers(session: tuple[str, str] | None, change: bool = True) -> dict[str, str]:
    """What a signed-in person's browser sends: the session cookie, and the CSRF token
    with a change; nothing for a guest."""
    if session is None:
        return {}
    token, csrf = session
    return {"cookie": f"st_session={token}", **({"x-csrf-token": csrf} if change else {})}


async def open_table(http: httpx.AsyncClient, bases: list[str], game: str,
                     players: int, bots: int = 0, first: int = 0,
                     sessions: list[tuple[str, str]] | None = None) -> list[Any]:
    """Create a table (its last ``bots`` seats medium bots), join every human seat,
    connect and say hello: the open sockets. With several nodes (``bases``) the table is
    created on node ``first`` and seat i joins and connects to node ``first + i``, so most
    seats are relayed to the owner. ``sessions``: the people are signed in, seat i with
    session i (its token and CSRF token)."""
    seats = ["human"] * (players - bots) + ["bot:medium"] * bots
    n = len(bases)

    def who(i: int) -> tuple[str, str] | None:
        return sessions[i] if sessions else None

    r = await http.post(f"{bases[first % n]}/api/tables", headers=session_headers(who(0)),
                        json={"game": game, "players": players, "seats": seats})
    r.raise_for_status()
    code = r.json()["code"]
    sockets = []
    for i in range(players - bots):
        base = bases[(first + i) % n]
        j = await http.post(f"{base}/api/tables/{code}/join", json={"name": f"p{i}"},
                            headers=session_headers(who(i)))
        j.raise_for_status()
        ws = await connect(f"{base.replace('http', 'ws')}/ws/{code}", max_size=1 << 24,
                           open_timeout=300,
                           additional_headers=session_headers(who(i), change=False))
        await ws.send(json.dumps({"type": "hello", "token": j.json()["token"]}))
        sockets.append(ws)
    return sockets


async def table_loop(http: httpx.AsyncClient, bases: list[str], args: argparse.Namespace,
                     run: Run, seed: int, ready: asyncio.Semaphore) -> None:
    rng = random.Random(seed)
    first = True
    sessions = args.sessions.get(seed)  # signed-in people at this table (--signed-in)
    while run.running():
        try:
            sockets = await open_table(http, bases, args.game, args.players, args.bots,
                                       rng.randrange(len(bases)), sessions)
        except httpx.TransportError as e:  # a kept-alive connection the server closed
            run.error(f"setup {type(e).__name__}")  # (a stall on a loaded machine): anew
            continue
        if first:
            ready.release()
            first = False
        try:
            await asyncio.gather(*(seat_client(ws, run, random.Random(rng.random()),
                                               bool(sessions)) for ws in sockets))
        except Exception as e:  # a node went away (--kill-after): a new table
            run.error(f"socket {type(e).__name__}")
            continue
        finally:
            for ws in sockets:
                await ws.close()
        if run.running():
            run.games += 1


async def client_main(base: str, args: argparse.Namespace, seeds: list[int],
                      to_main: Any, from_main: Any) -> dict[str, Any]:
    run = Run(args.think)
    ready = asyncio.Semaphore(0)
    # idle keep-alive connections expire before uvicorn's 5 s would close them under us
    limits = httpx.Limits(max_connections=100, keepalive_expiry=2)
    async with httpx.AsyncClient(timeout=300, limits=limits) as http:
        tasks = [asyncio.create_task(table_loop(http, base.split(","), args, run, s, ready))
                 for s in seeds]
        for _ in seeds:
            waiter = asyncio.create_task(ready.acquire())
            done, _ = await asyncio.wait([waiter, *tasks], return_when=asyncio.FIRST_COMPLETED)
            for t in done:  # a table failed to start: say why
                if t is not waiter and t.exception() is not None:
                    raise t.exception()  # type: ignore[misc]
            await waiter
        # the 2000-odd sockets and their protocol objects live all run long: keep them
        # out of the collector's scans, whose pauses would otherwise show up as latency
        gc.collect()
        gc.freeze()
        gc.set_threshold(20_000, 50, 50)
        to_main.put("ready")
        loop = asyncio.get_running_loop()
        stop_at = await loop.run_in_executor(None, from_main.get)
        cpu0 = time.process_time()
        run.start(stop_at)
        # the seats stop 2 s after the end; a table still setting up is cut off later
        _, late = await asyncio.wait(tasks, timeout=args.seconds + 30)
        for t in late:
            t.cancel()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        for r in results:
            if isinstance(r, BaseException) and not isinstance(r, asyncio.CancelledError):
                run.error(f"client {type(r).__name__}")
    return {"latencies": run.latencies, "signed_latencies": run.signed_latencies,
            "actions": run.actions, "games": run.games,
            "errors": run.errors, "cpu": time.process_time() - cpu0}


def client_loop_factory(name: str) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop unless told otherwise (or not installed): the clients share the cores with
    the server, so every microsecond they spend is one the server may wait for."""
    if name == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        if name == "uvloop":
            raise
        return None
    return uvloop.new_event_loop  # type: ignore[no-any-return]


def client_process(base: str, args: argparse.Namespace, seeds: list[int], to_main: Any,
                   from_main: Any, results: Any) -> None:
    # 2000 sockets per process and more: lift the soft limit on open files
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    try:
        prof = None
        if args.profile_clients:  # one cProfile per client process: FILE.0, FILE.1, ...
            import cProfile

            prof = cProfile.Profile()
            prof.enable()
        with asyncio.Runner(loop_factory=client_loop_factory(args.client_loop)) as runner:
            out = runner.run(client_main(base, args, seeds, to_main, from_main))
        if prof is not None:
            prof.disable()
            prof.dump_stats(f"{args.profile_clients}.{seeds[0] if seeds else 0}")
        results.put(out)
    except BaseException as e:
        to_main.put(f"failed: {type(e).__name__}: {e}")
        results.put({"failed": f"{type(e).__name__}: {e}"})


# -- the driver ------------------------------------------------------------------------------

def failover(args: argparse.Namespace, bases: list[str], pid: int) -> None:
    """SIGKILL node 0 ``--kill-after`` seconds into the run; print how long until each
    table it owned answers a spectator's ``hello`` through a live node (the table was
    rebuilt on another node and takes actions again)."""
    import redis

    time.sleep(args.kill_after)
    r = redis.Redis.from_url(args.redis)
    codes = [k.decode().rsplit(":", 1)[1] for k in r.scan_iter(match=f"{args.cluster}:lease:*")
             if r.get(k) == b"n0"]
    KILLED_CPU[pid] = cpu_times(pid)
    killed = time.monotonic()
    os.kill(pid, signal.SIGKILL)

    async def back(code: str, i: int) -> float:
        while True:
            base = bases[1 + i % (len(bases) - 1)].replace("http", "ws")
            with contextlib.suppress(Exception):
                async with connect(f"{base}/ws/{code}", open_timeout=30) as ws:
                    await ws.send('{"type": "hello"}')
                    while True:
                        raw = await asyncio.wait_for(ws.recv(), 30)
                        if raw.startswith('{"type": "welcome"'):
                            return time.monotonic() - killed
                        if raw.startswith('{"type": "error"'):
                            break
            await asyncio.sleep(0.05)

    async def all_back() -> list[float]:
        return await asyncio.gather(*(back(c, i) for i, c in enumerate(codes)))

    times = sorted(asyncio.run(all_back()))
    if times:
        print(f"failover: node 0 (SIGKILL at {args.kill_after:g} s) owned {len(times)} "
              f"tables; they answered again after p50 {pct(times, 50):.2f} s, "
              f"p99 {pct(times, 99):.2f} s, max {times[-1]:.2f} s (lease {args.lease:g} s)")


def measure(args: argparse.Namespace, base: str, pid: int | list[int]) -> None:
    ctx = mp.get_context("spawn")
    to_main, results = ctx.Queue(), ctx.Queue()
    go_queues = [ctx.Queue() for _ in range(args.clients)]
    rss_empty = rss_kib(pid)
    t0 = time.monotonic()
    procs = [ctx.Process(target=client_process, daemon=True,
                         args=(base, args, list(range(w, args.tables, args.clients)), to_main,
                               go_queues[w], results)) for w in range(args.clients)]
    for p in procs:
        p.start()
    for _ in procs:
        msg = to_main.get()
        if msg != "ready":
            raise SystemExit(f"a client process {msg}")
    setup = time.monotonic() - t0
    rss_start = rss_kib(pid)
    user0, sys0 = cpu_times(pid)
    stop_at = time.monotonic() + args.seconds
    start = time.monotonic()
    for q in go_queues:
        q.put(stop_at)
    if args.kill_after and isinstance(pid, list) and len(pid) > 1:
        import threading

        threading.Thread(target=failover, args=(args, base.split(","), pid[0]),
                         daemon=True).start()
    samples: list[tuple[float, int]] = []
    while time.monotonic() < stop_at:
        time.sleep(min(SAMPLE_EVERY, max(0.0, stop_at - time.monotonic())))
        samples.append((time.monotonic() - start, rss_kib(pid)))
    user1, sys1 = cpu_times(pid)
    user, system = user1 - user0, sys1 - sys0
    cpu = user + system
    elapsed = time.monotonic() - start
    parts = [results.get() for _ in procs]
    for p in procs:
        p.join(60)
    failed = [p["failed"] for p in parts if "failed" in p]
    if failed:
        raise SystemExit(f"client process failed: {failed}")
    lat = [x * 1000 for p in parts for x in p["latencies"]]
    actions = sum(p["actions"] for p in parts)
    games = sum(p["games"] for p in parts)
    errors: dict[str, int] = {}
    for p in parts:
        for k, v in p["errors"].items():
            errors[k] = errors.get(k, 0) + v
    client_cpu = sum(p["cpu"] for p in parts)
    print(f"tables {args.tables} x {args.players} seats ({args.game}"
          f"{f', {args.bots} of them medium bots' if args.bots else ''}), think "
          f"{'exp. mean ' + format(args.think, 'g') + ' s' if args.think else '0 (closed loop)'}"
          f", {elapsed:.0f} s measured after {setup:.0f} s of setup, "
          f"{args.clients} client process(es)"
          f"{f', {args.nodes} cluster nodes' if args.nodes else ''}")
    print(f"actions {actions}  actions/s {actions / elapsed:.0f}  games finished {games}")
    signed = [x * 1000 for p in parts for x in p["signed_latencies"]]
    for label, values in (("latency ms", lat + signed), ("  guests", lat),
                          ("  signed-in", signed)):
        if label != "latency ms" and (not signed or not lat):
            continue  # one kind of player only: the line above is theirs
        print(f"{label:<11} p50 {pct(values, 50):.1f}  p95 {pct(values, 95):.1f}  "
              f"p99 {pct(values, 99):.1f}  max {max(values, default=float('nan')):.1f}"
              f"  ({len(values)} actions)")
    if signed and lat:
        print(f"signed-in p99 / guests' p99: {pct(signed, 99) / pct(lat, 99):.2f} "
              f"(target: within 10 %, at most 1.10)")
    print(f"errors {errors or 0}")
    print(f"server CPU {cpu:.1f} s = {cpu / elapsed * 100:.0f}% of one core, "
          f"{cpu * 1000 / max(1, actions):.2f} ms per action ({system / max(cpu, 1e-9):.0%} "
          f"in the kernel); clients "
          f"{client_cpu:.1f} s = {client_cpu / elapsed * 100:.0f}% of one core, "
          f"{client_cpu * 1000 / max(1, actions):.2f} ms per action")
    per = [(r - rss_empty) / max(1, args.tables) for _, r in samples]
    print(f"server RSS {rss_empty / 1024:.0f} MiB empty, {rss_start / 1024:.0f} MiB at go, "
          f"{samples[-1][1] / 1024 if samples else float('nan'):.0f} MiB at the end; "
          f"per live table {(rss_start - rss_empty) / max(1, args.tables):.0f} KiB at go, "
          f"{per[-1] if per else float('nan'):.0f} KiB at the end "
          f"(max {max(per, default=float('nan')):.0f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--game", default="president")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--think", type=float, default=1.0,
                    help="mean think time per move, seconds (exponential); 0 = none")
    ap.add_argument("--clients", type=int, default=1, help="client processes")
    ap.add_argument("--bots", type=int, default=0,
                    help="medium bot seats per table (the rest are human clients)")
    ap.add_argument("--db", default=None, help="SQLAlchemy URL (default: a fresh SQLite file)")
    ap.add_argument("--deflate", action="store_true",
                    help="let the server offer permessage-deflate (serve --ws-deflate)")
    ap.add_argument("--server-loop", default="auto", choices=["auto", "uvloop", "asyncio"],
                    help="the server's event loop (serve --loop; auto = uvloop if installed)")
    ap.add_argument("--no-gc-tune", action="store_true",
                    help="run the server with CPython's default collector settings")
    ap.add_argument("--client-loop", default="auto", choices=["auto", "uvloop", "asyncio"],
                    help="the client processes' event loop (auto = uvloop if installed)")
    ap.add_argument("--profile-clients", default=None, metavar="FILE",
                    help="write a cProfile of each client process to FILE.<n>")
    ap.add_argument("--profile", default=None,
                    help="write a cProfile of the server process to this file")
    ap.add_argument("--nodes", type=node_counts, default=[0],
                    help="run a cluster of this many nodes (serve --redis) on PostgreSQL "
                         "(--db, default a fresh database on 127.0.0.1) and --redis; "
                         "0: one server alone; a list (1,3) runs each in turn")
    ap.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    ap.add_argument("--signed-in", default="none", choices=["none", "half", "all"],
                    help="signed-in people at no table, every other table or every table "
                         "(their latencies printed apart from the guests')")
    ap.add_argument("--lease", type=float, default=3.0, help="the nodes' --lease (s)")
    ap.add_argument("--kill-after", type=float, default=0.0,
                    help="with --nodes 2 or more: SIGKILL node 0 this many seconds into "
                         "the run and report how soon its tables answer again")
    args = ap.parse_args()
    counts = args.nodes
    for k, count in enumerate(counts):
        if k:
            print()
        args.nodes = count
        run(args)


def node_counts(text: str) -> list[int]:
    """``--nodes``: one count or a comma-separated list of them."""
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a node count or a list of them: {text!r}"
                                         ) from None
    if any(c < 0 for c in counts):
        raise argparse.ArgumentTypeError(f"node counts are 0 or more, not {text!r}")
    return counts


def run(args: argparse.Namespace) -> None:
    """One measurement: a server alone (``args.nodes`` 0) or a cluster of that many nodes."""
    tmp = tempfile.mkdtemp(prefix="spieltisch-load-")
    db = args.db or f"sqlite:///{tmp}/load.sqlite3"
    made_db = None
    if args.nodes and not args.db:  # the nodes share a fresh PostgreSQL database
        import psycopg

        made_db = f"load_{os.getpid()}_{random.randrange(1 << 30)}"
        with psycopg.connect("host=127.0.0.1 user=postgres dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {made_db}")
        db = f"postgresql+psycopg://postgres@127.0.0.1:5432/{made_db}"
    args.cluster = f"load-{os.getpid()}"
    nodes = []
    for i in range(max(1, args.nodes)):
        cluster = ["--redis", args.redis, "--cluster", args.cluster, "--node", f"n{i}",
                   "--lease", str(args.lease)] if args.nodes else []
        nodes.append(start_server(args, tmp, db, cluster, i))
        if i == 0 and args.nodes > 1:
            wait_serving(*nodes[0])  # the first node makes the database's tables
    try:
        for node in nodes:
            wait_serving(*node)
        for line in (Path(tmp) / "server0.out").read_text().splitlines():
            if line.startswith("event loop"):
                print(f"server: {line}")
        args.sessions = sign_in(args, db)
        pids = [proc.pid for proc, _ in nodes]
        measure(args, ",".join(base for _, base in nodes), pids if args.nodes else pids[0])
        if args.sessions:
            print(f"seats taken by signed-in people: {signed_seats(db)}")
    finally:
        for proc, _ in nodes:
            proc.send_signal(signal.SIGTERM)
        for i, (proc, _) in enumerate(nodes):
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
            log = (Path(tmp) / f"server{i}.log").read_text(errors="replace").strip()
            if "Traceback" in log or "ERROR" in log:
                print(f"server log ({tmp}/server{i}.log):\n{log[-2000:]}")
        if args.nodes:  # the cluster's keys in Redis
            import redis

            r = redis.Redis.from_url(args.redis)
            for key in r.scan_iter(match=f"{args.cluster}:*"):
                r.delete(key)
            r.close()
        if made_db:
            import psycopg

            with psycopg.connect("host=127.0.0.1 user=postgres dbname=postgres",
                                 autocommit=True) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {made_db} WITH (FORCE)")


def sign_in(args: argparse.Namespace, db: str) -> dict[int, list[tuple[str, str]]]:
    """The signed-in people of ``--signed-in``: per table slot (its seed), a session
    (token, CSRF token) for each human seat. Written to the server's database as sign-up
    and sign-in would (accounts, then sessions), in one go."""
    if args.signed_in == "none":
        return {}
    from argon2 import PasswordHasher
    from sqlalchemy import insert, select

    from spieltisch.server.accounts import SESSION_SECONDS, name_key, token_hash
    from spieltisch.server.store import Store

    humans = args.players - args.bots
    step = 2 if args.signed_in == "half" else 1
    slots = list(range(1 if step == 2 else 0, args.tables, step))  # odd slots for "half"
    store = Store(db)  # the schema is the server's already: nothing to migrate
    t = store.account_tables
    hashed = PasswordHasher().hash("load test password")
    now = time.time()
    out: dict[int, list[tuple[str, str]]] = {}
    try:
        with store.engine.begin() as conn:
            names = [f"load{slot}x{i}" for slot in slots for i in range(humans)]
            conn.execute(insert(t.accounts), [
                {"name": n, "name_key": name_key(n), "password_hash": hashed, "lang": "en",
                 "created": now} for n in names])
            ids = {r.name: r.id for r in conn.execute(
                select(t.accounts.c.name, t.accounts.c.id))}
            rows = []
            for slot in slots:
                out[slot] = []
                for i in range(humans):
                    token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
                    out[slot].append((token, csrf))
                    rows.append({"token_hash": token_hash(token), "csrf": csrf,
                                 "account_id": ids[f"load{slot}x{i}"], "created": now,
                                 "expires": now + SESSION_SECONDS})
            conn.execute(insert(t.sessions), rows)
    finally:
        store.close()
    return out


def signed_seats(db: str) -> int:
    """Seats that remember an account (the signed-in people were taken for who they are)."""
    from sqlalchemy import func, select

    from spieltisch.server.store import Store

    store = Store(db)
    try:
        with store.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(store.seats).where(
                store.seats.c.account_id.is_not(None))).scalar_one())
    finally:
        store.close()


def start_server(args: argparse.Namespace, tmp: str, db: str, cluster: list[str],
                 i: int) -> tuple[subprocess.Popen[bytes], str]:
    """Start server (or cluster node) ``i``; the process and its base URL."""
    port = free_port()
    env = dict(os.environ)
    if args.profile:
        env["SPIELTISCH_PROFILE"] = str(Path(args.profile).resolve()) + (f".{i}" if i else "")
    proc = subprocess.Popen(
        [sys.executable, "-m", "spieltisch.cli.main", "serve", "--port", str(port), "--db", db,
         *cluster,
         "--bot-timing", "0", "--grace", "100000", "--messages-per-second", "100000",
         "--max-tables-per-client", "1000000", "--loop", args.server_loop,
         # every client of the benchmark comes from one address: no per-client limits
         "--http-requests-per-second", "0", "--joins-per-minute", "0",
         "--max-sockets-per-client", "0", "--max-spectators", "0",
         *(["--no-gc-tune"] if args.no_gc_tune else []),
         *(["--ws-deflate"] if args.deflate else [])],
        stdout=open(Path(tmp) / f"server{i}.out", "wb"),
        stderr=open(Path(tmp) / f"server{i}.log", "wb"), env=env)
    return proc, f"http://127.0.0.1:{port}"


def wait_serving(proc: subprocess.Popen[bytes], base: str) -> None:
    give_up = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{base}/api/games", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > give_up:
            raise SystemExit("the server did not start")
        time.sleep(0.1)


if __name__ == "__main__":
    main()
