"""The client's HTTP routes without a browser: page, static files, rules, descriptions,
replay steps (every game through the engine API only)."""

from __future__ import annotations

import time

import httpx
import pytest

from spieltisch.core.registry import game_names
from spieltisch.server.loopback import LoopbackServer


def test_page_and_static(server: LoopbackServer) -> None:
    for path in ("/", "/t/ABCDEF", "/r/ABCDEF"):
        r = httpx.get(server.base + path)
        assert r.status_code == 200 and '<main id="app"' in r.text
    modules = ("app", "connection", "games", "i18n", "lobby", "markdown", "marked.esm",
               "replay", "router", "rules", "table", "util")
    for path in ("/static/style.css", *(f"/static/{m}.js" for m in modules),
                 "/static/games/common.js", "/static/games/generic.js",
                 *(f"/static/games/{g}.js" for g in game_names())):
        assert httpx.get(server.base + path).status_code == 200, path


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
