"""The numbered test scenarios of hood_politix.md §8, as exact tests.

Seats A, B, C, D are 0, 1, 2, 3; D deals, so A is first to act. The deck is
stacked for the start card; ``arrange`` then puts exactly the named cards in the
hands and on top of the draw pile (cards only move between hands and the draw
pile, so the card count is unchanged).
"""

from __future__ import annotations

import random

import pytest

from spieltisch.core import CLOCK, IllegalAction, Verdict, get_spec
from spieltisch.core.cards import cards_of
from spieltisch.games.hood_politix import cards as C
from spieltisch.games.hood_politix.state import FINISHED, IN, PENDING, HoodPolitixState

A, B, CC, D = 0, 1, 2, 3
FILLERS = {A: ["O1", "O2", "O3", "O4", "O5", "O6"], B: ["O7", "O8", "O9", "O10", "O1", "O2"],
           CC: ["O3", "O4", "O5", "O6", "O7", "O8"], D: ["O9", "O10", "Y1", "Y2", "Y3", "Y4"]}


def new_table(start: str, hands: dict[int, list[str]], draw_top: tuple[str, ...] = (),
              exact: tuple[int, ...] = (), **options) -> HoodPolitixState:
    """Seats in ``exact`` hold exactly the named cards; the others are padded to 6."""
    game = get_spec("hood_politix").configure(4, {"first_dealer": 3, **options})
    start_id = C.first_of_kind(C.ALL_CARDS, C.KIND_INDEX[start])
    deal = [c for c in C.CARD_CODES if c != C.CARD_CODES[start_id]][:24]
    s = game.new_state(seed=1, deck=deal + [C.CARD_CODES[start_id]])
    assert s.top == C.KIND_INDEX[start] and s.due == A
    full = {}
    for seat in range(4):
        want = list(hands.get(seat, []))
        if seat not in exact:
            want += FILLERS[seat][: max(0, 6 - len(want))]
        full[seat] = want
    arrange(s, full, draw_top)
    return s


def arrange(s: HoodPolitixState, hands: dict[int, list[str]], draw_top=()) -> None:
    loose = list(s.draw)
    for seat in hands:
        loose += cards_of(s.hands[seat])

    def take(code: str) -> int:
        kind = C.KIND_INDEX[code.upper()]
        for i, c in enumerate(loose):
            if C.KIND_OF[c] == kind:
                return loose.pop(i)
        raise AssertionError(f"no {code} left to arrange")

    for seat, codes in hands.items():
        s.hands[seat] = sum(1 << take(c) for c in codes)
    top = [take(c) for c in draw_top]
    s.draw = loose + top[::-1]
    s.buried = 0


def act(s: HoodPolitixState, seat: int, text: str):
    return s.apply(seat, s.game.action_from_json(text))


def size(s: HoodPolitixState, seat: int) -> int:
    return s.hands[seat].bit_count()


def holds(s: HoodPolitixState, seat: int, code: str) -> bool:
    return bool(s.hands[seat] & C.KIND_MASK[C.KIND_INDEX[code]])


def verdict(s: HoodPolitixState, seat: int, text: str) -> Verdict:
    return s.check(seat, s.game.action_from_json(text)).verdict


def test_1_colour_match():
    s = new_table("G7", {A: ["G3"]})
    act(s, A, "play G3")
    assert s.to_act() == (B,) and s.top == C.KIND_INDEX["G3"]


def test_2_value_match_changes_colour():
    s = new_table("G7", {A: ["Y7"]})
    act(s, A, "play Y7")
    assert s.colour == C.COLOURS.index("Y") and s.to_act() == (B,)


def test_3_wrong_card_is_a_fault():
    s = new_table("G7", {A: ["YDU"]})
    assert verdict(s, A, "play YDU") is Verdict.FAULTY
    act(s, A, "play YDU")
    assert holds(s, A, "YDU") and size(s, A) == 8
    assert s.to_act() == (A,) and s.top == C.KIND_INDEX["G7"]


def test_4_throw_in_identical_card():
    s = new_table("P9", {A: ["P4"], CC: ["P4"]})
    act(s, A, "play P4")
    assert s.to_act() == (B,) and CC in s.out_of_turn()
    act(s, CC, "throw P4")
    assert not holds(s, CC, "P4") and size(s, CC) == 5
    assert s.to_act() == (B,) and s.top == C.KIND_INDEX["P4"]


def test_5_late_throw_in_is_a_fault():
    s = new_table("P9", {A: ["P4"], B: ["P9"], CC: ["P4"]})
    act(s, A, "play P4")
    act(s, B, "play P9")
    assert verdict(s, CC, "throw P4") is Verdict.FAULTY
    act(s, CC, "throw P4")
    assert holds(s, CC, "P4") and size(s, CC) == 8
    assert s.to_act() == (CC,) and s.top == C.KIND_INDEX["P9"]


def test_6_deuce_stack_accepted():
    s = new_table("G7", {A: ["GDU"], B: ["YDU"]})
    act(s, A, "play GDU")
    act(s, B, "play YDU")
    assert s.stack == 4 and s.to_act() == (CC,)
    act(s, CC, "accept")
    assert size(s, CC) == 10
    assert s.to_act() == (D,) and s.phase == 0 and s.top == C.KIND_INDEX["YDU"]
    assert not s.pause


def test_7_in_yo_face_on_deuce_then_respekt():
    s = new_table("G7", {A: ["GDU"], B: ["PIY"]})
    act(s, A, "play GDU")
    act(s, B, "play PIY")
    assert s.stack == 7 and s.stack_iyf and s.to_act() == (CC,)
    act(s, CC, "accept")
    assert size(s, CC) == 13
    assert s.pause and s.to_act() == (CC,)
    assert [d.action for d in s.deadlines()] == [C.EXPIRE_ID[C.T_RESPEKT]]


def test_8_no_deuce_on_in_yo_face():
    s = new_table("G7", {A: ["GIY"], B: ["GDU"]})
    act(s, A, "play GIY")
    assert verdict(s, B, "play GDU") is Verdict.FAULTY
    act(s, B, "play GDU")
    assert holds(s, B, "GDU") and size(s, B) == 8
    assert s.to_act() == (B,) and s.stack == 5


def test_9_five_o_cancels_the_stack():
    s = new_table("G7", {A: ["OIY"], B: ["Y50"]})
    act(s, A, "play OIY")
    act(s, B, "play Y50")
    assert s.stack == 0 and s.colour == C.COLOURS.index("Y") and s.to_act() == (CC,)
    assert [size(s, x) for x in range(4)] == [5, 5, 6, 6]


def test_10_payback_returns_the_stack():
    s = new_table("G7", {A: ["GDU"], B: ["GPB"]})
    act(s, A, "play GDU")
    act(s, B, "play GPB")
    assert s.direction == -1 and s.to_act() == (A,) and s.stack == 2
    act(s, A, "accept")
    assert size(s, A) == 7 and s.to_act() == (D,)


def test_11_busted_skips_and_out_of_turn_is_a_fault():
    s = new_table("G7", {A: ["GBU"], B: ["Y50"]})
    act(s, A, "play GBU")
    assert s.to_act() == (CC,)
    assert verdict(s, B, "play Y50") is Verdict.FAULTY
    act(s, B, "play Y50")
    assert holds(s, B, "Y50") and size(s, B) == 8 and s.to_act() == (CC,)


def test_12_pimp_slap_accepted():
    s = new_table("G7", {A: ["GPS"]})
    act(s, A, "play GPS")
    assert s.to_act() == (B,)
    act(s, B, "accept")
    assert [size(s, x) for x in range(4)] == [5, 9, 9, 9]
    assert s.to_act() == (B,) and s.phase == 0


def test_13_pimp_slap_paid_back():
    s = new_table("G7", {A: ["GPS"], B: ["GPB"]})
    act(s, A, "play GPS")
    act(s, B, "play GPB")
    assert [size(s, x) for x in range(4)] == [8, 5, 9, 9]
    assert s.direction == -1 and s.to_act() == (A,)


def test_14_deal_swaps_and_five_o_blocks():
    s = new_table("G7", {A: ["GDL", "G1"], CC: ["Y9"]})
    a_rest = s.hands[A] & ~C.KIND_MASK[C.KIND_INDEX["GDL"]]
    c_hand = s.hands[CC]
    act(s, A, "play GDL 2")
    assert s.hands[A] == c_hand and s.hands[CC] == a_rest and s.to_act() == (B,)

    s = new_table("G7", {A: ["GDL"], B: ["Y50"]})
    a_rest = s.hands[A] & ~C.KIND_MASK[C.KIND_INDEX["GDL"]]
    act(s, A, "play GDL 1")
    assert s.to_act() == (B,)
    act(s, B, "play Y50")
    assert s.hands[A] == a_rest and size(s, B) == 5 and s.to_act() == (CC,)


def test_15_missed_mic_check():
    for announced in (False, True):
        s = new_table("G7", {A: ["G3", "G4"], B: ["G5"]}, exact=(A,))
        act(s, A, "play G3 mic" if announced else "play G3")
        act(s, B, "play G5")
        if announced:
            assert verdict(s, D, "accuse 0 mic-check") is Verdict.FAULTY
            act(s, D, "accuse 0 mic-check")
            assert size(s, D) == 8 and size(s, A) == 1
        else:
            assert D in s.out_of_turn()
            act(s, D, "accuse 0 mic-check")
            assert size(s, A) == 3 and size(s, D) == 6
            # A repeat accusation of the penalised fault is ignored (§9.4).
            assert verdict(s, CC, "accuse 0 mic-check") is Verdict.ILLEGAL


def test_16_missed_mic_drop():
    s = new_table("G7", {A: ["G3"]}, exact=(A,))
    act(s, A, "play G3")
    assert s.status[A] == FINISHED and s.finish_order == [A]
    act(s, CC, "accuse 0 mic-drop")
    assert size(s, A) == 2 and s.status[A] == IN and s.finish_order == []
    assert s.to_act() == (B,)


def test_17_pending_finish_and_rejoin():
    s = new_table("G7", {A: ["GDU"], B: ["GPB"]}, exact=(A,))
    act(s, A, "play GDU mic")
    assert s.status[A] == PENDING and s.to_act() == (B,)
    act(s, B, "play GPB")
    assert s.status[A] == IN and s.stack == 2 and s.to_act() == (A,)
    act(s, A, "accept")
    assert size(s, A) == 2 and s.finish_order == []


def test_18_three_second_rule():
    s = new_table("G7", {A: ["G3"]})
    act(s, A, "play G3")
    # A claim at 2 s (before the timer expired) is false.
    assert verdict(s, CC, "accuse 1 timeout") is Verdict.FAULTY
    act(s, CC, "accuse 1 timeout")
    assert size(s, CC) == 8
    # 4 s: the clock applies the expired timer; now the claim is valid.
    (deadline,) = s.deadlines()
    assert deadline.seat == CLOCK and deadline.seconds == 3.0
    s.apply(CLOCK, deadline.action)
    assert s.expired and s.deadlines() == ()
    act(s, CC, "accuse 1 timeout")
    assert size(s, B) == 8 and s.to_act() == (B,)
    (deadline,) = s.deadlines()
    assert deadline.since == s.move_number and not s.expired


def test_19_respekt_runs_out():
    """The spec's B is C here (A and B make the stack of 7): C draws 7, never releases."""
    s = new_table("G7", {A: ["GDU"], B: ["PIY"]})
    act(s, A, "play GDU")
    act(s, B, "play PIY")
    act(s, CC, "accept")
    assert s.pause and s.to_act() == (CC,)
    (deadline,) = s.deadlines()
    assert deadline.seat == CLOCK and deadline.seconds == 30.0
    s.apply(CLOCK, deadline.action)
    assert size(s, CC) == 6 + 7 + 2 and not s.pause and s.to_act() == (D,)


def test_20_places_and_next_dealer():
    s = new_table("G7", {A: ["G3", "G9"], B: ["Y5", "Y6"], CC: ["G4"], D: ["G5", "G8"]},
                  draw_top=("O1", "O2", "O3", "O4"), exact=(A, B, CC, D))
    act(s, A, "play G3 mic")
    act(s, B, "draw")
    act(s, CC, "play G4 mic")
    assert s.finish_order == [CC]
    act(s, D, "play G5 mic")
    act(s, A, "play G9 mic")
    act(s, B, "draw")
    events = act(s, D, "play G8 mic")
    end = next(e for e in events if e.kind == "round_end")
    assert end.public["order"] == [CC, A, D, B]
    assert end.public["points"] == [2, 4, 1, 3]
    assert s.scores == [2, 4, 1, 3] and s.round == 2 and s.dealer == B
    assert s.to_act() == (CC,)


def test_illegal_attempts_cost_nothing():
    s = new_table("G7", {A: ["G3"]})
    with pytest.raises(IllegalAction):
        act(s, A, "play Y9")  # not in the hand: rejected, no penalty
    act(s, CC, "politix")
    assert s.to_act() == (CC,)
    with pytest.raises(IllegalAction):
        act(s, A, "play G3")  # paused (§9.5)
    with pytest.raises(IllegalAction):
        act(s, CC, "politix")  # one call per round
    act(s, CC, "end politix")
    assert [size(s, x) for x in range(4)] == [6, 6, 6, 6]
    act(s, A, "play G3")
    assert s.to_act() == (B,)


def test_a_search_copy_leaves_out_the_events_of_plays_and_draws():
    """Search copies (``Observation.sample_state``) do not build the events of plays,
    draws and the other moves of a search (``State.record_events``); the real game does."""
    from spieltisch.bots.base import Observation

    s = new_table("G7", {A: ["G3"], B: ["Y1"]}, exact=(B,))
    play, draw = s.game.action_from_json("play G3"), s.game.action_from_json("draw")
    copy = Observation(s, A).sample_state(random.Random(1))
    assert [e.kind for e in s.apply(A, play)] == ["play"]
    assert copy.apply(A, play) == []
    assert s.view(A) == copy.view(A)
    copy = Observation(s, B).sample_state(random.Random(1))  # B holds only the Y1
    assert [e.kind for e in s.apply(B, draw)] == ["draw"]
    assert copy.apply(B, draw) == []
    assert s.view(B)["hand_sizes"] == copy.view(B)["hand_sizes"]
