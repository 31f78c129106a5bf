#!/usr/bin/env python3
"""How long a HOAX turn takes at a live table with the default settings (issue 35).

One table per level: six players, a scripted person at seat 0 who answers at once
(presses "I'm ready", passes every window it may pass, takes the first legal action
when it must act) and five bots of the level at a person's pace (``bot_timing`` 1), in
real time. A turn is the time from one "declare" phase (the active seat declares an
action) to the next. Printed per level: the turns' median, p90 and max, and the bots'
decision times (thinking, before their delay): median, p95 and max.

    python benchmarks/hoax_pace.py [--levels medium,hard] [--turns 20] [--json out.json]

Targets (issue 35): median turn at most 6 s with medium bots and 12 s with hard bots.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from realtime import PERSON, Person, Tally

from spieltisch.server.app import Lobby
from spieltisch.server.config import ServerConfig
from spieltisch.server.table import TableRuntime


async def play_level(level: str, turns: int, db: Path, limit: float) -> dict[str, Any]:
    lobby = Lobby(ServerConfig(db_url=f"sqlite:///{db}", table_prefix=f"hp_{level}_",
                               bot_timing=1.0, grace_seconds=10_000))
    loop = asyncio.get_running_loop()
    starts: list[float] = []
    thinking: list[float] = []
    try:
        rt: TableRuntime = await lobby.create(
            {"game": "hoax", "players": 6, "seats": ["human"] + [f"bot:{level}"] * 5},
            "bench")
        orig = rt.acting._apply_locked
        decide = rt.thinker.decide

        async def stamped(seat: int, action: int, *args: Any) -> int:
            index = await orig(seat, action, *args)
            st = rt.state
            if st is not None and st.phase_name() == "declare" and (
                    not starts or rt.log[-2:-1] != [(seat, rt.log[-1][1])]):
                starts.append(loop.time())
            return index

        async def timed(bot: Any, choose: Any, obs: Any, fallback: Any = None) -> int | None:
            began = time.perf_counter()
            try:
                return await decide(bot, choose, obs, fallback)
            finally:
                thinking.append(time.perf_counter() - began)

        rt.acting._apply_locked = stamped  # type: ignore[method-assign]
        rt.thinker.decide = timed  # type: ignore[method-assign]
        person = Person(rt, 0.0, Tally(), passes=True)
        await lobby.join(rt, {"name": "P"}, "bench")
        await rt.attach(person.conn, PERSON)
        began = loop.time()
        while len(starts) <= turns and loop.time() - began < limit \
                and rt.row.status == "playing":
            await asyncio.sleep(0.2)
    finally:
        await lobby.close()
    lengths = [b - a for a, b in zip(starts, starts[1:], strict=False)][:turns]
    return {"level": level, "turns": lengths, "thinking": thinking}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="medium,hard")
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--limit", type=float, default=900.0,
                        help="give up a level after this many seconds (default 900)")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for level in args.levels.split(","):
            r = asyncio.run(play_level(level, args.turns, Path(tmp) / f"{level}.sqlite3",
                                       args.limit))
            t, th = r["turns"], r["thinking"]
            if len(t) >= 2:
                q = statistics.quantiles(t, n=10)
                print(f"{level:7s} {len(t)} turns: median {statistics.median(t):.1f} s, "
                      f"p90 {q[-1]:.1f} s, max {max(t):.1f} s", flush=True)
            else:
                print(f"{level:7s} only {len(t)} turns measured", flush=True)
            if len(th) >= 2:
                q = statistics.quantiles(th, n=20)
                print(f"{level:7s} bot decisions: {len(th)}, median "
                      f"{statistics.median(th):.3f} s, p95 {q[-1]:.3f} s, max {max(th):.3f} s",
                      flush=True)
            out.append(r)
    if args.json:
        args.json.write_text(json.dumps(out))


if __name__ == "__main__":
    main()
