"""Pixmit positions (docs/positions.md): hand-written positions load and play exactly,
and every contradiction is refused with a message naming the field."""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from spieltisch.core import ConfigError, get_spec
from spieltisch.games.pixmit import cards as C

from .helpers import C_, A, B, D, act, legal_texts, load, numbers, position

#: The documented example (docs/positions.md): 3 players, seed 3, after seat 0's offer of
#: 05 to seat 2 was vetoed (0 drew 06, 05 went under the stack) and seat 1 offered 10 to
#: seat 0, announced as TK; written by ``position()``, its chance shortened to the seed.
EXAMPLE: dict[str, Any] = {
    "format": "spieltisch-position", "version": 1, "game": "pixmit", "players": 3,
    "options": {"mode": "pro", "start_player": 0}, "move": 7, "chance": {"seed": 3},
    "state": {
        "phase": "response", "round": 1, "start": 0, "active": 1,
        "target": 0, "offer": ["10"], "claims": ["TK"],
        "seats": [{"hand": ["06", "31"], "known": ["05"], "vetoes": 0},
                  {"hand": ["02", "10"], "known": [], "vetoes": 0},
                  {"hand": ["23", "26"], "known": [], "vetoes": 1}],
        "stack_top_first": ["15", "27", "13", "14", "04", "25", "11", "24", "17", "22", "07",
                            "08", "18", "32", "28", "01", "29", "03", "19", "21", "33", "20",
                            "30", "12", "09", "16", "05"],
        "reveals": [], "caller": None, "hunt": [],
        "log": [{"kind": "offer", "seat": 0, "target": 2, "k": 1},
                {"kind": "veto", "seat": 2},
                {"kind": "veto_draw", "seat": 0, "k": 1},
                {"kind": "offer", "seat": 1, "target": 0, "k": 1}],
    },
}


def test_the_example_is_a_real_position():
    """Played from seed 3, the game reaches exactly the example."""
    game = get_spec("pixmit").configure(3, {"start_player": 0})
    played = game.new_state(seed=3)
    for seat, text in [(A, "target 2"), (A, "offer 05"), (A, "claim FK"), (C_, "veto"),
                       (B, "target 0"), (B, "offer 10"), (B, "claim TK")]:
        act(played, seat, text)
    assert played.position()["state"] == EXAMPLE["state"]
    loaded = load(EXAMPLE)
    assert loaded.full_view() == played.full_view()
    assert loaded.position()["state"] == EXAMPLE["state"]
    assert loaded.to_act() == (A,)
    assert legal_texts(loaded, A) == {"accept", "veto"}
    assert loaded.view(A)["offer"] == {"from": B, "to": A, "k": 1, "claims": ["TK"]}
    assert loaded.view(A)["known"] == [{"card": "05", "stack_from_top": 26}]
    assert loaded.view(B)["offer"]["cards"] == ["10"]
    # the veto stands (3 players): seat 1 draws the top card, 10 goes under the stack
    act(loaded, A, "veto")
    assert numbers(loaded.hands[B]) == {2, 15}
    assert loaded.stack[0] == C.c(10) and loaded.vetoes == [1, 0, 1]
    assert loaded.to_act() == (C_,) and legal_texts(loaded, C_) == {"target 0", "target 1"}


def test_a_chosen_target_after_wissen():
    """Wissen played this turn (``fresh`` false) and the target chosen: only the offers
    to that target, single cards as it holds one card."""
    state = load(position(3, {A: [15, 19, 26, 5], B: [3, 4], C_: [6]}, fresh=False,
                          target=C_, reveals=[{"seat": A, "set": "Wissen", "move": 1}]))
    assert legal_texts(state, A) == {"offer 05", "offer 15", "offer 19", "offer 26"}
    assert state.view(A)["offer_target"] == C_ and state.view(A)["may_call"] is False
    assert "offer_target" not in state.view(B)
    assert state.view(B)["knowledge_used"] == [True, False, False]
    assert state.view(B)["reveals"] == [{"seat": A, "set": "Wissen",
                                         "cards": ["15", "19", "26"], "move": 1}]
    assert state.stats()["knowledge_used"] == 1
    act(state, A, "offer 15")
    assert state.view(C_)["offer"] == {"from": A, "to": C_, "k": 1, "claims": []}


def test_creation_after_a_veto():
    """§3.5: the offerer holding 03 20 25 may overrule the veto; the target returns."""
    state = load(position(3, {A: [3, 20, 25, 32], B: [1, 2], C_: [4, 6]}, phase="creation",
                          target=B, offer=["32"], claims=["AK"],
                          seats=[{"hand": ["03", "20", "25", "32"]},
                                 {"hand": ["01", "02"], "vetoes": 1},
                                 {"hand": ["04", "06"]}]))
    assert state.to_act() == (A,) and legal_texts(state, A) == {"creation", "pass"}
    act(state, A, "creation")
    assert state.view(C_)["creation_used"] == [True, False, False]
    assert legal_texts(state, B) == {"return 01", "return 02"}
    act(state, B, "return 01")
    assert numbers(state.hands[A]) == {1, 3, 20, 25} and numbers(state.hands[B]) == {2, 32}
    assert state.to_act() == (B,) and state.vetoes == [0, 1, 0]


def test_a_called_game_derives_the_call_and_the_hunt():
    """Scenario S17 after the call: the conditions (Elite) and the seats eligible for the
    hunt (C and D) come from the hands at the call, the hunt's draw put back."""
    hands = {A: [7, 9, 10, 1, 11], B: [5, 20, 30, 22, 23, 24],
             C_: [2, 6, 14, 17, 27, 31, 21], D: [3, 8, 12, 15, 18, 28]}
    pos = position(4, hands, phase="over", round=3, caller=A, hunt=[[C_, "21"]])
    state = load(pos)
    assert state.is_over() and state.to_act() == ()
    assert state.call_conds == ["elite"] and state.hunt_eligible == [C_, D]
    assert state.stats()["hunt_took_21"] is True
    final = state.view(B)["final"]
    assert final["call_conditions"] == ["elite"] and final["hunt"] == [[C_, "21"]]
    assert final["scores"] == [20, 115, 40, 20] and final["result"]["winner"] == B
    assert state.view(B)["holder_21"] == C_
    written = state.position()["state"]
    assert all("known" not in seat for seat in written["seats"])
    assert load({**pos, "state": written}).full_view() == state.full_view()


@pytest.mark.parametrize("mode", ["pro", "beginner"])
def test_three_players_round_trip(mode):
    """Every state of a 3-player game (the generic test covers 2 and 4) writes a position
    that loads as the same state and writes itself again."""
    game = get_spec("pixmit").configure(3, {"mode": mode})
    state = game.new_state(seed=8)
    rng = random.Random(8)
    while True:
        pos = json.loads(json.dumps(state.position()))
        loaded = load(pos)
        assert loaded.full_view() == state.full_view()
        assert [loaded.view(p) for p in range(3)] == [state.view(p) for p in range(3)]
        assert [loaded.legal_actions(p) for p in range(3)] == \
            [state.legal_actions(p) for p in range(3)]
        assert loaded.position() == pos
        if state.is_over():
            break
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))


# -- refused positions ---------------------------------------------------------------------

def turn(**state: Any) -> dict[str, Any]:
    """A 3-player position at the start: A 01 02, B 03 04, C 05 06; ``state`` overrides."""
    return position(3, {A: [1, 2], B: [3, 4], C_: [5, 6]}, **state)


def response(**state: Any) -> dict[str, Any]:
    """The example (seat 0 answers seat 1's offer of 10); ``state`` overrides."""
    pos = copy.deepcopy(EXAMPLE)
    pos["state"].update(state)
    return pos


def edit(pos: dict[str, Any], change: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    change(pos["state"])
    return pos


S = "position.state"
REFUSED: list[tuple[str, dict[str, Any], str]] = [
    ("unknown card", edit(turn(), lambda s: s["seats"][0]["hand"].append("34")),
     f"{S}.seats[0].hand[2]: there is no card '34' in pixmit"),
    ("card in two places", edit(turn(), lambda s: s["seats"][1]["hand"].append("01")),
     f"card 01 is both in {S}.seats[0].hand and in {S}.seats[1].hand"),
    ("card twice in a hand", edit(turn(), lambda s: s["seats"][0]["hand"].append("02")),
     f"card 02 is twice in {S}.seats[0].hand"),
    ("card twice in known", edit(turn(), lambda s: s["seats"][0].update(known=["09", "09"])),
     f"card 09 is twice in {S}.seats[0].known"),
    ("missing card", edit(turn(), lambda s: s["stack_top_first"].remove("33")),
     "1 card(s) are nowhere in the position: 33"),
    ("seat to act without cards", position(3, {A: [], B: [3, 4], C_: [5, 6]}),
     f"{S}.seats[0].hand is empty: every hand holds cards until the game is over"),
    ("another seat without cards", position(3, {A: [1, 2], B: [3, 4], C_: []}),
     f"{S}.seats[2].hand is empty: every hand holds cards until the game is over"),
    ("hand over the limit", position(3, {A: [1, 2, 3, 4, 5, 6, 7], B: [8], C_: [9]}),
     f"{S}.seats[0].hand holds 7 cards, more than 6 in phase turn (§3.7)"),
    ("bad seat number", turn(active=3), f"{S}.active must be at most 2, not 3"),
    ("negative target", turn(target=-1), f"{S}.target must be at least 0, not -1"),
    ("target is the active seat", turn(target=0),
     f"{S}.target: seat 0 cannot offer to itself"),
    ("start against the option", edit(turn(), lambda s: s.update(start=1)),
     f"{S}.start is 1, but the option start_player is 0"),
    ("unknown phase", turn(phase="bidding"),
     f"{S}.phase must be one of turn, claim, response, creation, return, messenger, "
     f"discard, over, not 'bidding'"),
    ("round 4", turn(round=4), f"{S}.round must be at most 3, not 4"),
    ("misspelt key", turn(claim=["DK"]), f"{S} has unknown field 'claim'"),
    ("misspelt seat key", edit(turn(), lambda s: s["seats"][1].update(vetos=1)),
     f"{S}.seats[1] has unknown field 'vetos'"),
    ("offer in phase turn", turn(offer=["01"]),
     f"in phase turn there is no offer yet: {S}.offer and {S}.claims must be empty"),
    ("fresh false without Wissen", turn(fresh=False),
     f"{S}.fresh is false (Wissen played this turn), but seat 0 has not revealed Wissen"),
    ("fresh outside phase turn", response(fresh=True),
     f"{S}.fresh belongs to phase turn only, not response"),
    ("response without a target", response(target=None),
     f"phase response needs {S}.target, the seat offered to"),
    ("response without an offer", response(offer=[]),
     f"phase response needs {S}.offer of 1 or 2 cards, not 0"),
    ("offer not held", response(offer=["06"]), f"{S}.offer: seat 1 does not hold 06"),
    ("card twice in the offer", response(offer=["10", "10"], claims=["TK", "TK"]),
     f"card 10 is twice in {S}.offer"),
    ("offer unordered", response(offer=["10", "02"], claims=["TK", "none"]),
     f"{S}.offer lists its cards in ascending order, as an offer does"),
    ("offer larger than the target's hand",
     response(target=2, offer=["02", "10"], claims=["TK", "none"],
              seats=[{"hand": ["06", "31"]}, {"hand": ["02", "10"]}, {"hand": ["23"]}],
              stack_top_first=[*EXAMPLE["state"]["stack_top_first"], "26"]),
     f"{S}.offer: 2 cards offered to seat 2, which holds only 1 (§3.3)"),
    ("announcement missing", response(claims=[]),
     f"phase response needs all 1 announcement(s) in {S}.claims, not 0"),
    ("announcements complete in phase claim", response(phase="claim"),
     f"phase claim needs fewer than 1 announcement(s) in {S}.claims, not 1"),
    ("unknown announcement", response(claims=["XK"]),
     f"{S}.claims[0] must be none, a group (TK, ZK, AK, FK, ASK, OK, PK, DK) or a card "
     f"number, not 'XK'"),
    ("a lie in beginner mode",
     {**response(claims=["DK"]), "options": {"mode": "beginner", "start_player": 0}},
     f"{S}.claims[0]: DK is not true of 10, and beginner mode allows only true "
     f"announcements"),
    ("messenger with 3 players", response(phase="messenger"),
     "phase messenger follows the Blinder Bote, which only 2 players use (§3.6)"),
    ("creation without the set", response(phase="creation"),
     "phase creation: seat 1 must hold 03, 20, 25 and not have revealed Schöpfung yet "
     "(§3.5)"),
    ("discard without a full hand",
     position(2, {A: [1, 2], B: [3, 4]}, phase="discard", target=1, offer=["01"],
              claims=["none"]),
     "phase discard follows the Bote's card: seat 0 holds 7 cards, not 2"),
    ("messenger after a veto with one card",
     position(2, {A: [1, 2], B: [3]}, phase="messenger", target=1, offer=["01"],
              claims=["none"]),
     "phase messenger follows a veto, which needs 2 cards in seat 1's hand (§3.4)"),
    ("Wissen revealed twice", turn(reveals=[{"seat": 0, "set": "Wissen", "move": 1},
                                            {"seat": 0, "set": "Wissen", "move": 9}]),
     f"{S}.reveals[1]: seat 0 reveals Wissen a second time (once per game)"),
    ("reveals out of order", turn(reveals=[{"seat": 0, "set": "Wissen", "move": 4},
                                           {"seat": 1, "set": "Schöpfung", "move": 2}]),
     f"{S}.reveals[1].move must be at least 5, not 2"),
    ("unknown log entry", turn(log=[{"kind": "trade", "seat": 0}]),
     f"{S}.log[0].kind must be one of offer, swap, veto_draw, messenger, round, call, hunt, "
     f"silent_end, accept, veto, creation, bottom, knowledge, not 'trade'"),
    ("log entry with a stray field", turn(log=[{"kind": "veto", "seat": 1, "k": 1}]),
     f"{S}.log[0] has unknown field 'k'"),
    ("caller before the end", turn(caller=0),
     f"{S}.caller and {S}.hunt belong to phase over, not turn"),
    ("known at the end", edit(turn(phase="over"),
                              lambda s: s["seats"][0].update(known=["05"])),
     f"{S}.seats[0].known: every place is known once the game is over, leave it out"),
    ("an offer at the end", turn(phase="over", target=1),
     f"the game is over: {S}.target, {S}.offer and {S}.claims must be empty"),
    ("a call without a condition", turn(phase="over", caller=0),
     f"{S}.caller: seat 0's hand at the call (01 02) meets no call condition"),
    ("a caller not to play", position(3, {A: [1, 2], B: [7, 9, 10, 21], C_: [5, 6]},
                                      phase="over", caller=1),
     f"{S}.caller: seat 1 called Pixmit, but the active seat is 0"),
    ("a hunt without a call", turn(phase="over", hunt=[[1, "03"]]),
     f"{S}.hunt: a hunt follows only a call ({S}.caller)"),
    ("a hunt draw not held", turn(phase="over", hunt=[[1, "05"]]),
     f"{S}.hunt: seat 1 drew 05 but does not hold it"),
    ("a hunt that stops early", position(3, {A: [7, 9, 10, 21, 1], B: [3, 4], C_: [5, 6]},
                                         phase="over", caller=0),
     f"{S}.hunt: the seats without a set at the call ([1, 2]) draw in turn until 21 is "
     f"drawn or the caller's hand is empty, not []"),
    ("a hunt by a seat with a set",
     position(3, {A: [7, 9, 10, 21], B: [3, 13, 14, 1], C_: [5, 6]}, phase="over",
              caller=0, hunt=[[1, "01"]]),
     f"{S}.hunt: the seats without a set at the call ([2]) draw in turn until 21 is drawn "
     f"or the caller's hand is empty, not [1]"),
]


@pytest.mark.parametrize("pos,message", [case[1:] for case in REFUSED],
                         ids=[case[0] for case in REFUSED])
def test_refused(pos, message):
    with pytest.raises(ConfigError, match=f"^{re.escape(message)}$"):
        load(pos)

