"""The server's table times a game's timers on the event loop's clock: a timer that a pause
freezes resumes with the time it had left (Hood Politix §5.3, ``State.frozen_timers``).

The loop here runs on a manual clock, so the test moves time itself: no wall-clock sleeps.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from spieltisch import load_position
from spieltisch.core import CLOCK
from spieltisch.games.hood_politix import cards as C
from spieltisch.server.config import ServerConfig
from spieltisch.server.store import SeatRow, Store
from spieltisch.server.table import TableRuntime

from .helpers import unique_prefix

A, B, CC, D = 0, 1, 2, 3

#: D deals; A and C hold the two Green 3s, Green 7 is on the discard pile; the other
#: cards form the draw pile ("...", in id order).
POSITION = {
    "version": 1, "game": "hood_politix", "players": 4, "options": {"first_dealer": 3},
    "chance": {"seed": 1},
    "state": {
        "dealer": 3,
        "seats": [{"hand": ["G3", "O1", "O2", "O3", "O4", "O5"]},
                  {"hand": ["O6", "O7", "O8", "O9", "O10", "Y1"]},
                  {"hand": ["G3", "Y2", "Y3", "Y4", "Y5", "Y6"]},
                  {"hand": ["Y7", "Y8", "Y9", "Y10", "P1", "P2"]}],
        "draw": ["..."], "discard": ["G7"], "phase": "turn", "due": 0,
    },
}


class ManualClockLoop(asyncio.SelectorEventLoop):
    """An event loop whose clock moves only when the test moves it."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0

    def time(self) -> float:
        return self.now


def test_a_paused_move_timer_resumes_with_the_time_it_had_left(tmp_path: Path) -> None:
    """A plays at t=0; C throws in at t=2 (the timer restarts); A calls Politix at t=4; the
    pause ends by itself at t=64; B's timer, frozen with 2 s run, runs out at t=65 (not
    67); at t=65.5 C's timeout claim is valid: B draws 2."""
    store = Store(f"sqlite:///{tmp_path / 'clock.sqlite3'}", unique_prefix())
    store.create_table("HOOD53", "hood_politix", 4, {"first_dealer": 3}, 1,
                       [SeatRow(i, "human") for i in range(4)])
    row = store.load_table("HOOD53")
    assert row is not None
    cfg = ServerConfig(db_url=store.url, table_prefix=store.prefix, grace_seconds=1000)
    loop = ManualClockLoop()

    async def run() -> None:
        rt = TableRuntime(row, store, cfg)
        rt.state = st = load_position(POSITION)  # the table starts from the position
        rt.row.status = "playing"
        rt.ready_seats.update(range(4))  # every player pressed "I'm ready": the clocks run
        assert rt.clocks._check_ready()
        move_timer = C.EXPIRE_ID[C.T_MOVE]

        async def settle(until: Callable[[], bool] = lambda: False) -> None:
            """Let the loop run what is due now (a timer that passed, its action, whose
            write runs in the store's writer thread while the table's lock is held)."""
            for turn in range(200_000):
                if until() or (turn >= 200 and not rt.lock.locked()):
                    return
                await asyncio.sleep(0)

        async def at(t: float, seat: int, text: str) -> None:
            loop.now = t
            await settle()
            async with rt.lock:
                await rt.acting._apply_locked(seat, rt.game.action_from_json(text))

        await at(0.0, A, "play G3")
        await at(2.0, CC, "throw G3")
        assert rt.armed == (5.0, (CLOCK, move_timer, 2))  # restarted by the throw-in
        await at(4.0, A, "politix")
        assert rt.timers.frozen == {(CLOCK, move_timer, 2): 2.0}
        assert rt.armed == (64.0, (CLOCK, C.EXPIRE_ID[C.T_POLITIX], 3))
        loop.now = 63.9
        await settle()
        assert st.pause and st.move_number == 3
        loop.now = 64.0
        await settle(lambda: not st.pause)
        assert not st.pause and rt.log[-1] == (CLOCK, "expire politix")
        # after a pause every person presses "I'm ready" again; meanwhile no clock runs
        assert rt.not_ready() == [A, B, CC, D] and rt.armed is None
        for seat in (A, B, CC, D):
            rt.clocks._saw_deal(seat)
        assert rt.armed == (65.0, (CLOCK, move_timer, 2))  # 1 s left, not 3
        loop.now = 64.9
        await settle()
        assert not st.expired
        loop.now = 65.0
        await settle(lambda: st.expired)
        assert rt.log[-1] == (CLOCK, "expire move-timer")
        await at(65.5, CC, "accuse 1 timeout")
        assert st.hands[B].bit_count() == 8 and st.hands[CC].bit_count() == 5
        assert st.to_act() == (B,) and rt.armed == (68.5, (CLOCK, move_timer, 6))
        assert [r.action for r in store.load_actions(row.id)] == [
            "play G3", "throw G3", "politix", "expire politix", "expire move-timer",
            "accuse 1 timeout"]
        await rt.close()

    try:
        loop.run_until_complete(run())
    finally:
        loop.close()
        store.drop_all()
        store.close()
