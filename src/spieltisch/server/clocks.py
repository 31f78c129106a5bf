"""A table's clocks: its timers and deadlines, the misclick guard, the pace, and "I'm ready".

A deadline that passes contends like an action that arrived then, and waits as long as
some player's credit for delay could still beat it. No clock runs and no bot acts before
every person at the table has pressed "I'm ready" (again after a pause).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from ..bots import make_bot
from ..bots.base import Observation
from ..core.game import CLOCK, IllegalAction, Verdict
from ..i18n import N_
from ..timers import Key, key_of
from .conn import Conn, err
from .store import StorageError
from .timing import Entry, EntryKind, Pace

if TYPE_CHECKING:
    from .table import TableRuntime

#: The pseudo-action of the server's per-move clock in timer keys (engine actions are ≥ 0).
MOVE_CLOCK = -2

log = logging.getLogger("spieltisch.server")


class Clocks:
    """Runs the table's timers, the misclick guard, the pace and the ready-wait."""

    def __init__(self, rt: TableRuntime) -> None:
        self.rt = rt

    # -- deadlines ---------------------------------------------------------------------
    def _deadline_json(self) -> list[dict[str, Any]]:
        """The timers running now, at the table's pace: each one's full length, the time
        it has left (``remaining``, seconds; a timer a misclick guard holds stands still)
        and whether every eligible seat may pass it. None before the clocks start."""
        now = _now()
        held = self._guarded_keys()
        passable = {key_of(d) for d in self.rt.state.deadlines() if d.passable} \
            if self.rt.state is not None else set()
        out = []
        for key, length, reason in self._timed():
            start = self.rt.timers.started.get(key, now)
            at = min(self.rt.guards.values()) if key in held else now
            out.append({"seat": key[0] if key[0] != CLOCK else None, "seconds": length,
                        "remaining": round(max(0.0, start + length - at), 3),
                        "reason": reason, "passable": key in passable,
                        "held": key in held})
        return out

    def _timed(self) -> list[tuple[Key, float, str]]:
        """The timers that run now: key, length (loop seconds) and reason. None before
        every person has seen the first deal; at the untimed pace no move timer (a
        deadline while the game waits for a seat, unless ``Deadline.fixed``), and
        reaction windows at least ``timing.UNTIMED_WINDOW`` (``Pace.length``)."""
        st = self.rt.state
        if st is None or self.rt.row.status != "playing" or st.is_over() \
                or not self.rt.clocks_started:
            return []
        scale = self.rt.config.time_scale
        waits = bool(st.to_act())
        out = []
        for d in st.deadlines():
            length = self.rt.pace.length(d.seconds, move_timer=waits and not d.fixed)
            if length is not None:
                out.append((key_of(d), length * scale, d.reason))
        for seat in self._clocked_seats():
            length = self.rt.pace.length(self.rt.config.move_clock, move_timer=True)
            assert length is not None  # no move clock at the untimed pace
            out.append(((seat, MOVE_CLOCK, st.move_number), length * scale, "move clock"))
        return out

    def _guarded_keys(self, guarded: Collection[int] | None = None) -> set[Key]:
        """The move timers a misclick guard holds: those of a seat the game waits for
        while that seat's guard is open (the rules' fixed lengths run on); ``guarded``:
        these seats' guards instead of the open ones."""
        st = self.rt.state
        seats = self.rt.guards if guarded is None else guarded
        if not seats or st is None:
            return set()
        waiting = [s for s in st.to_act() if s in seats]
        if not waiting:
            return set()
        out = {key_of(d) for d in st.deadlines() if not d.fixed}
        out.update((s, MOVE_CLOCK, st.move_number) for s in waiting)
        return out

    def _passable_key(self) -> Key | None:
        """The timer key of the reaction window every eligible seat may pass now, if any
        (only while the clocks run: before, nobody may close it)."""
        st = self.rt.state
        if st is None or not self.rt.clocks_started or st.is_over():
            return None
        return next((key_of(d) for d in st.deadlines() if d.passable), None)

    def _clocked_seats(self) -> list[int]:
        """Human seats the game waits for, when the server's per-move clock applies (a
        game without deadlines, not at the untimed pace)."""
        st = self.rt.state
        if self.rt.config.move_clock <= 0 or self.rt.pace is Pace.UNTIMED or st is None \
                or st.is_over() or st.deadlines():
            return []
        return [s for s in st.to_act() if self.rt.seatbots._bot_for(s) is None]

    # -- the clocks wait until every person is ready -------------------------------------
    def _after_change(self, actor: int) -> None:
        """What an applied action means for the table's clocks: a pause that ended waits
        for the people to be ready again (the one who ended it is), and a round that
        ended gives the table its own pace back."""
        st = self.rt.state
        assert st is not None
        paused = bool(st.frozen_timers())
        if self.rt._paused and not paused and self.rt.wants_ready and self.rt.clocks_started:
            self.rt.clocks_started = False
            self.rt.ready_seats = {actor} if actor >= 0 and self.rt._person_plays(actor) else set()
            if not self.not_ready():  # nobody else to wait for
                self.rt.clocks_started = True
            for seat in self.not_ready():
                if any(c.seat == seat for c in self.rt.conns):
                    self._expect_ready(seat)
        self.rt._paused = paused
        if self.rt._pace_round is not None and st.round_number() != self.rt._pace_round:
            self.rt._pace_round = None
            self.rt.pace = Pace.parse(self.rt.row.pace)

    def _arm(self) -> None:
        """Bring the timers in line with the state (after every change) and arm the next.
        Nothing runs before the clocks start; while a race is held the armed timer stays
        (it joins the race) and the books wait for its outcome."""
        if self.rt.window is not None:
            return
        if self.rt._timer is not None:
            self.rt._timer.cancel()
            self.rt._timer = None
        self.rt.armed = None
        st = self.rt.state
        if st is None or self.rt.row.status != "playing" or st.is_over() \
                or not self.rt.clocks_started:
            return
        loop = asyncio.get_running_loop()
        timed = self._timed()
        self.rt.timers.sync(st, loop.time(), [key for key, _, _ in timed if key[1] == MOVE_CLOCK])
        held = self._guarded_keys()
        best: tuple[float, Key] | None = None
        for key, length, _ in timed:
            if key in held:  # stands still while its player's guard is open
                continue
            due = self.rt.timers.started[key] + length
            if best is None or due < best[0]:
                best = (due, key)
        if best is not None:
            self.rt.armed = best
            due, key = best
            self.rt._timer = loop.call_at(due, lambda: self.rt._spawn(self._expire(key, due)))

    async def _expire(self, key: Key, due: float) -> None:
        """The timer ``key`` passed at ``due``: it contends like an action that arrived
        then, and waits as long as some player's credit for delay could still beat it."""
        async with self.rt.lock:
            if self.rt.state is None or self.rt.row.status != "playing":
                return
            await self.rt.acting._admit(Entry(EntryKind.DEADLINE, due, key=key),
                                        self.rt.acting._largest_credit())

    async def _expire_now(self, key: Key) -> None:
        """Apply what the timer ``key`` does, if it still runs; else re-arm. Caller holds
        the lock."""
        st = self.rt.state
        if st is None or self.rt.row.status != "playing":
            return
        seat, action, since = key
        if action == MOVE_CLOCK:
            if st.move_number == since and seat in self._clocked_seats():
                bot = make_bot(self.rt.game, self.rt.config.substitute_bot, seat,
                               self.rt.rng.randrange(2**31))
                answer = bot.act(Observation(st, seat, required=True))
                if await self.rt.seatbots._apply_bot(seat, answer):
                    self._count_timeout([seat])
                    return
                if self.rt._store_failures:  # the write failed: ``_retry_later`` re-arms
                    return
            self._arm()
            return
        timer = next((d for d in st.deadlines() if key_of(d) == key), None)
        if timer is not None:
            # a move timer that ran out on people the game waited for: they were late
            late = [] if timer.fixed else [s for s in st.to_act() if self.rt._person_plays(s)]
            try:
                await self.rt.acting._apply_locked(seat, action)
                self._count_timeout(late)
                return
            except IllegalAction as e:  # pragma: no cover - a game bug
                log.error("table %s: deadline action refused: %s", self.rt.code, e.reason)
            except StorageError as e:  # retried by ``_retry_later``
                log.error("table %s: storing a deadline's action failed: %s", self.rt.code, e)
                return
        self._arm()

    # -- passing a window, the misclick guard, the pace ---------------------------------
    async def _pass(self, seat: int) -> None:
        """``seat`` lets the open reaction window pass; once every seat that may still
        act in it has, it closes at once (``Deadline.passable``). Caller holds the lock."""
        st = self.rt.state
        key = self._passable_key()
        if st is None or key is None or seat not in st.out_of_turn():
            return
        self.rt.passed = {key: self.rt.passed.get(key, set()) | {seat}}
        if set(st.out_of_turn()) <= self.rt.passed[key] and self.rt.window is None:
            await self._expire_now(key)
        elif self.rt._person_plays(seat):
            self.rt.connections._push_states()  # everyone sees who passed

    async def pass_window(self, conn: Conn) -> dict[str, Any] | None:
        """A person pressed "Pass" in a reaction window; an error if there is none."""
        async with self.rt.lock:
            st = self.rt.state
            seat = conn.seat
            if seat is None or not conn.bound:
                return err("not_a_seat", conn.tr.gettext(N_("Spectators cannot act.")))
            if st is None or self._passable_key() is None or seat not in st.out_of_turn():
                return err("nothing_to_pass", conn.tr.gettext(
                    N_("There is no window you could pass now.")))
            await self._pass(seat)
            return None

    async def guard(self, conn: Conn, msg: dict[str, Any]) -> dict[str, Any] | None:
        """The misclick guard of ``conn``'s person opened (``action``: the penalised
        attempt it asks about) or closed (``action`` null). While it is open the move
        timer of that seat stands still, up to ``guard_seconds`` per move, so hesitating
        in it never makes the person late."""
        tr = conn.tr
        seat = conn.seat
        if seat is None or not conn.bound:
            return err("not_a_seat", tr.gettext(N_("Spectators cannot act.")))
        async with self.rt.lock:
            st = self.rt.state
            if msg.get("action") is None:
                self._close_guard(seat)
                self._after_guard()
                return None
            if st is None or self.rt.row.status != "playing" or seat not in st.to_act():
                return err("no_guard", tr.gettext(N_("Nothing to confirm: it is not your "
                                                     "move.")))
            try:
                action = self.rt.game.action_from_json(msg["action"])
            except Exception:  # a game's parser choking on garbage
                return err("bad_action", tr.gettext(N_("That is not an action of this game.")))
            if st.judge(seat, action).verdict is not Verdict.FAULTY:
                return err("no_guard", tr.gettext(N_("That attempt costs nothing: play it "
                                                     "without confirming.")))
            used = self.rt._guard_used.get((seat, self.rt.epoch), 0.0)
            left = self.rt.config.guard_seconds - used
            if seat in self.rt.guards or left <= 0:
                return None  # already open, or this move's guard time is spent
            loop = asyncio.get_running_loop()
            self.rt.guards[seat] = loop.time()
            self.rt._guard_timers[seat] = loop.call_later(
                left, lambda: self.rt._spawn(self._guard_ran_out(seat)))
            self._after_guard()
            return None

    async def _guard_ran_out(self, seat: int) -> None:
        async with self.rt.lock:
            self.rt._guard_timers.pop(seat, None)
            if seat in self.rt.guards:
                self._close_guard(seat)
                self._after_guard()

    def _close_guard(self, seat: int) -> None:
        """Close ``seat``'s guard: the move timers it held run on from where they stood."""
        opened = self.rt.guards.pop(seat, None)
        h = self.rt._guard_timers.pop(seat, None)
        if h is not None:
            h.cancel()
        if opened is None:
            return
        held = self._guarded_keys({seat})
        credit = max(0.0, _now() - opened)
        used = (seat, self.rt.epoch)
        self.rt._guard_used[used] = self.rt._guard_used.get(used, 0.0) + credit
        for key in held:
            if key in self.rt.timers.started:
                self.rt.timers.started[key] += credit

    def _after_guard(self) -> None:
        """Re-arm the timers and show everyone the clocks as they now stand."""
        self._arm()
        self.rt.connections._push_states()

    def _count_timeout(self, waiting: list[int]) -> None:
        """The move timer of the people in ``waiting`` ran out: at a second timeout in a
        row, a person whose every opponent is a bot is offered the untimed pace for the
        rest of the round (once a round)."""
        st = self.rt.state
        if st is None or self.rt.pace is Pace.UNTIMED:
            return
        for seat in waiting:
            n = self.rt.timeouts[seat] = self.rt.timeouts.get(seat, 0) + 1
            others_bots = all(not self.rt._person_plays(s) for s in range(self.rt.row.players)
                              if s != seat)
            if n >= 2 and others_bots and self.rt._offered.get(seat) != st.round_number():
                self.rt._offered[seat] = st.round_number()
                for c in self.rt.conns:
                    if c.seat == seat and c.bound:
                        c.send({"type": "offer_pace", "pace": Pace.UNTIMED.value})

    async def set_pace(self, conn: Conn, msg: dict[str, Any]) -> dict[str, Any] | None:
        """The person accepts the untimed pace offered after two timeouts in a row."""
        tr = conn.tr
        async with self.rt.lock:
            st = self.rt.state
            seat = conn.seat
            if msg.get("pace") != Pace.UNTIMED.value or seat is None or st is None \
                    or self.rt._offered.get(seat) != st.round_number() \
                    or self.rt.row.status != "playing":
                return err("no_offer", tr.gettext(N_("The pace can change only when the "
                                                     "table offers it.")))
            self.rt.pace = Pace.UNTIMED
            self.rt._pace_round = st.round_number()
            self.rt.timeouts[seat] = 0
            self._arm()
            self.rt.connections._push_states()
            return None

    def _has_seen(self, seat: int) -> bool:
        return seat in self.rt.ready_seats or not self.rt._person_plays(seat)

    def not_ready(self) -> list[int]:
        """Person seats the table waits for: before the first clock and after a pause,
        each person presses "I'm ready"; until all have, no clock runs and no bot acts."""
        if not self.rt.wants_ready or self.rt.clocks_started or self.rt.row.status != "playing":
            return []
        return [s.seat for s in self.rt.human_seats() if not self._has_seen(s.seat)]

    def _saw_deal(self, seat: int) -> None:
        """The person at ``seat`` is ready; the last one starts (or restarts) the clocks."""
        if seat in self.rt.ready_seats or self.rt.clocks_started:
            return
        self.rt.ready_seats.add(seat)
        h = self.rt._ready_timers.pop(seat, None)
        if h is not None:
            h.cancel()
        self._check_ready()
        self.rt.connections._notify_seats()

    def _check_ready(self) -> bool:
        """Start the clocks once every person is ready (or a bot plays their seat); every
        connection then gets a ``state`` with the running timers, and the bots begin."""
        if self.rt.clocks_started or self.rt.row.status != "playing" or self.rt.state is None \
                or self.not_ready():
            return False
        self.rt.clocks_started = True
        for h in self.rt._ready_timers.values():
            h.cancel()
        self.rt._ready_timers.clear()
        self._arm()
        self.rt.connections._push_states()
        self.rt.epoch += 1
        self.rt._wake.set()
        return True

    def _expect_ready(self, seat: int) -> None:
        """A connected person who never presses "I'm ready" counts as ready after
        ``ready_timeout`` seconds (0: never), so a table cannot wait for them forever."""
        if self.rt.clocks_started or self.rt.row.status != "playing" or self._has_seen(seat) \
                or seat in self.rt._ready_timers or self.rt.config.ready_timeout <= 0:
            return
        self.rt._ready_timers[seat] = asyncio.get_running_loop().call_later(
            self.rt.config.ready_timeout, lambda: self.rt._spawn(self._ready_anyway(seat)))

    async def _ready_anyway(self, seat: int) -> None:
        async with self.rt.lock:
            self.rt._ready_timers.pop(seat, None)
            if any(c.seat == seat for c in self.rt.conns) and seat not in self.rt.ready_seats:
                log.info("table %s: seat %d never said ready; its clock runs anyway",
                         self.rt.code, seat)
                self._saw_deal(seat)

    async def ready(self, conn: Conn) -> None:
        """The person at ``conn``'s seat pressed "I'm ready"."""
        async with self.rt.lock:
            if conn.seat is None or not conn.bound or self.rt.row.status != "playing":
                return
            self._saw_deal(conn.seat)


def _now() -> float:
    """The event loop's clock (the one the timers run on); ``time.monotonic`` outside a
    loop, which is what the standard loops read."""
    try:
        return asyncio.get_running_loop().time()
    except RuntimeError:
        return time.monotonic()
