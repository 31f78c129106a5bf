"""Real-time fairness at a live table (issue 18, item 5): the server alone keeps time.

No clock runs before every person at the table has the first deal on screen; a capped
credit for network delay (measured by the server's own pings) decides races and close
calls against a deadline; a forged client time changes nothing; ties fall to a tie-break
drawn from the table's seed; the creator's pace stretches or removes the timers; a bot
that thinks long does not hold up other tables.

Most tests run the table on an event loop whose clock only the test moves, so nothing
waits for real time. The slow-bot test and the protocol test use real time and sockets.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from spieltisch import load_position
from spieltisch.bots.base import Bot, Observation
from spieltisch.core import CLOCK
from spieltisch.games.hood_politix import cards as C
from spieltisch.server.app import Lobby
from spieltisch.server.config import ServerConfig
from spieltisch.server.store import SeatRow, Store
from spieltisch.server.table import Conn, TableRuntime
from spieltisch.server.timing import (
    UNTIMED_WINDOW,
    Entry,
    EntryKind,
    LagMeter,
    LagQuota,
    Pace,
    RaceWindow,
)

from .helpers import Client, ServerThread, create_table, has_view, join, unique_prefix
from .test_hood_clock import POSITION, ManualClockLoop

A, B, CC, D = 0, 1, 2, 3
MOVE_TIMER = C.EXPIRE_ID[C.T_MOVE]
POLITIX_TIMER = C.EXPIRE_ID[C.T_POLITIX]

# The position (D deals; A is due and holds a Green 3, C holds the other; Green 7 is on the
# discard pile; B holds no green and no 3: B must draw, and any card B throws in is a fault)
# and the manual-clock loop are the Hood Politix pause test's.


class Screen:
    """A player's end of a connection: every message the table sent it."""

    def __init__(self) -> None:
        self.got: list[dict[str, Any]] = []
        self.conn = Conn(self.send)

    async def send(self, message: dict[str, Any]) -> None:
        self.got.append(json.loads(message["text"]))

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.got if m["type"] == kind]


@pytest.fixture
def store(sqlite_store: Store) -> Store:
    return sqlite_store


def on_manual_clock(test: Callable[[ManualClockLoop], Awaitable[None]]) -> None:
    loop = ManualClockLoop()
    try:
        loop.run_until_complete(test(loop))
    finally:
        loop.close()


async def settle(rt: TableRuntime, rounds: int = 200_000) -> None:
    """Run what is due at the loop's present moment until the table is idle: no task of
    its own, no lock held, no bot thinking (a bot whose answer waits for its delay waits
    for the clock)."""
    def idle() -> bool:
        bots_wait = rt._driver is None or not rt._wake.is_set()
        return not rt._tasks and not rt.thinking and not rt.lock.locked() and bots_wait

    for _ in range(rounds):
        await asyncio.sleep(0)
        if idle():
            for _ in range(20):  # callbacks that follow (a timer that just passed)
                await asyncio.sleep(0)
            if idle():
                return
    raise AssertionError("the table never settled")


async def walk(loop: ManualClockLoop, rt: TableRuntime, until: float,
               step: float = 0.05) -> None:
    """Move the clock to ``until`` in small steps, letting the table act at each."""
    while loop.now < until - 1e-9:
        loop.now = min(until, round(loop.now + step, 6))
        await settle(rt)


def position_table(store: Store, *, seed: int = 1, pace: Pace = Pace.RULES,
                   bots: dict[int, str] | None = None, **config: Any) -> TableRuntime:
    """Four people at a Hood Politix table set up from ``POSITION`` (or bots of the given
    level or spec at the seats ``bots`` names); the clocks wait for the people's ready."""
    code = uuid.uuid4().hex[:8].upper()
    setup = json.dumps({"pace": pace.value}) if pace is not Pace.RULES else None
    bots = bots or {}
    store.create_table(code, "hood_politix", 4, {"first_dealer": 3}, seed,
                       [SeatRow(i, "bot", bots[i]) if i in bots else SeatRow(i, "human")
                        for i in range(4)], setup=setup)
    row = store.load_table(code)
    assert row is not None and row.pace == pace.value
    cfg = ServerConfig(db_url=store.url, table_prefix=store.prefix, grace_seconds=1000,
                       **config)
    rt = TableRuntime(row, store, cfg)
    rt.state = load_position(POSITION)
    rt.row.status = "playing"
    return rt


async def seated(rt: TableRuntime, seats: range | list[int] = range(4)) -> list[Screen]:
    """A screen for every seat, each saying ``ready``: the clocks start with the last."""
    screens = []
    for seat in seats:
        screen = Screen()
        await rt.attach(screen.conn, seat)
        await rt.ready(screen.conn)
        screens.append(screen)
    return screens


def measured(screen: Screen, lag: float) -> None:
    """The server's ping of ``screen`` came back after a round trip of twice ``lag``."""
    meter = screen.conn.lag
    assert meter.pong(meter.ping(-10.0), -10.0 + 2 * lag)


def act(rt: TableRuntime, screen: Screen, text: str, arrival: float,
        **forged: Any) -> asyncio.Task[dict[str, Any] | None]:
    """``screen`` sends an action that reaches the server at ``arrival``."""
    msg = {"type": "action", "action": text, "id": f"{text}@{arrival}", **forged}
    return asyncio.get_running_loop().create_task(
        rt.player_action(screen.conn, msg, arrival))


# -- the clocks wait for the first deal on screen ---------------------------------------------

class TurnOnly(Bot):
    """Plays or draws on its turn and never acts out of turn (no throw-in, no Politix)."""

    def act(self, obs: Observation) -> int | None:
        legal = obs.legal_actions()
        return next((a for a in legal if obs.game.action_to_json(a).split()[0]
                     in ("play", "draw", "accept")), legal[0])


def test_a_late_human_draws_no_penalty_and_then_has_the_rules_three_seconds(
        tmp_path: Path) -> None:
    """Issue 18 and 35: a human creates a Hood Politix table with three bots at the default
    pace and opens it only 10 s later. Until she presses "I'm ready" nobody plays and no
    timer runs, so nothing expires and nobody is accused. Then the bots play up to her
    turn and the rule's 3 s apply: her timer passes 3 s later."""
    cfg_kwargs = {"grace_seconds": 30.0, "ready_timeout": 30.0}

    async def test(loop: ManualClockLoop) -> None:
        db = tmp_path / "late.sqlite3"
        lobby = Lobby(ServerConfig(db_url=f"sqlite:///{db}", table_prefix=unique_prefix(),
                                   **cfg_kwargs))
        try:
            rt = await lobby.create({"game": "hood_politix", "players": 4}, "zoe")
            assert [s.kind for s in rt.row.seats] == ["human", "bot", "bot", "bot"]
            assert rt.pace is Pace.RULES
            rt.bots = {s: TurnOnly(rt.game, s) for s in rt.bots}  # the clock alone matters
            await lobby.join(rt, {"name": "Zoe"}, "zoe")
            assert rt.status == "playing" and rt.not_ready() == [A]
            await walk(loop, rt, 10.0)
            st = rt.state
            assert st is not None
            assert rt.log == []  # the bots wait for her too
            assert rt.armed is None and rt.clocks._deadline_json() == []

            zoe = Screen()
            await rt.attach(zoe.conn, A)  # she opens the table at t = 10 ...
            welcome = zoe.of("welcome")[0]
            assert welcome["not_ready"] == [A] and welcome["deadlines"] == []
            await rt.ready(zoe.conn)  # ... and presses "I'm ready"
            await settle(rt)  # the bots (answering at once here) play up to her turn
            await walk(loop, rt, 10.5)
            assert all(seat != CLOCK for seat, _ in rt.log), rt.log  # nothing expired
            assert not any(text.startswith("accuse 0") for _, text in rt.log)
            assert st.to_act() == (A,) and rt.armed is not None
            due, key = rt.armed  # her 3 s began with her turn
            assert key == (CLOCK, MOVE_TIMER, st.timer_since) and due == 13.0
            state = [m for m in zoe.got if "deadlines" in m][-1]  # sent as it began
            assert state["not_ready"] == [] and state["deadlines"] == [
                {"seat": None, "seconds": 3.0, "remaining": 3.0,
                 "reason": "seat 0 is too slow", "passable": False, "held": False}]
            assert zoe.of("ping")[0]["id"] == 1  # her lag is measured from her hello
            await walk(loop, rt, due - 0.05)
            assert not st.expired and all(seat != CLOCK for seat, _ in rt.log)
            await walk(loop, rt, due)
            assert (CLOCK, "expire move-timer") in rt.log and st.expired
        finally:
            lobby.store.drop_all()
            await lobby.close()

    on_manual_clock(test)


def test_an_old_client_that_never_says_ready_starts_the_clocks_after_the_timeout(
        store: Store) -> None:
    async def test(loop: ManualClockLoop) -> None:
        rt = position_table(store, ready_timeout=20.0)
        screens = await seated(rt, [A, B, CC])
        silent = Screen()
        await rt.attach(silent.conn, D)  # never says ready, never acts
        assert rt.not_ready() == [D] and rt.armed is None
        assert screens[0].of("seats")[-1]["not_ready"] == [D]
        await walk(loop, rt, 19.95, step=1.0)
        assert not rt.clocks_started
        await walk(loop, rt, 20.0)
        assert rt.clocks_started and rt.armed == (23.0, (CLOCK, MOVE_TIMER, 0))
        await rt.close()

    on_manual_clock(test)


def test_acting_shows_the_deal_was_seen(store: Store) -> None:
    async def test(loop: ManualClockLoop) -> None:
        rt = position_table(store)
        screens = await seated(rt, [B, CC, D])
        a = Screen()
        await rt.attach(a.conn, A)
        assert rt.armed is None
        loop.now = 2.0
        assert await act(rt, a, "play G3", 2.0) is None
        assert rt.clocks_started and rt.armed == (5.0, (CLOCK, MOVE_TIMER, 1))
        assert screens[0].of("update")[-1]["deadlines"][0]["remaining"] == 3.0
        await rt.close()

    on_manual_clock(test)


# -- network delay: measured by the server, credited up to the quota --------------------------

def test_lag_meter_and_quota() -> None:
    meter = LagMeter()
    assert meter.lag() == 0.0  # no round trip yet: no credit
    first, second = meter.ping(1.0), meter.ping(2.0)
    assert not meter.pong(99, 2.5) and not meter.pong("1", 2.5)  # never sent: ignored
    assert meter.pong(second, 2.2) and meter.pong(first, 1.6)
    assert not meter.pong(first, 3.0)  # each pong counts once
    assert meter.lag() == pytest.approx(0.2)  # half the median of 0.2 and 0.6 (0.4)
    quota = LagQuota(gain=0.1, cap=0.4, value=0.3)
    assert quota.credit(0.5) == 0.3  # at most the quota
    quota.spend(0.3)
    assert quota.value == pytest.approx(0.1)
    assert quota.credit(0.5) == pytest.approx(0.1)
    for _ in range(10):
        quota.spend(0.0)
    assert quota.value == 0.4  # never more than the cap


@pytest.mark.parametrize("arrival,first", [(3.25, "draw"), (3.32, "expire move-timer")])
def test_a_deadline_loses_only_to_an_action_sent_in_time(store: Store, arrival: float,
                                                         first: str) -> None:
    """B's timer passes at t=3. B's connection takes 0.5 s each way, but B's credit is
    capped at the quota (0.3 s): a draw that reaches the server at 3.25 was sent in time
    (3.25 - 0.3 < 3) and comes first; one at 3.32 is late although 3.32 - 0.5 < 3."""
    async def test(loop: ManualClockLoop) -> None:
        rt = position_table(store)
        a, b, _, _ = await seated(rt)
        measured(b, 0.5)
        assert await act(rt, a, "play G3", 0.0) is None
        assert rt.armed == (3.0, (CLOCK, MOVE_TIMER, 1))
        loop.now = 3.0
        await settle(rt)  # the deadline waits for the largest credit: until 3.3
        assert rt.window is not None and rt.window.close == pytest.approx(3.3)
        assert rt.log == [(A, "play G3")]
        loop.now = arrival
        sent = act(rt, b, "draw", arrival)
        await walk(loop, rt, 3.4, step=0.01)
        assert await sent is None
        tail = [text for _, text in rt.log[1:]]
        assert tail == (["draw"] if first == "draw" else ["expire move-timer", "draw"])
        # the credit spent: 0.3 of the quota, plus 0.1 for the move
        assert rt.quotas[B].value == pytest.approx(0.1)
        await rt.close()

    on_manual_clock(test)


def test_measured_by_the_servers_own_pings(store: Store) -> None:
    """``ready`` starts the pings; a pong is timed on the server's clock, and one with
    an id never sent, or a time of the client's, changes nothing."""
    async def test(loop: ManualClockLoop) -> None:
        rt = position_table(store, ping_interval=5.0)
        a, b, _, _ = await seated(rt)
        (ping,) = b.of("ping")
        loop.now = 0.4
        rt.pong(b.conn, {"type": "pong", "id": ping["id"] + 7}, 0.4)
        assert b.conn.lag.lag() == 0.0
        rt.pong(b.conn, {"type": "pong", "id": ping["id"], "lag": 0.0, "time": -5}, 0.4)
        assert b.conn.lag.lag() == pytest.approx(0.2)
        await walk(loop, rt, 5.0, step=1.0)
        assert [p["id"] for p in b.of("ping")] == [ping["id"], ping["id"] + 1]
        await rt.close()

    on_manual_clock(test)


# -- races ----------------------------------------------------------------------------------------

def race(store: Store, seed: int, lag_of_b: float, **forged: Any) -> list[tuple[int, str]]:
    """A plays G3 at t=0. At t=1.0 C throws in the other G3 (no delay measured); at
    t=1.1 B throws in Orange 6 (a fault). Both are out of turn, 100 ms apart: one race.
    The log after it."""
    log: list[tuple[int, str]] = []

    async def test(loop: ManualClockLoop) -> None:
        rt = position_table(store, seed=seed)
        a, b, c, _ = await seated(rt)
        if lag_of_b:
            measured(b, lag_of_b)
        assert await act(rt, a, "play G3", 0.0) is None  # A's turn: applied at once
        loop.now = 1.0
        from_c = act(rt, c, "throw G3", 1.0)
        await settle(rt)
        assert rt.window is not None and rt.window.close == pytest.approx(1.15)
        loop.now = 1.1
        from_b = act(rt, b, "throw O6", 1.1, **forged)
        await settle(rt)
        assert rt.log == [(A, "play G3")]  # both held until the race is decided
        await walk(loop, rt, 1.2, step=0.05)
        assert await from_c is None and await from_b is None  # both applied (B's a fault)
        assert [m["index"] for m in b.of("ack")] == [rt.log.index((B, "throw O6"))]
        log.extend(rt.log)
        await rt.close()

    on_manual_clock(test)
    return log


def test_two_throw_ins_100_ms_apart_go_by_arrival_without_lag(store: Store) -> None:
    assert race(store, 1, 0.0) == [(A, "play G3"), (CC, "throw G3"), (B, "throw O6")]


def test_a_forged_client_time_is_ignored(store: Store) -> None:
    """B claims to have sent its throw-in before C's: the server reads its own clock."""
    forged = {"time": 0.5, "sent": 0.5, "timestamp": 0, "clock": 0.5, "lag": 0.9}
    assert race(store, 1, 0.0, **forged) == [(A, "play G3"), (CC, "throw G3"),
                                             (B, "throw O6")]


def test_the_credit_for_delay_puts_the_later_arrival_first(store: Store) -> None:
    """B's connection takes 0.25 s each way: its throw-in, 0.1 s after C's at the server,
    was sent 0.15 s before it (the credit, 0.25 s, is within B's quota of 0.3 s)."""
    assert race(store, 1, 0.25) == [(A, "play G3"), (B, "throw O6"), (CC, "throw G3")]


def test_a_tie_goes_to_the_seeded_tie_break(store: Store) -> None:
    """B's delay is exactly the 100 ms between the arrivals: both were sent at t=1.0.
    The table's seed decides, the same way every time; different seeds differ."""
    def c_first(seed: int) -> bool:  # the draws the table makes: one per entry, C's first
        rng = random.Random(seed ^ 0x7ACE)
        return rng.random() < rng.random()

    seeds = {c_first(seed): seed for seed in range(1, 40)}
    assert set(seeds) == {True, False}, "both outcomes occur among these seeds"
    for wins_c, seed in seeds.items():
        expected = [(CC, "throw G3"), (B, "throw O6")] if wins_c else \
            [(B, "throw O6"), (CC, "throw G3")]
        assert race(store, seed, 0.1) == [(A, "play G3"), *expected]
        assert race(store, seed, 0.1) == [(A, "play G3"), *expected]


def test_whether_another_person_holds_a_card_does_not_change_the_hold(store: Store) -> None:
    """No timing side channel (issue 41, item 9). A and C are people, B and D bots; C has
    no Politix call left. A plays G3 (bot B is due) and calls Politix out of turn. Whether
    C holds the other G3 (and so could throw it in, racing A) is hidden: the public view
    is the same either way. A's call is held for the race window in both cases, so its
    ack's latency tells A nothing about C's hand."""
    def held(c_holds_g3: bool) -> tuple[bool, str]:
        rt = position_table(store, bots={B: "easy", D: "easy"})
        pos = json.loads(json.dumps(POSITION))
        hands = pos["state"]["seats"]
        for seat, calls in enumerate([1, 1, 0, 1]):
            hands[seat]["politix_left"] = calls
        if not c_holds_g3:  # B's hand and C's swapped: the same sizes, nothing shown
            hands[B]["hand"], hands[CC]["hand"] = hands[CC]["hand"], hands[B]["hand"]
        st = rt.state = load_position(pos)
        st.apply(A, st.game.action_from_json("play G3"))
        assert st.to_act() == (B,)
        assert (CC in st.out_of_turn()) is c_holds_g3  # the hidden difference
        return rt.acting._contested(A, st.game.action_from_json("politix")), \
            json.dumps(st.view(A), sort_keys=True)

    (holds_with, seen_with), (holds_without, seen_without) = held(True), held(False)
    assert seen_with == seen_without  # what A may know is the same
    assert holds_with and holds_without


def test_race_window_order() -> None:
    async def test(loop: ManualClockLoop) -> None:
        w = RaceWindow(1.15)
        late = Entry(EntryKind.ACTION, 1.1, 0.0, seat=1)
        deadline = Entry(EntryKind.DEADLINE, 1.0)
        early = Entry(EntryKind.ACTION, 1.05, 0.05, seat=2)  # sent at 1.0, as the deadline
        w.entries += [late, deadline, early]
        assert w.ordered(random.Random(0)) == [early, deadline, late]

    on_manual_clock(test)


# -- pace ------------------------------------------------------------------------------------

def test_pace_lengths() -> None:
    assert Pace.parse(None) is Pace.RULES and Pace.parse("relaxed") is Pace.RELAXED
    with pytest.raises(ValueError):
        Pace.parse("fast")
    assert Pace.RULES.length(3.0, move_timer=True) == 3.0
    assert Pace.RELAXED.length(3.0, move_timer=True) == 9.0
    assert Pace.RELAXED.length(60.0, move_timer=True) == 180.0
    assert Pace.UNTIMED.length(3.0, move_timer=True) is None
    assert Pace.UNTIMED.length(4.0, move_timer=False) == UNTIMED_WINDOW
    assert Pace.UNTIMED.length(60.0, move_timer=False) == 60.0


def test_the_relaxed_pace_triples_the_deadlines(store: Store) -> None:
    async def test(loop: ManualClockLoop) -> None:
        rt = position_table(store, pace=Pace.RELAXED)
        a, b, _, _ = await seated(rt)
        assert rt.armed == (9.0, (CLOCK, MOVE_TIMER, 0))
        assert await act(rt, a, "play G3", 0.0) is None
        assert rt.armed == (9.0, (CLOCK, MOVE_TIMER, 1))
        assert b.of("update")[-1]["deadlines"][0]["seconds"] == 9.0
        loop.now = 4.0
        politix = act(rt, a, "politix", 4.0)  # out of turn: held for the race window
        await walk(loop, rt, 4.15)
        assert await politix is None
        # the pause begins when the race is decided (t = 4.15) and lasts 3 x 60 s
        assert rt.armed == (pytest.approx(184.15), (CLOCK, POLITIX_TIMER, 2))
        assert rt.timers.frozen == {(CLOCK, MOVE_TIMER, 1): pytest.approx(4.15)}
        assert rt.public_info()["pace"] == "relaxed"
        await rt.close()

    on_manual_clock(test)


def test_the_untimed_pace_has_no_move_timer(store: Store) -> None:
    async def test(loop: ManualClockLoop) -> None:
        rt = position_table(store, pace=Pace.UNTIMED)
        a, b, _, _ = await seated(rt)
        assert rt.clocks_started and rt.armed is None
        assert await act(rt, a, "play G3", 0.0) is None
        assert rt.armed is None and b.of("update")[-1]["deadlines"] == []
        await walk(loop, rt, 100.0, step=10.0)
        assert rt.log == [(A, "play G3")] and not rt.state.expired
        await rt.close()

    on_manual_clock(test)


def test_at_the_untimed_pace_an_idle_politix_caller_cannot_stall_the_table(
        store: Store) -> None:
    """Hood Politix's pauses end by themselves (§5.5, §5.6): their lengths are the rules'
    own (``Deadline.fixed``), not a move timer, so the untimed pace keeps them. A calls
    Politix and goes idle: the pause ends after 60 s and B's turn goes on, untimed."""
    async def test(loop: ManualClockLoop) -> None:
        rt = position_table(store, pace=Pace.UNTIMED)
        a, _, _, _ = await seated(rt)
        assert await act(rt, a, "play G3", 0.0) is None and rt.armed is None
        politix = act(rt, a, "politix", 1.0)  # out of turn: held for the race window
        await walk(loop, rt, 1.15)
        assert await politix is None and rt.state.pause
        assert rt.armed == (pytest.approx(61.15), (CLOCK, POLITIX_TIMER, 2))
        await walk(loop, rt, 70.0, step=1.0)
        assert not rt.state.pause and rt.log[-1] == (CLOCK, "expire politix")
        assert rt.armed is None and rt.state.to_act() == (B,)  # B's turn: untimed
        await rt.close()

    on_manual_clock(test)


def test_untimed_reaction_windows_stay_open_a_generous_fixed_time(store: Store) -> None:
    """HOAX's reaction windows (the game waits for nobody, 4 s by the rules) stay open
    ``UNTIMED_WINDOW`` seconds at the untimed pace: the game cannot stall."""
    async def test(loop: ManualClockLoop) -> None:
        store.create_table("HOAXUT", "hoax", 4, {}, 3, [SeatRow(i, "human") for i in range(4)],
                           setup=json.dumps({"pace": "untimed"}))
        row = store.load_table("HOAXUT")
        assert row is not None
        rt = TableRuntime(row, store, ServerConfig(db_url=store.url, grace_seconds=1000,
                                                   table_prefix=store.prefix))
        st = rt.state = row.first_state(rt.game)
        rt.row.status = "playing"
        rng = random.Random(5)
        while not st.deadlines():  # play on until a reaction window opens
            assert st.to_act()
            seat = st.to_act()[0]
            st.apply(seat, rng.choice(st.legal_actions(seat)))
        assert not st.to_act()  # the game waits for nobody: only time closes it
        await seated(rt)
        (key, length, _), = rt.clocks._timed()
        assert length == UNTIMED_WINDOW and rt.armed == (UNTIMED_WINDOW, key)
        await rt.close()

    on_manual_clock(test)


def test_the_pace_is_chosen_at_creation_and_listed(tmp_path: Path) -> None:
    cfg = ServerConfig(db_url=f"sqlite:///{tmp_path / 'pace.sqlite3'}",
                       table_prefix=unique_prefix(), grace_seconds=1000)
    with ServerThread(cfg) as server:
        r = httpx.post(f"{server.base}/api/tables", json={"game": "hood_politix",
                                                          "pace": "relaxed", "seed": 4})
        assert r.status_code == 201 and r.json()["pace"] == "relaxed"
        code = r.json()["code"]
        plain = create_table(server.base, "president", ["human", "bot:easy", "bot:easy",
                                                        "bot:easy"], players=4)
        assert plain["pace"] == "rules"
        listed = {t["code"]: t["pace"] for t in httpx.get(f"{server.base}/api/tables").json()}
        assert listed[code] == "relaxed" and listed[plain["code"]] == "rules"
        assert httpx.get(f"{server.base}/api/tables/{code}").json()["pace"] == "relaxed"
        r = httpx.post(f"{server.base}/api/tables", json={"game": "hood_politix",
                                                          "pace": "fast"})
        assert r.status_code == 400 and r.json() == {
            "error": "bad_pace", "message": "'pace' must be rules, relaxed or untimed."}
        r = httpx.post(f"{server.base}/api/tables?lang=de",
                       json={"game": "hood_politix", "pace": 3})
        assert r.json()["message"] == "'pace' muss rules, relaxed oder untimed sein."

        seat = join(server.base, code, "Zoe")

        async def play() -> None:
            me = await Client.open(server.ws_base, code, seat["token"])
            welcome = await me.until(has_view)
            assert welcome["not_ready"] == [0] and welcome["deadlines"] == []
            await me.send({"type": "ready"})  # the person pressed "I'm ready"
            started = await me.until(lambda m: m["type"] == "state")
            ping = await me.until(lambda m: m["type"] == "ping")  # pings began at hello
            assert started["not_ready"] == []
            assert [d["seconds"] for d in started["deadlines"]] == [9.0]  # 3 x 3 s
            await me.send({"type": "pong", "id": ping["id"]})
            await me.send({"type": "pong", "id": 12345})  # never sent: ignored quietly
            await me.send({"type": "ping", "id": "sync"})
            await me.until(lambda m: m["type"] == "pong")
            assert not [m for m in me.received if m["type"] == "error"]
            await me.close()

        asyncio.run(play())
        assert httpx.get(f"{server.base}/api/tables/{code}").json()["not_ready"] == []


# -- bots think off the event loop -----------------------------------------------------------

class SlowBot(Bot):
    """Thinks ``seconds`` (in its thread) before the bot it wraps decides."""

    name = "slow"

    def __init__(self, inner: Bot, seconds: float, thinking: threading.Event) -> None:
        super().__init__(inner.game, inner.seat)
        self.inner = inner
        self.seconds = seconds
        self.thinking = thinking

    def act(self, obs: Observation) -> int | None:
        self.thinking.set()
        time.sleep(self.seconds)
        return self.inner.act(obs)

    def react(self, obs: Observation) -> int | None:
        self.thinking.set()
        time.sleep(self.seconds)
        return self.inner.react(obs)


def test_a_slow_bot_does_not_hold_up_another_table(store: Store) -> None:
    """Table 1 has only bots, each thinking 1 s per decision; table 2 has four people.
    While a bot of table 1 thinks, an action at table 2 is applied at once."""
    thinking = threading.Event()

    async def test() -> None:
        cfg = ServerConfig(db_url=store.url, table_prefix=store.prefix, grace_seconds=1000)
        store.create_table("SLOW01", "president", 4, {}, 5,
                           [SeatRow(i, "bot", "random") for i in range(4)])
        store.create_table("QUICK1", "president", 4, {}, 6,
                           [SeatRow(i, "human") for i in range(4)])
        slow_row, quick_row = store.load_table("SLOW01"), store.load_table("QUICK1")
        assert slow_row is not None and quick_row is not None
        slow, quick = TableRuntime(slow_row, store, cfg), TableRuntime(quick_row, store, cfg)
        slow.bots = {s: SlowBot(b, 1.0, thinking) for s, b in slow.bots.items()}
        for rt in (slow, quick):
            rt.state = rt.row.first_state(rt.game)
            rt.row.status = "playing"
        quick_state = quick.state
        assert quick_state is not None
        due = quick_state.to_act()[0]
        (screen,) = await seated(quick, [due])
        slow.activate()
        while not thinking.is_set():
            await asyncio.sleep(0.01)
        # a bot of table 1 is thinking, on a copy of the state: the table's lock is free
        assert not slow.lock.locked() and slow._plans
        loop = asyncio.get_running_loop()
        began = loop.time()
        msg = {"type": "action", "id": "x",
               "action": quick.game.action_to_json(quick_state.legal_actions(due)[0])}
        assert await quick.player_action(screen.conn, msg) is None
        took = loop.time() - began
        assert took < 0.5, f"table 2 waited {took:.2f} s for table 1's bot"
        assert slow._plans and not slow.log  # the bot was still thinking
        assert len(quick.log) == 1 and screen.of("ack")[0]["index"] == 0
        await slow.close()
        await quick.close()

    asyncio.run(test())
