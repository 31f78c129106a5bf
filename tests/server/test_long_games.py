"""Long games (issue 41, item 5): a table ends at its length bound, abandoned with its
reason told; replay steps come in pages, a page past the size cap is refused; identical
expensive requests at the same time are computed once (single-flight).
"""

from __future__ import annotations

import asyncio
import inspect
import random
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from spieltisch.core import game_names, get_spec
from spieltisch.server import web
from spieltisch.server.app import Lobby
from spieltisch.server.config import ServerConfig
from spieltisch.server.flight import SingleFlight

from .helpers import TIMEOUT, Client, ServerThread, create_table, join, unique_prefix

GERMAN_WHY = ("Die Partie wurde nach {n} Aktionen unvollendet beendet: dieser Server "
              "spielt an einem Tisch Hockey höchstens {bound} Aktionen. Sie hat kein "
              "Ergebnis.")


def config(tmp: Path, prefix: str | None = None, **changes: Any) -> ServerConfig:
    settings: dict[str, Any] = {"db_url": f"sqlite:///{tmp / 'long.sqlite3'}",
                                "table_prefix": prefix or unique_prefix(),
                                "grace_seconds": 1000, "bot_timing": 0.0, "move_clock": 0.0}
    return ServerConfig(**{**settings, **changes})


def lobby_of(server: ServerThread) -> Lobby:
    return server.server.config.app.state.lobby  # type: ignore[attr-defined, no-any-return]


def status(server: ServerThread, code: str) -> dict[str, Any]:
    r = httpx.get(f"{server.base}/api/tables/{code}", timeout=TIMEOUT)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def finished(server: ServerThread, game: str, players: int, seed: int) -> str:
    """The code of a game of easy bots played to its end."""
    code = create_table(server.base, game, ["bot:easy"] * players, players, seed)["code"]
    waited = 0.0
    while status(server, code)["status"] == "playing":
        assert waited < TIMEOUT, "the bots did not finish"
        threading.Event().wait(0.05)
        waited += 0.05
    return str(code)


# -- the length bound -------------------------------------------------------------------------
@pytest.mark.parametrize("name", game_names())
def test_every_game_s_table_bound_is_the_one_its_rules_state(name: str) -> None:
    """Each game's bound is its own (docs/server.md, "Length of a table"): a positive
    number of actions, and where the game's ``rules.md`` states it (its "Length of a table
    (`table_max_actions`)" decision), the number stated there."""
    spec = get_spec(name)
    assert isinstance(spec.table_max_actions, int) and spec.table_max_actions > 0
    rules = Path(inspect.getfile(spec.game_class)).with_name("rules.md")
    text = rules.read_text(encoding="utf-8") if rules.exists() else ""
    stated = re.search(r"Length of a table\W*\(`table_max_actions`\).*?reaches\s+([\d,]+)"
                       r"\s+actions", text, re.S)
    if stated is not None:
        assert int(stated.group(1).replace(",", "")) == spec.table_max_actions


def test_a_table_at_its_length_bound_is_abandoned_and_says_why(tmp_path: Path) -> None:
    """A person and an easy bot at Hockey, the server's bound 12 actions: at the 12th the
    table stops, stored as ``abandoned`` without a result; the person's last update and
    every later picture say why (a log line and ``abandoned``, in their language), no
    action is offered or taken any more, the lobby lists it with its reason and its
    replay is served. A restart keeps it abandoned."""
    bound = 12
    cfg = config(tmp_path, max_table_actions=bound)
    with ServerThread(cfg) as s:
        code = create_table(s.base, "hockey", ["human", "bot:easy"], seed=4)["code"]
        token = join(s.base, code, "Ada")["token"]
        why = GERMAN_WHY.format(n=bound, bound=bound)

        async def play() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
            me = await Client.open(s.ws_base, code, token, lang="de")
            rng = random.Random(4)
            legal: list[str] = []
            while True:
                msg = await me.recv()
                if "abandoned" in msg:
                    break
                if msg.get("required") and msg.get("legal"):
                    legal = msg["legal"]
                    me.n += 1
                    await me.send({"type": "action", "id": f"a{me.n}",
                                   "action": rng.choice(legal)})
            await me.send({"type": "action", "id": "late", "action": legal[0]})
            refused = await me.until(lambda m: m.get("id") == "late")
            await me.send({"type": "state"})
            again = await me.until(lambda m: m["type"] == "state")
            await me.close()
            return msg, refused, again

        last, refused, again = asyncio.run(play())
        line = {"index": bound - 1, "text": why}
        expected = {"reason": "length_bound", "actions": bound, "bound": bound,
                    "message": why}
        assert last["type"] == "update" and last["index"] == bound - 1
        assert last["abandoned"] == expected and last["status"] == "abandoned"
        assert last["log"][-1] == line and last["legal"] == [] and not last["required"]
        assert last["over"] is False and "result" not in last
        assert refused == {"type": "error", "code": "abandoned", "message": why, "id": "late"}
        assert again["status"] == "abandoned" and again["abandoned"] == expected
        assert again["log"][-1] == line and again["legal"] == [] and again["index"] == bound

        info = status(s, code)
        assert (info["status"], info["actions"], info["result"]) == ("abandoned", bound, None)
        assert info["abandoned"] == "stopped unfinished at this server's length limit"
        listed = httpx.get(f"{s.base}/api/tables?lang=de", timeout=TIMEOUT).json()
        assert [(t["status"], t["abandoned"]) for t in listed if t["code"] == code] == \
            [("abandoned", "unvollendet beendet: die längste Partie, die dieser Server spielt")]
        replay = httpx.get(f"{s.base}/api/tables/{code}/replay", timeout=TIMEOUT).json()
        assert len(replay["actions"]) == bound and replay["result"] is None
        steps = httpx.get(f"{s.base}/api/tables/{code}/replay/steps?seat=0&lang=de",
                          timeout=TIMEOUT).json()
        assert steps["total"] == bound + 1 and steps["abandoned"] == expected
        assert steps["result"] is None and steps["sheet"] is None

    with ServerThread(config(tmp_path, cfg.table_prefix)) as again_server:  # no bound set
        info = status(again_server, code)
        assert (info["status"], info["actions"]) == ("abandoned", bound)


def test_a_table_past_a_lower_bound_is_abandoned_when_the_server_starts(
        tmp_path: Path) -> None:
    """A table playing when the server stopped, longer than the bound the server starts
    with (an endless table from before the bound, or a lower bound set since): rebuilt
    from its log, it is abandoned, not played on, stored with its end and the bound it
    stopped at (told the same by a server started later with another bound)."""
    cfg = config(tmp_path)
    with ServerThread(cfg) as s:
        code = create_table(s.base, "hockey", ["human", "bot:easy"], seed=4)["code"]
        token = join(s.base, code, "Ada")["token"]

        async def play(actions: int) -> None:
            """Make ``actions`` moves; return when the table waits for the next one."""
            me = await Client.open(s.ws_base, code, token)
            rng = random.Random(5)
            while True:
                msg = await me.recv()
                if msg.get("required") and msg.get("legal"):
                    if me.n == actions:
                        break
                    me.n += 1
                    await me.send({"type": "action", "id": f"a{me.n}",
                                   "action": rng.choice(msg["legal"])})
            await me.close()

        asyncio.run(play(6))
        played = status(s, code)["actions"]
        assert played >= 6
    with ServerThread(config(tmp_path, cfg.table_prefix, max_table_actions=5)) as s:
        info = status(s, code)
        assert (info["status"], info["actions"], info["result"]) == \
            ("abandoned", played, None)
        why = {"reason": "length_bound", "actions": played, "bound": 5,
               "message": f"The game stopped unfinished after {played} actions: this "
                          "server plays at most 5 at a table of Hockey. It has no result."}
        steps = httpx.get(f"{s.base}/api/tables/{code}/replay/steps", timeout=TIMEOUT)
        assert steps.json()["abandoned"] == why
        row = lobby_of(s).store.load_table(code)  # stored as an abandonment at the bound
        assert row is not None and row.bound == 5 and row.ended is not None
        assert row.started is not None and row.ended >= row.started
    with ServerThread(config(tmp_path, cfg.table_prefix)) as s:  # the bound it stopped at
        steps = httpx.get(f"{s.base}/api/tables/{code}/replay/steps", timeout=TIMEOUT)
        assert steps.json()["abandoned"] == why


# -- replay steps in pages ----------------------------------------------------------------------
def pages(base: str, code: str, **params: Any) -> tuple[list[dict[str, Any]], list[int]]:
    """Every page of a replay's steps, following ``next`` from the first; each page's
    first step index as well."""
    url: str | None = f"{base}/api/tables/{code}/replay/steps"
    out: list[dict[str, Any]] = []
    while url is not None:
        r = httpx.get(url, params=params if not out else None, timeout=TIMEOUT)
        assert r.status_code == 200, r.text
        out.append(r.json())
        nxt = out[-1]["next"]
        url = None if nxt is None else base + nxt
    return out, [p["from"] for p in out]


def test_replay_steps_come_in_pages_equal_to_the_whole_replay(tmp_path: Path) -> None:
    """A finished President game of easy bots: the pages (40 steps by default here),
    followed by ``next``, are together every step of the replay as the whole-game
    function tells it, for the full view, a seat and a spectator, in two languages; a
    page from anywhere (a checkpoint or the seed) is the same slice; ``from`` and
    ``limit`` out of range are refused with a clear error."""
    with ServerThread(config(tmp_path, replay_page_steps=40, replay_max_steps=100)) as s:
        code = finished(s, "president", 4, 3)
        replay = httpx.get(f"{s.base}/api/tables/{code}/replay", timeout=TIMEOUT).json()
        total = len(replay["actions"]) + 1
        assert total > 200
        for seat, lang in (("full", "en"), ("2", "de"), ("spectator", "nl")):
            got, starts = pages(s.base, code, seat=seat, lang=lang)
            assert starts == list(range(0, total, 40))
            names = got[0]["names"]
            whole = web.replay_steps(replay, None if seat in ("full", "spectator")
                                     else int(seat), seat == "full", names, lang)
            assert [st for p in got for st in p["steps"]] == whole["steps"]
            for p in got:  # the score sheet on the last page only (it replays the game)
                assert p["total"] == total and p["limit"] == 40
                assert {k: p[k] for k in whole if k != "steps"} == \
                    {k: v for k, v in whole.items() if k != "steps"} \
                    | {"sheet": whole["sheet"] if p is got[-1] else None}
            assert whole["sheet"] is not None
            assert got[-1]["next"] is None and got[0]["next"] == \
                f"/api/tables/{code}/replay/steps?seat={seat}&lang={lang}&from=40&limit=40"
        full = web.replay_steps(replay, None, True, got[0]["names"], "en")["steps"]
        base = f"{s.base}/api/tables/{code}/replay/steps"
        for start, limit in ((137, 7), (3, 100), (total - 1, 100), (0, 1)):
            r = httpx.get(base, params={"from": start, "limit": limit}, timeout=TIMEOUT)
            assert r.json()["steps"] == full[start:start + limit]
        for params, problem in (({"from": -1}, "'from' is a step from 0 to "),
                                ({"from": total}, "'from' is a step from 0 to "),
                                ({"from": "x"}, "'from' is a step from 0 to "),
                                ({"limit": 0}, "'limit' is a number of steps from 1 to 100"),
                                ({"limit": 101}, "'limit' is a number of steps from 1 to 100")):
            r = httpx.get(base, params=params, timeout=TIMEOUT)
            assert r.status_code == 400 and r.json()["error"] == "bad_request"
            assert r.json()["message"].startswith(problem)


def test_a_replay_page_past_the_size_cap_is_refused(tmp_path: Path) -> None:
    """A page larger than ``replay_max_bytes`` is refused with 413 ``too_large`` naming
    its size and the way out (fewer steps); a smaller page of the same game is served."""
    with ServerThread(config(tmp_path, replay_max_bytes=30_000)) as s:
        code = finished(s, "president", 4, 3)
        base = f"{s.base}/api/tables/{code}/replay/steps"
        big = httpx.get(base, params={"seat": "full", "limit": 200}, timeout=TIMEOUT)
        assert big.status_code == 413 and big.json()["error"] == "too_large"
        assert big.json()["message"].startswith("steps 0 to 199 are ")
        assert big.json()["message"].endswith(
            "bytes, more than the 30000 one answer may be: ask for fewer steps ('limit')")
        small = httpx.get(base, params={"seat": "full", "limit": 5}, timeout=TIMEOUT)
        assert small.status_code == 200 and len(small.content) <= 30_000
        assert len(small.json()["steps"]) == 5


# -- single-flight ----------------------------------------------------------------------------
def test_single_flight_computes_once_for_callers_that_come_together() -> None:
    """Two callers of one key while its computation runs (held by an event) get the one
    result; another key computes apart; a later call computes anew; a failure reaches
    every caller; a caller that goes away does not stop it for the other."""
    async def run() -> None:
        flight: SingleFlight[str] = SingleFlight()
        computed: list[str] = []
        hold = asyncio.Event()

        async def compute(value: str) -> str:
            computed.append(value)
            await hold.wait()
            if value == "bad":
                raise ValueError("broken page")
            return value

        async def started(n: int) -> None:  # the loop runs the tasks up to their wait
            while len(computed) < n:
                await asyncio.sleep(0)

        first = asyncio.create_task(flight.run("k", lambda: compute("one")))
        second = asyncio.create_task(flight.run("k", lambda: compute("two")))
        other = asyncio.create_task(flight.run("j", lambda: compute("three")))
        await asyncio.wait_for(started(2), TIMEOUT)
        assert flight.running("k") and computed == ["one", "three"]
        hold.set()
        assert await asyncio.gather(first, second, other) == ["one", "one", "three"]
        assert not flight.running("k") and flight.started == 2
        hold.clear()
        failing = [asyncio.create_task(flight.run("k", lambda: compute("bad")))
                   for _ in range(2)]
        await asyncio.wait_for(started(3), TIMEOUT)
        hold.set()
        for task in failing:
            with pytest.raises(ValueError, match="broken page"):
                await task
        hold.clear()
        gone = asyncio.create_task(flight.run("k", lambda: compute("four")))
        stays = asyncio.create_task(flight.run("k", lambda: compute("five")))
        await asyncio.wait_for(started(4), TIMEOUT)
        gone.cancel()
        hold.set()
        assert await stays == "four"
        assert computed == ["one", "three", "bad", "four"] and flight.started == 4

    asyncio.run(run())


class CountingFlights(SingleFlight[Any]):
    """The lobby's single-flight, telling when ``wanted`` callers of a kind came in."""

    def __init__(self, kind: str, wanted: int) -> None:
        super().__init__()
        self.kind, self.wanted = kind, wanted
        self.callers = 0
        self.all_in = threading.Event()

    async def run(self, key: Any, compute: Any) -> Any:
        if key[0] == self.kind:
            self.callers += 1
            if self.callers == self.wanted:
                self.all_in.set()
        return await super().run(key, compute)


def test_two_identical_replay_page_requests_compute_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same page asked for twice at once: the first's computation is held until the
    second request has joined it; one page is worked out, both get it."""
    with ServerThread(config(tmp_path)) as s:
        code = finished(s, "hockey", 2, 5)
        lobby = lobby_of(s)
        flights = lobby.flights = CountingFlights("steps", 2)
        computed: list[int] = []
        release = threading.Event()
        real = web.encoded_page

        def held(*args: Any) -> bytes:
            computed.append(args[1].start)
            assert release.wait(TIMEOUT)
            return real(*args)

        monkeypatch.setattr(web, "encoded_page", held)
        url = f"{s.base}/api/tables/{code}/replay/steps?seat=1&lang=de&from=0&limit=50"
        with ThreadPoolExecutor(2) as pool:
            answers = [pool.submit(httpx.get, url, timeout=TIMEOUT) for _ in range(2)]
            assert flights.all_in.wait(TIMEOUT)
            release.set()
            first, second = (a.result() for a in answers)
        assert first.status_code == second.status_code == 200
        assert first.content == second.content and computed == [0]
        assert flights.started == 1
        assert httpx.get(url, timeout=TIMEOUT).content == first.content  # cached
        assert computed == [0] and flights.started == 1


def test_two_status_requests_rebuild_a_stored_table_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A finished table not in memory (another server played it): two status requests
    at once rebuild it from its log once, in a store thread, not on the event loop."""
    cfg = config(tmp_path)
    with ServerThread(cfg) as s:
        code = finished(s, "hockey", 2, 6)
        played = status(s, code)["actions"]
    with ServerThread(config(tmp_path, cfg.table_prefix)) as s:
        lobby = lobby_of(s)
        flights = lobby.flights = CountingFlights("load", 2)
        loads: list[tuple[str, bool]] = []
        release = threading.Event()
        real = lobby._load

        def held(code: str) -> Any:
            loads.append((code, threading.current_thread().name.startswith(
                "spieltisch-store")))
            assert release.wait(TIMEOUT)
            return real(code)

        monkeypatch.setattr(lobby, "_load", held)
        with ThreadPoolExecutor(2) as pool:
            answers = [pool.submit(status, s, code) for _ in range(2)]
            assert flights.all_in.wait(TIMEOUT)
            release.set()
            first, second = (a.result() for a in answers)
        assert first == second and first["status"] == "over" and first["actions"] == played
        assert loads == [(code, True)] and flights.started == 1


# -- replay work apart from the store's threads ------------------------------------------------
def test_replay_work_leaves_the_store_threads_free(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Two replay pages held in the works (an event) while the server has one store
    thread: a table is still created and its status read at once, since replay work
    runs in threads of its own (``replay_threads``); the pages are served once let go.
    Before: replay pages ran in the store's threads, and two distinct requests held
    every database call of the lobby up."""
    go = threading.Event()
    entered = threading.Semaphore(0)
    real = web.encoded_page

    def held(*args: Any) -> bytes:
        entered.release()
        go.wait(TIMEOUT)
        return real(*args)

    with ServerThread(config(tmp_path, store_threads=1, replay_threads=1)) as s:
        code = finished(s, "president", 4, 3)
        monkeypatch.setattr(web, "encoded_page", held)
        base = f"{s.base}/api/tables/{code}/replay/steps"
        with ThreadPoolExecutor(4) as pool:
            pages = [pool.submit(httpx.get, base, params={"from": f, "limit": 5},
                                 timeout=TIMEOUT) for f in (0, 5)]
            assert entered.acquire(timeout=TIMEOUT)  # a page is in the works
            created = pool.submit(create_table, s.base, "hockey", ["human", "bot:easy"])
            try:
                new = created.result(timeout=TIMEOUT / 2)["code"]
                assert status(s, new)["status"] == "waiting"
            finally:
                go.set()
            assert [p.result(timeout=TIMEOUT).status_code for p in pages] == [200, 200]


def test_a_page_refused_as_too_large_is_not_made_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A page over ``replay_max_bytes`` is refused with its size each time it is asked
    for, but made once: its key is remembered (bounded). Before: every request
    replayed the steps again only to refuse them."""
    made: list[int] = []
    real = web.encoded_page

    def counted(*args: Any) -> bytes:
        made.append(1)
        return real(*args)

    with ServerThread(config(tmp_path, replay_max_bytes=30_000)) as s:
        code = finished(s, "president", 4, 3)
        monkeypatch.setattr(web, "encoded_page", counted)
        base = f"{s.base}/api/tables/{code}/replay/steps"
        answers = [httpx.get(base, params={"seat": "full", "limit": 200}, timeout=TIMEOUT)
                   for _ in range(3)]
        assert [a.status_code for a in answers] == [413] * 3
        assert len({a.json()["message"] for a in answers}) == 1
        assert len(made) == 1
