"""Issue 34, item 6 in the browser: the lobby offers a seat option by the seat labels the
table uses (never "-1"), and a game has one title in the lobby and at the table."""

from __future__ import annotations

from typing import Any

from spieltisch.server.loopback import LoopbackServer

from .helpers import create, new_page


def test_seat_options_and_titles_in_german(server: LoopbackServer, browser: Any) -> None:
    page = new_page(browser, "de")
    page.goto(server.base)
    page.wait_for_selector("#c-game")
    page.select_option("#c-game", "president")
    page.fill("#c-players", "4")
    page.dispatch_event("#c-players", "input")
    lead = page.locator("#opt-first_leader")
    words = lead.locator("option").all_inner_texts()
    assert words == ["ein zufälliger Platz", "Platz 1", "Platz 2", "Platz 3", "Platz 4"]
    assert lead.input_value() == "-1"
    assert "-1" not in page.locator("#c-options").inner_text()
    # more players, more seats to choose; the choice stays
    lead.select_option("2")
    page.fill("#c-players", "6")
    page.dispatch_event("#c-players", "input")
    assert lead.locator("option").all_inner_texts()[-1] == "Platz 6"
    assert lead.input_value() == "2"
    lobby_title = page.locator("#c-game option[value=president]").inner_text()
    # the table names the game as the lobby does
    code = create(server, "president", ["human", *["bot:medium"] * 3], players=4)
    page.goto(f"{server.base}/t/{code}?watch=1")
    page.wait_for_selector("#app h1")
    assert page.locator("#app h1").first.inner_text().startswith(f"{lobby_title} · ")
    page.context.close()
