"""Server hardening (issue 21): bad numbers, seeds chosen by creators, body limits, input
that used to give a 500, cached replays, rate limits, the Origin check, trusted proxies
and private files. Faults of the database itself are in ``test_db_faults.py``."""

from __future__ import annotations

import asyncio
import json
import math
import os
import socket
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from spieltisch import new_game
from spieltisch.cli.main import app as cli
from spieltisch.core import game_names, get_spec
from spieltisch.core.game import ConfigError
from spieltisch.replay import Replay
from spieltisch.server import ServerConfig
from spieltisch.server.config import default_db_url
from spieltisch.server.store import Store

from .helpers import TIMEOUT, Client, ServerThread, create_table, join, unique_prefix

#: A client behind the test's trusted "proxy" (the loopback address).
STRANGER = {"x-forwarded-for": "203.0.113.9"}


def config(tmp: Path, **changes: Any) -> ServerConfig:
    """A quick server on its own SQLite file; ``changes`` override the defaults."""
    settings: dict[str, Any] = {"db_url": f"sqlite:///{tmp / 'hardening.sqlite3'}",
                                "table_prefix": unique_prefix(), "grace_seconds": 1000}
    return ServerConfig(**{**settings, **changes})


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """One server for the tests that need no limits of their own; the loopback address
    is its trusted proxy, so ``STRANGER`` requests come from another client."""
    cfg = config(tmp_path_factory.mktemp("db"), forwarded_allow_ips=["127.0.0.1"],
                 max_tables_per_client=1000, http_requests_per_second=0, joins_per_minute=0)
    with ServerThread(cfg) as s:
        yield s


def create(base: str, **body: Any) -> dict[str, Any]:
    """Create a table from ``body``; its status."""
    r = httpx.post(base + "/api/tables", json=body, timeout=TIMEOUT)
    assert r.status_code == 201, r.text
    return r.json()


def post_raw(server: ServerThread, path: str, body: bytes | str,
             **headers: str) -> httpx.Response:
    return httpx.post(server.base + path, content=body, timeout=TIMEOUT,
                      headers={"content-type": "application/json", **headers})


# -- 1. NaN and infinities ----------------------------------------------------------------------
FLOAT_OPTIONS = [(name, o.name) for name in game_names()
                 for o in get_spec(name).options if o.kind is float]


def test_the_games_have_float_options() -> None:
    assert {g for g, _ in FLOAT_OPTIONS} == {"hoax", "hood_politix"}


@pytest.mark.parametrize(("game", "option"), FLOAT_OPTIONS)
@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, "nan", "inf", "-inf", "1e999"])
def test_every_float_option_refuses_nan_and_infinities(game: str, option: str,
                                                       value: Any) -> None:
    with pytest.raises(ConfigError, match=f"option '{option}' of {game} must be a finite "
                                          "number"):
        get_spec(game).configure(None, {option: value})


def test_the_command_line_refuses_a_nan_option() -> None:
    result = CliRunner().invoke(cli, ["simulate", "hoax", "-n", "1", "-o",
                                      "reaction_seconds=nan"])
    assert result.exit_code != 0
    assert "option 'reaction_seconds' of hoax must be a finite number" in result.output


def test_nan_and_infinity_in_a_body_are_refused(server: ServerThread) -> None:
    before = httpx.get(server.base + "/api/tables", timeout=TIMEOUT).json()
    for raw in ['{"game": "hoax", "options": {"reaction_seconds": NaN}}',
                '{"game": "hoax", "options": {"reaction_seconds": Infinity}}',
                '{"game": "hoax", "seed": -Infinity}']:
        r = post_raw(server, "/api/tables", raw)
        assert (r.status_code, r.json()["error"]) == (400, "malformed"), raw
    # 1e999 is valid JSON for an infinite number: the option check refuses it
    r = post_raw(server, "/api/tables", '{"game": "hood_politix", "players": 4, '
                                        '"options": {"move_seconds": 1e999}}')
    assert r.status_code == 400 and r.json() == {
        "error": "bad_request",
        "message": "option 'move_seconds' of hood_politix must be a finite number, not inf"}
    after = httpx.get(server.base + "/api/tables", timeout=TIMEOUT)
    assert after.status_code == 200 and len(after.json()) == len(before)


# -- 2. seeds, decks and positions only for private practice tables ----------------------------
@pytest.mark.parametrize("game", sorted(game_names()))
def test_a_table_with_a_chosen_seed_is_private(server: ServerThread, game: str) -> None:
    """Whoever chooses the seed knows every hidden card: nobody else may sit down."""
    n = get_spec(game).default_players
    table = create_table(server.base, game, ["human"] * n, seed=4242)
    code = table["code"]
    assert table["practice"] is True
    status = httpx.get(f"{server.base}/api/tables/{code}", timeout=TIMEOUT).json()
    listed = [t for t in httpx.get(server.base + "/api/tables", timeout=TIMEOUT).json()
              if t["code"] == code]
    assert status["practice"] is True and [t["practice"] for t in listed] == [True]
    r = httpx.post(f"{server.base}/api/tables/{code}/join", json={"name": "eve"},
                   headers=STRANGER, timeout=TIMEOUT)
    assert r.status_code == 403 and r.json()["error"] == "private"
    assert join(server.base, code, "me")["seat"] == 0  # the creator may


def test_a_table_without_a_chosen_seed_is_open_to_strangers(server: ServerThread) -> None:
    table = create_table(server.base, "hockey", ["human", "human"])
    assert table["practice"] is False
    r = httpx.post(f"{server.base}/api/tables/{table['code']}/join", json={"name": "ann"},
                   headers=STRANGER, timeout=TIMEOUT)
    assert r.status_code == 201 and r.json()["seat"] == 0
    # asking for a practice table without a seed makes it private all the same
    private = create(server.base, game="hockey", seats=["human", "bot:easy"], practice=True)
    r = httpx.post(f"{server.base}/api/tables/{private['code']}/join", json={},
                   headers=STRANGER, timeout=TIMEOUT)
    assert private["practice"] is True and r.status_code == 403


def test_a_practice_table_from_a_position_plays_on_from_it(server: ServerThread) -> None:
    state = new_game("hockey", seed=7)
    for _ in range(6):
        state.apply(state.to_act()[0], state.legal_actions(state.to_act()[0])[0])
    position = state.position()
    r = httpx.post(server.base + "/api/tables", json={
        "position": position, "seats": ["bot:easy", "bot:easy"]}, timeout=TIMEOUT)
    assert r.status_code == 201, r.text
    table = r.json()
    assert (table["game"], table["players"], table["practice"]) == ("hockey", 2, True)

    async def finished() -> dict[str, Any]:
        while True:
            status = httpx.get(f"{server.base}/api/tables/{table['code']}",
                               timeout=TIMEOUT).json()
            if status["status"] == "over":
                return status
            await asyncio.sleep(0.05)

    status = asyncio.run(asyncio.wait_for(finished(), TIMEOUT))
    replay = httpx.get(f"{server.base}/api/tables/{table['code']}/replay",
                       timeout=TIMEOUT).json()
    assert replay["position"] == position  # the game started there, not from a deal
    rep = Replay.from_json(replay)
    assert rep.verify().result().to_json() == status["result"]


def test_a_practice_table_deals_a_stacked_deck(server: ServerThread) -> None:
    game = get_spec("president").configure(4)
    deck = list(reversed(game.card_codes))  # every card, in an order the player chose
    # the seed chooses the dealer: the hands are the deck's, one of them seat 0's
    dealt = game.new_state(seed=1, deck=deck)
    hands = [dealt.view(seat)["hand"] for seat in range(4)]
    other = game.new_state(seed=1).view(0)["hand"]
    table = create(server.base, game="president", players=4,
                   seats=["human"] + ["bot:easy"] * 3, deck=deck)
    assert table["practice"] is True
    token = join(server.base, table["code"], "me")["token"]

    async def hand() -> list[str]:
        me = await Client.open(server.ws_base, table["code"], token)
        welcome = await me.until(lambda m: m["type"] in ("welcome", "start") and "view" in m)
        await me.close()
        return welcome["view"]["hand"]

    mine = asyncio.run(hand())
    assert mine in hands and mine not in [other]


@pytest.mark.parametrize(("body", "reason"), [
    ({"position": {"version": 1, "game": "hockey", "players": 2}},
     "The position cannot be used: position.state is missing"),
    ({"position": "not a position"}, "The position cannot be used"),
    ({"game": "president", "deck": ["3C", "ZZ"]}, "The stacked deck cannot be used: "),
    ({"game": "president", "deck": [1, 2]}, "'deck' must be a list of card codes"),
    ({"game": "president", "practice": "yes"}, "'practice' must be true or false."),
])
def test_bad_practice_setups_are_refused(server: ServerThread, body: dict[str, Any],
                                         reason: str) -> None:
    r = httpx.post(server.base + "/api/tables", json=body, timeout=TIMEOUT)
    assert r.status_code == 400 and r.json()["message"].startswith(reason), r.text


def test_a_position_of_a_finished_game_is_refused(server: ServerThread) -> None:
    state = new_game("hockey", seed=3)
    while not state.is_over():
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    r = httpx.post(server.base + "/api/tables", json={"position": state.position()},
                   timeout=TIMEOUT)
    assert r.status_code == 400 and r.json() == {
        "error": "bad_position", "message": "The position cannot be used: the game is over"}


# -- 3. bodies are read up to the limit, and limits count bytes ---------------------------------
def _chunked_post(port: int, path: str, chunks: int, chunk: bytes) -> bytes:
    """POST ``chunks`` chunks without ever ending the body; the first bytes of the answer
    (empty if the server keeps waiting for the rest)."""
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     "Content-Type: application/json\r\n"
                     "Transfer-Encoding: chunked\r\n\r\n".encode())
        try:
            for _ in range(chunks):
                sock.sendall(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
        except OSError:  # the server answered and closed: what the test wants
            pass
        sock.settimeout(10)
        try:
            return sock.recv(200)
        except TimeoutError:
            return b""


@pytest.mark.parametrize(("path", "chunks"), [("/api/tables", 8),
                                              ("/api/tables/ABCDEF/join", 8),
                                              ("/api/games/hockey/describe", 24)])
def test_a_chunked_body_over_the_limit_is_refused_before_it_ends(server: ServerThread,
                                                                 path: str,
                                                                 chunks: int) -> None:
    answer = _chunked_post(server.port, path, chunks, b" " * 4096)
    assert answer.startswith(b"HTTP/1.1 413"), answer


def test_an_announced_length_over_the_limit_is_refused_at_once(server: ServerThread) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT) as sock:
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Length: 314572800\r\n\r\n{")
        sock.settimeout(10)
        assert sock.recv(200).startswith(b"HTTP/1.1 413")


def test_the_message_limit_counts_bytes(server: ServerThread) -> None:
    code = create_table(server.base, "hockey", ["human", "human"])["code"]

    async def run() -> dict[str, Any]:
        me = await Client.open(server.ws_base, code, None)
        await me.until(lambda m: m["type"] == "welcome")
        # 1,500 characters, 4,502 bytes: over the 4,096-byte limit
        await me.send(json.dumps({"type": "ping", "id": "€" * 1500}, ensure_ascii=False))
        reply = await me.until(lambda m: m["type"] in ("error", "pong"))
        await me.close()
        return reply

    assert asyncio.run(run())["code"] == "too_large"


# -- 4. input that used to give a 500 -------------------------------------------------------
def test_deep_nesting_is_a_clean_400(server: ServerThread) -> None:
    for path in ("/api/tables", "/api/games/hockey/describe"):
        r = post_raw(server, path, "[" * 16_000)
        assert (r.status_code, r.json()["error"]) == (400, "malformed"), path


def test_a_lone_surrogate_in_a_name_is_a_clean_400(server: ServerThread) -> None:
    code = create_table(server.base, "hockey", ["human", "human"])["code"]
    r = post_raw(server, f"/api/tables/{code}/join", '{"name": "\\ud800"}')
    assert (r.status_code, r.json()["error"]) == (400, "malformed")
    assert httpx.get(f"{server.base}/api/tables/{code}", timeout=TIMEOUT).json()[
        "seats"][0]["taken"] is False


def test_a_seat_that_is_true_is_refused(server: ServerThread) -> None:
    code = create_table(server.base, "hockey", ["human", "human"])["code"]
    r = httpx.post(f"{server.base}/api/tables/{code}/join", json={"seat": True},
                   timeout=TIMEOUT)
    assert r.status_code == 400 and r.json() == {"error": "bad_request",
                                                 "message": "'seat' must be a seat number."}


def test_a_lone_surrogate_over_the_websocket_is_an_error_not_a_cut(server: ServerThread
                                                                   ) -> None:
    code = create_table(server.base, "hockey", ["human", "human"])["code"]
    tokens = [join(server.base, code, f"p{i}")["token"] for i in range(2)]

    async def run() -> list[dict[str, Any]]:
        me = await Client.open(server.ws_base, code, None, hello=False)
        await me.send('{"type": "hello", "token": "\\ud800"}')
        await me.send({"type": "hello", "token": tokens[0]})
        await me.send('{"type": "action", "id": "\\udfff", "action": "pass"}')
        await me.send({"type": "ping", "id": "after"})
        replies = [await me.recv() for _ in range(2)]
        replies.append(await me.until(lambda m: m["type"] in ("error", "pong")))
        replies.append(await me.until(lambda m: m["type"] == "pong"))
        await me.close()
        return replies

    bad_hello, welcome, bad_action, pong = asyncio.run(run())
    assert (bad_hello["type"], bad_hello["code"]) == ("error", "malformed")
    assert welcome["type"] == "welcome" and welcome["seat"] == 0
    assert (bad_action["type"], bad_action["code"]) == ("error", "malformed")
    assert pong == {"type": "pong", "id": "after"}


# -- 7. replays worked out once; HTTP limited per client ----------------------------------------
def test_replay_steps_are_worked_out_once_per_table_and_viewer(
        server: ServerThread, monkeypatch: pytest.MonkeyPatch) -> None:
    from spieltisch.server import web

    table = create_table(server.base, "hockey", ["bot:easy", "bot:easy"], seed=5)
    code = table["code"]
    while httpx.get(f"{server.base}/api/tables/{code}", timeout=TIMEOUT).json()[
            "status"] != "over":
        time.sleep(0.05)
    calls: list[tuple[str, str, int]] = []
    real = web.encoded_page

    def counted(rt: Any, page: Any, *args: Any) -> bytes:
        calls.append((page.viewer, page.lang, page.start))
        return real(rt, page, *args)

    monkeypatch.setattr(web, "encoded_page", counted)
    url = f"{server.base}/api/tables/{code}/replay/steps"
    first = httpx.get(url, params={"seat": "full"}, timeout=TIMEOUT)
    again = httpx.get(url, params={"seat": "full"}, timeout=TIMEOUT)
    seat = httpx.get(url, params={"seat": "1"}, timeout=TIMEOUT)
    assert first.status_code == again.status_code == seat.status_code == 200
    assert first.content == again.content and calls == [("full", "en", 0), ("1", "en", 0)]
    replay = httpx.get(f"{server.base}/api/tables/{code}/replay", timeout=TIMEOUT).json()
    names = first.json()["names"]
    assert names == ["Anna", "Ben"]
    page = server.config.replay_page_steps  # the first page: steps 0 to 199
    assert first.json()["steps"] == real_steps(replay, None, True, names)[:page] \
        and seat.json()["steps"] == real_steps(replay, 1, False, names)[:page]
    german = httpx.get(url, params={"seat": "1", "lang": "de"}, timeout=TIMEOUT)
    assert calls[-1] == ("1", "de", 0), "another language is worked out anew"
    assert german.json()["steps"] == real_steps(replay, 1, False, names, "de")[:page]


def real_steps(replay: dict[str, Any], seat: int | None, full: bool, names: list[str],
               lang: str = "en") -> list[dict[str, Any]]:
    """Every step of ``replay`` as the whole-game function tells them."""
    from spieltisch.server import web

    return web.replay_steps(replay, seat, full, names, lang)["steps"]  # type: ignore[no-any-return]


def test_http_requests_are_limited_per_client(tmp_path: Path) -> None:
    cfg = config(tmp_path, http_requests_per_second=0.5, http_burst=5,
                 forwarded_allow_ips=["127.0.0.1"])
    with ServerThread(cfg) as s:
        answers = [httpx.get(s.base + "/api/games", timeout=TIMEOUT).status_code
                   for _ in range(6)]
        assert answers == [200] * 5 + [429]
        refused = httpx.get(s.base + "/api/tables?lang=de", timeout=TIMEOUT)
        assert refused.status_code == 429 and refused.headers["retry-after"] == "1"
        assert refused.json() == {"error": "rate_limited", "message":
                                  "Zu viele Anfragen von deiner Adresse: warte einen Moment "
                                  "und versuche es dann noch einmal."}
        # another client has its own allowance
        other = httpx.get(s.base + "/api/games", headers=STRANGER, timeout=TIMEOUT)
        assert other.status_code == 200


# -- 8. lobby abuse: joins, forwarded addresses, origins, private files -----------------------
def test_joins_are_limited_per_client(tmp_path: Path) -> None:
    with ServerThread(config(tmp_path, joins_per_minute=3)) as s:
        code = create_table(s.base, "hoax", ["human"] * 4, players=4)["code"]
        answers = [httpx.post(f"{s.base}/api/tables/{code}/join", json={},
                              timeout=TIMEOUT) for _ in range(4)]
        assert [a.status_code for a in answers] == [201, 201, 201, 429]
        assert answers[-1].json()["error"] == "too_many_joins"


def test_forwarded_for_is_believed_only_from_trusted_proxies(tmp_path: Path) -> None:
    """Without trusted proxies a client cannot pass for another by a header."""
    for trusted, second in (([], 429), (["127.0.0.1"], 201)):
        with ServerThread(config(tmp_path, max_tables_per_client=1,
                                 table_prefix=unique_prefix(),
                                 forwarded_allow_ips=trusted)) as s:
            create_table(s.base, "hockey", ["human", "human"])
            r = httpx.post(s.base + "/api/tables", json={"game": "hockey"},
                           headers={"x-forwarded-for": "198.51.100.4"}, timeout=TIMEOUT)
            assert r.status_code == second, (trusted, r.text)


def test_spieltisch_serve_trusts_no_forwarded_header_by_default(tmp_path: Path) -> None:
    from .test_crash import start_serve

    proc, port = start_serve(["--db", f"sqlite:///{tmp_path / 'serve.sqlite3'}",
                              "--max-tables-per-client", "1"], tmp_path / "serve.log")
    try:
        base = f"http://127.0.0.1:{port}"
        create_table(base, "hockey", ["human", "human"])
        r = httpx.post(base + "/api/tables", json={"game": "hockey"},
                       headers={"x-forwarded-for": "198.51.100.4"}, timeout=TIMEOUT)
        assert (r.status_code, r.json()["error"]) == (429, "too_many_tables")
    finally:
        proc.terminate()
        proc.wait(TIMEOUT)


def test_pages_of_other_origins_cannot_create_join_or_play(tmp_path: Path) -> None:
    cfg = config(tmp_path, allowed_origins=["https://cards.example.org"])
    with ServerThread(cfg) as s:
        own = f"http://127.0.0.1:{s.port}"
        evil = {"origin": "https://evil.example"}
        r = httpx.post(s.base + "/api/tables", json={"game": "hockey"}, headers=evil,
                       timeout=TIMEOUT)
        assert r.status_code == 403 and r.json() == {
            "error": "bad_origin",
            "message": "Requests from pages at https://evil.example are not accepted here."}
        for origin in (own, "https://cards.example.org"):
            r = httpx.post(s.base + "/api/tables", json={"game": "hockey"},
                           headers={"origin": origin}, timeout=TIMEOUT)
            assert r.status_code == 201, origin
        code = r.json()["code"]
        r = httpx.post(f"{s.base}/api/tables/{code}/join", json={}, headers=evil,
                       timeout=TIMEOUT)
        assert r.status_code == 403
        assert httpx.get(f"{s.base}/api/tables/{code}", headers=evil,
                         timeout=TIMEOUT).status_code == 200  # reading is no harm

        async def handshake(origin: str) -> str:
            try:
                async with connect(f"{s.ws_base}/ws/{code}", origin=origin,  # type: ignore[arg-type]
                                   open_timeout=TIMEOUT) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": None}))
                    return json.loads(await ws.recv())["type"]
            except InvalidStatus as e:
                return f"refused {e.response.status_code}"

        assert asyncio.run(handshake("https://evil.example")) == "refused 403"
        assert asyncio.run(handshake(own)) == "welcome"


def test_the_data_directory_and_database_are_private(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    old = os.umask(0o022)
    try:
        url = default_db_url()
        store = Store(url, unique_prefix())
        try:
            with store.engine.begin() as conn:  # a write, so the WAL exists
                conn.exec_driver_sql("CREATE TABLE IF NOT EXISTS probe (x)")
            folder = tmp_path / "data" / "spieltisch"
            files = sorted(folder.iterdir())
            assert [f.name for f in files] == ["server.sqlite3", "server.sqlite3-shm",
                                               "server.sqlite3-wal"]
            assert stat.S_IMODE(folder.stat().st_mode) == 0o700
            assert [stat.S_IMODE(f.stat().st_mode) for f in files] == [0o600] * 3
        finally:
            store.close()
    finally:
        os.umask(old)
