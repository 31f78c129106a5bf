"""A cluster of three ``spieltisch serve`` nodes on one PostgreSQL database and one Redis
(issue 25): play across nodes (behind nginx, and relayed), failover after SIGKILL,
drain on SIGTERM, one lobby and cluster-wide limits.

Each test has its own database and its own Redis key prefix (the cluster's name).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from .helpers import (
    TIMEOUT,
    Client,
    assert_no_leak,
    create_table,
    has_view,
    join,
    play_scripted,
    wait_until_serving,
)
from .test_crash import SERVING

psycopg = pytest.importorskip("psycopg")
redis = pytest.importorskip("redis")

PG = "host=127.0.0.1 port=5432 user=postgres"
REDIS = "redis://127.0.0.1:6379/0"
ROOT = Path(__file__).resolve().parents[2]


def _services() -> str | None:
    try:
        with psycopg.connect(f"{PG} dbname=test", connect_timeout=3):
            pass
        redis.Redis.from_url(REDIS, socket_connect_timeout=3).ping()
    except Exception as e:
        return str(e)
    return None


_missing = _services()
if _missing and os.environ.get("SPIELTISCH_REQUIRE_POSTGRES"):
    raise RuntimeError(f"the cluster tests need PostgreSQL and Redis: {_missing}")
pytestmark = pytest.mark.skipif(_missing is not None,
                                reason=f"PostgreSQL or Redis not reachable: {_missing}")


class Node:
    """One ``spieltisch serve`` node of the cluster, on a port the OS picks."""

    def __init__(self, args: list[str], log: Path) -> None:
        self.log = log
        #: Where this run's lines begin: a node started again appends to the same log.
        self.offset = log.stat().st_size if log.exists() else 0
        with log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "spieltisch.cli.main", "serve", "--port", "0", *args],
                stdout=out, stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.port = 0

    def wait(self) -> None:
        give_up = time.monotonic() + TIMEOUT
        while (found := SERVING.search(self.log.read_bytes()[self.offset:].decode(
                errors="replace"))) is None:
            assert self.proc.poll() is None, self.log.read_text()
            assert time.monotonic() < give_up, self.log.read_text()
            time.sleep(0.05)
        self.port = int(found[1])
        wait_until_serving(self.base, self.proc, self.log)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def stop(self, sig: int = signal.SIGKILL) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        return self.proc.wait(TIMEOUT)


def fresh_database() -> str:
    """A new PostgreSQL database for one test's cluster; its name."""
    db = f"c{uuid.uuid4().hex[:12]}"
    with psycopg.connect(f"{PG} dbname=test", autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {db}")
    return db


def clean_up(name: str, db: str) -> None:
    """Remove the Redis keys of cluster ``name`` and drop its database ``db``."""
    r = redis.Redis.from_url(REDIS)
    for key in r.scan_iter(match=f"{name}:*"):
        r.delete(key)
    r.close()
    with psycopg.connect(f"{PG} dbname=test", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {db} WITH (FORCE)")


class Cluster:
    """Three nodes sharing a fresh PostgreSQL database and a fresh Redis prefix."""

    def __init__(self, tmp: Path, extra: list[str] | None = None) -> None:
        self.db, self.name = fresh_database(), f"test-{uuid.uuid4().hex[:10]}"
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:5432/{self.db}"
        self.args = ["--db", self.url, "--redis", REDIS, "--cluster", self.name,
                     "--lease", "2", "--grace", "1000", "--bot-timing", "0",
                     "--messages-per-second", "10000", "--forwarded-allow-ips", "127.0.0.1",
                     "--max-spectators", "2", *(extra or [])]
        self.tmp = tmp
        from spieltisch.server.store import Store

        Store(self.url).close()  # the schema first, so the nodes can start side by side
        self.nodes = [self.start(i) for i in range(3)]
        for n in self.nodes:
            n.wait()

    def start(self, i: int) -> Node:
        return Node([*self.args, "--node", f"n{i}"], self.tmp / f"n{i}.log")

    def alive(self, at_least: int) -> list[Node]:
        """The live nodes, restarting dead ones until there are ``at_least``."""
        for i, n in enumerate(self.nodes):
            if sum(m.proc.poll() is None for m in self.nodes) >= at_least:
                break
            if n.proc.poll() is not None:
                self.nodes[i] = self.start(i)
                self.nodes[i].wait()
        return [n for n in self.nodes if n.proc.poll() is None]

    def owner(self, code: str) -> int:
        """The index of the node that holds ``code``'s lease now."""
        r = redis.Redis.from_url(REDIS)
        value = r.get(f"{self.name}:lease:{code}")
        r.close()
        assert value is not None, f"nobody owns {code}"
        return int(value.decode()[1:])

    def close(self) -> None:
        for n in self.nodes:
            n.stop()
        clean_up(self.name, self.db)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("cluster"))
    try:
        yield c
    finally:
        c.close()


class Player:
    """A seat's client that survives its node: it reconnects elsewhere and resends the
    action it had sent without an ack, under the same id."""

    def __init__(self, code: str, token: str, seat: int, bases: list[str], seed: int,
                 on_welcome: Any = None) -> None:
        self.code, self.token, self.seat = code, token, seat
        self.on_welcome = on_welcome  # called with each welcome (the test looks around)
        self.bases = bases  # ws bases to try, in order
        self.rng = random.Random(seed)
        self.client: Client | None = None
        self.n = 0
        self.acked: dict[str, int] = {}  # id -> index
        self.unacked: dict[str, Any] | None = None
        self.messages: list[dict[str, Any]] = []
        self.reconnects = 0
        self.last: dict[str, Any] = {}
        #: Cleared: the player sends no action (so the game cannot end) until it is set.
        self.going = asyncio.Event()
        self.going.set()

    async def connect(self) -> dict[str, Any]:
        """Connect to the first node that serves the seat; the welcome."""
        give_up = time.monotonic() + TIMEOUT
        while True:
            for base in self.bases:
                with contextlib.suppress(Exception):
                    c = await Client.open(base, self.code, self.token)
                    msg = await c.until(lambda m: m["type"] in ("welcome", "error"))
                    if msg["type"] == "welcome":
                        if self.on_welcome is not None:
                            self.on_welcome(msg)
                        self.client = c
                        self.messages.append(msg)
                        if self.unacked is not None:  # sent, never acknowledged: again
                            await c.send(self.unacked)
                        return msg
                    await c.close()
            assert time.monotonic() < give_up, "no node serves the table"
            await asyncio.sleep(0.1)

    async def play(self) -> dict[str, Any]:
        """Play random legal actions until the game is over."""
        pending = await self.connect() if self.client is None else None
        while True:
            assert self.client is not None
            if pending is not None:  # a welcome: it may ask this seat to act
                msg, pending = pending, None
            else:
                try:
                    msg = await self.client.recv()
                except Exception:  # the node died or moved the table: reconnect
                    self.reconnects += 1
                    pending = await self.connect()
                    continue
                self.messages.append(msg)
            if msg["type"] == "ack":
                self.acked[str(msg["id"])] = msg["index"]
                if self.unacked is not None and self.unacked["id"] == msg["id"]:
                    self.unacked = None
                    if msg.get("repeat"):
                        # the resent action had been applied before the move: the welcome
                        # that asked this seat to act came while it waited, so ask again
                        with contextlib.suppress(Exception):
                            await self.client.send({"type": "state"})
                continue
            if msg["type"] == "error" and msg.get("code") == "storage":
                await asyncio.sleep(0.2)  # the table is moving: send it again
                if self.unacked is not None:  # (a closed socket: recv reconnects)
                    with contextlib.suppress(Exception):
                        await self.client.send(self.unacked)
                continue
            if not has_view(msg):
                continue
            self.last = msg
            if msg.get("over"):
                return msg
            if msg.get("legal") and msg.get("required") and self.unacked is None:
                await self.going.wait()
                self.n += 1
                self.unacked = {"type": "action", "id": f"s{self.seat}x{self.n}",
                                "action": self.rng.choice(msg["legal"])}
                with contextlib.suppress(Exception):
                    await self.client.send(self.unacked)

    async def close(self) -> None:
        if self.client is not None:
            await self.client.close()


def replay_of(base: str, code: str) -> dict[str, Any]:
    r = httpx.get(f"{base}/api/tables/{code}/replay", timeout=TIMEOUT)
    assert r.status_code == 200, r.text
    return r.json()


def check_log(rep: dict[str, Any], players: list[Player]) -> None:
    """Every acknowledged action is in the log, at the index its ack named, once."""
    actions = rep["actions"]
    for p in players:
        for cid, index in p.acked.items():
            assert actions[index][0] == p.seat, (cid, index, actions[index])
    indices = [index for p in players for index in p.acked.values()]
    assert len(indices) == len(set(indices)), "two acks named one log index"


def start_nginx(tmp: Path, ports: list[int]) -> tuple[subprocess.Popen[bytes], int]:
    """nginx from deploy/nginx.conf.template in front of the nodes, on a free port."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.path.exists(nginx):
        pytest.fail("nginx is not installed (scripts/test.sh installs it)")
    run = tmp / "nginx"
    run.mkdir()
    import socket

    with socket.socket() as s:  # nginx binds the port itself; a free one now
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    conf = (ROOT / "deploy" / "nginx.conf.template").read_text()
    conf = conf.replace("@RUN@", str(run)).replace("@LISTEN@", f"127.0.0.1:{port}")
    conf = conf.replace("@UPSTREAMS@", "\n".join(f"        server 127.0.0.1:{p};"
                                                 for p in ports))
    (run / "nginx.conf").write_text(conf)
    proc = subprocess.Popen([nginx, "-p", str(run), "-c", str(run / "nginx.conf"),
                             "-g", "daemon off;"], stderr=subprocess.STDOUT,
                            stdout=(run / "out.log").open("wb"))
    give_up = time.monotonic() + TIMEOUT
    while True:
        assert proc.poll() is None, (run / "out.log").read_text()
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=5).status_code == 200:
                return proc, port
        assert time.monotonic() < give_up
        time.sleep(0.05)


def test_nodes_behind_nginx_play_one_table_and_show_one_lobby(cluster: Cluster,
                                                              tmp_path: Path) -> None:
    """Seats joined and connected through different nodes (and through nginx) play a
    table to its end; the relayed seats see nothing of each other's hands; every node
    lists the table; the per-client table limit counts every node's tables."""
    a, b, c = cluster.alive(3)
    nginx, port = start_nginx(tmp_path, [n.port for n in cluster.nodes])
    try:
        table = create_table(a.base, "pixmit", ["human", "human", "human", "bot:easy"], 4)
        code = table["code"]
        assert cluster.owner(code) == 0
        for n in cluster.nodes:  # one lobby: the table is listed by every node
            listed = httpx.get(f"{n.base}/api/tables", timeout=TIMEOUT).json()
            assert [t["status"] for t in listed if t["code"] == code] == ["waiting"]
        # a browser's page through nginx on a port of its own: its Origin carries the
        # port, and so must the Host nginx passes on (else 403 bad_origin); no table of
        # its own (another node's SIGTERM test counts the tables it hands over)
        page = f"http://127.0.0.1:{port}"
        seats = [join(b.base, code, "Bea"), join(c.base, code, "Cem")]
        ngx = httpx.post(f"{page}/api/tables/{code}/join", headers={"Origin": page},
                         json={"name": "Ngx"}, timeout=TIMEOUT)
        assert ngx.status_code == 201, ngx.text
        seats.append(ngx.json())
        assert [s["seat"] for s in seats] == [0, 1, 2]
        status = httpx.get(f"{c.base}/api/tables/{code}", timeout=TIMEOUT).json()
        assert status["status"] == "playing" and status["names"][:3] == ["Bea", "Cem", "Ngx"]
        async def browser_socket() -> dict[str, Any]:  # a WebSocket with the page's Origin
            url = f"ws://127.0.0.1:{port}/ws/{code}"
            async with connect(url, origin=Origin(page)) as ws:
                await ws.send(json.dumps({"type": "hello", "token": None}))  # as a spectator
                first: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                return first

        assert asyncio.run(browser_socket())["type"] == "welcome"
        players = [Player(code, seats[0]["token"], 0, [b.ws], 1),  # relayed by b
                   Player(code, seats[1]["token"], 1, [c.ws], 2),  # relayed by c
                   Player(code, seats[2]["token"], 2, [f"ws://127.0.0.1:{port}"], 3)]

        async def go() -> list[dict[str, Any]]:
            return await asyncio.gather(*(p.play() for p in players))

        finals = asyncio.run(asyncio.wait_for(go(), TIMEOUT))
        assert all(f["over"] for f in finals)
        assert len({str(f["result"]) for f in finals}) == 1
        rep = replay_of(c.base, code)
        check_log(rep, players)
        for p in players:  # the owner sent each relayed seat its own messages only
            assert assert_no_leak(rep, p.seat, p.messages) > 5
        listed = httpx.get(f"{b.base}/api/tables", timeout=TIMEOUT).json()
        assert [t["status"] for t in listed if t["code"] == code] == ["over"]
    finally:
        nginx.terminate()
        nginx.wait(TIMEOUT)


def test_table_limit_and_joins_hold_cluster_wide() -> None:
    """Two nodes in one process: a client's unfinished tables and its joins per minute
    count on every node together."""
    from spieltisch.server import ServerConfig
    from spieltisch.server.app import Lobby, LobbyError, http_status

    db = fresh_database()
    cfg = ServerConfig(db_url=f"postgresql+psycopg://postgres@127.0.0.1:5432/{db}",
                       redis_url=REDIS, cluster_name=f"test-{uuid.uuid4().hex[:10]}",
                       max_tables_per_client=2, joins_per_minute=3)

    async def go() -> None:
        a = Lobby(ServerConfig(**{**cfg.__dict__, "node_id": "a"}))
        b = Lobby(ServerConfig(**{**cfg.__dict__, "node_id": "b"}))
        await a.recover()
        await b.recover()
        try:
            body = {"game": "president", "players": 4, "seats": ["human"] * 4}
            one = await a.create(body, "10.0.0.1")
            await b.create(body, "10.0.0.1")
            with pytest.raises(LobbyError) as refused:
                await b.create(body, "10.0.0.1")
            assert (http_status(refused.value), refused.value.code) == (429, "too_many_tables")
            await b.create(body, "10.0.0.2")  # another client may
            assert one.code in a.tables and one.code not in b.tables
            # joins: at table ``one`` (owned by a) through b, the owner, b, b
            seats = [(await lobby.join_code(one.code, {}, "10.0.0.3"))[1]
                     for lobby in (b, a, b)]
            assert seats == [0, 1, 2]
            with pytest.raises(LobbyError) as refused:
                await a.join_code(one.code, {}, "10.0.0.3")
            assert (http_status(refused.value), refused.value.code) == (429, "too_many_joins")
            listed = {t["code"] for t in await b.cluster.listing("en")}  # type: ignore
            assert one.code in listed
        finally:
            await a.close()
            await b.close()

    try:
        asyncio.run(asyncio.wait_for(go(), TIMEOUT))
    finally:
        clean_up(cfg.cluster_name, db)


async def mid_game(players: list[Player]) -> None:
    """Wait until every player had three actions acknowledged."""
    while not all(len(p.acked) >= 3 for p in players):
        assert not any(p.last.get("over") for p in players), "the game ended too soon"
        await asyncio.sleep(0.01)


def _game_with_players(cluster: Cluster, owner: Node, relay: Node, on_welcome: Any = None
                       ) -> tuple[str, list[Player]]:
    """A table of two humans and two bots owned by ``owner``: seat 0 connects to the
    owner itself, seat 1 through ``relay``; either falls back to the other nodes."""
    code = create_table(owner.base, "pixmit", ["human", "human", "bot:easy", "bot:easy"],
                        4)["code"]
    seats = [join(owner.base, code, "Ola"), join(relay.base, code, "Rui")]
    others = [n.ws for n in cluster.nodes if n not in (owner, relay)]
    return code, [Player(code, seats[0]["token"], 0, [owner.ws, relay.ws, *others], 4,
                         on_welcome),
                  Player(code, seats[1]["token"], 1, [relay.ws, *others], 5, on_welcome)]


def test_sigkill_of_an_owner_moves_its_tables_without_losing_an_action(
        cluster: Cluster) -> None:
    """SIGKILL the owner mid-game: another node takes the table over from the log within
    a few seconds; the players reconnect, resend what had no ack, and finish the game."""
    a, b, c = cluster.alive(3)
    owners: list[int] = []  # who owns the table whenever a player is welcomed
    code, players = _game_with_players(cluster, a, b, lambda _: owners.append(
        cluster.owner(code)))

    before: dict[int, dict[str, int]] = {}

    async def kill() -> None:  # mid-game, once each seat's actions were acknowledged
        await mid_game(players)
        before.update({p.seat: dict(p.acked) for p in players})
        a.stop(signal.SIGKILL)

    async def go() -> None:
        finals = await asyncio.gather(*(p.play() for p in players), kill())
        assert all(f["over"] for f in finals[:2])
        for p in players:  # nothing acknowledged before the kill was lost
            assert before[p.seat].items() <= p.acked.items()
        assert all(p.reconnects >= 1 for p in players)

    asyncio.run(asyncio.wait_for(go(), TIMEOUT))
    assert owners[0] == 0 and owners[-1] in (1, 2)  # taken over by another node
    check_log(replay_of(c.base, code), players)


def test_sigterm_drains_tables_to_the_other_nodes(cluster: Cluster) -> None:  # after sigkill
    """SIGTERM on the owner hands its table to another node before it exits: the game
    goes on there, nothing acknowledged is lost, and the node exits cleanly."""
    b, c = cluster.alive(2)[:2]
    owners: list[int] = []  # who owns the table whenever a player is welcomed
    code, players = _game_with_players(cluster, b, c, lambda _: owners.append(
        cluster.owner(code)))
    status = 0

    before: dict[int, dict[str, int]] = {}

    async def drain() -> None:
        nonlocal status
        await mid_game(players)
        before.update({p.seat: dict(p.acked) for p in players})
        for p in players:  # the table must still be playing when the drain comes
            p.going.clear()
        status = await asyncio.to_thread(b.stop, signal.SIGTERM)
        for p in players:
            p.going.set()

    async def go() -> None:
        finals = await asyncio.gather(*(p.play() for p in players), drain())
        assert all(f["over"] for f in finals[:2])
        for p in players:
            assert before[p.seat].items() <= p.acked.items()

    asyncio.run(asyncio.wait_for(go(), TIMEOUT))
    assert status in (0, -signal.SIGTERM)  # uvicorn ends by raising the signal again
    # adopted by another node (checked at the welcomes: the lease ends with the game)
    assert owners[0] == cluster.nodes.index(b) and owners[-1] != owners[0], owners
    assert "handed 1 tables" in b.log.read_text()
    check_log(replay_of(c.base, code), players)


def test_a_rematch_is_agreed_at_the_owner_across_nodes(cluster: Cluster) -> None:
    """Two people relayed by the two other nodes finish a table: its owner keeps the
    lease while the rematch offer is open, so both answers reach the one offer there; the
    rematch starts on the owner, seats rotated, and its seats play through any node."""
    a, b, c = cluster.alive(3)
    code = create_table(a.base, "pixmit", ["human", "human", "bot:easy"], 3)["code"]
    owner = cluster.owner(code)
    bea, cem = join(b.base, code, "Bea"), join(c.base, code, "Cem")

    def rematch(m: dict[str, Any]) -> bool:
        return m["type"] == "rematch"

    async def go() -> dict[str, Any]:
        pb = await Client.open(b.ws, code, bea["token"])  # relayed by b
        pc = await Client.open(c.ws, code, cem["token"])  # relayed by c
        ends = await asyncio.gather(play_scripted(pb, 1, react_p=0),
                                    play_scripted(pc, 2, react_p=0))
        assert all(end["over"] and end["rematch"]["waiting"] == [0, 1] for end in ends)
        assert cluster.owner(code) == owner  # kept while the offer is open
        await pb.send({"type": "rematch"})
        assert [(await x.until(rematch))["accepted"] for x in (pb, pc)] == [[0, 2], [0, 2]]
        await pc.send({"type": "rematch"})
        started = [await x.until(rematch) for x in (pb, pc)]
        new = started[0]["code"]
        assert [(m["status"], m["seat"]) for m in started] == [("started", 1), ("started", 2)]
        assert cluster.owner(new) == owner
        for x in (pb, pc):
            await x.close()
        nb = await Client.open(c.ws, new, started[0]["token"])  # now relayed the other way
        nc = await Client.open(b.ws, new, started[1]["token"])
        assert [(await x.until(has_view))["seat"] for x in (nb, nc)] == [1, 2]
        for x in (nb, nc):
            await x.close()
        return started[0]

    started = asyncio.run(asyncio.wait_for(go(), TIMEOUT))
    status = httpx.get(f"{c.base}/api/tables/{started['code']}", timeout=TIMEOUT).json()
    assert status["names"][1:] == ["Bea", "Cem"] and status["rematch_of"] == code
    assert httpx.get(f"{b.base}/api/tables/{code}", timeout=TIMEOUT).json()["rematch"] == \
        started["code"]


def test_a_spectator_past_the_cap_is_closed_by_the_node_that_relays_it(
        cluster: Cluster) -> None:
    """The owner refuses a third spectator (``--max-spectators 2``) who came through
    another node: the reason reaches the client, then its relay closes the socket with
    1008 (before, the relayed socket stayed open, served by nobody)."""
    nodes = cluster.alive(3)
    code = create_table(nodes[0].base, "president",
                        ["human", "bot:easy", "bot:easy", "bot:easy"], 4, seed=3)["code"]
    join(nodes[0].base, code, "Ann")
    relay = nodes[(cluster.owner(code) + 1) % 3]

    async def go() -> tuple[int | None, list[dict[str, Any]]]:
        watching = [await Client.open(relay.ws, code) for _ in range(2)]
        for c in watching:
            await c.until(lambda m: m["type"] == "welcome")
        got: list[dict[str, Any]] = []
        async with connect(f"{relay.ws}/ws/{code}", open_timeout=TIMEOUT) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            try:
                while True:
                    got.append(json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT)))
            except ConnectionClosed as e:
                closed = e.rcvd.code if e.rcvd else None
        for c in watching:
            await c.close()
        return closed, got

    closed, got = asyncio.run(go())
    assert closed == 1008
    assert [m["code"] for m in got if m["type"] == "error"] == ["too_many_spectators"]


def test_a_burst_of_creates_waits_for_redis_instead_of_failing(cluster: Cluster) -> None:
    """150 tables created at once on one node, each from its own address (behind the
    trusted proxy), are all created: the node's Redis calls wait for a connection of its
    pool (redis-py's default pool refused the 101st call at once, and the create was a
    503 "Too many connections")."""
    node = cluster.alive(1)[0]

    async def burst() -> list[int]:
        async with httpx.AsyncClient(timeout=TIMEOUT,
                                     limits=httpx.Limits(max_connections=None)) as http:
            answers = await asyncio.gather(*(
                http.post(f"{node.base}/api/tables",
                          json={"game": "hockey", "seats": ["human", "bot:easy"]},
                          headers={"x-forwarded-for": f"10.0.{i // 200}.{i % 200 + 1}"})
                for i in range(150)))
        return [r.status_code for r in answers]

    assert asyncio.run(burst()) == [201] * 150


def test_the_deploy_script_runs_three_nodes_behind_nginx(tmp_path: Path) -> None:
    """deploy/local-cluster.sh as an operator starts it (here with its own database,
    ports and cluster name): a table created through nginx is listed by each node, and
    SIGTERM drains the nodes, stops nginx and ends the script."""
    import socket

    db, name = fresh_database(), f"test-{uuid.uuid4().hex[:10]}"
    ports = []
    for _ in range(4):  # free now; the script's processes bind them
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            ports.append(s.getsockname()[1])
    run = tmp_path / "run"
    run.mkdir()
    env = {**os.environ, "PORT": str(ports[0]), "NODE_PORTS": " ".join(map(str, ports[1:])),
           "CLUSTER": name, "RUN": str(run),
           "SPIELTISCH": str(Path(sys.executable).with_name("spieltisch"))}
    script = subprocess.Popen(
        ["bash", str(ROOT / "deploy" / "local-cluster.sh"),
         f"postgresql+psycopg://postgres@127.0.0.1:5432/{db}", REDIS],
        env=env, stdout=(tmp_path / "script.log").open("wb"), stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{ports[0]}"
    try:
        give_up = time.monotonic() + TIMEOUT
        while True:
            assert script.poll() is None, (tmp_path / "script.log").read_text()
            with contextlib.suppress(httpx.HTTPError):  # nginx and every node
                if all(httpx.get(f"http://127.0.0.1:{port}/api/games",
                                 timeout=5).status_code == 200 for port in ports):
                    break
            assert time.monotonic() < give_up, "the cluster never answered"
            time.sleep(0.1)
        code = create_table(base, "hockey", ["human", "bot:easy"])["code"]
        for port in ports[1:]:  # every node lists it (one lobby), whichever node made it
            listed = httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=TIMEOUT).json()
            assert [t["status"] for t in listed if t["code"] == code] == ["waiting"]
    finally:
        script.send_signal(signal.SIGTERM)
        script.wait(TIMEOUT)
        clean_up(name, db)
    for port in ports:  # nginx and every node are gone
        with pytest.raises(httpx.ConnectError):
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=5)
    assert "handed 1 tables" in "".join(
        (run / f"node{i}.log").read_text() for i in range(3))  # the owner drained it
