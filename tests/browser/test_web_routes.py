"""The client's HTTP routes without a browser: page, static files, each game's module
and texts from its package, rules, descriptions, replay steps (every game through the
engine API only)."""

from __future__ import annotations

import time

import httpx
import pytest

from spieltisch.core.registry import client_module, game_names, package_dir
from spieltisch.i18n import translator
from spieltisch.server.loopback import LoopbackServer


def test_page_and_static(server: LoopbackServer) -> None:
    for path in ("/", "/t/ABCDEF", "/r/ABCDEF"):
        r = httpx.get(server.base + path)
        assert r.status_code == 200 and '<main id="app"' in r.text
    modules = ("app", "connection", "games", "i18n", "lobby", "markdown", "marked.esm",
               "replay", "router", "rules", "table", "util")
    for path in ("/static/style.css", *(f"/static/{m}.js" for m in modules),
                 "/static/games/common.js", "/static/games/generic.js"):
        assert httpx.get(server.base + path).status_code == 200, path


@pytest.mark.parametrize("game", game_names())
def test_a_games_module_comes_from_its_package(server: LoopbackServer, game: str) -> None:
    """``/api/games`` names the module in the game's package (``client.js``), served as
    JavaScript; a game without one has ``client: null`` (the generic table) and a 404."""
    listed = {g["name"]: g for g in httpx.get(f"{server.base}/api/games").json()}
    module = client_module(game)
    r = httpx.get(f"{server.base}/games/{game}/client.js")
    if module is None:
        assert listed[game]["client"] is None
        assert r.status_code == 404 and r.json()["error"] == "no_client"
        return
    assert module == package_dir(game) / "client.js"
    assert listed[game]["client"] == f"/games/{game}/client.js"
    assert r.status_code == 200 and r.content == module.read_bytes()
    assert r.headers["content-type"].startswith("text/javascript")


def test_a_game_module_for_no_game_is_404(server: LoopbackServer) -> None:
    for name in ("nope", "..", "common"):
        r = httpx.get(f"{server.base}/games/{name}/client.js")
        assert r.status_code == 404, name
    assert httpx.get(f"{server.base}/static/games/generic.js").status_code == 200


@pytest.mark.parametrize("game", game_names())
def test_a_games_texts_come_with_the_core_clients(server: LoopbackServer, game: str) -> None:
    """``/api/i18n/{lang}?game=`` is the core client's texts and the game's catalog
    (``<game>.client``) under them; the core client's alone do not have the game's."""
    core = httpx.get(f"{server.base}/api/i18n/de").json()["messages"]
    both = httpx.get(f"{server.base}/api/i18n/de?game={game}").json()["messages"]
    own = translator("de", f"{game}.client").messages()
    assert both == {**own, **core}
    if client_module(game) is not None:
        assert own, f"{game} has a module but no German texts for it"
        assert set(own) - set(core), f"{game}'s texts are all in the core catalog"
    assert httpx.get(f"{server.base}/api/i18n/de?game=nope").status_code == 404


@pytest.mark.parametrize("game", game_names())
def test_rules_and_descriptions(server: LoopbackServer, game: str) -> None:
    r = httpx.get(f"{server.base}/api/games/{game}/rules")
    assert r.status_code == 200 and r.text.startswith("#")
    from spieltisch.core.registry import get_spec

    g = get_spec(game).configure()
    texts = [g.action_to_json(a) for a in range(min(g.num_actions, 50))] + ["nonsense 42"]
    d = httpx.post(f"{server.base}/api/games/{game}/describe",
                   json={"players": g.num_players, "options": {}, "actions": texts}).json()
    assert set(d) == set(texts) and d["nonsense 42"] == "nonsense 42"


def test_route_errors(server: LoopbackServer) -> None:
    assert httpx.get(f"{server.base}/api/games/nope/rules").status_code == 404
    assert httpx.post(f"{server.base}/api/games/nope/describe", json={}).status_code == 404
    assert httpx.post(f"{server.base}/api/games/hockey/describe",
                      content=b"{bad").status_code == 400
    assert httpx.get(f"{server.base}/api/tables/NOPE99/replay/steps").status_code == 404
    code = httpx.post(f"{server.base}/api/tables",
                      json={"game": "hockey", "seats": ["human", "human"]}).json()["code"]
    r = httpx.get(f"{server.base}/api/tables/{code}/replay/steps")
    assert r.status_code == 409 and r.json()["error"] == "not_over"


def test_replay_steps_secrecy(server: LoopbackServer) -> None:
    code = httpx.post(f"{server.base}/api/tables", json={
        "game": "president", "players": 4, "seats": ["bot:easy"] * 4, "seed": 3}).json()["code"]
    deadline = time.monotonic() + 30
    while httpx.get(f"{server.base}/api/tables/{code}").json()["status"] != "over":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    base = f"{server.base}/api/tables/{code}/replay/steps"
    full = httpx.get(base + "?seat=full").json()
    spec = httpx.get(base + "?seat=spectator").json()
    seat2 = httpx.get(base + "?seat=2").json()
    assert len(full["steps"]) == len(spec["steps"]) == len(seat2["steps"]) > 1
    assert "hands" in full["steps"][0]["view"]
    assert all("hand" not in s["view"] and "hands" not in s["view"] for s in spec["steps"])
    assert all(s["view"].get("seat") == 2 and "hands" not in s["view"] for s in seat2["steps"])
    assert full["result"]["winner"] is not None
    assert httpx.get(base + "?seat=9").status_code == 400
