"""The end of a game at the server (issue 34, item 5): the score sheet in the snapshots,
and the rematch: every person accepts, the new table starts with the seats rotated by
one, the same options and pace, a seed the server drew, and tokens derived from the old
ones; a refusal, a second answer, a spectator, an unfinished table change nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from spieltisch.core import get_spec
from spieltisch.core.scoresheet import sheet_of
from spieltisch.replay import Replay
from spieltisch.server import ServerConfig
from spieltisch.server.app import Lobby
from spieltisch.server.rematch import rematch_token

from .helpers import Client, ServerThread, create_table, has_view, join, play_scripted

#: Pixmit for three: two people (Ada at seat 0, Ben at seat 1) and a bot (seat 2); a
#: seed of a practice table, so that the first game is always the same one.
SEED = 11
OPTIONS = {"start_player": 1, "mode": "beginner"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    db = tmp_path_factory.mktemp("db") / "rematch.sqlite3"
    cfg = ServerConfig(db_url=f"sqlite:///{db}", grace_seconds=1000, time_scale=0.0,
                       messages_per_second=1000, message_burst=1000,
                       max_tables_per_client=1000, joins_per_minute=0)
    with ServerThread(cfg) as s:
        yield s


def lobby_of(server: ServerThread) -> Lobby:
    return server.server.config.app.state.lobby  # type: ignore[attr-defined, no-any-return]


def status(server: ServerThread, code: str) -> dict[str, Any]:
    r = httpx.get(f"{server.base}/api/tables/{code}", timeout=60)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def a_table(server: ServerThread) -> tuple[str, str, str]:
    """A Pixmit table of Ada, Ben and a bot: its code and the two people's tokens."""
    t = create_table(server.base, "pixmit", ["human", "human", "bot:easy"], players=3,
                     seed=SEED, options=OPTIONS)
    ada = join(server.base, t["code"], "Ada")
    ben = join(server.base, t["code"], "Ben")
    assert (ada["seat"], ben["seat"]) == (0, 1)
    return t["code"], ada["token"], ben["token"]


async def finished(server: ServerThread, code: str, ada: str, ben: str
                   ) -> tuple[Client, Client, dict[str, Any], dict[str, Any]]:
    """Ada and Ben play the game to its end (random legal moves on their turns)."""
    a = await Client.open(server.ws_base, code, ada)
    b = await Client.open(server.ws_base, code, ben)
    last_a, last_b = await asyncio.gather(play_scripted(a, 1, react_p=0),
                                          play_scripted(b, 2, react_p=0))
    assert last_a["over"] and last_b["over"]
    return a, b, last_a, last_b


def rematch_of(msg: dict[str, Any]) -> bool:
    return msg["type"] == "rematch"


def test_two_people_accept_and_the_rematch_starts_rotated(server: ServerThread) -> None:
    code, ada_token, ben_token = a_table(server)
    before = status(server, code)

    async def run() -> dict[str, Any]:
        a, b, end_a, end_b = await finished(server, code, ada_token, ben_token)
        # the last update brings the score sheet and the offer: the bot has accepted
        for end in (end_a, end_b):
            assert end["rematch"] == {"status": "open", "accepted": [2], "waiting": [0, 1],
                                      "declined": None, "code": None}
            sheet = end["sheet"]
            assert sheet["scores"] == end["result"]["scores"]
            assert [sum(r["points"][s] for r in sheet["rounds"]) for s in range(3)] == \
                sheet["scores"]
            assert sheet["ranks"] == end["result"]["ranks"]
            assert sheet["winner"] == end["result"]["winner"]
            assert sheet["length"]["actions"] == end["index"] + 1
        watcher = await Client.open(server.ws_base, code, None)
        await watcher.until(has_view)
        await watcher.send({"type": "rematch"})
        assert (await watcher.until(lambda m: m["type"] == "error"))["code"] == "not_a_seat"
        await a.send({"type": "rematch"})
        told = [await c.until(rematch_of) for c in (a, b, watcher)]
        assert all(m["status"] == "open" and m["accepted"] == [0, 2] and m["waiting"] == [1]
                   for m in told)
        await a.send({"type": "rematch"})  # twice: an error, nothing changes
        again = await a.until(lambda m: m["type"] == "error")
        assert again["code"] == "already_accepted"
        await b.send({"type": "rematch", "accept": "yes"})
        assert (await b.until(lambda m: m["type"] == "error"))["code"] == "malformed"
        await b.send({"type": "rematch"})
        started = {name: await c.until(rematch_of) for name, c in
                   (("ada", a), ("ben", b), ("watcher", watcher))}
        new = started["ada"]["code"]
        assert started["ada"]["status"] == "started" and new != code
        assert (started["ada"]["seat"], started["ben"]["seat"]) == (1, 2)
        assert started["ada"]["token"] == rematch_token(ada_token, new)
        assert started["ben"]["token"] == rematch_token(ben_token, new)
        assert "token" not in started["watcher"] and started["watcher"]["code"] == new
        await b.send({"type": "rematch"})  # after the start: an error naming the table
        late = await b.until(lambda m: m["type"] == "error")
        assert late["code"] == "rematch_started" and new in late["message"]
        for c in (a, b, watcher):
            await c.close()
        # the new seats' tokens play there; the old ones do not
        na = await Client.open(server.ws_base, new, started["ada"]["token"])
        nb = await Client.open(server.ws_base, new, started["ben"]["token"])
        welcome_a, welcome_b = await na.until(has_view), await nb.until(has_view)
        assert (welcome_a["seat"], welcome_b["seat"]) == (1, 2)
        assert welcome_a["status"] == "playing" and welcome_a["index"] == 0
        old = await Client.open(server.ws_base, new, ada_token)
        assert (await old.until(lambda m: m["type"] == "error"))["code"] == "bad_token"
        # a reload of the old table finds the rematch and Ada's seat there again
        back = await Client.open(server.ws_base, code, ada_token)
        again_welcome = await back.until(has_view)
        assert again_welcome["rematch"]["status"] == "started"
        assert again_welcome["rematch"]["token"] == started["ada"]["token"]
        for c in (na, nb, old, back):
            await c.close()
        return started["ada"]

    started = asyncio.run(run())
    new = started["code"]
    after, made = status(server, code), status(server, new)
    assert after["rematch"] == new and made["rematch_of"] == code
    assert (made["game"], made["players"], made["options"], made["pace"]) == \
        (before["game"], before["players"], before["options"], before["pace"])
    # seats rotated by one: the bot (same level, same name) now sits first
    assert [(s["kind"], s["bot"]) for s in made["seats"]] == \
        [("bot", "easy"), ("human", None), ("human", None)]
    assert made["names"] == [before["names"][2], "Ada", "Ben"]
    assert all(s["taken"] for s in made["seats"]) and made["status"] == "playing"
    lobby = lobby_of(server)
    assert lobby.tables[new].row.seed != SEED  # the server's, not the old table's
    assert code not in lobby.rematching  # the offer closed with the start


def test_a_refusal_or_a_person_who_leaves_starts_nothing(server: ServerThread) -> None:
    code, ada_token, ben_token = a_table(server)

    async def run() -> None:
        a = await Client.open(server.ws_base, code, ada_token)
        await a.until(has_view)
        await a.send({"type": "rematch"})  # not over yet
        early = await a.until(lambda m: m["type"] == "error")
        assert early["code"] == "not_over"
        await a.close()
        a, b, _, _ = await finished(server, code, ada_token, ben_token)
        await a.send({"type": "rematch"})
        for c in (a, b):
            assert (await c.until(rematch_of))["accepted"] == [0, 2]
        await b.send({"type": "rematch", "accept": False})
        for c in (a, b):
            m = await c.until(rematch_of)
            assert (m["status"], m["declined"], m["code"]) == ("declined", 1, None)
        await a.send({"type": "rematch"})
        refused = await a.until(lambda m: m["type"] == "error")
        assert refused["code"] == "rematch_declined" and refused["message"] == \
            "Ben declined the rematch."
        await a.close()
        await b.close()

    asyncio.run(run())
    assert status(server, code)["rematch"] is None
    assert code not in lobby_of(server).rematching

    # Ben leaves without answering: Ada's acceptance alone starts nothing
    code, ada_token, ben_token = a_table(server)

    async def leave() -> None:
        a, b, _, _ = await finished(server, code, ada_token, ben_token)
        await b.close()
        await a.send({"type": "rematch"})
        m = await a.until(rematch_of)
        assert (m["status"], m["waiting"]) == ("open", [1])
        await a.close()

    asyncio.run(leave())
    assert status(server, code)["rematch"] is None


def test_the_offer_closes_when_its_time_is_up(tmp_path: Any) -> None:
    """A short offer: nobody answers, and the table tells its people it closed."""
    cfg = ServerConfig(db_url=f"sqlite:///{tmp_path / 'closing.sqlite3'}", grace_seconds=1000,
                       time_scale=0.0, rematch_seconds=0.3, joins_per_minute=0)
    with ServerThread(cfg) as s:
        code, ada_token, ben_token = a_table(s)

        async def run() -> None:
            a, b, _, _ = await finished(s, code, ada_token, ben_token)
            closed = await a.until(rematch_of)
            assert closed["status"] == "closed" and closed["waiting"] == []
            await a.send({"type": "rematch"})
            assert (await a.until(lambda m: m["type"] == "error"))["code"] == "rematch_closed"
            await a.close()
            await b.close()

        asyncio.run(run())
        assert code not in lobby_of(s).rematching


def test_past_the_cap_the_oldest_offer_closes(tmp_path: Any) -> None:
    """Memory stays bounded: with room for one open offer, a second finished table
    closes the first one's offer (its people are told), and only the second stays."""
    cfg = ServerConfig(db_url=f"sqlite:///{tmp_path / 'cap.sqlite3'}", grace_seconds=1000,
                       time_scale=0.0, max_rematching=1, joins_per_minute=0)
    with ServerThread(cfg) as s:
        first = a_table(s)
        second = a_table(s)

        async def run() -> None:
            a1, b1, end1, _ = await finished(s, *first)
            assert end1["rematch"]["status"] == "open"
            a2, b2, end2, _ = await finished(s, *second)
            assert end2["rematch"]["status"] == "open"
            closed = await a1.until(rematch_of)
            assert closed["status"] == "closed"
            await a2.send({"type": "rematch"})  # the second offer is still open
            assert (await a2.until(rematch_of))["accepted"] == [0, 2]
            for c in (a1, b1, a2, b2):
                await c.close()

        asyncio.run(run())
        assert list(lobby_of(s).rematching) == [second[0]]


def test_the_replay_steps_end_with_the_score_sheet(server: ServerThread) -> None:
    code, ada_token, ben_token = a_table(server)

    async def run() -> None:
        a, b, _, _ = await finished(server, code, ada_token, ben_token)
        await a.close()
        await b.close()

    asyncio.run(run())
    rep = httpx.get(f"{server.base}/api/tables/{code}/replay", timeout=60).json()
    steps = httpx.get(f"{server.base}/api/tables/{code}/replay/steps?seat=full&lang=de",
                      timeout=60).json()
    state = Replay.from_json(rep).new_state()
    game = get_spec("pixmit").configure(3, OPTIONS)
    events = list(state.opening)
    for seat, text in rep["actions"]:
        events += state.apply(seat, game.action_from_json(text))
    sheet = sheet_of(state, events, len(rep["actions"]))
    assert steps["sheet"]["scores"] == [int(x) for x in sheet.scores]
    assert steps["sheet"]["title"] == "Punkte der Schlusshände"
    assert steps["sheet"]["length"]["actions"] == len(rep["actions"])
    assert steps["sheet"]["length"]["seconds"] is None  # a replay knows no minutes
    table = httpx.get(f"{server.base}/api/tables/{code}", timeout=60).json()
    assert table["result"]["scores"] == steps["sheet"]["scores"]
