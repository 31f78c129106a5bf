"""Accounts (docs/server.md, "Accounts and privacy"): sign up, in and out; the CSRF rule;
the rate limits on tries; the session cookie; password change; deletion keeps the games
with the name replaced; a guest's seat joins the account; sessions on a second node.

In-process (Starlette's TestClient); where storage matters on SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy import func, select, update
from starlette.testclient import TestClient

from spieltisch.core.registry import get_spec
from spieltisch.replay import Replay
from spieltisch.server import accounts, guard
from spieltisch.server.account_routes import TRIES_PER_ADDRESS, TRIES_PER_NAME
from spieltisch.server.accounts import DELETED_NAME, SESSION_COOKIE, SESSION_SECONDS, AccountStore
from spieltisch.server.app import create_app
from spieltisch.server.config import ServerConfig
from spieltisch.server.lobby import Lobby
from spieltisch.server.store import SeatRow, Store
from spieltisch.server.table import hash_token

from .helpers import app_client, app_lobby, unique_prefix

PASSWORD = "correct horse"
TABLE = {"game": "president", "players": 4,
         "seats": ["human", "bot:easy", "bot:easy", "bot:easy"]}


_lobby = app_lobby


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'accounts.sqlite3'}"


def _client(url: str, prefix: str | None = None, base_url: str = "http://testserver"
            ) -> Iterator[TestClient]:
    yield from app_client(url, prefix, base_url)


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    """An application on SQLite and on PostgreSQL."""
    yield from _client(db_url)


@pytest.fixture
def lite(sqlite_url: str) -> Iterator[TestClient]:
    """An application on SQLite (for rules that storage does not change)."""
    yield from _client(sqlite_url)


def sign_up(client: TestClient, name: str = "anna", **extra: Any) -> dict[str, Any]:
    r = client.post("/api/account/signup", json={"name": name, "password": PASSWORD, **extra})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def csrf(body: dict[str, Any]) -> dict[str, str]:
    return {"X-CSRF-Token": body["csrf"]}


# -- sign up, in, out --------------------------------------------------------------------

def test_sign_up_in_and_out(client: TestClient) -> None:
    assert client.get("/api/me").json() == {"account": None}
    up = sign_up(client, "Anna", lang="de")
    assert up["account"]["name"] == "Anna" and up["account"]["lang"] == "de"
    me = client.get("/api/me").json()
    assert me["account"] == up["account"] and me["csrf"] == up["csrf"]
    taken = client.post("/api/account/signup", json={"name": "anna", "password": PASSWORD},
                        headers=csrf(up))
    assert taken.status_code == 409 and taken.json()["error"] == "name_taken"
    out = client.post("/api/account/signout", headers=csrf(up))
    assert out.status_code == 200 and out.json() == {"account": None}
    assert SESSION_COOKIE not in client.cookies
    assert client.get("/api/me").json() == {"account": None}
    r = client.post("/api/account/signin", json={"name": "ANNA", "password": PASSWORD})
    assert r.status_code == 200 and r.json()["account"] == up["account"]
    assert r.json()["csrf"] != up["csrf"]  # a new session, a new CSRF token


def test_language_change(lite: TestClient) -> None:
    up = sign_up(lite)
    r = lite.post("/api/account/lang", json={"lang": "nl"}, headers=csrf(up))
    assert r.status_code == 200 and r.json()["account"]["lang"] == "nl"
    assert lite.get("/api/me").json()["account"]["lang"] == "nl"


def test_wrong_name_and_wrong_password_read_the_same(lite: TestClient) -> None:
    sign_up(lite)
    lite.cookies.clear()
    wrong_password = lite.post("/api/account/signin",
                               json={"name": "anna", "password": "not the one"})
    wrong_name = lite.post("/api/account/signin", json={"name": "nobody", "password": PASSWORD})
    assert wrong_password.status_code == wrong_name.status_code == 401
    assert wrong_password.json() == wrong_name.json() == {
        "error": "bad_credentials", "message": "That name and password do not match an account."}
    assert SESSION_COOKIE not in lite.cookies


# -- sessions and cookies ----------------------------------------------------------------

def _cookie_flags(header: str) -> set[str]:
    return {part.strip().split("=")[0].lower() for part in header.split(";")[1:]}


def test_session_cookie_flags(sqlite_url: str) -> None:
    for base, secure in (("http://testserver", False), ("https://testserver", True)):
        for client in _client(sqlite_url, base_url=base):
            r = client.post("/api/account/signup", json={"name": "anna", "password": PASSWORD})
            header = r.headers["set-cookie"]
            assert header.startswith(f"{SESSION_COOKIE}=")
            assert _cookie_flags(header) == {"httponly", "samesite", "path", "max-age"} | (
                {"secure"} if secure else set())
            assert "samesite=lax" in header.lower() and "path=/;" in header.lower() + ";"
            assert f"max-age={SESSION_SECONDS}" in header.lower()
            token = client.cookies[SESSION_COOKIE]
            assert token not in r.text  # the token travels in its cookie only
            out = client.post("/api/account/signout", headers=csrf(r.json()))
            assert out.headers["set-cookie"].startswith(f'{SESSION_COOKIE}=""; ')


def _token(r: Any) -> str:
    """The session token a response's cookie sets."""
    token: str = r.headers["set-cookie"].split(";")[0].split("=", 1)[1]
    return token


def test_a_new_token_at_every_sign_in(lite: TestClient) -> None:
    sign_up(lite)
    planted = "planted-by-somebody-else"  # a fixation attempt: the cookie is replaced
    lite.cookies.clear()
    first = lite.post("/api/account/signin", json={"name": "anna", "password": PASSWORD},
                      headers={"cookie": f"{SESSION_COOKIE}={planted}"})
    token1 = _token(first)
    assert first.status_code == 200 and token1 != planted
    second = lite.post("/api/account/signin", json={"name": "anna", "password": PASSWORD},
                       headers=csrf(first.json()))
    token2 = _token(second)
    assert second.status_code == 200 and token2 not in (token1, planted)
    assert lite.cookies[SESSION_COOKIE] == token2
    accounts = _lobby(lite).accounts
    assert accounts.session(token1) is None and accounts.session(token2) is not None


def test_an_expired_session_is_a_guest(client: TestClient) -> None:
    sign_up(client)
    accounts = _lobby(client).accounts
    with accounts.engine.begin() as conn:
        conn.execute(update(accounts.t.sessions).values(expires=time.time() - 1))
    assert client.get("/api/me").json() == {"account": None}
    # no token needed: the request is a guest's
    assert client.post("/api/tables", json=TABLE).status_code == 201
    client.cookies.set(SESSION_COOKIE, "no-such-session")
    assert client.post("/api/tables", json=TABLE).status_code == 201
    # a new session deletes the expired ones
    client.post("/api/account/signin", json={"name": "anna", "password": PASSWORD})
    with accounts.engine.connect() as conn:
        expires = conn.execute(select(accounts.t.sessions.c.expires)).scalars().all()
    assert len(expires) == 1 and expires[0] > time.time()


def test_sessions_hold_on_a_second_node(pg_url: str) -> None:
    prefix = unique_prefix()
    for one in _client(pg_url, prefix):
        two = create_app(ServerConfig(db_url=pg_url, table_prefix=prefix))
        with TestClient(two) as other:
            up = sign_up(one)
            other.cookies.set(SESSION_COOKIE, one.cookies[SESSION_COOKIE])
            assert other.get("/api/me").json() == {"account": up["account"],
                                                   "csrf": up["csrf"]}
            assert other.post("/api/tables", json=TABLE).status_code == 403
            assert other.post("/api/tables", json=TABLE, headers=csrf(up)).status_code == 201
            assert one.post("/api/account/signout", headers=csrf(up)).status_code == 200
            assert other.get("/api/me").json() == {"account": None}


# -- CSRF --------------------------------------------------------------------------------

def test_csrf(lite: TestClient) -> None:
    up = sign_up(lite)
    for headers in ({}, {"X-CSRF-Token": "wrong"}, {"X-CSRF-Token": ""}):
        r = lite.post("/api/tables", json=TABLE, headers=headers)
        assert r.status_code == 403
        assert r.json() == {"error": "csrf", "message": "This request lacks the page's "
                            "security token: reload the page and try again."}
        r = lite.post("/api/account/signout", headers=headers)
        assert r.status_code == 403 and lite.get("/api/me").json()["account"] is not None
    assert _lobby(lite).tables == {}  # nothing refused was done
    # every route that changes something, the lobby's and the chat's too
    for path in ("/api/quick-join", "/api/waiting", "/api/waiting/poll",
                 "/api/waiting/leave", "/api/tables/ABCD/join",
                 "/api/tables/ABCD/chat/1/report", "/api/account/signin",
                 "/api/account/signup", "/api/account/password", "/api/account/lang",
                 "/api/account/delete"):
        r = lite.post(path, json={"game": "hockey", "name": "anna", "password": PASSWORD})
        assert (r.status_code, r.json()["error"]) == (403, "csrf"), path
    de = lite.post("/api/tables?lang=de", json=TABLE)
    assert de.status_code == 403 and de.json()["message"] != r.json()["message"]
    made = lite.post("/api/tables", json=TABLE, headers=csrf(up))
    assert made.status_code == 201
    join = lite.post(f"/api/tables/{made.json()['code']}/join", json={}, headers=csrf(up))
    assert join.status_code == 201
    assert lite.get("/api/me").json()["account"]["name"] == "anna"  # GET needs no token
    lite.cookies.clear()  # a guest sends none
    assert lite.post("/api/tables", json=TABLE).status_code == 201


# -- rate limits -------------------------------------------------------------------------

@pytest.fixture
def still(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rate limits' clock stands still: buckets do not refill during a test (exact
    counts however long a hash takes)."""
    monkeypatch.setattr(guard, "time", SimpleNamespace(monotonic=lambda: 1000.0))


@pytest.mark.usefixtures("still")
def test_tries_per_name(lite: TestClient) -> None:
    sign_up(lite)
    lite.cookies.clear()
    for _ in range(TRIES_PER_NAME - 1):  # the sign-up was the first try of "anna"
        r = lite.post("/api/account/signin", json={"name": "anna", "password": "wrong one"})
        assert r.status_code == 401
    for name in ("anna", "ANNA"):  # the right password too, past the limit
        r = lite.post("/api/account/signin", json={"name": name, "password": PASSWORD})
        assert r.status_code == 429 and r.json()["error"] == "too_many_tries"
    # an unknown name reads the same past its limit
    for _ in range(TRIES_PER_NAME):
        lite.post("/api/account/signin", json={"name": "nobody", "password": PASSWORD})
    unknown = lite.post("/api/account/signin", json={"name": "nobody", "password": PASSWORD})
    assert unknown.status_code == 429 and unknown.json() == r.json()
    de = lite.post("/api/account/signin?lang=de", json={"name": "anna", "password": PASSWORD})
    assert de.status_code == 429 and de.json()["message"] != r.json()["message"]
    other = lite.post("/api/account/signin", json={"name": "bert", "password": PASSWORD})
    assert other.status_code == 401  # another name has its own tries


@pytest.mark.usefixtures("still")
def test_tries_per_address(lite: TestClient) -> None:
    answers = []
    for i in range(TRIES_PER_ADDRESS + 1):
        r = lite.post("/api/account/signin", json={"name": f"name{i}", "password": PASSWORD})
        answers.append(r.status_code)
    assert answers == [401] * TRIES_PER_ADDRESS + [429]
    r = lite.post("/api/account/signup", json={"name": "fresh", "password": PASSWORD})
    assert r.status_code == 429  # signing up is a try too


# -- password change and deletion --------------------------------------------------------

def test_password_change_ends_the_other_sessions(client: TestClient) -> None:
    up = sign_up(client)
    elsewhere = TestClient(client.app)  # a second browser: another session
    there = elsewhere.post("/api/account/signin", json={"name": "anna", "password": PASSWORD})
    assert there.status_code == 200
    wrong = client.post("/api/account/password", json={"old": "not the one", "new": "new pass1"},
                        headers=csrf(up))
    assert wrong.status_code == 403 and wrong.json()["error"] == "wrong_password"
    assert elsewhere.get("/api/me").json()["account"] is not None
    r = client.post("/api/account/password", json={"old": PASSWORD, "new": "new pass1"},
                    headers=csrf(up))
    assert r.status_code == 200
    assert elsewhere.get("/api/me").json() == {"account": None}
    assert client.get("/api/me").json()["account"]["name"] == "anna"  # this one stays
    accounts = _lobby(client).accounts
    assert accounts.verify("anna", PASSWORD) is None
    assert accounts.verify("anna", "new pass1") is not None


def _finished_game(lobby: Lobby, code: str, account_id: int, name: str) -> int:
    """A finished president game in the store, seat 0 the account's; its action count."""
    game = get_spec("president").configure(4, {})
    state = game.new_state(seed=7)
    rng = random.Random(7)
    played = []
    while not state.is_over():
        seat = state.may_act()[0]
        action = rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
        played.append((seat, game.action_to_json(action)))
    store = lobby.store
    seats = [SeatRow(0, "human", None, name, hash_token("t0"), account_id)] + [
        SeatRow(i, "bot", "bot:easy") for i in (1, 2, 3)]
    tid = store.create_table(code, "president", 4, {}, 7, seats)
    store.append_actions([(tid, i, s, a, None) for i, (s, a) in enumerate(played)])
    store.set_status(tid, "over", state.result().to_json())
    return len(played)


def test_deletion_keeps_the_games_with_the_name_replaced(client: TestClient) -> None:
    up = sign_up(client)
    lobby = _lobby(client)
    me = up["account"]["id"]
    actions = _finished_game(lobby, "DELME1", me, "anna")
    before = client.get("/api/tables/DELME1").json()  # read (and cached) before
    assert before["names"][0] == "anna" and before["status"] == "over"
    wrong = client.post("/api/account/delete", json={"password": "not the one"},
                        headers=csrf(up))
    assert wrong.status_code == 403 and client.get("/api/me").json()["account"] is not None
    r = client.post("/api/account/delete", json={"password": PASSWORD}, headers=csrf(up))
    assert r.status_code == 200 and r.json() == {"account": None, "deleted": True}
    assert client.get("/api/me").json() == {"account": None}
    # the person's rows are gone from every table that has an account_id
    md = lobby.store.metadata
    with lobby.store.engine.connect() as conn:
        for table in md.sorted_tables:
            if "account_id" in table.c:
                n = conn.execute(select(func.count()).select_from(table).where(
                    table.c.account_id == me)).scalar()
                assert n == 0, table.name
        accounts = lobby.accounts.t.accounts
        assert conn.execute(select(func.count()).select_from(accounts)).scalar() == 0
        seat = conn.execute(select(lobby.store.seats).where(
            lobby.store.seats.c.seat == 0)).one()
    assert seat.name == DELETED_NAME and seat.account_id is None
    # the game reads on, the name replaced (translated where shown), its replay intact
    after = client.get("/api/tables/DELME1").json()
    assert after["names"][0] == "(deleted player)" and after["status"] == "over"
    assert client.get("/api/tables/DELME1?lang=de").json()["names"][0] != "(deleted player)"
    replay = client.get("/api/tables/DELME1/replay")
    assert replay.status_code == 200
    rep = Replay.from_json(replay.json())
    assert len(rep.actions) == actions and rep.verify().is_over()
    assert "anna" not in replay.text
    gone = client.post("/api/account/signin", json={"name": "anna", "password": PASSWORD})
    assert gone.status_code == 401
    assert sign_up(client, "anna")["account"]["name"] == "anna"  # the name is free again


# -- a guest's seat ----------------------------------------------------------------------

def test_a_guest_who_signs_up_keeps_the_seat(client: TestClient) -> None:
    made = client.post("/api/tables", json={**TABLE, "seats": ["human", "human", "bot:easy",
                                                               "bot:easy"]})
    code = made.json()["code"]
    joined = client.post(f"/api/tables/{code}/join", json={"name": "guest"}).json()
    kept = [{"code": code.lower(), "token": joined["token"]},
            {"code": code, "token": "not a seat's token"},
            {"code": "NOSUCH", "token": joined["token"]}, "junk", {"code": 5}]
    up = sign_up(client, "anna", seats=kept)
    assert up["seats"] == [code]
    info = client.get(f"/api/tables/{code}").json()
    assert info["seats"][0]["name"] == "anna" and info["seats"][1]["name"] == ""
    lobby = _lobby(client)
    assert lobby.tables[code].row.seats[0].account_id == up["account"]["id"]
    with lobby.store.engine.connect() as conn:
        ids = conn.execute(select(lobby.store.seats.c.account_id).order_by(
            lobby.store.seats.c.seat)).scalars().all()
    assert ids == [up["account"]["id"], None, None, None]
    # the seat's token still plays it: signing up changed who it is, not how it is reached
    assert lobby.tables[code].row.seats[0].token_hash == hash_token(joined["token"])
    # an account's seat is nobody else's to claim, token or not
    other = TestClient(client.app)
    assert sign_up(other, "bert", seats=kept[:1])["seats"] == []
    assert client.get(f"/api/tables/{code}").json()["seats"][0]["name"] == "anna"


def raw_post(client: TestClient, path: str, body: Any,
             headers: dict[str, str] | None = None) -> Any:
    """A POST of ``body`` as JSON with every non-ASCII character escaped (a lone
    surrogate too, which a JSON text may carry and httpx's ``json=`` refuses)."""
    return client.post(path, content=json.dumps(body),
                       headers={"content-type": "application/json", **(headers or {})})


def test_bad_input_is_refused_and_changes_nothing(client: TestClient) -> None:
    """Names whose compared form is too long, passwords no hash takes (a lone surrogate),
    seats with codes the database would choke on: a 400 or left out, never a 500."""
    for body in ({"name": "\ufdfa" * 10, "password": PASSWORD},  # NFKC: 18 letters each
                 {"name": "anna", "password": "\ud800" * 8},
                 {"name": "an\x00na", "password": PASSWORD},
                 {"name": "anna", "password": "short"}):
        r = raw_post(client, "/api/account/signup", body)
        assert r.status_code == 400 and r.json()["error"] in ("bad_name", "bad_password",
                                                            "malformed")
    accounts = _lobby(client).accounts
    with accounts.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(accounts.t.accounts)
                            ).scalar() == 0
    seats = [{"code": "AB\x00CD", "token": "x"}, {"code": "ABCDEF", "token": 5},
             {"code": "", "token": ""}]
    up = raw_post(client, "/api/account/signup",
                  {"name": "anna", "password": PASSWORD, "seats": seats}).json()
    assert up["seats"] == []
    r = raw_post(client, "/api/account/password", {"old": PASSWORD, "new": "\udc00" * 9},
                 csrf(up))
    assert r.status_code == 400 and accounts.verify("anna", PASSWORD) is not None


def test_a_server_hashes_passwords_with_rfc_9106s_argon2id(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """The suite hashes with argon2's cheapest profile (tests/conftest.py); a server uses
    argon2-cffi's default, RFC 9106's low-memory setting, and verifies what it made."""
    monkeypatch.setattr(accounts, "HASHING", None)
    store = Store(f"sqlite:///{tmp_path / 'hashing.sqlite3'}", unique_prefix())
    try:
        people = AccountStore(store.engine, store.account_tables)
        made = people.create("Hashed", PASSWORD)
        assert made is not None
        with store.engine.connect() as conn:
            stored = conn.execute(select(store.account_tables.accounts.c.password_hash)
                                  ).scalar_one()
        assert stored.startswith("$argon2id$v=19$m=65536,t=3,p=4$")
        assert people.verify("hashed", PASSWORD) == made
        assert people.verify("hashed", "wrong horse") is None
        assert people.verify("nobody", PASSWORD) is None  # the dummy hash: same profile
        assert people._dummy is not None and people._dummy.startswith("$argon2id$v=19$m=65536")
    finally:
        store.drop_all()
        store.close()
