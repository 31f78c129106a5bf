"""The lobby in the player's language: games with translated labels and bot levels, the
client's texts, guides, defaults for a new table, player-count errors, finished games by
name, and waiting tables that expire."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest

from spieltisch.bots.ismcts import ISMCTSBot
from spieltisch.bots.levels import HARD_MS
from spieltisch.core import get_spec
from spieltisch.guides import guide_text
from spieltisch.i18n import translator
from spieltisch.server import ServerConfig
from spieltisch.server.app import Lobby, LobbyError, http_status

from .helpers import TIMEOUT, Client, ServerThread, create_table, has_view, join, unique_prefix

GERMAN_LEVELS = [
    {"level": "easy", "label": "Leicht",
     "about": "Spielt einen zufälligen erlaubten Zug. Bots sehen nie verdeckte Karten."},
    {"level": "medium", "label": "Mittel",
     "about": "Spielt nach Faustregeln für dieses Spiel, wie ein ordentlicher "
              "Gelegenheitsspieler. Bots sehen nie verdeckte Karten."},
    {"level": "hard", "label": "Schwer",
     "about": "Denkt voraus, indem er viele mögliche Verteilungen der Karten durchspielt, "
              "die er nicht sieht, bis zu 2 Sekunden pro Zug. Bots sehen nie verdeckte "
              "Karten."}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    db = tmp_path_factory.mktemp("db") / "lobby.sqlite3"
    cfg = ServerConfig(db_url=f"sqlite:///{db}", table_prefix=unique_prefix(),
                       grace_seconds=1000, messages_per_second=1000, message_burst=1000,
                       max_tables_per_client=1000)
    with ServerThread(cfg) as s:
        yield s


def get(server: ServerThread, path: str, **headers: str) -> httpx.Response:
    return httpx.get(server.base + path, headers=headers, timeout=TIMEOUT)


def game(games: list[dict[str, Any]], name: str) -> dict[str, Any]:
    return next(g for g in games if g["name"] == name)


def test_games_with_translated_options_and_bot_levels(server: ServerThread) -> None:
    german = get(server, "/api/games?lang=de").json()
    hockey = game(german, "hockey")
    assert hockey["min_players"] == hockey["max_players"] == hockey["default_players"] == 2
    assert hockey["options"] == [{
        "name": "first_dealer", "kind": "int", "default": -1, "choices": None,
        "minimum": -1, "maximum": 1, "label": "Erster Geber",
        "help": "wer in Periode 1 gibt; danach wechselt der Geber",
        "value_labels": {"-1": "ein zufälliger Platz"}, "seat": True}]
    # a seat option is offered by the table's seat labels: no "-1" in any player's words
    for lang in ("en", "de", "nl"):
        for g in get(server, f"/api/games?lang={lang}").json():
            for o in g["options"]:
                words = [o["label"], o["help"], *o["value_labels"].values()]
                assert not any("-1" in w for w in words), (g["name"], o)
                if o["name"] in ("first_dealer", "first_leader", "first_player",
                                 "start_player"):
                    assert o["seat"] and o["default"] == -1 and o["value_labels"]["-1"]
    assert hockey["bots"] == GERMAN_LEVELS
    assert "ismcts" in hockey["bot_names"] and "heuristic" in hockey["bot_names"]
    mode = game(german, "pixmit")["options"][0]
    assert (mode["label"], mode["choices"]) == ("Modus", ["pro", "beginner"])
    assert mode["value_labels"] == {"pro": "Profi (Bluffen erlaubt)",
                                    "beginner": "Anfänger (Ansagen stimmen)"}
    # without ?lang= the Accept-Language header decides
    dutch = get(server, "/api/games", **{"accept-language": "nl, en;q=0.5"}).json()
    assert [b["label"] for b in game(dutch, "president")["bots"]] == [
        "Makkelijk", "Gemiddeld", "Moeilijk"]
    english = get(server, "/api/games?lang=xx").json()
    for g in english:
        assert [b["level"] for b in g["bots"]] == ["easy", "medium", "hard"]
        assert all(b["about"].endswith("Bots never see hidden cards.") for b in g["bots"])
        assert all(o["label"] and "_" not in o["label"] for o in g["options"])


def test_client_texts_and_guides(server: ServerThread) -> None:
    r = get(server, "/api/i18n/de")
    assert r.status_code == 200 and r.json()["lang"] == "de"
    assert r.json()["messages"] == translator("de", "client", "core").messages()
    assert r.json()["messages"]["Hard"] == "Schwer"  # the core catalog is included
    assert "max-age" in r.headers["cache-control"]
    again = get(server, "/api/i18n/de", **{"if-none-match": r.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert get(server, "/api/i18n/nl").json()["messages"]["Easy"] == "Makkelijk"
    missing = get(server, "/api/i18n/fr")
    assert missing.status_code == 404 and missing.json()["error"] == "no_language"

    guide = get(server, "/api/games/hockey/guide?lang=de")
    assert guide.status_code == 200 and guide.text == guide_text("hockey", "de")
    assert guide.headers["content-type"].startswith("text/markdown")
    dutch = get(server, "/api/games/hockey/guide", **{"accept-language": "nl"})
    assert dutch.text == guide_text("hockey", "nl") != guide.text
    assert get(server, "/api/games/nope/guide").status_code == 404


def test_new_table_defaults_and_seat_specs(server: ServerThread) -> None:
    r = httpx.post(f"{server.base}/api/tables", json={"game": "president"}, timeout=TIMEOUT)
    assert r.status_code == 201
    t = r.json()
    assert t["players"] == 5 and t["status"] == "waiting"
    assert [(s["kind"], s["bot"]) for s in t["seats"]] == [("human", None)] + \
        [("bot", "medium")] * 4
    assert t["names"] == ["Seat 1", "Anna", "Ben", "Clara", "David"]
    for seats in (["human", "bot:hard"], ["human", "bot:easy"]):
        assert create_table(server.base, "hockey", seats)["seats"][1]["bot"] == seats[1][4:]
    for seats, wanted in (  # a client chooses a level only (tests/server/test_bot_limits.py)
            (["human"], "'seats' must list 2 entries: 'human' or 'bot:LEVEL' "
                        "(easy, medium, hard)."),
            (["human", "robot"], "Seat 2: 'robot' is not 'human' or 'bot:LEVEL'.")):
        r = httpx.post(f"{server.base}/api/tables", json={"game": "hockey", "seats": seats},
                       timeout=TIMEOUT)
        assert r.status_code == 400 and r.json()["error"] == "bad_request"
        assert r.json()["message"].startswith(wanted), r.json()


def test_player_count_out_of_range_names_the_range(server: ServerThread) -> None:
    def create(body: dict[str, Any], lang: str = "en") -> httpx.Response:
        return httpx.post(f"{server.base}/api/tables", json=body,
                          headers={"accept-language": lang}, timeout=TIMEOUT)

    for players in (99, 3, "5", True):
        r = create({"game": "president", "players": players})
        assert r.status_code == 400
        assert r.json() == {"error": "bad_players", "min": 4, "max": 8,
                            "message": "President is for 4 to 8 players."}
    assert create({"game": "president", "players": 9}, "de").json()["message"] == \
        "President ist für 4 bis 8 Spieler."
    assert create({"game": "hockey", "players": 3}, "nl").json() == {
        "error": "bad_players", "min": 2, "max": 2, "message": "Hockey is voor 2 spelers."}
    assert create({"game": "president", "players": 8}).status_code == 201


def test_finished_games_are_listed_with_names_and_the_winner_by_name(
        server: ServerThread) -> None:
    code = create_table(server.base, "hockey", ["bot:easy", "bot:easy"], seed=1)["code"]
    give_up = time.monotonic() + 120
    while (status := get(server, f"/api/tables/{code}").json())["status"] != "over":
        assert time.monotonic() < give_up, "the bots did not finish"
        time.sleep(0.05)
    winner = status["result"]["winner"]
    assert status["names"] == ["Anna", "Ben"] and status["winner"] == ["Anna", "Ben"][winner]
    listed = [t for t in get(server, "/api/tables?lang=de").json() if t["code"] == code]
    assert len(listed) == 1
    assert (listed[0]["status"], listed[0]["names"], listed[0]["winner"]) == (
        "over", ["Anna", "Ben"], ["Anna", "Ben"][winner])


# -- waiting tables expire ------------------------------------------------------------------
def test_waiting_tables_expire_when_nobody_joins(tmp_path_factory: pytest.TempPathFactory
                                                 ) -> None:
    """With an injected clock: the expiry counts from the creation and from each join."""
    db = tmp_path_factory.mktemp("db") / "expiry.sqlite3"
    cfg = ServerConfig(db_url=f"sqlite:///{db}", table_prefix=unique_prefix(),
                       waiting_expiry=30)
    now = [1_000_000.0]

    async def run() -> None:
        lobby = Lobby(cfg, clock=lambda: now[0])
        try:
            idle = await lobby.create({"game": "hockey", "seats": ["human", "human"]}, "a")
            busy = await lobby.create({"game": "hockey", "seats": ["human", "human"]}, "b")
            hard = await lobby.create({"game": "hockey", "seats": ["human", "bot:hard"]}, "c")
            bot = hard.bots[1]
            assert isinstance(bot, ISMCTSBot) and bot.budget == get_spec("hockey").hard_budget
            assert bot.ms == HARD_MS
            now[0] += 29 * 60
            await lobby.join(busy, {"name": "Zoe"})
            assert await lobby.expire_waiting() == []
            now[0] += 60  # 30 minutes since the creation, 1 since Zoe joined
            assert sorted(await lobby.expire_waiting()) == sorted([idle.code, hard.code])
            assert idle.code not in lobby.tables and busy.code in lobby.tables
            assert lobby.store.load_table(idle.code).status == "expired"  # type: ignore
            gone = lobby.get(idle.code)
            assert gone is not None and gone.status == "expired" and gone.state is None
            with pytest.raises(LobbyError) as refused:
                await lobby.join(gone, {"name": "late"})
            assert (http_status(refused.value), refused.value.code) == (409, "expired")
            now[0] += 28 * 60  # 29 minutes since Zoe joined
            assert await lobby.expire_waiting() == []
            now[0] += 60
            assert await lobby.expire_waiting() == [busy.code]
        finally:
            await lobby.close()
        never = Lobby(ServerConfig(db_url=cfg.db_url, table_prefix=cfg.table_prefix,
                                   waiting_expiry=0), clock=lambda: now[0])
        try:
            await never.create({"game": "hockey", "seats": ["human", "human"]}, "a")
            now[0] += 10 ** 9
            assert await never.expire_waiting() == []
        finally:
            await never.close()

    asyncio.run(run())


def test_an_expired_table_tells_its_players_and_is_listed_as_expired(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    db = tmp_path_factory.mktemp("db") / "expired.sqlite3"
    cfg = ServerConfig(db_url=f"sqlite:///{db}", table_prefix=unique_prefix(),
                       waiting_expiry=0.005)  # 0.3 s
    with ServerThread(cfg) as server:
        code = create_table(server.base, "hockey", ["human", "human"])["code"]
        token = join(server.base, code, "Zoe")["token"]

        async def run() -> None:
            me = await Client.open(server.ws_base, code, token, lang="de")
            welcome = await me.until(lambda m: m["type"] == "welcome")
            assert welcome["status"] == "waiting" and welcome["log"] == []
            assert welcome["names"] == ["Zoe", "Platz 2"] and not has_view(welcome)
            gone = await me.until(lambda m: m["type"] == "state")
            assert gone["status"] == "expired" and gone["names"] == ["Zoe", "Platz 2"]
            await me.send({"type": "action", "id": 1, "action": "play 3H"})
            refused = await me.until(lambda m: m["type"] == "error")
            assert refused == {"type": "error", "code": "expired", "id": 1, "message":
                               "Dieser Tisch ist verfallen: niemand hat sich rechtzeitig "
                               "dazugesetzt."}
            await me.close()
            late = await Client.open(server.ws_base, code, token)  # still answers, read-only
            assert (await late.until(lambda m: m["type"] == "welcome"))["status"] == "expired"
            await late.close()

        asyncio.run(run())
        r = httpx.post(f"{server.base}/api/tables/{code}/join", json={}, timeout=TIMEOUT)
        assert r.status_code == 409 and r.json() == {
            "error": "expired", "message": "This table expired: nobody joined in time."}
        listed = [t for t in get(server, "/api/tables").json() if t["code"] == code]
        assert [(t["status"], t["names"], t["result"], t["winner"]) for t in listed] == [
            ("expired", ["Zoe", "Seat 2"], None, None)]
