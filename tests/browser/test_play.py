"""Every registered game in every language played from the browser against bots. In
English, a game whose spec says so (``GameSpec.test_whole_game``) to its end, the others
through a full round, and a game without rounds like a whole game; in the other languages
every game through its first ``STRETCH`` moves (a round's end and the game's end are the
same code in every language: ``test_end`` reads their texts in each, and the narration
tests tell every event in each). What a player reads (log and board) has no raw
data, the page's own texts are in the chosen language, and a screenshot of each table
is kept in ``results/browser/<game>-<lang>.png``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from spieltisch.core.registry import get_spec
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
    snapshot,
    tables,
    wait_started,
)

# game, seats, table options (short reaction times, no move timer: a test clicks fast
# but must never lose to a shared machine's pauses): each game's own (helpers.tables)
GAMES = tables()
LANGS = ["en", "de", "nl"]
#: The moves a table plays in the languages after the first.
STRETCH = 25


def _next_round(snap: dict[str, Any]) -> bool:
    return int(snap["view"].get("round", 1)) >= 2


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("game", "seats", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_a_game_in_each_language(quick_server: LoopbackServer, browser: Any, artifacts: Path,
                                 game: str, seats: list[str], options: dict[str, Any],
                                 lang: str) -> None:
    code = create(quick_server, game, seats, players=len(seats), options=options)
    page = new_page(browser, lang)
    sit(page, quick_server.base, code, "Ada")
    wait_started(page)
    assert page.evaluate("() => document.documentElement.lang") == lang
    assert page.locator("#log-h").inner_text() == LOG_HEADING[lang]
    # a view without a round number: the game is one long round
    whole = get_spec(game).test_whole_game or "round" not in snapshot(page)["view"]
    stretch = lang != LANGS[0]
    moves = play(page, (lambda s: False) if whole else _next_round, seconds=150,
                 most=STRETCH if stretch else None)
    assert moves > 0
    over = bool(snapshot(page).get("over"))  # a game without rounds plays to its end
    assert over or not whole or stretch
    if over:
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
