"""Opponents that feel like people (issue 35), as a person at the table sees it: no clock
runs before they press "I'm ready"; a first Hood Politix table runs at the learning pace;
a penalty shows on the hand and the seat with the pace's own seconds and its rule one
click away; hesitating in the misclick question costs no time; two timeouts in a row
offer the untimed pace; a HOAX window shows its clock and may be passed."""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from spieltisch import new_game
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
from .test_a11y import violations

#: Bots that claim every timeout they may claim, at once, and never outlast a timer
#: themselves: the penalty comes at the first timeout (a medium bot notices one 6 times in
#: 10, and one nobody claims may stay unclaimed).
ACCUSER = "bot:heuristic::alert=1:think=0"


def status(server: LoopbackServer, code: str) -> dict[str, Any]:
    return httpx.get(f"{server.base}/api/tables/{code}", timeout=10).json()  # type: ignore[no-any-return]


def hand_size(page: Any) -> int:
    return len(snapshot(page)["view"]["hand"])


def applied(page: Any) -> int:
    return int(page.locator("#app").get_attribute("data-applied"))


def answer(f: dict[str, Any]) -> bool:
    """A message that tells what happened at the table (pings and seat news aside)."""
    return f["type"] in ("state", "update", "error")


@pytest.mark.waits  # waits out 20 s and a 9 s clock, at full priority
def test_a_first_table_waits_for_the_person_then_shows_the_penalty(
        quick_server: LoopbackServer, browser: Any, artifacts: Path) -> None:
    page = new_page(browser)  # a browser that never sat at a Hood Politix table
    frames = record_frames(page)
    sent: list[dict[str, Any]] = []

    def accusing_bots(route: Any, request: Any) -> None:
        # the lobby's own table, its bots swapped for ones that always claim a timeout
        if request.method != "POST":
            route.continue_()
            return
        body = json.loads(request.post_data)
        sent.append(body)
        body["seats"] = ["human"] + [ACCUSER] * (len(body["seats"]) - 1)
        route.continue_(post_data=json.dumps(body))

    page.route("**/api/tables", accusing_bots)
    page.goto(quick_server.base + "/")
    page.select_option("#c-game", "hood_politix")
    assert "learning pace (3× the time)" in page.locator("#c-pace-first").inner_text()
    page.fill("#name", "Ada")
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/t/*")
    wait_started(page, ready=False)
    assert sent[0]["pace"] == "relaxed"  # the lobby's default, untouched
    code = page.url.rsplit("/", 1)[1]
    assert page.locator("#pace").inner_text() == "Pace: Relaxed (3× the time)"
    assert page.locator("#ready-btn").is_visible()
    # the tab says the table waits for her, in its title and with a dot on its icon
    assert page.title() == f"▶ I'm ready · spieltisch — table {page.url.rsplit('/', 1)[1]}"
    assert "circle" in (page.locator('link[rel="icon"]').get_attribute("href") or "")
    assert violations(page) == []
    hand, before = hand_size(page), applied(page)
    # 20 s without pressing it, over twice the only clock a start would run (the move
    # timer, 9 s at this pace; windows open only after a move): no clock, no bot moves,
    # no penalty
    page.wait_for_timeout(20_000)
    assert status(quick_server, code)["not_ready"] == [0]
    assert snapshot(page)["deadlines"] == []
    assert (hand_size(page), applied(page)) == (hand, before)
    assert page.locator(".penalty").count() == 0
    # "I'm ready" by its key: the clocks run, at the learning pace (3 s x 3)
    page.keyboard.press("r")
    started = wait_frame(page, frames, clocks_started)
    assert {d["seconds"] for d in started["deadlines"]} == {9.0}
    assert started["time_factor"] == 3.0
    # the move timer runs out on Ada: the penalty on her hand and her seat, in seconds
    # of this pace, with the rule one click away
    wait_ready_for(page, ".hand .penalty", 60)  # (a bot's Respekt pause asks for it again)
    badge = page.locator(".hand .penalty").first
    assert re.fullmatch(r"⚠ \+2 — too slow: 9 s\s*Rule", badge.inner_text()), badge.inner_text()
    assert "+2 — too slow: 9 s" in page.locator(".seat.me .penalty").first.inner_text()
    assert re.match(r"▶ (Your move|I'm ready) · spieltisch — table ", page.title())
    page.screenshot(path=str(artifacts / "hood_politix-penalty.png"), full_page=True)
    badge.locator(".rule-link").click()
    page.wait_for_selector("#rules-body .marked")
    assert page.locator("#rules-body .marked").inner_text().startswith("Your turn")
    assert page.evaluate("() => document.activeElement.matches('#rules-body .marked')")
    page.click("#rules-close")
    page.context.close()


def test_hesitating_in_the_misclick_question_costs_no_time(
        quick_server: LoopbackServer, browser: Any, artifacts: Path) -> None:
    """By the rules' 3 s: 5 s in the question, no timeout; then two timeouts in a row
    offer the untimed pace for the rest of the round."""
    code = create(quick_server, "hood_politix", ["human", ACCUSER, ACCUSER], players=3,
                  pace="rules", seed=5)
    page = new_page(browser)
    frames = record_frames(page)
    sit(page, quick_server.base, code, "Ada")
    wait_started(page)
    # a turn of Ada's with a card she cannot play, the question opened while her timer
    # still ran: the server's answer to the guard is a state with it held (a machine that
    # stalled for 3 s would have let it run out first: then play on, and try the next turn)
    for _ in range(12):
        wait_ready_for(page, "#app[data-required=true]")
        before = applied(page)
        if page.locator(".hand .cardbtn:not(.usable)").count():
            seen = len(frames["received"])
            page.locator(".hand .cardbtn:not(.usable)").first.click()
            page.wait_for_selector("#confirm[open]")
            said = wait_frame(page, frames, answer, after=seen)
            if said["type"] == "state" and any(d["remaining"] > 0 for d in said["deadlines"]):
                break
            page.click("#confirm-no")
        page.keyboard.press("1")
        page.wait_for_function(f"() => +document.querySelector('#app').dataset.applied > {before}")
    else:
        raise AssertionError("the misclick question never held Ada's running timer")
    hand, seen = hand_size(page), len(frames["received"])
    assert page.locator("#confirm-note").inner_text() == (
        "Your move timer stands still while you decide (up to 15 s).")
    page.wait_for_selector(".seat.me .clock.frozen")  # her clock stands still, on screen too
    assert "stopped" in page.locator(".seat.me .clock").inner_text()
    page.screenshot(path=str(artifacts / "hood_politix-guard.png"))
    page.wait_for_timeout(5_000)  # hesitating, longer than the 3-second rule
    assert page.locator("#confirm").evaluate("d => d.open")
    # nothing ran out, nobody claimed a timeout: no action at all meanwhile
    assert [f for f in frames["received"][seen:] if f["type"] == "update"] == []
    assert (hand_size(page), applied(page)) == (hand, before)
    assert page.locator(".penalty").count() == 0
    page.click("#confirm-no")
    # from here on her timer runs again: it runs out, and again
    wait_ready_for(page, ".hand .penalty", 30)
    assert "+2 — too slow: 3 s" in page.locator(".hand .penalty").first.inner_text()
    offer = page.locator(".offer")
    wait_ready_for(page, ".offer", 30)
    assert "Play without the clock for the rest of the round?" in offer.inner_text()
    page.screenshot(path=str(artifacts / "hood_politix-offer.png"), full_page=True)
    offer.get_by_role("button", name="Yes, without the clock").click()
    page.wait_for_function("() => window.spieltisch.snapshot().pace === 'untimed'")
    assert page.locator("#pace").inner_text() == "Pace: No move timer"
    assert snapshot(page)["time_factor"] is None
    assert snapshot(page)["deadlines"] == [] and page.locator(".clock").count() == 0
    assert offer.count() == 0
    page.context.close()


def window_of_people() -> dict[str, Any]:
    """A 4-player HOAX position at a window where only seats 0-2 may react, reached by
    seeded random play: a table played from its start may never reach one (once two are
    out of the round, a window has one seat, and the first action can repeat for ever)."""
    for seed in itertools.count():
        state, rng = new_game("hoax", num_players=4, seed=seed), random.Random(seed)
        for _ in range(100):
            window = state.view(None)["pending"].get("window") or []
            if len(window) >= 2 and set(window) <= {0, 1, 2}:
                return state.position()
            if state.is_over() or not state.to_act():
                break
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    raise AssertionError("unreachable")


def test_a_hoax_window_shows_its_clock_and_may_be_passed(server: LoopbackServer, browser: Any,
                                                         artifacts: Path) -> None:
    """Three people and a bot, at a window only people may pass (a claim of the bot):
    nothing moves until they do."""
    code = create(server, "hoax", ["human", "human", "human", "bot:easy"],
                  position=window_of_people())
    names = ["Ada", "Bea", "Cid"]
    pages: dict[int, Any] = {}
    for name in names:
        page = new_page(browser)
        pages[sit(page, server.base, code, name)] = page
    for page in pages.values():
        wait_started(page)
    # the position's window, once they are all ready (nobody passes it before the checks)
    for _ in range(100):
        snaps = {s: snapshot(p) for s, p in pages.items()}
        window = sorted(snaps[0]["view"].get("pending", {}).get("window") or [])
        if len(window) >= 2 and set(window) <= set(pages) \
                and all(snaps[s].get("may_pass") for s in window):
            break
        for p in pages.values():
            press_ready(p)
        pages[0].wait_for_timeout(100)
    else:
        raise AssertionError(f"no window for people alone: {snapshot(pages[0])['view']}")
    first, second = (pages[s] for s in window[:2])
    # the window's clock sits in the middle of the table: its name, the seconds, a bar
    clock = first.locator(".tableclocks [role=timer]").first
    label = clock.get_attribute("aria-label")
    assert label in {"Doubt window", "Protection window", "Window to declare it illegal",
                     "Fine window", "Forgiveness window"}, label
    assert re.fullmatch(r"◷ \d+ s", clock.locator(".clock-text").inner_text())
    assert clock.locator(".bar").is_visible()
    # inside its box in the table's centre, however narrow that is
    box, bar = first.locator(".tableclocks").bounding_box(), clock.locator(".bar").bounding_box()
    assert box["x"] <= bar["x"] and bar["x"] + bar["width"] <= box["x"] + box["width"], (box, bar)
    assert first.locator(".actions h2").inner_text().startswith("⚡ You may act now")
    assert violations(first) == []
    # reduced motion: no bar that moves, the seconds stay
    first.emulate_media(reduced_motion="reduce")
    assert clock.locator(".bar").is_hidden() and clock.locator(".clock-text").is_visible()
    first.emulate_media(reduced_motion="no-preference")
    # the first passes: they see it, the second sees it on their seat and by the clock
    first.click("#pass-btn")
    first.wait_for_selector("text=You passed.")
    assert first.locator("#pass-btn").count() == 0
    second.wait_for_function(
        f"() => (window.spieltisch.snapshot().passed || []).includes({window[0]})")
    assert "✔ passed" in second.locator(f".seat[data-seat='{window[0]}']").inner_text()
    assert f"Passed: {names[window[0]]}" in second.locator(".tableclocks").inner_text()
    second.screenshot(path=str(artifacts / "hoax-window.png"), full_page=True)
    # the others pass; the last one's pass closes the window at once (its timer's action)
    last = pages[window[-1]]
    before = applied(last)
    for s in window[1:]:
        pages[s].click("#pass-btn")
    last.wait_for_function(f"() => +document.querySelector('#app').dataset.applied > {before}")
    first.wait_for_selector("text=You passed.", state="detached")
    for page in pages.values():
        page.context.close()
