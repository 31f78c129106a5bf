"""Take the screenshots of docs/img: every game's table in the middle of a game, at a
laptop's size (1280×720) and a phone's (390×844), as a new player sees it.

    .venv/bin/python scripts/screenshots.py [--out docs/img] [--lang en] [GAME …]

Each table is a private practice table started from a position (a seeded random game
played to the middle, at a moment when the person at seat 0 is to move), served by a
server on loopback whose bots think for minutes, so the picture holds still. Playwright
drives Debian's chromium (``/usr/bin/chromium``, or ``SPIELTISCH_CHROMIUM``).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

from spieltisch import new_game
from spieltisch.core.game import State
from spieltisch.core.registry import game_names, get_spec
from spieltisch.server import ServerConfig
from spieltisch.server.loopback import LoopbackServer

SIZES = {"desktop": (1280, 720), "phone": (390, 844)}


def middle(game: str, seed: int = 7) -> State[Any]:
    """A seeded random game of ``game`` at its default size, about a third of the way in,
    at a moment when seat 0 is to move."""
    rng = random.Random(seed)
    length_state = new_game(game, seed=seed)
    length = 0
    while not length_state.is_over():
        seat = rng.choice(length_state.may_act())
        length_state.apply(seat, rng.choice(length_state.legal_actions(seat)))
        length += 1
    rng = random.Random(seed)
    state = new_game(game, seed=seed)
    for done in range(length):
        if done >= length // 3 and tuple(state.to_act()) == (0,):
            return state
        seat = rng.choice(state.may_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    raise SystemExit(f"{game}: seat 0 never was to move after a third of the game")


def shoot(srv: LoopbackServer, browser: Any, game: str, out: Path, lang: str) -> list[Path]:
    spec = get_spec(game)
    state = middle(game)
    seats = ["human"] + ["bot:medium"] * (spec.default_players - 1)
    r = httpx.post(f"{srv.base}/api/tables", json={"seats": seats, "position": state.position()},
                   timeout=20)
    r.raise_for_status()
    code = r.json()["code"]
    shots = []
    ctx = browser.new_context(viewport=dict(zip(("width", "height"), SIZES["desktop"],
                                                strict=True)), locale=lang)
    page = ctx.new_page()
    page.goto(f"{srv.base}/t/{code}")
    page.fill("#sit-name", "Ada")
    page.click("#sit button[type=submit]")
    page.wait_for_selector("section.hand")
    ready = page.locator("#ready-btn")
    if ready.count():
        ready.click()
        page.wait_for_function("() => !document.querySelector('#ready-btn')")
    for kind, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(400)  # the layout settles and any glide ends
        path = out / f"table-{game}-{kind}.png"
        page.screenshot(path=str(path))
        shots.append(path)
    ctx.close()
    return shots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="games to shoot (default: all)")
    parser.add_argument("--out", type=Path, default=Path("docs/img"), help="folder of the PNGs")
    parser.add_argument("--lang", default="en", choices=["en", "de", "nl"],
                        help="the page's language")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.games) - set(game_names()))
    if unknown:
        parser.error(f"no such game: {', '.join(unknown)} (games: {', '.join(game_names())})")
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("SPIELTISCH_CHROMIUM", "/usr/bin/chromium")
    if not os.path.exists(chromium):
        parser.error(f"no chromium at {chromium} (scripts/test.sh installs Debian's)")
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        config = ServerConfig(db_url=f"sqlite:///{tmp}/shots.sqlite3", time_scale=100.0,
                              bot_timing=200.0, max_tables_per_client=10_000)
        with LoopbackServer(config, timeout=30.0) as srv, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, headless=True,
                                         args=["--no-sandbox", "--disable-gpu"])
            for game in args.games or game_names():
                for path in shoot(srv, browser, game, args.out, args.lang):
                    print(path)
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
