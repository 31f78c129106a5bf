"""Issue 34, item 6 in the browser: the lobby offers a seat option by the seat labels the
table uses (never "-1"), a game has one title in the lobby and at the table, and the
Rules dialog offers the quick guide and the full rules in the page's language."""

from __future__ import annotations

from typing import Any

import pytest

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


def test_rules_dialog_offers_the_guide_and_the_full_rules_in_german(
        server: LoopbackServer, browser: Any) -> None:
    """The Rules dialog's two tabs: the quick guide (the default) and the full rules, both
    in the page's language; the tabs are a tablist the keyboard can switch."""
    page = new_page(browser, "de")
    page.goto(server.base)
    page.wait_for_selector("#c-game")
    page.select_option("#c-game", "president")
    page.click("#c-rules")
    page.wait_for_selector("#rules-body h2")
    guide, full = page.locator("#rules-tab-guide"), page.locator("#rules-tab-full")
    assert page.locator("#rules-tabs").get_attribute("role") == "tablist"
    assert (guide.inner_text(), full.inner_text()) == ("Kurzanleitung", "Vollständige Regeln")
    assert guide.get_attribute("aria-selected") == "true"
    assert full.get_attribute("aria-selected") == "false"
    assert page.locator("#rules-title").inner_text() == "So wird gespielt"
    assert "so wird gespielt" in page.locator("#rules-body h2").inner_text()
    full.click()
    page.wait_for_selector("#rules-body h2:has-text('vollständige Spielregeln')")
    assert full.get_attribute("aria-selected") == "true"
    assert page.locator("#rules-body").get_attribute("aria-labelledby") == "rules-tab-full"
    assert page.locator("#rules-title").inner_text() == "Regeln"
    body = page.locator("#rules-body").inner_text()
    assert "Überspringen" in body and "Bettler" in body and "[DECISION]" not in body
    axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe()
    serious = [v["id"] for v in axe.run(page).response["violations"]
               if v["impact"] in ("serious", "critical")]
    assert serious == []
    # the arrow keys go back to the guide, and the focus follows
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#rules-body h2:has-text('so wird gespielt')")
    assert guide.get_attribute("aria-selected") == "true"
    assert page.evaluate("() => document.activeElement.id") == "rules-tab-guide"
    page.click("#rules-close")
    page.context.close()
