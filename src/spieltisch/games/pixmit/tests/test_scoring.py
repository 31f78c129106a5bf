"""The exact scorer against the brute-force reference of spec §4."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from spieltisch.games.pixmit import cards as C

from . import reference


def ref(hand: int) -> int:
    return reference.best(frozenset(x + 1 for x in range(C.NUM_CARDS) if hand >> x & 1))


def check(hand: int) -> None:
    total, layout = C.best_layout(hand)
    assert total == ref(hand), sorted(x + 1 for x in range(33) if hand >> x & 1)
    used = 0
    for u in layout:
        assert u & hand == u and not u & used
        used |= u
        points, kind = C.UNIT[u]
        assert points == reference.value(frozenset(x + 1 for x in range(33) if u >> x & 1))
    assert sum(C.UNIT[u][0] for u in layout) == total


def test_every_unit_value_matches_the_reference():
    for u, (points, _) in C.UNIT.items():
        assert points == reference.value(frozenset(x + 1 for x in range(33) if u >> x & 1))


def test_every_two_card_hand():
    for a, b in combinations(range(C.NUM_CARDS), 2):
        check((1 << a) | (1 << b))


def test_every_four_card_hand():
    for cards in combinations(range(C.NUM_CARDS), 4):
        h = 0
        for x in cards:
            h |= 1 << x
        assert C.best_layout(h)[0] == ref(h)


@pytest.mark.parametrize("size", [5, 6, 7])
def test_random_hands(size):
    rng = random.Random(size)
    for _ in range(3000 if size == 6 else 500):
        check(sum(1 << x for x in rng.sample(range(C.NUM_CARDS), size)))


def test_units_left_out_never_matter():
    """Trostpreis of 3+ cards is beaten inside the same cards (see cards.py)."""
    for g in C.MEMBERS:
        cards = [x for x in range(33) if g >> x & 1]
        for k in range(3, min(len(cards), 7) + 1):
            for sub in combinations(cards, k):
                h = sum(1 << x for x in sub)
                assert C.score(h) > 5 * k or (k == 6 and C.score(h) >= 30)


def test_annihilation_rule():
    assert C.annihilation_counts(C.m(11, 21, 33))
    # Höllen {01,11,22,23,24}+... : 21 and 33 alone give less than the pure Höllen
    assert not C.annihilation_counts(C.m(1, 11, 22, 23, 24, 21, 33)) or \
        C.score(C.m(1, 11, 22, 23, 24, 21, 33)) == 50 + C.score(C.m(1, 22, 23, 24))


@pytest.mark.slow
def test_every_six_card_hand():
    """All 1,107,568 six-card hands (minutes): run with ``-m slow``."""
    for cards in combinations(range(C.NUM_CARDS), 6):
        h = 0
        for x in cards:
            h |= 1 << x
        assert C.best_layout(h)[0] == ref(h)


def test_shared_memo_gives_exactly_best_layout():
    """``score`` / ``cached_layout`` (one memo for all hands) equal ``best_layout``, ties
    included: final views show the layout. Hands of every size, in an order where
    later hands reuse the sub-masks of earlier ones, and again after a cleared memo."""
    rng = random.Random(17)
    hands = [sum(1 << x for x in rng.sample(range(C.NUM_CARDS), rng.randint(0, 8)))
             for _ in range(4000)]
    hands += [u | (1 << x) for u in list(C.FIVE_SETS)[:300] for x in (0, 20, 31)]
    for clear in (False, True):
        if clear:
            C._BEST.clear()
            C._BEST[0] = (0, 0)
        for h in hands:
            total, layout = C.best_layout(h)
            assert C.cached_layout(h) == (total, tuple(layout)), h
            assert C.score(h) == total
