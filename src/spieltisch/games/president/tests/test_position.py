"""Hand-written President positions (``docs/positions.md``): what they load to, and the
exact error for each way a hand can get one wrong. Seats A, B, C, D are 0, 1, 2, 3."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

import pytest

from spieltisch.core import ConfigError, load_position
from spieltisch.games.president import cards as C_
from spieltisch.games.president.state import Phase, PresidentState
from spieltisch.testing import act, legal_texts
from spieltisch.testing import load as load_state

from .conftest import C_ as C
from .conftest import A, B, D

#: Round 2 of four, late: Carl (C) went out first; Anna (A) answered Ben's lead with a
#: pair of nines and Dora (D) passed; Ben (B) is to answer. The exchange before the round
#: (roles from round 1: C President, A Prime Minister, D Peasant, B Beggar) is recorded
#: in ``gave``. This is the example of ``docs/positions.md``.
EXAMPLE: dict[str, Any] = {
    "format": "spieltisch-position", "version": 1, "game": "president", "players": 4,
    "options": {"skip_rule": False, "first_leader": -1}, "move": 41,
    "chance": {"seed": 7},
    "state": {
        "round": 2, "phase": "play", "revolution": False,
        "seats": [
            {"hand": ["4C", "KD"], "score": 50,
             "gave": {"to": 3, "cards": ["3C"], "automatic": False}},
            {"hand": ["10C", "10H", "QS", "JK1"], "score": 35,
             "gave": {"to": 2, "cards": ["2H", "JK2"], "automatic": True}},
            {"hand": [], "score": 55,
             "gave": {"to": 1, "cards": ["3D", "JK1"], "automatic": False}},
            {"hand": ["5S", "8H", "8S"], "score": 40,
             "gave": {"to": 0, "cards": ["AS"], "automatic": True}},
        ],
        "to_move": 1,
        "pile": {"size": 2, "top": ["9C", "9D"], "owner": 0, "passed": [3]},
        "finished": [2], "last_order": [2, 0, 3, 1], "exchange": [],
        "played": ["3C", "3D", "3H", "3S", "4D", "4H", "4S", "5C", "5D", "5H", "6C", "6D",
                   "6H", "6S", "7C", "7D", "7H", "7S", "8C", "8D", "9C", "9D", "9H", "9S",
                   "10D", "10S", "JC", "JD", "JH", "JS", "QC", "QD", "QH", "KC", "KH", "KS",
                   "AC", "AD", "AH", "AS", "2C", "2D", "2H", "2S", "JK2"],
    },
}


def example(edit: Callable[[dict[str, Any]], Any] | None = None) -> dict[str, Any]:
    """A copy of ``EXAMPLE`` with ``edit`` applied to its ``"state"``."""
    pos = copy.deepcopy(EXAMPLE)
    if edit is not None:
        edit(pos["state"])
    return pos


def load(pos: dict[str, Any]) -> PresidentState:
    return load_state(pos, PresidentState)


def test_the_example_loads_and_plays_on():
    s = load(example())
    assert s.to_act() == (B,) and s.move_number == 41
    assert legal_texts(s, B) == {"pass", "play 10C 10H", "play JK1"}
    assert s.view(None)["roles"] == {"2": "president", "0": "prime_minister",
                                     "3": "peasant", "1": "beggar"}
    assert s.view(B)["received"] == ["3D", "JK1"] and s.view(C)["received"] == ["2H", "JK2"]
    act(s, B, "play 10C 10H")
    assert s.to_act() == (A,)  # C is out and D passed: only A may answer
    assert legal_texts(s, A) == {"pass"}
    act(s, A, "pass")
    assert s.view(None)["pile"] == {"size": 0, "top": [], "owner": -1, "passed": []}
    assert s.to_act() == (B,)
    assert legal_texts(s, B) == {"play QS", "play JK1"}


def test_the_example_is_written_back_as_it_was():
    state = load(example()).position()["state"]
    assert state == EXAMPLE["state"]


def test_an_automatic_give_bounds_what_the_giver_may_hold_in_a_determinisation():
    """Dora gave Anna her highest card, AS: in Anna's eyes Dora holds no 2 and no Joker,
    so the unseen JK1 always lands with Ben (it would go to Dora 3 times in 7 else)."""
    import random

    s = load(example())
    assert s.ceiling[A] == (D, 11) and s.ceiling[C] == (B, 12)
    rng = random.Random(0)
    for _ in range(40):
        hands = s.determinise(A, rng).full_view()["hands"]
        assert "JK1" in hands[B] and len(hands[D]) == 3


def test_an_exchange_position_plays_the_rest_of_the_exchange():
    """The President still gives 2; then the Peasant's give runs at once (his highest,
    AS) and the Prime Minister gives 1; then the Beggar leads."""
    clubs, diamonds, hearts, spades = ([r + s for r in C_.RANKS] for s in "CDHS")
    pos = example()
    pos["state"] = {
        "round": 2, "phase": "exchange", "revolution": False,
        "seats": [
            {"hand": clubs, "score": 50, "gave": None},
            {"hand": diamonds, "score": 35,
             "gave": {"to": 2, "cards": ["2S", "JK2"], "automatic": True}},
            {"hand": [*hearts, "2S", "JK1", "JK2"], "score": 55, "gave": None},
            {"hand": spades[:-1], "score": 40, "gave": None},
        ],
        "to_move": None, "pile": None, "finished": [], "last_order": [2, 0, 3, 1],
        "exchange": [{"from": 2, "to": 1, "count": 2}, {"from": 3, "to": 0, "count": 1},
                     {"from": 0, "to": 3, "count": 1}],
        "played": [],
    }
    s = load(pos)
    assert s.to_act() == (C,)
    assert legal_texts(s, C) == {f"give {c}" for c in [*hearts, "2S", "JK1", "JK2"]}
    act(s, C, "give JK2")
    assert s.to_act() == (C,) and s.view(None)["exchange"][0] == {"from": C, "to": B,
                                                                  "count": 1}
    act(s, C, "give 3H")
    assert s.to_act() == (A,)
    assert s.view(A)["received"] == ["AS"] and s.view(D)["gave"] == {"0": ["AS"]}
    act(s, A, "give 3C")
    assert s.phase is Phase.PLAY and s.to_act() == (B,)
    assert {"3H", "JK2"} <= set(s.view(B)["hand"]) and "3C" in s.view(D)["hand"]


def refused(pos: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=f"^{re.escape(message)}$"):
        load_position(pos)


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda state: state.__setitem__(key, value)


def test_an_unknown_card():
    refused(example(lambda s: s["seats"][0]["hand"].__setitem__(0, "1Z")),
            "position.state.seats[0].hand[0]: there is no card '1Z' in president")


def test_a_card_in_two_places():
    refused(example(lambda s: s["seats"][0]["hand"].append("9C")),
            "card 9C is both in the hand of seat 0 and in the played cards")


def test_a_missing_card():
    refused(example(lambda s: s["played"].remove("3H")),
            "1 card(s) are nowhere in the position: 3H")


def test_a_seat_to_move_without_cards():
    refused(example(_set("to_move", C)), "seat 2 is to move but holds no cards")


@pytest.mark.parametrize(("edit", "message"), [
    (_set("phase", "exchange"), "state.phase is 'exchange' but state.exchange is empty"),
    (_set("phase", "over"), "state.phase is 'over' but no seat has 0 points or fewer (§5)"),
    (_set("exchange", [{"from": 2, "to": 1, "count": 1}]),
     "state.phase is 'play' but state.exchange lists gives still to make"),
    (_set("round", 1), "state.last_order must be empty in round 1: nobody has a role yet"),
    (_set("finished", []), "seat 2 holds no cards but is not in state.finished"),
    (_set("finished", [2, 3]), "seat 3 is in state.finished but holds cards"),
    (_set("to_move", A),
     "seat 0 owns the pile and cannot be to move on it: the pile ends when nobody else may "
     "answer (§3)"),
    (_set("to_move", D), "seat 3 has passed on the pile and cannot be to move on it (§3)"),
    (lambda s: s["seats"][1].__setitem__("score", 0),
     "seat 1 has 0 points: the game would be over (§5)"),
    (lambda s: s["pile"].__setitem__("size", 3),
     "position.state.pile.size is 3 but the top holds 2 card(s): only a single Joker trumps "
     "a larger set (§3)"),
    (lambda s: s["pile"].__setitem__("top", ["9C", "10D"]),
     "position.state.pile.top must be a play: 1–4 cards of one rank, or Jokers (§3), not "
     "['9C', '10D']"),
    (lambda s: s["seats"][1]["gave"].__setitem__("automatic", False),
     "state.seats[1].gave must be 2 card(s) to seat 2, automatic by this round's exchange so "
     "far (§2.4), not 2 card(s) to seat 2"),
    (lambda s: (s["seats"][3]["hand"].append("2C"), s["played"].remove("2C")),
     "seat 3 holds 2C, higher than the AS it gave seat 0 automatically: the Beggar and the "
     "Peasant give their highest cards (§2.4)"),
])
def test_a_phase_or_turn_that_contradicts_the_rest(edit, message):
    refused(example(edit), message)


def test_an_exchange_that_does_not_follow_the_roles():
    """The Peasant's give is automatic: it never waits first."""
    def edit(s: dict[str, Any]) -> None:
        s.update(phase="exchange", to_move=None, pile=None, finished=[],
                 exchange=[{"from": 3, "to": 0, "count": 1}, {"from": 0, "to": 3, "count": 1}])
    refused(example(edit),
            "state.exchange must be what is left of the exchange the roles of state.last_order "
            "give (§2.4): the President (seat 2) gives the Beggar (seat 1) 2 cards, the "
            "Peasant's give to the Prime Minister (seat 0) runs at once, then the Prime "
            "Minister gives the Peasant (seat 3) 1")


@pytest.mark.parametrize(("edit", "message"), [
    (_set("to_move", 4), "position.state.to_move must be at most 3, not 4"),
    (lambda s: s["pile"].__setitem__("owner", -1),
     "position.state.pile.owner must be at least 0, not -1"),
    (_set("finished", [2, 2]), "position.state.finished names seat 2 twice"),
    (lambda s: s["seats"][0]["gave"].__setitem__("to", 0),
     "position.state.seats[0].gave.to: seat 0 cannot give cards to itself"),
])
def test_a_bad_seat_number(edit, message):
    refused(example(edit), message)


@pytest.mark.parametrize(("edit", "message"), [
    (_set("revolutoin", True), "position.state has unknown field 'revolutoin'"),
    (lambda s: s["seats"][0].__setitem__("gaev", None),
     "position.state.seats[0] has unknown field 'gaev'"),
    (lambda s: s["pile"].__setitem__("passd", []),
     "position.state.pile has unknown field 'passd'"),
])
def test_a_misspelt_key(edit, message):
    refused(example(edit), message)
