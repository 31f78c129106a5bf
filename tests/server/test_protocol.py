"""Bad input, token misuse, idempotence, illegal actions, disconnection grace."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

from spieltisch.core import get_spec
from spieltisch.server import ServerConfig

from .helpers import Client, ServerThread, create_table, has_view, join, unique_prefix


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    db = tmp_path_factory.mktemp("db") / "proto.sqlite3"
    cfg = ServerConfig(db_url=f"sqlite:///{db}", table_prefix=unique_prefix(),
                       grace_seconds=30, max_message_bytes=1024, messages_per_second=1000,
                       message_burst=1000, max_tables_per_client=1000)
    with ServerThread(cfg) as s:
        yield s


def two_seat_table(server: ServerThread) -> tuple[str, list[dict[str, Any]]]:
    t = create_table(server.base, "president", ["human", "human", "human", "human"],
                     players=4, seed=5)
    return t["code"], [join(server.base, t["code"], f"p{i}") for i in range(4)]


async def connect_all(server: ServerThread, code: str, joins: list[dict[str, Any]]
                      ) -> list[Client]:
    clients = [await Client.open(server.ws_base, code, j["token"]) for j in joins]
    for c in clients:
        await c.until(has_view)
    return clients


def view_of(msg: dict[str, Any]) -> str:
    return json.dumps(msg["view"], sort_keys=True)


def test_bad_messages_leave_connection_and_game_untouched(server: ServerThread) -> None:
    code, joins = two_seat_table(server)

    async def run() -> None:
        clients = await connect_all(server, code, joins)
        c = clients[0]
        await c.send({"type": "state"})
        before = await c.until(lambda m: m["type"] == "state")
        garbage: list[Any] = [
            "not json", "[1, 2]", "{}", '{"type": 3}', "x" * 5000, '{"type": "nope"}',
            {"type": "action"}, {"type": "action", "action": None, "id": "g1"},
            {"type": "action", "action": ["play"], "id": "g2"},
            {"type": "action", "action": "play ZZ", "id": "g3"},
            {"type": "action", "action": "play 3C", "id": {"x": 1}},
            {"type": "action", "action": "pass", "seat": 2, "id": "g4"},
            {"type": "hello", "token": "again"}, "[" * 3000,
        ]
        for g in garbage:
            await c.send(g)
            reply = await c.until(lambda m: m["type"] == "error")
            assert reply["message"], reply
        codes = [m["code"] for m in c.received if m["type"] == "error"]
        assert "too_large" in codes and "malformed" in codes and "unknown_type" in codes
        assert "wrong_seat" in codes and "already_joined" in codes and "bad_action" in codes
        await c.send({"type": "state"})
        after = await c.until(lambda m: m["type"] == "state")
        assert view_of(after) == view_of(before) and after["index"] == before["index"]
        for cl in clients:
            await cl.close()

    asyncio.run(run())


def test_binary_frames_are_read_as_utf8_text_within_the_size_limit(server: ServerThread
                                                                   ) -> None:
    """A binary frame is a message in UTF-8: up to ``max_message_bytes`` (1024 here) it is
    read as text, one byte more is refused, and bytes that are not UTF-8 are refused."""
    code, joins = two_seat_table(server)

    def state_request(size: int) -> bytes:
        """A ``state`` request of exactly ``size`` bytes (two-byte characters in it)."""
        head = b'{"type": "state", "pad": "'
        fill = size - len(head) - 2
        return head + "é".encode() * (fill // 2) + b"x" * (fill % 2) + b'"}'

    async def run() -> None:
        clients = await connect_all(server, code, joins)
        c = clients[0]
        await c.ws.send(state_request(1024))
        before = await c.until(lambda m: m["type"] in ("state", "error"))
        assert before["type"] == "state" and before["seat"] == 0
        await c.ws.send(state_request(1025))
        reply = await c.until(lambda m: m["type"] in ("state", "error"))
        assert (reply["code"], reply["message"]) == ("too_large",
                                                     "Messages are limited to 1024 bytes.")
        for bad in (b"\xff\xfe", b'{"type": "state"}\xc3', "é".encode("latin-1")):
            await c.ws.send(bad)
            reply = await c.until(lambda m: m["type"] in ("state", "error"))
            assert (reply["code"], reply["message"]) == (
                "malformed", "Binary messages must be UTF-8 JSON."), bad
        await c.ws.send(b"[1, 2]")  # UTF-8, but not a message
        reply = await c.until(lambda m: m["type"] in ("state", "error"))
        assert reply["code"] == "malformed"
        await c.ws.send(b'{"type": "state"}')
        after = await c.until(lambda m: m["type"] in ("state", "error"))
        assert after["type"] == "state"
        assert view_of(after) == view_of(before) and after["index"] == before["index"] == 0
        for cl in clients:
            await cl.close()

    asyncio.run(run())


def test_illegal_action_gets_engine_reason_and_idempotent_ids(server: ServerThread) -> None:
    code, joins = two_seat_table(server)

    async def run() -> None:
        clients = await connect_all(server, code, joins)
        snap = clients[0].received[-1]
        to_act = snap["view"]["to_act"]
        seat = to_act[0]
        idle = next(s for s in range(4) if s not in to_act)
        # acting out of turn: the engine's reason, the connection stays up
        other = clients[idle]
        legal_any = clients[seat].received[-1]["legal"][0]
        await other.send({"type": "action", "id": "x1", "action": legal_any})
        e = await other.until(lambda m: m["type"] in ("error", "ack"))
        assert e["type"] == "error" and e["code"] == "illegal_action" and e["id"] == "x1"
        # acting out of turn is told in the player's words (and language), not the
        # engine's ("it is seat 2's turn, not seat 0's"); other reasons pass unchanged
        assert e["message"] == "It is not your turn."
        # the leader (seat 2 of this deal) may not pass: President's own reason
        me = clients[seat]
        await me.send({"type": "action", "id": "x2", "action": "pass"})
        e = await me.until(lambda m: m["type"] in ("error", "ack"))
        assert (e["type"], e["code"], e["id"]) == ("error", "illegal_action", "x2")
        assert e["message"] == "the leader must play; passing is not allowed when leading"
        # the same message id twice: applied once, the second reply repeats the ack
        await me.send({"type": "action", "id": "dup", "action": legal_any})
        await me.send({"type": "action", "id": "dup", "action": legal_any})
        a1 = await me.until(lambda m: m["type"] in ("ack", "error"))
        a2 = await me.until(lambda m: m["type"] in ("ack", "error"))
        assert a1["type"] == a2["type"] == "ack" and a1["index"] == a2["index"] == 0
        assert a2.get("repeat") is True
        status = httpx.get(f"{server.base}/api/tables/{code}").json()
        assert status["actions"] == 1
        for cl in clients:
            await cl.close()

    asyncio.run(run())


def test_token_misuse(server: ServerThread) -> None:
    code, joins = two_seat_table(server)
    other = create_table(server.base, "president", ["human"] * 4, players=4)

    async def run() -> None:
        clients = await connect_all(server, code, joins)
        # no token: a spectator, who cannot act and sees no hand
        spec = await Client.open(server.ws_base, code, None)
        w = await spec.until(has_view)
        assert w["seat"] is None and "legal" not in w
        await spec.send({"type": "action", "id": 1, "action": "pass"})
        assert (await spec.until(lambda m: m["type"] == "error"))["code"] == "not_a_seat"
        # a wrong token, a token of another table, no hello at all
        bad = await Client.open(server.ws_base, code, "A" * 43)
        assert (await bad.until(lambda m: m["type"] == "error"))["code"] == "bad_token"
        await bad.send({"type": "action", "id": 1, "action": "pass"})
        assert (await bad.until(lambda m: m["type"] == "error"))["code"] == "not_joined"
        j = join(server.base, other["code"])
        cross = await Client.open(server.ws_base, code, j["token"])
        assert (await cross.until(lambda m: m["type"] == "error"))["code"] == "bad_token"
        silent = await Client.open(server.ws_base, code, hello=False)
        await silent.send({"type": "action", "action": "pass"})
        assert (await silent.until(lambda m: m["type"] == "error"))["code"] == "not_joined"
        for cl in [*clients, spec, bad, cross, silent]:
            await cl.close()

    asyncio.run(run())
    # joining a full table, unknown tables, bad bodies
    r = httpx.post(f"{server.base}/api/tables/{code}/join", json={})
    assert r.status_code == 409 and r.json()["error"] == "table_full"
    assert httpx.get(f"{server.base}/api/tables/NOPE99").status_code == 404
    r = httpx.post(f"{server.base}/api/tables", content=b"{bad")
    assert r.status_code == 400 and r.json()["error"] == "malformed"
    r = httpx.post(f"{server.base}/api/tables", json={"game": "nope"})
    assert r.status_code == 400 and "unknown game" in r.json()["message"]
    r = httpx.post(f"{server.base}/api/tables", json={"game": "president", "players": 99})
    assert r.status_code == 400
    r = httpx.get(f"{server.base}/api/tables/{code}/replay")
    assert r.status_code == 409  # no replay (and so no seed) before the end


@pytest.fixture(scope="module")
def quick_grace(tmp_path_factory: pytest.TempPathFactory):
    db = tmp_path_factory.mktemp("db") / "grace.sqlite3"
    cfg = ServerConfig(db_url=f"sqlite:///{db}", table_prefix=unique_prefix(),
                       grace_seconds=0.05, messages_per_second=1000, message_burst=1000)
    with ServerThread(cfg) as s:
        yield s


def test_disconnected_seat_is_played_by_a_bot_until_reconnect(quick_grace: ServerThread
                                                             ) -> None:
    server = quick_grace
    t = create_table(server.base, "president", ["human", "human", "bot:easy", "bot:easy"],
                     players=4, seed=9)
    code = t["code"]
    j0, j1 = join(server.base, code, "a"), join(server.base, code, "b")

    async def run() -> None:
        c0 = await Client.open(server.ws_base, code, j0["token"])
        await c0.until(has_view)
        # seat 1 never connects: after the grace period a bot plays it and the game ends
        c1 = await Client.open(server.ws_base, code, j1["token"])
        await c1.until(has_view)
        await c1.close()
        from .helpers import play_scripted

        final = await play_scripted(c0, 4)
        assert final["over"]
        seats = [m for m in c0.received if m["type"] == "seats"]
        assert any(s["substituted"] for m in seats for s in m["seats"] if s["seat"] == 1)
        await c0.close()

    asyncio.run(run())
    assert httpx.get(f"{server.base}/api/tables/{code}").json()["status"] == "over"


def test_reconnect_restores_the_seat(server: ServerThread) -> None:
    code, joins = two_seat_table(server)

    async def run() -> None:
        clients = await connect_all(server, code, joins)
        first = clients[1].received[-1]
        await clients[1].close()
        again = await Client.open(server.ws_base, code, joins[1]["token"])
        w = await again.until(has_view)
        assert w["seat"] == 1 and w["view"]["hand"] == first["view"]["hand"]
        for cl in [clients[0], clients[2], clients[3], again]:
            await cl.close()

    asyncio.run(run())


def test_lobby_lists_games_and_openapi(server: ServerThread) -> None:
    games = httpx.get(f"{server.base}/api/games").json()
    assert {g["name"] for g in games} >= {"president"}
    assert all(get_spec(g["name"]) for g in games)
    schema = httpx.get(f"{server.base}/api/openapi.json").json()
    assert schema["openapi"].startswith("3.") and "/api/tables" in schema["paths"]
    assert isinstance(httpx.get(f"{server.base}/api/tables").json(), list)


def test_move_clock_plays_for_a_seat_that_lets_it_pass(tmp_path_factory: pytest.TempPathFactory
                                                       ) -> None:
    """Games without deadlines get the server's optional per-move clock."""
    db = tmp_path_factory.mktemp("db") / "clock.sqlite3"
    cfg = ServerConfig(db_url=f"sqlite:///{db}", table_prefix=unique_prefix(),
                       grace_seconds=1000, move_clock=0.2, messages_per_second=1000,
                       message_burst=1000)
    with ServerThread(cfg) as server:
        t = create_table(server.base, "president", ["human", "human", "bot:easy",
                                                    "bot:easy"], players=4, seed=5)
        code = t["code"]
        joins = [join(server.base, code, "a"), join(server.base, code, "b")]

        async def run() -> None:
            clients = [await Client.open(server.ws_base, code, j["token"]) for j in joins]
            for c in clients:
                await c.until(has_view)
                await c.send({"type": "ready"})  # the deal is on screen: the clocks may run
            # nobody types: the clock makes the humans' moves, so the game goes on
            moved = await clients[0].until(
                lambda m: m["type"] == "update" and m["seat"] in (0, 1))
            assert moved["index"] >= 0
            clocked = [m for m in clients[0].received + clients[1].received
                       if m.get("deadlines") and any(d["reason"] == "move clock"
                                                     for d in m["deadlines"])]
            assert clocked, "the clock is shown to the players"
            for c in clients:
                await c.close()

        asyncio.run(run())
