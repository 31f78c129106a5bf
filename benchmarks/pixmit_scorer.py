#!/usr/bin/env python3
"""Pixmit's exact scorer: speed (hands scored per second) and an exhaustive check.

Scores every hand of ``--size`` cards drawn from the 33 (6 cards: 1,107,568 hands)
with the engine's optimiser (``cards.best_layout``, no cache) and, unless
``--no-check``, compares each with the independent brute-force reference of the
spec's §4 (``games/pixmit/tests/reference.py``). Prints hands/s for both.

    python benchmarks/pixmit_scorer.py [--size 6] [--limit N] [--no-check]
"""

from __future__ import annotations

import argparse
import sys
import time
from itertools import combinations, islice

from spieltisch.games.pixmit import cards as C
from spieltisch.games.pixmit.tests import reference


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size", type=int, default=6, help="cards per hand (default 6)")
    p.add_argument("--limit", type=int, default=0, help="only the first N hands (0: all)")
    p.add_argument("--no-check", action="store_true", help="skip the reference comparison")
    args = p.parse_args()

    def hands():
        it = combinations(range(C.NUM_CARDS), args.size)
        if args.limit:
            it = islice(it, args.limit)
        for cards in it:
            h = 0
            for x in cards:
                h |= 1 << x
            yield h

    all_hands = list(hands())
    best_layout = C.best_layout
    start = time.perf_counter()
    scores = [best_layout(h)[0] for h in all_hands]
    elapsed = time.perf_counter() - start
    print(f"optimiser: {len(all_hands):,} hands of {args.size} cards in {elapsed:.1f} s "
          f"= {len(all_hands) / elapsed:,.0f} hands/s (uncached)")
    start = time.perf_counter()
    for h in all_hands[:200_000]:
        C.score(h)
    for h in all_hands[:200_000]:
        C.score(h)
    cached = min(len(all_hands), 200_000) * 2 / (time.perf_counter() - start)
    print(f"score() with its cache (each hand twice): {cached:,.0f} hands/s")
    hist: dict[int, int] = {}
    for s in scores:
        hist[s] = hist.get(s, 0) + 1
    print("score distribution:", ", ".join(f"{k}: {v}" for k, v in sorted(hist.items())))
    if args.no_check:
        return 0
    start = time.perf_counter()
    bad = 0
    for i, (h, s) in enumerate(zip(all_hands, scores, strict=True)):
        r = reference.best(frozenset(x + 1 for x in range(C.NUM_CARDS) if h >> x & 1))
        if r != s:
            bad += 1
            if bad <= 10:
                print("MISMATCH", sorted(x + 1 for x in range(33) if h >> x & 1), s, r)
        if i % 200_000 == 199_999:
            print(f"  checked {i + 1:,}", flush=True)
    elapsed = time.perf_counter() - start
    print(f"reference: {len(all_hands):,} hands in {elapsed:.0f} s "
          f"= {len(all_hands) / elapsed:,.0f} hands/s; mismatches: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
