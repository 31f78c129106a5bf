"""Finished tables leave memory (and come back from the log); nothing unfinished leaks
its seed or log; group commit stores every acknowledged action."""

from __future__ import annotations

import asyncio
import gc
import json
import weakref
from pathlib import Path
from typing import Any

import httpx
import pytest

from spieltisch.core import get_spec
from spieltisch.narration import describe, narrate
from spieltisch.replay import Replay
from spieltisch.server import ServerConfig
from spieltisch.server.app import Lobby
from spieltisch.server.store import FIRST_EPOCH, SeatRow, StaleOwner, Store

from .helpers import (
    Client,
    ServerThread,
    create_table,
    has_view,
    join,
    play_scripted,
    unique_prefix,
)

#: A seed whose decimal digits cannot turn up by chance in a response.
SEED = 4_398_046_511_104_777


async def _until_over(lobby: Lobby, codes: list[str]) -> None:
    loop = asyncio.get_running_loop()
    give_up = loop.time() + 120
    while any(c in lobby.tables for c in codes):
        assert loop.time() < give_up, "the bots did not finish"
        await asyncio.sleep(0.01)


def test_finished_tables_are_evicted_and_rebuilt_on_demand(db_url: str) -> None:  # noqa: F811
    cfg = ServerConfig(db_url=db_url, table_prefix=unique_prefix(), time_scale=0.0,
                       max_tables_per_client=1000)

    async def run() -> None:
        lobby = Lobby(cfg)
        try:
            refs = []
            codes = []
            logs: dict[str, list[Any]] = {}
            evict = lobby._evict

            def spy(rt: Any) -> None:  # the live log, as the game ended
                logs[rt.code] = list(rt.log)
                evict(rt)

            lobby._evict = spy  # type: ignore[method-assign]
            for i in range(12):  # several at once: their actions share transactions
                rt = await lobby.create({"game": "president", "players": 4, "seed": i,
                                         "seats": ["bot:easy"] * 4}, "me")
                refs.append(weakref.ref(rt))
                codes.append(rt.code)
                del rt
            await _until_over(lobby, codes)
            await asyncio.sleep(0.05)
            gc.collect()
            assert [r() for r in refs] == [None] * len(refs)  # nothing holds a finished game
            assert lobby.store.writer.rows == sum(len(v) for v in logs.values())
            assert lobby.store.writer.batches < lobby.store.writer.rows  # grouped
            for c in codes:
                rt = lobby.get(c)  # rebuilt from the log, read-only
                assert rt is not None and rt.status == "over" and c not in lobby.tables
                assert rt.log == logs[c] and rt.public_info()["actions"] == len(logs[c])
                rep = Replay.from_json(rt.replay())
                assert rep.seed == codes.index(c) and rep.verify().is_over()
                assert rep.verify().result().to_json() == rt.row.result
        finally:
            await lobby.close()
            lobby.store.drop_all()
            lobby.store.close()

    asyncio.run(run())


def test_a_failed_row_does_not_fail_its_batch(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'batch.sqlite3'}")
    tid = store.create_table("BATCH2", "president", 4, {}, 1,
                             [SeatRow(i, "human") for i in range(4)])

    async def run() -> list[Any]:
        w = store.writer
        e = FIRST_EPOCH  # the creator's claim
        return await asyncio.gather(w.append(tid, e, 0, 0, "a"), w.append(tid, e, 1, 1, "b"),
                                    w.append(tid, e, 1, 2, "dup"), w.append(tid, e, 2, 3, "c"),
                                    return_exceptions=True)

    out = asyncio.run(run())
    assert out[0] is None and out[1] is None and out[3] is None
    assert isinstance(out[2], StaleOwner)  # the index is taken: this one alone fails
    assert [(a.index, a.action) for a in store.load_actions(tid)] == [
        (0, "a"), (1, "b"), (2, "c")]
    assert store.writer.batches >= 1
    store.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    db = tmp_path_factory.mktemp("db") / "life.sqlite3"
    cfg = ServerConfig(db_url=f"sqlite:///{db}", table_prefix=unique_prefix(),
                       grace_seconds=1000, messages_per_second=1000, message_burst=1000,
                       time_scale=0.0)
    with ServerThread(cfg) as s:
        yield s


def _every_get(server: ServerThread, code: str) -> list[httpx.Response]:
    base = server.base
    paths = ["/api/tables", f"/api/tables/{code}", f"/api/tables/{code}/replay",
             f"/api/tables/{code}/replay/steps", f"/api/tables/{code}/replay/steps?seat=0",
             f"/api/tables/{code}/replay/steps?seat=spectator", f"/api/tables/{code.lower()}",
             "/api/openapi.json", "/api/games"]
    return [httpx.get(base + p, timeout=60) for p in paths]


def _keys(obj: Any) -> set[str]:
    if isinstance(obj, dict):
        return set(obj).union(*(_keys(v) for v in obj.values()))
    if isinstance(obj, list):
        return set().union(*(_keys(v) for v in obj))
    return set()


def _no_seed_or_log(r: httpx.Response) -> None:
    body = r.json()
    assert str(SEED) not in r.text
    if r.url.path in ("/api/openapi.json", "/api/games"):
        return  # static documents (the schema names the request field "seed")
    assert not _keys(body) & {"seed", "steps"}, r.text
    for t in body if isinstance(body, list) else [body]:
        if "actions" in t:
            assert isinstance(t["actions"], int)  # a count, never the log


def test_unfinished_tables_never_expose_seed_or_log(server: ServerThread) -> None:
    t = create_table(server.base, "president", ["human"] * 4, players=4, seed=SEED)
    code = t["code"]
    joins = [join(server.base, code, f"p{i}") for i in range(3)]
    for r in _every_get(server, code):  # waiting: three of four seats taken
        assert r.status_code in (200, 409), r.text
        _no_seed_or_log(r)
    joins.append(join(server.base, code, "p3"))

    async def play() -> list[dict[str, Any]]:
        clients = [await Client.open(server.ws_base, code, j["token"]) for j in joins]
        spectator = await Client.open(server.ws_base, code, None)
        latest = [await c.until(has_view) for c in clients]
        for k in range(4):  # four actions, whoever the game waits for
            seat = next(s for s in range(4) if latest[s].get("required"))
            await clients[seat].send({"type": "action", "action": latest[seat]["legal"][0]})
            for s in range(4):
                latest[s] = await clients[s].until(
                    lambda m: m["type"] == "update" and m["index"] == k)  # noqa: B023
        for c in [*clients, spectator]:
            await c.send({"type": "state"})
            await c.until(lambda m: m["type"] == "state")
        received = [m for c in [*clients, spectator] for m in c.received]
        for c in [*clients, spectator]:
            await c.close()
        return received

    messages = asyncio.run(play())
    status = httpx.get(f"{server.base}/api/tables/{code}", timeout=60).json()
    assert status["status"] == "playing" and status["actions"] == 4
    for r in _every_get(server, code):
        if "/replay" in str(r.url):
            assert r.status_code == 409 and r.json()["error"] == "not_over"
        _no_seed_or_log(r)
    for m in messages:  # neither the seed nor a replay ever goes over the socket
        assert str(SEED) not in json.dumps(m) and "seed" not in m, m


def test_a_finished_table_leaves_the_live_set_but_serves_status_replay_and_sockets(
        server: ServerThread) -> None:
    t = create_table(server.base, "president", ["bot:easy"] * 3 + ["human"], players=4,
                     seed=SEED)
    code = t["code"]
    token = join(server.base, code, "me")["token"]
    lobby: Lobby = server.server.config.app.state.lobby  # type: ignore[attr-defined]

    async def play() -> dict[str, Any]:
        c = await Client.open(server.ws_base, code, token)
        last = await play_scripted(c, 1, react_p=0)
        await c.close()
        return last

    last = asyncio.run(play())
    assert last["over"]
    for _ in range(100):  # eviction runs in a later loop turn of the server's thread
        if code not in lobby.tables:
            break
        asyncio.run(asyncio.sleep(0.01))
    assert code not in lobby.tables
    status = httpx.get(f"{server.base}/api/tables/{code}", timeout=60).json()
    assert status["status"] == "over" and status["result"] == last["result"]
    listed = httpx.get(f"{server.base}/api/tables", timeout=60).json()
    assert [x["status"] for x in listed if x["code"] == code] == ["over"]
    rep = httpx.get(f"{server.base}/api/tables/{code}/replay", timeout=60).json()
    assert rep["seed"] == SEED and len(rep["actions"]) == status["actions"]
    assert Replay.from_json(rep).verify().result().to_json() == last["result"]
    steps = httpx.get(f"{server.base}/api/tables/{code}/replay/steps?seat=3&lang=de"
                      "&limit=1000", timeout=60)  # the whole game in one page
    assert steps.status_code == 200 and len(steps.json()["steps"]) == len(rep["actions"]) + 1
    # every step is told in the reader's language, as seat 3 saw it: the deal, then each
    # action's events, with the action in words
    told = steps.json()
    game = get_spec(rep["game"]).configure(rep["players"], rep["options"])
    state = Replay.from_json(rep).new_state()
    assert [x["text"] for x in told["steps"][0]["log"]] == \
        [narrate(game, e.for_seat(3), told["names"], "de", 3) for e in state.opening]
    for step, (actor, text) in zip(told["steps"][1:], rep["actions"], strict=True):
        events = state.apply(actor, game.action_from_json(text))
        assert [x["text"] for x in step["log"]] == \
            [narrate(game, e.for_seat(3), told["names"], "de", 3) for e in events]
        if actor >= 0:
            assert step["label"] == describe(game, game.action_from_json(text), "de",
                                             told["names"], 3)

    async def late() -> list[dict[str, Any]]:  # a reconnect after the end sees the end
        c = await Client.open(server.ws_base, code, token)
        welcome = await c.until(has_view)
        await c.send({"type": "action", "id": "x", "action": "pass"})
        refused = await c.until(lambda m: m["type"] == "error")
        await c.close()
        return [welcome, refused]

    welcome, refused = asyncio.run(late())
    assert welcome["over"] and welcome["index"] == status["actions"]
    assert welcome["view"] == last["view"] and refused["code"] == "game_over"
    assert code not in lobby.tables  # reading it did not make it live again
