"""Acting at a table: judging, storing, applying and acknowledging an action, and races.

Everything runs under the table's lock. An action is judged against the state it meets,
written to the store *before* it is applied and pushed (nothing acknowledged is lost),
then applied, acknowledged and broadcast. Out-of-turn actions that another person could
race (a throw-in) are held for a short race window and applied in the order of their
arrival less a capped credit for network delay (``timing``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core.game import Check, IllegalAction, Verdict, translate_reason
from ..i18n import N_, Translator
from .conn import Conn, err
from .ending import ABANDONED, ENDED
from .ratings import rate_ended
from .store import StaleOwner, StorageError
from .timing import Entry, EntryKind, LagQuota, RaceWindow

if TYPE_CHECKING:
    from .table import TableRuntime

log = logging.getLogger("spieltisch.server")


class Acting:
    """Applies actions: judged, stored, acknowledged, pushed; races held and resolved."""

    def __init__(self, rt: TableRuntime) -> None:
        self.rt = rt

    def _judge(self, seat: int, action: int) -> Check | None:
        """The engine's refusal of an action (``State.judge``), or None if it may apply."""
        st = self.rt.state
        assert st is not None
        verdict = st.judge(seat, action)
        return verdict if verdict.verdict is Verdict.ILLEGAL else None

    async def _apply_locked(self, seat: int, action: int, client_id: str | None = None,
                            ack: Callable[[int], None] | None = None) -> int:
        """Judge, persist, apply, acknowledge, push. Caller holds the lock.

        Raises ``IllegalAction`` (nothing stored or changed). ``ack(index)`` is called
        once the action is stored, before the update is pushed to anyone. The lock is
        held across the commit, so the state judged is the state the action meets.
        """
        st = self.rt.state
        assert st is not None
        if self.rt.row.status == ABANDONED:  # a bot's answer or a deadline after the bound
            raise IllegalAction("the table was abandoned at its length bound", seat, action)
        refused = self._judge(seat, action)
        if refused is not None:
            raise IllegalAction.of(refused, seat, action)
        text = self.rt.game.action_to_json(action)
        index = len(self.rt.log)
        try:
            if self.rt.fence is not None and not self.rt.fence():
                raise StorageError("this node no longer holds the table's lease")
            await self.rt.store.writer.append(self.rt.row.id, self.rt.row.epoch, index, seat, text,
                                           client_id)
        except Exception as e:  # nothing is applied; bots and deadlines try again later
            if isinstance(e, StaleOwner):  # another runtime claimed the table: this one
                self.rt.stale = True  # stops serving it (its clients reconnect to that one)
                if self.rt.on_stale is not None:
                    self.rt.on_stale(self.rt)
            else:
                self._retry_later()
            raise StorageError(str(e).strip().splitlines()[0] if str(e).strip()
                               else type(e).__name__) from e
        self.rt._store_failures = 0
        self.rt.clocks._close_guard(seat)  # an action ends its player's hesitation
        self.rt._could_act = set(st.may_act())
        events = st.apply(seat, action)
        self.rt.log.append((seat, text))
        self.rt.epoch += 1
        if ack is not None:
            ack(index)
        self.rt.clocks._after_change(seat)
        if st.is_over():
            result = st.result().to_json()
            self.rt.row.ended = time.time()
            try:
                await self.rt.store.call(self.rt.store.set_status, self.rt.row.id, "over", result,
                                      self.rt.row.setup_json())
            except Exception:  # the last action is stored: a restart marks the end
                log.exception("table %s: storing the end of the game failed", self.rt.code)
            self.rt.row.status = "over"
            self.rt.row.result = result
            await rate_ended(self.rt)  # a rated table's ratings, exactly once (ratings)
            self.rt.ending._open_offer()
        elif len(self.rt.log) >= self.rt.length_bound():
            await self.rt.ending._abandon()
        self.rt.clocks._arm()  # first: the update tells the timers this action started
        self.rt.connections._broadcast(seat, text, events)
        self.rt._wake.set()
        if self.rt.row.status in ENDED:
            self._finished()
        return index

    def _retry_later(self) -> None:
        """After a failed write: wake the bots and re-arm the timers in a while (half a
        second, doubling with each failure in a row up to 30 s), so that a table whose
        next move is a bot's or a deadline's does not stall while the database is away."""
        delay = min(30.0, 0.5 * 2 ** min(self.rt._store_failures, 6))
        self.rt._store_failures += 1

        def retry() -> None:
            if self.rt.row.status == "playing" and not self.rt.stale:
                self.rt._answered.clear()  # a bot whose move was not stored decides again
                self.rt.clocks._arm()
                self.rt._wake.set()

        asyncio.get_running_loop().call_later(delay, retry)

    def _finished(self) -> None:
        """The game ended: stop timers (the driver returns by itself) and let the lobby
        drop this runtime once the final messages are queued (they already are)."""
        if self.rt._timer is not None:
            self.rt._timer.cancel()
            self.rt._timer = None
        for h in [*self.rt.grace.values(), *self.rt._ready_timers.values()]:
            h.cancel()
        self.rt.grace.clear()
        self.rt._ready_timers.clear()
        for c in self.rt.conns:
            c.lag.stop()
        if self.rt.on_over is not None:
            asyncio.get_running_loop().call_soon(self.rt.on_over, self.rt)

    def _remember(self, seat: int, client_id: str, ack: tuple[Any, int]) -> None:
        seen = self.rt.seen.setdefault(seat, OrderedDict())
        seen[client_id] = ack
        while len(seen) > self.rt.config.remembered_ids:
            seen.popitem(last=False)

    async def player_action(self, conn: Conn, msg: dict[str, Any],
                            arrival: float | None = None) -> dict[str, Any] | None:
        """Handle an ``action`` message that arrived at ``arrival`` (the loop's clock, as
        the server stamped it; now if None); returns an error (or repeated ack) for the
        sender. Any time the message itself names is ignored.

        A new action's ack is sent by ``_apply_locked``, ahead of the update. An
        out-of-turn action that another person could race waits for the race window.
        """
        if arrival is None:
            arrival = asyncio.get_running_loop().time()
        client_id = msg.get("id")
        tr = conn.tr
        if client_id is not None and (not isinstance(client_id, (str, int))
                                      or isinstance(client_id, bool) or len(str(client_id)) > 100):
            return err("bad_id", tr.gettext(
                N_("'id' must be a string or integer of at most 100 characters.")))
        cid = None if client_id is None else str(client_id)
        seat = conn.seat
        if seat is None:
            return err("not_a_seat", tr.gettext(N_("Spectators cannot act.")), client_id)
        if "seat" in msg and msg["seat"] != seat:
            return err("wrong_seat", tr.format(N_("This connection plays seat {seat} only."),
                                               seat=seat + 1), client_id)
        if "action" not in msg:
            return err("malformed", tr.gettext(N_("An action message needs 'action'.")),
                       client_id)
        async with self.rt.lock:
            if cid is not None and cid in self.rt.seen.get(seat, {}):
                return self._repeat(seat, cid)
            held = self._held(seat, cid)
            if held is None:
                if self.rt.row.status != "playing" or self.rt.state is None:
                    return err(*self._not_playing(tr), client_id)
                try:
                    action = self.rt.game.action_from_json(msg["action"])
                except IllegalAction as e:
                    return err("bad_action", translate_reason(self.rt.game, e, tr.lang),
                               client_id)
                except Exception:  # a game's parser choking on garbage
                    return err("bad_action", tr.format(N_("Cannot read the action {action}."),
                                                       action=repr(msg["action"])[:80]),
                               client_id)

                def send_ack(index: int) -> None:
                    reply = {"type": "ack", "id": client_id, "index": index}
                    if cid is not None:
                        self._remember(seat, cid, (client_id, index))
                    conn.send(reply)

                self.rt.clocks._saw_deal(seat)  # acting shows the deal is on the player's screen
                entry = Entry(EntryKind.ACTION, arrival, self._credit(conn, seat), seat,
                              action, client_id=cid, ack=send_ack, sender=conn,
                              sent_id=client_id)
                hold = self.rt.config.race_window if self._contested(seat, action) else 0.0
                await self._admit(entry, hold)
        if held is not None:  # the same id again while the first waits in a race
            outcome = await asyncio.shield(held.done)
            return self._repeat(seat, cid) if outcome is None and cid is not None \
                else outcome
        return await entry.done

    def _repeat(self, seat: int, cid: str) -> dict[str, Any]:
        """The ack of an action already applied, sent again (``repeat``)."""
        sent_id, index = self.rt.seen[seat][cid]
        return {"type": "ack", "id": sent_id, "index": index, "repeat": True}

    def _held(self, seat: int, cid: str | None) -> Entry | None:
        """The action of ``seat`` with message id ``cid`` waiting in the race, if any."""
        if cid is None or self.rt.window is None:
            return None
        return next((e for e in self.rt.window.entries if e.kind is EntryKind.ACTION
                     and not e.bot and e.seat == seat and e.client_id == cid), None)

    def _not_playing(self, tr: Translator) -> tuple[str, str]:
        """The error code and reason for an action at a table that is not playing."""
        if self.rt.row.status == "waiting":
            return "not_started", tr.gettext(N_("The game has not started yet."))
        if self.rt.row.status == "expired":
            return "expired", tr.gettext(N_("This table expired: nobody joined in time."))
        if self.rt.row.status == ABANDONED:
            return ABANDONED, self.rt.ending.abandoned_line(tr.lang)["message"]
        return "game_over", tr.gettext(N_("The game is over."))

    def _refusal(self, tr: Translator, seat: int, e: IllegalAction) -> str:
        """Why an action was refused, in the player's language: "not your turn" and
        "game over" in the server's words, any other reason from the game's catalog."""
        st = self.rt.state
        assert st is not None
        if st.is_over():
            return tr.gettext(N_("The game is over."))
        if seat not in st.may_act():
            if seat in self.rt._could_act:  # a reaction that came as its window closed
                return tr.gettext(N_("Too late: that chance has passed."))
            return tr.gettext(N_("It is not your turn."))
        return translate_reason(self.rt.game, e, tr.lang, self.rt.names(tr.lang))

    # -- races ---------------------------------------------------------------------------
    def _contested(self, seat: int, action: int) -> bool:
        """An out-of-turn ``action`` of ``seat`` that another person could race now. An
        attempt the game refuses outright (a seat whose turn it is not, at a turn-based
        table) races nobody: it is refused at once and holds up nobody's turn.

        Whether another seat may act out of turn can rest on its hidden cards (who holds
        the card to throw in), so that is not asked: any other person at the table could
        race. Else the hold itself — an ack now or a race window later — would tell the
        actor what another's hand holds (issue 41, item 9)."""
        st = self.rt.state
        assert st is not None
        if seat in st.to_act():
            return False
        if not any(s != seat and self.rt._person_plays(s) for s in range(st.num_players)):
            return False
        return st.judge(seat, action).verdict is not Verdict.ILLEGAL

    def _quota(self, seat: int) -> LagQuota:
        q = self.rt.quotas.get(seat)
        if q is None:
            cfg = self.rt.config
            q = self.rt.quotas[seat] = LagQuota(cfg.lag_quota_gain, cfg.lag_quota_cap,
                                             min(cfg.lag_quota_start, cfg.lag_quota_cap))
        return q

    def _credit(self, conn: Conn, seat: int) -> float:
        """The credit for network delay of a message of ``seat`` on ``conn``: its
        measured lag, at most the seat's quota."""
        return self._quota(seat).credit(conn.lag.lag())

    def _largest_credit(self) -> float:
        """The most credit any person's message could get now (how long a deadline
        that passed waits for an action that was sent in time)."""
        best = 0.0
        for c in self.rt.conns:
            if c.seat is not None and self.rt._person_plays(c.seat):
                best = max(best, self._credit(c, c.seat))
        return best

    async def _admit(self, entry: Entry, hold: float) -> None:
        """Apply ``entry`` now, or hold it: in the open race window, or in a new one
        ``hold`` seconds long. Caller holds the lock; ``entry.done`` tells the outcome."""
        w = self.rt.window
        if w is not None and entry.arrival > w.close:  # that race was over before it came
            await self._resolve()
            w = None
        if w is None and hold > 0:
            window = w = self.rt.window = RaceWindow(entry.arrival + hold)
            w.timer = asyncio.get_running_loop().call_at(
                w.close, lambda: self.rt._spawn(self._close_window(window)))
        if w is not None:
            w.entries.append(entry)
            return
        await self._run(entry)

    async def _close_window(self, window: RaceWindow) -> None:
        async with self.rt.lock:
            if self.rt.window is window:
                await self._resolve()

    async def _resolve(self) -> None:
        """Apply the held contenders by compensated arrival, actions before a deadline
        of the same moment, ties by the seeded tie-break; each is judged against the
        state it meets then. Caller holds the lock."""
        w, self.rt.window = self.rt.window, None
        if w is None:
            return
        if w.timer is not None:
            w.timer.cancel()
        for entry in w.ordered(self.rt.race_rng):
            await self._run(entry)
        self.rt.clocks._arm()
        self.rt._wake.set()

    async def _run(self, e: Entry) -> None:
        """Apply one contender; the sender's error (or None) goes to ``e.done``."""
        outcome: dict[str, Any] | None = None
        if e.kind is EntryKind.DEADLINE:
            assert e.key is not None
            await self.rt.clocks._expire_now(e.key)
        elif e.bot:
            if not await self.rt.seatbots._apply_bot(e.seat, e.action, raced=True):
                outcome = {"type": "error", "code": "refused"}
        else:
            try:
                outcome = await self._apply_player(e)
            except Exception as exc:  # a bug: the sender's handler reports it
                if not e.done.done():
                    e.done.set_exception(exc)
                return
        if not e.done.done():
            e.done.set_result(outcome)

    async def _apply_player(self, e: Entry) -> dict[str, Any] | None:
        """Apply a player's action; an error for the sender if it is refused."""
        conn = e.sender
        assert isinstance(conn, Conn)
        tr = conn.tr
        if self.rt.row.status != "playing" or self.rt.state is None:
            return err(*self._not_playing(tr), e.sent_id)
        try:
            await self._apply_locked(e.seat, e.action, e.client_id, e.ack)
            self.rt.timeouts[e.seat] = 0  # on time again
        except IllegalAction as exc:
            return err("illegal_action", self._refusal(tr, e.seat, exc), e.sent_id)
        except StorageError as exc:
            log.error("table %s: storing an action of seat %d failed: %s",
                      self.rt.code, e.seat, exc)
            return err("storage", tr.gettext(N_(
                "The server could not store your action, so nothing changed. Send it "
                "again (with the same id).")), e.sent_id)
        self._quota(e.seat).spend(e.credit)
        return None

    async def settle(self) -> None:
        """Apply what a race window holds, now (the table moves to another node).
        Caller holds the lock."""
        if self.rt.window is not None:
            await self._resolve()

    def _drop_window(self) -> None:
        """The table closes: a held race is dropped, its senders told nothing changed."""
        w, self.rt.window = self.rt.window, None
        if w is None:
            return
        if w.timer is not None:
            w.timer.cancel()
        for e in w.entries:
            if not e.done.done():
                e.done.set_result(None if e.bot or e.kind is EntryKind.DEADLINE
                                  else err("server_error", "the table closed", e.sent_id))
