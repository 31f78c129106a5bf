#!/usr/bin/env python3
"""Which rules a bot level uses: the action-kind counts and option effects of
``spieltisch.bots.coverage`` (the figures of docs/strength.md, "Bots that play the
whole game"; ``tests/test_bot_coverage.py`` checks them).

    python benchmarks/bot_coverage.py [--bot medium] [--games 200] [--seed 1] [GAME ...]

Prints per game a Markdown table (kind, times chosen by a seat, decisions that offered
it, times the clock applied it), the kinds no seat chose, and for every option the
value tried and the first game it changed.
"""

from __future__ import annotations

import argparse
import time

from spieltisch.bots.coverage import GAMES, kind_coverage, kinds_table, option_effects
from spieltisch.core import game_names


def main(argv: list[str] | None = None) -> int:
    """Print the counts of every game named (all by default)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help="games (default: all)")
    parser.add_argument("--bot", default="medium", help="a level or a bot spec")
    parser.add_argument("--games", dest="count", type=int, default=GAMES,
                        help="games per game (default %(default)s)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for name in args.games or game_names():
        start = time.process_time()
        cov = kind_coverage(name, args.bot, args.count, args.seed)
        effects = option_effects(cov, args.seed)
        print(kinds_table([cov]))
        missing = ", ".join(k.name.lower() for k in cov.missing()) or "none"
        clock = ", ".join(k.name.lower() for k in cov.clock_kinds()) or "none"
        print(f"never chosen: {missing}; the clock's: {clock}")
        for e in effects:
            where = f"game {e.differs_at}" if e.differs_at is not None else "no game"
            print(f"option {e.option}={e.value!r}: {where} of {e.compared} differs")
        print(f"({time.process_time() - start:.1f} s CPU)\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
