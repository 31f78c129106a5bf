"""The replay viewer pages through a long game's steps (issue 41, item 5): the server
sends them in pages, the viewer fetches the page of each step it shows."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from spieltisch.server.loopback import LoopbackServer

from .conftest import NO_ADDRESS_LIMITS
from .helpers import create, new_page


@pytest.fixture(scope="module")
def paged_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoopbackServer]:
    """Pages of 20 steps: any game has several."""
    from spieltisch.server import ServerConfig

    db = tmp_path_factory.mktemp("browser-pages") / "server.sqlite3"
    config = ServerConfig(db_url=f"sqlite:///{db}", replay_page_steps=20, **NO_ADDRESS_LIMITS)
    with LoopbackServer(config, timeout=30.0) as srv:
        yield srv


def test_the_replay_viewer_fetches_the_page_of_every_step_it_shows(
        paged_server: LoopbackServer, browser: Any) -> None:
    """A finished Hockey game of bots: the viewer counts every step of the game, shows
    the last one (its page fetched, with the score sheet), steps back across a page's
    start, and after a change of viewer shows that seat's page of the same step."""
    base = paged_server.base
    code = create(paged_server, "hockey", ["bot:easy", "bot:easy"], seed=7)
    deadline = time.monotonic() + 30
    while httpx.get(f"{base}/api/tables/{code}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bot game did not finish"
        time.sleep(0.2)
    first = httpx.get(f"{base}/api/tables/{code}/replay/steps").json()
    total = first["total"]
    assert first["limit"] == 20 and total > 60
    fetched: list[str] = []
    page = new_page(browser)
    page.on("request", lambda r: fetched.append(r.url) if "/replay/steps" in r.url else None)
    page.goto(f"{base}/r/{code}")
    page.wait_for_selector("#app[data-step='0']")
    assert page.locator("#stepno").inner_text() == f"Step 0 of {total - 1}"
    page.click("#last")
    page.wait_for_selector(f"#app[data-step='{total - 1}']")
    assert "Score sheet" in page.locator("#r-step").inner_text()
    last_start = (total - 1) // 20 * 20
    for _ in range(total - last_start):  # back over the page's first step
        page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f"#app[data-step='{last_start - 1}']")
    page.select_option("#viewer", "1")
    page.wait_for_function(
        "() => !document.querySelector('#r-board').textContent.includes('All hands')")
    assert page.locator("#app").get_attribute("data-step") == str(last_start - 1)
    assert "Hand of" in page.locator("#r-board").inner_text()
    starts = [int(u.split("from=")[1].split("&")[0]) for u in fetched]
    assert starts[0] == 0 and last_start in starts and last_start - 20 in starts
    assert any("seat=1" in u and f"from={last_start - 20}" in u for u in fetched)
    assert len(fetched) < total // 20 + 4, "pages fetched only where a step is shown"
    page.context.close()


@pytest.fixture(scope="module")
def bounded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoopbackServer]:
    """Tables end at 10 actions."""
    from spieltisch.server import ServerConfig

    db = tmp_path_factory.mktemp("browser-bound") / "server.sqlite3"
    config = ServerConfig(db_url=f"sqlite:///{db}", max_table_actions=10, **NO_ADDRESS_LIMITS)
    with LoopbackServer(config, timeout=30.0) as srv:
        yield srv


def test_an_abandoned_table_says_why_in_the_lobby_and_its_replay(
        bounded_server: LoopbackServer, browser: Any) -> None:
    """A table of bots stopped at the length bound: the lobby lists it with the reason in
    the reader's language; its page opens the replay, whose last step says why."""
    base = bounded_server.base
    code = create(bounded_server, "hockey", ["bot:easy", "bot:easy"], seed=7)
    deadline = time.monotonic() + 30
    while httpx.get(f"{base}/api/tables/{code}").json()["status"] != "abandoned":
        assert time.monotonic() < deadline, "the table did not stop"
        time.sleep(0.2)
    page = new_page(browser, "de")
    page.goto(f"{base}/")
    entry = page.locator("li", has=page.locator(f"a[href='/r/{code}']"))
    assert "unvollendet beendet: die längste Partie, die dieser Server spielt" in \
        entry.inner_text()
    page.goto(f"{base}/t/{code}")
    page.wait_for_selector("#app[data-step='0']")  # a spectator of it sees the replay
    page.click("#last")
    page.wait_for_selector("#app[data-step='10']")
    assert "Die Partie wurde nach 10 Aktionen unvollendet beendet" in \
        page.locator("#r-step").inner_text()
    page.context.close()
