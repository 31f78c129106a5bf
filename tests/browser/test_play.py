"""Every game in every language played from the browser against bots: Hockey and
President to their end, the others through at least a full round. What a player reads
(log and board) has no raw data, the page's own texts are in the chosen language, and a
screenshot of each table is kept in ``results/browser/<game>-<lang>.png``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from spieltisch.server.loopback import LoopbackServer

from .helpers import (
    LOG_HEADING,
    assert_readable,
    board_texts,
    create,
    log_lines,
    new_page,
    play,
    sit,
    wait_started,
)

# game, seats, table options (short reaction times, no move timer: a test clicks fast
# but must never lose to a shared machine's pauses), how far to play
GAMES: list[tuple[str, list[str], dict[str, Any], str]] = [
    ("hockey", ["human", "bot:easy"], {}, "end"),
    ("president", ["human", "bot:easy", "bot:easy", "bot:easy"], {}, "end"),
    ("hood_politix", ["human", "bot:easy", "bot:easy"], {"move_seconds": 0.0}, "round"),
    ("pixmit", ["human", "bot:easy", "bot:easy"], {}, "round"),
    ("hoax", ["human", "bot:easy", "bot:easy", "bot:easy"], {"reaction_seconds": 0.3}, "round"),
]
LANGS = ["en", "de", "nl"]


def _next_round(snap: dict[str, Any]) -> bool:
    return int(snap["view"].get("round", 1)) >= 2


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("game", "seats", "options", "until"), GAMES, ids=[g[0] for g in GAMES])
def test_a_game_in_each_language(quick_server: LoopbackServer, browser: Any, artifacts: Path,
                                 game: str, seats: list[str], options: dict[str, Any],
                                 until: str, lang: str) -> None:
    code = create(quick_server, game, seats, players=len(seats), options=options)
    page = new_page(browser, lang)
    sit(page, quick_server.base, code, "Ada")
    wait_started(page)
    assert page.evaluate("() => document.documentElement.lang") == lang
    assert page.locator("#log-h").inner_text() == LOG_HEADING[lang]
    moves = play(page, (lambda s: False) if until == "end" else _next_round, seconds=150)
    assert moves > 0
    if until == "end":
        page.wait_for_selector("section.result")
        assert page.locator("#app").get_attribute("data-over") == "true"
        # the game-over screen: standings by name, and nobody is waited for any more
        standings = page.locator(".standings li").all_inner_texts()
        assert len(standings) == len(seats) and any("Ada" in s for s in standings)
        assert page.locator("section.actions").count() == 0
    lines = log_lines(page)
    assert len(lines) > moves  # the bots' moves and the deals are told too
    assert_readable(game, lines)
    assert_readable(game, board_texts(page))
    page.screenshot(path=str(artifacts / f"{game}-{lang}.png"), full_page=True)
    page.context.close()
