"""President invariants over many random games, and what determinisation keeps fixed."""

from __future__ import annotations

import random
from typing import cast

from spieltisch.core import get_spec
from spieltisch.games.president.state import Phase, PresidentState, role_points

from .conftest import C_ as C
from .conftest import A, B, act, new_state
from .test_scenarios import play_round_c_a_d_b


def test_deals_scores_and_turn_order_over_random_games():
    for n in range(4, 9):
        game = get_spec("president").configure(n)
        for g in range(150):
            s = cast(PresidentState, game.new_state(seed=g))
            rng = random.Random(g)
            total = 50 * n
            while not s.is_over():
                seat = s.to_act()[0]
                events = s.apply(seat, rng.choice(s.legal_actions(seat)))
                for e in events:
                    if e.kind == "deal":
                        sizes = e.public["hand_sizes"]
                        assert max(sizes) - min(sizes) <= 1 and sum(sizes) == 54
                        leader = e.public["leader"]
                        assert sizes[leader] == max(sizes)
                    if e.kind == "round_end":
                        total += sum(role_points(n))
                        assert sum(s.scores) == total
                        assert sorted(e.public["order"]) == list(range(n))
                if s.phase is Phase.PLAY:
                    assert s.hands[s.to_move], "a player without cards is never asked"
                    assert not s.passed >> s.to_move & 1, "a passed player is never asked"
            assert min(s.scores) <= 0 < max(s.scores) + 1
            r = s.result()
            assert r.winner is not None
            assert r.scores[r.winner] == max(r.scores)


def test_determinisation_keeps_given_cards_with_their_receiver():
    from .conftest import deal_order

    round2 = deal_order({B: ["JK1", "2S", "2H", "AC"], 3: ["KC", "KD", "QC"]}, 4, B)
    s = new_state({}, later=[round2])
    s = play_round_c_a_d_b(s)               # C President, A PM, D Peasant, B Beggar
    lowest = s.view(C)["hand"][0]
    act(s, C, "give JK1")
    act(s, C, f"give {lowest}")
    rng = random.Random(1)
    for _ in range(200):
        # The President knows the Beggar holds what he gave back...
        sample = s.determinise(C, rng)
        beggar = set(sample.full_view()["hands"][B])
        assert {"JK1", lowest} <= beggar
        # ...and, having received 2S and JK1, that the Beggar had nothing above a 2.
        before_return = beggar - {"JK1", lowest}
        assert not any(c in ("JK2",) for c in before_return)
        # The Beggar knows the President holds the 2S he had to give.
        assert "2S" in s.determinise(B, rng).full_view()["hands"][C]
    # A seat that saw nothing keeps only its own hand fixed: the JK1 moves around.
    places = {next(p for p, h in enumerate(s.determinise(A, rng).full_view()["hands"])
                   if "JK1" in h) for _ in range(60)}
    assert len(places) > 1
