"""axe-core (axe-playwright-python) on the lobby, a table of each game and the replay
page: no violation of any impact. Also: every client text is in the catalog."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest

from spieltisch import catalogs
from spieltisch.core.registry import client_module, game_names
from spieltisch.server.loopback import LoopbackServer

from .helpers import create, new_page, sit, tables, wait_ready_for, wait_started


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


#: Every registered game's table: a person and easy bots, the game's test options.
TABLES = tables()


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
    """Each t("…") / tn("…", "…", n) literal of the client reaches its catalog: the core
    client's reach `client`, a game module's its package's `<game>.client` (the extractor
    skips texts inside a quoted HTML attribute of a template string: keep them in a
    variable)."""
    extracted = catalogs.extract()
    call = re.compile(r"""\btn?\(\s*(['"])((?:(?!\1).|\\.)*)\1""")
    missing = []
    modules = [p for p in catalogs.source_files()
               if p.suffix == ".js" and not p.name.endswith(".esm.js")]
    assert {catalogs.domain_of(p) for p in modules} >= {"client"} | {
        f"{g}.client" for g in game_names() if client_module(g)}
    for path in modules:
        domain = extracted.get(catalogs.domain_of(path), {})
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.lstrip().startswith("//"):
                continue
            for _, text in call.findall(line):
                if text.replace("\\'", "'") not in domain:
                    missing.append(f"{path.relative_to(catalogs.PACKAGE)}: {text!r}")
    assert missing == []
