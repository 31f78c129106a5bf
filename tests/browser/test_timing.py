"""The client's part in the server's time keeping (docs/server.md, "Time"): it says
``ready`` only when the person presses "I'm ready", answers the server's pings, sends the
pace chosen in the lobby (learning at a first table of a game with clocks), and says whom
the clocks wait for while someone is not ready."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx

from spieltisch.server.loopback import LoopbackServer

from .helpers import (
    clocks_started,
    create,
    new_page,
    press_ready,
    record_frames,
    sit,
    snapshot,
    wait_frame,
    wait_ready_for,
    wait_started,
)

#: Hood Politix's timers by the rules (3 s a move, 30 s Respekt, 60 s Politix), times the
#: test server's time scale (x100).
RULES_SECONDS = {300.0, 3000.0, 6000.0}


def status(server: LoopbackServer, code: str) -> dict[str, Any]:
    return httpx.get(f"{server.base}/api/tables/{code}", timeout=10).json()  # type: ignore[no-any-return]


def test_the_client_says_ready_when_the_person_does_and_answers_pings(
        server: LoopbackServer, browser: Any) -> None:
    code = create(server, "hood_politix", ["human", "bot:easy", "bot:easy"], players=3)
    page = new_page(browser)
    frames = record_frames(page)
    sit(page, server.base, code, "Ada")
    wait_started(page, ready=False)
    # drawing the table says nothing: the clocks wait for the person
    button = page.locator("#ready-btn")
    assert button.inner_text() == "✔ I'm ready"
    assert "Key: Enter or R" in page.locator(".readybox").inner_text()
    assert snapshot(page)["deadlines"] == [] and page.locator(".clock").count() == 0
    assert status(server, code)["not_ready"] == [0]
    assert {"type": "ready"} not in frames["sent"]
    page.keyboard.press("Enter")  # the key does what the button does
    # the server starts the clocks: a state with the timers running, nobody waited for
    # (what follows is the bots' business: one may call Politix at once)
    wait_frame(page, frames, clocks_started)
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
    page = new_page(browser)  # a browser that never sat at a table
    page.goto(server.base + "/")
    page.wait_for_selector("#c-pace")
    assert page.locator("#c-pace option").all_inner_texts() == [
        "By the rules", "Relaxed (3× the time)", "No move timer"]
    first = page.locator("#c-pace-first")
    # a game without clocks of its own keeps the rules' pace
    page.select_option("#c-game", "hockey")
    assert page.locator("#c-pace").input_value() == "rules" and first.is_hidden()
    # the first table of a game with clocks: the learning pace, and the lobby says so
    page.select_option("#c-game", "hood_politix")
    assert page.locator("#c-pace").input_value() == "relaxed"
    assert first.inner_text() == ("Your first Hood Politix table: learning pace (3× the time). "
                                  "You can change it.")
    page.screenshot(path=str(artifacts / "lobby-pace.png"), full_page=True)
    # the creator may change it; a pace chosen stays when the game changes
    page.select_option("#c-pace", "untimed")
    assert first.is_hidden()
    page.select_option("#c-game", "hockey")
    page.select_option("#c-game", "hood_politix")
    assert page.locator("#c-pace").input_value() == "untimed"
    page.select_option("#c-pace", "relaxed")
    page.fill("#name", "Ada")
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/t/*")
    wait_started(page)
    code = page.url.rsplit("/", 1)[1]
    assert page.locator("#pace").inner_text() == "Pace: Relaxed (3× the time)"
    listed = {tb["code"]: tb for tb in httpx.get(f"{server.base}/api/tables", timeout=10).json()}
    assert listed[code]["pace"] == "relaxed"
    # every timer runs three times its rule's length
    wait_ready_for(page, ".clock")
    seconds = {d["seconds"] for d in snapshot(page)["deadlines"]}
    assert seconds <= {3 * s for s in RULES_SECONDS}, seconds
    # the lobby lists the table with its pace; Hood Politix is no first table any more
    page.goto(server.base + "/")
    row = page.locator("ul.tables li", has_text=code)
    assert "Pace: Relaxed (3× the time)" in row.inner_text()
    page.select_option("#c-game", "hood_politix")
    assert page.locator("#c-pace").input_value() == "rules"
    assert page.locator("#c-pace-first").is_hidden()
    page.context.close()


def test_the_pace_in_german(server: LoopbackServer, browser: Any) -> None:
    page = new_page(browser, "de")
    page.goto(server.base + "/")
    page.wait_for_selector("#c-pace")
    assert page.locator("#c-pace option").all_inner_texts() == [
        "Nach den Regeln", "Gemütlich (3× die Zeit)", "Ohne Zugzeit"]
    page.select_option("#c-game", "hood_politix")
    assert page.locator("#c-pace-first").inner_text() == (
        "Dein erster Hood Politix-Tisch: Lerntempo (3× die Zeit). Du kannst es ändern.")
    page.context.close()


def test_the_clocks_wait_for_a_player_who_has_not_seen_the_table(
        server: LoopbackServer, browser: Any, artifacts: Path) -> None:
    code = create(server, "hood_politix", ["human", "human", "bot:easy"], players=3)
    joined = httpx.post(f"{server.base}/api/tables/{code}/join", json={"name": "Bea", "seat": 1},
                        timeout=10).json()
    a = new_page(browser)
    frames = record_frames(a)
    sit(a, server.base, code, "Ada")  # the last free seat: the table starts
    wait_started(a, ready=False)
    # both are waited for: Ada sees her button and Bea's name (never "seat 2")
    assert a.locator(".readybox .notready").inner_text() == (
        "◷ Waiting for Bea to be ready — the clocks start then.")
    assert "not ready yet" in a.locator(".seat[data-seat='1']").inner_text()
    a.screenshot(path=str(artifacts / "hood_politix-ready.png"), full_page=True)
    assert press_ready(a)
    a.locator("#ready-btn").wait_for(state="detached")
    # Bea holds seat 1 but has not pressed it: no clock, her name instead
    waiting = a.locator(".notready")
    assert waiting.inner_text() == "◷ Waiting for Bea to be ready — the clocks start then."
    assert a.locator(".clock").count() == 0
    assert snapshot(a)["deadlines"] == []
    assert status(server, code)["not_ready"] == [1]
    a.screenshot(path=str(artifacts / "hood_politix-waiting.png"), full_page=True)
    # Bea opens the table and presses R: the clocks start on both screens
    b = new_page(browser)
    seat = json.dumps({"seat": joined["seat"], "token": joined["token"]})
    b.add_init_script(f"localStorage.setItem('spieltisch.seat.{code}', {json.dumps(seat)})")
    b.goto(f"{server.base}/t/{code}")
    wait_started(b, ready=False)
    assert b.locator(".readybox .notready").count() == 0  # Ada is ready: only Bea is waited for
    b.keyboard.press("r")
    wait_frame(a, frames, clocks_started)
    a.context.close()
    b.context.close()
