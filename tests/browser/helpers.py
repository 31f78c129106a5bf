"""What the browser tests share: pages, tables, playing from the page, reading it back."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

import httpx

from spieltisch.core.registry import game_names, get_spec
from spieltisch.server.loopback import LoopbackServer

TIMEOUT_MS = 20_000

#: The log heading in each language: the page's own texts are translated.
LOG_HEADING = {"en": "What happened", "de": "Was passiert ist", "nl": "Wat er gebeurde"}

#: Signs of raw data reaching a player: code syntax, a JavaScript value, a snake_case key
#: ("hand_sizes", "mic_drop_window"); a game's own code words ("settle-protect") are in
#: its ``GameSpec.raw_codes``.
RAW = re.compile(r"[={}\[\]]|\bundefined\b|\bnull\b|\bNaN\b|\[object|\b[a-z0-9]+_[a-z0-9_]+\b")


def raw_codes(game: str) -> re.Pattern[str] | None:
    """The game's internal codes (cards, actions: ``GameSpec.raw_codes``) whose names must
    be shown instead; None where the game declares none."""
    pattern = get_spec(game).raw_codes
    return re.compile(pattern) if pattern else None


def players(game: str) -> int:
    """The player count of the suite's browser tables: three where the game allows (a bot
    on either side of the person), else the nearest count it allows."""
    spec = get_spec(game)
    return min(max(spec.min_players, 3), spec.max_players)


def tables(people: int = 1) -> list[tuple[str, list[str], dict[str, Any]]]:
    """Every registered game's browser table: ``(game, seats, options)``, ``people`` human
    seats and easy bots for the rest (``players``), its ``GameSpec.test_options``."""
    out = []
    for game in game_names():
        n = players(game)
        out.append((game, ["human"] * people + ["bot:easy"] * (n - people),
                    dict(get_spec(game).test_options)))
    return out


def new_page(browser: Any, lang: str = "en", width: int = 1100, height: int = 900,
             **context: Any) -> Any:
    """A fresh browser context (its own localStorage) whose Accept-Language is ``lang``;
    ``context``: more of its options (``reduced_motion="reduce"``)."""
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale=lang,
                              **context)
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return page


def create(server: LoopbackServer, game: str, seats: list[str], **extra: Any) -> str:
    """A table made over the HTTP API; its code."""
    r = httpx.post(f"{server.base}/api/tables", json={"game": game, "seats": seats, **extra},
                   timeout=20)
    assert r.status_code == 201, r.text
    return str(r.json()["code"])


def sit(page: Any, base: str, code: str, name: str) -> int:
    """Take a free seat at ``code`` through the page; the seat the client keeps."""
    page.goto(f"{base}/t/{code}")
    page.fill("#sit-name", name)
    page.click("#sit button[type=submit]")
    page.wait_for_selector("#app[data-page=table] #role")
    return own_seat(page, code)


def own_seat(page: Any, code: str) -> int:
    """The player's own seat, as the client keeps it (never the last message's actor)."""
    kept = page.evaluate(f"() => localStorage.getItem('spieltisch.seat.{code}')")
    assert kept, f"no seat kept for {code}"
    return int(json.loads(kept)["seat"])


def snapshot(page: Any) -> dict[str, Any]:
    """The latest message the table drew (view, legal actions, labels, log, …)."""
    return page.evaluate("() => window.spieltisch && window.spieltisch.snapshot()")  # type: ignore[no-any-return]


def app_state(page: Any) -> dict[str, str]:
    """What the page shows about the game: applied actions, over, required."""
    return page.evaluate(  # type: ignore[no-any-return]
        "() => ({...document.querySelector('#app').dataset})")


def wait_started(page: Any, ready: bool = True) -> None:
    """The table is drawn; ``ready``: the person then presses "I'm ready" if the clocks
    wait for them (docs/server.md, "Time": nothing runs until every person has)."""
    page.wait_for_selector("section.felt")
    if ready:
        press_ready(page)


def wait_ready_for(page: Any, selector: str, seconds: float = 20.0) -> None:
    """Wait until ``selector`` shows, pressing "I'm ready" whenever the page asks for it
    meanwhile (a Hood Politix pause that ended waits for every person again, and a bot
    may call one at any time)."""
    deadline = time.monotonic() + seconds
    shown = f"document.querySelector({json.dumps(selector)})"
    either = f"() => {shown} || document.querySelector('#ready-btn')"
    pressed = f"() => {shown} || !document.querySelector('#ready-btn')"
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no {selector} after {seconds} s"
        page.wait_for_function(either, timeout=left * 1000)
        if page.locator(selector).count():
            return
        press_ready(page)
        try:  # the button leaves once the server has it (pressing twice is harmless)
            page.wait_for_function(pressed, timeout=2000)
        except Exception:  # it came back at once (a new pause): the loop looks again
            pass


def press_ready(page: Any) -> bool:
    """Press "I'm ready" if the page shows it (its own seat is in ``not_ready``); whether
    it did. One look at the page: the button is drawn from the same snapshot."""
    return page.evaluate(  # type: ignore[no-any-return]
        """() => { const b = document.querySelector('#ready-btn');
                   if (b) b.click(); return Boolean(b); }""")


def play(page: Any, until: Callable[[dict[str, Any]], bool], seconds: float,
         key: bool = True, most: int | None = None) -> int:
    """Make this page's moves (the first action: key 1, or a click) until ``until(snapshot)``,
    the game's end or ``most`` moves; the number of moves made."""
    moves = 0
    deadline = time.monotonic() + seconds
    while True:
        # one look at the page: the picture and its action count must belong together
        snap, before = page.evaluate("""() => [window.spieltisch && window.spieltisch.snapshot(),
                                               +document.querySelector('#app').dataset.applied]""")
        if snap and (snap.get("over") or until(snap)) or moves == most:
            return moves
        assert time.monotonic() < deadline, f"still playing after {seconds} s ({moves} moves)"
        if press_ready(page):  # after a Politix pause the clocks wait for everyone again
            page.wait_for_function("() => !document.querySelector('#ready-btn')")
            continue
        if snap and snap.get("required") and snap.get("legal"):
            if key:
                page.keyboard.press("1")
            else:
                page.locator(".actions .act:not(.standing)").first.click()
            moves += 1
        try:
            page.wait_for_function(
                f"""() => {{ const d = document.querySelector('#app').dataset;
                    return +d.applied > {before} || d.over === 'true'
                        || Boolean(document.querySelector('#ready-btn')); }}""", timeout=10_000)
        except Exception as e:
            box = page.locator("#toast")
            toast = box.inner_text() if box.is_visible() else ""
            now = snapshot(page) or {}
            raise AssertionError(
                f"no progress after move {moves}: toast {toast!r}, page {app_state(page)}, "
                f"required {now.get('required')}, legal {now.get('legal')}, "
                f"over {now.get('over')}") from e


def record_frames(page: Any) -> dict[str, list[dict[str, Any]]]:
    """Every WebSocket message the page sends and receives from now on, decoded."""
    frames: dict[str, list[dict[str, Any]]] = {"sent": [], "received": []}

    def watch(ws: Any) -> None:
        ws.on("framesent", lambda payload: frames["sent"].append(json.loads(payload)))
        ws.on("framereceived", lambda payload: frames["received"].append(json.loads(payload)))

    page.on("websocket", watch)
    return frames


def wait_frame(page: Any, frames: dict[str, list[dict[str, Any]]],
               found: Callable[[dict[str, Any]], bool], after: int = 0,
               seconds: float = 20.0) -> dict[str, Any]:
    """The first message received (after the first ``after`` ones) that ``found`` accepts,
    once it came. What the server said at that moment, whatever follows (a bot may call a
    pause right after it)."""
    deadline = time.monotonic() + seconds
    while True:
        for f in frames["received"][after:]:
            if found(f):
                return f
        assert time.monotonic() < deadline, f"no such message among {frames['received'][after:]}"
        page.wait_for_timeout(50)  # Playwright delivers frame events while it waits


def clocks_started(f: dict[str, Any]) -> bool:
    """The ``state`` the server sends when the clocks start: nobody waited for, timers run."""
    return f["type"] == "state" and f.get("not_ready") == [] and bool(f.get("deadlines"))


def card_codes(page: Any, selector: str) -> list[str]:
    """The card codes of the card buttons ``selector`` finds."""
    return page.locator(selector).evaluate_all(  # type: ignore[no-any-return]
        "bs => bs.map(b => b.dataset.card)")


def board_texts(page: Any) -> list[str]:
    """Every text the table shows besides the log: seats, the middle, hand, actions, result."""
    parts = ["section.felt", "section.hand", "section.actions", "section.result"]
    return [page.locator(p).inner_text() for p in parts if page.locator(p).count()]


def log_lines(page: Any) -> list[str]:
    return [t for t in page.locator(".loglines li").all_inner_texts()]


def assert_readable(game: str, texts: list[str]) -> None:
    """No raw key, JSON, code syntax or internal card code in what a player reads."""
    pattern = raw_codes(game)
    for text in texts:
        bad = RAW.search(text)
        assert bad is None, f"raw data {bad.group()!r} in {text!r}"
        code = pattern.search(text) if pattern else None
        assert code is None, f"card code {code.group()!r} in {text!r}"
