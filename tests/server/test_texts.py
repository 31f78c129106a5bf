"""What a connection reads: narrated log lines per reader, seat names, the whole history on
(re)join, the language switch and error reasons in the connection's language."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from spieltisch.server import ServerConfig

from .helpers import TIMEOUT, Client, ServerThread, create_table, has_view, join, unique_prefix

#: Hockey, seed 3: Zoe (seat 0) deals period 1; these are the two hands.
ZOE_HAND = {"3H": "3♥", "5S": "5♠", "6H": "6♥", "7H": "7♥", "8C": "8♣"}
ANNA_HAND = {"AS": "A♠", "4D": "4♦", "4S": "4♠", "8D": "8♦", "QC": "Q♣"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    db = tmp_path_factory.mktemp("db") / "texts.sqlite3"
    cfg = ServerConfig(db_url=f"sqlite:///{db}", table_prefix=unique_prefix(),
                       grace_seconds=1000, messages_per_second=1000, message_burst=1000)
    with ServerThread(cfg) as s:
        yield s


def texts(msg: dict[str, Any]) -> list[str]:
    return [line["text"] for line in msg["log"]]


def hockey_table(server: ServerThread) -> tuple[str, str]:
    """Zoe (human, seat 0) against an easy bot; the bot leads as soon as Zoe joins."""
    code = create_table(server.base, "hockey", ["human", "bot:easy"], seed=3)["code"]
    return code, join(server.base, code, "Zoe")["token"]


async def after_the_lead(me: Client) -> dict[str, Any]:
    """A fresh snapshot once the bot has led and Zoe is to play."""
    await me.until(lambda m: has_view(m) and m["required"])
    await me.send({"type": "state"})
    return await me.until(lambda m: m["type"] == "state")


def test_each_reader_is_told_what_it_saw_in_its_language(server: ServerThread) -> None:
    code, token = hockey_table(server)

    async def run() -> None:
        me = await Client.open(server.ws_base, code, token, lang="en")
        welcome = await after_the_lead(me)
        assert welcome["names"] == ["Zoe", "Anna"] and welcome["index"] == 1
        # the opening deal (index -1): Zoe reads her own cards, nobody else's
        assert welcome["log"][:2] == [
            {"index": -1, "text": "Period 1 begins, Zoe deals."},
            {"index": -1, "text": "Zoe deals 5 cards each (deal 1); Zoe gets "
                                  "3♥, 5♠, 6♥, 7♥, 8♣."}]
        assert len(welcome["log"]) == 3 and welcome["log"][2]["index"] == 0
        lead = welcome["log"][2]["text"]
        assert lead in {f"Anna plays {card}." for card in ANNA_HAND.values()}
        led = lead.removeprefix("Anna plays ").removesuffix(".")
        assert welcome["labels"] == {f"play {c}": f"Play {s}" for c, s in ZOE_HAND.items()}

        watcher = await Client.open(server.ws_base, code, None, lang="de")
        seen = await watcher.until(has_view)
        assert seen["names"] == ["Zoe", "Anna"]
        assert seen["log"] == [
            {"index": -1, "text": "Periode 1 beginnt, Zoe gibt."},
            {"index": -1, "text": "Zoe gibt jedem 5 Karten (Runde 1)."},
            {"index": 0, "text": f"Anna spielt {led}."}]
        assert "labels" not in seen and "legal" not in seen

        await me.send({"type": "action", "id": "z1", "action": "play 3H"})
        mine = await me.until(lambda m: m["type"] == "update" and m["index"] == 1)
        theirs = await watcher.until(lambda m: m["type"] == "update" and m["index"] == 1)
        assert mine["log"] == [{"index": 1, "text": "Zoe plays 3♥."}]
        assert theirs["log"] == [{"index": 1, "text": "Zoe spielt 3♥."}]
        assert mine["required"] is False and mine["labels"] == {}  # Anna's turn
        for c in (me, watcher):
            await c.close()

    asyncio.run(run())


def test_a_rejoin_gets_the_whole_history_and_lang_switches_it(server: ServerThread) -> None:
    code, token = hockey_table(server)

    async def run() -> None:
        me = await Client.open(server.ws_base, code, token)
        first = await after_the_lead(me)
        await me.send({"type": "action", "id": "z1", "action": "play 5S"})
        answer = await me.until(lambda m: m["type"] == "update" and m["index"] == 2)
        since = me.received[me.received.index(first) + 1:]
        history = first["log"] + [line for m in since if m["type"] == "update"
                                  for line in m["log"]]
        assert [line["index"] for line in history] == [-1, -1, 0, 1, 2]
        assert answer["required"] is True  # Zoe's turn again: nothing moves meanwhile
        await me.close()

        again = await Client.open(server.ws_base, code, token, lang="en")
        back = await again.until(has_view)
        assert back["type"] == "welcome" and back["index"] == 3 and back["log"] == history

        await again.send({"type": "lang", "lang": "nl"})
        dutch = await again.until(lambda m: m["type"] == "state")
        assert dutch["index"] == 3 and dutch["names"] == ["Zoe", "Anna"]
        assert [line["index"] for line in dutch["log"]] == [-1, -1, 0, 1, 2]
        assert texts(dutch)[:2] == ["Periode 1 begint, Zoe deelt.",
                                    "Zoe deelt ieder 5 kaarten (ronde 1); Zoe krijgt "
                                    "3♥, 5♠, 6♥, 7♥, 8♣."]
        assert texts(dutch)[3] == "Zoe speelt 5♠."
        assert dutch["labels"] == {f"play {c}": f"{s} spelen" for c, s in ZOE_HAND.items()
                                   if c != "5S"}
        # an update after the switch comes in Dutch too
        await again.send({"type": "action", "id": "z2", "action": "play 6H"})
        later = await again.until(lambda m: m["type"] == "update" and m["index"] == 3)
        assert texts(later) == ["Zoe speelt 6♥."]

        await again.send({"type": "lang", "lang": "xx"})  # not offered: English
        english = await again.until(lambda m: m["type"] == "state")
        assert texts(english)[0] == "Period 1 begins, Zoe deals."
        await again.send({"type": "lang", "lang": 5})
        bad = await again.until(lambda m: m["type"] == "error")
        assert bad["code"] == "malformed"
        assert bad["message"] == "A 'lang' message names a language: en, de or nl."

        # a spectator arriving late reads the whole public history
        late = await Client.open(server.ws_base, code, None)
        seen = await late.until(has_view)
        assert [line["index"] for line in seen["log"]][:5] == [-1, -1, 0, 1, 2]
        assert texts(seen)[1] == "Zoe deals 5 cards each (deal 1)."
        for c in (again, late):
            await c.close()

    asyncio.run(run())


def test_seat_names_humans_bots_and_nameless(server: ServerThread) -> None:
    t = create_table(server.base, "president", ["human", "human", "bot:easy", "bot:medium"],
                     players=4, seed=2)
    code = t["code"]
    assert t["names"] == ["Seat 1", "Seat 2", "Anna", "Ben"]
    join(server.base, code, "Anna")
    join(server.base, code, "")
    status = httpx.get(f"{server.base}/api/tables/{code}", timeout=TIMEOUT).json()
    assert status["names"] == ["Anna", "Seat 2", "Ben", "Clara"]  # bots skip "Anna"
    assert [s["bot"] for s in status["seats"]] == [None, None, "easy", "medium"]
    german = httpx.get(f"{server.base}/api/tables/{code}?lang=de", timeout=TIMEOUT).json()
    assert german["names"] == ["Anna", "Platz 2", "Ben", "Clara"]
    dutch = httpx.get(f"{server.base}/api/tables/{code}",
                      headers={"accept-language": "nl-BE, de;q=0.5"}, timeout=TIMEOUT).json()
    assert dutch["names"] == ["Anna", "Plaats 2", "Ben", "Clara"]

    other = create_table(server.base, "president", ["human", "bot:easy", "bot:easy", "human"],
                         players=4)["code"]
    join(server.base, other, " ben ")
    join(server.base, other, "Anna")
    names = httpx.get(f"{server.base}/api/tables/{other}", timeout=TIMEOUT).json()["names"]
    assert names == ["ben", "Clara", "David", "Anna"]  # no bot shares a human's name


def test_error_reasons_in_the_connections_language(server: ServerThread) -> None:
    code = create_table(server.base, "president", ["human"] * 4, players=4, seed=5)["code"]
    joins = [join(server.base, code, f"p{i}") for i in range(4)]

    async def run() -> None:
        clients = [await Client.open(server.ws_base, code, j["token"], lang="de")
                   for j in joins]
        latest = [await c.until(has_view) for c in clients]
        actor = next(s for s in range(4) if latest[s]["required"])
        idle = next(s for s in range(4) if s != actor and not latest[s]["legal"])
        await clients[idle].send({"type": "action", "id": "x",
                                  "action": latest[actor]["legal"][0]})
        refused = await clients[idle].until(lambda m: m["type"] == "error")
        assert refused == {"type": "error", "code": "illegal_action", "id": "x",
                           "message": "Du bist nicht am Zug."}
        await clients[idle].send({"type": "nope"})
        unknown = await clients[idle].until(lambda m: m["type"] == "error")
        assert unknown["message"] == "Unbekannte Nachrichtenart 'nope'."

        # without ?lang= the handshake's Accept-Language decides
        ws = await connect(f"{server.ws_base}/ws/{code}", open_timeout=TIMEOUT,
                           additional_headers={"Accept-Language": "nl"})
        await ws.send(json.dumps({"type": "hello", "token": None}))
        welcome = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
        assert welcome["type"] == "welcome" and welcome["names"] == ["p0", "p1", "p2", "p3"]
        await ws.send(json.dumps({"type": "action", "action": "pass"}))
        while (reply := json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT)))["type"] \
                != "error":
            pass
        assert reply["code"] == "not_a_seat"
        assert reply["message"] == "Toeschouwers kunnen niet meespelen."
        await ws.close()
        for c in clients:
            await c.close()

    asyncio.run(run())
    r = httpx.post(f"{server.base}/api/tables/{code}/join", json={},
                   headers={"accept-language": "de"}, timeout=TIMEOUT)
    assert r.status_code == 409
    assert r.json() == {"error": "table_full",
                        "message": "An diesem Tisch ist kein Platz mehr frei."}
    r = httpx.get(f"{server.base}/api/tables/NOPE99?lang=nl", timeout=TIMEOUT)
    assert r.status_code == 404
    assert r.json() == {"error": "no_table", "message": "Er is geen tafel NOPE99."}
