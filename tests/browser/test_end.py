"""The end of a game in the browser (issue 34, item 5): two people finish a Hockey game set
up four cards before its end, the score sheet on the result shows the engine's numbers
(in English and German, readable at phone width), "Rematch" on one screen shows who has
accepted on the other, and the second acceptance moves both into the new table (seats
rotated), where the rematch is played to its first move. "New table" fills the lobby's
form like the old table; the replay's last step shows the sheet too."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from spieltisch.server.loopback import LoopbackServer

from .helpers import new_page, own_seat, play, press_ready, sit, snapshot, wait_started

#: Hockey in period 3, two cards in each hand and none in the stock: four plays end the
#: game, 3 goals to at most 1 (no overtime).
POSITION: dict[str, Any] = {
    "format": "spieltisch-position", "version": 1, "game": "hockey", "players": 2,
    "options": {}, "move": 152, "chance": {"seed": 7},
    "state": {
        "period": 3, "dealer": 0, "breakaway": None, "stock": [],
        "seats": [{"hand": ["AH", "9H"], "goals": [0, 2, 1]},
                  {"hand": ["2C", "5D"], "goals": [0, 0, 0]}],
        "pile": ["2S", "AD", "QD", "JD", "7C", "JS", "2D", "6H", "KS", "9D", "AS", "KH", "KC",
                 "3S", "8D", "10D", "3H", "4D", "3C", "8S", "8C", "JH", "7D", "7S", "QH",
                 "10C", "4H", "KD", "10S", "QC", "8H", "3D", "6C", "6D", "JC", "4C", "7H",
                 "6S", "5C", "5H", "4S", "AC", "5S", "9C", "QS", "9S", "10H", "2H"]},
}


def number(cell: str) -> int:
    """A score cell's number ("★ 3", "−5")."""
    return int(cell.replace("★", "").replace("−", "-").strip())


def violations(page: Any, where: str) -> list[str]:
    """axe-core's violations of any impact inside ``where``."""
    axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe()
    found = axe.run(page, context=where).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']}" for v in found]


def play_until_over(pages: list[Any], seconds: float = 60) -> None:
    """Whoever must act makes their first move, until the game is over on every page."""
    deadline = time.monotonic() + seconds
    while not all(p.locator("#app").get_attribute("data-over") == "true" for p in pages):
        assert time.monotonic() < deadline, "the game did not end"
        for page in pages:
            press_ready(page)
            if page.locator("#app").get_attribute("data-required") == "true":
                play(page, lambda s: not s.get("required"), seconds=10, most=1)
        time.sleep(0.05)


def sheet_numbers(page: Any) -> tuple[list[list[int]], list[int]]:
    """The score sheet as the page shows it: each round's points per seat, and the totals."""
    rows = page.locator("table.scoresheet tbody tr").evaluate_all(
        "rs => rs.map(r => [...r.querySelectorAll('td')].map(td => td.innerText))")
    total = page.locator("table.scoresheet tfoot tr.total td").all_inner_texts()
    n = len(total) - 1  # the last column names who won
    return [[number(c) for c in r[:n]] for r in rows], [number(c) for c in total[:n]]


def test_the_score_sheet_and_a_rematch_to_its_first_move(server: LoopbackServer,
                                                          browser: Any) -> None:
    r = httpx.post(f"{server.base}/api/tables", json={
        "game": "hockey", "seats": ["human", "human"], "position": POSITION}, timeout=20)
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    a, b = new_page(browser, "en"), new_page(browser, "de")
    assert sit(a, server.base, code, "Ada") == 0
    assert sit(b, server.base, code, "Ben") == 1
    wait_started(a)
    wait_started(b)
    play_until_over([a, b])
    for page in (a, b):
        page.wait_for_selector("section.result table.scoresheet")
    # the sheet's numbers are the engine's result: its rows add up to it, seat by seat
    snap = snapshot(a)
    result, sheet = snap["result"], snap["sheet"]
    assert sheet["scores"] == result["scores"] and sheet["ranks"] == result["ranks"]
    assert result["scores"][0] >= 3 and result["winner"] == 0
    rows, totals = sheet_numbers(a)
    assert totals == [int(x) for x in result["scores"]]
    assert [sum(col) for col in zip(*rows, strict=True)] == totals
    assert rows == [r["points"] for r in sheet["rounds"]] and len(rows) == 3
    assert a.locator("table.scoresheet caption").inner_text() == "Goals per period"
    assert b.locator("table.scoresheet caption").inner_text() == "Tore pro Periode"
    assert b.locator("table.scoresheet thead th").all_inner_texts() == [
        "Runde", "Ada", "Ben (du)", "Gewonnen von"]
    assert sheet_numbers(b) == (rows, totals)
    assert "4 Züge" in b.locator(".sheetlength").inner_text()
    assert violations(b, "section.result") == []
    # at phone width the sheet stays in its own box (it scrolls there, not the page)
    a.set_viewport_size({"width": 390, "height": 844})
    box = a.locator(".sheetbox").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    a.set_viewport_size({"width": 1100, "height": 900})

    # Ada asks for a rematch: Ben's screen says so and still offers him the choice
    a.click("button[data-end=rematch]")
    b.wait_for_selector(".rematch :text('Angenommen: Ada')")
    assert b.locator("button[data-end=rematch]").inner_text() == "Revanche"
    a.wait_for_selector(".rematch :text('Waiting for Ben to answer.')")
    assert a.locator("button[data-end=rematch]").count() == 0
    assert violations(b, "section.result") == []
    b.click("button[data-end=rematch]")
    for page in (a, b):  # both move to the new table
        page.wait_for_function(f"() => location.pathname.startsWith('/t/') "
                               f"&& location.pathname !== '/t/{code}'")
    new = a.evaluate("() => location.pathname.split('/')[2]")
    assert b.evaluate("() => location.pathname.split('/')[2]") == new
    assert (own_seat(a, new), own_seat(b, new)) == (1, 0)  # one seat further on
    for page in (a, b):  # the new page has drawn the new table (the old page is gone)
        page.wait_for_function("() => window.spieltisch?.snapshot()?.status === 'playing'")
    wait_started(a)
    wait_started(b)
    status = httpx.get(f"{server.base}/api/tables/{new}", timeout=20).json()
    assert status["names"] == ["Ben", "Ada"] and status["rematch_of"] == code
    # the rematch, to its first move
    first = next(p for p in (a, b) if p.locator("#app").get_attribute("data-required") == "true")
    assert play(first, lambda s: False, seconds=10, most=1) == 1
    first.wait_for_function("() => +document.querySelector('#app').dataset.applied >= 1")

    # the old table links to the new one; "New table" fills the lobby's form like it
    a.goto(f"{server.base}/t/{code}")
    link = a.locator("#rematch-link")
    link.wait_for()
    assert link.get_attribute("href") == f"/t/{new}"
    a.click("a[data-focus-key='end:new']")
    a.wait_for_selector("#c-like")
    assert a.locator("#c-game").input_value() == "hockey"
    assert a.locator("#c-players").input_value() == "2"
    assert a.locator(".seat-kind[data-seat='1']").input_value() == "human"
    # the replay's last step ends with the sheet
    a.goto(f"{server.base}/r/{code}")
    a.wait_for_selector("#app[data-step='0']")
    a.keyboard.press("End")
    a.wait_for_selector("#r-step table.scoresheet")
    assert a.locator("#r-step table.scoresheet caption").inner_text() == "Goals per period"
    for page in (a, b):
        page.context.close()
