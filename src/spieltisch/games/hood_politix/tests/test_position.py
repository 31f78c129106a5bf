"""Hood Politix positions (docs/positions.md): hand-written positions load and play exactly,
and every contradiction is refused with a message naming the field."""

from __future__ import annotations

import copy
import re
from typing import Any, cast

import pytest

from spieltisch import load_position
from spieltisch.core import CLOCK, ConfigError
from spieltisch.games.hood_politix import cards as C
from spieltisch.games.hood_politix.state import HoodPolitixState
from spieltisch.games.hood_politix.terms import IN, PENDING

from .test_scenarios import CC, A, B, act, new_table, size, texts

#: The documented example (docs/positions.md): §5.3's example at t = 4 s. A played G3,
#: C threw in the other G3 (the move timer restarted: ``timer_since`` 2), A called
#: Politix (move 3): B is due, the pause runs, B's move timer is frozen. Written by
#: ``position()``, its chance shortened to the seed and its draw pile, all the other
#: cards in id order, to ``"..."``.
EXAMPLE: dict[str, Any] = {
    "format": "spieltisch-position", "version": 1, "game": "hood_politix", "players": 4,
    "options": {"hand_size": 6, "min_rounds": 3, "move_seconds": 3.0,
                "respekt_seconds": 30.0, "politix_seconds": 60.0, "politix_calls": 1,
                "first_dealer": 3},
    "move": 3, "chance": {"seed": 1},
    "state": {
        "round": 1, "dealer": 3,
        "seats": [
            {"hand": ["O1a", "O2a", "O3a", "O4a", "O5a"], "status": "in", "score": 0,
             "politix_left": 0, "knows": []},
            {"hand": ["O1b", "O2b", "O7a", "O8a", "O9a", "O10a"], "status": "in",
             "score": 0, "politix_left": 1, "knows": []},
            {"hand": ["O3b", "O4b", "O5b", "O6a", "O7b"], "status": "in", "score": 0,
             "politix_left": 1, "knows": []},
            {"hand": ["O9b", "O10b", "Y1a", "Y2a", "Y3a", "Y4a"], "status": "in",
             "score": 0, "politix_left": 1, "knows": []}],
        "draw": ["..."], "buried": 0, "discard": ["G7a", "G3a", "G3b"],
        "direction": "clockwise", "phase": "turn", "due": 1,
        "stack": None, "pending_finish": None, "slap_by": None, "deal_by": None,
        "snitch": None, "finish_order": [],
        "pause": {"kind": "politix", "seat": 0}, "pause_since": 3,
        "timer_since": 2, "timer_expired": False,
        "mic_check_due": None, "missed_mic_check": [], "missed_mic_drop": None,
        "penalised": [], "revealed": [],
        "counts": {"faults": 0, "throw_ins": 1, "accusations": 0, "politix": 1,
                   "respekt": 0},
    },
}


def test_the_example_is_a_real_position():
    """Played, the §5.3 example reaches exactly the documented position."""
    played = new_table("G7", {A: ["G3"], CC: ["G3"]})
    act(played, A, "play G3")
    act(played, CC, "throw G3")
    act(played, A, "politix")
    written = played.position()["state"]
    assert written == {**EXAMPLE["state"], "draw": written["draw"]}
    assert len(written["draw"]) == 103
    loaded = cast(HoodPolitixState, load_position(EXAMPLE))
    assert loaded.full_view() == played.full_view()
    assert loaded.position()["state"] == written
    assert loaded.to_act() == (A,) and loaded.view(B)["pause"] == {"kind": "politix",
                                                                    "seat": A}
    assert texts(loaded, A) == ["end politix"] and texts(loaded, B) == []
    (pause,) = loaded.deadlines()
    assert (pause.seat, pause.seconds, pause.since) == (CLOCK, 60.0, 3)
    (frozen,) = loaded.frozen_timers()
    assert (frozen.seat, frozen.seconds, frozen.since) == (CLOCK, 3.0, 2)
    act(loaded, A, "end politix")
    assert loaded.deadlines() == (frozen,) and loaded.to_act() == (B,)


#: A hand-written puzzle: 3 players; seat 0 went out with a Deuce (pending finish); seat 1
#: must answer the stack of 2. Kind codes name copies; ``"..."`` is every other card.
PUZZLE: dict[str, Any] = {
    "version": 1, "game": "hood_politix", "players": 3, "options": {"first_dealer": 2},
    "state": {
        "dealer": 2,
        "seats": [{"hand": [], "status": "pending"},
                  {"hand": ["GPB", "Y50", "G2"]},
                  {"hand": ["O5", "O5", "P8"]}],
        "draw": ["Y9", "Y9", "..."], "discard": ["G9", "GDU"],
        "phase": "stack", "due": 1, "stack": {"amount": 2, "in_yo_face": False},
        "pending_finish": 0, "missed_mic_drop": 0,
    },
}


def test_a_hand_written_puzzle():
    s = load_position(PUZZLE)
    assert isinstance(s, HoodPolitixState)
    assert C.codes(s.hands[2]) == ["O5", "O5", "P8"]
    assert s.view(None)["stack"] == {"amount": 2, "in_yo_face": False, "target": 1}
    assert s.view(None)["open_faults"] == [{"seat": 0, "fault": "mic-drop"}]
    assert texts(s, 1) == ["accept", "accuse 0 mic-drop", "play GPB", "play Y50", "politix"]
    assert texts(s, 2) == ["accuse 0 mic-drop", "politix"]
    # The Payback brings seat 0 back as the target of the unchanged stack (§4).
    events = act(s, 1, "play GPB")
    assert [e.kind for e in events] == ["play", "rejoin"]
    assert s.status[0] == IN and s.to_act() == (0,) and s.direction == -1
    act(s, 0, "accept")
    assert C.codes(s.hands[0]) == ["Y9", "Y9"] and s.to_act() == (2,)
    assert s.status == [IN, IN, IN] and s.finish_order == []
    assert s.view(None)["open_faults"] == []  # the next move closed the Mic Drop window


def test_a_position_round_trips_with_kind_codes_resolved():
    s = load_position(PUZZLE)
    pos = s.position()
    assert pos["state"]["seats"][2]["hand"] == ["O5a", "O5b", "P8a"]
    assert pos["state"]["draw"][:2] == ["Y9a", "Y9b"]
    assert pos["state"]["seats"][0]["status"] == "pending"
    again = load_position(pos)
    assert again.full_view() == s.full_view() and again.position() == pos


def bad(edit: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
    """The puzzle with ``edit`` applied to its state (or to one seat's fields)."""
    pos = copy.deepcopy(PUZZLE)
    target = pos["state"] if seat is None else pos["state"]["seats"][seat]
    target.update(edit)
    return pos


def duplicate() -> dict[str, Any]:
    pos = bad({"hand": ["GIY", "O5", "P8"]}, seat=2)
    pos["state"]["draw"] = ["GIY", "..."]
    return pos


def nobody_holds_cards() -> dict[str, Any]:
    pos = bad({"phase": "turn", "stack": None, "pending_finish": None, "due": 0,
               "missed_mic_drop": None})
    pos["state"]["seats"][0]["status"] = "in"
    return pos


ERRORS = {
    "unknown card": (bad({"hand": ["GPB", "Z9", "G2"]}, seat=1),
                     "position.state.seats[1].hand[1]: there is no card 'Z9' in hood_politix"),
    "duplicate card": (duplicate(), "card GIY is both in the hand of seat 2 and in the "
                                    "draw pile"),
    "missing card": (bad({"draw": ["Y9", "Y9"]}),
                     "118 card(s) are nowhere in the position: G1a, G1b, G2b, G3a, G3b …"),
    "a kind named too often": (bad({"hand": ["G2", "G2", "G2"]}, seat=1),
                               "position.state.seats[1].hand[2]: G2 is named more often than "
                               "it exists (2 in the game)"),
    "seat to act without cards": (nobody_holds_cards(),
                                  "seat 0 is to act in phase turn but holds no cards"),
    "phase contradicting the rest": (bad({"phase": "slap", "slap_by": 0, "stack": None}),
                                     "phase slap needs a Pimp Slap on top of the discard "
                                     "pile, not GDU"),
    "stack outside its phase": (bad({"phase": "turn", "pending_finish": None}),
                                "position.state.stack belongs to phase stack, and only "
                                "there (the phase is turn)"),
    "bad seat number": (bad({"due": 7}), "position.state.due must be at most 2, not 7"),
    "misspelt key": (bad({"timer_sinse": 3}), "position.state has unknown field "
                                              "'timer_sinse'"),
    "misspelt key in a seat": (bad({"scroe": 1}, seat=1),
                               "position.state.seats[1] has unknown field 'scroe'"),
}


@pytest.mark.parametrize("what", ERRORS)
def test_every_error_names_the_field(what):
    pos, message = ERRORS[what]
    with pytest.raises(ConfigError, match=f"^{re.escape(message)}$"):
        load_position(pos)


@pytest.mark.parametrize("edit,seat,message", [
    ({"status": "finished"}, 0, "position.state.pending_finish must name the one seat whose "
                                "status is pending, not 0 (pending: [])"),
    ({"hand": ["G2"], "knows": ["PIY"]}, 2, "position.state.seats[2].knows[0]: PIY is in "
                                            "nobody's hand"),
    ({"snitch": {"by": 1, "target": 0, "take": None}}, None,
     "position.state.snitch belongs to phase snitch, and only there (the phase is stack)"),
    ({"buried": 117}, None, "position.state.buried: the buried cards at the bottom of the draw "
                          "pile are action cards, not Y10b"),
    ({"missed_mic_check": [2]}, None, "seat 2 holds 3 cards: a Mic Check (due or missed) "
                                      "goes with exactly 1 card"),
    ({"pause": {"kind": "nap", "seat": 1}}, None,
     "position.state.pause.kind must be one of politix, respekt, not 'nap'"),
    ({"discard": []}, None, "position.state.discard is empty: it needs a top card"),
])
def test_more_contradictions(edit, seat, message):
    with pytest.raises(ConfigError, match=f"^{re.escape(message)}$"):
        load_position(bad(edit, seat))


def test_a_state_built_from_a_position_is_pending_as_written():
    s = cast(HoodPolitixState, load_position(PUZZLE))
    assert s.status[0] == PENDING and s.pending == 0 and size(s, 0) == 0
