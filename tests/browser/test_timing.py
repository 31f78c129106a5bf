"""The client's part in the server's time keeping (docs/server.md, "Time"): it says
``ready`` once the table is drawn, answers the server's pings, sends the pace chosen in
the lobby, and says whom the clocks wait for while someone has not seen the table."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx

from spieltisch.server.loopback import LoopbackServer

from .helpers import create, new_page, sit, snapshot, wait_started

#: Hood Politix's timers by the rules (3 s a move, 30 s Respekt, 60 s Politix), times the
#: test server's time scale (x100).
RULES_SECONDS = {300.0, 3000.0, 6000.0}


def status(server: LoopbackServer, code: str) -> dict[str, Any]:
    return httpx.get(f"{server.base}/api/tables/{code}", timeout=10).json()  # type: ignore[no-any-return]


def record_frames(page: Any) -> dict[str, list[dict[str, Any]]]:
    """Every WebSocket message the page sends and receives from now on, decoded."""
    frames: dict[str, list[dict[str, Any]]] = {"sent": [], "received": []}

    def watch(ws: Any) -> None:
        ws.on("framesent", lambda payload: frames["sent"].append(json.loads(payload)))
        ws.on("framereceived", lambda payload: frames["received"].append(json.loads(payload)))

    page.on("websocket", watch)
    return frames


def test_the_client_says_ready_and_answers_pings(server: LoopbackServer, browser: Any) -> None:
    code = create(server, "hood_politix", ["human", "bot:easy", "bot:easy"], players=3)
    page = new_page(browser)
    frames = record_frames(page)
    sit(page, server.base, code, "Ada")
    wait_started(page)
    # the server's status: nobody left whom the clocks wait for (an old client that never
    # says ready would keep seat 0 there for ready_timeout, 30 s)
    deadline = time.monotonic() + 5
    while status(server, code)["not_ready"] != []:
        assert time.monotonic() < deadline, "the client never said ready"
        time.sleep(0.1)
    # the state sent when the clocks started: timers run, nobody waited for
    page.wait_for_function("() => window.spieltisch.snapshot().deadlines.length > 0")
    assert snapshot(page)["not_ready"] == []
    assert page.locator(".notready").count() == 0
    # the server pings on `ready`; the client answers each ping with its id
    page.wait_for_function("() => true")  # let Playwright deliver the frame events
    deadline = time.monotonic() + 5
    while not any(f["type"] == "pong" for f in frames["sent"]):
        assert time.monotonic() < deadline, f"no pong among {frames['sent']}"
        page.wait_for_timeout(100)
    pings = [f["id"] for f in frames["received"] if f["type"] == "ping"]
    pongs = [f["id"] for f in frames["sent"] if f["type"] == "pong"]
    assert pings and pongs == pings[:len(pongs)]
    assert {"type": "ready"} in frames["sent"]
    # pings never reach the page's message handler
    assert snapshot(page)["type"] != "ping"
    page.context.close()


def test_the_pace_chosen_in_the_lobby_reaches_the_table(server: LoopbackServer, browser: Any,
                                                        artifacts: Path) -> None:
    page = new_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector("#c-pace")
    assert page.locator("#c-pace").input_value() == "rules"
    assert page.locator("#c-pace option").all_inner_texts() == [
        "By the rules", "Relaxed (3× the time)", "No move timer"]
    page.select_option("#c-game", "hood_politix")
    page.select_option("#c-pace", "relaxed")
    page.fill("#name", "Ada")
    page.screenshot(path=str(artifacts / "lobby-pace.png"), full_page=True)
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/t/*")
    wait_started(page)
    code = page.url.rsplit("/", 1)[1]
    assert page.locator("#pace").inner_text() == "Pace: Relaxed (3× the time)"
    listed = {tb["code"]: tb for tb in httpx.get(f"{server.base}/api/tables", timeout=10).json()}
    assert listed[code]["pace"] == "relaxed"
    # every timer runs three times its rule's length
    page.wait_for_function("() => window.spieltisch.snapshot().deadlines.length > 0")
    seconds = {d["seconds"] for d in snapshot(page)["deadlines"]}
    assert seconds <= {3 * s for s in RULES_SECONDS}, seconds
    # the lobby lists the table with its pace
    page.goto(server.base + "/")
    row = page.locator("ul.tables li", has_text=code)
    assert "Pace: Relaxed (3× the time)" in row.inner_text()
    page.context.close()


def test_the_pace_in_german(server: LoopbackServer, browser: Any) -> None:
    page = new_page(browser, "de")
    page.goto(server.base + "/")
    page.wait_for_selector("#c-pace")
    assert page.locator("#c-pace option").all_inner_texts() == [
        "Nach den Regeln", "Gemütlich (3× die Zeit)", "Ohne Zugzeit"]
    page.context.close()


def test_the_clocks_wait_for_a_player_who_has_not_seen_the_table(
        server: LoopbackServer, browser: Any, artifacts: Path) -> None:
    code = create(server, "hood_politix", ["human", "human", "bot:easy"], players=3)
    joined = httpx.post(f"{server.base}/api/tables/{code}/join", json={"name": "Bea", "seat": 1},
                        timeout=10).json()
    a = new_page(browser)
    sit(a, server.base, code, "Ada")  # the last free seat: the table starts
    wait_started(a)
    # Bea holds seat 1 but has not opened the table: no clock, her name instead
    waiting = a.locator(".notready")
    waiting.wait_for()
    assert waiting.inner_text() == "◷ Waiting for Bea to see the table — the clocks start then."
    assert a.locator(".clock").count() == 0
    assert snapshot(a)["deadlines"] == []
    assert status(server, code)["not_ready"] == [1]
    a.screenshot(path=str(artifacts / "hood_politix-waiting.png"), full_page=True)
    # Bea opens the table: her client says ready, the clocks start on both screens
    b = new_page(browser)
    seat = json.dumps({"seat": joined["seat"], "token": joined["token"]})
    b.add_init_script(f"localStorage.setItem('spieltisch.seat.{code}', {json.dumps(seat)})")
    b.goto(f"{server.base}/t/{code}")
    wait_started(b)
    waiting.wait_for(state="detached")
    a.wait_for_function("() => window.spieltisch.snapshot().deadlines.length > 0")
    assert status(server, code)["not_ready"] == []
    assert b.locator(".notready").count() == 0
    a.wait_for_selector(".clock")
    a.context.close()
    b.context.close()
