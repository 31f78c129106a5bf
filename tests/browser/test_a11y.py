"""axe-core (axe-playwright-python) on the lobby, a table of each game and the replay
page: no violation of any impact. Also: every client text is in the catalog."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest

from spieltisch import catalogs
from spieltisch.server.loopback import LoopbackServer

from .helpers import create, new_page, sit, wait_ready_for, wait_started


def violations(page: Any) -> list[str]:
    """The axe-core violations of the page as it is now, of any impact (minor included)."""
    axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe()
    found = axe.run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
            for v in found]


def test_lobby(server: LoopbackServer, browser: Any) -> None:
    page = new_page(browser, "de")
    page.goto(server.base + "/")
    page.wait_for_selector("#create-form")
    assert violations(page) == []
    page.click("#c-rules")
    page.wait_for_selector("#rules-body h2")
    assert violations(page) == []
    page.context.close()


TABLES = [
    ("hockey", ["human", "bot:easy"], {}),
    ("president", ["human", "bot:easy", "bot:easy", "bot:easy"], {}),
    ("hood_politix", ["human", "bot:easy", "bot:easy"], {"move_seconds": 0.0}),
    ("pixmit", ["human", "bot:easy", "bot:easy"], {}),
    ("hoax", ["human", "bot:easy", "bot:easy", "bot:easy"], {}),
]


@pytest.mark.parametrize(("game", "seats", "options"), TABLES, ids=[g[0] for g in TABLES])
def test_a_table(server: LoopbackServer, browser: Any, game: str, seats: list[str],
                 options: dict[str, Any]) -> None:
    code = create(server, game, seats, players=len(seats), options=options)
    page = new_page(browser, "nl")
    sit(page, server.base, code, "Ada")
    wait_started(page)
    wait_ready_for(page, "#app[data-required=true]")  # its actions and hand are shown
    assert violations(page) == []
    page.context.close()


def test_replay_page(server: LoopbackServer, browser: Any) -> None:
    code = create(server, "president", ["bot:easy"] * 4, players=4, seed=2)
    deadline = time.monotonic() + 30
    while httpx.get(f"{server.base}/api/tables/{code}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bot game did not finish"
        time.sleep(0.2)
    page = new_page(browser)
    page.goto(f"{server.base}/r/{code}")
    page.wait_for_selector("#app[data-step='0']")
    page.keyboard.press("ArrowRight")
    assert violations(page) == []
    page.context.close()


def test_every_client_text_is_in_the_catalog() -> None:
    """Each t("…") / tn("…", "…", n) literal of the client reaches the `client` catalog (the
    extractor skips texts inside a quoted HTML attribute of a template string: keep them
    in a variable)."""
    extracted = catalogs.extract()["client"]
    call = re.compile(r"""\btn?\(\s*(['"])((?:(?!\1).|\\.)*)\1""")
    missing = []
    for path in catalogs.source_files():
        if path.suffix != ".js" or path.name.endswith(".esm.js"):
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.lstrip().startswith("//"):
                continue
            for _, text in call.findall(line):
                if text.replace("\\'", "'") not in extracted:
                    missing.append(f"{path.name}: {text!r}")
    assert missing == []
