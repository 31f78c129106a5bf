"""One live table: the authoritative state, its seats and its lifecycle; each job is a part.

Everything that changes the state runs under the table's ``asyncio.Lock``: a
player's action, a bot's action, a deadline that passes. Each is judged against
the state it meets when it is applied. ``TableRuntime`` holds the state every part reads
and the small surface the rest of the server calls; each job is an object it owns, in a
module that reads alone:

- ``acting``: an action judged, written to the store *before* it is applied and pushed
  (nothing acknowledged is ever lost), acknowledged; races held and resolved;
- ``clocks``: deadlines, the misclick guard, the pace, and the wait until every person
  pressed "I'm ready" (no clock runs and no bot acts before);
- ``seatbots``: the bots' decisions, paced like a person's, and substitutes;
- ``connections``: attach and detach, snapshots, updates, seats, spectators, pings;
- ``ending``: the length bound, the score sheet, the rematch and the replay.

The parts call each other through the runtime (``self.rt.clocks._arm()``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import random
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from .. import narration
from ..bots.base import Bot
from ..bots.levels import fallback_bot, make_seat_bot, stored_level
from ..bots.pacing import BotClock, Moment, level_of
from ..core.game import Game, State
from ..core.registry import get_spec
from ..core.scoresheet import ScoreSheet
from ..timers import Key, Timers
from .acting import Acting
from .clocks import MOVE_CLOCK, Clocks
from .config import ServerConfig
from .conn import Conn, err
from .connections import Connections
from .ending import ABANDONED, ENDED, Ending, abandoned_note
from .history import Histories
from .ratings import Leave, left_json, rate_rebuilt
from .rematch import RematchOffer
from .seatbots import SeatBots
from .store import ActionRow, SeatRow, Store, TableRow
from .texts import seat_names
from .thinking import BotRunner, shared_runner
from .timing import LagQuota, Pace, RaceWindow


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class TableRuntime:
    """One live table: its state, seats and lifecycle; its jobs are its parts."""

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
        #: Per seat, the person who stayed away past the grace period (``ratings``).
        self.left: dict[int, Leave] = {}
        #: The narrated histories the snapshots copy, per reader and language asked for
        #: (``history``): kept as actions are applied, at most ``histories_per_table``.
        self.histories = Histories(self.game, lambda: self.row.first_state(self.game),
                                   config.histories_per_table)
        #: The runtime's jobs, one object each (its module reads alone): acting and
        #: races, clocks and the ready-wait, bots, connections, the end of the game.
        self.acting = Acting(self)
        self.clocks = Clocks(self)
        self.seatbots = SeatBots(self)
        self.connections = Connections(self)
        self.ending = Ending(self)
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
                self.acting._remember(a.seat, a.client_id, (a.client_id, a.index))
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
        rate_rebuilt(self)  # its leaves; a rated end whose ratings a stop cut off

    def activate(self) -> None:
        """Start bots, timers and grace periods (after creation, start or rebuild)."""
        if self._driver is None:
            self._driver = asyncio.get_running_loop().create_task(self.seatbots._drive())
        if self.row.status == "playing":
            for s in self.human_seats():
                if not any(c.seat == s.seat for c in self.conns):
                    self.seatbots._start_grace(s.seat)
            if not self.clocks._check_ready():
                self.clocks._arm()
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
        self.acting._drop_window()
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
                    per_seat[key] = json.dumps(self.connections.snapshot(c.seat, "start", c.lang))
                c.send(per_seat[key])
            self.activate()
            for c in self.conns:
                if c.seat is not None:
                    self.clocks._expect_ready(c.seat)
                    self.connections._start_pings(c)

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
            "not_ready": self.clocks.not_ready(),
            "rematch": self.row.rematch, "rematch_of": self.row.rematch_of,
            "rated": self.row.rated, "left": left_json(self, lang),
        }

    def time_factor(self) -> float | None:
        """How this table stretches a rule's seconds (the pace times the server's
        ``time_scale``); None at the untimed pace (no move timer runs)."""
        length = self.pace.length(1.0, move_timer=True)
        return None if length is None else length * self.config.time_scale

    def _context(self, names: list[str], lang: str, seat: int | None) -> narration.Context:
        """The narration context of ``seat`` in ``lang`` at this table's pace."""
        return narration.context(self.game, names, lang, seat, self.time_factor())

    def _person_plays(self, seat: int) -> bool:
        """A person, not a bot (nor a substitute), plays ``seat``."""
        return seat not in self.bots and seat not in self.subs

    # -- the surface other modules call, served by the parts -------------------------
    def snapshot(self, seat: int | None, kind: str = "state", lang: str = "en"
                 ) -> dict[str, Any]:
        return self.connections.snapshot(seat, kind, lang)

    def abandoned_line(self, lang: str) -> dict[str, Any]:
        return self.ending.abandoned_line(lang)

    async def history_ready(self, seat: int | None, lang: str) -> None:
        await self.connections.history_ready(seat, lang)

    async def player_action(self, conn: Conn, msg: dict[str, Any],
                            arrival: float | None = None) -> dict[str, Any] | None:
        return await self.acting.player_action(conn, msg, arrival)

    async def pass_window(self, conn: Conn) -> dict[str, Any] | None:
        return await self.clocks.pass_window(conn)

    async def guard(self, conn: Conn, msg: dict[str, Any]) -> dict[str, Any] | None:
        return await self.clocks.guard(conn, msg)

    async def set_pace(self, conn: Conn, msg: dict[str, Any]) -> dict[str, Any] | None:
        return await self.clocks.set_pace(conn, msg)

    async def settle(self) -> None:
        await self.acting.settle()

    def not_ready(self) -> list[int]:
        return self.clocks.not_ready()

    async def ready(self, conn: Conn) -> None:
        await self.clocks.ready(conn)

    @staticmethod
    def pong(conn: Conn, msg: dict[str, Any], arrival: float) -> None:
        Connections.pong(conn, msg, arrival)

    async def attach(self, conn: Conn, seat: int | None, token: str | None = None) -> bool:
        return await self.connections.attach(conn, seat, token)

    async def request_state(self, conn: Conn, lang: str | None = None) -> None:
        await self.connections.request_state(conn, lang)

    async def expire_waiting(self) -> bool:
        return await self.connections.expire_waiting()

    async def detach(self, conn: Conn) -> None:
        await self.connections.detach(conn)

    def score_sheet(self) -> ScoreSheet | None:
        return self.ending.score_sheet()

    async def close_offer(self) -> None:
        await self.ending.close_offer()

    async def answer_rematch(self, conn: Conn, msg: dict[str, Any]) -> dict[str, Any] | None:
        return await self.ending.answer_rematch(conn, msg)

    def replay(self) -> dict[str, Any]:
        return self.ending.replay()


__all__ = ["ABANDONED", "ENDED", "MOVE_CLOCK", "Conn", "TableRuntime", "abandoned_note", "err",
           "hash_token"]
