"""A rated Hockey game between two accounts in two browser contexts (issue 39, "done
when"): both sign up, one makes a rated table, both sit and play it to the end from their
pages; then each rating changed by exactly what OpenSkill gives for that result, and the
profile and leaderboard pages show it (axe-core finds nothing on them)."""

from __future__ import annotations

import json
import uuid
from typing import Any

from openskill.models import PlackettLuce

from spieltisch.server.loopback import LoopbackServer

from .helpers import TIMEOUT_MS, app_state, record_frames, wait_started
from .test_a11y import violations

#: Presses "1" (the first action) whenever the page's own seat must act and the state
#: changed since its last press.
AUTOPLAY = """() => { let last = null; setInterval(() => {
  const d = document.querySelector('#app').dataset;
  if (d.required === 'true' && d.over !== 'true' && d.applied !== last) {
    last = d.applied;
    document.body.dispatchEvent(new KeyboardEvent('keydown', {key: '1', bubbles: true}));
  } }, 10); }"""


def last_frames(frames: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """The last messages a page sent and received, in short."""
    keys = ("type", "index", "seat", "required", "legal", "code", "message", "action")
    return {way: [{k: f[k] for k in keys if k in f} for f in frames[way][-5:]]
            for way in ("sent", "received")}


def signed_up(browser: Any, base: str, name: str) -> tuple[Any, dict[str, str]]:
    """A browser context signed up as ``name`` (``context.request`` shares its cookies)
    and a page of it; the CSRF header its requests send."""
    ctx = browser.new_context(viewport={"width": 1000, "height": 800}, locale="en")
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    r = ctx.request.post(f"{base}/api/account/signup",
                         data={"name": name, "password": f"secret-{name}"})
    assert r.status == 201, r.text()
    return page, {"X-CSRF-Token": r.json()["csrf"]}


def sit(page: Any, base: str, code: str, csrf: dict[str, str]) -> int:
    """Join ``code`` as the page's account and open the table with the seat kept."""
    r = page.context.request.post(f"{base}/api/tables/{code}/join", data={}, headers=csrf)
    assert r.status == 201, r.text()
    seat = r.json()
    page.goto(f"{base}/")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                  [f"spieltisch.seat.{code}",
                   json.dumps({"seat": seat["seat"], "token": seat["token"]})])
    page.goto(f"{base}/t/{code}")
    return int(seat["seat"])


def test_a_rated_hockey_game_between_two_accounts(server: LoopbackServer,
                                                   browser: Any) -> None:
    base = server.base
    tag = uuid.uuid4().hex[:6]
    names = [f"anna_{tag}", f"ben_{tag}"]
    anna, anna_csrf = signed_up(browser, base, names[0])
    ben, ben_csrf = signed_up(browser, base, names[1])
    frames = [record_frames(anna), record_frames(ben)]  # what a failure shows
    try:
        r = anna.context.request.post(f"{base}/api/tables", headers=anna_csrf, data={
            "game": "hockey", "seats": ["human", "human"], "rated": True})
        assert r.status == 201 and r.json()["rated"] is True
        code = r.json()["code"]
        assert sit(anna, base, code, anna_csrf) == 0
        assert sit(ben, base, code, ben_csrf) == 1
        for page in (anna, ben):
            wait_started(page)
        # each page plays its own turns (key 1: its first action) as soon as they come,
        # without a round trip to the test per move
        for page in (anna, ben):
            page.evaluate(AUTOPLAY)
        for page in (anna, ben):
            try:
                page.wait_for_function("() => document.querySelector('#app').dataset.over "
                                       "=== 'true'", timeout=50_000)
            except Exception as e:
                raise AssertionError(
                    f"not over: {[app_state(p) for p in (anna, ben)]}; the last messages "
                    f"each page sent and received: {[last_frames(f) for f in frames]}") from e
        status = anna.context.request.get(f"{base}/api/tables/{code}").json()
        assert status["status"] == "over" and status["rated"] is True
        ranks = status["result"]["ranks"]
        model = PlackettLuce()
        want = model.rate([[model.rating()], [model.rating()]],
                          ranks=[float(x) for x in ranks])
        for seat, name in enumerate(names):
            profile = anna.context.request.get(f"{base}/api/accounts/{name}").json()
            [rating] = profile["ratings"]
            assert (rating["game"], rating["players"], rating["games"]) == ("hockey", 2, 1)
            assert (rating["mu"], rating["sigma"]) == (want[seat][0].mu, want[seat][0].sigma)
            assert rating["provisional"] is True
            assert profile["record"]["played"] == 1 and profile["record"]["finished"] == 1
        # the profile page shows the new rating, with its deviation
        ben.goto(f"{base}/u/{names[1]}")
        row = ben.locator("tr[data-game=hockey][data-players='2'] td.rating")
        mu, sigma = want[1][0].mu, want[1][0].sigma
        assert row.inner_text().startswith(f"{mu:.1f} ± {sigma:.1f}")
        assert ben.locator("#played").inner_text() == "1"
        assert violations(ben) == []
        # and the leaderboard of two players' Hockey lists both, ranked
        ben.goto(f"{base}/leaderboard?game=hockey&players=2")
        ben.wait_for_selector("#app[data-page=leaderboard] table.ratings")
        listed = ben.locator("table.ratings tbody th a").all_inner_texts()
        assert set(names) <= set(listed)
        assert violations(ben) == []
    finally:
        anna.context.close()
        ben.context.close()
