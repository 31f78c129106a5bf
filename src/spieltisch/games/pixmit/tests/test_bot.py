"""The heuristic bot's hand valuation and its parameters."""

from __future__ import annotations

import random

import pytest

from spieltisch.bots import make_bot
from spieltisch.core import get_spec
from spieltisch.core.game import ConfigError
from spieltisch.games.pixmit import bot as B
from spieltisch.games.pixmit import cards as C


@pytest.mark.parametrize(("numbers", "chances", "value"), [
    # no unit yet; Schöpfung (03 20 25) one card away is worth 40 × 0.4 = 16
    ((3, 20), 1.0, 16 * 0.6),
    ((3, 20), 0.5, 0.5 * 16 * 0.6),
    ((3, 20), 0.0, 0.0),
    # a complete Schöpfung scores 40 now, and nothing reachable is worth more
    ((3, 20, 25), 1.0, 40.0),
    # Elite (07 09 10 21) two cards away: 150 × 0.15 = 22.5 over the 10 scored now
    ((7, 10, 15), 1.0, 10 + 12.5 * 0.6),
    ((7, 10, 15), 0.0, 10.0),
    ((7, 10, 15), -0.5, 10.0),  # no chances left: the score alone
])
def test_potential_is_the_score_plus_a_share_of_the_best_reachable_unit(
        numbers: tuple[int, ...], chances: float, value: float) -> None:
    hand = C.m(*numbers)
    B._PROSPECTS.clear()
    first = B.potential(hand, chances)
    assert first == pytest.approx(value)
    assert hand in B._PROSPECTS  # the second valuation comes from the memo, unchanged
    assert B.potential(hand, chances) == first


def test_the_bot_takes_its_parameters_from_the_spec_and_names_a_wrong_one() -> None:
    game = get_spec("pixmit").configure(4)
    bot = make_bot(game, "heuristic::call_at=40:bluff=0", 1, 3)
    assert isinstance(bot, B.HeuristicBot)
    assert (bot.call_at, bot.bluff, bot.number, bot.creation) == (40.0, 0.0, 0.2, 0.5)
    with pytest.raises(ConfigError, match="no parameter 'callat'.*bluff, call_at, creation"):
        make_bot(game, "heuristic::callat=40", 1, 3)


def _potential_as_written_before_the_memo(hand: int, chances: float) -> float:
    """The valuation as it was computed on every call before it was memoised (frozen
    here so that the memo can be held to the very same floats)."""
    w = (1.0, 0.4, 0.15, 0.05, 0.0, 0.0)
    now = C.score(hand)
    if chances <= 0:
        return float(now)
    plans = [(C.MEMBERS[g], 5, pts) for g, pts in ((C.PK, 75), (C.DK, 90), (C.OK, 100),
                                                   (C.ASK, 100))]
    plans += [(C.MEMBERS[g], 3, 30) for g in range(8)]
    plans += [(C.CREATION, 3, 40), (C.KNOWLEDGE, 3, 50), (C.ANNIHILATION, 3, 50),
              (C.ELITE, 4, 150)]
    best = 0.0
    for mask, size, pts in plans:
        have = (hand & mask).bit_count()
        need = size - have if have < size else 0
        if need < 4:
            best = max(best, pts * w[need])
    fire = (hand & C.MEMBERS[C.FK]).bit_count()
    need = max(0, 3 - fire) + max(0, 5 - hand.bit_count() - 1)
    best = max(best, 100 * w[min(need, 5)])
    need = max(0, 2 - (hand & C.MEMBERS[C.TK]).bit_count()) \
        + max(0, 3 - (hand & C.MEMBERS[C.AK]).bit_count())
    best = max(best, 120 * w[min(need, 5)])
    return now + chances * max(0.0, best - now) * 0.6


def test_the_memo_gives_the_very_floats_of_the_valuation_it_replaced() -> None:
    """Every plan (5-card sets, 3er-Sätze, the named sets, Elite, fire, beasts) over 3,000
    random hands of 0-9 cards, first from a cold memo and again from a warm one."""
    rng = random.Random(7)
    hands = [sum(1 << x for x in rng.sample(range(C.NUM_CARDS), rng.randint(0, 9)))
             for _ in range(3000)]
    B._PROSPECTS.clear()
    for chances in (1.0, 0.37, 0.0, -1.0):
        for hand in hands:
            expected = _potential_as_written_before_the_memo(hand, chances)
            assert B.potential(hand, chances) == expected
            assert B.potential(hand, chances) == expected
