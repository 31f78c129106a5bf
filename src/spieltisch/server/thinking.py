"""Where the server's bots decide: quick kinds apart from slow ones, never in the loop's
default pool.

A search bot (the hard level thinks up to 1.8 s) must not stop the event loop, and a
random or rule-of-thumb bot (3 to 50 µs a decision) must not wait behind it, nor behind
other work in the loop's default pool. So every kind of bot (its class and parameters)
is timed: a kind whose every decision so far took less than ``quick`` seconds is quick
(one slow decision makes it slow for good: a search answers a forced move in microseconds)
and decides in a lane of its own (one thread), or on the event loop itself with ``inline``;
any other kind, and a kind not seen yet, in the slow lane (``threads`` threads).
``quick`` defaults to the interpreter's switch interval (5 ms): below it a thread does
not let the loop run sooner, since the bot holds the interpreter's lock just as long.

On the loop a quick decision costs least (a thread hand-off costs more than the decision:
server CPU per action at tables of one person and three medium bots 2.2-2.4 against
3.2-3.4 ms), but on a machine whose cores other work kept busy the people's latency was
worse (p50 43-120 against 2-5 ms at 100 such tables, load average 20; perhaps the
scheduler favouring a loop that often sleeps): so ``inline`` is the operator's choice for
a server with cores of its own, off by default.

Every decision has a wall-clock cap (``cap`` seconds, ``ServerConfig.bot_cap``), enforced
here, not left to the bot: the bot is asked to end at ``SOFT_SHARE`` of it (a ``Halt``
set for its thread: the search answers with what it found so far, ``bots.ismcts``), and
a decision still running at the cap is abandoned: its ``Halt`` is cancelled (a search
stops after its current simulation; a decision still queued never starts), the table
gets the ``fallback`` bot's answer at once (the level's quick bot, ``levels.fallback_bot``;
without one, or when it has none, the smallest legal action, or declining a chance),
and the bot decides nothing else until its abandoned decision is over (its answer is
dropped: a bot is never asked twice at once). A decision whose table closes (a server
shutting down) is cancelled the same way, so no thread outlives the tables it thinks for
by more than a simulation and the interpreter's exit never waits for a search.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import sys
import threading
import time
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, Future, ThreadPoolExecutor

from ..bots.base import Bot, Halt, Observation, halting

log = logging.getLogger(__name__)

#: A bot's decision: ``Bot.act`` or ``Bot.react`` of one bot.
Choose = Callable[[Observation], "int | None"]
#: The share of a decision's cap after which the bot is asked to answer (its ``Halt``):
#: the rest is room for its last simulation and the hand-off before the runner gives up.
SOFT_SHARE = 0.8
#: The default cap of a decision (seconds): the hard level searches 1.3 s at most
#: (``levels.HARD_MS``), so only a bot that ignores its limits, or a machine far busier
#: than the one its budgets were measured on, ever meets it.
DEFAULT_CAP = 2.5


class _Decision:
    """One decision handed to a lane: its ``Halt`` and whether it is over."""

    __slots__ = ("bot", "halt", "future")

    def __init__(self, bot: Bot, halt: Halt) -> None:
        self.bot = bot  # held, so that its id is not reused while the decision runs
        self.halt = halt
        self.future: Future[tuple[int | None, float]] | None = None

    def over(self) -> bool:
        return self.future is None or self.future.done()


def kind_of(bot: Bot) -> Hashable:
    """What the runner learns by: the bot's class and its parameters (``ismcts:200`` and
    ``ismcts:800`` think differently long; two random bots alike)."""
    params = getattr(bot, "params", None) or {}
    return type(bot), tuple(sorted((k, repr(v)) for k, v in params.items()))


class BotRunner:
    """Runs bots' decisions: quick kinds in a lane of their own (or on the event loop
    with ``inline``), slow and unknown kinds in ``threads`` threads, each within ``cap``
    seconds of wall time (None: no cap; see the module docstring). ``clock`` times each
    decision (wall time: a bot that waits, for the network or a sleep, is slow too)."""

    def __init__(self, threads: int = 2, quick: float | None = None,
                 clock: Callable[[], float] = time.perf_counter, inline: bool = False,
                 slow_lane: Executor | None = None,
                 quick_lane: Executor | None = None,
                 cap: float | None = DEFAULT_CAP) -> None:
        if threads < 1:
            raise ValueError(f"a bot runner needs at least one thread, not {threads}")
        if cap is not None and not cap > 0:  # (NaN too)
            raise ValueError(f"a bot decision's cap must be positive seconds, not {cap}")
        self.threads = threads
        self.quick = sys.getswitchinterval() if quick is None else quick
        self.clock = clock
        self.inline = inline
        self.cap = cap
        self._lanes: dict[bool, Executor | None] = {False: slow_lane, True: quick_lane}
        self._quick_kinds: set[Hashable] = set()
        #: Kinds seen slow once: they stay in the slow lane (see ``decide``).
        self._slow_kinds: set[Hashable] = set()
        #: The lanes are made once, by whichever loop asks; ``close`` may run in any thread.
        self._lock = threading.RLock()
        #: Decisions handed to a lane and not yet answered (``close`` cancels them).
        self._running: set[_Decision] = set()
        #: Per bot (its id), its abandoned decision while that still runs.
        self._abandoned: dict[int, _Decision] = {}
        #: Decisions made so far on the loop, in the quick lane and in the slow lane.
        self.counts = {"loop": 0, "quick": 0, "slow": 0}
        #: Decisions the fallback answered: past the cap, or asked while the same bot's
        #: abandoned decision still ran.
        self.abandoned = 0

    def is_quick(self, bot: Bot) -> bool:
        """Whether ``bot``'s kind was quick at its latest decision."""
        return kind_of(bot) in self._quick_kinds

    async def decide(self, bot: Bot, choose: Choose, obs: Observation,
                     fallback: Bot | None = None) -> int | None:
        """``choose(obs)`` (the bot's ``act`` or ``react``) where its kind belongs, within
        the cap (past it: ``fallback``'s answer, see the module docstring); the time it
        took decides where the kind's next decision runs."""
        kind = kind_of(bot)
        quick = kind in self._quick_kinds
        cap = self.cap
        soft = time.perf_counter() + cap * SOFT_SHARE if cap is not None else math.inf
        if quick and self.inline:
            self.counts["loop"] += 1
            action, took = self._timed(choose, obs, Halt(soft))
        else:
            stuck = self._abandoned.get(id(bot))
            if stuck is not None and not stuck.over():  # one bot, one decision at a time
                self.abandoned += 1
                return self._fallback(obs, fallback)
            self.counts["quick" if quick else "slow"] += 1
            decision = _Decision(bot, Halt(soft))
            with self._lock:  # ``close`` may run in another thread
                future = decision.future = self._lane(quick).submit(
                    self._timed, choose, obs, decision.halt)
                self._running.add(decision)
            waiting = asyncio.wrap_future(future)
            try:
                done, _ = await asyncio.wait({waiting}, timeout=cap)
            except asyncio.CancelledError:  # the table closed: the search stops too
                decision.halt.cancelled = True
                waiting.cancel()
                raise
            finally:
                with self._lock:
                    self._running.discard(decision)
            if not done:
                decision.halt.cancelled = True
                waiting.cancel()  # a decision still queued never starts
                self._slow_kinds.add(kind)
                self._quick_kinds.discard(kind)
                if not decision.over():  # until it is: ``_forget``
                    with self._lock:
                        self._abandoned[id(bot)] = decision
                    future.add_done_callback(functools.partial(self._forget, id(bot), decision))
                self.abandoned += 1
                log.warning("a bot decision (%s) ran past its cap of %.1f s: abandoned, "
                            "the fallback answers", type(bot).__name__, cap)
                return self._fallback(obs, fallback)
            action, took = waiting.result()
        # Once slow, a kind stays slow: a search bot answers a forced move in microseconds,
        # and its next real search must not block the quick lane (or the loop).
        if took >= self.quick:
            self._slow_kinds.add(kind)
            self._quick_kinds.discard(kind)
        elif kind not in self._slow_kinds:
            self._quick_kinds.add(kind)
        return action

    def _forget(self, key: int, decision: _Decision, _future: object = None) -> None:
        """An abandoned decision is over (in its thread): its bot may decide again."""
        with self._lock:
            if self._abandoned.get(key) is decision:
                del self._abandoned[key]

    def _timed(self, choose: Choose, obs: Observation,
               halt: Halt) -> tuple[int | None, float]:
        if halt.cancelled:  # abandoned (or its table closed) before it started
            return None, 0.0
        began = self.clock()
        with halting(halt):
            action = choose(obs)
        return action, self.clock() - began

    @staticmethod
    def _fallback(obs: Observation, fallback: Bot | None) -> int | None:
        """The answer for a decision past its cap, on the loop (a quick bot's takes
        microseconds): ``fallback``'s, on a copy of the state (the abandoned search may
        still read ``obs``); without one (or if it fails, or lets time pass on its own
        turn) the smallest legal action, and declining an out-of-turn chance."""
        obs = obs.detached()
        action = None
        if fallback is not None:
            try:
                action = (fallback.act if obs.required else fallback.react)(obs)
            except Exception:  # the table must move on
                log.exception("the fallback bot failed")
        if action is None and obs.required:
            legal = obs.legal_actions()
            action = min(legal) if legal else None
        return action

    def _lane(self, quick: bool) -> Executor:
        # caller holds ``_lock``
        lane = self._lanes[quick]
        if lane is None:
            lane = self._lanes[quick] = ThreadPoolExecutor(
                1 if quick else self.threads,
                thread_name_prefix="spieltisch-bot-" + ("quick" if quick else "slow"))
        return lane

    def close(self) -> None:
        """Cancel every decision under way (each search stops after its current
        simulation, a queued one never starts) and let the threads go without waiting
        for them."""
        with self._lock:
            for decision in self._running:
                decision.halt.cancelled = True
            for d in self._abandoned.values():
                d.halt.cancelled = True
            for quick, lane in self._lanes.items():
                if lane is not None:
                    lane.shutdown(wait=False, cancel_futures=True)
                    self._lanes[quick] = None


_shared: dict[tuple[int, bool, float | None], BotRunner] = {}


def shared_runner(threads: int, inline: bool = False,
                  cap: float | None = DEFAULT_CAP) -> BotRunner:
    """The process's runner with ``threads`` slow-lane threads, which every table of a
    server shares (the threads are a limit for the whole server, not per table)."""
    key = (threads, inline, cap)
    runner = _shared.get(key)
    if runner is None:
        runner = _shared.setdefault(key, BotRunner(threads, inline=inline, cap=cap))
    return runner


__all__ = ["DEFAULT_CAP", "SOFT_SHARE", "BotRunner", "kind_of", "shared_runner"]
