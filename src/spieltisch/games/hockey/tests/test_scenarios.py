"""Every numbered scenario of hockey.md §8, with exact outcomes.

N = non-dealer, D = dealer; with ``first_dealer=0`` D is seat 0 and N seat 1 in
period 1 (the dealer alternates every period).
"""

from __future__ import annotations

from spieltisch.games.hockey.cards import CODES
from spieltisch.games.hockey.state import NOBODY

from .conftest import (
    D,
    N,
    dealer_goals,
    new_state,
    period_order,
    play,
    play_in_deck_order,
    play_period,
)


def hand(state, seat):
    return {CODES[c] for c in range(52) if state.hands[seat] >> c & 1}


def test_1_period_start_deals_five_each_and_n_leads():
    s = new_state(period_order(["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "QC"]))
    assert s.period == 1 and s.dealer == D
    assert hand(s, N) == {"2C", "4C", "6C", "8C", "10C"}  # dealt first, alternately
    assert hand(s, D) == {"3C", "5C", "7C", "9C", "QC"}
    assert s.view(N)["stock"] == 42
    assert s.to_act() == [N]


def test_2_deal_five_is_six_each_then_the_period_ends_with_the_stock_empty():
    s = new_state(period_order([]))
    for deal in range(4):
        assert s.deal == deal
        assert s.hands[N].bit_count() == s.hands[D].bit_count() == 5
        play_in_deck_order(s, 10)
    assert s.period == 1 and s.deal == 4
    assert s.hands[N].bit_count() == s.hands[D].bit_count() == 6
    assert s.view(N)["stock"] == 0 and len(s.pile) == 40
    events = play_in_deck_order(s, 11)
    assert s.period == 1 and s.hands[D].bit_count() == 1
    events = play_in_deck_order(s, 1)
    assert [e.kind for e in events] == ["play", "period_over", "period", "deal"]
    assert events[1].public["period"] == 1
    assert s.period == 2 and s.pile == [] and s.goals == [0, 0]


def test_3_matching_the_top_card_makes_a_breakaway():
    s = new_state(period_order(["7C", "7H"]))
    play(s, N, "7C")
    assert s.breakaway == NOBODY
    play(s, D, "7H")
    assert s.breakaway == D


def d_breakaway_then(card: str, more: tuple[str, ...] = ()):
    """N 7C, D 7H (breakaway D), N 9S, D ``card`` (then ``more`` in play order)."""
    s = new_state(period_order(["7C", "7H", "9S", card, *more]))
    play(s, N, "7C")
    play(s, D, "7H")
    assert s.breakaway == D
    play(s, N, "9S")
    events = play(s, D, card)
    return s, events


def test_4_goal_on_the_next_turn():
    s, events = d_breakaway_then("9D")
    assert s.goals[D] == 1 and s.goals[N] == 0
    assert s.breakaway == NOBODY
    assert events[0].public["outcome"] == "goal"


def test_5_missed_chance_loses_the_breakaway():
    s, events = d_breakaway_then("3H")
    assert s.goals == [0, 0]
    assert s.breakaway == NOBODY
    assert events[0].public["outcome"] == "breakaway lost"


def test_6_jack_while_holding_a_breakaway_keeps_a_fresh_one_no_goal():
    s, _ = d_breakaway_then("JC", ("KS", "KH"))
    assert s.goals == [0, 0]
    assert s.breakaway == D
    # The fresh breakaway scores on D's next turn.
    play(s, N, "KS")
    play(s, D, "KH")
    assert s.goals[D] == 1 and s.breakaway == NOBODY


def test_6b_jack_on_a_jack_is_a_breakaway_not_a_goal():
    s = new_state(period_order(["JC", "JD"]))
    play(s, N, "JC")
    assert s.breakaway == N
    play(s, D, "JD")
    assert s.breakaway == D and s.goals == [0, 0]


def test_7_jack_on_the_empty_pile_makes_a_breakaway():
    s = new_state(period_order(["JD"]))
    assert s.top == -1 and s.pile == []
    play(s, N, "JD")
    assert s.breakaway == N


def test_8_third_and_fourth_card_of_a_rank_pass_the_breakaway():
    s = new_state(period_order(["5S", "5H", "5D", "5C"]))
    play(s, N, "5S")
    play(s, D, "5H")
    assert s.breakaway == D
    play(s, N, "5D")
    assert s.breakaway == N and s.goals == [0, 0]
    play(s, D, "5C")
    assert s.breakaway == D and s.goals == [0, 0]


def test_9_a_voided_breakaway_cannot_score():
    s = new_state(period_order(["4C", "4D", "4S", "4H"]))
    play(s, N, "4C")
    play(s, D, "4D")
    assert s.breakaway == D
    play(s, N, "4S")  # matches D's previous 4
    assert s.breakaway == N
    play(s, D, "4H")
    assert s.breakaway == D  # third-card rule: a new breakaway, not a goal
    assert s.goals == [0, 0]


def test_10_the_goal_card_can_be_matched_for_a_breakaway():
    s, _ = d_breakaway_then("9D", ("9C",))
    assert s.goals[D] == 1 and s.breakaway == NOBODY
    play(s, N, "9C")
    assert s.breakaway == N
    assert s.goals[D] == 1 and s.goals[N] == 0


def test_11_the_breakaway_carries_over_into_the_next_deal():
    deal1 = ["AC", "5D", "2C", "6D", "3C", "7D", "4C", "8D", "KH", "KS"]
    s = new_state(period_order(deal1 + ["8H", "8C"]))
    play_in_deck_order(s, 9)
    events = play(s, D, "KS")  # D's last card of deal 1 makes a breakaway
    assert s.breakaway == D
    assert [e.kind for e in events] == ["play", "deal"]
    assert s.deal == 1 and hand(s, N) >= {"8H"} and hand(s, D) >= {"8C"}
    assert s.to_act() == [N]
    play(s, N, "8H")
    play(s, D, "8C")
    assert s.goals[D] == 1 and s.breakaway == NOBODY


def test_12_the_pile_carries_over_into_the_next_deal():
    deal1 = ["AC", "5D", "2C", "6D", "3C", "7D", "4C", "8D", "KH", "QH"]
    s = new_state(period_order(deal1 + ["QC"]))
    play_in_deck_order(s, 10)
    assert s.breakaway == NOBODY and s.deal == 1
    play(s, N, "QC")
    assert s.breakaway == N


def test_13_the_breakaway_and_pile_do_not_carry_over_into_the_next_period():
    s = new_state(period_order([], tail=["JC", "2S"]))
    play_in_deck_order(s, 51)
    assert s.breakaway == N and s.top == CODES.index("JC")
    events = play(s, D, "2S")
    assert "period" in [e.kind for e in events]
    assert s.period == 2
    assert s.breakaway == NOBODY and s.pile == [] and s.top == -1
    assert s.dealer == N  # the former non-dealer deals period 2
    assert s.to_act() == [D]  # and the new non-dealer (the former dealer) leads


def test_14_after_three_periods_more_goals_wins():
    # Seat 0 deals periods 1 and 3, seat 1 deals period 2; the dealer scores each time.
    p1 = period_order(dealer_goals(["A", "2", "3", "4", "5", "6"]))      # seat 0: 3
    p2 = period_order(dealer_goals(["A", "2", "3", "4", "5", "6"]))      # seat 1: 3
    p3 = period_order(dealer_goals(["A", "2", "3", "4"]))                # seat 0: 2
    s = new_state(p1, p2, p3)
    play_period(s)
    assert s.goals == [3, 0] and s.period == 2 and s.dealer == 1
    play_period(s)
    assert s.goals == [3, 3] and s.period == 3 and s.dealer == 0
    events = play_period(s)
    assert s.goals == [5, 3]
    assert s.is_over() and s.winner == 0 and s.period == 3
    assert events[-1].kind == "game_over"
    r = s.result()
    assert r.winner == 0 and r.scores == (5.0, 3.0) and r.ranks == (1, 2)


def test_15_a_tie_after_three_periods_goes_to_overtime_first_goal_wins():
    p1 = period_order(dealer_goals(["A", "2", "3", "4"]))                    # seat 0: 2
    p2 = period_order(dealer_goals(["A", "2", "3", "4", "5", "6", "7", "8"]))  # seat 1: 4
    p3 = period_order(dealer_goals(["A", "2", "3", "4"]))                    # seat 0: 2
    p4 = period_order(["9C", "2C", "2D", "3C", "3D"])  # N (seat 0) scores in period 4
    s = new_state(p1, p2, p3, p4)
    for _ in range(3):
        play_period(s)
    assert s.goals == [4, 4] and not s.is_over()
    assert s.period == 4 and s.dealer == 1 and s.to_act() == [0]
    assert s.hands[0].bit_count() == s.hands[1].bit_count() == 4  # 4-card deals
    assert s.view(0)["overtime"] is True and s.view(0)["stock"] == 44
    play_in_deck_order(s, 3)
    assert s.breakaway == 0  # N (seat 0) matched D's 2C
    play_in_deck_order(s, 2)
    assert s.goals == [5, 4] and s.is_over() and s.winner == 0
    assert list(s.to_act()) == [] and s.legal_actions(0) == []


def test_16_a_goalless_overtime_period_is_followed_by_another():
    quiet = [period_order([]) for _ in range(4)]
    p5 = period_order(dealer_goals(["A", "2"]))  # D of period 5 (seat 0) scores
    s = new_state(*quiet, p5)
    for _ in range(3):
        play_period(s)
    assert s.goals == [0, 0] and s.period == 4 and s.dealer == 1
    # Overtime deals: five of 4 each, then 6 each.
    sizes = [s.hands[0].bit_count()]
    deal = s.deal
    while s.period == 4:
        play_in_deck_order(s, 1)
        if s.period == 4 and s.deal != deal:
            deal = s.deal
            sizes.append(s.hands[0].bit_count())
            assert s.hands[1].bit_count() == sizes[-1]
    assert sizes == [4, 4, 4, 4, 4, 6]
    assert s.period == 5 and s.dealer == 0 and s.goals == [0, 0] and not s.is_over()
    assert s.hands[0].bit_count() == 4 and s.to_act() == [1]
    play_in_deck_order(s, 4)
    assert s.is_over() and s.winner == 0 and s.goals == [1, 0]
