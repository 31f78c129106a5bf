"""The lobby: every live table of one server (or cluster node), backed by a ``Store``.

A domain object: it creates, joins, lists, expires and recovers tables and raises
``LobbyError`` (a code and a translatable message) for what it refuses; the HTTP routes
(``app``) map those codes to statuses. A cluster node's lobby works with its
``cluster.Cluster`` (leases, calls to the owner, the shared listing).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
import secrets
import time
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from ..bots import levels
from ..core.game import Game, SpieltischError
from ..core.position import header as position_header
from ..core.registry import get_spec
from ..i18n import N_, Translator
from ..narration import BOT_NAMES
from .accounts import Account, AccountStore
from .chat import flush_writes
from .config import ServerConfig
from .flight import SingleFlight
from .guard import Buckets
from .ratings import rated_choice, seat_refusal
from .rematch import OPEN, RematchOffer, rematch_token, rotated
from .steps import Checkpoints
from .store import FIRST_EPOCH, SeatRow, StorageError, Store, TableRow
from .table import TableRuntime, hash_token
from .timing import Pace

if TYPE_CHECKING:
    from .cluster import Cluster

T = TypeVar("T")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

log = logging.getLogger("spieltisch.server")

#: What a player reads while the database does not answer.
DATABASE_DOWN = N_("The database is not available right now; try again in a moment.")


#: Finished tables kept rebuilt (read-only) for status, replay and late connections.
FINISHED_CACHE = 32

#: Failures of the database itself (gone, locked, too slow, full), not of a table's log:
#: a table that meets one while it is opened is tried again, never stored as broken.
DATABASE_ERRORS: tuple[type[Exception], ...] = (OperationalError, InterfaceError,
                                                PoolTimeout, StorageError)
#: Seconds between tries to re-open a table while the database fails: the first, the
#: most (doubling in between).
REOPEN_FIRST, REOPEN_MOST = 0.1, 5.0
#: Seconds a client waits for a table being re-opened before it reads ``unavailable``.
REOPEN_WAIT = 30.0


class Lobby:
    """All live tables of one server, backed by a ``Store``.

    ``tables`` holds the waiting and playing tables only: a table leaves it when its
    game ends (after the final messages are queued), so a long-running server does not
    accumulate finished games. Those are rebuilt from the log on demand (``fetch``).
    Every database call of the lobby runs in the store's threads (``Store.call``), so a
    slow database never stops the event loop, and every table on it.
    """

    def __init__(self, config: ServerConfig, clock: Callable[[], float] = time.time) -> None:
        self.config = config
        #: Wall-clock seconds for waiting tables' expiry (tests pass their own clock).
        self.clock = clock
        self.store = Store(config.resolved_db_url(), config.table_prefix, config.store_threads,
                           config.write_wait)
        #: Accounts and sessions, in the store's database (``accounts``).
        self.accounts = AccountStore(self.store.engine, self.store.account_tables)
        self.tables: dict[str, TableRuntime] = {}
        #: Finished tables whose rematch offer is open (``rematch``): they stay here, the
        #: one runtime of the table (a cluster node keeps their leases), until it closes.
        self.rematching: dict[str, TableRuntime] = {}
        self._finished: OrderedDict[str, TableRuntime] = OrderedDict()
        self._sweeper: asyncio.Task[None] | None = None
        #: Tables each client address is creating right now (counted against its limit).
        self._creating: defaultdict[str, int] = defaultdict(int)
        #: Joins per client address (``joins_per_minute``).
        self.joins = Buckets(config.joins_per_minute / 60, config.joins_per_minute)
        #: Encoded ``replay/steps`` pages of finished tables, by (code, viewer, language,
        #: first step, steps), and the engine states where pages ended (``steps``).
        self.steps = StepsCache()
        self.checkpoints = Checkpoints()
        #: Expensive answers under way (a page of steps, a table rebuilt from its log):
        #: identical requests at the same time wait for the one computation.
        self.flights: SingleFlight[Any] = SingleFlight()
        #: The threads that encode replays and replay pages (``replay_call``): apart from
        #: the store's, so that replay requests never hold up creating, joining, status
        #: or recovery.
        self._replay_pool: ThreadPoolExecutor | None = None
        #: This node's part in a cluster (``--redis``); None for a server of its own.
        self.cluster: Cluster | None = None
        self._forgetting: set[asyncio.Task[None]] = set()
        #: Tables of a server of its own being claimed anew from their log (``_reopen``):
        #: a client that asks for one meanwhile waits for it (``fetch``).
        self.reopening: dict[str, asyncio.Task[TableRuntime | None]] = {}
        #: Set once this server stops (``drain``, ``close``): long polls answer at once.
        self.stopping = asyncio.Event()

    def _runtime(self, row: TableRow) -> TableRuntime:
        rt = TableRuntime(row, self.store, self.config, on_over=self._evict)
        rt.on_rematch = self.start_rematch
        rt.on_offer_closed = self._offer_closed
        rt.on_stale = self._stale
        return rt

    def serving(self, code: str) -> TableRuntime | None:
        """The runtime this node serves ``code``'s players with: a live table, or a
        finished one whose rematch offer is open."""
        return self.tables.get(code) or self.rematching.get(code)

    def _evict(self, rt: TableRuntime) -> None:
        if self.tables.get(rt.code) is rt:
            del self.tables[rt.code]
            if rt.offer is not None and rt.offer.status == OPEN:
                # it stays (its lease too) while its rematch offer is open; out of the
                # shared lobby of live tables at once. Memory is bounded: past
                # `max_rematching` finished tables the oldest offer closes.
                self.rematching[rt.code] = rt
                if len(self.rematching) > self.config.max_rematching:
                    self._later(next(iter(self.rematching.values())).close_offer())
                if self.cluster is not None:
                    self._later(self.cluster.unlist(rt.code))
                return
            if self.cluster is not None:  # out of the shared lobby, its lease given up
                self._later(self.cluster.forget(rt.code))

    def _offer_closed(self, rt: TableRuntime) -> None:
        """A finished table's rematch offer closed: the table leaves memory (connections
        still open keep it until they close), its lease is given up."""
        if self.rematching.get(rt.code) is rt:
            del self.rematching[rt.code]
            if self.cluster is not None:
                self._later(self.cluster.forget(rt.code))

    def _later(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._forgetting.add(task)
        task.add_done_callback(self._forgetting.discard)

    def _rebuilt(self, row: TableRow) -> TableRuntime:
        """A read-only runtime of ``row`` replayed from its log (blocking: runs in a store
        thread). It claimed nothing, so it can write no action (epoch 0)."""
        row.epoch = 0
        rt = self._runtime(row)
        rt.rebuild()
        return rt

    def _opened(self, code: str) -> TableRuntime | None:
        """A runtime of the unfinished table ``code`` that claimed it (``open_table``: its
        epoch raised, its log read in the same transaction) and replayed its log; None if
        the table is not waiting or playing (blocking: runs in a store thread)."""
        opened = self.store.open_table(code)
        if opened is None:
            return None
        row, actions = opened
        rt = self._runtime(row)
        rt.rebuild(actions)
        return rt

    async def replay_call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` (CPU work for a replay: a file, a page of steps) in the replay
        threads (``replay_threads``); the store's threads stay free meanwhile."""
        if self._replay_pool is None:
            self._replay_pool = ThreadPoolExecutor(max(1, self.config.replay_threads),
                                                   thread_name_prefix="spieltisch-replay")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._replay_pool, functools.partial(fn, *args))

    async def recover(self) -> int:
        """Rebuild every unfinished table from its log. A table that cannot be rebuilt
        (its options or its log no longer hold) is logged, stored as ``broken`` and left
        out: the server serves the rest. A cluster node (``redis_url``) joins its cluster
        instead and takes over the tables nobody owns."""
        if self.config.redis_url:
            from .cluster import Cluster  # needs the redis client (the 'server-cluster' extra)

            self.cluster = Cluster(self, self.config)
            await self.cluster.start()
            return len(self.tables)
        n = 0
        rows = await self.store.call(self.store.list_tables, ("waiting", "playing"), 1_000_000)
        for row in reversed(rows):  # oldest first
            try:
                n += await self.recover_one(row) is not None
            except DATABASE_ERRORS:  # the database fails for a moment: tried again
                self._reopen(row)
        return n

    async def recover_one(self, row: TableRow,
                          fence: Callable[[], bool] | None = None) -> TableRuntime | None:
        """Rebuild the unfinished table ``row`` from its log and serve it (None if it is
        over, or broken: then it is stored as ``broken``). ``fence`` tells a cluster
        node's table whether it may still write. A failure of the database itself
        (``DATABASE_ERRORS``) is raised, the table left as it is: the caller tries again
        (a cluster node's next scan, ``_reopen``)."""
        try:
            rt = await self.store.call(self._opened, row.code)
            if rt is None or rt.status not in ("waiting", "playing"):
                return None  # ended meanwhile, or between its last action and its end
            rt.fence = fence
            rt.waiting_since = self.clock()  # a restart gives waiting tables a fresh period
            rt.activate()
        except DATABASE_ERRORS:
            raise
        except Exception:
            log.exception("table %s (%s) cannot be rebuilt from its log; stored as broken",
                          row.code, row.game)
            with contextlib.suppress(Exception):
                await self.store.call(self.store.set_status, row.id, "broken")
            return None
        self.tables[row.code] = rt
        if rt.status == "waiting" and not rt.free_seats():
            await self._start(rt)  # every seat was taken when the server stopped
        return rt

    def _reopen(self, row: TableRow) -> asyncio.Task[TableRuntime | None]:
        """Claim the unfinished table ``row`` anew from its log and serve it, in a task of
        its own (``reopening`` until done): while the database fails, try again with
        back-off, so a passing outage never makes a live table ``broken``."""
        task = self.reopening.get(row.code)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._reopening(row))
            self.reopening[row.code] = task
            task.add_done_callback(functools.partial(self._reopened, row.code))
        return task

    def _reopened(self, code: str, task: asyncio.Task[TableRuntime | None]) -> None:
        if self.reopening.get(code) is task:
            del self.reopening[code]

    async def _reopening(self, row: TableRow) -> TableRuntime | None:
        delay = REOPEN_FIRST
        while True:
            try:
                return await self.recover_one(row)
            except DATABASE_ERRORS as e:
                log.warning("table %s: re-opening it failed (%s: %s); trying again in %.1f s",
                            row.code, type(e).__name__, str(e).strip()[:200], delay)
            await asyncio.sleep(delay)
            delay = min(2 * delay, REOPEN_MOST)

    def _stale(self, rt: TableRuntime) -> None:
        """A write of ``rt`` found the table claimed by another runtime since (its epoch
        moved on): stop serving it from memory, at once (``_give_up``)."""
        log.warning("table %s: its epoch moved on (another server or node took it over); "
                    "this runtime stops serving it", rt.code)
        self._later(self._give_up(rt))

    async def _give_up(self, rt: TableRuntime) -> None:
        """Stop serving the stale runtime ``rt``: a cluster node drops the table and its
        lease (the node with the current epoch serves it, or the next to take the free
        lease claims it anew); a server of its own claims it anew from the log. Either
        way its clients reconnect to a state with every stored action."""
        if self.serving(rt.code) is not rt:
            return  # dropped or replaced already
        if self.cluster is not None:
            await self.cluster.give_up(rt.code)
            return
        self.tables.pop(rt.code, None)
        self.rematching.pop(rt.code, None)
        # re-opened from here on (a client that reconnects meanwhile waits for it)
        reopened = self._reopen(rt.row) if rt.status in ("waiting", "playing") else None
        conns = list(rt.conns)
        await rt.close()
        if reopened is not None:
            await asyncio.shield(reopened)
        for c in conns:  # reconnect (close code 1012): they meet the runtime made anew
            if c.hangup is not None:
                with contextlib.suppress(Exception):
                    await c.hangup(1012, "the table was reopened")

    async def drain(self) -> None:
        """The server begins to stop (SIGTERM): long polls answer; a cluster node hands
        its tables to the others (their chat written first: the next node reads it)."""
        self.stopping.set()  # before uvicorn waits for the requests under way
        if self.cluster is not None:
            await flush_writes(list(self.tables.values()))
            await self.cluster.drain()

    async def close(self) -> None:
        self.stopping.set()
        for task in list(self.reopening.values()):
            task.cancel()
        if self.cluster is not None:
            await self.cluster.close()
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for rt in [*self.tables.values(), *self.rematching.values()]:
            await rt.close()
        # the chat's writes under way land before the store goes
        await flush_writes([*self.tables.values(), *self.rematching.values(),
                            *self._finished.values()])
        if self._replay_pool is not None:  # a replay in the works is not waited for
            self._replay_pool.shutdown(wait=False, cancel_futures=True)
            self._replay_pool = None
        self.store.close()

    def start_sweeper(self) -> None:
        """Look for expired waiting tables every so often (a tenth of the expiry, at most
        once a minute); nothing to do when ``waiting_expiry`` is 0."""
        limit = self.config.waiting_expiry * 60
        if limit > 0 and self._sweeper is None:
            every = min(60.0, max(0.05, limit / 10))
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep(every))

    async def _sweep(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.expire_waiting()
            except Exception:  # one failing sweep (a database hiccup) must not end them
                log.exception("expiring tables failed")

    async def expire_waiting(self) -> list[str]:
        """Expire every waiting table nobody joined for ``waiting_expiry`` minutes (since
        its creation or its latest join); the codes expired."""
        limit = self.config.waiting_expiry * 60
        if limit <= 0:
            return []
        now = self.clock()
        gone = []
        for rt in list(self.tables.values()):
            if rt.status == "waiting" and now - rt.waiting_since >= limit \
                    and await rt.expire_waiting():
                self._evict(rt)
                gone.append(rt.code)
        return gone

    def _known(self, code: str) -> TableRuntime | None:
        """A live table, or a finished one rebuilt lately."""
        rt = self.serving(code) or self._finished.get(code)
        if rt is not None and code in self._finished:
            self._finished.move_to_end(code)
        return rt

    def _load(self, code: str) -> TableRuntime | None:
        """A table that is not live, rebuilt read-only from the store (blocking). One that
        cannot be rebuilt is stored as ``broken``: ``LobbyError`` ``broken``."""
        row = self.store.load_table(code)
        if row is None:
            return None
        if row.status != "broken":
            try:
                return self._rebuilt(row)
            except SQLAlchemyError:
                raise
            except Exception:
                log.exception("table %s (%s) cannot be rebuilt from its log; stored as broken",
                              row.code, row.game)
                self.store.set_status(row.id, "broken")
        raise LobbyError("broken", N_("Table {table} is out of order: its stored game "
                                         "cannot be replayed."), table=code)

    def _keep(self, rt: TableRuntime) -> TableRuntime:
        if rt.status in ("over", "abandoned", "expired"):
            self._finished[rt.code] = rt
            while len(self._finished) > FINISHED_CACHE:
                self._finished.popitem(last=False)
        return rt

    def get(self, code: str) -> TableRuntime | None:
        """The table ``code`` (``fetch`` without leaving the calling thread: it reads the
        database in it; for tests and scripts, not for the event loop)."""
        code = code.upper()
        rt = self._known(code) or self._load(code)
        return None if rt is None else self._keep(rt)

    async def fetch(self, code: str) -> TableRuntime | None:
        """The table ``code``: live, or finished or expired and rebuilt read-only from the
        log for status and replay (in a store thread); None if there is none."""
        code = code.upper()
        rt = self._known(code)
        reopening = self.reopening.get(code)
        if rt is None and reopening is not None:  # claimed anew from its log right now
            try:
                rt = await asyncio.wait_for(asyncio.shield(reopening), REOPEN_WAIT)
            except TimeoutError:
                raise LobbyError("unavailable", DATABASE_DOWN) from None
        if rt is None and len(code) <= 16:  # once for all who ask for it at the same time
            rt = await self.flights.run(("load", code),
                                        lambda: self.store.call(self._load, code))
            if rt is not None:
                # it may have gone live meanwhile (created, recovered): never two runtimes
                rt = self.serving(code) or rt
        return None if rt is None else self._keep(rt)

    def _insert(self, spec_name: str, game: Game, seed: int, seats: list[SeatRow],
                owner: str, probe: TableRow, codes: list[str] | None = None) -> TableRow:
        """Store a new table under a fresh code (one of ``codes`` if given) and read it
        back (blocking)."""
        for code in codes or (new_code() for _ in range(20)):
            if code in self.tables:
                continue
            try:
                self.store.create_table(code, spec_name, game.num_players, game.options,
                                        seed, seats, owner, probe.setup_json())
            except IntegrityError:  # the code is taken (the column is unique)
                continue
            row = self.store.load_table(code)
            assert row is not None
            # the claim is the insert's: a later claim (a node that took the table over
            # meanwhile) must fence this runtime off, not share its epoch
            row.epoch = FIRST_EPOCH
            return row
        raise RuntimeError("no free table code after 20 tries")

    async def create(self, body: dict[str, Any], owner: str) -> TableRuntime:
        position = body.get("position")
        if position is not None:
            body = self._from_position(body, position)
        game_name = body.get("game")
        if not isinstance(game_name, str):
            raise LobbyError("bad_request", N_("'game' must be a game name."))
        spec = get_spec(game_name)
        players = body.get("players", spec.default_players)
        if not isinstance(players, int) or isinstance(players, bool) \
                or not spec.min_players <= players <= spec.max_players:
            allowed = {"min": spec.min_players, "max": spec.max_players}
            if spec.min_players == spec.max_players:
                raise LobbyError("bad_players", N_("{game} is for {n} players."), allowed,
                               game=spec.title, n=spec.min_players)
            raise LobbyError("bad_players", N_("{game} is for {min} to {max} players."),
                           allowed, game=spec.title, **allowed)
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise LobbyError("bad_request", N_("'options' must be an object."))
        game = spec.configure(players, options)
        seats_spec = body.get("seats")
        if seats_spec is None:  # the creator plays seat 0, medium bots the others
            seats_spec = ["human"] + [f"bot:{levels.Level.MEDIUM.value}"] * (players - 1)
        if not isinstance(seats_spec, list) or len(seats_spec) != players:
            raise LobbyError("bad_request", N_("'seats' must list {n} entries: 'human' or "
                                                  "'bot:LEVEL' (easy, medium, hard)."),
                           n=players)
        seats: list[SeatRow] = []
        for i, s in enumerate(seats_spec):
            if s == "human":
                seats.append(SeatRow(i, "human"))
            elif isinstance(s, str) and s.startswith("bot:"):
                # a level; any spec only where the operator allows it (``any_bot_spec``):
                # a spec's budget would be the client's to choose (issue 41)
                if not levels.is_level(s[4:]) and not self.config.any_bot_spec:
                    raise LobbyError("bad_bot", N_("Seat {seat}: {spec} is not a bot level "
                                                   "of this server: choose 'bot:easy', "
                                                   "'bot:medium' or 'bot:hard'."),
                                     {"levels": [lv.value for lv in levels.Level]},
                                     seat=i + 1, spec=repr(s)[:80])
                levels.make_seat_bot(game, s[4:], i, 0)  # validates the level or bot spec
                seats.append(SeatRow(i, "bot", s[4:]))
            else:
                raise LobbyError("bad_request", N_("Seat {seat}: {spec} is not 'human' or "
                                                      "'bot:LEVEL'."), seat=i + 1,
                               spec=repr(s)[:80])
        probe = self._setup(body, game)
        probe.rated = rated_choice(body, probe)  # a rated table (ratings)
        try:
            probe.pace = Pace.parse(body.get("pace")).value
        except ValueError:
            raise LobbyError("bad_pace",
                           N_("'pace' must be rules, relaxed or untimed.")) from None
        if self.cluster is None:
            live = self._creating[owner] + sum(1 for t in self.tables.values()
                                               if t.row.owner == owner
                                               and t.row.status != "over")
        else:  # every node's tables count: the database knows them all
            live = self._creating[owner] + await self.store.call(self.store.count_unfinished,
                                                                 owner)
        if live >= self.config.max_tables_per_client:
            raise LobbyError("too_many_tables",
                           N_("At most {n} unfinished tables per player."),
                           n=self.config.max_tables_per_client)
        self._creating[owner] += 1
        try:
            codes = None
            if self.cluster is not None:  # its lease first: no other node may adopt it
                if self.cluster.draining:  # it would only wait for a failover
                    raise LobbyError("unavailable", DATABASE_DOWN)
                code = new_code()
                while not await self.cluster.adopt_new(code):
                    code = new_code()
                codes = [code]
            row = await self.store.call(self._insert, spec.name, game, probe.seed, seats,
                                        owner, probe, codes)
        finally:
            self._creating[owner] -= 1
            if not self._creating[owner]:
                del self._creating[owner]
        return await self.serve_new(row)

    async def serve_new(self, row: TableRow) -> TableRuntime:
        """Serve the table just stored as ``row`` (this node holds its lease in a
        cluster): live, started at once when no seat is free (a table of bots, a
        rematch), and in the shared lobby."""
        rt = self._runtime(row)
        rt.waiting_since = self.clock()
        self.tables[row.code] = rt
        if self.cluster is not None:
            cluster = self.cluster
            rt.fence = lambda: cluster.holds(row.code)
        rt.activate()
        await self._start(rt)  # a table of bots starts at once
        if self.cluster is not None:
            await self.cluster.publish_info(rt)
        return rt

    async def start_rematch(self, old: TableRuntime, offer: RematchOffer) -> str:
        """Store and serve the rematch of the finished table ``old``, once every person
        accepted ``offer`` (``server.rematch``): the same game, player count, options and
        pace, a seed drawn here, each seat one place further on, bots of the same level
        and name, each person's seat taken with the token derived from theirs at ``old``.
        A practice table's rematch is private to its creator too. The code of the
        rematch: this one, or one stored before (by another runtime of the table)."""
        row = old.row
        n = row.players
        names = old.names("en")  # a bot's name is the same in every language
        for _ in range(20):
            code = new_code()
            if code in self.tables:
                continue
            if self.cluster is not None:  # its lease first: no other node may adopt it
                if self.cluster.draining:
                    raise LobbyError("unavailable", DATABASE_DOWN)
                if not await self.cluster.adopt_new(code):
                    continue
            seats = []
            for s in row.seats:
                seat = rotated(s.seat, n)
                if s.kind == "bot":  # a spec stored before levels only: its level
                    name = names[s.seat] if names[s.seat] in BOT_NAMES else ""
                    bot = s.bot if self.config.any_bot_spec \
                        else levels.stored_level(s.bot).value
                    seats.append(SeatRow(seat, "bot", bot, name))
                else:
                    token = rematch_token(offer.accepted[s.seat], code)
                    seats.append(SeatRow(seat, "human", None, s.name, hash_token(token),
                                         s.account_id))
            seats.sort(key=lambda s: s.seat)
            new = TableRow(0, code, row.game, n, dict(row.options), secrets.randbits(62),
                           "waiting", 0.0, owner=row.owner, seats=seats,
                           practice=row.practice, pace=row.pace, rematch_of=row.code,
                           rated=row.rated)
            try:
                stored = await self.store.call(self.store.create_rematch, row.id, new)
            except IntegrityError:  # the code is taken: another one
                stored = None
            except BaseException:  # nothing stored: the lease goes too
                if self.cluster is not None:
                    await self.cluster.release(code)
                raise
            if stored != code and self.cluster is not None:
                await self.cluster.release(code)
            if stored is None:
                continue
            if stored != code and self.cluster is not None:  # made before, elsewhere
                return stored
            # stored (now, or before by a try that failed after it): from here the rematch
            # exists, whatever serving it meets; a table not yet served is served here
            if self.serving(stored) is None:
                try:
                    # claimed anew: another node may have served it meanwhile
                    opened = await self.store.call(self.store.open_table, stored)
                    assert opened is not None
                    await self.serve_new(opened[0])
                except Exception:  # its players reach it later (the table is stored)
                    log.exception("rematch %s of %s: stored, serving it failed", stored, row.code)
            return stored
        raise RuntimeError("no free table code for the rematch after 20 tries")

    def _from_position(self, body: dict[str, Any], position: Any) -> dict[str, Any]:
        """The create body with the game, player count and options of ``position`` (a
        body that names others is refused)."""
        try:
            game, players, options = position_header(position)
        except SpieltischError as e:
            raise LobbyError("bad_position", N_("The position cannot be used: {reason}"),
                           reason=str(e)) from None
        given = {"game": game, "players": players, "options": options}
        for key, value in given.items():
            if key in body and body[key] != value and not (key == "options" and not body[key]):
                raise LobbyError("bad_position", N_("'{key}' differs from the position's; "
                                                       "leave it out."), key=key)
        return {**body, **given}

    def _setup(self, body: dict[str, Any], game: Game) -> TableRow:
        """The setup of the new table: its seed, and for a private practice table the
        stacked deck or position asked for. A table strangers can join always gets a
        seed from the server: whoever chose it would know every hidden card."""
        practice = body.get("practice", False)
        if not isinstance(practice, bool):
            raise LobbyError("bad_request", N_("'practice' must be true or false."))
        seed, deck, position = body.get("seed"), body.get("deck"), body.get("position")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                                 or not 0 <= seed < 2**62):
            raise LobbyError("bad_request", N_("'seed' must be an integer in 0..2^62."))
        if deck is not None and not _is_deck(deck):
            raise LobbyError("bad_request", N_("'deck' must be a list of card codes, or a "
                                                  "list of such lists (one per shuffle)."))
        chosen = seed is not None or deck is not None or position is not None
        row = TableRow(0, "", game.name, game.num_players, game.options,
                       secrets.randbits(62) if seed is None else seed, "waiting", 0.0,
                       practice=practice or chosen, deck=deck, position=position)
        if deck is not None or position is not None:
            # the deck or position must set up a game that goes on
            code, text = ("bad_position", N_("The position cannot be used: {reason}")) \
                if position is not None else \
                ("bad_deck", N_("The stacked deck cannot be used: {reason}"))
            try:
                start = row.first_state(game)
            except SpieltischError as e:
                raise LobbyError(code, text, reason=str(e)) from None
            if start.is_over():
                raise LobbyError(code, text, reason="the game is over")
        return row

    async def _start(self, rt: TableRuntime) -> None:
        """Start a full table; when the database fails, try again every few seconds (the
        seats are taken: the table must not stay waiting)."""
        try:
            await rt.start_if_full()
        except Exception:
            log.exception("table %s: starting failed; trying again", rt.code)
            loop = asyncio.get_running_loop()
            loop.call_later(2.0, lambda: loop.create_task(self._start(rt)))

    async def join(self, rt: TableRuntime, body: dict[str, Any],
                   client: str = "", limited: bool = True,
                   account: Account | None = None) -> tuple[int, str]:
        """Take a seat at ``rt`` for ``client`` (its address): a free seat, or the one
        asked for. Joins are limited per client (``limited``: not yet counted elsewhere);
        a practice table takes its creator only. A signed-in ``account`` sits under its
        own name, and the seat remembers it."""
        if limited and not self.joins.allow(client):
            raise LobbyError("too_many_joins", N_("Too many seats taken from your address: "
                                                     "wait a minute and try again."))
        name = body.get("name", "")
        if not isinstance(name, str) or len(name) > 64:
            raise LobbyError("bad_request",
                           N_("'name' must be a string of at most 64 characters."))
        if account is not None:  # a name that is theirs: nobody else sits under it
            name = account.name
        wanted = body.get("seat")
        if wanted is not None and (not isinstance(wanted, int) or isinstance(wanted, bool)):
            raise LobbyError("bad_request", N_("'seat' must be a seat number."))
        if rt.row.practice and client != rt.row.owner:
            raise LobbyError("private", N_("This is a private practice table: only the "
                                              "player who set it up sits at it."))
        async with rt.lock:
            free = rt.free_seats()
            if rt.status == "expired":
                raise LobbyError("expired", N_("This table expired: nobody joined in time."))
            if not free or rt.status != "waiting":
                raise LobbyError("table_full", N_("There is no free seat at this table."))
            refused = seat_refusal(rt.row, account)  # a rated table: accounts, once each
            if refused is not None:
                raise LobbyError(*refused)
            if wanted is None:
                seat = free[0]
            elif wanted in free:
                seat = wanted
            else:
                raise LobbyError("seat_taken", N_("Seat {seat} is not free."),
                               seat=wanted + 1)
            token = secrets.token_urlsafe(32)
            th = hash_token(token)
            account_id = account.id if account is not None else None
            if not await self.store.call(self.store.claim_seat, rt.row.id, seat, name, th,
                                         account_id):
                raise LobbyError("seat_taken", N_("Seat {seat} is not free."), seat=seat + 1)
            for s in rt.row.seats:
                if s.seat == seat:
                    s.token_hash = th
                    s.name = name
                    s.account_id = account_id
            rt.waiting_since = self.clock()
        await self._start(rt)
        if self.cluster is not None:
            await self.cluster.publish_info(rt)
        return seat, token

    async def join_code(self, code: str, body: dict[str, Any], client: str = "",
                        account: Account | None = None) -> tuple[str, int, str]:
        """Take a seat at the table ``code`` (``join``), wherever in the cluster it is
        owned: the owner node does it. Its code, the seat and the seat's token."""
        code = code.upper()
        if self.cluster is None:
            rt = await self.fetch(code)
            if rt is None:
                raise LobbyError("no_table", N_("There is no table {table}."),
                               table=code[:16])
            return (rt.code, *await self.join(rt, body, client, account=account))
        if not await self.cluster.allow_join(client):
            raise LobbyError("too_many_joins", N_("Too many seats taken from your address: "
                                                     "wait a minute and try again."))
        for _ in range(3):  # the table may move while the call is on its way
            where = await self.cluster.route(code) if len(code) <= 16 else None
            if isinstance(where, TableRuntime):
                return (code, *await self.join(where, body, client, limited=False,
                                               account=account))
            if where is None:  # over, expired or unknown: refused as a single server would
                rt = await self.fetch(code)
                if rt is None:
                    raise LobbyError("no_table", N_("There is no table {table}."),
                                   table=code[:16])
                return (rt.code, *await self.join(rt, body, client, limited=False,
                                                  account=account))
            try:
                answer = await self.cluster.call(where, "join", {
                    "code": code, "body": body, "client": client,
                    "account": None if account is None else dataclasses.asdict(account)})
            except TimeoutError:  # the owner may have seated the client: never ask twice
                raise LobbyError("unavailable", DATABASE_DOWN) from None
            if "seat" in answer:
                return code, answer["seat"], answer["token"]
            if "refused" in answer:
                e = answer["refused"]
                raise LobbyError(e["code"], e["message"], e["extra"], **e["args"])
        raise LobbyError("unavailable", DATABASE_DOWN)

    async def join_here(self, args: dict[str, Any]) -> dict[str, Any]:
        """A join another node passes to this one, the table's owner (``join_code``)."""
        rt = self.tables.get(args["code"])
        if rt is None:
            return {"moved": True}
        try:
            account = Account(**args["account"]) if args.get("account") else None
            seat, token = await self.join(rt, args["body"], args["client"], limited=False,
                                          account=account)
        except LobbyError as e:
            return {"refused": {"code": e.code, "message": e.message, "extra": e.extra,
                                "args": e.args_}}
        return {"seat": seat, "token": token}


def new_code() -> str:
    """A random table code (six letters and digits that cannot be mistaken)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))


def _is_deck(deck: Any) -> bool:
    """A stacked deck as the client sends it: card codes, or lists of them."""
    if not isinstance(deck, list) or not deck:
        return False
    orders = deck if isinstance(deck[0], list) else [deck]
    return all(isinstance(o, list) and o and all(isinstance(c, str) for c in o)
               for o in orders)


#: A page of ``replay/steps``: table code, viewer, language, first step, steps.
StepsKey = tuple[str, str, str, int, int]


class StepsCache:
    """Encoded ``replay/steps`` pages of finished games by (code, viewer, language, first
    step, steps), the least recently asked dropped first past ``budget`` bytes: replaying
    a game for every request would let anyone keep the server busy. Pages refused as too
    large are remembered too (their size, the latest ``REFUSED`` keys), so asking again
    computes nothing."""

    #: Keys of too-large pages remembered at most.
    REFUSED = 1024

    def __init__(self, budget: int = 64 << 20) -> None:
        self.budget = budget
        self.size = 0
        self.entries: OrderedDict[StepsKey, bytes] = OrderedDict()
        self.refused: OrderedDict[StepsKey, int] = OrderedDict()

    def refused_size(self, key: StepsKey) -> int | None:
        """The size of the page ``key`` if it was refused as too large."""
        size = self.refused.get(key)
        if size is not None:
            self.refused.move_to_end(key)
        return size

    def refuse(self, key: StepsKey, size: int) -> None:
        self.refused[key] = size
        self.refused.move_to_end(key)
        while len(self.refused) > self.REFUSED:
            self.refused.popitem(last=False)

    def get(self, key: StepsKey) -> bytes | None:
        body = self.entries.get(key)
        if body is not None:
            self.entries.move_to_end(key)
        return body

    def put(self, key: StepsKey, body: bytes) -> None:
        if key in self.entries or len(body) > self.budget:
            return
        self.entries[key] = body
        self.size += len(body)
        while self.size > self.budget:
            _, dropped = self.entries.popitem(last=False)
            self.size -= len(dropped)


class LobbyError(Exception):
    """A request the lobby refuses: ``code`` names the problem (the HTTP routes map it to
    a status, ``app.HTTP_STATUS``); ``message`` is an English template (marked ``N_``)
    filled with ``args`` after translation into the reader's language."""

    def __init__(self, code: str, message: str, extra: dict[str, Any] | None = None,
                 **args: Any) -> None:
        super().__init__(message.format(**args))
        self.code = code
        self.message = message
        self.args_ = args
        #: More fields of the error's JSON body (``bad_players``: ``min``, ``max``).
        self.extra = extra or {}

    def text(self, tr: Translator) -> str:
        return tr.format(self.message, **self.args_)


__all__ = ["DATABASE_DOWN", "Lobby", "LobbyError", "StepsCache", "new_code"]
