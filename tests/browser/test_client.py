"""The browser client in a real browser: the lobby, seats, reloads, spectators, rules,
keyboard play, Hood Politix's warning before a penalised attempt, phones, replays."""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

from spieltisch.server.loopback import LoopbackServer

from .helpers import (
    TIMEOUT_MS,
    assert_readable,
    card_codes,
    create,
    log_lines,
    new_page,
    own_seat,
    play,
    press_ready,
    record_frames,
    sit,
    snapshot,
    tables,
    wait_ready_for,
    wait_started,
)


def play_both(a: Any, b: Any, moves: int, seconds: float = 30) -> None:
    """Two people at one table: whoever must act makes their first move, ``moves`` in all."""
    made = 0
    deadline = time.monotonic() + seconds
    while made < moves:
        assert time.monotonic() < deadline, f"only {made} of {moves} moves"
        for page in (a, b):
            press_ready(page)  # after a Politix pause the clocks wait for both again
            if page.locator("#app").get_attribute("data-required") == "true":
                made += play(page, lambda s: not s.get("required"), seconds=10, most=1)
        time.sleep(0.05)


def test_lobby_defaults_and_a_bad_player_count(server: LoopbackServer, browser: Any) -> None:
    page = new_page(browser)
    page.goto(server.base + "/")
    page.select_option("#c-game", "hockey")
    # the creator's seat is a person, every other seat a bot of a level a player chooses by
    assert " ".join(page.locator("#c-seats .seatrow").first.inner_text().split()) == "Seat 1 you"
    bot = page.locator(".seat-kind[data-seat='1']")
    assert bot.input_value() == "bot:medium"
    levels = bot.locator("option").evaluate_all("os => os.map(o => o.value)")
    assert levels == ["human", "bot:easy", "bot:medium", "bot:hard"]
    assert page.locator("#c-levels dd").count() == 3
    abouts = page.locator("#c-levels dd").all_inner_texts()
    assert all("never see hidden cards" in about for about in abouts)
    # options by their label and help, never the raw name
    assert page.locator("label[for='opt-first_dealer']").inner_text() == "First dealer"
    assert "first_dealer" not in page.locator("#c-options").inner_text()
    # 99 players: the server's own words, not a silently smaller table
    page.fill("#c-players", "99")
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("#create-error:not(:empty)")
    assert page.locator("#create-error").inner_text() == "Hockey is for 2 players."
    assert page.url.rstrip("/") == server.base
    page.fill("#name", "Ada")
    page.fill("#c-players", "2")
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/t/*")
    wait_started(page)  # the bot was there already: the game starts at once
    assert page.locator("#role").inner_text() == "Ada (you)"
    page.context.close()


def test_president_two_people_rules_reload_and_a_spectator(server: LoopbackServer,
                                                           browser: Any) -> None:
    a = new_page(browser)
    b = new_page(browser)
    a.goto(server.base + "/")
    a.fill("#name", "Ada")
    a.select_option("#c-game", "president")
    a.fill("#c-players", "4")
    a.select_option(".seat-kind[data-seat='1']", "human")
    a.select_option(".seat-kind[data-seat='2']", "bot:easy")
    a.select_option(".seat-kind[data-seat='3']", "bot:easy")
    a.click("#create-form button[type=submit]")
    a.wait_for_url("**/t/*")
    code = a.url.rstrip("/").split("/")[-1]
    a.wait_for_selector("text=Waiting for players")
    b.goto(server.base + "/")
    b.wait_for_selector(f"a[href='/t/{code}']")
    assert sit(b, server.base, code, "Bea") == 1
    assert own_seat(a, code) == 0
    wait_started(a)
    wait_started(b)
    # the rules button opens the player guide, and only it: the implementer's rules.md
    # (spec citations, [DECISION] notes, English) is no player's text (issue 34, item 6)
    a.click("#rules-btn")
    a.wait_for_selector("#rules-body h2")
    assert a.locator("#rules-title").inner_text() == "How to play"
    assert "President" in a.locator("#rules-body h2").first.inner_text()
    assert a.locator("#rules-other").count() == 0
    assert "[DECISION]" not in a.locator("#rules-body").inner_text()
    a.click("#rules-close")
    play_both(a, b, moves=4)
    # a reload keeps the seat, the hand and the whole log
    lines = log_lines(a)
    a.reload()
    wait_started(a)
    a.wait_for_function(f"() => document.querySelectorAll('.loglines li').length >= {len(lines)}")
    assert log_lines(a)[-len(lines):] == lines
    assert a.locator("#role").inner_text() == "Ada (you)"
    hand = snapshot(a)["view"]["hand"]
    assert sorted(card_codes(a, ".handcards [data-card]")) == sorted(hand)
    # a spectator sees the table and the log, but no hand
    c = new_page(browser)
    c.goto(f"{server.base}/t/{code}?watch=1")
    wait_started(c)
    view = snapshot(c)["view"]
    assert "hand" not in view and "hands" not in view
    assert c.locator("section.hand").count() == 0 and c.locator(".cardbtn").count() == 0
    # the only faces a spectator sees lie on the table: the pile's top (one look at the page)
    top, shown = c.evaluate("""() => [window.spieltisch.snapshot().view.pile.top,
        [...document.querySelectorAll('[data-card]')].map((e) => e.dataset.card)]""")
    assert sorted(shown) == sorted(top) and not c.locator(".handcards").count()
    assert c.locator("#role").inner_text() == "watching"
    assert len(log_lines(c)) > 0
    for p in (a, b, c):
        p.context.close()


#: Every registered game with two people and easy bots for the other seats.
TWO_PEOPLE = tables(people=2)


@pytest.mark.parametrize(("game", "seats", "options"), TWO_PEOPLE, ids=[g[0] for g in TWO_PEOPLE])
def test_two_players_play(server: LoopbackServer, browser: Any, game: str, seats: list[str],
                          options: dict[str, Any]) -> None:
    code = create(server, game, seats, players=len(seats), options=options)
    a = new_page(browser)
    b = new_page(browser)
    # each page's own seat, as its client keeps it (issue 26: the last message's "seat"
    # is whoever acted last, not the reader)
    assert {sit(a, server.base, code, "Ada"), sit(b, server.base, code, "Bea")} == {0, 1}
    wait_started(a)
    wait_started(b)
    start = int(a.locator("#app").get_attribute("data-applied"))
    play_both(a, b, moves=3)
    assert int(a.locator("#app").get_attribute("data-applied")) >= start + 3
    for page, name in ((a, "Ada"), (b, "Bea")):
        # each seat sees exactly its own cards: its view is its seat's, no other hand in it
        view = snapshot(page)["view"]
        assert view["seat"] == own_seat(page, code) and "hands" not in view
        assert page.locator("#role").inner_text() == f"{name} (you)"
        own = view["hand"] if "hand" in view else [view["identity"]]
        assert page.locator(".handcards .card").count() == len(own)
        if "hand" in view:  # a hand of cards is buttons (HOAX's identity card is not)
            assert Counter(card_codes(page, ".handcards [data-card]")) == Counter(own)
    a.context.close()
    b.context.close()


def test_keyboard_alone_and_accessible_card_names(server: LoopbackServer, browser: Any) -> None:
    code = create(server, "hockey", ["human", "bot:easy"])
    page = new_page(browser)
    sit(page, server.base, code, "Kim")
    wait_started(page)
    page.wait_for_selector("#app[data-required=true]")
    names = page.locator(".hand .cardbtn").evaluate_all(
        "bs => bs.map(b => b.getAttribute('aria-label'))")
    name = re.compile(r"(Ace|Jack|Queen|King|\d+) of (clubs|diamonds|hearts|spades), "
                      r"(playable|not playable now)")
    assert names and all(name.fullmatch(n) for n in names), names
    # Tab to the first card, Enter plays it (a single card is one whole move in Hockey)
    before = int(page.locator("#app").get_attribute("data-applied"))
    page.locator(".hand .cardbtn").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => +document.querySelector('#app').dataset.applied > {before}")
    page.wait_for_selector("#app[data-required=true]")
    # a number key picks an action
    before = int(page.locator("#app").get_attribute("data-applied"))
    label = page.locator(".actions .act").first.inner_text()
    page.keyboard.press("1")
    page.wait_for_function(f"() => +document.querySelector('#app').dataset.applied > {before}")
    assert any(f"Kim plays {label.split()[-1]}" in line for line in log_lines(page))
    page.context.close()


def test_hood_politix_asks_before_a_penalised_attempt(server: LoopbackServer,
                                                      browser: Any) -> None:
    code = create(server, "hood_politix", ["human", "bot:easy", "bot:easy"], players=3,
                  options={"move_seconds": 0.0}, seed=5)
    page = new_page(browser)
    sit(page, server.base, code, "Ada")
    wait_started(page)
    # wait for a turn of ours with a card that is not highlighted
    deadline = time.monotonic() + 30
    while True:
        assert time.monotonic() < deadline, "no turn with an unplayable card"
        wait_ready_for(page, "#app[data-required=true]")
        if page.locator(".hand .cardbtn:not(.usable)").count():
            break
        play(page, lambda s: not s.get("required"), seconds=10, most=1)
    # standing options sit in the toolbar; a required move is no "may act now" prompt
    toolbar = page.locator(".actions [role=toolbar]")
    assert "Call Politix (pause)" in toolbar.inner_text()
    assert page.locator(".actions h2").inner_text().startswith("▶ Your move")
    hand = Counter(snapshot(page)["view"]["hand"])
    before = int(page.locator("#app").get_attribute("data-applied"))
    card = page.locator(".hand .cardbtn:not(.usable)").first
    card.click()
    page.wait_for_selector("#confirm[open]")
    warning = page.locator("#confirm-text").inner_text()
    assert "Not a legal play — attempting it costs 2 cards." in warning
    page.click("#confirm-no")
    page.wait_for_function("() => !document.querySelector('#confirm').open")
    page.wait_for_timeout(300)
    assert int(page.locator("#app").get_attribute("data-applied")) == before
    assert Counter(snapshot(page)["view"]["hand"]) == hand
    # tried anyway: the fault costs the two penalty cards
    page.locator(".hand .cardbtn:not(.usable)").first.click()
    page.click("#confirm-yes")
    page.wait_for_function(f"() => +document.querySelector('#app').dataset.applied > {before}")
    assert sum(Counter(snapshot(page)["view"]["hand"]).values()) == sum(hand.values()) + 2
    assert any("a fault" in line for line in log_lines(page))
    page.context.close()


def test_out_of_turn_prompt_only_for_a_real_window(server: LoopbackServer, browser: Any) -> None:
    """Politix may always be called: that alone never shows "You may act now"; a
    throw-in chance does."""
    code = create(server, "hood_politix", ["human", "human", "bot:easy"], players=3,
                  options={"move_seconds": 0.0}, seed=11)
    a = new_page(browser)
    b = new_page(browser)
    sit(a, server.base, code, "Ada")
    sit(b, server.base, code, "Bea")
    wait_started(a)
    wait_started(b)
    checked = 0
    for _ in range(16):
        deadline = time.monotonic() + 20
        while True:  # the game waits for one of the two people (the bot is quick)
            for p in (a, b):
                press_ready(p)  # after a Politix pause the clocks wait for both again
            required = [p for p in (a, b)
                        if p.locator("#app").get_attribute("data-required") == "true"]
            if required or snapshot(a)["over"]:
                break
            assert time.monotonic() < deadline, "nobody is to act"
            time.sleep(0.05)
        if not required:
            break
        mover = required[0]
        watcher = b if mover is a else a
        snap = snapshot(watcher)
        if not snap["required"]:
            main = [x for x in snap["legal"]
                    if not re.match(r"(politix|end politix|mic check|accuse )", x)]
            heading = watcher.locator("section.actions h2").inner_text()
            assert (watcher.locator("section.actions.prompt").count() == 1) == bool(main)
            assert heading.startswith("⚡ You may act now") == bool(main), (snap["legal"], heading)
            checked += 1
        play(mover, lambda s: not s.get("required"), seconds=10, most=1)
    assert checked >= 8
    a.context.close()
    b.context.close()


def test_a_phone_sized_table(server: LoopbackServer, browser: Any) -> None:
    code = create(server, "hoax", ["human", "bot:easy", "bot:easy", "bot:easy", "bot:easy"],
                  players=5)
    page = new_page(browser, width=390, height=844)
    sit(page, server.base, code, "Ada")
    wait_started(page)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert page.locator("section.hand").is_visible()
    page.context.close()


def test_readable_at_200_percent_zoom(server: LoopbackServer, browser: Any) -> None:
    """A 1280×900 window at 200% zoom is a 640×450 CSS-pixel page at scale 2."""
    code = create(server, "president", ["human", "bot:easy", "bot:easy", "bot:easy"], players=4)
    ctx = browser.new_context(viewport={"width": 640, "height": 450}, device_scale_factor=2)
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    sit(page, server.base, code, "Zoe")
    wait_started(page)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 640
    assert page.locator("section.felt").is_visible()
    assert page.get_by_text("Your hand").is_visible()
    ctx.close()


def test_replay_steps_and_download(server: LoopbackServer, browser: Any, artifacts: Path) -> None:
    code = create(server, "hockey", ["bot:easy", "bot:easy"], seed=7)
    deadline = time.monotonic() + 30
    while httpx.get(f"{server.base}/api/tables/{code}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bot game did not finish"
        time.sleep(0.2)
    names = httpx.get(f"{server.base}/api/tables/{code}").json()["names"]
    page = new_page(browser)
    page.goto(f"{server.base}/")
    # finished games name their players and the winner
    entry = page.locator("li", has=page.locator(f"a[href='/r/{code}']"))
    assert all(n in entry.inner_text() for n in names)
    assert re.search(rf"winner: ({names[0]}|{names[1]})", entry.inner_text())
    page.click(f"a[href='/r/{code}']")
    page.wait_for_selector("#app[data-step='0']")
    assert page.locator("#stepno").inner_text().startswith("Step 0 of ")
    assert "All hands" in page.locator("#r-board").inner_text()  # the full view
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.locator("#stepno").inner_text().startswith("Step 2 of ")
    page.select_option("#viewer", "1")
    page.wait_for_function(
        "() => !document.querySelector('#r-board').textContent.includes('All hands')")
    assert f"Hand of {names[1]}" in page.locator("#r-board").inner_text()
    page.click("#last")
    assert_readable("hockey", [page.locator(p).inner_text() for p in ("#r-step", "#r-board")])
    page.screenshot(path=str(artifacts / "replay.png"), full_page=True)
    steps = httpx.get(f"{server.base}/api/tables/{code}/replay/steps?seat=1").json()
    rep = httpx.get(f"{server.base}/api/tables/{code}/replay").json()
    assert steps["total"] == len(rep["actions"]) + 1
    page.context.close()


def test_the_language_switch_is_kept_and_retells_the_log(server: LoopbackServer,
                                                         browser: Any) -> None:
    code = create(server, "hockey", ["human", "bot:easy"])
    page = new_page(browser, "en")
    sit(page, server.base, code, "Ada")
    wait_started(page)
    page.wait_for_selector(".loglines li")
    assert "deals" in log_lines(page)[-1]
    page.click("#lang button[data-lang=de]")
    page.wait_for_function(
        "() => document.querySelector('#log-h').textContent === 'Was passiert ist'")
    # the server tells the whole history again in German
    page.wait_for_function(
        "() => [...document.querySelectorAll('.loglines li')].at(-1).textContent.includes('gibt')")
    assert page.locator("#lang button[data-lang=de]").get_attribute("aria-pressed") == "true"
    page.reload()
    wait_started(page)
    assert page.locator("#log-h").inner_text() == "Was passiert ist"
    assert page.evaluate("() => localStorage.getItem('spieltisch.lang')") == "de"
    page.goto(server.base + "/")
    page.wait_for_selector("#create-form")
    assert page.locator("#new-h").inner_text() == "Neuer Tisch"
    page.context.close()


def test_a_move_lost_with_the_connection_goes_again(server: LoopbackServer,
                                                    browser: Any) -> None:
    """The connection drops as a move goes out, before the server has it: after the
    reconnect the picture is still where the move was made, so the page sends it again;
    the server applies it once."""
    code = create(server, "hockey", ["human", "human"], seed=7)
    drop = {"armed": False, "dropped": []}

    def route(ws: Any) -> None:
        upstream = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            if drop["armed"] and '"action"' in str(message):
                drop["armed"] = False
                drop["dropped"].append(message)
                ws.close()  # the page sees its socket close; the server never saw the move
                upstream.close()
                return
            upstream.send(message)
        ws.on_message(to_server)

    pages = [new_page(browser), new_page(browser)]
    pages[0].route_web_socket(re.compile(r".*/ws/.*"), route)
    frames = record_frames(pages[0])
    seats = [sit(page, server.base, code, name)
             for page, name in zip(pages, ("Ada", "Bea"), strict=True)]
    for page in pages:
        wait_started(page)
    due = next(p for p in pages if snapshot(p)["required"])
    if due is not pages[0]:  # the other makes one move: now the routed page is due
        due.keyboard.press("1")
        pages[0].wait_for_function("() => window.spieltisch.snapshot().required")
    before = int(pages[0].locator("#app").get_attribute("data-applied"))
    drop["armed"] = True
    pages[0].keyboard.press("1")
    pages[0].wait_for_function(
        f"() => +document.querySelector('#app').dataset.applied > {before}")
    assert len(drop["dropped"]) == 1
    action = json.loads(drop["dropped"][0])["action"]
    # applied once, as pressed: the one update of that move tells its sender the action
    told = [f for f in frames["received"] if f["type"] == "update" and f["index"] == before]
    assert [(f["seat"], f["action"]) for f in told] == [(seats[0], action)]
    for page in pages:
        page.context.close()
