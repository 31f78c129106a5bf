"""The numbered test scenarios of hood_politix.md §8, as exact tests.

Seats A, B, C, D are 0, 1, 2, 3; D deals, so A is first to act. Every table is set up
as a position (``docs/positions.md``): ``position`` writes one from the start card, the
named hands (padded to 6 unless ``exact``) and the top of the draw pile; the rest of the
cards form the draw pile below them.
"""

from __future__ import annotations

import random
from typing import Any, cast

import pytest

from spieltisch import load_position
from spieltisch.core import CLOCK, IllegalAction, Verdict
from spieltisch.games.hood_politix import cards as C
from spieltisch.games.hood_politix.state import HoodPolitixState
from spieltisch.games.hood_politix.terms import FINISHED, IN, PENDING, Phase
from spieltisch.testing import act, edited

A, B, CC, D = 0, 1, 2, 3
FILLERS = {A: ["O1", "O2", "O3", "O4", "O5", "O6"], B: ["O7", "O8", "O9", "O10", "O1", "O2"],
           CC: ["O3", "O4", "O5", "O6", "O7", "O8"], D: ["O9", "O10", "Y1", "Y2", "Y3", "Y4"]}


def position(start: str = "G7", hands: dict[int, list[str]] | None = None,
             draw_top: tuple[str, ...] = (), exact: tuple[int, ...] = (), players: int = 4,
             options: dict[str, Any] | None = None, seats: dict[int, dict[str, Any]] | None
             = None, **state: Any) -> dict[str, Any]:
    """A position of round 1 just dealt by the last seat: ``start`` on the discard pile, the
    seat after the dealer due. ``seats`` adds fields to seats, ``state`` replaces fields."""
    pool = list(C.CARD_CODES)  # physical codes, so that the rest of the pile can be listed

    def take(code: str) -> str:
        kind = C.KIND_INDEX[code.upper()]
        for i, card in enumerate(pool):
            if C.KIND_OF[i] == kind and card:
                pool[i] = ""
                return card
        raise AssertionError(f"no {code} left to deal")

    dealer = players - 1
    discard = [take(start)]
    seat_list = []
    for seat in range(players):
        want = list((hands or {}).get(seat, []))
        if seat not in exact:
            want += FILLERS[seat][: max(0, 6 - len(want))]
        seat_list.append({"hand": [take(c) for c in want], **(seats or {}).get(seat, {})})
    draw = [take(c) for c in draw_top] + [c for c in pool if c]
    body = {"round": 1, "dealer": dealer, "seats": seat_list, "draw": draw,
            "discard": discard, "phase": "turn", "due": (dealer + 1) % players}
    return {"version": 1, "game": "hood_politix", "players": players,
            "options": {"first_dealer": dealer, **(options or {})}, "chance": {"seed": 1},
            "state": {**body, **state}}


def new_table(start: str, hands: dict[int, list[str]], draw_top: tuple[str, ...] = (),
              exact: tuple[int, ...] = (), **options) -> HoodPolitixState:
    """Seats in ``exact`` hold exactly the named cards; the others are padded to 6."""
    s = load_position(position(start, hands, draw_top, exact, options=options))
    assert isinstance(s, HoodPolitixState)
    assert s.top == C.KIND_INDEX[start] and s.due == A
    return s


def arrange(s: HoodPolitixState, hands: dict[int, list[str]], draw_top=()) -> HoodPolitixState:
    """``s`` again with exactly these hands and draw pile top, through its position
    (``spieltisch.testing.edited``): the named cards come from those hands and the draw
    pile, which takes the rest (for tests that already hold a state; new tables are set up
    with ``position``)."""
    def change(body: dict[str, Any]) -> None:
        loose = list(body["draw"])
        for seat in hands:
            loose += body["seats"][seat]["hand"]

        def take(code: str) -> str:
            for i, card in enumerate(loose):
                if C.KIND_OF[s.game.card_id(card)] == C.KIND_INDEX[code.upper()]:
                    return loose.pop(i)
            raise AssertionError(f"no {code} left to arrange")

        for seat, codes in hands.items():
            body["seats"][seat]["hand"] = [take(c) for c in codes]
        body["draw"] = [take(c) for c in draw_top] + loose
        body["buried"] = 0

    return edited(s, change)


def size(s: HoodPolitixState, seat: int) -> int:
    """How many cards ``seat`` holds (everyone sees it)."""
    return s.view(None)["hand_sizes"][seat]


def holds(s: HoodPolitixState, seat: int, code: str) -> bool:
    """Whether ``seat`` holds a card of kind ``code`` (its own view)."""
    return code.upper() in s.view(seat)["hand"]


def verdict(s: HoodPolitixState, seat: int, text: str) -> Verdict:
    return s.judge(seat, s.game.action_from_json(text)).verdict


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
    assert s.to_act() == (D,) and s.phase is Phase.TURN and s.top == C.KIND_INDEX["YDU"]
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
    assert s.to_act() == (B,) and s.phase is Phase.TURN


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


# -- departures from the spec closed (issue 19) -----------------------------------------

def texts(s: HoodPolitixState, seat: int) -> list[str]:
    return sorted(s.game.action_to_json(a) for a in s.legal_actions(seat))


def test_5_3_the_move_timer_is_frozen_during_a_pause():
    """A plays at t=0; C throws in at t=2 (the timer restarts); A calls Politix at t=4; the
    pause ends at t=64; at t=65.5 C's timeout claim on B is valid (3.5 s of B's move). The
    engine keeps no clock: the timer leaves ``deadlines`` for ``frozen_timers`` and comes
    back with the same ``since`` (the runners' clocks: test_realtime, tests/server)."""
    s = new_table("G7", {A: ["G3"], CC: ["G3"]})
    act(s, A, "play G3")
    act(s, CC, "throw G3")
    (timer,) = s.deadlines()
    assert timer.since == s.move_number == 2 and timer.seconds == 3.0
    act(s, A, "politix")
    assert s.frozen_timers() == (timer,)
    (pause,) = s.deadlines()
    assert pause.action == C.EXPIRE_ID[C.T_POLITIX] and pause.seconds == 60.0
    s.apply(CLOCK, pause.action)
    assert s.deadlines() == (timer,) and s.frozen_timers() == () and not s.pause
    s.apply(CLOCK, timer.action)  # the runner resumes it: 1 s left, gone at t=65
    act(s, CC, "accuse 1 timeout")
    assert size(s, B) == 8 and size(s, CC) == 5 and s.to_act() == (B,)


def test_5_3_a_timer_that_ran_out_before_the_pause_stays_out():
    """The timer resumes with the time it had left, none here; timeout claims wait for
    the pause to end (§9.5: rejected, no penalty)."""
    s = new_table("G7", {A: ["G3"]})
    s.apply(CLOCK, s.deadlines()[0].action)
    act(s, D, "politix")
    assert s.frozen_timers() == ()
    assert verdict(s, CC, "accuse 0 timeout") is Verdict.ILLEGAL
    act(s, D, "end politix")
    assert s.expired and s.deadlines() == ()
    act(s, CC, "accuse 0 timeout")
    assert size(s, A) == 8 and size(s, CC) == 6


def test_5_3_the_respekt_pause_freezes_the_timer_too():
    s = new_table("G7", {A: ["GDU"], B: ["PIY"]})
    act(s, A, "play GDU")
    act(s, B, "play PIY")
    act(s, CC, "accept")
    (timer,) = s.frozen_timers()
    assert timer.since == s.move_number and timer.reason == "seat 3 is too slow"
    act(s, CC, "release")
    assert s.deadlines() == (timer,) and s.to_act() == (D,)


def test_5_1_throwing_in_an_action_card_is_a_fault():
    """§3, §5.1: the card goes back and the thrower draws 2, like a wrong number card."""
    s = new_table("G7", {CC: ["ODU", "Y4"]})
    throw = s.game.action_from_json("throw ODU")
    assert s.game.action_to_json(throw) == "throw ODU"
    assert s.judge(CC, throw).reason == "only number cards can be thrown in"
    events = act(s, CC, "throw ODU")
    assert [e.kind for e in events] == ["fault", "draw"]
    assert holds(s, CC, "ODU") and size(s, CC) == 8
    assert s.to_act() == (A,) and s.top == C.KIND_INDEX["G7"]
    assert verdict(s, CC, "throw Y4") is Verdict.FAULTY  # a number card that is not G7
    act(s, CC, "throw Y4")
    assert holds(s, CC, "Y4") and size(s, CC) == 10


def finished_d(**state: Any) -> HoodPolitixState:
    """D has finished (1st); A holds G3 G4, B a G5."""
    return cast(HoodPolitixState, load_position(
        position("G7", {A: ["G3", "G4"], B: ["G5"]}, exact=(A, D), finish_order=[D],
                 seats={D: {"status": "finished"}}, **state)))


def test_5_2_a_finished_player_may_accuse():
    s = finished_d()
    assert D not in s.out_of_turn() and s.legal_actions(D) == []
    act(s, A, "play G3")
    act(s, B, "play G5")
    assert D in s.out_of_turn() and texts(s, D) == ["accuse 0 mic-check"]
    act(s, D, "accuse 0 mic-check")
    assert size(s, A) == 3 and size(s, D) == 0 and s.status[D] == FINISHED


def test_5_2_a_finished_judas_is_back_in_the_round():
    """[DECISION] A false accusation costs a finished player 2 cards too; holding cards,
    it is back in the round and gives up its place (as after a missed Mic Drop)."""
    s = finished_d()
    assert s.judge(D, s.game.action_from_json("accuse 1 mic-drop")).verdict is Verdict.FAULTY
    events = act(s, D, "accuse 1 mic-drop")
    assert [e.kind for e in events] == ["fault", "draw", "rejoin"]
    assert size(s, D) == 2 and s.status[D] == IN and s.finish_order == []
    assert s.to_act() == (A,)


def test_9_4_a_penalised_fault_stays_on_record():
    """A repeat accusation is ignored as long as the fault is on record, also after later
    moves; the record ends when the seat can commit that fault anew."""
    s = new_table("G7", {A: ["G3", "G4"], B: ["G5"], CC: ["G6"]}, exact=(A,))
    act(s, A, "play G3")
    act(s, B, "play G5")
    act(s, D, "accuse 0 mic-check")
    act(s, CC, "play G6")
    assert verdict(s, B, "accuse 0 mic-check") is Verdict.ILLEGAL
    assert s.judge(B, s.game.action_from_json("accuse 0 mic-check")).reason == \
        "that fault has already been penalised (ignored)"
    with pytest.raises(IllegalAction):
        act(s, B, "accuse 0 mic-check")
    assert [size(s, x) for x in range(4)] == [3, 5, 5, 6]
    # A timeout: a repeat claim within the fresh 3 s is ignored; once they pass, valid.
    s.apply(CLOCK, s.deadlines()[0].action)
    act(s, A, "accuse 3 timeout")
    assert size(s, D) == 8
    assert verdict(s, B, "accuse 3 timeout") is Verdict.ILLEGAL
    s.apply(CLOCK, s.deadlines()[0].action)
    assert verdict(s, B, "accuse 3 timeout") is Verdict.LEGAL
    act(s, B, "accuse 3 timeout")
    assert size(s, D) == 10 and size(s, B) == 5


def test_5_4_a_false_mic_check_is_a_permitted_bluff():
    """Accepted, no penalty, nothing changes: an announcement with nothing to announce,
    and a ``mic`` flag with more than two cards."""
    s = new_table("G7", {A: ["G3", "G4"], B: ["G5"]}, exact=(A,))
    before = s.view(None)
    assert s.judge(B, s.game.action_from_json("mic check")).verdict is Verdict.LEGAL
    assert [e.full() for e in act(s, B, "mic check")] == \
        [{"kind": "mic_check", "seat": B, "bluff": True}]
    assert s.view(None) == before
    act(s, A, "play G3")  # a real duty: A is down to one card without announcing it
    assert s.view(None)["mic_check_due"] == A
    act(s, D, "mic check")  # D's bluff does not announce for A
    assert s.view(None)["mic_check_due"] == A
    events = act(s, B, "play G5 mic")  # six cards: the flag is a bluff
    assert events[0].public == {"card": "G5", "mic": "bluff"}
    assert size(s, B) == 5 and s.to_act() == (CC,)
    assert s.view(None)["mic_check_due"] is None and s.mic_duty == -1
    assert s.view(None)["open_faults"] == [{"seat": A, "fault": "mic-check"}]
    assert [size(s, x) for x in range(4)] == [1, 5, 6, 6]


def test_politix_calls_are_limited_per_round():
    """[DECISION] ``politix_calls`` (1 by default) per player and round: no stalling."""
    s = new_table("G7", {A: ["G3"]}, politix_calls=2)
    for _ in range(2):
        act(s, B, "politix")
        act(s, B, "end politix")
    assert s.judge(B, C.POLITIX).reason == "you have no Politix call left this round"


def test_3_after_a_fault_the_offender_may_play_the_penalty_cards():
    """§3: the offender draws 2; its legal plays are those of the hand with them (the
    judge lists legal plays while it judges the fault, before the draw)."""
    from spieltisch.core import new_game

    s = new_game("hood_politix", 4, seed=0)
    game = s.game
    events = s.apply(0, game.action_from_json("play G2 mic"))
    assert [e.kind for e in events] == ["fault", "draw"]
    legal = [game.action_to_json(a) for a in s.legal_actions(0)]
    assert legal == [game.action_to_json(a) for a in s.clone().legal_actions(0)] == \
        ["play G3", "play O2", "play PIY", "politix"]
    assert [e.kind for e in s.apply(0, game.action_from_json("play G3"))] == ["play"]
