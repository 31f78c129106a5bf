"""Meeting people in the browser (issue 39): two people wait for Hockey on the lobby's
waiting list and both land at the same table, each at a seat of their own; a person's
games page passes axe-core on a phone."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest

from spieltisch.server.loopback import LoopbackServer

from .helpers import new_page, own_seat, wait_started


def test_two_people_on_the_waiting_list_meet_at_one_table(server: LoopbackServer,
                                                          browser: Any) -> None:
    ada, bo = new_page(browser), new_page(browser, "de")
    for page, name in ((ada, "Ada"), (bo, "Bo")):
        page.goto(server.base + "/")
        page.wait_for_selector("#meet-form")
        page.fill("#name", name)
        page.select_option("#m-game", "hockey")
    ada.click("#m-wait")
    ada.wait_for_selector("#m-status .note")  # on the list, alone
    assert ada.locator("#m-status .note").inner_text() == (
        "On the waiting list for Hockey (2 players): 1 waiting. The table starts when "
        "enough people wait.")
    bo.click("#m-wait")  # the second: a table for both
    bo.wait_for_url("**/t/*")
    ada.wait_for_url("**/t/*")
    code = bo.url.rsplit("/", 1)[1]
    assert ada.url.rsplit("/", 1)[1] == code
    wait_started(ada, ready=False)
    wait_started(bo, ready=False)
    assert sorted([own_seat(ada, code), own_seat(bo, code)]) == [0, 1]
    info = httpx.get(f"{server.base}/api/tables/{code}", timeout=10).json()
    assert info["names"] == ["Ada", "Bo"] and info["status"] == "playing"
    ada.context.close()
    bo.context.close()


def test_a_persons_games_page_on_a_phone(server: LoopbackServer, browser: Any) -> None:
    name = f"p{uuid.uuid4().hex[:8]}"
    r = httpx.post(f"{server.base}/api/account/signup",
                   json={"name": name, "password": "secret-password"}, timeout=20)
    assert r.status_code == 201, r.text
    page = new_page(browser, "nl", width=360, height=740)
    page.goto(f"{server.base}/u/{name}/games?result=won")
    page.wait_for_selector("#h-filters")
    assert page.locator("#h-result").input_value() == "won"
    assert page.locator("#h-count").inner_text() == "Geen spellen gevonden."
    # the page's own part (the header is the accounts' and test_a11y's)
    axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe()
    found = axe.run(page, context="#app").response["violations"]
    assert [f"{v['id']}: {[n['target'] for n in v['nodes']][:3]}" for v in found] == []
    page.context.close()
