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
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, ThreadPoolExecutor

from ..bots.base import Bot, Observation

#: A bot's decision: ``Bot.act`` or ``Bot.react`` of one bot.
Choose = Callable[[Observation], "int | None"]


def kind_of(bot: Bot) -> Hashable:
    """What the runner learns by: the bot's class and its parameters (``ismcts:200`` and
    ``ismcts:800`` think differently long; two random bots alike)."""
    params = getattr(bot, "params", None) or {}
    return type(bot), tuple(sorted((k, repr(v)) for k, v in params.items()))


class BotRunner:
    """Runs bots' decisions: quick kinds in a lane of their own (or on the event loop
    with ``inline``), slow and unknown kinds in ``threads`` threads. ``clock`` times each
    decision (wall time: a bot that waits, for the network or a sleep, is slow too)."""

    def __init__(self, threads: int = 2, quick: float | None = None,
                 clock: Callable[[], float] = time.perf_counter, inline: bool = False,
                 slow_lane: Executor | None = None,
                 quick_lane: Executor | None = None) -> None:
        if threads < 1:
            raise ValueError(f"a bot runner needs at least one thread, not {threads}")
        self.threads = threads
        self.quick = sys.getswitchinterval() if quick is None else quick
        self.clock = clock
        self.inline = inline
        self._lanes: dict[bool, Executor | None] = {False: slow_lane, True: quick_lane}
        self._quick_kinds: set[Hashable] = set()
        #: Kinds seen slow once: they stay in the slow lane (see ``decide``).
        self._slow_kinds: set[Hashable] = set()
        self._lock = threading.Lock()  # the lanes are made once, by whichever loop asks
        #: Decisions made so far on the loop, in the quick lane and in the slow lane.
        self.counts = {"loop": 0, "quick": 0, "slow": 0}

    def is_quick(self, bot: Bot) -> bool:
        """Whether ``bot``'s kind was quick at its latest decision."""
        return kind_of(bot) in self._quick_kinds

    async def decide(self, bot: Bot, choose: Choose, obs: Observation) -> int | None:
        """``choose(obs)`` (the bot's ``act`` or ``react``) where its kind belongs; the
        time it took decides where the kind's next decision runs."""
        kind = kind_of(bot)
        quick = kind in self._quick_kinds
        if quick and self.inline:
            self.counts["loop"] += 1
            action, took = self._timed(choose, obs)
        else:
            self.counts["quick" if quick else "slow"] += 1
            action, took = await asyncio.get_running_loop().run_in_executor(
                self._lane(quick), self._timed, choose, obs)
        # Once slow, a kind stays slow: a search bot answers a forced move in microseconds,
        # and its next real search must not block the quick lane (or the loop).
        if took >= self.quick:
            self._slow_kinds.add(kind)
            self._quick_kinds.discard(kind)
        elif kind not in self._slow_kinds:
            self._quick_kinds.add(kind)
        return action

    def _timed(self, choose: Choose, obs: Observation) -> tuple[int | None, float]:
        began = self.clock()
        action = choose(obs)
        return action, self.clock() - began

    def _lane(self, quick: bool) -> Executor:
        with self._lock:
            lane = self._lanes[quick]
            if lane is None:
                lane = self._lanes[quick] = ThreadPoolExecutor(
                    1 if quick else self.threads,
                    thread_name_prefix="spieltisch-bot-" + ("quick" if quick else "slow"))
            return lane

    def close(self) -> None:
        """Stop the threads once the decisions they run are done."""
        with self._lock:
            for quick, lane in self._lanes.items():
                if lane is not None:
                    lane.shutdown(wait=False)
                    self._lanes[quick] = None


_shared: dict[tuple[int, bool], BotRunner] = {}


def shared_runner(threads: int, inline: bool = False) -> BotRunner:
    """The process's runner with ``threads`` slow-lane threads, which every table of a
    server shares (the threads are a limit for the whole server, not per table)."""
    runner = _shared.get((threads, inline))
    if runner is None:
        runner = _shared.setdefault((threads, inline), BotRunner(threads, inline=inline))
    return runner


__all__ = ["BotRunner", "kind_of", "shared_runner"]
