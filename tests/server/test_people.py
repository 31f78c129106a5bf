"""Opponents that feel like people (issue 35), at the server: a table waits for each person
to press "I'm ready", the misclick guard holds the move timer, a reaction window closes
once everyone passed, bots answer after a person's delay, and a person who keeps timing
out against bots is offered the untimed pace.

The tests run the table on an event loop whose clock only the test moves.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from spieltisch.bots.base import Bot, Observation
from spieltisch.bots.pacing import TEMPI, BotClock, Moment, level_of
from spieltisch.core import CLOCK
from spieltisch.server.app import Lobby
from spieltisch.server.config import ServerConfig
from spieltisch.server.store import SeatRow, Store
from spieltisch.server.table import TableRuntime
from spieltisch.server.timing import Pace

from .helpers import unique_prefix
from .test_hood_clock import ManualClockLoop
from .test_realtime_fairness import (
    MOVE_TIMER,
    A,
    Screen,
    act,
    on_manual_clock,
    position_table,
    seated,
    walk,
)

B, CC, D = 1, 2, 3


@pytest.fixture
def store(sqlite_store: Store) -> Store:
    return sqlite_store


def penalties(rt: TableRuntime) -> list[str]:
    """The penalties so far: timeouts that ran out and accusations."""
    return [text for seat, text in rt.log
            if text.startswith("accuse") or (seat == CLOCK and "move-timer" in text)]


def test_a_person_who_idles_a_minute_before_ready_gets_no_penalty(tmp_path: Path) -> None:
    """A first Hood Politix table at the default pace, one person and three medium bots
    answering at a person's pace: for 60 s before "I'm ready" nobody moves and no clock
    runs; the table says whom it waits for. After it, the bots play and the clocks run."""
    async def test(loop: ManualClockLoop) -> None:
        lobby = Lobby(ServerConfig(db_url=f"sqlite:///{tmp_path / 'idle.sqlite3'}",
                                   table_prefix=unique_prefix(), bot_timing=1.0))
        try:
            rt = await lobby.create({"game": "hood_politix", "players": 4}, "zoe")
            await lobby.join(rt, {"name": "Zoe"}, "zoe")
            zoe = Screen()
            await rt.attach(zoe.conn, A)
            assert zoe.of("welcome")[0]["not_ready"] == [A]
            await walk(loop, rt, 60.0, step=0.5)
            assert rt.log == [] and penalties(rt) == [] and rt.armed is None
            await rt.ready(zoe.conn)
            assert rt.not_ready() == [] and zoe.of("seats")[-1]["not_ready"] == []
            for _ in range(5):  # 15 s of play each time
                await walk(loop, rt, loop.now + 15.0, step=0.05)
                if A not in rt.not_ready():
                    break
                # a bot called Politix (its medium level may, at once): after the pause the
                # clocks wait for everyone again, and Zoe presses "I'm ready" again
                await rt.ready(zoe.conn)
            st = rt.state
            assert st is not None and len(rt.log) > 0 and rt.clocks_started  # it moves
        finally:
            lobby.store.drop_all()
            await lobby.close()

    on_manual_clock(test)


def test_hesitating_in_the_misclick_guard_costs_no_time(store: Store) -> None:
    """A is due with 3 s; at t=1 she clicks Orange 1 on Green 7 (a fault: 2 cards) and the
    guard asks. She hesitates 5 s: her timer stands still at 2 s left. She cancels: it
    runs on from 2 s. A second hesitation is held only up to the 15 s a move may take."""
    async def test(loop: ManualClockLoop) -> None:
        rt = position_table(store)
        screens = await seated(rt)
        key = (CLOCK, MOVE_TIMER, 0)
        assert rt.armed == (3.0, key)
        conn = screens[A].conn
        loop.now = 1.0
        assert await rt.guard(conn, {"action": "play O1"}) is None
        assert rt.armed is None
        held = screens[B].of("state")[-1]["deadlines"]
        assert [(d["seat"], d["remaining"]) for d in held] == [(None, 2.0)]
        await walk(loop, rt, 6.0)  # five seconds in the dialog
        assert penalties(rt) == [] and rt.log == []
        assert await rt.guard(conn, {"action": None}) is None  # "Cancel"
        assert rt.armed == (8.0, key)
        loop.now = 7.0
        assert await rt.guard(conn, {"action": "play O1"}) is None  # 1 s left, 10 s of guard
        await walk(loop, rt, 16.95, step=0.5)
        assert penalties(rt) == []
        await walk(loop, rt, 17.0)  # the guard ran out at 17: the last second runs
        assert rt.armed == (18.0, key) and rt.guards == {}
        await walk(loop, rt, 18.0)
        assert penalties(rt) == ["expire move-timer"]
        await rt.close()

    on_manual_clock(test)


def test_a_guard_opens_only_for_a_penalised_attempt_of_the_seat_on_turn(
        store: Store) -> None:
    async def test(loop: ManualClockLoop) -> None:
        rt = position_table(store)
        screens = await seated(rt)
        legal = await rt.guard(screens[A].conn, {"action": "play G3"})
        assert legal is not None and legal["code"] == "no_guard"
        assert legal["message"] == "That attempt costs nothing: play it without confirming."
        off_turn = await rt.guard(screens[B].conn, {"action": "play O6"})
        assert off_turn is not None and off_turn["code"] == "no_guard"
        garbage = await rt.guard(screens[A].conn, {"action": "play XX"})
        assert garbage is not None and garbage["code"] == "bad_action"
        assert rt.guards == {} and rt.armed == (3.0, (CLOCK, MOVE_TIMER, 0))
        await rt.close()

    on_manual_clock(test)


def test_sending_the_attempt_closes_the_guard_with_the_time_credited(
        store: Store) -> None:
    """She confirms after 4 s: the attempt costs its 2 cards, never a timeout."""
    async def test(loop: ManualClockLoop) -> None:
        rt = position_table(store)
        screens = await seated(rt)
        loop.now = 2.5
        assert await rt.guard(screens[A].conn, {"action": "play O1"}) is None
        loop.now = 6.5
        assert await act(rt, screens[A], "play O1", 6.5) is None
        st = rt.state
        assert st is not None and rt.guards == {}
        assert rt.log == [(A, "play O1")] and st.hands[A].bit_count() == 8
        assert penalties(rt) == []
        await rt.close()

    on_manual_clock(test)


class Accuser(Bot):
    """Accuses every timeout it may, and does nothing else out of turn."""

    def react(self, obs: Observation) -> int | None:
        return next((a for a in obs.legal_actions()
                     if obs.game.action_to_json(a).endswith(" timeout")), None)


def test_two_timeouts_in_a_row_against_bots_offer_the_untimed_pace(
        store: Store) -> None:
    """A plays against three bots (answering at once): her timer runs out at 3 s, a bot
    accuses her (after the 0.15 s in which she could race it), she draws 2 and has a fresh
    3 s, which run out too: she is offered the untimed pace; she takes it, and her move
    timer stops for the rest of the round."""
    async def test(loop: ManualClockLoop) -> None:
        rt = position_table(store, bots={B: "medium", CC: "medium", D: "medium"})
        rt.bots = {s: Accuser(rt.game, s) for s in (B, CC, D)}
        rt.activate()  # the bots' driver
        (zoe,) = await seated(rt, [A])
        await walk(loop, rt, 3.2)
        assert rt.timeouts[A] == 1 and zoe.of("offer_pace") == []
        assert [t for _, t in rt.log] == ["expire move-timer", "accuse 0 timeout"]
        await walk(loop, rt, 6.2)
        assert rt.timeouts[A] == 2
        assert zoe.of("offer_pace") == [{"type": "offer_pace", "pace": "untimed"}]
        refused = await rt.set_pace(zoe.conn, {"pace": "relaxed"})
        assert refused is not None and refused["code"] == "no_offer"
        assert await rt.set_pace(zoe.conn, {"pace": "untimed"}) is None
        assert rt.pace is Pace.UNTIMED and rt.time_factor() is None
        assert zoe.of("state")[-1]["pace"] == "untimed"
        await rt.close()

    on_manual_clock(test)


def test_people_who_time_out_at_a_table_of_people_are_not_offered(
        store: Store) -> None:
    async def test(loop: ManualClockLoop) -> None:
        rt = position_table(store)
        screens = await seated(rt)
        await walk(loop, rt, 3.0)
        accused = act(rt, screens[B], "accuse 0 timeout", 3.5)
        await walk(loop, rt, 7.0)
        assert await accused is None
        assert rt.timeouts[A] == 2 and screens[A].of("offer_pace") == []
        refused = await rt.set_pace(screens[A].conn, {"pace": "untimed"})
        assert refused is not None and refused["code"] == "no_offer"
        await rt.close()

    on_manual_clock(test)


def hoax_table(store: Store, seed: int = 3) -> TableRuntime:
    """Six people at a HOAX table, the clocks running."""
    code = uuid.uuid4().hex[:8].upper()
    store.create_table(code, "hoax", 6, {}, seed, [SeatRow(i, "human") for i in range(6)])
    row = store.load_table(code)
    assert row is not None
    rt = TableRuntime(row, store, ServerConfig(db_url=store.url, table_prefix=store.prefix,
                                               grace_seconds=1000))
    rt.state = row.first_state(rt.game)
    rt.row.status = "playing"
    return rt


def test_a_hoax_window_closes_once_everyone_passed(store: Store) -> None:
    """The people cover and the first player makes a claim: its doubt window is open for
    4 s, but it closes the moment the last eligible person passed."""
    async def test(loop: ManualClockLoop) -> None:
        rt = hoax_table(store)
        screens = await seated(rt, range(6))
        st = rt.state
        assert st is not None
        while rt.clocks._passable_key() is None:  # everyone plays their first legal action
            seat = st.to_act()[0]
            async with rt.lock:
                await rt.acting._apply_locked(seat, st.legal_actions(seat)[0])
        key = rt.clocks._passable_key()
        eligible = list(st.out_of_turn())
        doubt = {s: rt.game.action_to_json(st.legal_actions(s)[0]) for s in eligible}
        assert key is not None and len(eligible) >= 2
        loop.now = 0.5
        for i, seat in enumerate(eligible):
            assert rt.clocks._passable_key() == key
            assert screens[seat].of("state")[-1]["may_pass"] is True or i == 0
            assert await rt.pass_window(screens[seat].conn) is None
            if i < len(eligible) - 1:
                assert screens[seat].of("state")[-1]["passed"] == sorted(eligible[:i + 1])
                assert screens[seat].of("state")[-1]["may_pass"] is False
        assert rt.log[-1][0] == CLOCK and rt.clocks._passable_key() != key  # closed at t = 0.5
        # a reaction that comes after its window closed is "too late", not "not your turn"
        late = [s for s in eligible if s not in st.may_act()]
        assert late
        refused = await rt.player_action(screens[late[0]].conn,
                                          {"type": "action", "action": doubt[late[0]]})
        assert refused is not None and refused["message"] == "Too late: that chance has passed."
        again = await rt.pass_window(screens[eligible[0]].conn)
        assert again is None or again["code"] == "nothing_to_pass"
        await rt.close()

    on_manual_clock(test)


def test_bot_delays_are_a_persons_drawn_per_level_and_seeded() -> None:
    for level, tempo in TEMPI.items():
        clock, twin = BotClock(level, 7, 1.0), BotClock(level, 7, 1.0)
        for moment in Moment:
            band = tempo.delay(moment)
            draws = [clock.delay(moment) for _ in range(500)]
            assert draws == [twin.delay(moment) for _ in range(500)]
            assert all(band.low <= d <= band.high for d in draws)
            assert min(draws) >= 0.4  # never quicker than a person's lag credit
        assert tempo.act.low >= 1.1  # a person sees the card before the next one comes
    assert BotClock(level_of("hard"), 7, 0.0).delay(Moment.ACT) == 0.0
    assert level_of("ismcts:200").value == "medium" and level_of("easy").value == "easy"


def test_a_bot_answers_a_persons_move_after_its_levels_delay(tmp_path: Path) -> None:
    """President, one person and three medium bots at a person's pace: after each move
    the next bot's answer comes no sooner than 1.2 s (medium's quickest turn) and no
    later than 2.2 s."""
    async def test(loop: ManualClockLoop) -> None:
        lobby = Lobby(ServerConfig(db_url=f"sqlite:///{tmp_path / 'pres.sqlite3'}",
                                   table_prefix=unique_prefix(), bot_timing=1.0))
        try:
            rt = await lobby.create({"game": "president", "players": 4,
                                     "seats": ["human", "bot:medium", "bot:medium", "bot:medium"]},
                                    "zoe")
            await lobby.join(rt, {"name": "Zoe"}, "zoe")
            assert rt.not_ready() == []  # no clocks in President: nothing to wait for
            moves: list[tuple[float, int]] = []  # when each move came, and whose
            orig = rt.acting._apply_locked

            async def stamped(seat: int, action: int, *args: object) -> int:
                moves.append((loop.now, seat))
                return await orig(seat, action, *args)  # type: ignore[arg-type]

            rt.acting._apply_locked = stamped  # type: ignore[method-assign]
            st = rt.state
            assert st is not None
            while loop.now < 30.0 and not st.is_over():
                if A in st.to_act():  # Zoe answers at once
                    async with rt.lock:
                        await rt.acting._apply_locked(A, st.legal_actions(A)[0])
                await walk(loop, rt, round(loop.now + 0.01, 2), step=0.01)
            gaps = [(round(t - before, 2), seat) for (before, _), (t, seat)
                    in zip([(0.0, -1), *moves], moves, strict=False)]
            bots = [g for g, seat in gaps if seat != A]
            assert len(bots) >= 6 and all(1.2 <= g <= 2.21 for g in bots), gaps
        finally:
            lobby.store.drop_all()
            await lobby.close()

    on_manual_clock(test)


def test_the_narration_names_the_paces_seconds(store: Store) -> None:
    """At the relaxed pace the timeout is "the 9-second rule", in every language."""
    async def test(loop: ManualClockLoop) -> None:
        rt = position_table(store, pace=Pace.RELAXED)
        screens = await seated(rt)
        await walk(loop, rt, 9.0)
        accused = act(rt, screens[B], "accuse 0 timeout", 9.5)  # others could race it
        await walk(loop, rt, 9.7)
        assert await accused is None
        said = [line["text"] for line in screens[CC].of("update")[-1]["log"]]
        assert said[0] == "Seat 2 accuses Seat 1 of taking too long (9-second rule) — " \
            "rightly.", said
        told = [line["text"] for line in rt.snapshot(CC, "state", "de")["log"]]
        assert any("(9-Sekunden-Regel)" in text for text in told), told
        await rt.close()

    on_manual_clock(test)
