#!/usr/bin/env python3
"""How a person fares against bots at a live Hood Politix table (issue 35).

``--tables`` tables play at once in this process, in real time, each with one scripted
person and three bots of one level answering at a person's pace (``bot_timing`` 1, the
server's default). The person answers everything ``--person`` seconds (1.0) after it
appears on their screen: presses "I'm ready", plays their turn (the first legal play,
announcing Mic Check where due) and throws in whenever an identical card lies on top.

Printed per level:

* the bots' answers: seconds since the last change at the table, on their own turn
  (``act``) and out of turn (``react``): n, p5, p50, p95, max;
* the throw-in windows open to the person (a legal throw-in on their screen), how many
  they made (their throw-in was applied while still legal), the share with a Wilson 95%
  interval, and the penalties they drew for slowness.

    python benchmarks/realtime.py [--levels easy,medium,hard] [--seconds 120]
                                  [--tables 12] [--person 1.0] [--speed 1] [--json out.json]

Each level runs ``--seconds`` of wall time; the windows counted then are printed (aim for
200 or more per level: a window opens only when the person holds the twin of the card on
top, about once in a hundred actions). ``--speed 10`` runs every clock ten times faster
(the same race, scaled) for easy and medium bots, whose thinking takes microseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import statistics
import tempfile
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spieltisch.bots.pacing import Moment
from spieltisch.core import Verdict
from spieltisch.server.app import Lobby
from spieltisch.server.config import ServerConfig
from spieltisch.server.table import Conn, TableRuntime

PERSON = 0


def wilson(made: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of ``made`` out of ``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = made / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Tally:
    """What one level's tables measured."""

    act: list[float] = field(default_factory=list)
    react: list[float] = field(default_factory=list)
    windows: int = 0
    made: int = 0
    missed: Counter[str] = field(default_factory=Counter)
    penalties: int = 0
    actions: int = 0


class Person:
    """A scripted person at ``rt``'s seat 0: answers everything ``delay`` s after it shows:
    "I'm ready", a throw-in on an identical card, a pass where it may pass, and on its
    turn the first legal action (announcing Mic Check where due)."""

    def __init__(self, rt: TableRuntime, delay: float, tally: Tally,
                 passes: bool = False) -> None:
        self.rt = rt
        #: Whether the person passes every reaction window they may pass (HOAX).
        self.passes = passes
        self.delay = delay
        self.tally = tally
        self.conn = Conn(self._receive)
        self._handled: set[tuple[str, int]] = set()
        self._ids = 0

    async def _receive(self, message: dict[str, Any]) -> None:
        self.on(json.loads(message["text"]))

    def on(self, msg: dict[str, Any]) -> None:
        if msg.get("type") not in ("welcome", "start", "state", "update", "seats"):
            return
        index = self.rt.epoch
        if PERSON in msg.get("not_ready", []):
            self._later("ready", index, self._ready)
        legal = msg.get("legal") or []
        if msg.get("may_pass") and self.passes:
            self._later("pass", index, self._pass)
        throws = [a for a in legal if a.startswith("throw")]
        if throws and ("throw", index) not in self._handled:
            self.tally.windows += 1
            self._later("throw", index, lambda: self._act(max(throws, key=len), index, True))
        elif msg.get("required") and legal:
            plays = [a for a in legal if a.endswith(" mic")] or legal
            self._later("act", index, lambda: self._act(plays[0], index, False))

    def _later(self, what: str, index: int, answer: Callable[[], Awaitable[None]]) -> None:
        """``answer`` once per update, ``delay`` seconds after it showed."""
        if (what, index) in self._handled:
            return
        self._handled.add((what, index))

        async def run() -> None:
            await asyncio.sleep(self.delay)
            await answer()
        asyncio.get_running_loop().create_task(run())

    async def _ready(self) -> None:
        await self.rt.ready(self.conn)

    async def _pass(self) -> None:
        await self.rt.pass_window(self.conn)

    async def _act(self, text: str, index: int, throw: bool) -> None:
        st = self.rt.state
        if st is None or st.is_over() or self.rt.row.status != "playing":
            return
        action = self.rt.game.action_from_json(text)
        if st.judge(PERSON, action).verdict is not Verdict.LEGAL:
            if throw:  # the window closed before the person's second was up
                self.tally.missed["the top card changed first"] += 1
            return
        if not throw and self.rt.epoch != index:
            return  # the table moved on: the person answers its newest update instead
        self._ids += 1
        reply = await self.rt.player_action(
            self.conn, {"type": "action", "id": self._ids, "action": text})
        if throw:
            if reply is None:
                self.tally.made += 1
            else:
                self.tally.missed[str(reply.get("code"))] += 1


async def play_level(level: str, seconds: float, tables: int, delay: float,
                     db: Path, speed: float) -> Tally:
    tally = Tally()
    # every time divided by ``speed``: the bots' delays, the rules' timers, the person's
    lobby = Lobby(ServerConfig(db_url=f"sqlite:///{db}", table_prefix=f"rt_{level}_",
                               bot_timing=1.0 / speed, time_scale=1.0 / speed,
                               grace_seconds=10_000, max_tables_per_client=tables + 1))
    runtimes: list[TableRuntime] = []
    try:
        for i in range(tables):
            rt = await lobby.create({"game": "hood_politix", "players": 4,
                                     "seats": ["human"] + [f"bot:{level}"] * 3}, "bench")

            def answered(seat: int, moment: Moment, seconds: float) -> None:
                if moment is not Moment.GLANCE:
                    (tally.act if moment is Moment.ACT else tally.react).append(
                        seconds * speed)

            rt.on_bot_answer = answered
            person = Person(rt, delay / speed, tally)
            await lobby.join(rt, {"name": f"P{i}"}, "bench")
            await rt.attach(person.conn, PERSON)
            runtimes.append(rt)
        await asyncio.sleep(seconds)
    finally:
        for rt in runtimes:
            tally.actions += len(rt.log)
            tally.penalties += sum(1 for _, text in rt.log
                                   if text.startswith(f"accuse {PERSON} timeout"))
        await lobby.close()
    return tally


def quantiles(xs: list[float]) -> str:
    if len(xs) < 2:
        return f"n={len(xs)}"
    q = statistics.quantiles(xs, n=20)
    return (f"n={len(xs):5d}  p5={q[0]:.2f}  p50={statistics.median(xs):.2f}  "
            f"p95={q[-1]:.2f}  max={max(xs):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="easy,medium,hard")
    parser.add_argument("--seconds", type=float, default=120.0,
                        help="wall time per level (default 120)")
    parser.add_argument("--tables", type=int, default=12, help="tables at once (default 12)")
    parser.add_argument("--person", type=float, default=1.0,
                        help="the person's answer time in seconds (default 1.0)")
    parser.add_argument("--speed", type=float, default=1.0,
                        help="run every clock this many times faster (bots' delays, rules' "
                             "timers, the person; printed figures are in real seconds). "
                             "Not for hard bots, whose thinking does not speed up.")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for level in args.levels.split(","):
            tally = asyncio.run(play_level(level, args.seconds, args.tables, args.person,
                                           Path(tmp) / f"{level}.sqlite3", args.speed))
            lo, hi = wilson(tally.made, tally.windows)
            share = tally.made / tally.windows if tally.windows else 0.0
            print(f"{level:7s} bots act   {quantiles(tally.act)}")
            print(f"{level:7s} bots react {quantiles(tally.react)}")
            print(f"{level:7s} person at {args.person:.1f} s: throw-ins made {tally.made} of "
                  f"{tally.windows} windows = {share:.1%} (95% {lo:.1%}-{hi:.1%}); "
                  f"missed: {dict(tally.missed)}; timeout penalties {tally.penalties} in "
                  f"{tally.actions} actions", flush=True)
            out.append({"level": level, "act": tally.act, "react": tally.react,
                        "windows": tally.windows, "made": tally.made, "share": share,
                        "interval": [lo, hi], "missed": dict(tally.missed),
                        "penalties": tally.penalties, "actions": tally.actions})
    if args.json:
        args.json.write_text(json.dumps(out))


if __name__ == "__main__":
    main()
