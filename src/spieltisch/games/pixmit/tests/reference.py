"""An independent brute-force scorer straight from the spec's §4 text (tests only).

It knows nothing of ``cards.UNIT``: ``value`` checks every unit definition on a
block of cards, ``best`` tries every block containing the lowest card.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

GROUP_CARDS = {
    "TK": {7, 10}, "ZK": {9, 21}, "AK": {15, 19, 32}, "FK": {5, 20, 30, 32},
    "ASK": {2, 8, 12, 25, 32}, "OK": {4, 6, 17, 26, 29, 33},
    "PK": {3, 13, 14, 16, 18, 31}, "DK": {1, 11, 22, 23, 24, 27, 28},
}


def member(card: int, group: str) -> bool:
    return card == 21 or card in GROUP_CARDS[group]


@lru_cache(maxsize=1 << 21)
def value(block: frozenset[int]) -> int:
    """The highest unit value the block (printed numbers) qualifies for, or 0."""
    k = len(block)
    best = 0
    if k >= 2 and any(all(member(x, g) for x in block) for g in GROUP_CARDS):
        best = max(best, 5 * k)
    if k == 3:
        if any(all(member(x, g) for x in block) for g in GROUP_CARDS):
            best = max(best, 30)
        named = {frozenset({3, 20, 25}): 40, frozenset({15, 19, 26}): 50,
                 frozenset({11, 21, 33}): 50}
        best = max(best, named.get(block, 0))
    if k == 4 and block == {7, 9, 10, 21}:
        best = max(best, 150)
    if k == 5:
        pure = 30 if not block & {21, 32} else 0
        for g, pts in (("PK", 45), ("DK", 60), ("OK", 70), ("ASK", 100)):
            if all(member(x, g) for x in block):
                best = max(best, pts + pure)
        if sum(member(x, "FK") for x in block) >= 3:
            best = max(best, 85 + pure)
        for beasts in combinations(sorted(block), 2):
            eyes = block - set(beasts)
            if all(member(x, "TK") for x in beasts) and all(member(x, "AK") for x in eyes):
                best = max(best, 120 + pure)
    return best


@lru_cache(maxsize=1 << 20)
def best(hand: frozenset[int]) -> int:
    """f(hand) of spec §4, without memo: every block containing the lowest card."""
    if not hand:
        return 0
    low = min(hand)
    rest = sorted(hand - {low})
    top = best(frozenset(rest))
    for size in range(1, len(rest) + 1):
        for others in combinations(rest, size):
            block = frozenset((low, *others))
            v = value(block)
            if v:
                top = max(top, v + best(hand - block))
    return top
