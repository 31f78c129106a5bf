"""The bots at a table: their decisions, paced like a person's, and substitutes.

Bots think on a copy of the state, outside the lock (``thinking``), and answer after a
person's delay (``pacing``). A person who stays away past the grace period is replaced by
a substitute bot until they come back.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import TYPE_CHECKING

from ..bots import make_bot
from ..bots.base import Bot, Observation
from ..bots.pacing import Moment
from ..core.game import IllegalAction
from .ending import ENDED
from .ratings import record_leave
from .store import StorageError
from .timing import Entry, EntryKind

if TYPE_CHECKING:
    from .table import TableRuntime

log = logging.getLogger("spieltisch.server")


class SeatBots:
    """Lets each bot seat decide once per change, and substitutes absent people."""

    def __init__(self, rt: TableRuntime) -> None:
        self.rt = rt

    def _bot_for(self, seat: int) -> Bot | None:
        return self.rt.bots.get(seat) or self.rt.subs.get(seat)

    async def _drive(self) -> None:
        """Until the game ends: after every change, let each bot that may act decide."""
        while self.rt.row.status not in ENDED:
            await self.rt._wake.wait()
            self.rt._wake.clear()
            self._plan_bots()

    def _plan_bots(self) -> None:
        """Start a decision for every bot seat that may act now and has not answered
        this epoch (at most one decision per seat at a time). Nothing while the table
        waits for people to be ready."""
        st = self.rt.state
        if self.rt.row.status != "playing" or st is None or st.is_over() \
                or (not self.rt.bots and not self.rt.subs) or self.rt.clocks.not_ready():
            return
        for seat in dict.fromkeys([*st.to_act(), *st.out_of_turn()]):
            if self._bot_for(seat) is None or seat in self.rt._plans \
                    or self.rt._answered.get(seat) == self.rt.epoch:
                continue
            task = asyncio.get_running_loop().create_task(self._bot_turn(seat, self.rt.epoch))
            self.rt._plans[seat] = task
            task.add_done_callback(functools.partial(self._plan_done, seat))

    def _plan_done(self, seat: int, _task: object = None) -> None:
        """A bot's decision is over: decide again if the table moved on meanwhile."""
        self.rt._plans.pop(seat, None)
        if self.rt.row.status == "playing":
            self.rt._wake.set()

    async def _bot_turn(self, seat: int, epoch: int) -> None:
        """One decision of the bot at ``seat``, as a person would make it: it thinks on a
        copy of the state (the table goes on meanwhile, other bots think at the same
        time), and its answer shows after its level's delay (``pacing``). An answer the
        table overtook is applied only if it is still legal as it was meant (a vote
        still is; a throw-in on a card now covered is not), else the bot decides again."""
        bot = self._bot_for(seat)
        st = self.rt.state
        if bot is None or st is None:
            return
        loop = asyncio.get_running_loop()
        began = loop.time()
        required = seat in st.to_act()
        obs = Observation(st.clone(), seat, required=required)
        self.rt.thinking.add(seat)
        try:
            action = await self.rt.thinker.decide(bot, bot.act if required else bot.react, obs,
                                               self.rt.fallbacks.get(seat))
        except Exception:  # a bot bug must not stop the table
            log.exception("table %s: the bot of seat %d failed", self.rt.code, seat)
            self.rt._answered[seat] = epoch
            return
        finally:
            self.rt.thinking.discard(seat)
        # its own turn is when the game waits for it alone; a vote that every seat casts
        # at once is answered like a reaction
        alone = required and len(st.to_act()) == 1
        moment = Moment.GLANCE if action is None else (Moment.ACT if alone else Moment.REACT)
        clock = self.rt.bot_clocks.get(seat)
        wait = began + (clock.delay(moment) if clock is not None else 0.0) - loop.time()
        await asyncio.sleep(max(0.0, wait))
        async with self.rt.lock:
            st = self.rt.state
            if st is None or self.rt.row.status != "playing" or st.is_over() \
                    or self._bot_for(seat) is not bot or self.rt.clocks.not_ready():
                return
            if self.rt.epoch != epoch and (action is None or required != (seat in st.to_act())
                                        or action not in st.legal_actions(seat)):
                return  # overtaken: ``_plan_done`` asks again
            self.rt._answered[seat] = self.rt.epoch
            if self.rt.on_bot_answer is not None:
                self.rt.on_bot_answer(seat, moment, loop.time() - began)
            if action is None:
                await self.rt.clocks._pass(seat)
            else:  # not stored: ``_retry_later`` asks the bots again
                await self._try_bot(seat, action)

    async def _try_bot(self, seat: int, action: int) -> bool:
        """A bot's decision, arriving now: applied, or held in a race (True), or refused.
        Caller holds the lock."""
        entry = Entry(EntryKind.ACTION, asyncio.get_running_loop().time(), 0.0, seat, action,
                      bot=True)
        contested = self.rt.acting._contested(seat, action)
        await self.rt.acting._admit(entry, self.rt.config.race_window if contested else 0.0)
        return not entry.done.done() or entry.done.result() is None

    async def _apply_bot(self, seat: int, action: int | None, raced: bool = False) -> bool:
        """Apply a bot's action now; a refusal or a failed write is logged (False). A
        refusal after a race is no bug: another seat's action came first (two bots that
        accused the same fault)."""
        if action is None:
            return False
        try:
            await self.rt.acting._apply_locked(seat, action)
        except IllegalAction as e:
            log.log(logging.INFO if raced else logging.WARNING,
                    "table %s: bot for seat %d chose an action that is not legal now: %s",
                    self.rt.code, seat, e.reason)
            return False
        except StorageError as e:  # retried by ``_retry_later``
            log.error("table %s: storing a bot's action failed: %s", self.rt.code, e)
            return False
        return True

    # -- substitutes for people who went away ------------------------------------------
    def _start_grace(self, seat: int) -> None:
        if seat in self.rt.subs or seat in self.rt.grace or seat in self.rt.bots:
            return
        loop = asyncio.get_running_loop()
        self.rt.grace[seat] = loop.call_later(self.rt.config.grace_seconds,
                                           lambda: self.rt._spawn(self._substitute(seat)))

    async def _substitute(self, seat: int) -> None:
        async with self.rt.lock:
            self.rt.grace.pop(seat, None)
            if any(c.seat == seat for c in self.rt.conns) or self.rt.row.status != "playing":
                return
            await record_leave(self.rt, seat)  # the game and the profile show it (ratings)
            self.rt.subs[seat] = make_bot(self.rt.game, self.rt.config.substitute_bot, seat,
                                       self.rt.rng.randrange(2**31))
            # a substitute keeps a person's (medium) pace
            self.rt.bot_clocks.setdefault(seat, self.rt._bot_clock(seat, None))
            self.rt.clocks._check_ready()  # a substitute has seen the deal
            self.rt.connections._notify_seats()
            self.rt._wake.set()
