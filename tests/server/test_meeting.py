"""Meeting people and a person's games (issue 39): the open tables, quick-join, the waiting
list (two stores taking one list at once seat nobody twice) and the history's filters.

In-process (Starlette's ``TestClient``) on SQLite and PostgreSQL (``db_url``)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

from spieltisch.server import meeting as meeting_module
from spieltisch.server.app import create_app
from spieltisch.server.config import ServerConfig
from spieltisch.server.lobby import Lobby
from spieltisch.server.loopback import LoopbackServer
from spieltisch.server.meeting import WaitingList
from spieltisch.server.store import SeatRow, Store

from .helpers import unique_prefix


@pytest.fixture
def client(db_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """A server on a prefix of its own; a poll of a waiter not yet seated answers at once
    (no long-poll: the tests read the answer, they never wait for time to pass)."""
    monkeypatch.setattr(meeting_module, "LONG_POLL", 0.0)
    app = create_app(ServerConfig(db_url=db_url, table_prefix=unique_prefix(),
                                  joins_per_minute=1000))
    with TestClient(app) as c:
        yield c
        lobby(c).store.drop_all()


def lobby(c: TestClient) -> Lobby:
    return c.app.state.lobby  # type: ignore[attr-defined,no-any-return]


def create(c: TestClient, game: str, seats: list[str], **more: Any) -> str:
    r = c.post("/api/tables", json={"game": game, "seats": seats, **more})
    assert r.status_code == 201, r.text
    return str(r.json()["code"])


def sign_in(c: TestClient, name: str) -> dict[str, str]:
    """A new account ``name`` signed in on ``c`` (its cookie): the CSRF header to send."""
    accounts = lobby(c).accounts
    account = accounts.by_name(name) or accounts.create(name, "secret-password")
    assert account is not None
    token, csrf = accounts.open_session(account)
    c.cookies.set("st_session", token)
    return {"x-csrf-token": csrf}


def guest(c: TestClient) -> None:
    c.cookies.clear()


# -- open tables and quick-join ---------------------------------------------------------
def test_open_tables_list_waiting_tables_with_a_free_seat_and_their_options(
        client: TestClient) -> None:
    """Listed: waiting, a free seat, not practice, oldest first; with each option's label
    and value in words (German here), pace, rated, and who sits where."""
    first = create(client, "hockey", ["human", "human"], options={"first_dealer": 1},
                   pace="relaxed")
    create(client, "hockey", ["human", "human"], practice=True)  # private: not listed
    full = create(client, "hockey", ["human", "bot:easy"])
    client.post(f"/api/tables/{full}/join", json={"name": "Cleo"})  # full: playing
    second = create(client, "president", ["human", "human", "bot:easy", "bot:medium"],
                    players=4)
    assert client.post(f"/api/tables/{second}/join", json={"name": "Bea"}).status_code == 201
    got = client.get("/api/open-tables?lang=de").json()
    assert [t["code"] for t in got] == [first, second]
    assert got[0]["created"] <= got[1]["created"]
    for t in got:
        del t["created"]
    assert got == [
        {"code": first, "game": "hockey", "title": "Hockey", "players": 2, "pace": "relaxed",
         "rated": False, "free": 2,
         "options": [{"name": "first_dealer", "label": "Erster Geber", "value": 1,
                      "value_label": "Platz 2", "default": False}],
         "seats": [{"seat": 0, "kind": "human", "bot": None, "name": None, "taken": False},
                   {"seat": 1, "kind": "human", "bot": None, "name": None, "taken": False}]},
        {"code": second, "game": "president", "title": "Präsident", "players": 4,
         "pace": "rules", "rated": False, "free": 1,
         "options": [{"name": "skip_rule", "label": "Überspringen", "value": False,
                      "value_label": None, "default": True},
                     {"name": "first_leader", "label": "Spielt zuerst aus", "value": -1,
                      "value_label": "ein zufälliger Platz", "default": True}],
         "seats": [{"seat": 0, "kind": "human", "bot": None, "name": "Bea", "taken": True},
                   {"seat": 1, "kind": "human", "bot": None, "name": None, "taken": False},
                   {"seat": 2, "kind": "bot", "bot": "easy", "name": "Anna", "taken": True},
                   {"seat": 3, "kind": "bot", "bot": "medium", "name": "Ben",
                    "taken": True}]}]
    assert [t["code"] for t in client.get("/api/open-tables?game=president&players=4")
            .json()] == [second]
    assert client.get("/api/open-tables?game=chess").json()["error"] == "bad_game"


def test_quick_join_takes_the_oldest_open_table_and_refuses_when_there_is_none(
        client: TestClient) -> None:
    r = client.post("/api/quick-join", json={"game": "hockey"}, headers={
        "accept-language": "de"})
    assert r.status_code == 404 and r.json() == {
        "error": "no_open_table",
        "message": "Es gibt keinen offenen Tisch für Hockey mit einem freien Platz."}
    older = create(client, "hockey", ["human", "human"])
    newer = create(client, "hockey", ["human", "human"])
    create(client, "president", ["human"] + ["bot:easy"] * 4, players=5)
    r = client.post("/api/quick-join", json={"game": "hockey", "name": "Quinn"})
    assert r.status_code == 201
    assert (r.json()["code"], r.json()["seat"]) == (older, 0)
    assert lobby(client).tables[older].row.seats[0].name == "Quinn"
    # a code the client sits at already is skipped; the player count narrows the search
    r = client.post("/api/quick-join", json={"game": "hockey", "skip": [older.lower()]})
    assert (r.json()["code"], r.json()["seat"]) == (newer, 0)
    r = client.post("/api/quick-join", json={"game": "president", "players": 4})
    assert r.status_code == 404 and r.json()["error"] == "no_open_table"
    # a signed-in person never lands at a table where their account sits
    headers = sign_in(client, "olga")
    assert client.post("/api/quick-join", json={"game": "hockey"},
                       headers=headers).json()["code"] == older
    r = client.post("/api/quick-join", json={"game": "hockey"}, headers=headers)
    assert (r.json()["code"], r.json()["seat"]) == (newer, 1)
    assert client.post("/api/quick-join", json={"game": "hockey"},
                       headers=headers).status_code == 404


# -- the waiting list ------------------------------------------------------------------
def wait(c: TestClient, name: str, headers: dict[str, str] | None = None, **more: Any
         ) -> dict[str, Any]:
    r = c.post("/api/waiting", json={"game": "hockey", "name": name, **more}, headers=headers)
    assert r.status_code == 201, r.text
    return dict(r.json())


def poll(c: TestClient, token: str) -> tuple[int, dict[str, Any]]:
    r = c.post("/api/waiting/poll", json={"waiting_token": token})
    return r.status_code, r.json()


def test_the_waiting_list_seats_people_when_enough_wait(client: TestClient) -> None:
    ada = wait(client, "Ada")
    assert {k: ada[k] for k in ("status", "game", "players", "waiting")} == {
        "status": "waiting", "game": "hockey", "players": 2, "waiting": 1}
    assert poll(client, ada["waiting_token"]) == (200, {
        "status": "waiting", "game": "hockey", "players": 2, "waiting": 1})
    bo = wait(client, "Bo")  # the second of two: a table now, both seated
    code = bo["code"]
    assert (bo["status"], bo["seat"], bo["ws"]) == ("seated", 1, f"/ws/{code}")
    status, seated = poll(client, ada["waiting_token"])
    assert status == 200 and seated == {"status": "seated", "game": "hockey", "players": 2,
                                        "code": code, "seat": 0, "token": seated["token"],
                                        "ws": f"/ws/{code}"}
    # a casual table without bots, both seats taken with the tokens handed out: it plays
    info = client.get(f"/api/tables/{code}").json()
    assert info["status"] == "playing" and info["names"] == ["Ada", "Bo"]
    rt = lobby(client).tables[code]
    assert rt.row.rated is False and [s.kind for s in rt.row.seats] == ["human", "human"]
    assert rt.seat_of_token(seated["token"]) == 0 and rt.seat_of_token(bo["token"]) == 1
    # the seat was handed out: the place is gone
    assert poll(client, ada["waiting_token"])[1]["error"] == "not_waiting"
    assert client.get("/api/open-tables").json() == []


def test_leaving_the_waiting_list(client: TestClient) -> None:
    cy = wait(client, "Cy")
    r = client.post("/api/waiting/leave", json={"waiting_token": cy["waiting_token"]})
    assert r.status_code == 200 and r.json() == {"status": "left"}
    r = client.post("/api/waiting/leave", json={"waiting_token": cy["waiting_token"]})
    assert r.status_code == 404 and r.json()["error"] == "not_waiting"
    assert poll(client, cy["waiting_token"])[0] == 404
    dee = wait(client, "Dee")
    assert dee["status"] == "waiting"  # Cy is gone: Dee waits alone
    assert wait(client, "Eve")["status"] == "seated"
    assert poll(client, dee["waiting_token"])[1]["status"] == "seated"
    # an account waits on a list once; bad input stores nothing
    headers = sign_in(client, "fay")
    fay = wait(client, "x", headers, players=2)
    assert fay["status"] == "waiting" and fay["waiting"] == 1
    r = client.post("/api/waiting", json={"game": "hockey"}, headers=headers)
    assert r.status_code == 409 and r.json()["error"] == "already_waiting"
    guest(client)
    for body, error in (({"game": "hockey", "players": 3}, "bad_players"),
                        ({"game": "nope"}, "bad_game"), ({"game": "hockey", "name": 5},
                                                         "bad_request")):
        r = client.post("/api/waiting", json=body)
        assert r.status_code == 400 and r.json()["error"] == error


def test_a_pending_poll_answers_at_once_when_the_server_stops(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A long poll under way answers when the server begins to stop (``Lobby.drain``, what
    SIGTERM runs before uvicorn waits for the requests under way): a stopping server waits
    for no poll. The poll would otherwise wait an hour here."""
    monkeypatch.setattr(meeting_module, "LONG_POLL", 3600.0)
    monkeypatch.setattr(meeting_module, "POLL_EVERY", 3600.0)
    pausing = threading.Event()
    pause = meeting_module.Meeting._pause

    async def noted(self: meeting_module.Meeting, seconds: float) -> None:
        pausing.set()
        await pause(self, seconds)

    monkeypatch.setattr(meeting_module.Meeting, "_pause", noted)
    waiting = {"status": "waiting", "game": "hockey", "players": 2, "waiting": 1}
    config = ServerConfig(db_url=db_url, table_prefix=unique_prefix())
    with TestClient(create_app(config)) as c:
        try:
            ada = wait(c, "Ada")
            with ThreadPoolExecutor(1) as pool:
                answer = pool.submit(poll, c, ada["waiting_token"])
                assert pausing.wait(60)
                c.portal.call(lobby(c).drain)
                assert answer.result(timeout=60) == (200, waiting)
        finally:
            lobby(c).store.drop_all()
    # and a real server (uvicorn, as the browser tests' ``LoopbackServer``) that stops
    pausing.clear()
    server = LoopbackServer(config)
    with ThreadPoolExecutor(1) as pool:
        with server:
            token = httpx.post(f"{server.base}/api/waiting", json={"game": "hockey"},
                               timeout=60).json()["waiting_token"]
            answer = pool.submit(httpx.post, f"{server.base}/api/waiting/poll",
                                 json={"waiting_token": token}, timeout=60)
            assert pausing.wait(60)
        assert not server.thread.is_alive()  # stopped, not given up on after its timeout
        assert answer.result(timeout=60).json() == waiting
    store = Store(db_url, config.table_prefix)
    store.drop_all()
    store.close()


def test_two_stores_taking_one_list_at_once_seat_everybody_exactly_once(db_url: str) -> None:
    """Twelve people wait for Hockey; two stores (two nodes) on the same prefix each try
    six seatings at the same moment: six tables, each person at exactly one seat."""
    prefix = unique_prefix()
    stores = [Store(db_url, prefix), Store(db_url, prefix)]
    try:
        lists = [WaitingList(s) for s in stores]
        now = time.time()
        tokens = [f"token-{i}" for i in range(12)]
        for i, token in enumerate(tokens):
            assert lists[i % 2].add(token, "hockey", 2, f"P{i}", None, now + i / 1000)
        start = threading.Barrier(12)

        def take(k: int) -> str | None:
            start.wait()
            for _ in range(20):  # a waiter taken by the other store's try: none here
                try:
                    row = lists[k % 2].take("hockey", 2, f"C{k:02d}", {"first_dealer": -1},
                                            k, time.time())
                except Exception as e:  # SQLite's other writer held the lock too long
                    assert "locked" in str(e)
                    continue
                return None if row is None else row.code
            raise AssertionError("the database stayed locked")

        with ThreadPoolExecutor(12) as pool:
            made = [c for c in pool.map(take, range(12)) if c is not None]
        assert len(made) == 6
        seated: dict[str, tuple[str, int]] = {}
        for token in tokens:
            got = lists[0].get(token, time.time())
            assert got is not None and got[0].code is not None and got[0].seat is not None
            seated[token] = (got[0].code, got[0].seat)
        assert sorted(seated.values()) == sorted((c, s) for c in made for s in (0, 1))
        for code in made:
            row = stores[0].load_table(code)
            assert row is not None and row.status == "waiting"
            assert sorted(s.name for s in row.seats) == sorted(
                f"P{tokens.index(t)}" for t, (c, _) in seated.items() if c == code)
    finally:
        stores[0].drop_all()
        for s in stores:
            s.close()


def test_two_servers_on_one_database_seat_their_waiters_once(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Eight people join the Hockey list at the same moment, alternately on two servers
    (two nodes) of one prefix; each then asks the other server: four tables, served by the
    server that made them, everyone at exactly one seat."""
    monkeypatch.setattr(meeting_module, "LONG_POLL", 0.0)
    config = ServerConfig(db_url=db_url, table_prefix=unique_prefix(), joins_per_minute=1000)
    with TestClient(create_app(config)) as one, TestClient(create_app(config)) as two:
        servers = [one, two]
        start = threading.Barrier(8)

        def arrive(i: int) -> dict[str, Any]:
            start.wait()
            return wait(servers[i % 2], f"P{i}")

        try:
            with ThreadPoolExecutor(8) as pool:
                answers = list(pool.map(arrive, range(8)))
            # seated by its own arrival (the answer says so, once), else asked again
            seats = [(201, a) if a["status"] == "seated"
                     else poll(servers[(i + 1) % 2], a["waiting_token"])
                     for i, a in enumerate(answers)]
            assert all(a["status"] == "seated" for _, a in seats), seats
            taken = sorted((a["code"], a["seat"]) for _, a in seats)
            codes = sorted({code for code, _ in taken})
            assert len(codes) == 4 and taken == [(c, s) for c in codes for s in (0, 1)]
            served = [code for c in servers for code in lobby(c).tables]
            assert sorted(served) == codes  # each table by one server
            for i, (_, a) in enumerate(seats):
                info = one.get(f"/api/tables/{a['code']}").json()
                assert info["status"] == "playing" and info["names"][a["seat"]] == f"P{i}"
        finally:
            lobby(one).store.drop_all()


# -- a person's games ----------------------------------------------------------------------
def stored(c: TestClient, code: str, game: str, seats: list[SeatRow], status: str,
           ranks: list[int] | None = None, practice: bool = False, ended: float = 0.0
           ) -> None:
    """A table stored as it ends up (no runtime serves it)."""
    store = lobby(c).store
    setup: dict[str, Any] = {"ended": ended} if ended else {}
    if practice:
        setup["practice"] = True
    table_id = store.create_table(code, game, len(seats), {}, 1, seats, "",
                                  json.dumps(setup) if setup else None)
    result = {"scores": [0] * len(seats), "ranks": ranks,
              "winner": ranks.index(1) if ranks and ranks.count(1) == 1 else None} \
        if ranks else None
    store.set_status(table_id, status, result)


def codes(c: TestClient, url: str, headers: dict[str, str] | None = None) -> list[str]:
    r = c.get(url, headers=headers)
    assert r.status_code == 200, r.text
    return [g["code"] for g in r.json()["games"]]


def test_history_lists_a_persons_games_with_the_filters(client: TestClient) -> None:
    accounts = lobby(client).accounts
    ann, bob = accounts.create("ann", "secret-password"), accounts.create("Bob", "secret-pw")
    assert ann is not None and bob is not None

    def person(seat: int, account: Any) -> SeatRow:
        return SeatRow(seat, "human", None, account.name, "x", account.id)

    bot = SeatRow(1, "bot", "easy")
    stored(client, "H1", "hockey", [person(0, ann), person(1, bob)], "over", [1, 2],
           ended=1000.0)
    stored(client, "H2", "hockey", [person(0, ann), bot], "over", [2, 1])
    stored(client, "P3", "president", [person(0, ann), bot, SeatRow(2, "bot", "hard"),
                                       SeatRow(3, "bot", "easy")], "playing")
    stored(client, "H4", "hockey", [person(0, bob), person(1, ann)], "abandoned")
    stored(client, "H5", "hockey", [person(0, ann), bot], "over", [1, 2], practice=True)
    stored(client, "H6", "hockey", [person(0, ann), SeatRow(1, "human")], "expired")
    stored(client, "H7", "hockey", [SeatRow(0, "human", None, "ann"), bot], "over", [1, 2])

    assert client.get("/api/me/games").json()["error"] == "signed_out"
    sign_in(client, "ann")  # (reading changes nothing: no CSRF header)
    mine = "/api/me/games"
    assert codes(client, mine) == ["H5", "H4", "P3", "H2", "H1"]
    assert codes(client, f"{mine}?result=won") == ["H5", "H1"]
    assert codes(client, f"{mine}?result=lost") == ["H2"]
    assert codes(client, f"{mine}?result=unfinished") == ["P3"]
    assert codes(client, f"{mine}?result=abandoned") == ["H4"]
    assert codes(client, f"{mine}?game=president") == ["P3"]
    assert codes(client, f"{mine}?opponent=BOB") == ["H4", "H1"]
    assert codes(client, f"{mine}?opponent=bob&result=won") == ["H1"]
    page = client.get(f"{mine}?limit=2&offset=1").json()
    assert ([g["code"] for g in page["games"]], page["total"], page["next"]) == (
        ["H4", "P3"], 5, 3)
    assert client.get(f"{mine}?result=tie").json()["error"] == "bad_result"
    h1 = client.get(f"{mine}?opponent=bob&result=won&lang=de").json()["games"][0]
    assert h1 == {"code": "H1", "game": "hockey", "title": "Hockey", "players": 2,
                  "status": "over", "date": 1000.0, "seat": 0, "result": "won", "place": 1,
                  "rated": False, "pace": "rules", "practice": False, "names": ["ann", "Bob"],
                  "opponents": [{"name": "Bob", "bot": False, "account": True}],
                  "table": "/t/H1", "replay": "/r/H1",
                  "sheet": "/api/tables/H1/replay/steps?from=0&limit=1"}
    # anyone's history is public but their practice tables
    guest(client)
    assert codes(client, "/api/accounts/ANN/games") == ["H4", "P3", "H2", "H1"]
    assert codes(client, "/api/accounts/bob/games?result=lost") == ["H1"]
    assert codes(client, "/api/accounts/bob/games?result=abandoned") == ["H4"]
    assert client.get("/api/accounts/nobody/games").status_code == 404
