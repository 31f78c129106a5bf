"""What a snapshot costs (issue 41, items 2 and 8): the narrated history is kept as the
game goes (a snapshot copies it) and is exactly the history replayed from the seed; a
flood of ``state`` requests from spectators of a finished game does not stall another
table; ``state`` and ``lang`` are limited per connection; WebSockets are capped per
client address and spectators per table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import statistics
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from spieltisch.core import game_names, get_spec
from spieltisch.server.app import Lobby
from spieltisch.server.config import ServerConfig
from spieltisch.server.table import TableRuntime
from spieltisch.server.texts import log_lines

from .helpers import TIMEOUT, Client, ServerThread, create_table, join, unique_prefix

LANGS = ("en", "de", "nl")


def config(tmp: Path, **changes: Any) -> ServerConfig:
    settings: dict[str, Any] = {"db_url": f"sqlite:///{tmp / 'snapshots.sqlite3'}",
                                "table_prefix": unique_prefix(), "grace_seconds": 1000}
    return ServerConfig(**{**settings, **changes})


def replayed_history(rt: TableRuntime, seat: int | None, lang: str) -> list[dict[str, Any]]:
    """The history as the server worked it out before issue 41: the whole log replayed
    from the seed and narrated to ``seat`` in ``lang`` at every snapshot."""
    ctx = rt._context(rt.names(lang), lang, seat)
    state = rt.row.first_state(rt.game)
    lines = log_lines(rt.game, -1, state.opening, seat, ctx)
    for index, (actor, text) in enumerate(rt.log):
        events = state.apply(actor, rt.game.action_from_json(text))
        lines += log_lines(rt.game, index, events, seat, ctx)
    return lines


def players_of(name: str) -> int:
    spec = get_spec(name)
    return min(spec.max_players, 4)


@pytest.mark.parametrize("name", game_names())
def test_the_kept_history_is_the_replayed_one(tmp_path: Path, name: str) -> None:
    """A game of bots; snapshots asked for now and then while it plays (so the kept
    histories grow action by action), then every seat's and the spectator's history in
    every language, at the live table and at the one rebuilt from the store, is the one
    replayed from the seed: the same lines, each reader told only its own view."""
    async def run() -> None:
        lobby = Lobby(config(tmp_path, bot_timing=0.0, move_clock=0.0))
        try:
            n = players_of(name)
            rt = await lobby.create({"game": name, "players": n, "seed": 5,
                                     "seats": ["bot:easy"] * n}, "owner")
            readers: list[int | None] = [None, *range(n)]
            asked = 0
            give_up = time.monotonic() + 120
            while rt.status != "over":
                assert time.monotonic() < give_up, "the bots did not finish"
                async with rt.lock:
                    if rt.state is not None:
                        for seat in readers:
                            rt.snapshot(seat, "state", LANGS[asked % 3])
                        asked += 1
                await asyncio.sleep(0.002)
            assert asked > 1 and len(rt.log) > 10
            for seat in readers:
                for lang in LANGS:
                    got = rt.snapshot(seat, "state", lang)["log"]
                    assert got == replayed_history(rt, seat, lang), (seat, lang)
            # the finished table rebuilt from the store (a late spectator's path)
            lobby._finished.clear()
            lobby.tables.pop(rt.code, None)
            lobby.rematching.pop(rt.code, None)
            rebuilt = await lobby.fetch(rt.code)
            assert rebuilt is not None and rebuilt is not rt and rebuilt.log == rt.log
            for seat in readers:
                for lang in LANGS:
                    want = replayed_history(rebuilt, seat, lang)
                    assert rebuilt.snapshot(seat, "welcome", lang)["log"] == want
                    assert rebuilt.snapshot(seat, "state", lang)["log"] == want
                    await rebuilt.history_ready(seat, lang)
                    assert rebuilt.snapshot(seat, "state", lang)["log"] == want
        finally:
            lobby.store.drop_all()
            await lobby.close()

    asyncio.run(run())


def test_a_history_narrated_in_a_thread_is_the_replayed_one(tmp_path: Path) -> None:
    """The first snapshot of a finished table narrates its history in a thread, off the
    event loop; what it keeps is the replayed history."""
    async def run() -> None:
        lobby = Lobby(config(tmp_path, bot_timing=0.0))
        try:
            rt = await lobby.create({"game": "president", "players": 5, "seed": 9,
                                     "seats": ["bot:easy"] * 5}, "owner")
            while rt.status != "over":
                await asyncio.sleep(0.01)
            lobby._finished.clear()
            lobby.tables.pop(rt.code, None)
            lobby.rematching.pop(rt.code, None)
            rebuilt = await lobby.fetch(rt.code)
            assert rebuilt is not None
            await asyncio.gather(*(rebuilt.history_ready(s, lang) for s in (None, 0, 3)
                                   for lang in LANGS))
            assert rebuilt.histories.kept() == 9
            for seat in (None, 0, 3):
                for lang in LANGS:
                    assert rebuilt.snapshot(seat, "state", lang)["log"] == \
                        replayed_history(rebuilt, seat, lang)
        finally:
            lobby.store.drop_all()
            await lobby.close()

    asyncio.run(run())


# -- the flood ----------------------------------------------------------------------------------
async def finished_table(server: ServerThread, game: str, players: int, seed: int) -> str:
    """A game of bots played to its end at ``server``; its code."""
    table = create_table(server.base, game, ["bot:easy"] * players, players=players,
                         seed=seed)
    code = table["code"]
    watcher = await Client.open(server.ws_base, code)
    await watcher.until(lambda m: m.get("over") is True)
    await watcher.close()
    return str(code)


async def drain(ws: Any) -> int:
    """Read (and count) what a socket receives until it closes; nothing is parsed."""
    n = 0
    try:
        async for _ in ws:
            n += 1
    except ConnectionClosed:
        pass
    return n


async def flood(server: ServerThread, code: str, sockets: int, per_second: float,
                seconds: float) -> None:
    """``sockets`` spectators of ``code`` each asking for ``state`` ``per_second`` times
    a second for ``seconds``."""
    async def one() -> None:
        async with connect(f"{server.ws_base}/ws/{code}", open_timeout=TIMEOUT,
                           max_size=1 << 26) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            reader = asyncio.get_running_loop().create_task(drain(ws))
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                await ws.send('{"type": "state"}')
                await asyncio.sleep(1 / per_second)
            await ws.close()
            await reader

    await asyncio.gather(*(one() for _ in range(sockets)))


async def ping_times(client: Client, stop: asyncio.Event, every: float = 0.05) -> list[float]:
    """Round trips (seconds) of ``ping`` messages from a seat, one every ``every`` s."""
    times: list[float] = []
    n = 0
    while not stop.is_set():
        n += 1
        sent = time.perf_counter()
        await client.send({"type": "ping", "id": n})
        await client.until(lambda m, n=n: m.get("type") == "pong" and m.get("id") == n)
        times.append(time.perf_counter() - sent)
        await asyncio.sleep(every)
    return times


def p99(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.99 * len(values)) - 1)]


def test_a_flood_of_state_requests_does_not_stall_another_table(tmp_path: Path) -> None:
    """Ten spectator sockets each sending ``state`` 20 times a second for 3 s at a
    finished 8-player President game: a person at another table still gets the answer
    to a ping at once (median under 0.1 s; before issue 41 the median was 300 ms and
    the p99 a second and more: every snapshot replayed and narrated the whole log on
    the event loop). The kept history and the per-connection limit together; without the limit
    (every one of the 600 requests answered) a loaded 2-core machine measured a p99 of
    333 ms once, so the limit is part of the promise, not a spare."""
    cfg = config(tmp_path, bot_timing=0.0, http_requests_per_second=0,
                 joins_per_minute=0, snapshots_per_second=1.0)
    with ServerThread(cfg) as server:
        async def run() -> tuple[list[float], list[float]]:
            code = await finished_table(server, "president", 8, 41)
            live = create_table(server.base, "president", ["human", "bot:easy",
                                                           "bot:easy", "bot:easy"],
                                players=4, seed=3)
            token = join(server.base, live["code"], "ann")["token"]
            person = await Client.open(server.ws_base, live["code"], token)
            await person.until(lambda m: m.get("type") in ("welcome", "start"))
            stop = asyncio.Event()
            quiet = asyncio.get_running_loop().create_task(ping_times(person, stop))
            await asyncio.sleep(1.0)
            stop.set()
            before = await quiet
            stop.clear()
            pinging = asyncio.get_running_loop().create_task(ping_times(person, stop))
            await flood(server, code, sockets=10, per_second=20, seconds=3.0)
            stop.set()
            during = await pinging
            await person.close()
            return before, during

        before, during = asyncio.run(run())
    print(f"\nping p50/p99/max quiet {statistics.median(before) * 1000:.1f}/"
          f"{p99(before) * 1000:.1f}/{max(before) * 1000:.1f} ms, during the flood "
          f"{statistics.median(during) * 1000:.1f}/{p99(during) * 1000:.1f}/"
          f"{max(during) * 1000:.1f} ms ({len(during)} pings)")
    # the median, not the tail: a loaded CI machine stalls a ping now and then (330 ms
    # seen) whatever the server does; the flood itself moved the median from 0.3–0.5 ms
    # to 300–350 ms before issue 41 (p99 1.0–1.5 s), and any stall stays under 2 s
    assert statistics.median(during) < 0.1, sorted(during)[-5:]
    assert max(during) < 2.0, sorted(during)[-5:]
    assert len(during) >= 20


# -- the limits ---------------------------------------------------------------------------------
def test_state_requests_past_the_budget_are_coalesced(tmp_path: Path) -> None:
    """A connection gets ``state`` (and ``lang``) answered at once twice; every request
    past that within the second is coalesced into one ``state``, sent when the second
    is up, in the language the connection has then (before issue 41 each of them was
    a snapshot of its own)."""
    cfg = config(tmp_path, bot_timing=0.0, http_requests_per_second=0, joins_per_minute=0)
    with ServerThread(cfg) as server:
        async def run() -> None:
            code = await finished_table(server, "president", 4, 7)
            c = await Client.open(server.ws_base, code)
            await c.until(lambda m: m.get("type") == "welcome")
            c.received.clear()
            start = time.monotonic()
            for _ in range(2):
                await c.send({"type": "state"})
            for _ in range(2):  # both at once: the budget holds two
                assert (await c.until(lambda m: m.get("type") == "state"))["log"]
            assert time.monotonic() - start < 0.8
            for _ in range(5):
                await c.send({"type": "state"})
            await c.send({"type": "lang", "lang": "de"})  # the same budget
            await c.send({"type": "ping", "id": "now"})
            await c.until(lambda m: m.get("type") == "pong")
            assert [m["type"] for m in c.received].count("state") == 2  # nothing yet
            coming = await c.until(lambda m: m.get("type") == "state")
            assert time.monotonic() - start > 0.5
            assert coming["log"] and "Runde" in json.dumps(coming["log"])  # German
            await asyncio.sleep(1.5)  # and no more than that one
            await c.send({"type": "ping", "id": "end"})
            await c.until(lambda m: m.get("type") == "pong" and m.get("id") == "end")
            kinds = [m["type"] for m in c.received]
            assert kinds.count("state") == 3 and "error" not in kinds, kinds
            await c.close()

        asyncio.run(run())


async def refused(server: ServerThread, code: str) -> tuple[int | None, str, list[Any]]:
    """Open a socket that is expected to be closed by the server: its close code and
    reason and what it received before."""
    got: list[Any] = []
    async with connect(f"{server.ws_base}/ws/{code}", open_timeout=TIMEOUT) as ws:
        with contextlib.suppress(ConnectionClosed):  # it may be closed already
            await ws.send(json.dumps({"type": "hello"}))
        try:
            while True:
                got.append(json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT)))
        except ConnectionClosed as e:
            rcvd = e.rcvd
            return (rcvd.code if rcvd else None), (rcvd.reason if rcvd else ""), got
    raise AssertionError("not closed")


def test_sockets_per_address_are_capped(tmp_path: Path) -> None:
    """The N+1-th WebSocket from one address is closed at once with 1008 and a reason;
    once one closes, a new one is served."""
    cfg = config(tmp_path, bot_timing=0.0, max_sockets_per_client=5,
                 http_requests_per_second=0, joins_per_minute=0)
    with ServerThread(cfg) as server:
        async def run() -> None:
            code = await finished_table(server, "president", 4, 8)
            open_ = [await Client.open(server.ws_base, code) for _ in range(5)]
            for c in open_:
                await c.until(lambda m: m.get("type") == "welcome")
            close_code, reason, got = await refused(server, code)
            assert close_code == 1008 and "too many" in reason.lower(), (close_code, reason)
            assert got and got[0]["code"] == "too_many_sockets", got
            await open_.pop().close()
            await asyncio.sleep(0.2)
            last = await Client.open(server.ws_base, code)
            assert (await last.until(lambda m: m.get("type") in ("welcome", "error")))[
                "type"] == "welcome"
            for c in [*open_, last]:
                await c.close()

        asyncio.run(run())


def test_spectators_per_table_are_capped(tmp_path: Path) -> None:
    """Past ``max_spectators`` a spectator's hello is refused and its socket closed with
    the reason; a seated person still gets in."""
    cfg = config(tmp_path, bot_timing=0.0, max_spectators=3, http_requests_per_second=0,
                 joins_per_minute=0)
    with ServerThread(cfg) as server:
        async def run() -> None:
            table = create_table(server.base, "president", ["human", "bot:easy",
                                                            "bot:easy", "bot:easy"],
                                 players=4, seed=3)
            code = table["code"]
            token = join(server.base, code, "ann")["token"]
            watching = [await Client.open(server.ws_base, code) for _ in range(3)]
            for c in watching:
                await c.until(lambda m: m.get("type") == "welcome")
            close_code, reason, got = await refused(server, code)
            assert close_code == 1008 and "spectators" in reason.lower(), (close_code, reason)
            assert got and got[-1]["code"] == "too_many_spectators", got
            person = await Client.open(server.ws_base, code, token)
            assert (await person.until(lambda m: m.get("type") in ("welcome", "error")))[
                "type"] == "welcome"
            for c in [*watching, person]:
                await c.close()

        asyncio.run(run())


def test_handshakes_for_unknown_tables_spend_the_http_budget(tmp_path: Path) -> None:
    """A WebSocket to a code that names no table costs one HTTP request of the
    address's budget: past the burst the handshake is refused before any lookup."""
    cfg = config(tmp_path, http_requests_per_second=0.5, http_burst=4)
    with ServerThread(cfg) as server:
        async def run() -> list[int | None]:
            codes: list[int | None] = []
            for i in range(6):
                try:
                    async with connect(f"{server.ws_base}/ws/NOPE{i}",
                                       open_timeout=TIMEOUT) as ws:
                        try:
                            while True:
                                await asyncio.wait_for(ws.recv(), TIMEOUT)
                        except ConnectionClosed as e:
                            codes.append(e.rcvd.code if e.rcvd else None)
                except InvalidStatus as e:  # refused before the handshake
                    codes.append(e.response.status_code)
            return codes

        codes = asyncio.run(run())
    assert codes[:3] == [4404] * 3 and codes[-1] == 403, codes


def test_seats_updates_are_merged(tmp_path: Path) -> None:
    """Many spectators joining in one go: a spectator's coming changes nothing in
    ``seats``, so the others hear nothing of it (it was one message to everybody per
    arrival: O(N²) for N spectators)."""
    cfg = config(tmp_path, bot_timing=0.0, http_requests_per_second=0, joins_per_minute=0)
    with ServerThread(cfg) as server:
        async def run() -> int:
            code = await finished_table(server, "president", 4, 12)
            first = await Client.open(server.ws_base, code)
            await first.until(lambda m: m.get("type") == "welcome")
            others = await asyncio.gather(*(Client.open(server.ws_base, code)
                                            for _ in range(30)))
            for c in others:
                await c.until(lambda m: m.get("type") == "welcome")
            await asyncio.sleep(0.3)
            await first.send({"type": "ping", "id": "end"})
            await first.until(lambda m: m.get("type") == "pong")
            seats = sum(1 for m in first.received if m.get("type") == "seats")
            for c in [first, *others]:
                await c.close()
            return seats

        seats = asyncio.run(run())
    assert seats == 1, seats  # its own: the others' coming changes nothing
