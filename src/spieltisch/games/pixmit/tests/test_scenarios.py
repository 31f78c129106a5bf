"""Every numbered scenario of pixmit.md §7 as an exact test."""

from __future__ import annotations

import pytest

from spieltisch.core import IllegalAction
from spieltisch.games.pixmit import cards as C

from .helpers import (
    C_,
    A,
    B,
    D,
    act,
    deal_order,
    legal_texts,
    load,
    mask,
    new_state,
    numbers,
    offer,
    position,
    reach_round3,
)

# (scenario, hand, best score, callable (None: not stated), unit kinds of the Auslegung)
SCORING = [
    (1, (1, 22, 23, 11, 21, 33), 80, True, {"Vernichtung", "3er-Satz"}),
    (2, (3, 13, 14, 16, 18, 31), 75, True, {"Personen-Satz"}),
    (3, (5, 20, 30, 15, 19, 26), 115, False, {"Götter-Satz"}),
    (4, (3, 20, 25, 15, 19, 26), 90, None, {"Schöpfung", "Wissen"}),
    (5, (7, 9, 10, 21, 1, 11), 160, True, {"Elite", "Trostpreis"}),
    (6, (7, 10, 15, 19, 32, 21), 120, True, {"Bestien-Satz"}),
    (7, (2, 8, 12, 25, 32, 4), 100, True, {"Kosmos-Satz"}),
    (8, (5, 20, 32, 15, 19, 26), 85, None, {"Götter-Satz"}),
    (9, (4, 6, 17, 26, 29, 33), 100, True, {"Artefakt-Satz"}),
    (10, (13, 14, 1, 11, 4, 6), 30, False, {"Trostpreis"}),
    (11, (21, 7, 13, 14, 31, 1), 40, None, {"3er-Satz", "Trostpreis"}),
    (12, (11, 21, 33, 7, 10, 1), 60, False, {"Vernichtung", "Trostpreis"}),
    (13, (5, 20, 30, 32, 21, 1), 85, None, {"Götter-Satz"}),
    (14, (1, 11, 22, 23, 24, 21), 90, True, {"Höllen-Satz"}),
    (15, (22, 23, 24, 21, 13, 14), 60, None, {"3er-Satz"}),
    (16, (5, 32), 10, None, {"Trostpreis"}),
    (16, (9, 21), 10, None, {"Trostpreis"}),
    (16, (1, 2), 0, None, set()),
    (16, (7, 9, 10, 21), 150, True, {"Elite"}),
]


@pytest.mark.parametrize("number,hand,points,callable_,kinds", SCORING,
                         ids=[f"s{s[0]}-{'-'.join(map(str, s[1]))}" for s in SCORING])
def test_scoring_scenarios(number, hand, points, callable_, kinds):
    h = mask(*hand)
    total, layout = C.best_layout(h)
    assert total == points == C.score(h)
    assert sum(C.UNIT[u][0] for u in layout) == points
    assert {C.UNIT[u][1] for u in layout} == kinds
    for i, u in enumerate(layout):
        assert u & h == u and all(not u & v for v in layout[i + 1:])
    if callable_ is not None:
        assert C.may_call(h) is callable_
        assert bool(C.call_conditions(h)) is callable_


def test_s1_details():
    """Höllen with 21 would give only 60; callable through the Joker-Satz {01,11,22,23,21}."""
    assert C.UNIT[mask(1, 11, 22, 23, 21)] == (60, "Höllen-Satz")
    assert C.call_conditions(mask(1, 22, 23, 11, 21, 33)) == ["joker_set"]
    assert C.annihilation_counts(mask(1, 22, 23, 11, 21, 33))


def test_s2_s9_natural_and_s5_elite_conditions():
    assert C.call_conditions(mask(3, 13, 14, 16, 18, 31)) == ["natural_set"]
    assert C.call_conditions(mask(4, 6, 17, 26, 29, 33)) == ["natural_set"]
    assert "elite" in C.call_conditions(mask(7, 9, 10, 21, 1, 11))


def test_s10_no_set_means_hunt_eligible():
    assert not C.has_set(mask(13, 14, 1, 11, 4, 6))
    assert C.has_set(mask(5, 20, 30, 22, 23, 24))


def test_s12_not_callable():
    assert C.call_conditions(mask(11, 21, 33, 7, 10, 1)) == []


def test_s16_elite_callable_in_round_2():
    """{07,09,10,21} after round 1: a call at the start of the round-2 turn."""
    deck = deal_order({A: [7, 9], B: [1, 2]}, [10, 21, 3, 4], 2, A)
    state = new_state(deck, 2)
    offer(state, A, 1, "07")
    act(state, A, "claim none")
    act(state, B, "accept")
    act(state, B, "return 01")  # A: 01 09
    offer(state, B, 0, "07")
    act(state, B, "claim TK")
    act(state, A, "accept")
    act(state, A, "return 01")  # A: 07 09
    assert state.round == 2 and numbers(state.hands[A]) == {7, 9, 10, 21}
    assert "call" in legal_texts(state, A)
    act(state, A, "call")
    assert state.is_over() and state.stats()["call_conditions"] == ["elite"]
    # A holds 21: B (hand 01 02 03 04 has no set) hunts one random card
    assert state.stats()["hunt_draws"] == 1


HUNT_HANDS = {A: [7, 9, 10, 21, 1, 11], B: [5, 20, 30, 22, 23, 24],
              C_: [2, 6, 14, 17, 27, 31], D: [3, 8, 12, 15, 18, 28]}


def test_s17_hunt_stops_when_21_is_drawn():
    state = reach_round3(HUNT_HANDS, 4, hunt=[["21"]])
    assert [C.score(h) for h in state.hands[2:]] == [20, 20]
    assert "call" in legal_texts(state, A)
    act(state, A, "call")
    assert state.is_over()
    assert state.hunt_eligible == [C_, D]
    assert [(p, x + 1) for p, x in state.hunt] == [(C_, 21)]
    assert numbers(state.hands[A]) == {7, 9, 10, 1, 11}
    scores = state.final_scores()
    assert scores[A] == 20 and scores[C_] == 40
    assert state.view(B)["holder_21"] == C_


def test_s18_hunt_goes_on_until_21():
    state = reach_round3(HUNT_HANDS, 4, hunt=[["09"], ["21"]])
    act(state, A, "call")
    assert [(p, x + 1) for p, x in state.hunt] == [(C_, 9), (D, 21)]
    assert numbers(state.hands[D]) == {3, 8, 12, 15, 18, 28, 21}
    scores = state.final_scores()
    assert (scores[A], scores[C_], scores[D]) == (20, 20, 40)


def test_s19_no_one_eligible_and_annihilation():
    hands = {A: [1, 22, 23, 11, 21, 33], B: [5, 20, 30, 2, 8, 12],
             C_: [13, 14, 16, 18, 31, 3], D: [4, 6, 17, 26, 29, 7]}
    state = reach_round3(hands, 4)
    act(state, A, "call")
    assert state.hunt_eligible == [] and state.hunt == []
    assert state.annihilation_effect()
    scores = state.final_scores()
    assert scores[A] == 80
    for p in (B, C_, D):
        assert scores[p] == C.score(state.hands[p]) - 5
    # B: pure Götter {05,20,30,02,08} 115 − 5; D: pure Artefakt 100 − 5
    assert scores == [80, 110, 70, 95] and state.result().winner == B


def test_s20_three_player_veto():
    deck = deal_order({A: [1, 2], B: [3, 4], C_: [5, 6]}, [30, 31], 3, A)
    state = new_state(deck, 3)
    offer(state, A, 1, "01 02")
    act(state, A, "claim DK")
    act(state, A, "claim none")
    act(state, B, "veto")
    assert numbers(state.hands[A]) == {30, 31}
    assert state.stack[0] == C.c(2) and state.stack[1] == C.c(1)  # 02 is the very bottom
    assert state.vetoes == [0, 1, 0]
    assert len(state.stack) == 33 - 6
    assert state.active == B


def test_s21_two_players_veto_needs_two_cards():
    state = load(position(2, {A: [1, 2], B: [3]}))
    offer(state, A, 1, "01")
    act(state, A, "claim none")
    assert legal_texts(state, B) == {"accept"}
    with pytest.raises(IllegalAction):
        act(state, B, "veto")


def test_s21_blind_messenger_with_full_hands():
    deck = deal_order({A: [1, 2], B: [3, 4]}, [5, 6, 7, 8, 9, 10, 11, 12], 2, A)
    state = new_state(deck, 2)
    for _ in range(2):  # rounds 1 and 2: accepted one-card swaps (A and B trade back)
        offer(state, A, 1, "01")
        act(state, A, "claim none")
        act(state, B, "accept")
        act(state, B, "return 03")
        offer(state, B, 0, "01")
        act(state, B, "claim none")
        act(state, A, "accept")
        act(state, A, "return 03")
    assert state.round == 3 and [h.bit_count() for h in state.hands] == [6, 6]
    offer(state, A, 1, "02")
    act(state, A, "claim none")
    act(state, B, "veto")
    assert state.vetoes == [0, 1]
    act(state, B, "messenger 04")
    assert state.hands[A].bit_count() == 7 and state.hands[B].bit_count() == 5
    assert state.hands[A] >> C.c(2) & 1  # A keeps its offer
    assert state.to_act() == (A,) and state.view(A)["phase"] == "discard"
    act(state, A, "bottom 02")
    assert [h.bit_count() for h in state.hands] == [6, 5]
    assert state.stack[0] == C.c(2)
    assert state.active == B


def test_s22_creation_overrules_a_veto():
    # A: junk 33 + 03; draws 20 (round 1 veto by C) and 25 + 32 (round 2)
    deck = deal_order({A: [33, 3], B: [1, 2], C_: [4, 6]},
                      [20, 5, 25, 32, 8, 9, 10, 12], 3, A)
    state = new_state(deck, 3)
    offer(state, A, 2, "33")
    act(state, A, "claim none")
    act(state, C_, "veto")
    offer(state, B, 2, "01")
    act(state, B, "claim none")
    act(state, C_, "veto")
    offer(state, C_, 1, "04")
    act(state, C_, "claim none")
    act(state, B, "accept")
    act(state, B, "return 02")
    assert state.round == 2 and numbers(state.hands[A]) == {3, 20, 25, 32}
    assert state.vetoes == [0, 0, 2]
    offer(state, A, 1, "32")
    act(state, A, "claim AK")
    act(state, B, "veto")
    assert legal_texts(state, A) == {"creation", "pass"}
    act(state, A, "creation")
    assert state.vetoes[B] == 1
    assert state.view(C_)["reveals"][0]["cards"] == ["03", "20", "25"]
    given = sorted(legal_texts(state, B))[0]
    act(state, B, given)
    assert state.hands[B] >> C.c(32) & 1
    assert numbers(state.hands[A]) == {3, 20, 25, int(given.split()[1])}
    assert state.active == B


def test_s23_tie_broken_by_fewer_vetoes():
    hands = {A: [1, 11, 22, 23, 24, 27], B: [3, 20, 25, 15, 19, 26], C_: [2, 4, 13, 7, 5, 9]}
    state = reach_round3(hands, 3, targets={A: C_, B: C_, C_: A})
    assert state.vetoes == [2, 0, 4]
    assert C.call_conditions(state.hands[A]) == ["natural_set"]
    act(state, A, "call")
    scores = state.final_scores()
    assert scores[A] == scores[B] == 90
    result = state.result()
    assert result.winner == B and result.ranks[A] == 2 and result.ranks[B] == 1


def test_tie_with_equal_vetoes_is_shared():
    hands = {A: [1, 11, 22, 23, 24, 27], B: [3, 20, 25, 15, 19, 26], C_: [2, 4, 13, 7, 5, 9]}
    state = reach_round3(hands, 3)
    act(state, A, "call")
    result = state.result()
    assert result.winner is None and result.ranks[A] == result.ranks[B] == 1
