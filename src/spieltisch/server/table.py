"""One live table: the authoritative state, its seats, connections, bots and timers.

Everything that changes the state runs under the table's ``asyncio.Lock``: a
player's action, a bot's action, a deadline that passes. Each is judged against
the state it meets when it gets the lock, so concurrent out-of-turn actions (a
throw-in race) are well defined: the first to arrive wins, the next is judged
against the new state. Each action is written to the store *before* it is applied
and pushed, so nothing acknowledged is ever lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import random
from collections import OrderedDict, deque
from collections.abc import Callable, Coroutine
from typing import Any

from .. import narration
from ..bots import make_bot
from ..bots.base import Bot, Observation
from ..bots.levels import make_seat_bot
from ..core.game import CLOCK, Event, Game, IllegalAction, State, Verdict
from ..core.registry import get_spec
from ..i18n import N_, Translator
from ..replay import Replay
from ..timers import Key, Timers, key_of
from .config import ServerConfig
from .store import SeatRow, Store, TableRow
from .texts import action_labels, log_lines, seat_names, server_tr

#: The pseudo-action of the server's per-move clock in timer keys (engine actions are ≥ 0).
MOVE_CLOCK = -2

log = logging.getLogger("spieltisch.server")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Conn:
    """One WebSocket connection: a seat (``None`` = spectator) and its outgoing messages.

    ``send`` hands a message to the WebSocket at once, in the caller's turn of the event
    loop: uvicorn's ASGI send finishes without waiting unless the socket's buffer is full,
    so the usual message costs no task, queue or extra wake-up (a broadcast to four seats
    used to wake four writer tasks). Only a send that must wait (a slow reader) is
    finished by a task, which then sends every later message of this connection, in order.
    """

    def __init__(self, send: Callable[[dict[str, Any]], Coroutine[Any, Any, None]],
                 address: str = "") -> None:
        self._send = send  # the ASGI send of the connection
        self.address = address
        self.seat: int | None = None
        self.bound = False
        self.closed = False
        #: The language this connection reads (``?lang=``, the ``lang`` message).
        self.lang = "en"
        #: Messages behind a send that waits (``None``: nothing waits, send at once).
        self._backlog: deque[str] | None = None
        self._flusher: asyncio.Task[None] | None = None

    def send(self, msg: dict[str, Any] | str) -> None:
        if self.closed:
            return
        text = msg if isinstance(msg, str) else json.dumps(msg)
        if self._backlog is not None:
            self._backlog.append(text)
            return
        # run the send coroutine by hand up to its first wait; it rarely has one
        coro = self._send({"type": "websocket.send", "text": text})
        try:
            waiting = coro.send(None)
        except StopIteration:
            return  # sent: the transport took it
        except Exception:  # the peer went away; the reader notices too
            self.closed = True
            return
        self._backlog = deque()
        self._flusher = asyncio.get_running_loop().create_task(self._finish(coro, waiting))

    async def _finish(self, coro: Coroutine[Any, Any, None], waiting: Any) -> None:
        """Drive a send that had to wait to its end, then send the backlog in order."""
        try:
            loop = asyncio.get_running_loop()
            while True:
                # wait until the future the send waits for is done, then resume the send
                # (as a task would; the send reads the future's outcome itself)
                if waiting is None:  # a bare yield: give the loop one turn
                    await asyncio.sleep(0)
                else:
                    resume = loop.create_future()
                    waiting.add_done_callback(
                        lambda _, r=resume: r.done() or r.set_result(None))
                    await resume
                try:
                    waiting = coro.send(None)
                except StopIteration:
                    break
            while self._backlog:
                text = self._backlog.popleft()
                await self._send({"type": "websocket.send", "text": text})
        except asyncio.CancelledError:
            coro.close()
            raise
        except Exception:  # the peer went away
            self.closed = True
        finally:
            self._backlog = None
            self._flusher = None

    @property
    def tr(self) -> Translator:
        """The server's messages in this connection's language."""
        return server_tr(self.lang)

    def close(self) -> None:
        """Take no more messages (the connection ends); those already taken still go."""
        self.closed = True

    async def flush(self) -> None:
        """Wait until every message handed to ``send`` has gone to the transport."""
        if self._flusher is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(self._flusher)


class TableRuntime:
    def __init__(self, row: TableRow, store: Store, config: ServerConfig,
                 on_over: Callable[[TableRuntime], None] | None = None) -> None:
        self.row = row
        #: Called (once, in a later loop turn) when the game ends: the lobby drops the
        #: runtime from its live set; connections still open keep it until they close.
        self.on_over = on_over
        #: When the table last gained a player while waiting (the lobby's clock): a
        #: waiting table nobody joins for ``waiting_expiry`` minutes expires.
        self.waiting_since = row.created
        self.store = store
        self.config = config
        self.game: Game = get_spec(row.game).configure(row.players, row.options)
        self.state: State | None = None
        self.lock = asyncio.Lock()
        self.conns: set[Conn] = set()
        self.bots: dict[int, Bot] = {}
        self.subs: dict[int, Bot] = {}
        self.grace: dict[int, asyncio.TimerHandle] = {}
        #: Per seat: client message id (as text) -> (the id as sent, its log index); a
        #: tuple, not the ack itself: up to ``remembered_ids`` of them per seat stay live.
        self.seen: dict[int, OrderedDict[str, tuple[Any, int]]] = {}
        self.log: list[tuple[int, Any]] = []
        self.rng = random.Random(row.seed ^ 0x5EED)
        #: The state's timers and the per-move clock on the loop's clock (``loop.time()``):
        #: a timer a pause freezes keeps the time it had run (Hood Politix §5.3).
        self.timers = Timers()
        #: The timer armed next: when it passes (loop time) and its key.
        self.armed: tuple[float, Key] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._wake = asyncio.Event()
        self._driver: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        for s in row.seats:
            if s.kind == "bot":
                self.bots[s.seat] = make_seat_bot(self.game, s.bot or "random", s.seat,
                                                  row.seed + 7919 * (s.seat + 1))

    # -- lifecycle ---------------------------------------------------------------
    @property
    def code(self) -> str:
        return self.row.code

    @property
    def status(self) -> str:
        return self.row.status

    def human_seats(self) -> list[SeatRow]:
        return [s for s in self.row.seats if s.kind == "human"]

    def free_seats(self) -> list[int]:
        return [s.seat for s in self.human_seats() if s.token_hash is None]

    def seat_of_token(self, token: Any) -> int | None:
        if not isinstance(token, str) or not token or len(token) > 200:
            return None
        h = hash_token(token)
        for s in self.row.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                return s.seat
        return None

    def rebuild(self) -> None:
        """Replay the stored log from the seed (server restart)."""
        if self.row.status in ("waiting", "expired"):
            return
        state = self.game.new_state(seed=self.row.seed)
        for a in self.store.load_actions(self.row.id):
            action = self.game.action_from_json(a.action)
            state.apply(a.seat, action)
            self.log.append((a.seat, a.action))
            if a.client_id and a.seat >= 0:
                self._remember(a.seat, a.client_id, (a.client_id, a.index))
        self.state = state
        if state.is_over() and self.row.status != "over":
            # the server stopped between storing the last action and marking the end
            self.row.status = "over"
            self.row.result = state.result().to_json()
            self.store.set_status(self.row.id, "over", self.row.result)

    def activate(self) -> None:
        """Start bots, timers and grace periods (after creation, start or rebuild)."""
        if self._driver is None:
            self._driver = asyncio.get_running_loop().create_task(self._drive())
        if self.row.status == "playing":
            for s in self.human_seats():
                if not any(c.seat == s.seat for c in self.conns):
                    self._start_grace(s.seat)
            self._arm()
            self._wake.set()

    async def close(self) -> None:
        if self._timer:
            self._timer.cancel()
        for h in self.grace.values():
            h.cancel()
        if self._driver:
            self._driver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._driver
        for c in list(self.conns):
            c.close()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def start_if_full(self) -> None:
        async with self.lock:
            if self.row.status != "waiting" or self.free_seats():
                return
            self.state = self.game.new_state(seed=self.row.seed)
            self.row.status = "playing"
            self.store.set_status(self.row.id, "playing")
            # one encoding per seat and language (spectators share)
            per_seat: dict[tuple[int | None, str], str] = {}
            for c in self.conns:
                key = (c.seat, c.lang)
                if key not in per_seat:
                    per_seat[key] = json.dumps(self.snapshot(c.seat, "start", c.lang))
                c.send(per_seat[key])
            self.activate()

    # -- messages ----------------------------------------------------------------
    def names(self, lang: str) -> list[str]:
        """Every seat's name as the table shows it (``texts.seat_names``)."""
        return seat_names(self.row.seats, lang)

    def public_info(self, lang: str = "en") -> dict[str, Any]:
        """The table as the lobby lists it: ``names`` and ``winner`` (a name, once over)."""
        names = self.names(lang)
        winner = self.row.result.get("winner") if self.row.result else None
        return {
            "code": self.row.code, "game": self.row.game, "players": self.row.players,
            "options": self.row.options, "status": self.row.status,
            "seats": [{"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name,
                       "taken": s.kind == "bot" or s.token_hash is not None,
                       "connected": any(c.seat == s.seat for c in self.conns),
                       "substituted": s.seat in self.subs} for s in self.row.seats],
            "names": names, "actions": len(self.log), "result": self.row.result,
            "winner": names[winner] if isinstance(winner, int) else None,
        }

    def _deadline_json(self) -> list[dict[str, Any]]:
        assert self.state is not None
        return [{"seat": d.seat if d.seat != CLOCK else None,
                 "seconds": d.seconds * self.config.time_scale, "reason": d.reason}
                for d in self.state.deadlines()] + [
                {"seat": seat, "seconds": self.config.move_clock * self.config.time_scale,
                 "reason": "move clock"} for seat in self._clocked_seats()]

    def _clocked_seats(self) -> list[int]:
        """Human seats the game waits for, when the server's per-move clock applies."""
        st = self.state
        if self.config.move_clock <= 0 or st is None or st.is_over() or st.deadlines():
            return []
        return [s for s in st.to_act() if self._bot_for(s) is None]

    def snapshot(self, seat: int | None, kind: str = "state", lang: str = "en"
                 ) -> dict[str, Any]:
        """The full picture ``seat`` may have (welcome, start, state) in ``lang``, with
        the whole history it saw told in ``log`` (a reload or a late join sees it all)."""
        names = self.names(lang)
        msg: dict[str, Any] = {"type": kind, "code": self.row.code, "seat": seat,
                               "status": self.row.status, "index": len(self.log),
                               "names": names, "log": []}
        if self.state is not None:
            ctx = narration.context(self.game, names, lang, seat)
            msg["log"] = self._history(seat, ctx)
            msg.update(self._seat_part(seat, ctx=ctx))
        return msg

    def _history(self, seat: int | None, ctx: narration.Context) -> list[dict[str, Any]]:
        """Every event so far as ``seat`` saw it, one log line each: the opening deal
        (index -1), then each action's. The events are replayed from the seed and the log
        (a few ms for a long game) rather than kept: they would double a table's memory."""
        state = self.game.new_state(seed=self.row.seed)
        # the deal before the first action (index -1), then every action's events
        lines = log_lines(self.game, -1, state.opening, seat, ctx)
        for index, (actor, text) in enumerate(self.log):
            events = state.apply(actor, self.game.action_from_json(text))
            lines += log_lines(self.game, index, events, seat, ctx)
        return lines

    def _seat_part(self, seat: int | None,
                   deadlines: list[dict[str, Any]] | None = None,
                   ctx: narration.Context | None = None) -> dict[str, Any]:
        """The view, deadlines, result and, for a seat, its legal actions and their
        labels (in the language of ``ctx``; English without one)."""
        st = self.state
        assert st is not None
        if ctx is None:
            ctx = narration.context(self.game, self.names("en"), "en", seat)
        part: dict[str, Any] = {
            "view": st.view(seat),
            "deadlines": self._deadline_json() if deadlines is None else deadlines,
            "over": st.is_over()}
        if st.is_over():
            part["result"] = st.result().to_json()
        if seat is not None and not st.is_over():
            required = seat in st.to_act()
            legal = st.legal_actions(seat) if required or seat in st.out_of_turn() else []
            part["required"] = required
            part["legal"] = [self.game.action_to_json(a) for a in legal]
            part["labels"] = action_labels(self.game, legal, ctx)
        elif seat is not None:
            part["required"] = False
            part["legal"] = []
            part["labels"] = {}
        return part

    def _broadcast(self, actor: int, action: Any, events: list[Event]) -> None:
        index = len(self.log) - 1  # the position of this action in the log
        # one view and one encoding per seat and language (spectators share)
        per_seat: dict[tuple[int | None, str], str] = {}
        names: dict[str, list[str]] = {}  # per language
        deadlines: list[dict[str, Any]] | None = None
        for c in self.conns:
            if not c.bound:
                continue
            text = per_seat.get((c.seat, c.lang))
            if text is None:
                if c.lang not in names:
                    names[c.lang] = self.names(c.lang)
                ctx = narration.context(self.game, names[c.lang], c.lang, c.seat)
                msg: dict[str, Any] = {
                    "type": "update", "index": index,
                    "seat": actor if actor != CLOCK else None,
                    "events": [e.for_seat(c.seat) for e in events],
                    "log": log_lines(self.game, index, events, c.seat, ctx),
                }
                if c.seat is not None and c.seat == actor:
                    msg["action"] = action
                if deadlines is None:
                    deadlines = self._deadline_json()
                msg.update(self._seat_part(c.seat, deadlines, ctx))
                text = per_seat[(c.seat, c.lang)] = json.dumps(msg)
            c.send(text)

    # -- acting --------------------------------------------------------------------
    def _judge(self, seat: int, action: int) -> str | None:
        st = self.state
        assert st is not None
        if st.is_over():
            return "the game is over"
        if seat == CLOCK:
            return None if any(d.action == action for d in st.deadlines()) else \
                "no deadline with that action is running"
        if not (0 <= action < self.game.num_actions):
            return f"action {action} is outside the action space"
        verdict = st.check(seat, action)
        if verdict.verdict is Verdict.ILLEGAL:
            return verdict.reason or "illegal"
        return None

    async def _apply_locked(self, seat: int, action: int, client_id: str | None = None,
                            ack: Callable[[int], None] | None = None) -> int:
        """Judge, persist, apply, acknowledge, push. Caller holds the lock.

        Raises ``IllegalAction`` (nothing stored or changed). ``ack(index)`` is called
        once the action is stored, before the update is pushed to anyone. The lock is
        held across the commit, so the state judged is the state the action meets.
        """
        st = self.state
        assert st is not None
        reason = self._judge(seat, action)
        if reason is not None:
            raise IllegalAction(reason, seat, action)
        text = self.game.action_to_json(action)
        index = len(self.log)
        await self.store.writer.append(self.row.id, index, seat, text, client_id)
        events = st.apply(seat, action)
        self.log.append((seat, text))
        if ack is not None:
            ack(index)
        if st.is_over():
            self.row.status = "over"
            self.row.result = st.result().to_json()
            self.store.set_status(self.row.id, "over", self.row.result)
        self._broadcast(seat, text, events)
        self._arm()
        self._wake.set()
        if self.row.status == "over":
            self._finished()
        return index

    def _finished(self) -> None:
        """The game ended: stop timers (the driver returns by itself) and let the lobby
        drop this runtime once the final messages are queued (they already are)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for h in self.grace.values():
            h.cancel()
        self.grace.clear()
        if self.on_over is not None:
            asyncio.get_running_loop().call_soon(self.on_over, self)

    def _remember(self, seat: int, client_id: str, ack: tuple[Any, int]) -> None:
        seen = self.seen.setdefault(seat, OrderedDict())
        seen[client_id] = ack
        while len(seen) > self.config.remembered_ids:
            seen.popitem(last=False)

    async def player_action(self, conn: Conn, msg: dict[str, Any]) -> dict[str, Any] | None:
        """Handle an ``action`` message; returns an error (or repeated ack) for the sender.

        A new action's ack is sent by ``_apply_locked``, ahead of the update.
        """
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
        async with self.lock:
            if cid is not None and cid in self.seen.get(seat, {}):
                sent_id, index = self.seen[seat][cid]
                return {"type": "ack", "id": sent_id, "index": index, "repeat": True}
            if self.row.status != "playing" or self.state is None:
                return err(*self._not_playing(tr), client_id)
            try:
                action = self.game.action_from_json(msg["action"])
            except IllegalAction as e:
                return err("bad_action", e.reason, client_id)
            except Exception as e:  # a game's parser choking on garbage
                return err("bad_action", f"cannot read action {msg['action']!r}: "
                           f"{type(e).__name__}", client_id)
            def send_ack(index: int) -> None:
                reply = {"type": "ack", "id": client_id, "index": index}
                if cid is not None:
                    self._remember(seat, cid, (client_id, index))
                conn.send(reply)

            try:
                await self._apply_locked(seat, action, cid, send_ack)
            except IllegalAction as e:
                return err("illegal_action", self._refusal(tr, seat, e), client_id)
            return None

    def _not_playing(self, tr: Translator) -> tuple[str, str]:
        """The error code and reason for an action at a table that is not playing."""
        if self.row.status == "waiting":
            return "not_started", tr.gettext(N_("The game has not started yet."))
        if self.row.status == "expired":
            return "expired", tr.gettext(N_("This table expired: nobody joined in time."))
        return "game_over", tr.gettext(N_("The game is over."))

    def _refusal(self, tr: Translator, seat: int, e: IllegalAction) -> str:
        """Why an action was refused: "not your turn" and "game over" in the player's
        language, any other reason as the game's engine gives it (English)."""
        st = self.state
        assert st is not None
        if st.is_over():
            return tr.gettext(N_("The game is over."))
        if seat not in st.may_act():
            return tr.gettext(N_("It is not your turn."))
        return e.reason

    # -- bots ------------------------------------------------------------------------
    def _bot_for(self, seat: int) -> Bot | None:
        return self.bots.get(seat) or self.subs.get(seat)

    async def _drive(self) -> None:
        while self.row.status != "over":
            await self._wake.wait()
            self._wake.clear()
            try:
                while await self._bot_step():
                    if self.config.bot_delay > 0:
                        await asyncio.sleep(self.config.bot_delay)
                    else:
                        await asyncio.sleep(0)
            except asyncio.CancelledError:
                raise
            except Exception:  # a bot bug must not stop the table's driver
                log.exception("table %s: bot step failed", self.code)

    async def _bot_step(self) -> bool:
        async with self.lock:
            st = self.state
            if self.row.status != "playing" or st is None or st.is_over():
                return False
            if not self.bots and not self.subs:
                return False
            required = list(st.to_act())
            optional = [s for s in st.out_of_turn() if s not in required and self._bot_for(s)]
            self.rng.shuffle(optional)
            for seat in optional:
                bot = self._bot_for(seat)
                assert bot is not None
                if await self._try_bot(seat, bot.react(Observation(st, seat, required=False))):
                    return True
            bot_required = [s for s in required if self._bot_for(s)]
            if bot_required:
                seat = bot_required[0] if len(bot_required) == 1 else \
                    self.rng.choice(bot_required)
                bot = self._bot_for(seat)
                assert bot is not None
                if await self._try_bot(seat, bot.act(Observation(st, seat, required=True))):
                    return True
            return False

    async def _try_bot(self, seat: int, action: int | None) -> bool:
        if action is None:
            return False
        try:
            await self._apply_locked(seat, action)
        except IllegalAction as e:
            log.warning("table %s: bot for seat %d chose an illegal action: %s",
                        self.code, seat, e.reason)
            return False
        return True

    # -- deadlines ---------------------------------------------------------------------
    def _arm(self) -> None:
        """Bring the timers in line with the state (after every change) and arm the next."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.armed = None
        st = self.state
        if st is None or self.row.status != "playing" or st.is_over():
            return
        loop = asyncio.get_running_loop()
        scale = self.config.time_scale
        clocked = [(seat, MOVE_CLOCK, st.move_number) for seat in self._clocked_seats()]
        self.timers.sync(st, loop.time(), clocked)
        best: tuple[float, Key] | None = None
        for d in st.deadlines():
            due = self.timers.due(d, scale)
            if best is None or due < best[0]:
                best = (due, key_of(d))
        for key in clocked:
            due = self.timers.started[key] + self.config.move_clock * scale
            if best is None or due < best[0]:
                best = (due, key)
        if best is not None:
            self.armed = best
            key = best[1]
            self._timer = loop.call_at(best[0], lambda: self._spawn(self._expire(key)))

    async def _expire(self, key: Key) -> None:
        async with self.lock:
            st = self.state
            if st is None or self.row.status != "playing":
                return
            seat, action, since = key
            if action == MOVE_CLOCK:
                if st.move_number == since and seat in self._clocked_seats():
                    bot = make_bot(self.game, self.config.substitute_bot, seat,
                                   self.rng.randrange(2**31))
                    if await self._try_bot(seat, bot.act(Observation(st, seat,
                                                                     required=True))):
                        return
                self._arm()
                return
            if any(key_of(d) == key for d in st.deadlines()):
                try:
                    await self._apply_locked(key[0], key[1])
                    return
                except IllegalAction as e:  # pragma: no cover - a game bug
                    log.error("table %s: deadline action refused: %s", self.code, e.reason)
            self._arm()

    # -- connections and grace -------------------------------------------------------------
    def _start_grace(self, seat: int) -> None:
        if seat in self.subs or seat in self.grace or seat in self.bots:
            return
        loop = asyncio.get_running_loop()
        self.grace[seat] = loop.call_later(self.config.grace_seconds,
                                           lambda: self._spawn(self._substitute(seat)))

    async def _substitute(self, seat: int) -> None:
        async with self.lock:
            self.grace.pop(seat, None)
            if any(c.seat == seat for c in self.conns) or self.row.status != "playing":
                return
            self.subs[seat] = make_bot(self.game, self.config.substitute_bot, seat,
                                       self.rng.randrange(2**31))
            self._notify_seats()
            self._wake.set()

    def _notify_seats(self) -> None:
        per_lang: dict[str, str] = {}  # one encoding per language
        for c in self.conns:
            if c.bound:
                if c.lang not in per_lang:
                    info = self.public_info(c.lang)
                    per_lang[c.lang] = json.dumps({"type": "seats", "seats": info["seats"],
                                                   "names": info["names"]})
                c.send(per_lang[c.lang])

    async def attach(self, conn: Conn, seat: int | None) -> None:
        async with self.lock:
            conn.seat = seat
            conn.bound = True
            self.conns.add(conn)
            if seat is not None:
                h = self.grace.pop(seat, None)
                if h is not None:
                    h.cancel()
                self.subs.pop(seat, None)
            conn.send(self.snapshot(seat, "welcome", conn.lang))
            self._notify_seats()

    async def set_language(self, conn: Conn, lang: str) -> None:
        """Switch a connection's language; a bound one gets a fresh ``state`` in it."""
        async with self.lock:
            conn.lang = lang
            if conn.bound:
                conn.send(self.snapshot(conn.seat, "state", lang))

    async def expire_waiting(self) -> bool:
        """Give up a table still waiting for players (the lobby's ``waiting_expiry``): it
        is stored as ``expired`` and its connections get a ``state`` saying so."""
        async with self.lock:
            if self.row.status != "waiting":
                return False
            self.row.status = "expired"
            self.store.set_status(self.row.id, "expired")
            for c in self.conns:
                if c.bound:
                    c.send(self.snapshot(c.seat, "state", c.lang))
        if self._driver is not None:
            self._driver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._driver
        return True

    async def detach(self, conn: Conn) -> None:
        async with self.lock:
            self.conns.discard(conn)
            conn.close()
            seat = conn.seat
            if conn.bound and seat is not None and self.row.status == "playing" \
                    and not any(c.seat == seat for c in self.conns):
                self._start_grace(seat)
            if conn.bound:
                self._notify_seats()

    # -- replay ----------------------------------------------------------------------------------
    def replay(self) -> dict[str, Any]:
        names = [s.bot if s.kind == "bot" else (s.name or "human") for s in self.row.seats]
        rep = Replay(self.row.game, self.row.players, dict(self.row.options), self.row.seed,
                     None, [str(n) for n in names], list(self.log), self.row.result)
        return rep.to_json()


def err(code: str, message: str, client_id: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if client_id is not None:
        out["id"] = client_id
    return out


__all__ = ["Conn", "TableRuntime", "err", "hash_token"]
