"""The table chat (issue 39, item 4; ``server/chat.py``), in process: quick phrases in each
reader's language, free text as written, the limits and refusals, the history a new
connection gets (also after a restart), and reports."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select
from starlette.testclient import TestClient
from starlette.testclient import WebSocketTestSession as Socket

from spieltisch.server import chat
from spieltisch.server.app import create_app
from spieltisch.server.config import ServerConfig
from spieltisch.server.texts import server_tr

from .helpers import unique_prefix


def until(ws: Socket, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (the table's own messages in between skipped)."""
    while True:
        m: dict[str, Any] = ws.receive_json()
        if m["type"] == kind:
            return m


def table(client: TestClient) -> tuple[str, str, str]:
    """A President table of Anna, Ben and two bots: its code and the two seat tokens."""
    r = client.post("/api/tables", json={
        "game": "president", "players": 4,
        "seats": ["human", "human", "bot:easy", "bot:easy"]})
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    tokens = []
    for name in ("Anna", "Ben"):
        r = client.post(f"/api/tables/{code}/join", json={"name": name})
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    return code, tokens[0], tokens[1]


def hello(ws: Socket, token: str | None) -> dict[str, Any]:
    """Say hello; the chat's history follows the welcome."""
    ws.send_json({"type": "hello", "token": token})
    until(ws, "welcome")
    return until(ws, "chat_history")


@pytest.fixture
def config(db_url: str) -> ServerConfig:
    return ServerConfig(db_url=db_url, table_prefix=unique_prefix(), waiting_expiry=0)


@pytest.fixture
def client(config: ServerConfig) -> Iterator[TestClient]:
    with TestClient(create_app(config)) as c:
        store = c.app.state.lobby.store  # type: ignore[attr-defined]
        yield c
    store.drop_all()
    store.close()


def test_phrases_in_each_readers_language_text_as_written(client: TestClient) -> None:
    code, anna, ben = table(client)
    de = server_tr("de")
    with client.websocket_connect(f"/ws/{code}?lang=en") as a, \
            client.websocket_connect(f"/ws/{code}?lang=de") as b:
        first = hello(a, anna)
        assert first["messages"] == []
        assert first["phrases"] == {k: v for k, v in chat.PHRASES.items()}
        assert hello(b, ben)["phrases"]["good_luck"] == de.gettext("Good luck!") \
            != "Good luck!"
        a.send_json({"type": "chat", "phrase": "good_luck"})
        mine, theirs = until(a, "chat"), until(b, "chat")
        assert {k: mine[k] for k in ("id", "seat", "name", "phrase", "text")} == {
            "id": 1, "seat": 0, "name": "Anna", "phrase": "good_luck", "text": "Good luck!"}
        assert {k: theirs[k] for k in ("id", "seat", "name", "phrase", "text")} == {
            "id": 1, "seat": 0, "name": "Anna", "phrase": "good_luck",
            "text": de.gettext("Good luck!")}
        b.send_json({"type": "chat", "text": "  Hallo zusammen 👋  "})
        for ws in (a, b):
            got = until(ws, "chat")
            assert (got["id"], got["seat"], got["name"], got["phrase"], got["text"]) == (
                2, 1, "Ben", None, "Hallo zusammen 👋")
        # a spectator reads along but may not write
        with client.websocket_connect(f"/ws/{code}?lang=de") as s:
            seen = hello(s, None)
            assert [(m["id"], m["text"]) for m in seen["messages"]] == [
                (1, de.gettext("Good luck!")), (2, "Hallo zusammen 👋")]
            s.send_json({"type": "chat", "phrase": "oops"})
            refused = until(s, "error")
            assert refused["code"] == "not_a_seat"
            assert refused["message"] == de.gettext(
                "Spectators read the chat but do not write in it.")


def test_refusals_and_the_rate_limit(client: TestClient, monkeypatch: pytest.MonkeyPatch
                                     ) -> None:
    monkeypatch.setattr(chat, "RATE_WINDOW", 3600.0)  # no message gets old in this test
    code, anna, ben = table(client)
    de = server_tr("de")
    with client.websocket_connect(f"/ws/{code}?lang=de") as a, \
            client.websocket_connect(f"/ws/{code}?lang=en") as b:
        hello(a, anna)
        hello(b, ben)
        bad: list[tuple[dict[str, Any], str]] = [
            ({"text": "x" * 201}, "bad_chat"),
            ({"text": "   "}, "bad_chat"),
            ({"text": "bell\u0007"}, "bad_chat"),
            ({"text": "line\nbreak"}, "bad_chat"),
            ({"text": "\u202eevil"}, "bad_chat"),
            ({"text": 7}, "bad_chat"),
            ({}, "bad_chat"),
            ({"phrase": "good_luck", "text": "both"}, "bad_chat"),
            ({"phrase": "insult"}, "unknown_phrase"),
        ]
        for body, code_ in bad:
            a.send_json({"type": "chat", **body})
            refused = until(a, "error")
            assert refused["code"] == code_, body
        assert refused["message"] == de.format("There is no quick phrase {phrase}.",
                                               phrase="'insult'")
        # the refusals counted for nothing: five messages pass (200 characters is the
        # most), the sixth is refused, to its sender alone, in the sender's language
        texts = ["y" * 200, "2", "3", "4", "5"]
        for text in texts:
            a.send_json({"type": "chat", "text": text})
        got = [until(b, "chat") for _ in texts]
        assert [(m["id"], m["text"]) for m in got] == list(enumerate(texts, start=1))
        a.send_json({"type": "chat", "phrase": "sorry"})
        limited = until(a, "error")
        assert limited["code"] == "chat_rate_limited"
        assert limited["message"] == de.format(
            "At most {n} chat messages per {s} seconds: wait a moment.", n=5, s="3600")
        # the limit is the seat's: a second connection of Anna's is refused too
        with client.websocket_connect(f"/ws/{code}?lang=de") as again:
            hello(again, anna)
            again.send_json({"type": "chat", "phrase": "sorry"})
            assert until(again, "error")["code"] == "chat_rate_limited"
        # Ben still writes, and his is message 6 (none of Anna's refused ones took an id)
        b.send_json({"type": "chat", "phrase": "thanks"})
        assert [until(ws, "chat")["id"] for ws in (a, b)] == [6, 6]


def test_history_on_reconnect_and_after_a_restart(config: ServerConfig,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chat, "RATE_COUNT", 1000)
    de = server_tr("de")
    with TestClient(create_app(config)) as client:
        lobby = client.app.state.lobby  # type: ignore[attr-defined]
        code, anna, _ = table(client)
        with client.websocket_connect(f"/ws/{code}") as a:
            hello(a, anna)
            for i in range(chat.HISTORY + 4):
                if i % 2:
                    a.send_json({"type": "chat", "text": f"m{i + 1}"})
                else:
                    a.send_json({"type": "chat", "phrase": "well_played"})
                assert until(a, "chat")["id"] == i + 1
            # a language switch sends the history again, its phrases translated
            a.send_json({"type": "lang", "lang": "de"})
            again = until(a, "chat_history")
            assert again["messages"][-1]["text"] == "m54"
            assert again["messages"][-2]["text"] == de.gettext("Well played!")
        with client.websocket_connect(f"/ws/{code}?lang=en") as a:  # a reconnect
            history = hello(a, anna)["messages"]
            assert [m["id"] for m in history] == list(range(5, chat.HISTORY + 5))
            assert (history[0]["text"], history[1]["text"]) == ("Well played!", "m6")
        client.portal.call(chat.chat_of(lobby.tables[code]).flush)  # type: ignore[union-attr]
    # the server restarts: the stored messages are the history, the ids go on
    with TestClient(create_app(config)) as client:
        lobby = client.app.state.lobby  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/{code}?lang=de") as a:
            history = hello(a, anna)["messages"]
            assert [m["id"] for m in history] == list(range(5, chat.HISTORY + 5))
            assert history[0]["text"] == de.gettext("Well played!")
            a.send_json({"type": "chat", "phrase": "good_game"})
            assert until(a, "chat")["id"] == chat.HISTORY + 5
        store = lobby.store
        client.portal.call(chat.chat_of(lobby.tables[code]).flush)  # type: ignore[union-attr]
        c = store.chat_tables.chat
        with store.engine.connect() as conn:
            rows = conn.execute(select(c.c.id, c.c.seat, c.c.name, c.c.phrase, c.c.text)
                                .order_by(c.c.id)).all()
        assert len(rows) == chat.HISTORY + 5
        assert tuple(rows[0]) == (1, 0, "Anna", "well_played", None)
        assert tuple(rows[1]) == (2, 0, "Anna", None, "m2")
    store.drop_all()
    store.close()


def test_a_report_is_stored_once(client: TestClient) -> None:
    code, anna, _ = table(client)
    with client.websocket_connect(f"/ws/{code}") as a:
        hello(a, anna)
        a.send_json({"type": "chat", "text": "you all play badly"})
        assert until(a, "chat")["id"] == 1
    url = f"/api/tables/{code}/chat/1/report"
    r = client.post(url, json={"reason": "  rude  "})
    assert (r.status_code, r.json()) == (201, {"reported": 1})
    again = client.post(url, json={})
    assert (again.status_code, again.json()["error"]) == (409, "already_reported")
    for path, error in ((f"/api/tables/{code}/chat/2/report", "no_message"),
                        (f"/api/tables/{code}/chat/x/report", "no_message"),
                        ("/api/tables/NOSUCH/chat/1/report", "no_table")):
        r = client.post(path, json={})
        assert (r.status_code, r.json()["error"]) == (404, error), path
    long = client.post(url, json={"reason": "z" * 201})
    assert (long.status_code, long.json()["error"]) == (400, "bad_reason")
    # a signed-in person reports as their account (with the session's CSRF token)
    r = client.post("/api/account/signup", json={"name": "Mia", "password": "a long secret"})
    assert r.status_code == 201, r.text
    account, csrf = r.json()["account"]["id"], r.json()["csrf"]
    assert client.post(url, json={}).status_code == 403  # no token: refused (csrf)
    r = client.post(url, json={"reason": "spam"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 201, r.text
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    client.portal.call(chat.chat_of(lobby.tables[code]).flush)  # type: ignore[union-attr]
    reports = chat.list_reports(lobby.store.engine, lobby.store.prefix)
    assert [(r["code"], r["message_id"], r["reporter"], r["reason"], r["name"], r["text"])
            for r in reports] == [
        (code, 1, f"account:{account}", "spam", "Anna", "you all play badly"),
        (code, 1, "address:testclient", "rude", "Anna", "you all play badly")]


def test_deleting_the_account_deletes_its_lines_from_its_guest_days_on(
        client: TestClient) -> None:
    """Anna chats as a guest, signs up (her seat joins the account), chats again, then
    deletes the account: none of her seat's lines stays, stored or in the table's memory
    (a new connection's history); Ben's line stays."""
    code, anna, ben = table(client)
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{code}") as a, \
            client.websocket_connect(f"/ws/{code}") as b:
        hello(a, anna)
        hello(b, ben)
        a.send_json({"type": "chat", "text": "my real name is Anna Smith"})
        assert until(a, "chat")["id"] == 1
        b.send_json({"type": "chat", "text": "hi"})
        assert until(a, "chat")["id"] == 2
        r = client.post("/api/account/signup", json={
            "name": "anna", "password": "a long secret", "seats": [
                {"code": code, "token": anna}]})
        assert r.status_code == 201 and r.json()["seats"] == [code]
        a.send_json({"type": "chat", "phrase": "oops"})
        assert until(a, "chat")["id"] == 3
        r = client.post("/api/account/delete", json={"password": "a long secret"},
                        headers={"X-CSRF-Token": r.json()["csrf"]})
        assert r.status_code == 200, r.text
    with client.websocket_connect(f"/ws/{code}") as s:
        assert [(m["id"], m["name"], m["text"]) for m in hello(s, None)["messages"]] == [
            (2, "Ben", "hi")]
    client.portal.call(chat.chat_of(lobby.tables[code]).flush)
    c = lobby.store.chat_tables.chat
    with lobby.store.engine.connect() as conn:
        rows = conn.execute(select(c.c.id, c.c.seat, c.c.name, c.c.text)).all()
    assert [tuple(r) for r in rows] == [(2, 1, "Ben", "hi")]


def test_a_failed_write_is_logged_without_the_words(client: TestClient,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    """The message is still delivered; the log has the error's first line, never the
    parameters (the words, the name) a database error lists after it."""
    def failing(*_: Any) -> None:
        raise RuntimeError("(db) the write failed\n[parameters: ('my secret words',)]")

    monkeypatch.setattr(chat, "store_message", failing)
    code, anna, _ = table(client)
    with client.websocket_connect(f"/ws/{code}") as a:
        hello(a, anna)
        a.send_json({"type": "chat", "text": "my secret words"})
        assert until(a, "chat")["text"] == "my secret words"
        lobby = client.app.state.lobby  # type: ignore[attr-defined]
        client.portal.call(chat.chat_of(lobby.tables[code]).flush)
    failed = [r.getMessage() for r in caplog.records if "chat message" in r.getMessage()]
    assert failed == [f"table {code}: storing a chat message failed: (db) the write failed"]
