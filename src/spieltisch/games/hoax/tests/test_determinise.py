"""Determinisation in phase show: a third seat's sample keeps the shower able to show.

§3 BuyInfo: the buyer pays for ``min(asked, identities the shower may still show)``
identities, a public count; the shower's earlier shows to the buyer are hidden from
the other seats, and an identity shown before the shower lost a doubt on it is both
shown and doubt-covered. A sample must keep that count: the same buy counted in it
gives the same number, so the shower has exactly as many shows left as it must make.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from spieltisch.games.hoax.cards import IDENTITY_NAMES
from spieltisch.games.hoax.state import HoaxState

from .conftest import P1, P2, P3, P4, load, position

#: The shower P2 is the Magician with the Merchant as round-start cover: the five
#: identities it may ever show (false, not its start cover).
SHOWABLE = ("baron", "monk", "judge", "thief", "farmer")


def buy_position(shown: list[str], doubt_covered: list[str], asked: int) -> dict[str, Any]:
    """P1 (the Farmer) bought ``asked`` identities of P2 (the Magician, start cover the
    Merchant), who earlier showed P1 ``shown`` and lost doubts on ``doubt_covered``."""
    pos = position(["farmer", "magician", "thief", "baron"],
                   seats={P2: {"doubt_covered": doubt_covered, "shown_to": {"0": shown}}})
    pos["state"].update({"phase": "show", "turn": {"action": f"buy {P2} {asked}"}})
    return pos


def assert_consistent(s: HoaxState, d: HoaxState, seat: int) -> None:
    """``d`` is a state ``seat`` cannot tell from ``s`` and everyone awaited can act."""
    assert d.view(seat) == s.view(seat)
    assert sorted(d.legal_actions(seat)) == sorted(s.legal_actions(seat))
    assert list(d.to_act()) == list(s.to_act())
    for p in d.to_act():
        assert d.legal_actions(p), f"seat {p} must act but has no legal action"
    # the public count of the buy is what the same buy would count in the sample
    asked = d.tab.p2[d.act]
    assert min(asked, d.showable(d.show_q, d.active).bit_count()) == d.show_k


def test_a_shower_that_lost_a_doubt_on_a_shown_identity_can_still_show():
    """The reported case: P2 showed P1 the Judge, then lost doubts as Baron, Monk and
    Judge. Left to show P1: Thief and Farmer, so P1's buy of 3 counts 2. P3 and P4 must
    not give P2 a show to P1 outside its doubt covers: P2 would have one identity left."""
    s = load(buy_position(["judge"], ["baron", "monk", "judge"], asked=3))
    assert s.show_k == 2 and s.to_act() == (P2,)
    assert {s.game.action_to_json(a) for a in s.legal_actions(P2)} == {"show thief farmer"}
    for seat in (P3, P4):
        shown = set()
        for i in range(50):
            d = s.determinise(seat, random.Random(i))
            assert_consistent(s, d, seat)
            shown.add(d.shown[P2 * 4 + P1])
        # which of its doubt covers P2 showed P1 is hidden from P3 and P4
        assert shown == {1 << IDENTITY_NAMES.index(x) for x in ("baron", "monk", "judge")}


def test_every_determinisation_in_phase_show_is_consistent():
    """Every split of P2's earlier shows to P1 and doubt covers (of the five showable
    identities), every buy P1 can make: samples from every seat keep the count."""
    cases = 0
    for n_shown in range(1, 5):
        for shown in combinations(SHOWABLE, n_shown):
            for n_cov in range(5):
                for covered in combinations(SHOWABLE, n_cov):
                    left = len(set(SHOWABLE) - set(shown) - set(covered))
                    for asked in range(1, left + 2) if left else ():
                        s = load(buy_position(list(shown), list(covered), asked))
                        assert s.show_k == min(asked, left)
                        for seat in (P1, P2, P3, P4):
                            for i in range(3):
                                assert_consistent(s, s.determinise(seat, random.Random(i)),
                                                  seat)
                        cases += 1
    assert cases == 1950
