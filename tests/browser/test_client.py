"""The browser client in a real browser: lobby, seats, moves of every game, reload,
spectating, illegal clicks, replays. Screenshots go to ``tests/browser/artifacts/``."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from spieltisch.server.loopback import LoopbackServer

TIMEOUT_MS = 20_000


def new_page(browser: Any, width: int = 1100, height: int = 900) -> Any:
    ctx = browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return page


def snap(page: Any) -> dict[str, Any] | None:
    return page.evaluate("() => window.spieltisch && window.spieltisch.T.snap")  # type: ignore[no-any-return]


def index_of(page: Any) -> int:
    s = snap(page)
    return int(s["applied"]) if s else -1


def sit(page: Any, base: str, code: str, name: str) -> int:
    page.goto(f"{base}/t/{code}")
    page.fill("#sit-name", name)
    page.click("text=Take a seat")
    page.wait_for_function(
        "() => window.spieltisch.T.snap && window.spieltisch.T.snap.seat !== null")
    return int(snap(page)["seat"])  # type: ignore[index]


def wait_started(page: Any) -> None:
    page.wait_for_function("() => { const s = window.spieltisch.T.snap; return s && s.view; }")
    page.wait_for_selector("section.board")


def play_moves(pages: list[Any], moves: int, use_keys: bool = True) -> int:
    """Whoever of ``pages`` must act clicks (or presses 1 for) its first action."""
    done = 0
    deadline = time.monotonic() + 40
    while done < moves and time.monotonic() < deadline:
        acted = False
        for page in pages:
            s = snap(page)
            if not s or s.get("over"):
                return done
            if s.get("required") and s.get("legal"):
                before = s["applied"]
                if use_keys and done % 2 == 1:
                    page.locator("body").press("1")
                else:
                    page.locator(".actions .act").first.click()
                try:
                    page.wait_for_function(f"() => window.spieltisch.T.snap.applied > {before}")
                except Exception as e:
                    raise AssertionError(f"move {done} not applied: toast "
                                         f"{page.locator('#toast').inner_text()!r}, "
                                         f"{snap(page)}") from e
                done += 1
                acted = True
        if not acted:
            time.sleep(0.1)
    return done


def create(server: LoopbackServer, game: str, seats: list[str], **extra: Any) -> str:
    r = httpx.post(f"{server.base}/api/tables", json={"game": game, "seats": seats, **extra},
                   timeout=20)
    assert r.status_code == 201, r.text
    return str(r.json()["code"])


def test_president_lobby_seats_reload_spectator(server: LoopbackServer, browser: Any,
                                                artifacts: Path) -> None:
    a = new_page(browser)
    b = new_page(browser)
    a.goto(server.base + "/")
    a.fill("#name", "Ada")
    a.select_option("#c-game", "president")
    a.fill("#c-players", "4")
    a.locator("#c-players").dispatch_event("change")
    a.select_option(".seat-kind[data-seat='1']", "human")
    a.select_option(".seat-kind[data-seat='2']", "bot:random")
    a.select_option(".seat-kind[data-seat='3']", "bot:random")
    a.click("text=Create table and sit down")
    a.wait_for_url("**/t/*")
    code = a.url.rstrip("/").split("/")[-1]
    a.wait_for_selector("text=Waiting for players")
    # the lobby lists the open table
    b.goto(server.base + "/")
    b.wait_for_selector(f"a[href='/t/{code}']")
    assert sit(b, server.base, code, "Bea") == 1
    wait_started(a)
    wait_started(b)
    assert a.locator("#role").inner_text() == "seat 0"
    assert a.locator(".hand .card").count() > 0
    # an illegal click: a card of the seat that must not act is refused with the reason
    waiting = a if not snap(a)["required"] else b  # type: ignore[index]
    waiting.locator(".hand .cardbtn").first.click()
    waiting.wait_for_selector("#toast:not([hidden])")
    assert waiting.locator("#toast").inner_text().strip()
    # rules one click away
    a.click("#rules-btn")
    a.wait_for_selector("#rules-body h2, #rules-body h3")
    assert "President" in a.locator("#rules-body").inner_text()
    a.click("#rules-close")
    assert play_moves([a, b], 4) >= 2
    # reload restores the seat and the hand
    hand_before = snap(a)["view"]["hand"]  # type: ignore[index]
    a.reload()
    a.wait_for_function("() => window.spieltisch.T.snap && window.spieltisch.T.snap.view")
    assert snap(a)["seat"] == 0  # type: ignore[index]
    assert a.locator("#role").inner_text() == "seat 0"
    assert a.locator(".hand .card").count() == len(snap(a)["view"]["hand"])  # type: ignore[index]
    assert set(snap(a)["view"]["hand"]) <= set(hand_before)  # type: ignore[index]
    # a spectator sees no hidden cards
    c = new_page(browser)
    c.goto(f"{server.base}/t/{code}?watch=1")
    wait_started(c)
    view = snap(c)["view"]  # type: ignore[index]
    assert "hand" not in view and "hands" not in view
    assert c.locator(".hand").count() == 0
    assert c.locator("#role").inner_text() == "spectator"
    shown = c.locator("section.board").inner_text()
    for card in snap(a)["view"]["hand"]:  # type: ignore[index]
        assert f'data-card="{card}"' not in c.locator(".seats").inner_html()
    assert shown
    a.screenshot(path=str(artifacts / "president.png"), full_page=True)
    c.screenshot(path=str(artifacts / "president-spectator.png"), full_page=True)
    for p in (a, b, c):
        p.context.close()


GAMES = [
    # game, seats (two humans first), extra body, moves, phone-sized first page
    ("hockey", ["human", "human"], {}, 4, False),
    ("hood_politix", ["human", "human", "bot:random"], {"players": 3}, 3, False),
    ("pixmit", ["human", "human", "bot:random"], {"players": 3}, 3, False),
    ("hoax", ["human", "human", "bot:random", "bot:random"], {"players": 4}, 3, True),
]


@pytest.mark.parametrize(("game", "seats", "extra", "moves", "phone"), GAMES,
                         ids=[g[0] for g in GAMES])
def test_two_players_play(server: LoopbackServer, browser: Any, artifacts: Path, game: str,
                          seats: list[str], extra: dict[str, Any], moves: int,
                          phone: bool) -> None:
    code = create(server, game, seats, **extra)
    a = new_page(browser, 390, 844) if phone else new_page(browser)
    b = new_page(browser)
    seat_a = sit(a, server.base, code, "Ada")
    seat_b = sit(b, server.base, code, "Bea")
    assert {seat_a, seat_b} == {0, 1}
    wait_started(a)
    wait_started(b)
    assert a.locator("section.board").inner_text().strip()
    start = index_of(a)
    assert play_moves([a, b], moves) >= 1
    a.wait_for_function(f"() => window.spieltisch.T.snap.applied > {start}")
    # each seat sees only its own hand
    va, vb = snap(a)["view"], snap(b)["view"]  # type: ignore[index]
    if "hand" in va:
        assert va.get("seat") in (seat_a, None) and vb.get("seat") in (seat_b, None)
    assert a.locator(".log li").count() > 0
    if phone:  # nothing wider than the phone screen
        width = a.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 400
    a.screenshot(path=str(artifacts / f"{game}.png"), full_page=True)
    a.context.close()
    b.context.close()


def test_replay_steps_and_download(server: LoopbackServer, browser: Any, artifacts: Path) -> None:
    code = create(server, "hockey", ["bot:random", "bot:random"], seed=7)
    deadline = time.monotonic() + 30
    while httpx.get(f"{server.base}/api/tables/{code}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bot game did not finish"
        time.sleep(0.2)
    page = new_page(browser)
    page.goto(f"{server.base}/")
    page.wait_for_selector(f"a[href='/r/{code}']")
    page.click(f"a[href='/r/{code}']")
    page.wait_for_selector("#stepno")
    page.wait_for_function(
        "() => document.querySelector('#stepno').textContent.startsWith('step 0')")
    assert "All hands" in page.locator("#r-board").inner_text()  # full view
    page.locator("body").press("ArrowRight")
    page.locator("body").press("ArrowRight")
    assert page.locator("#stepno").inner_text().startswith("step 2")
    page.select_option("#viewer", "1")
    page.wait_for_function(
        "() => !document.querySelector('#r-board').textContent.includes('All hands')")
    assert "hand" in page.locator("#r-board").inner_text()
    page.click("#last")
    page.screenshot(path=str(artifacts / "replay.png"), full_page=True)
    steps = httpx.get(f"{server.base}/api/tables/{code}/replay/steps?seat=1").json()["steps"]
    assert all("hands" not in s["view"] for s in steps)
    assert steps[-1]["view"]["winner"] is not None or steps[-1]["view"]["goals"]
    rep = httpx.get(f"{server.base}/api/tables/{code}/replay").json()
    assert len(steps) == len(rep["actions"]) + 1
    page.context.close()


def test_readable_at_200_percent_zoom(server: LoopbackServer, browser: Any,
                                      artifacts: Path) -> None:
    """A 1280×900 window at 200% zoom is a 640×450 CSS-pixel page at scale 2."""
    code = create(server, "president", ["human", "bot:random", "bot:random", "bot:random"],
                  players=4)
    ctx = browser.new_context(viewport={"width": 640, "height": 450}, device_scale_factor=2)
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    sit(page, server.base, code, "Zoe")
    wait_started(page)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 650
    assert page.locator("section.board").is_visible()
    hand = snap(page)["view"]["hand"]  # type: ignore[index]
    assert hand and page.get_by_text("Your hand").is_visible()
    page.screenshot(path=str(artifacts / "president-zoom200.png"), full_page=False)
    ctx.close()
