"""The Snitch exchange as two actions: ``take`` (private, no move) then ``give``."""

from __future__ import annotations

import random

import pytest

from spieltisch.core import CLOCK, Event, IllegalAction, Verdict
from spieltisch.games.hood_politix import cards as C
from spieltisch.games.hood_politix.terms import FINISHED, Phase

from .test_scenarios import CC, A, B, D, act, holds, new_table, size


def snitched():
    """A has snitched C (A: G1 G2 left, C: Y9 PIY); A is to resolve it."""
    s = new_table("G7", {A: ["GSN", "G1", "G2"], CC: ["Y9", "PIY"]}, exact=(A, CC))
    act(s, A, "play GSN 2")
    assert s.phase is Phase.SNITCH and s.to_act() == (A,)
    return s


def why(s, seat, text, verdict=Verdict.ILLEGAL):
    c = s.judge(seat, s.game.action_from_json(text))
    assert c.verdict is verdict
    return c.reason


def texts(s, seat):
    return sorted(s.game.action_to_json(a) for a in s.legal_actions(seat))


def test_take_then_give_exchanges_one_card_each():
    s = snitched()
    assert texts(s, A) == ["politix", "reveal PIY", "reveal Y9", "take PIY", "take Y9"]
    assert act(s, A, "take PIY") == []
    assert texts(s, A) == ["give G1", "give G2", "politix"]
    events = act(s, A, "give G1")
    seen = {"took": "PIY", "gave": "G1"}
    assert events == [Event("exchange", A, {"target": CC}, {A: seen, CC: seen})]
    assert C.codes(s.hands[A]) == ["G2", "PIY"] and C.codes(s.hands[CC]) == ["G1", "Y9"]
    assert s.phase is Phase.TURN and s.to_act() == (B,) and s.snitch_take == -1
    # A knows C's whole hand, C knows A holds the In Yo Face, the others nothing.
    assert s.view(A)["known"] == {"2": ["G1", "Y9"]}
    assert s.view(CC)["known"] == {"0": ["PIY"]}
    assert s.view(B)["known"] == {} and s.view(D)["known"] == {}
    assert s.deadlines()[0].since == s.move_number  # the move timer restarts on give


def test_the_take_is_private_and_no_move():
    s = snitched()
    before = {seat: s.view(seat) for seat in (B, CC, D, None)}
    mine = s.view(A)
    assert mine["snitch_take"] is None
    deadlines = s.deadlines()
    others = {seat: s.legal_actions(seat) for seat in (B, CC, D)}
    act(s, A, "take PIY")
    assert {seat: s.view(seat) for seat in (B, CC, D, None)} == before
    assert s.view(A) == {**mine, "snitch_take": "PIY"}
    assert s.deadlines() == deadlines  # the move timer runs on
    assert {seat: s.legal_actions(seat) for seat in (B, CC, D)} == others
    assert s.phase is Phase.SNITCH and s.to_act() == (A,)


def test_out_of_turn_actions_in_between_keep_the_take():
    s = snitched()
    act(s, A, "take PIY")
    # A timeout claim: A draws 2 and still gives; a Politix pause comes and goes.
    s.apply(CLOCK, s.deadlines()[0].action)
    act(s, B, "accuse 0 timeout")
    assert size(s, A) == 4 and s.to_act() == (A,)
    act(s, D, "politix")
    assert s.legal_actions(A) == []
    assert "paused" in why(s, A, "give G1")
    act(s, D, "end politix")
    # C's false accusation: C draws 2, which A sees too (it looks at C's hand).
    act(s, CC, "accuse 1 mic-check")
    assert size(s, CC) == 4
    assert s.view(A)["snitch_look"] == C.codes(s.hands[CC])
    assert s.snitch_take == C.KIND_INDEX["PIY"] and s.view(A)["snitch_take"] == "PIY"
    act(s, A, "give G2")
    assert holds(s, A, "PIY") and holds(s, CC, "G2") and s.to_act() == (B,)


def test_illegal_orders():
    s = snitched()
    assert "take one of their cards first" in why(s, A, "give G1")
    assert "no Snitch of yours" in why(s, B, "take Y9")
    assert "holds no G5" in why(s, A, "take G5")
    act(s, A, "take Y9")
    assert "give one of your cards" in why(s, A, "take PIY")
    assert "give one of your cards" in why(s, A, "reveal PIY")
    assert why(s, A, "give PIY") == "you hold no PIY"
    # Playing a card instead is a fault (§3), as before the take.
    assert why(s, A, "play G1", Verdict.FAULTY) == \
        "resolve your Snitch first (give one of your cards for their Y9)"
    act(s, A, "give G1")
    assert "no Snitch of yours" in why(s, A, "give G2")
    assert "no Snitch of yours" in why(s, A, "take PIY")


def test_a_reasons_example_is_a_card_the_player_sees():
    """The example in a Snitch reason names a card of the hand it is about, never a fixed
    code that could be a card hidden from the player."""
    s = new_table("G7", {A: ["GSN", "P5", "O3"], CC: ["Y9", "PIY"]}, exact=(A, CC))
    act(s, A, "play GSN 2")
    assert why(s, A, "give P5") == "take one of their cards first ('take Y9'), then give " \
        "one of yours"
    act(s, A, "take PIY")
    assert why(s, A, "take Y9") == "you are taking their PIY: give one of your cards for " \
        "it ('give O3')"


def test_action_texts():
    g = snitched().game
    assert g.action_to_json(C.TAKE_ID[C.KIND_INDEX["PIY"]]) == "take PIY"
    assert g.action_from_json("give g1") == C.GIVE_ID[C.KIND_INDEX["G1"]]
    with pytest.raises(IllegalAction, match="'take PIY'.*'give G1'"):
        g.action_from_json("exchange PIY G1")
    assert C.NUM_ACTIONS == 650  # 586, plus throw-ins of the 32 action kinds (a fault)


def test_finished_snitch_player_only_reveals():
    s = new_table("G7", {A: ["GSN"], CC: ["Y9"]}, exact=(A, CC))
    act(s, A, "play GSN 2 mic")
    assert s.status[A] == FINISHED and s.phase is Phase.SNITCH
    assert texts(s, A) == ["reveal Y9"]
    assert "no card to give" in why(s, A, "take Y9")


def test_determinisation_keeps_the_take_for_the_snitch_player_only():
    s = snitched()
    act(s, A, "take PIY")
    rng = random.Random(3)
    for _ in range(5):
        mine = s.determinise(A, rng)
        assert mine.snitch_take == s.snitch_take and mine.hands[CC] == s.hands[CC]
        assert mine.view(A) == s.view(A) and mine.legal_actions(A) == s.legal_actions(A)
        for seat in (B, CC, D):
            other = s.determinise(seat, rng)
            assert other.snitch_take == -1 and other.view(seat) == s.view(seat)
