"""Bots within limits (issue 41, item 3): clients choose only the levels the server
offers, a table stored with a greedy spec plays it at its level, every decision has a
wall-clock cap that the runner enforces (past it the decision is abandoned and a quick
fallback answers), and a server stops on SIGTERM while its bots search.

The old server took any spec from a client (``bot:ismcts:2000000000``,
``bot:ismcts::ms=1e12``): two such Hockey tables kept both bot threads searching for
good, other tables' hard bots stopped, and SIGTERM waited for the searches forever.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

from spieltisch.bots.base import Bot, Observation, RandomBot
from spieltisch.bots.ismcts import ISMCTSBot
from spieltisch.bots.levels import HARD_MS, make_seat_bot
from spieltisch.core import get_spec
from spieltisch.server import ServerConfig
from spieltisch.server.app import Lobby
from spieltisch.server.store import SeatRow, Store
from spieltisch.server.thinking import BotRunner

from .helpers import TIMEOUT, ServerThread, unique_prefix, wait_until_serving

#: What the old server accepted from any client.
GREEDY = ["bot:ismcts:2000000000", "bot:ismcts::ms=1e12", "bot:ismcts::c=nan",
          "bot:ismcts:200", "bot:random", "bot:heuristic", "bot:heuristic::alert=1"]
REFUSED = ("Seat 2: {spec} is not a bot level of this server: choose 'bot:easy', "
           "'bot:medium' or 'bot:hard'.")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    db = tmp_path_factory.mktemp("db") / "limits.sqlite3"
    cfg = ServerConfig(db_url=f"sqlite:///{db}", table_prefix=unique_prefix(),
                       max_tables_per_client=1000)
    with ServerThread(cfg) as s:
        yield s


class StuckBot(Bot):
    """A bot that ignores every limit: it decides only once ``gate`` opens."""

    name = "stuck"

    def __init__(self, game: Any, seat: int, gate: threading.Event) -> None:
        super().__init__(game, seat, 0)
        self.gate = gate
        self.calls = 0

    def act(self, obs: Observation) -> int | None:
        self.calls += 1
        self.gate.wait(30)
        return obs.legal_actions()[-1]

    react = act


def hockey_obs(seed: int = 3) -> Observation:
    state = get_spec("hockey").configure(2, {}).new_state(seed=seed)
    seat = state.to_act()[0]
    assert len(state.legal_actions(seat)) > 1
    return Observation(state, seat)


# -- clients choose a level --------------------------------------------------------------

@pytest.mark.parametrize("spec", GREEDY)
def test_a_client_may_choose_only_the_offered_levels(server: ServerThread, spec: str) -> None:
    r = httpx.post(f"{server.base}/api/tables", json={"game": "hockey",
                                                      "seats": ["human", spec]},
                   timeout=TIMEOUT)
    assert r.status_code == 400, r.text
    body = r.json()
    assert body["error"] == "bad_bot" and body["levels"] == ["easy", "medium", "hard"]
    assert body["message"] == REFUSED.format(spec=repr(spec))
    r = httpx.post(f"{server.base}/api/tables?lang=de",
                   json={"game": "hockey", "seats": ["human", spec]}, timeout=TIMEOUT)
    assert r.json()["message"].startswith(f"Platz 2: {spec!r} ist keine Bot-Stufe"), r.json()


def test_the_levels_are_accepted(server: ServerThread) -> None:
    for level in ("easy", "medium", "hard"):
        r = httpx.post(f"{server.base}/api/tables",
                       json={"game": "hockey", "seats": ["human", f"bot:{level}"]},
                       timeout=TIMEOUT)
        assert r.status_code == 201 and r.json()["seats"][1]["bot"] == level, r.text


# -- a stored greedy spec ------------------------------------------------------------------

def stored_table(url: str, prefix: str, specs: list[str], seed: int = 11) -> str:
    """A Hockey table of bots stored as the old server stored it: any spec per seat."""
    store = Store(url, prefix)
    code = uuid.uuid4().hex[:6].upper()
    store.create_table(code, "hockey", 2, {}, seed,
                       [SeatRow(i, "bot", spec) for i, spec in enumerate(specs)])
    store.close()
    return code


def test_a_stored_greedy_spec_loads_at_its_level_and_plays(tmp_path: Path) -> None:
    """Both seats stored with specs no decision can finish: the server plays them as the
    hard level (its budget and its time), and the game goes on."""
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    prefix = unique_prefix()
    code = stored_table(url, prefix, ["ismcts:2000000000", "ismcts::ms=1e12:c=nan"])
    cfg = ServerConfig(db_url=url, table_prefix=prefix)

    async def run() -> None:
        lobby = Lobby(cfg)
        try:
            assert await lobby.recover() == 1
            rt = lobby.tables[code]
            assert [s.bot for s in rt.row.seats] == ["ismcts:2000000000",
                                                     "ismcts::ms=1e12:c=nan"]
            for bot in rt.bots.values():
                assert isinstance(bot, ISMCTSBot)
                assert (bot.budget, bot.ms, bot.c) == \
                    (get_spec("hockey").hard_budget, HARD_MS, 0.35)
            began = time.monotonic()
            while len(rt.log) < 6:  # both bots decided, several times
                assert time.monotonic() - began < 30, f"{len(rt.log)} actions"
                await asyncio.sleep(0.05)
        finally:
            await lobby.close()

    asyncio.run(run())


# -- the runner's cap ------------------------------------------------------------------------

def test_a_decision_past_its_cap_is_abandoned_for_the_fallback() -> None:
    """A bot that ignores its limits: at the cap (0.3 s) the fallback answers (the same
    answer its seed gives without the runner), the bot is not asked again while its
    abandoned decision runs, and a decision still queued behind it never starts."""
    obs = hockey_obs()
    gate = threading.Event()
    stuck = StuckBot(obs.game, obs.seat, gate)
    queued = StuckBot(obs.game, obs.seat, gate)
    runner = BotRunner(1, cap=0.3)
    wanted = RandomBot(obs.game, obs.seat, 5).act(obs)

    async def test() -> None:
        began = time.perf_counter()
        fallback = RandomBot(obs.game, obs.seat, 5)
        assert await runner.decide(stuck, stuck.act, obs, fallback) == wanted
        assert 0.3 <= time.perf_counter() - began < 1.0
        assert runner.abandoned == 1 and stuck.calls == 1
        began = time.perf_counter()  # still searching: the fallback answers at once
        assert await runner.decide(stuck, stuck.act, obs) == min(obs.legal_actions())
        react = Observation(obs._state, obs.seat, required=False)
        assert await runner.decide(stuck, stuck.react, react) is None  # declines
        assert time.perf_counter() - began < 0.2 and stuck.calls == 1
        # the only thread is busy: another bot's decision waits, past the cap
        assert await runner.decide(queued, queued.act, obs) == min(obs.legal_actions())
        assert runner.abandoned == 4
        gate.set()
        await asyncio.sleep(0.2)
        assert queued.calls == 0  # abandoned before it started: it never ran
        assert not runner._abandoned  # the stuck one is over: forgotten
        assert await runner.decide(stuck, stuck.act, obs) == obs.legal_actions()[-1]
        assert stuck.calls == 2 and runner.abandoned == 4

    try:
        asyncio.run(test())
    finally:
        gate.set()
        runner.close()


def test_a_search_answers_within_the_cap_by_itself() -> None:
    """A search with a budget it could never spend stops at the runner's soft limit (80 %
    of the cap) with what it found: a real answer, not the fallback."""
    obs = hockey_obs()
    bot = make_seat_bot(obs.game, "ismcts:2000000000", obs.seat, 1)
    assert isinstance(bot, ISMCTSBot)
    # a cap of 2 s: its soft limit (1.6 s) leaves 0.4 s for a loaded machine to hand the
    # answer back before the cap would abandon it
    runner = BotRunner(1, cap=2.0)

    async def test() -> float:
        began = time.perf_counter()
        action = await runner.decide(bot, bot.act, obs)
        assert action in obs.legal_actions()
        return time.perf_counter() - began

    try:
        took = asyncio.run(test())
    finally:
        runner.close()
    assert 1.55 <= took and runner.abandoned == 0  # it stopped itself, not the runner
    assert bot.last_search["halted"] == 1.0 and bot.last_search["simulations"] > 1


def test_a_table_moves_on_past_a_stuck_bot(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 0's bot never answers by itself: each of its turns is played by its fallback
    (the medium bot) after the cap, and the game goes on."""
    import spieltisch.server.table as table_module

    gate = threading.Event()
    stuck: list[StuckBot] = []

    def seat_bot(game: Any, spec: str, seat: int, seed: int | None) -> Bot:
        if seat == 0:
            stuck.append(StuckBot(game, seat, gate))
            return stuck[-1]
        return make_seat_bot(game, spec, seat, seed)

    monkeypatch.setattr(table_module, "make_seat_bot", seat_bot)
    cfg = ServerConfig(db_url=f"sqlite:///{tmp_path / 'stuck.sqlite3'}",
                       table_prefix=unique_prefix(), bot_cap=0.3)

    async def run() -> None:
        lobby = Lobby(cfg)
        try:
            rt = await lobby.create({"game": "hockey", "seats": ["bot:hard", "bot:easy"],
                                     "seed": 5}, "me")
            began = time.monotonic()
            while sum(1 for seat, _ in rt.log if seat == 0) < 5:
                assert time.monotonic() - began < 20, f"{len(rt.log)} actions"
                await asyncio.sleep(0.05)
            assert stuck[0].calls == 1  # asked once; the fallback answered from then on
            assert rt.thinker.abandoned >= 5
        finally:
            gate.set()
            await lobby.close()

    try:
        asyncio.run(run())
    finally:
        gate.set()


# -- shutdown ----------------------------------------------------------------------------------

def test_closing_a_table_stops_its_search(tmp_path: Path) -> None:
    """An operator's server that accepts any spec (``any_bot_spec``) and a cap of ten
    minutes: a bot searches without end, yet the server stops at once and the search
    with it (it returns, halted, within a second)."""
    cfg = ServerConfig(db_url=f"sqlite:///{tmp_path / 'any.sqlite3'}",
                       table_prefix=unique_prefix(), any_bot_spec=True, bot_cap=600.0)
    server = ServerThread(cfg)
    with server:
        r = httpx.post(f"{server.base}/api/tables", json={
            "game": "hockey", "seats": ["bot:ismcts:2000000000"] * 2}, timeout=TIMEOUT)
        assert r.status_code == 201, r.text
        app: Any = server.server.config.app
        lobby = app.state.lobby
        rt = lobby.tables[r.json()["code"]]
        began = time.monotonic()
        while not rt.thinking or time.monotonic() - began < 0.5:
            assert time.monotonic() - began < 10
            time.sleep(0.05)
        searching = [rt.bots[s] for s in rt.thinking]
        before = [b.last_search for b in searching]
        stopping = time.monotonic()
    assert not server.thread.is_alive() and time.monotonic() - stopping < 5
    while any(b.last_search is old for b, old in zip(searching, before, strict=True)):
        assert time.monotonic() - stopping < 2, "a search went on after its table closed"
        time.sleep(0.02)
    assert all(b.last_search["halted"] == 1.0 for b in searching)


#: How long a single server may take to stop (no connections open).
DRAIN = 10.0


@pytest.mark.waits  # a 10 s drain limit: a server at full priority keeps it on a busy machine
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_a_server_whose_bots_search(tmp_path: Path, sig: int) -> None:
    """``spieltisch serve`` restarted on a database holding two Hockey tables stored
    with greedy specs (the old server searched on after a restart): it plays them and
    stops within its drain time on SIGTERM and on Ctrl-C. (The old server never
    stopped on Ctrl-C: the interpreter's exit joined the bot threads, which searched
    on; on SIGTERM uvicorn's re-raised signal killed it before that join.)"""
    url = f"sqlite:///{tmp_path / 'serve.sqlite3'}"
    codes = [stored_table(url, "st_", ["ismcts:2000000000", "ismcts::ms=1e12"], seed)
             for seed in (1, 2)]
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "spieltisch.cli.main", "serve", "--port", "0",
             "--db", url], stdout=out, stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        give_up = time.monotonic() + TIMEOUT
        while (found := re.search(r"http://\S+?:(\d+)/", log.read_text())) is None:
            assert proc.poll() is None and time.monotonic() < give_up, log.read_text()
            time.sleep(0.05)
        base = f"http://127.0.0.1:{found[1]}"
        wait_until_serving(base, proc, log)
        for code in codes:
            assert httpx.get(f"{base}/api/tables/{code}", timeout=TIMEOUT).json()[
                "status"] == "playing"
        time.sleep(1.0)  # the bots search
        began = time.monotonic()
        proc.send_signal(sig)
        try:
            proc.wait(DRAIN)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{sig!r}: still running after {DRAIN} s\n{log.read_text()}")
        assert time.monotonic() - began < DRAIN
        assert "Traceback" not in log.read_text(), log.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
