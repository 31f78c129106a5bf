"""One live table: the authoritative state, its seats, connections, bots and timers.

Everything that changes the state runs under the table's ``asyncio.Lock``: a
player's action, a bot's action, a deadline that passes. Each is judged against
the state it meets when it is applied. Out-of-turn actions that another person could
race (a throw-in) are held for a short race window and applied in the order of their
arrival less a capped credit for network delay (``timing``); a deadline that passes
waits as long as some player's credit could still beat it. No clock runs and no bot
acts before every person at the table has pressed "I'm ready" (again after a pause).
Bots think on a copy of the state, outside the lock, and answer after a person's delay
(``pacing``). Each action is written to the store *before* it is applied and pushed, so
nothing acknowledged is ever lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import hmac
import json
import logging
import random
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Collection, Coroutine
from dataclasses import replace
from typing import Any

from .. import narration
from ..bots import make_bot
from ..bots.base import Bot, Observation
from ..bots.levels import fallback_bot, make_seat_bot, stored_level
from ..bots.pacing import BotClock, Moment, level_of
from ..core.game import (
    CLOCK,
    Check,
    Event,
    Game,
    IllegalAction,
    State,
    Verdict,
    translate_reason,
)
from ..core.registry import get_spec
from ..core.scoresheet import ScoreSheet, generic_sheet, history, sheet_of
from ..i18n import N_, Translator
from ..replay import Replay
from ..timers import Key, Timers, key_of
from .config import ServerConfig
from .guard import RateLimit
from .history import Histories, Narrated, off_loop
from .rematch import CLOSED, DECLINED, OPEN, STARTED, RematchOffer, rematch_token, rotated
from .store import ActionRow, SeatRow, StaleOwner, StorageError, Store, TableRow
from .texts import action_labels, log_lines, seat_names, server_tr
from .thinking import BotRunner, shared_runner
from .timing import Entry, EntryKind, LagMeter, LagQuota, Pace, RaceWindow

#: The pseudo-action of the server's per-move clock in timer keys (engine actions are ≥ 0).
MOVE_CLOCK = -2
#: The status of a table stopped unfinished at its length bound (``length_bound``).
ABANDONED = "abandoned"
#: Statuses of a table whose game will not go on: it is served read-only.
ENDED = ("over", ABANDONED)

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
        #: Ends the connection with a WebSocket close code and reason (a refused
        #: spectator); None where the socket is not this node's (a cluster relay).
        self.hangup: Callable[[int, str], Awaitable[None]] | None = None
        #: The budget of its ``state`` and ``lang`` requests, and whether a snapshot
        #: that waits for it is coming (``TableRuntime.request_state``).
        self.snapshots: RateLimit | None = None
        self.snapshot_coming = False
        self.closed = False
        #: The language this connection reads (``?lang=``, the ``lang`` message).
        self.lang = "en"
        #: Messages behind a send that waits (``None``: nothing waits, send at once).
        self._backlog: deque[str] | None = None
        self._flusher: asyncio.Task[None] | None = None
        #: The network delay of this connection, from the server's pings (after ``ready``).
        self.lag = LagMeter()

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
        self.lag.stop()

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
        #: Failed action writes in a row (the retry waits longer with each).
        self._store_failures = 0
        #: The pace its creator chose: the rule's times, relaxed (x3) or untimed; a
        #: person who keeps timing out at a table of bots may take the untimed pace for
        #: the rest of the round (``set_pace``): then ``pace`` differs until the round ends.
        self.pace = Pace.parse(row.pace)
        self._pace_round: int | None = None
        #: A table with clocks (a real-time game, or the server's move clock) waits until
        #: every person has pressed "I'm ready" before the first clock runs and again after
        #: a pause; meanwhile no clock runs and no bot acts.
        self.wants_ready = get_spec(row.game).realtime or (
            config.move_clock > 0 and self.pace is not Pace.UNTIMED)
        #: Person seats that said ``ready`` (pressed "I'm ready", or acted) this time.
        self.ready_seats: set[int] = set()
        self.clocks_started = False
        self._ready_timers: dict[int, asyncio.TimerHandle] = {}
        #: Whether the state held frozen timers (a pause) after the last action.
        self._paused = False
        #: Per seat, the move timeouts in a row of a person, and the rounds in which the
        #: untimed pace was offered to them.
        self.timeouts: dict[int, int] = {}
        self._offered: dict[int, int] = {}
        #: Per passable window (its timer key): the seats that passed it.
        self.passed: dict[Key, set[int]] = {}
        #: Per seat: when its misclick guard opened (loop time): its move timer stands
        #: still until the guard closes. ``_guard_used``: seconds credited per (seat, epoch).
        self.guards: dict[int, float] = {}
        self._guard_timers: dict[int, asyncio.TimerHandle] = {}
        self._guard_used: dict[tuple[int, int], float] = {}
        #: Bumped by every change a bot may answer: each bot seat decides once per epoch.
        self.epoch = 0
        #: The seats that could act before the latest action (a refusal of one of them
        #: is "too late", not "not your turn").
        self._could_act: set[int] = set()
        #: Per bot seat: its delays, its decision under way, the epoch it last answered.
        self.bot_clocks: dict[int, BotClock] = {}
        self._plans: dict[int, asyncio.Task[None]] = {}
        self._answered: dict[int, int] = {}
        #: Bot seats thinking right now (the rest of their plans wait for the clock).
        self.thinking: set[int] = set()
        #: Told of every bot answer applied: seat, kind, seconds since it began to decide
        #: (``benchmarks/realtime.py`` measures the bots' pace with it).
        self.on_bot_answer: Callable[[int, Moment, float], None] | None = None
        #: Per seat: the credit for network delay it has left (``timing.LagQuota``).
        self.quotas: dict[int, LagQuota] = {}
        #: Contenders held together (a race), if any; bots wait while one is open.
        self.window: RaceWindow | None = None
        #: The tie-break of races, from the seed: the same table resolves the same way.
        self.race_rng = random.Random(row.seed ^ 0x7ACE)
        #: Where the bots decide: quick kinds apart from slow ones (``thinking``), never
        #: behind other work in the loop's default pool.
        self.thinker: BotRunner = shared_runner(config.bot_threads, config.bot_inline,
                                                config.bot_cap)
        #: In a cluster: whether this node may still write the table's log (its lease
        #: holds); an action met when it may not is refused as a storage failure.
        self.fence: Callable[[], bool] | None = None
        #: Told (in the loop's turn, without waiting) when a write found the table's epoch
        #: moved on: another runtime serves it now; ``stale`` then stays set.
        self.on_stale: Callable[[TableRuntime], None] | None = None
        self.stale = False
        #: The score sheet of the finished game (``core.scoresheet``), made once.
        self._sheet: ScoreSheet | None = None
        #: The rematch this table offers once its game is over (``rematch``), the lobby's
        #: maker of the new table, and who is told when the offer closes.
        self.offer: RematchOffer | None = None
        self.on_rematch: Callable[[TableRuntime, RematchOffer], Awaitable[str]] | None = None
        self.on_offer_closed: Callable[[TableRuntime], None] | None = None
        #: Per person seat, the token its connections said ``hello`` with (in memory only):
        #: the rematch's seat token is derived from it (``rematch_token``).
        self._tokens: dict[int, str] = {}
        #: The narrated histories the snapshots copy, per reader and language asked for
        #: (``history``): kept as actions are applied, at most ``histories_per_table``.
        self.histories = Histories(self.game, lambda: self.row.first_state(self.game),
                                   config.histories_per_table)
        #: Per bot seat, the quick bot that answers when its bot runs past the cap.
        self.fallbacks: dict[int, Bot] = {}
        for s in row.seats:
            if s.kind == "bot":  # a stored spec plays as its level (``stored_level``)
                spec = (s.bot or "random") if config.any_bot_spec \
                    else stored_level(s.bot).value
                seed = row.seed + 7919 * (s.seat + 1)
                self.bots[s.seat] = make_seat_bot(self.game, spec, s.seat, seed)
                self.fallbacks[s.seat] = fallback_bot(self.game, spec, s.seat, seed)
                self.bot_clocks[s.seat] = self._bot_clock(s.seat, spec)

    def _bot_clock(self, seat: int, spec: str | None) -> BotClock:
        """The delays of the bot at ``seat``: its level's, from a generator of its own."""
        return BotClock(level_of(spec), self.row.seed + 104_729 * (seat + 1),
                        self.config.bot_timing)

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

    def length_bound(self) -> int:
        """Actions this table may reach: its game's ``table_max_actions``, or the
        server's ``max_table_actions`` where that is lower (docs/server.md)."""
        bound = self.game.spec.table_max_actions
        cap = self.config.max_table_actions
        return min(bound, cap) if cap > 0 else bound

    def rebuild(self, actions: list[ActionRow] | None = None) -> None:
        """Replay the stored log from the seed (server restart): ``actions`` as read when
        the table was claimed (``Store.open_table``), else as stored now."""
        if self.row.status in ("waiting", "expired"):
            return
        state = self.row.first_state(self.game)
        for a in self.store.load_actions(self.row.id) if actions is None else actions:
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
        elif self.row.status == "playing" and len(self.log) >= self.length_bound():
            # the same at the length bound, or a table that ran past a bound set since
            self.row.status = ABANDONED
            self.row.ended = time.time()
            self.row.bound = self.length_bound()
            self.store.set_status(self.row.id, ABANDONED, None, self.row.setup_json())

    def activate(self) -> None:
        """Start bots, timers and grace periods (after creation, start or rebuild)."""
        if self._driver is None:
            self._driver = asyncio.get_running_loop().create_task(self._drive())
        if self.row.status == "playing":
            for s in self.human_seats():
                if not any(c.seat == s.seat for c in self.conns):
                    self._start_grace(s.seat)
            if not self._check_ready():
                self._arm()
            self._wake.set()

    async def close(self) -> None:
        if self._timer:
            self._timer.cancel()
        if self.offer is not None and self.offer.timer is not None:
            self.offer.timer.cancel()
        for h in [*self.grace.values(), *self._ready_timers.values(),
                  *self._guard_timers.values()]:
            h.cancel()
        for task in self._plans.values():
            task.cancel()
        self._drop_window()
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
            self.row.started = time.time()
            await self.store.call(self.store.set_status, self.row.id, "playing", None,
                                  self.row.setup_json())
            self.state = self.row.first_state(self.game)
            self.row.status = "playing"
            # one encoding per seat and language (spectators share)
            per_seat: dict[tuple[int | None, str], str] = {}
            for c in self.conns:
                key = (c.seat, c.lang)
                if key not in per_seat:
                    per_seat[key] = json.dumps(self.snapshot(c.seat, "start", c.lang))
                c.send(per_seat[key])
            self.activate()
            for c in self.conns:
                if c.seat is not None:
                    self._expect_ready(c.seat)
                    self._start_pings(c)

    # -- messages ----------------------------------------------------------------
    def names(self, lang: str) -> list[str]:
        """Every seat's name as the table shows it (``texts.seat_names``)."""
        return seat_names(self.row.seats, lang)

    def public_info(self, lang: str = "en") -> dict[str, Any]:
        """The table as the lobby lists it: ``names`` and ``winner`` (a name, once over);
        an abandoned table says why (``abandoned``)."""
        names = self.names(lang)
        winner = self.row.result.get("winner") if self.row.result else None
        return abandoned_note(self.row.status, lang) | {
            "code": self.row.code, "game": self.row.game, "players": self.row.players,
            "options": self.row.options, "status": self.row.status,
            "seats": [{"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name,
                       "taken": s.kind == "bot" or s.token_hash is not None,
                       "connected": any(c.seat == s.seat for c in self.conns),
                       "substituted": s.seat in self.subs} for s in self.row.seats],
            "names": names, "actions": len(self.log), "result": self.row.result,
            "winner": names[winner] if isinstance(winner, int) else None,
            "practice": self.row.practice, "pace": self.pace.value,
            "not_ready": self.not_ready(),
            "rematch": self.row.rematch, "rematch_of": self.row.rematch_of,
        }

    def _deadline_json(self) -> list[dict[str, Any]]:
        """The timers running now, at the table's pace: each one's full length, the time
        it has left (``remaining``, seconds; a timer a misclick guard holds stands still)
        and whether every eligible seat may pass it. None before the clocks start."""
        now = _now()
        held = self._guarded_keys()
        passable = {key_of(d) for d in self.state.deadlines() if d.passable} \
            if self.state is not None else set()
        out = []
        for key, length, reason in self._timed():
            start = self.timers.started.get(key, now)
            at = min(self.guards.values()) if key in held else now
            out.append({"seat": key[0] if key[0] != CLOCK else None, "seconds": length,
                        "remaining": round(max(0.0, start + length - at), 3),
                        "reason": reason, "passable": key in passable,
                        "held": key in held})
        return out

    def time_factor(self) -> float | None:
        """How this table stretches a rule's seconds (the pace times the server's
        ``time_scale``); None at the untimed pace (no move timer runs)."""
        length = self.pace.length(1.0, move_timer=True)
        return None if length is None else length * self.config.time_scale

    def _context(self, names: list[str], lang: str, seat: int | None) -> narration.Context:
        """The narration context of ``seat`` in ``lang`` at this table's pace."""
        return narration.context(self.game, names, lang, seat, self.time_factor())

    def _timed(self) -> list[tuple[Key, float, str]]:
        """The timers that run now: key, length (loop seconds) and reason. None before
        every person has seen the first deal; at the untimed pace no move timer (a
        deadline while the game waits for a seat, unless ``Deadline.fixed``), and
        reaction windows at least ``timing.UNTIMED_WINDOW`` (``Pace.length``)."""
        st = self.state
        if st is None or self.row.status != "playing" or st.is_over() \
                or not self.clocks_started:
            return []
        scale = self.config.time_scale
        waits = bool(st.to_act())
        out = []
        for d in st.deadlines():
            length = self.pace.length(d.seconds, move_timer=waits and not d.fixed)
            if length is not None:
                out.append((key_of(d), length * scale, d.reason))
        for seat in self._clocked_seats():
            length = self.pace.length(self.config.move_clock, move_timer=True)
            assert length is not None  # no move clock at the untimed pace
            out.append(((seat, MOVE_CLOCK, st.move_number), length * scale, "move clock"))
        return out

    def _guarded_keys(self, guarded: Collection[int] | None = None) -> set[Key]:
        """The move timers a misclick guard holds: those of a seat the game waits for
        while that seat's guard is open (the rules' fixed lengths run on); ``guarded``:
        these seats' guards instead of the open ones."""
        st = self.state
        seats = self.guards if guarded is None else guarded
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
        st = self.state
        if st is None or not self.clocks_started or st.is_over():
            return None
        return next((key_of(d) for d in st.deadlines() if d.passable), None)

    def _clocked_seats(self) -> list[int]:
        """Human seats the game waits for, when the server's per-move clock applies (a
        game without deadlines, not at the untimed pace)."""
        st = self.state
        if self.config.move_clock <= 0 or self.pace is Pace.UNTIMED or st is None \
                or st.is_over() or st.deadlines():
            return []
        return [s for s in st.to_act() if self._bot_for(s) is None]

    def snapshot(self, seat: int | None, kind: str = "state", lang: str = "en"
                 ) -> dict[str, Any]:
        """The full picture ``seat`` may have (welcome, start, state) in ``lang``, with
        the whole history it saw told in ``log`` (a reload or a late join sees it all).
        What is sent is ``snapshot_text``, the same message encoded."""
        msg, told = self._snapshot(seat, kind, lang)
        msg["log"] = [] if told is None else told.lines()
        if "abandoned" in msg:
            msg["log"].append(self._abandoned_log(msg["abandoned"]))
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
            last = json.dumps(self._abandoned_log(msg["abandoned"]))
            lines = f"{lines}, {last}" if lines else last
        return json.dumps(msg)[:-1] + ', "log": [' + lines + "]}"

    def abandoned_line(self, lang: str) -> dict[str, Any]:
        """Why an abandoned table stopped, in ``lang``: ``reason`` (``length_bound``),
        the ``actions`` it reached, the ``bound`` and the ``message`` its players read."""
        tr = server_tr(lang)
        # the bound that stopped it, as stored then (a server restarted with another
        # bound does not change it); a table stored without it: at most what it reached
        bound = self.row.bound if self.row.bound is not None \
            else min(self.length_bound(), len(self.log))
        return {"reason": "length_bound", "actions": len(self.log), "bound": bound,
                "message": tr.format(N_("The game stopped unfinished after {actions} "
                                        "actions: this server plays at most {bound} at a "
                                        "table of {game}. It has no result."),
                                     actions=len(self.log), bound=bound,
                                     game=self.game.spec.title)}

    def _abandoned_log(self, abandoned: dict[str, Any]) -> dict[str, Any]:
        """The log line that ends an abandoned table's history."""
        return {"index": len(self.log) - 1, "text": abandoned["message"]}

    def _snapshot(self, seat: int | None, kind: str, lang: str
                  ) -> tuple[dict[str, Any], Narrated | None]:
        """The snapshot without its ``log``, and the kept history it carries (None
        before the game starts): every event so far as ``seat`` saw it, one log line
        each, the opening deal (index -1) first (``history``)."""
        names = self.names(lang)
        msg: dict[str, Any] = {"type": kind, "code": self.row.code, "seat": seat,
                               "status": self.row.status, "index": len(self.log),
                               "names": names}
        if self.state is None:
            return msg, None
        ctx = self._context(names, lang, seat)
        told = self.histories.get(lang, ctx, self.log)
        msg.update(self._seat_part(seat, ctx=ctx))
        return msg, told

    async def history_ready(self, seat: int | None, lang: str) -> None:
        """Have the history of ``seat`` in ``lang`` kept before a snapshot needs it:
        narrated in the history thread, off the event loop, if it is not (a late
        spectator of a long game), once for all who ask at the same time."""
        if self.state is not None:
            ctx = self._context(self.names(lang), lang, seat)
            await self.histories.ready(lang, ctx, self.log)
            if self._sheet is None and self.state.is_over():  # replays the game once
                await off_loop(self.score_sheet)

    def _seat_part(self, seat: int | None,
                   deadlines: list[dict[str, Any]] | None = None,
                   ctx: narration.Context | None = None) -> dict[str, Any]:
        """The view, deadlines, result and, for a seat, its legal actions and their
        labels (in the language of ``ctx``; English without one)."""
        st = self.state
        assert st is not None
        if ctx is None:
            ctx = self._context(self.names("en"), "en", seat)
        window = self._passable_key()
        passed = self.passed.get(window, set()) if window is not None else set()
        part: dict[str, Any] = {
            "view": st.view(seat),
            "deadlines": self._deadline_json() if deadlines is None else deadlines,
            "not_ready": self.not_ready(),
            "pace": self.pace.value, "time_factor": self.time_factor(),
            "passed": sorted(passed),
            "may_pass": seat is not None and window is not None and seat not in passed
            and seat in st.out_of_turn(),
            "over": st.is_over()}
        if st.is_over():
            part["result"] = st.result().to_json()
            part["sheet"] = self.sheet_json(ctx)
            part["rematch"] = self.rematch_json(seat)
        abandoned = self.row.status == ABANDONED
        if abandoned:
            part["abandoned"] = self.abandoned_line(ctx.tr.lang)
        if seat is not None and not st.is_over() and not abandoned:
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
        self.histories.applied(index, events)  # the kept histories grow by its lines
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
                ctx = self._context(names[c.lang], c.lang, c.seat)
                msg: dict[str, Any] = {
                    "type": "update", "index": index,
                    "seat": actor if actor != CLOCK else None,
                    "events": [e.for_seat(c.seat) for e in events],
                    "log": self.histories.lines_of(c.lang, ctx, index)
                    or log_lines(self.game, index, events, c.seat, ctx),
                }
                if c.seat is not None and c.seat == actor:
                    msg["action"] = action
                if deadlines is None:
                    deadlines = self._deadline_json()
                msg.update(self._seat_part(c.seat, deadlines, ctx))
                if "abandoned" in msg:  # the last update: its log says why
                    msg["log"] = [*msg["log"], self._abandoned_log(msg["abandoned"])]
                    msg["status"] = ABANDONED
                text = per_seat[(c.seat, c.lang)] = json.dumps(msg)
            c.send(text)

    # -- acting --------------------------------------------------------------------
    def _judge(self, seat: int, action: int) -> Check | None:
        """The engine's refusal of an action (``State.judge``), or None if it may apply."""
        st = self.state
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
        st = self.state
        assert st is not None
        if self.row.status == ABANDONED:  # a bot's answer or a deadline after the bound
            raise IllegalAction("the table was abandoned at its length bound", seat, action)
        refused = self._judge(seat, action)
        if refused is not None:
            raise IllegalAction.of(refused, seat, action)
        text = self.game.action_to_json(action)
        index = len(self.log)
        try:
            if self.fence is not None and not self.fence():
                raise StorageError("this node no longer holds the table's lease")
            await self.store.writer.append(self.row.id, self.row.epoch, index, seat, text,
                                           client_id)
        except Exception as e:  # nothing is applied; bots and deadlines try again later
            if isinstance(e, StaleOwner):  # another runtime claimed the table: this one
                self.stale = True  # stops serving it (its clients reconnect to that one)
                if self.on_stale is not None:
                    self.on_stale(self)
            else:
                self._retry_later()
            raise StorageError(str(e).strip().splitlines()[0] if str(e).strip()
                               else type(e).__name__) from e
        self._store_failures = 0
        self._close_guard(seat)  # an action ends its player's hesitation
        self._could_act = set(st.may_act())
        events = st.apply(seat, action)
        self.log.append((seat, text))
        self.epoch += 1
        if ack is not None:
            ack(index)
        self._after_change(seat)
        if st.is_over():
            result = st.result().to_json()
            self.row.ended = time.time()
            try:
                await self.store.call(self.store.set_status, self.row.id, "over", result,
                                      self.row.setup_json())
            except Exception:  # the last action is stored: a restart marks the end
                log.exception("table %s: storing the end of the game failed", self.code)
            self.row.status = "over"
            self.row.result = result
            self._open_offer()
        elif len(self.log) >= self.length_bound():
            await self._abandon()
        self._arm()  # first: the update tells the timers this action started
        self._broadcast(seat, text, events)
        self._wake.set()
        if self.row.status in ENDED:
            self._finished()
        return index

    async def _abandon(self) -> None:
        """The table reached its length bound unfinished: it stops, stored as
        ``abandoned`` without a result (no game's rules judge a game cut short; see each
        game's rules.md). Caller holds the lock; the update that follows says why."""
        self.row.ended = time.time()
        self.row.bound = self.length_bound()
        try:
            await self.store.call(self.store.set_status, self.row.id, ABANDONED, None,
                                  self.row.setup_json())
        except Exception:  # the last action is stored: a restart marks it (``rebuild``)
            log.exception("table %s: storing its abandonment failed", self.code)
        self.row.status = ABANDONED
        log.warning("table %s (%s) abandoned at its length bound of %d actions",
                    self.code, self.row.game, len(self.log))

    def _after_change(self, actor: int) -> None:
        """What an applied action means for the table's clocks: a pause that ended waits
        for the people to be ready again (the one who ended it is), and a round that
        ended gives the table its own pace back."""
        st = self.state
        assert st is not None
        paused = bool(st.frozen_timers())
        if self._paused and not paused and self.wants_ready and self.clocks_started:
            self.clocks_started = False
            self.ready_seats = {actor} if actor >= 0 and self._person_plays(actor) else set()
            if not self.not_ready():  # nobody else to wait for
                self.clocks_started = True
            for seat in self.not_ready():
                if any(c.seat == seat for c in self.conns):
                    self._expect_ready(seat)
        self._paused = paused
        if self._pace_round is not None and st.round_number() != self._pace_round:
            self._pace_round = None
            self.pace = Pace.parse(self.row.pace)

    def _retry_later(self) -> None:
        """After a failed write: wake the bots and re-arm the timers in a while (half a
        second, doubling with each failure in a row up to 30 s), so that a table whose
        next move is a bot's or a deadline's does not stall while the database is away."""
        delay = min(30.0, 0.5 * 2 ** min(self._store_failures, 6))
        self._store_failures += 1

        def retry() -> None:
            if self.row.status == "playing" and not self.stale:
                self._answered.clear()  # a bot whose move was not stored decides again
                self._arm()
                self._wake.set()

        asyncio.get_running_loop().call_later(delay, retry)

    def _finished(self) -> None:
        """The game ended: stop timers (the driver returns by itself) and let the lobby
        drop this runtime once the final messages are queued (they already are)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for h in [*self.grace.values(), *self._ready_timers.values()]:
            h.cancel()
        self.grace.clear()
        self._ready_timers.clear()
        for c in self.conns:
            c.lag.stop()
        if self.on_over is not None:
            asyncio.get_running_loop().call_soon(self.on_over, self)

    def _remember(self, seat: int, client_id: str, ack: tuple[Any, int]) -> None:
        seen = self.seen.setdefault(seat, OrderedDict())
        seen[client_id] = ack
        while len(seen) > self.config.remembered_ids:
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
        async with self.lock:
            if cid is not None and cid in self.seen.get(seat, {}):
                return self._repeat(seat, cid)
            held = self._held(seat, cid)
            if held is None:
                if self.row.status != "playing" or self.state is None:
                    return err(*self._not_playing(tr), client_id)
                try:
                    action = self.game.action_from_json(msg["action"])
                except IllegalAction as e:
                    return err("bad_action", translate_reason(self.game, e, tr.lang),
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

                self._saw_deal(seat)  # acting shows the deal is on the player's screen
                entry = Entry(EntryKind.ACTION, arrival, self._credit(conn, seat), seat,
                              action, client_id=cid, ack=send_ack, sender=conn,
                              sent_id=client_id)
                hold = self.config.race_window if self._contested(seat, action) else 0.0
                await self._admit(entry, hold)
        if held is not None:  # the same id again while the first waits in a race
            outcome = await asyncio.shield(held.done)
            return self._repeat(seat, cid) if outcome is None and cid is not None \
                else outcome
        return await entry.done

    def _repeat(self, seat: int, cid: str) -> dict[str, Any]:
        """The ack of an action already applied, sent again (``repeat``)."""
        sent_id, index = self.seen[seat][cid]
        return {"type": "ack", "id": sent_id, "index": index, "repeat": True}

    def _held(self, seat: int, cid: str | None) -> Entry | None:
        """The action of ``seat`` with message id ``cid`` waiting in the race, if any."""
        if cid is None or self.window is None:
            return None
        return next((e for e in self.window.entries if e.kind is EntryKind.ACTION
                     and not e.bot and e.seat == seat and e.client_id == cid), None)

    def _not_playing(self, tr: Translator) -> tuple[str, str]:
        """The error code and reason for an action at a table that is not playing."""
        if self.row.status == "waiting":
            return "not_started", tr.gettext(N_("The game has not started yet."))
        if self.row.status == "expired":
            return "expired", tr.gettext(N_("This table expired: nobody joined in time."))
        if self.row.status == ABANDONED:
            return ABANDONED, self.abandoned_line(tr.lang)["message"]
        return "game_over", tr.gettext(N_("The game is over."))

    def _refusal(self, tr: Translator, seat: int, e: IllegalAction) -> str:
        """Why an action was refused, in the player's language: "not your turn" and
        "game over" in the server's words, any other reason from the game's catalog."""
        st = self.state
        assert st is not None
        if st.is_over():
            return tr.gettext(N_("The game is over."))
        if seat not in st.may_act():
            if seat in self._could_act:  # a reaction that came as its window closed
                return tr.gettext(N_("Too late: that chance has passed."))
            return tr.gettext(N_("It is not your turn."))
        return translate_reason(self.game, e, tr.lang, self.names(tr.lang))

    # -- bots ------------------------------------------------------------------------
    def _bot_for(self, seat: int) -> Bot | None:
        return self.bots.get(seat) or self.subs.get(seat)

    async def _drive(self) -> None:
        """Until the game ends: after every change, let each bot that may act decide."""
        while self.row.status not in ENDED:
            await self._wake.wait()
            self._wake.clear()
            self._plan_bots()

    def _plan_bots(self) -> None:
        """Start a decision for every bot seat that may act now and has not answered
        this epoch (at most one decision per seat at a time). Nothing while the table
        waits for people to be ready."""
        st = self.state
        if self.row.status != "playing" or st is None or st.is_over() \
                or (not self.bots and not self.subs) or self.not_ready():
            return
        for seat in dict.fromkeys([*st.to_act(), *st.out_of_turn()]):
            if self._bot_for(seat) is None or seat in self._plans \
                    or self._answered.get(seat) == self.epoch:
                continue
            task = asyncio.get_running_loop().create_task(self._bot_turn(seat, self.epoch))
            self._plans[seat] = task
            task.add_done_callback(functools.partial(self._plan_done, seat))

    def _plan_done(self, seat: int, _task: object = None) -> None:
        """A bot's decision is over: decide again if the table moved on meanwhile."""
        self._plans.pop(seat, None)
        if self.row.status == "playing":
            self._wake.set()

    async def _bot_turn(self, seat: int, epoch: int) -> None:
        """One decision of the bot at ``seat``, as a person would make it: it thinks on a
        copy of the state (the table goes on meanwhile, other bots think at the same
        time), and its answer shows after its level's delay (``pacing``). An answer the
        table overtook is applied only if it is still legal as it was meant (a vote
        still is; a throw-in on a card now covered is not), else the bot decides again."""
        bot = self._bot_for(seat)
        st = self.state
        if bot is None or st is None:
            return
        loop = asyncio.get_running_loop()
        began = loop.time()
        required = seat in st.to_act()
        obs = Observation(st.clone(), seat, required=required)
        self.thinking.add(seat)
        try:
            action = await self.thinker.decide(bot, bot.act if required else bot.react, obs,
                                               self.fallbacks.get(seat))
        except Exception:  # a bot bug must not stop the table
            log.exception("table %s: the bot of seat %d failed", self.code, seat)
            self._answered[seat] = epoch
            return
        finally:
            self.thinking.discard(seat)
        # its own turn is when the game waits for it alone; a vote that every seat casts
        # at once is answered like a reaction
        alone = required and len(st.to_act()) == 1
        moment = Moment.GLANCE if action is None else (Moment.ACT if alone else Moment.REACT)
        clock = self.bot_clocks.get(seat)
        wait = began + (clock.delay(moment) if clock is not None else 0.0) - loop.time()
        await asyncio.sleep(max(0.0, wait))
        async with self.lock:
            st = self.state
            if st is None or self.row.status != "playing" or st.is_over() \
                    or self._bot_for(seat) is not bot or self.not_ready():
                return
            if self.epoch != epoch and (action is None or required != (seat in st.to_act())
                                        or action not in st.legal_actions(seat)):
                return  # overtaken: ``_plan_done`` asks again
            self._answered[seat] = self.epoch
            if self.on_bot_answer is not None:
                self.on_bot_answer(seat, moment, loop.time() - began)
            if action is None:
                await self._pass(seat)
            else:  # not stored: ``_retry_later`` asks the bots again
                await self._try_bot(seat, action)

    async def _try_bot(self, seat: int, action: int) -> bool:
        """A bot's decision, arriving now: applied, or held in a race (True), or refused.
        Caller holds the lock."""
        entry = Entry(EntryKind.ACTION, asyncio.get_running_loop().time(), 0.0, seat, action,
                      bot=True)
        await self._admit(entry, self.config.race_window if self._contested(seat, action)
                          else 0.0)
        return not entry.done.done() or entry.done.result() is None

    async def _apply_bot(self, seat: int, action: int | None, raced: bool = False) -> bool:
        """Apply a bot's action now; a refusal or a failed write is logged (False). A
        refusal after a race is no bug: another seat's action came first (two bots that
        accused the same fault)."""
        if action is None:
            return False
        try:
            await self._apply_locked(seat, action)
        except IllegalAction as e:
            log.log(logging.INFO if raced else logging.WARNING,
                    "table %s: bot for seat %d chose an action that is not legal now: %s",
                    self.code, seat, e.reason)
            return False
        except StorageError as e:  # retried by ``_retry_later``
            log.error("table %s: storing a bot's action failed: %s", self.code, e)
            return False
        return True

    # -- deadlines ---------------------------------------------------------------------
    def _arm(self) -> None:
        """Bring the timers in line with the state (after every change) and arm the next.
        Nothing runs before the clocks start; while a race is held the armed timer stays
        (it joins the race) and the books wait for its outcome."""
        if self.window is not None:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.armed = None
        st = self.state
        if st is None or self.row.status != "playing" or st.is_over() \
                or not self.clocks_started:
            return
        loop = asyncio.get_running_loop()
        timed = self._timed()
        self.timers.sync(st, loop.time(), [key for key, _, _ in timed if key[1] == MOVE_CLOCK])
        held = self._guarded_keys()
        best: tuple[float, Key] | None = None
        for key, length, _ in timed:
            if key in held:  # stands still while its player's guard is open
                continue
            due = self.timers.started[key] + length
            if best is None or due < best[0]:
                best = (due, key)
        if best is not None:
            self.armed = best
            due, key = best
            self._timer = loop.call_at(due, lambda: self._spawn(self._expire(key, due)))

    async def _expire(self, key: Key, due: float) -> None:
        """The timer ``key`` passed at ``due``: it contends like an action that arrived
        then, and waits as long as some player's credit for delay could still beat it."""
        async with self.lock:
            if self.state is None or self.row.status != "playing":
                return
            await self._admit(Entry(EntryKind.DEADLINE, due, key=key), self._largest_credit())

    async def _expire_now(self, key: Key) -> None:
        """Apply what the timer ``key`` does, if it still runs; else re-arm. Caller holds
        the lock."""
        st = self.state
        if st is None or self.row.status != "playing":
            return
        seat, action, since = key
        if action == MOVE_CLOCK:
            if st.move_number == since and seat in self._clocked_seats():
                bot = make_bot(self.game, self.config.substitute_bot, seat,
                               self.rng.randrange(2**31))
                if await self._apply_bot(seat, bot.act(Observation(st, seat, required=True))):
                    self._count_timeout([seat])
                    return
                if self._store_failures:  # the write failed: ``_retry_later`` re-arms
                    return
            self._arm()
            return
        timer = next((d for d in st.deadlines() if key_of(d) == key), None)
        if timer is not None:
            # a move timer that ran out on people the game waited for: they were late
            late = [] if timer.fixed else [s for s in st.to_act() if self._person_plays(s)]
            try:
                await self._apply_locked(seat, action)
                self._count_timeout(late)
                return
            except IllegalAction as e:  # pragma: no cover - a game bug
                log.error("table %s: deadline action refused: %s", self.code, e.reason)
            except StorageError as e:  # retried by ``_retry_later``
                log.error("table %s: storing a deadline's action failed: %s", self.code, e)
                return
        self._arm()

    # -- passing a window, the misclick guard, the pace ---------------------------------
    async def _pass(self, seat: int) -> None:
        """``seat`` lets the open reaction window pass; once every seat that may still
        act in it has, it closes at once (``Deadline.passable``). Caller holds the lock."""
        st = self.state
        key = self._passable_key()
        if st is None or key is None or seat not in st.out_of_turn():
            return
        self.passed = {key: self.passed.get(key, set()) | {seat}}
        if set(st.out_of_turn()) <= self.passed[key] and self.window is None:
            await self._expire_now(key)
        elif self._person_plays(seat):
            self._push_states()  # everyone sees who passed

    async def pass_window(self, conn: Conn) -> dict[str, Any] | None:
        """A person pressed "Pass" in a reaction window; an error if there is none."""
        async with self.lock:
            st = self.state
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
        async with self.lock:
            st = self.state
            if msg.get("action") is None:
                self._close_guard(seat)
                self._after_guard()
                return None
            if st is None or self.row.status != "playing" or seat not in st.to_act():
                return err("no_guard", tr.gettext(N_("Nothing to confirm: it is not your "
                                                     "move.")))
            try:
                action = self.game.action_from_json(msg["action"])
            except Exception:  # a game's parser choking on garbage
                return err("bad_action", tr.gettext(N_("That is not an action of this game.")))
            if st.judge(seat, action).verdict is not Verdict.FAULTY:
                return err("no_guard", tr.gettext(N_("That attempt costs nothing: play it "
                                                     "without confirming.")))
            left = self.config.guard_seconds - self._guard_used.get((seat, self.epoch), 0.0)
            if seat in self.guards or left <= 0:
                return None  # already open, or this move's guard time is spent
            loop = asyncio.get_running_loop()
            self.guards[seat] = loop.time()
            self._guard_timers[seat] = loop.call_later(
                left, lambda: self._spawn(self._guard_ran_out(seat)))
            self._after_guard()
            return None

    async def _guard_ran_out(self, seat: int) -> None:
        async with self.lock:
            self._guard_timers.pop(seat, None)
            if seat in self.guards:
                self._close_guard(seat)
                self._after_guard()

    def _close_guard(self, seat: int) -> None:
        """Close ``seat``'s guard: the move timers it held run on from where they stood."""
        opened = self.guards.pop(seat, None)
        h = self._guard_timers.pop(seat, None)
        if h is not None:
            h.cancel()
        if opened is None:
            return
        held = self._guarded_keys({seat})
        credit = max(0.0, _now() - opened)
        used = (seat, self.epoch)
        self._guard_used[used] = self._guard_used.get(used, 0.0) + credit
        for key in held:
            if key in self.timers.started:
                self.timers.started[key] += credit

    def _after_guard(self) -> None:
        """Re-arm the timers and show everyone the clocks as they now stand."""
        self._arm()
        self._push_states()

    def _count_timeout(self, waiting: list[int]) -> None:
        """The move timer of the people in ``waiting`` ran out: at a second timeout in a
        row, a person whose every opponent is a bot is offered the untimed pace for the
        rest of the round (once a round)."""
        st = self.state
        if st is None or self.pace is Pace.UNTIMED:
            return
        for seat in waiting:
            n = self.timeouts[seat] = self.timeouts.get(seat, 0) + 1
            others_bots = all(not self._person_plays(s) for s in range(self.row.players)
                              if s != seat)
            if n >= 2 and others_bots and self._offered.get(seat) != st.round_number():
                self._offered[seat] = st.round_number()
                for c in self.conns:
                    if c.seat == seat and c.bound:
                        c.send({"type": "offer_pace", "pace": Pace.UNTIMED.value})

    async def set_pace(self, conn: Conn, msg: dict[str, Any]) -> dict[str, Any] | None:
        """The person accepts the untimed pace offered after two timeouts in a row."""
        tr = conn.tr
        async with self.lock:
            st = self.state
            seat = conn.seat
            if msg.get("pace") != Pace.UNTIMED.value or seat is None or st is None \
                    or self._offered.get(seat) != st.round_number() \
                    or self.row.status != "playing":
                return err("no_offer", tr.gettext(N_("The pace can change only when the "
                                                     "table offers it.")))
            self.pace = Pace.UNTIMED
            self._pace_round = st.round_number()
            self.timeouts[seat] = 0
            self._arm()
            self._push_states()
            return None

    # -- races -----------------------------------------------------------------------------
    def _person_plays(self, seat: int) -> bool:
        """A person, not a bot (nor a substitute), plays ``seat``."""
        return seat not in self.bots and seat not in self.subs

    def _contested(self, seat: int, action: int) -> bool:
        """An out-of-turn ``action`` of ``seat`` that another person could race now. An
        attempt the game refuses outright (a seat whose turn it is not, at a turn-based
        table) races nobody: it is refused at once and holds up nobody's turn.

        Whether another seat may act out of turn can rest on its hidden cards (who holds
        the card to throw in), so that is not asked: any other person at the table could
        race. Else the hold itself — an ack now or a race window later — would tell the
        actor what another's hand holds (issue 41, item 9)."""
        st = self.state
        assert st is not None
        if seat in st.to_act():
            return False
        if not any(s != seat and self._person_plays(s) for s in range(st.num_players)):
            return False
        return st.judge(seat, action).verdict is not Verdict.ILLEGAL

    def _quota(self, seat: int) -> LagQuota:
        q = self.quotas.get(seat)
        if q is None:
            cfg = self.config
            q = self.quotas[seat] = LagQuota(cfg.lag_quota_gain, cfg.lag_quota_cap,
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
        for c in self.conns:
            if c.seat is not None and self._person_plays(c.seat):
                best = max(best, self._credit(c, c.seat))
        return best

    async def _admit(self, entry: Entry, hold: float) -> None:
        """Apply ``entry`` now, or hold it: in the open race window, or in a new one
        ``hold`` seconds long. Caller holds the lock; ``entry.done`` tells the outcome."""
        w = self.window
        if w is not None and entry.arrival > w.close:  # that race was over before it came
            await self._resolve()
            w = None
        if w is None and hold > 0:
            window = w = self.window = RaceWindow(entry.arrival + hold)
            w.timer = asyncio.get_running_loop().call_at(
                w.close, lambda: self._spawn(self._close_window(window)))
        if w is not None:
            w.entries.append(entry)
            return
        await self._run(entry)

    async def _close_window(self, window: RaceWindow) -> None:
        async with self.lock:
            if self.window is window:
                await self._resolve()

    async def _resolve(self) -> None:
        """Apply the held contenders by compensated arrival, actions before a deadline
        of the same moment, ties by the seeded tie-break; each is judged against the
        state it meets then. Caller holds the lock."""
        w, self.window = self.window, None
        if w is None:
            return
        if w.timer is not None:
            w.timer.cancel()
        for entry in w.ordered(self.race_rng):
            await self._run(entry)
        self._arm()
        self._wake.set()

    async def _run(self, e: Entry) -> None:
        """Apply one contender; the sender's error (or None) goes to ``e.done``."""
        outcome: dict[str, Any] | None = None
        if e.kind is EntryKind.DEADLINE:
            assert e.key is not None
            await self._expire_now(e.key)
        elif e.bot:
            if not await self._apply_bot(e.seat, e.action, raced=True):
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
        if self.row.status != "playing" or self.state is None:
            return err(*self._not_playing(tr), e.sent_id)
        try:
            await self._apply_locked(e.seat, e.action, e.client_id, e.ack)
            self.timeouts[e.seat] = 0  # on time again
        except IllegalAction as exc:
            return err("illegal_action", self._refusal(tr, e.seat, exc), e.sent_id)
        except StorageError as exc:
            log.error("table %s: storing an action of seat %d failed: %s",
                      self.code, e.seat, exc)
            return err("storage", tr.gettext(N_(
                "The server could not store your action, so nothing changed. Send it "
                "again (with the same id).")), e.sent_id)
        self._quota(e.seat).spend(e.credit)
        return None

    async def settle(self) -> None:
        """Apply what a race window holds, now (the table moves to another node).
        Caller holds the lock."""
        if self.window is not None:
            await self._resolve()

    def _drop_window(self) -> None:
        """The table closes: a held race is dropped, its senders told nothing changed."""
        w, self.window = self.window, None
        if w is None:
            return
        if w.timer is not None:
            w.timer.cancel()
        for e in w.entries:
            if not e.done.done():
                e.done.set_result(None if e.bot or e.kind is EntryKind.DEADLINE
                                  else err("server_error", "the table closed", e.sent_id))

    # -- the clocks wait until every person is ready -------------------------------------
    def _has_seen(self, seat: int) -> bool:
        return seat in self.ready_seats or not self._person_plays(seat)

    def not_ready(self) -> list[int]:
        """Person seats the table waits for: before the first clock and after a pause,
        each person presses "I'm ready"; until all have, no clock runs and no bot acts."""
        if not self.wants_ready or self.clocks_started or self.row.status != "playing":
            return []
        return [s.seat for s in self.human_seats() if not self._has_seen(s.seat)]

    def _saw_deal(self, seat: int) -> None:
        """The person at ``seat`` is ready; the last one starts (or restarts) the clocks."""
        if seat in self.ready_seats or self.clocks_started:
            return
        self.ready_seats.add(seat)
        h = self._ready_timers.pop(seat, None)
        if h is not None:
            h.cancel()
        self._check_ready()
        self._notify_seats()

    def _check_ready(self) -> bool:
        """Start the clocks once every person is ready (or a bot plays their seat); every
        connection then gets a ``state`` with the running timers, and the bots begin."""
        if self.clocks_started or self.row.status != "playing" or self.state is None \
                or self.not_ready():
            return False
        self.clocks_started = True
        for h in self._ready_timers.values():
            h.cancel()
        self._ready_timers.clear()
        self._arm()
        self._push_states()
        self.epoch += 1
        self._wake.set()
        return True

    def _push_states(self) -> None:
        """A fresh ``state`` to every connection (one encoding per seat and language)."""
        per_seat: dict[tuple[int | None, str], str] = {}
        for c in self.conns:
            if c.bound:
                key = (c.seat, c.lang)
                if key not in per_seat:
                    per_seat[key] = json.dumps(self.snapshot(c.seat, "state", c.lang))
                c.send(per_seat[key])

    def _expect_ready(self, seat: int) -> None:
        """A connected person who never presses "I'm ready" counts as ready after
        ``ready_timeout`` seconds (0: never), so a table cannot wait for them forever."""
        if self.clocks_started or self.row.status != "playing" or self._has_seen(seat) \
                or seat in self._ready_timers or self.config.ready_timeout <= 0:
            return
        self._ready_timers[seat] = asyncio.get_running_loop().call_later(
            self.config.ready_timeout, lambda: self._spawn(self._ready_anyway(seat)))

    async def _ready_anyway(self, seat: int) -> None:
        async with self.lock:
            self._ready_timers.pop(seat, None)
            if any(c.seat == seat for c in self.conns) and seat not in self.ready_seats:
                log.info("table %s: seat %d never said ready; its clock runs anyway",
                         self.code, seat)
                self._saw_deal(seat)

    async def ready(self, conn: Conn) -> None:
        """The person at ``conn``'s seat pressed "I'm ready"."""
        async with self.lock:
            if conn.seat is None or not conn.bound or self.row.status != "playing":
                return
            self._saw_deal(conn.seat)

    def _start_pings(self, conn: Conn) -> None:
        """Measure a seated connection's lag from now on (its credit for delay)."""
        if conn.seat is not None and conn.lag.timer is None \
                and self.row.status == "playing":
            self._ping(conn)

    def _ping(self, conn: Conn) -> None:
        """Ping ``conn`` now and every ``ping_interval`` seconds while it plays."""
        conn.lag.timer = None
        if conn.closed or conn not in self.conns or self.row.status != "playing":
            return
        loop = asyncio.get_running_loop()
        conn.send({"type": "ping", "id": conn.lag.ping(loop.time())})
        conn.lag.timer = loop.call_later(self.config.ping_interval, self._ping, conn)

    @staticmethod
    def pong(conn: Conn, msg: dict[str, Any], arrival: float) -> None:
        """The answer to one of the server's pings, stamped ``arrival``: a round trip."""
        conn.lag.pong(msg.get("id"), arrival)

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
            # a substitute keeps a person's (medium) pace
            self.bot_clocks.setdefault(seat, self._bot_clock(seat, None))
            self._check_ready()  # a substitute has seen the deal
            self._notify_seats()
            self._wake.set()

    def _seats_text(self, lang: str) -> str:
        info = self.public_info(lang)
        return json.dumps({"type": "seats", "seats": info["seats"], "names": info["names"],
                           "not_ready": info["not_ready"]})

    def _notify_seats(self) -> None:
        """Every connection hears who sits where. Only seats change it: a spectator who
        comes is told alone (``attach``), one who goes changes nothing, so a crowd of
        spectators costs one message each, not one to everybody per arrival."""
        per_lang: dict[str, str] = {}  # one encoding per language
        for c in self.conns:
            if c.bound:
                if c.lang not in per_lang:
                    per_lang[c.lang] = self._seats_text(c.lang)
                c.send(per_lang[c.lang])

    def spectators(self) -> int:
        return sum(1 for c in self.conns if c.bound and c.seat is None)

    async def attach(self, conn: Conn, seat: int | None, token: str | None = None) -> bool:
        """Bind ``conn`` to ``seat`` (its ``token``) or to nobody (a spectator); False
        (nothing done) for a spectator past ``max_spectators``."""
        cap = self.config.max_spectators
        if seat is None and 0 < cap <= self.spectators():
            return False
        await self.history_ready(seat, conn.lang)  # off the loop, before the lock
        async with self.lock:
            if seat is None and 0 < cap <= self.spectators():
                return False
            conn.seat = seat
            conn.bound = True
            self.conns.add(conn)
            if seat is not None and token is not None:
                self._tokens[seat] = token
            if seat is not None:
                h = self.grace.pop(seat, None)
                if h is not None:
                    h.cancel()
                self.subs.pop(seat, None)
                self._expect_ready(seat)
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
        async with self.lock:
            conn.lang = lang
            if conn.bound:
                conn.send(self.snapshot_text(conn.seat, "state", lang))

    async def send_state(self, conn: Conn) -> None:
        """A fresh ``state`` for ``conn`` in its language."""
        await self.history_ready(conn.seat, conn.lang)
        async with self.lock:
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
        rate = self.config.snapshots_per_second
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
            if not conn.closed and conn in self.conns:
                assert conn.snapshots is not None
                conn.snapshots.allow()
                await self.send_state(conn)

        self._spawn(later())

    async def expire_waiting(self) -> bool:
        """Give up a table still waiting for players (the lobby's ``waiting_expiry``): it
        is stored as ``expired`` and its connections get a ``state`` saying so."""
        async with self.lock:
            if self.row.status != "waiting":
                return False
            await self.store.call(self.store.set_status, self.row.id, "expired")
            self.row.status = "expired"
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
            if conn.bound and seat is not None:  # a spectator's going changes nothing
                self._notify_seats()

    # -- the end: the score sheet and the rematch ---------------------------------------------
    def score_sheet(self) -> ScoreSheet | None:
        """The finished game's score sheet (None before the end), from its events replayed
        once; a game whose sheet cannot be made gets the generic one (logged)."""
        st = self.state
        if st is None or not st.is_over():
            return None
        if self._sheet is None:
            try:
                actions = [(seat, self.game.action_from_json(text)) for seat, text in self.log]
                final, events = history(self.row.first_state(self.game), actions)
                self._sheet = sheet_of(final, events, len(self.log))
            except Exception:  # a game's bug must not take the end of the game away
                log.exception("table %s: the score sheet of %s failed", self.code,
                              self.game.name)
                self._sheet = replace(generic_sheet(st), actions=len(self.log))
        return self._sheet

    def seconds_played(self) -> float | None:
        """From the start of the game to its end (None where not recorded)."""
        if self.row.started is None or self.row.ended is None:
            return None
        return max(0.0, self.row.ended - self.row.started)

    def sheet_json(self, ctx: narration.Context) -> dict[str, Any] | None:
        """The score sheet in the language of ``ctx``, with the game's length."""
        sheet = self.score_sheet()
        return None if sheet is None else sheet.to_json(ctx, self.seconds_played())

    def _open_offer(self) -> None:
        """The game ended: a table with people offers a rematch (bots accept at once) for
        ``rematch_seconds``, if a lobby can make one. Caller holds the lock."""
        people = tuple(s.seat for s in self.human_seats())
        if not people or self.on_rematch is None or self.config.rematch_seconds <= 0:
            return
        bots = tuple(s.seat for s in self.row.seats if s.kind == "bot")
        self.offer = RematchOffer(people, bots)
        self.offer.timer = asyncio.get_running_loop().call_later(
            self.config.rematch_seconds, lambda: self._spawn(self._offer_timed_out()))

    async def _offer_timed_out(self) -> None:
        await self.close_offer()

    async def close_offer(self) -> None:
        """Close an open rematch offer (its time ran out, or the server keeps too many)."""
        async with self.lock:
            if self.offer is not None and self.offer.status == OPEN:
                self._close_offer(CLOSED)

    def _close_offer(self, status: str) -> None:
        """The offer ends (``status``): everyone is told, the lobby lets the table go.
        Caller holds the lock."""
        offer = self.offer
        assert offer is not None
        offer.status = status
        offer.accepted = {s: "" for s in offer.accepted}  # the tokens are not needed now
        if offer.timer is not None:
            offer.timer.cancel()
            offer.timer = None
        self._notify_rematch()
        if self.on_offer_closed is not None:
            self.on_offer_closed(self)

    def rematch_json(self, seat: int | None) -> dict[str, Any]:
        """The rematch as ``seat`` (None: a spectator) may know it: its state, who accepted
        and who has not answered; once it started its table's code and, for a person, the
        seat and token there (derived from the token the seat said ``hello`` with)."""
        offer = self.offer
        if self.row.rematch is not None and (offer is None or offer.status != STARTED):
            offer = RematchOffer((), (), status=STARTED, code=self.row.rematch)
        if offer is None:
            offer = RematchOffer((), (), status=CLOSED)
        out = offer.json()
        token = self._tokens.get(seat) if seat is not None else None
        if seat is not None and token is not None and offer.status == STARTED \
                and offer.code is not None:
            out["seat"] = rotated(seat, self.row.players)
            out["token"] = rematch_token(token, offer.code)
        return out

    def _notify_rematch(self) -> None:
        """Every connection hears where the rematch stands (its own seat's token, once
        it started)."""
        for c in self.conns:
            if c.bound:
                c.send({"type": "rematch", **self.rematch_json(c.seat)})

    async def answer_rematch(self, conn: Conn, msg: dict[str, Any]) -> dict[str, Any] | None:
        """A person's answer to the rematch offer (``accept``: true, the default, or
        false); an error for a request that changes nothing. The last acceptance makes
        the new table (``on_rematch``)."""
        tr = conn.tr
        accept = msg.get("accept", True)
        if not isinstance(accept, bool):
            return err("malformed", tr.gettext(N_("'accept' must be true or false.")))
        async with self.lock:
            seat = conn.seat
            if seat is None:
                return err("not_a_seat", tr.gettext(N_("Spectators cannot answer a rematch.")))
            if self.row.status != "over":
                return err("not_over", tr.gettext(
                    N_("A rematch is offered once the game is over.")))
            offer = self.offer
            if self.row.rematch is not None:
                return err("rematch_started", tr.format(
                    N_("The rematch has started already: table {table}."),
                    table=self.row.rematch))
            if offer is not None and offer.status == DECLINED \
                    and offer.declined_by is not None:
                return err("rematch_declined", tr.format(
                    N_("{player} declined the rematch."),
                    player=self.names(tr.lang)[offer.declined_by]))
            if offer is None or offer.status != OPEN:
                return err("rematch_closed", tr.gettext(N_("The rematch offer has closed.")))
            if not accept:
                offer.declined_by = seat
                self._close_offer(DECLINED)
                return None
            if seat in offer.accepted:
                return err("already_accepted", tr.gettext(
                    N_("You have accepted the rematch already.")))
            token = self._tokens.get(seat)
            if token is None:  # every seat's connection said hello with its token
                return err("bad_token", tr.gettext(
                    N_("This token holds no seat at this table.")))
            offer.accepted[seat] = token
            if offer.waiting():
                self._notify_rematch()
                return None
            assert self.on_rematch is not None
            try:
                code = await self.on_rematch(self, offer)
            except Exception:
                log.exception("table %s: starting the rematch failed", self.code)
                del offer.accepted[seat]  # nothing changed: the person may try again
                self._notify_rematch()
                return err("unavailable", tr.gettext(N_(
                    "The rematch could not be set up just now; nothing changed. Try again "
                    "in a moment.")))
            self.row.rematch = offer.code = code
            self._close_offer(STARTED)
            return None

    # -- replay ----------------------------------------------------------------------------------
    def replay(self) -> dict[str, Any]:
        names = [s.bot if s.kind == "bot" else (s.name or "human") for s in self.row.seats]
        rep = Replay(self.row.game, self.row.players, dict(self.row.options), self.row.seed,
                     self.row.deck, [str(n) for n in names], list(self.log), self.row.result,
                     self.row.position)
        return rep.to_json()


def _now() -> float:
    """The event loop's clock (the one the timers run on); ``time.monotonic`` outside a
    loop, which is what the standard loops read."""
    try:
        return asyncio.get_running_loop().time()
    except RuntimeError:
        return time.monotonic()


def abandoned_note(status: str, lang: str) -> dict[str, Any]:
    """``{"abandoned": why}`` in ``lang`` for a table stopped at its length bound (the
    lobby lists it so); nothing for any other."""
    if status != ABANDONED:
        return {}
    return {"abandoned": server_tr(lang).gettext(
        N_("stopped unfinished at this server's length limit"))}


def err(code: str, message: str, client_id: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if client_id is not None:
        out["id"] = client_id
    return out


__all__ = ["ABANDONED", "ENDED", "Conn", "TableRuntime", "abandoned_note", "err", "hash_token"]
