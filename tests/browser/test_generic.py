"""A game without a browser module of its own (no ``client.js`` in its package) is drawn
by the core's generic table (``static/games/generic.js``) and plays to its end there:
the lobby lists it with ``client: null``, the page asks for no module of the game, the
hand shows the view's cards by their codes, every seat its card count, and the result
names every player. The suite's example game is such a game; any registered game
without a module is played here too (none is named: the registry says which)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import httpx
import pytest

from spieltisch.core.registry import client_module, game_names
from spieltisch.server.loopback import LoopbackServer

from .helpers import (
    assert_readable,
    board_texts,
    create,
    log_lines,
    new_page,
    play,
    sit,
    tables,
    wait_ready_for,
    wait_started,
)

#: The registered games without a module of their own, at their browser tables.
GENERIC = [t for t in tables() if client_module(t[0]) is None]

#: What the page shows of the table, in one look (bots move meanwhile): the snapshot it
#: drew, the hand's card texts and each seat's facts.
READ = """() => ({
  snap: window.spieltisch.snapshot(),
  hand: [...document.querySelectorAll('.handcards .card')].map((c) => c.textContent.trim()),
  seats: [...document.querySelectorAll('.seat[data-seat]')]
    .map((s) => [+s.dataset.seat, s.textContent]),
})"""


def test_the_suite_has_a_game_for_the_generic_table() -> None:
    """The example game (registered by the suite's conftest) has no module: the generic
    table is played in this suite, not only promised."""
    assert GENERIC, f"every game of {game_names()} has a client.js"


@pytest.mark.parametrize(("game", "seats", "options"), GENERIC, ids=[g[0] for g in GENERIC])
def test_a_game_without_a_module_plays_to_its_end(quick_server: LoopbackServer, browser: Any,
                                                  game: str, seats: list[str],
                                                  options: dict[str, Any]) -> None:
    listed = {g["name"]: g for g in httpx.get(f"{quick_server.base}/api/games").json()}
    assert listed[game]["client"] is None
    code = create(quick_server, game, seats, players=len(seats), options=options, seed=3)
    page = new_page(browser)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    sit(page, quick_server.base, code, "Ada")
    wait_started(page)
    wait_ready_for(page, "#app[data-required=true]")

    # the generic table: the hand by its codes, each seat's cards counted
    seen = page.evaluate(READ)
    view = seen["snap"]["view"]
    assert Counter(seen["hand"]) == Counter(map(str, view["hand"]))
    sizes = view.get("hand_sizes") or view.get("hand_counts")
    assert isinstance(sizes, list) and len(seen["seats"]) == len(seats)
    for s, text in seen["seats"]:
        n = sizes[s]
        assert (f"{n} card" if n == 1 else f"{n} cards") in text, (s, text)

    moves = play(page, lambda s: False, seconds=150)
    assert moves > 0
    page.wait_for_selector("section.result")
    assert page.locator("#app").get_attribute("data-over") == "true"
    standings = page.locator(".standings li").all_inner_texts()
    assert len(standings) == len(seats) and any("Ada" in s for s in standings)
    assert page.locator("section.actions").count() == 0
    lines = log_lines(page)
    assert len(lines) > moves
    assert_readable(game, lines)
    assert_readable(game, board_texts(page))
    assert [u for u in asked if "/games/" in u and u.endswith("client.js")] == []
    assert errors == []
    page.context.close()
