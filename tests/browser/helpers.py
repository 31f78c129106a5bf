"""What the browser tests share: pages, tables, playing from the page, reading it back."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

import httpx

from spieltisch.server.loopback import LoopbackServer

TIMEOUT_MS = 20_000

#: The log heading in each language: the page's own texts are translated.
LOG_HEADING = {"en": "What happened", "de": "Was passiert ist", "nl": "Wat er gebeurde"}

#: Signs of raw data reaching a player: code syntax, a JavaScript value, a snake_case key
#: ("hand_sizes", "mic_drop_window"), a code word of the engine ("settle-protect").
RAW = re.compile(r"[={}\[\]]|\bundefined\b|\bnull\b|\bNaN\b|\[object|\b[a-z0-9]+_[a-z0-9_]+\b"
                 r"|\b(?:mic-check|mic-drop|settle-protect|prime_minister)\b")
#: Card codes the games use internally (their names must be shown instead).
RAW_CARDS = {
    "president": re.compile(r"\b(?:10|[2-9AJQK])[CDHS]\b|\bJK[12]\b"),
    "hockey": re.compile(r"\b(?:10|[2-9AJQK])[CDHS]\b"),
    "hood_politix": re.compile(r"\b[GOPY](?:10|[1-9]|DU|BU|PB|50|IY|PS|DL|SN)[ab]?\b"),
    "pixmit": re.compile(r"\b(?:offer|claim|return|target) (?:\d|none)"),
    "hoax": re.compile(r"\b(?:baron|monk|judge|merchant|magician|thief|farmer) "
                       r"(?:tax|steal|trade)\b"),
}


def new_page(browser: Any, lang: str = "en", width: int = 1100, height: int = 900) -> Any:
    """A fresh browser context (its own localStorage) whose Accept-Language is ``lang``."""
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale=lang)
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


def wait_started(page: Any) -> None:
    page.wait_for_selector("section.felt")


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
        if snap and snap.get("required") and snap.get("legal"):
            if key:
                page.keyboard.press("1")
            else:
                page.locator(".actions .act:not(.standing)").first.click()
            moves += 1
        try:
            page.wait_for_function(
                f"""() => {{ const d = document.querySelector('#app').dataset;
                    return +d.applied > {before} || d.over === 'true'; }}""", timeout=10_000)
        except Exception as e:
            box = page.locator("#toast")
            toast = box.inner_text() if box.is_visible() else ""
            now = snapshot(page) or {}
            raise AssertionError(
                f"no progress after move {moves}: toast {toast!r}, page {app_state(page)}, "
                f"required {now.get('required')}, legal {now.get('legal')}, "
                f"over {now.get('over')}") from e


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
    for text in texts:
        bad = RAW.search(text)
        assert bad is None, f"raw data {bad.group()!r} in {text!r}"
        code = RAW_CARDS[game].search(text)
        assert code is None, f"card code {code.group()!r} in {text!r}"
