"""A table's connections: attaching and detaching, snapshots, broadcasts, spectators, pings.

One view and one encoding per seat and language: spectators share theirs. A snapshot
carries the whole history its reader saw (``history``); an update carries what is new.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import TYPE_CHECKING, Any

from .. import narration
from ..core.game import CLOCK, Event
from .conn import Conn
from .ending import ABANDONED
from .guard import RateLimit
from .history import Narrated, off_loop
from .texts import action_labels, log_lines

if TYPE_CHECKING:
    from .table import TableRuntime

log = logging.getLogger("spieltisch.server")


class Connections:
    """Serves the table to its connections: snapshots, updates, seats, pings."""

    def __init__(self, rt: TableRuntime) -> None:
        self.rt = rt

    def snapshot(self, seat: int | None, kind: str = "state", lang: str = "en"
                 ) -> dict[str, Any]:
        """The full picture ``seat`` may have (welcome, start, state) in ``lang``, with
        the whole history it saw told in ``log`` (a reload or a late join sees it all).
        What is sent is ``snapshot_text``, the same message encoded."""
        msg, told = self._snapshot(seat, kind, lang)
        msg["log"] = [] if told is None else told.lines()
        if "abandoned" in msg:
            msg["log"].append(self.rt.ending._abandoned_log(msg["abandoned"]))
        return msg

    def snapshot_text(self, seat: int | None, kind: str = "state", lang: str = "en") -> str:
        """``snapshot`` encoded, at the cost of what is new since the last one: the
        history is the kept one's text (``history``), only the rest is encoded."""
        msg, told = self._snapshot(seat, kind, lang)
        if told is None:
            msg["log"] = []
            return json.dumps(msg)
        lines = told.text()
        if "abandoned" in msg:  # the history's last line says why the game stopped
            last = json.dumps(self.rt.ending._abandoned_log(msg["abandoned"]))
            lines = f"{lines}, {last}" if lines else last
        return json.dumps(msg)[:-1] + ', "log": [' + lines + "]}"

    def _snapshot(self, seat: int | None, kind: str, lang: str
                  ) -> tuple[dict[str, Any], Narrated | None]:
        """The snapshot without its ``log``, and the kept history it carries (None
        before the game starts): every event so far as ``seat`` saw it, one log line
        each, the opening deal (index -1) first (``history``)."""
        names = self.rt.names(lang)
        msg: dict[str, Any] = {"type": kind, "code": self.rt.row.code, "seat": seat,
                               "status": self.rt.row.status, "index": len(self.rt.log),
                               "names": names}
        if self.rt.state is None:
            return msg, None
        ctx = self.rt._context(names, lang, seat)
        told = self.rt.histories.get(lang, ctx, self.rt.log)
        msg.update(self._seat_part(seat, ctx=ctx))
        return msg, told

    async def history_ready(self, seat: int | None, lang: str) -> None:
        """Have the history of ``seat`` in ``lang`` kept before a snapshot needs it:
        narrated in the history thread, off the event loop, if it is not (a late
        spectator of a long game), once for all who ask at the same time."""
        if self.rt.state is not None:
            ctx = self.rt._context(self.rt.names(lang), lang, seat)
            await self.rt.histories.ready(lang, ctx, self.rt.log)
            if self.rt._sheet is None and self.rt.state.is_over():  # replays the game once
                await off_loop(self.rt.ending.score_sheet)

    def _seat_part(self, seat: int | None,
                   deadlines: list[dict[str, Any]] | None = None,
                   ctx: narration.Context | None = None) -> dict[str, Any]:
        """The view, deadlines, result and, for a seat, its legal actions and their
        labels (in the language of ``ctx``; English without one)."""
        st = self.rt.state
        assert st is not None
        if ctx is None:
            ctx = self.rt._context(self.rt.names("en"), "en", seat)
        window = self.rt.clocks._passable_key()
        passed = self.rt.passed.get(window, set()) if window is not None else set()
        part: dict[str, Any] = {
            "view": st.view(seat),
            "deadlines": self.rt.clocks._deadline_json() if deadlines is None else deadlines,
            "not_ready": self.rt.clocks.not_ready(),
            "pace": self.rt.pace.value, "time_factor": self.rt.time_factor(),
            "passed": sorted(passed),
            "may_pass": seat is not None and window is not None and seat not in passed
            and seat in st.out_of_turn(),
            "over": st.is_over()}
        if st.is_over():
            part["result"] = st.result().to_json()
            part["sheet"] = self.rt.ending.sheet_json(ctx)
            part["rematch"] = self.rt.ending.rematch_json(seat)
        abandoned = self.rt.row.status == ABANDONED
        if abandoned:
            part["abandoned"] = self.rt.ending.abandoned_line(ctx.tr.lang)
        if seat is not None and not st.is_over() and not abandoned:
            required = seat in st.to_act()
            legal = st.legal_actions(seat) if required or seat in st.out_of_turn() else []
            part["required"] = required
            part["legal"] = [self.rt.game.action_to_json(a) for a in legal]
            part["labels"] = action_labels(self.rt.game, legal, ctx)
        elif seat is not None:
            part["required"] = False
            part["legal"] = []
            part["labels"] = {}
        return part

    def _broadcast(self, actor: int, action: Any, events: list[Event]) -> None:
        index = len(self.rt.log) - 1  # the position of this action in the log
        self.rt.histories.applied(index, events)  # the kept histories grow by its lines
        # one view and one encoding per seat and language (spectators share)
        per_seat: dict[tuple[int | None, str], str] = {}
        names: dict[str, list[str]] = {}  # per language
        deadlines: list[dict[str, Any]] | None = None
        for c in self.rt.conns:
            if not c.bound:
                continue
            text = per_seat.get((c.seat, c.lang))
            if text is None:
                if c.lang not in names:
                    names[c.lang] = self.rt.names(c.lang)
                ctx = self.rt._context(names[c.lang], c.lang, c.seat)
                msg: dict[str, Any] = {
                    "type": "update", "index": index,
                    "seat": actor if actor != CLOCK else None,
                    "events": [e.for_seat(c.seat) for e in events],
                    "log": self.rt.histories.lines_of(c.lang, ctx, index)
                    or log_lines(self.rt.game, index, events, c.seat, ctx),
                }
                if c.seat is not None and c.seat == actor:
                    msg["action"] = action
                if deadlines is None:
                    deadlines = self.rt.clocks._deadline_json()
                msg.update(self._seat_part(c.seat, deadlines, ctx))
                if "abandoned" in msg:  # the last update: its log says why
                    msg["log"] = [*msg["log"], self.rt.ending._abandoned_log(msg["abandoned"])]
                    msg["status"] = ABANDONED
                text = per_seat[(c.seat, c.lang)] = json.dumps(msg)
            c.send(text)

    def _push_states(self) -> None:
        """A fresh ``state`` to every connection (one encoding per seat and language)."""
        per_seat: dict[tuple[int | None, str], str] = {}
        for c in self.rt.conns:
            if c.bound:
                key = (c.seat, c.lang)
                if key not in per_seat:
                    per_seat[key] = json.dumps(self.snapshot(c.seat, "state", c.lang))
                c.send(per_seat[key])

    # -- pings: each connection's lag, its credit for delay ---------------------------
    def _start_pings(self, conn: Conn) -> None:
        """Measure a seated connection's lag from now on (its credit for delay)."""
        if conn.seat is not None and conn.lag.timer is None \
                and self.rt.row.status == "playing":
            self._ping(conn)

    def _ping(self, conn: Conn) -> None:
        """Ping ``conn`` now and every ``ping_interval`` seconds while it plays."""
        conn.lag.timer = None
        if conn.closed or conn not in self.rt.conns or self.rt.row.status != "playing":
            return
        loop = asyncio.get_running_loop()
        conn.send({"type": "ping", "id": conn.lag.ping(loop.time())})
        conn.lag.timer = loop.call_later(self.rt.config.ping_interval, self._ping, conn)

    @staticmethod
    def pong(conn: Conn, msg: dict[str, Any], arrival: float) -> None:
        """The answer to one of the server's pings, stamped ``arrival``: a round trip."""
        conn.lag.pong(msg.get("id"), arrival)

    # -- connections and spectators ----------------------------------------------------
    def _seats_text(self, lang: str) -> str:
        info = self.rt.public_info(lang)
        return json.dumps({"type": "seats", "seats": info["seats"], "names": info["names"],
                           "not_ready": info["not_ready"]})

    def _notify_seats(self) -> None:
        """Every connection hears who sits where. Only seats change it: a spectator who
        comes is told alone (``attach``), one who goes changes nothing, so a crowd of
        spectators costs one message each, not one to everybody per arrival."""
        per_lang: dict[str, str] = {}  # one encoding per language
        for c in self.rt.conns:
            if c.bound:
                if c.lang not in per_lang:
                    per_lang[c.lang] = self._seats_text(c.lang)
                c.send(per_lang[c.lang])

    def spectators(self) -> int:
        return sum(1 for c in self.rt.conns if c.bound and c.seat is None)

    async def attach(self, conn: Conn, seat: int | None, token: str | None = None) -> bool:
        """Bind ``conn`` to ``seat`` (its ``token``) or to nobody (a spectator); False
        (nothing done) for a spectator past ``max_spectators``."""
        cap = self.rt.config.max_spectators
        if seat is None and 0 < cap <= self.spectators():
            return False
        await self.history_ready(seat, conn.lang)  # off the loop, before the lock
        async with self.rt.lock:
            if seat is None and 0 < cap <= self.spectators():
                return False
            conn.seat = seat
            conn.bound = True
            self.rt.conns.add(conn)
            if seat is not None and token is not None:
                self.rt._tokens[seat] = token
            if seat is not None:
                h = self.rt.grace.pop(seat, None)
                if h is not None:
                    h.cancel()
                self.rt.subs.pop(seat, None)
                self.rt.clocks._expect_ready(seat)
            conn.send(self.snapshot_text(seat, "welcome", conn.lang))
            self._start_pings(conn)
            if seat is None:  # nothing changed for the others
                conn.send(self._seats_text(conn.lang))
            else:
                self._notify_seats()
            return True

    async def set_language(self, conn: Conn, lang: str) -> None:
        """Switch a connection's language; a bound one gets a fresh ``state`` in it."""
        if conn.bound:
            await self.history_ready(conn.seat, lang)
        async with self.rt.lock:
            conn.lang = lang
            if conn.bound:
                conn.send(self.snapshot_text(conn.seat, "state", lang))

    async def send_state(self, conn: Conn) -> None:
        """A fresh ``state`` for ``conn`` in its language."""
        await self.history_ready(conn.seat, conn.lang)
        async with self.rt.lock:
            if not conn.closed:
                conn.send(self.snapshot_text(conn.seat, "state", conn.lang))

    async def request_state(self, conn: Conn, lang: str | None = None) -> None:
        """A ``state`` request (``lang``: a ``lang`` one, which switches the language
        first). A connection gets ``snapshots_per_second`` snapshots (burst 2): one
        asked for beyond them is not refused but coalesced, with any more asked for
        meanwhile, into one ``state`` sent when the budget allows (in the language the
        connection has then), so a flood of requests costs one snapshot a second."""
        if lang is not None:
            conn.lang = lang
        if not conn.bound:
            return
        rate = self.rt.config.snapshots_per_second
        if rate <= 0:
            await self.send_state(conn)
            return
        if conn.snapshots is None:
            conn.snapshots = RateLimit(rate, 2)
        if conn.snapshot_coming:
            return  # the snapshot that is coming answers this one too
        wait = conn.snapshots.wait()
        if wait <= 0:
            conn.snapshots.allow()
            await self.send_state(conn)
            return
        conn.snapshot_coming = True

        async def later() -> None:
            try:
                await asyncio.sleep(wait)
            finally:
                conn.snapshot_coming = False
            if not conn.closed and conn in self.rt.conns:
                assert conn.snapshots is not None
                conn.snapshots.allow()
                await self.send_state(conn)

        self.rt._spawn(later())

    async def expire_waiting(self) -> bool:
        """Give up a table still waiting for players (the lobby's ``waiting_expiry``): it
        is stored as ``expired`` and its connections get a ``state`` saying so."""
        async with self.rt.lock:
            if self.rt.row.status != "waiting":
                return False
            await self.rt.store.call(self.rt.store.set_status, self.rt.row.id, "expired")
            self.rt.row.status = "expired"
            for c in self.rt.conns:
                if c.bound:
                    c.send(self.snapshot(c.seat, "state", c.lang))
        if self.rt._driver is not None:
            self.rt._driver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.rt._driver
        return True

    async def detach(self, conn: Conn) -> None:
        async with self.rt.lock:
            self.rt.conns.discard(conn)
            conn.close()
            seat = conn.seat
            if conn.bound and seat is not None and self.rt.row.status == "playing" \
                    and not any(c.seat == seat for c in self.rt.conns):
                self.rt.seatbots._start_grace(seat)
            if conn.bound and seat is not None:  # a spectator's going changes nothing
                self._notify_seats()
