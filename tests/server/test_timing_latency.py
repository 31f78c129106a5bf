"""Latency at live tables (issue 21: 500 tables, p99 < 50 ms): no waiting where nobody races.

A race window holds an action only where another person could really race it: an attempt
the game refuses outright (out of turn at a turn-based table) is refused at once and holds
up nobody's turn. Bots decide where their kind belongs (``server.thinking``): quick kinds
in a thread of their own (on the event loop with ``bot_inline``), slow ones in the server's
own bot threads, so no bot waits behind a
pool that other work (or a search) keeps busy. Decisions are timed on injected clocks and
the tables run on a loop whose clock only the test moves.
"""

from __future__ import annotations

import asyncio
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from spieltisch.bots.base import Bot, Observation
from spieltisch.core import get_spec
from spieltisch.server.config import ServerConfig
from spieltisch.server.store import SeatRow, Store
from spieltisch.server.table import TableRuntime
from spieltisch.server.thinking import BotRunner, kind_of

from .test_realtime_fairness import ManualClockLoop, act, on_manual_clock, seated, settle


@pytest.fixture
def store(sqlite_store: Store) -> Store:
    return sqlite_store


def president_table(store: Store, seats: list[SeatRow], seed: int = 3) -> TableRuntime:
    """A started four-seat President table (no exchange before the first deal)."""
    code = uuid.uuid4().hex[:8].upper()
    store.create_table(code, "president", 4, {}, seed, seats)
    row = store.load_table(code)
    assert row is not None
    cfg = ServerConfig(db_url=store.url, table_prefix=store.prefix, grace_seconds=1000)
    rt = TableRuntime(row, store, cfg)
    rt.state = rt.row.first_state(rt.game)
    rt.row.status = "playing"
    return rt


# -- races only where somebody can race -------------------------------------------------------

def test_an_attempt_out_of_turn_at_a_turn_based_table_is_refused_at_once(
        store: Store) -> None:
    """President: a seat whose turn it is not sends an action; it is refused at once (no
    race window opens), and the seat whose turn it is plays right after it, at the same
    moment of the clock: its action is applied without waiting 150 ms for a race that
    cannot be. (The old table held the refused attempt for the window, and the action in
    turn that came meanwhile with it.)"""
    async def test(loop: ManualClockLoop) -> None:
        rt = president_table(store, [SeatRow(i, "human") for i in range(4)])
        screens = await seated(rt)
        st = rt.state
        assert st is not None
        (due,) = st.to_act()
        other = (due + 1) % 4
        play = rt.game.action_to_json(st.legal_actions(due)[0])
        loop.now = 1.0
        wrong = act(rt, screens[other], play, 1.0)
        await settle(rt)
        assert rt.window is None and wrong.done()
        refusal = await wrong
        assert refusal is not None and refusal["code"] == "illegal_action"
        assert refusal["message"] == "It is not your turn."
        right = act(rt, screens[due], play, 1.0)
        await settle(rt)
        assert right.done() and await right is None  # the clock has not moved
        assert rt.log == [(due, play)] and rt.window is None
        await rt.close()

    on_manual_clock(test)


# -- where bots decide ------------------------------------------------------------------------

class Ticks:
    """A clock that moves only when a bot's decision says it took time."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Costly(Bot):
    """Plays its first legal action; each decision takes ``cost`` seconds of ``clock``."""

    name = "costly"

    def __init__(self, game: object, seat: int, clock: Ticks, cost: float) -> None:
        super().__init__(game, seat, None, cost=cost)  # type: ignore[arg-type]
        self.clock = clock
        self.cost = cost
        self.threads: list[str] = []

    def act(self, obs: Observation) -> int | None:
        self.threads.append(threading.current_thread().name)
        self.clock.now += self.cost
        return obs.legal_actions()[0]


def blocked_pool(name: str = "blocked") -> tuple[ThreadPoolExecutor, threading.Event]:
    """A one-thread pool whose thread waits until the returned event is set."""
    gate = threading.Event()
    pool = ThreadPoolExecutor(1, thread_name_prefix=name)
    pool.submit(gate.wait)
    return pool, gate


def test_quick_kinds_decide_apart_from_slow_ones() -> None:
    """A kind not seen yet decides in the slow lane; one that took less than ``quick``
    (2 µs against 5 ms) decides in the quick lane from then on, also while the slow
    lane's only thread is busy (the slow kind, 0.5 s a decision, waits for it); a quick
    kind that turns slow goes back to the slow lane for good. With ``inline`` a quick kind
    decides on the event loop itself."""
    game = get_spec("president").configure(4, {})
    state = game.new_state(seed=1)
    (due,) = state.to_act()
    obs = Observation(state, due)
    first = state.legal_actions(due)[0]
    clock = Ticks()
    quick, slow = Costly(game, due, clock, 2e-6), Costly(game, due, clock, 0.5)
    assert kind_of(quick) != kind_of(slow)
    assert kind_of(quick) == kind_of(Costly(game, (due + 1) % 4, clock, 2e-6))
    gate = threading.Event()
    slow_lane = ThreadPoolExecutor(1, thread_name_prefix="slow")
    quick_lane = ThreadPoolExecutor(1, thread_name_prefix="quick")
    runner = BotRunner(1, quick=0.005, clock=clock, slow_lane=slow_lane,
                       quick_lane=quick_lane)

    async def test() -> None:
        assert not runner.is_quick(quick)
        assert await runner.decide(quick, quick.act, obs) == first
        assert runner.is_quick(quick) and quick.threads == ["slow_0"]
        assert await runner.decide(slow, slow.act, obs) == first
        assert not runner.is_quick(slow)
        slow_lane.submit(gate.wait)  # the slow lane's only thread is busy now
        waiting = asyncio.ensure_future(runner.decide(slow, slow.act, obs))
        assert await runner.decide(quick, quick.act, obs) == first
        assert quick.threads == ["slow_0", "quick_0"] and not waiting.done()
        gate.set()
        assert await waiting == first and slow.threads == ["slow_0", "slow_0"]
        quick.cost = 0.02  # this decision is slow: the next goes to the slow lane again
        await runner.decide(quick, quick.act, obs)
        assert not runner.is_quick(quick)
        quick.cost = 2e-6  # a quick answer again (a search's forced move): it stays slow
        await runner.decide(quick, quick.act, obs)
        assert not runner.is_quick(quick) and quick.threads[-1] == "slow_0"
        assert runner.counts == {"loop": 0, "quick": 2, "slow": 4}
        on_loop = BotRunner(1, quick=0.005, clock=clock, inline=True, slow_lane=slow_lane)
        other = Costly(game, due, clock, 1e-6)
        await on_loop.decide(other, other.act, obs)
        await on_loop.decide(other, other.act, obs)
        assert other.threads == ["slow_0", threading.current_thread().name]
        assert on_loop.counts == {"loop": 1, "quick": 0, "slow": 1}

    try:
        asyncio.run(test())
    finally:
        gate.set()
        slow_lane.shutdown()
        quick_lane.shutdown()


@pytest.mark.parametrize("inline", [False, True])
def test_bots_never_wait_behind_a_blocked_default_pool(store: Store, inline: bool) -> None:
    """Every thread of the loop's default pool is busy (other work, a stuck call): a
    table of random bots still plays its game to the end, in the bots' own threads or on
    the loop. (The old table sent every bot decision to that pool and stood still.)"""
    runner = BotRunner(1, clock=Ticks(), inline=inline)  # decisions take no time on it
    pool, gate = blocked_pool()

    async def test() -> None:
        asyncio.get_running_loop().set_default_executor(pool)
        rt = president_table(store, [SeatRow(i, "bot", "random") for i in range(4)])
        rt.thinker = runner
        try:
            rt.activate()
            assert rt._driver is not None
            # returns when the game is over; the limit only keeps a broken table from
            # hanging the test
            await asyncio.wait_for(rt._driver, 300)
        finally:
            gate.set()  # the loop waits for its default pool when it closes
        assert rt.row.status == "over" and rt.state is not None and rt.state.is_over()
        quick = len(rt.log) - 1  # the first decision of the kind went to the slow lane
        assert runner.counts == {"loop": quick if inline else 0,
                                 "quick": 0 if inline else quick, "slow": 1}
        await rt.close()

    try:
        asyncio.run(test())
    finally:
        gate.set()
        pool.shutdown()
        runner.close()
