"""Hand-written HOAX positions (issue 19): exact behaviour on load, and each check of a
position's ``"state"`` with the exact message it gives."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from spieltisch.core import CLOCK, ConfigError
from spieltisch.games.hoax.cards import IDENTITY_NAMES

from .conftest import P1, P2, P3, P4, act, legal_texts, load, new_state, position


def seat(card: str, cover: str, gold: int = 0, wine: int = 0, grain: int = 0,
         **more: Any) -> dict[str, Any]:
    """A seat's record as the game writes it (every field)."""
    record = {"card": card, "throne_points": 0, "in_round": True, "revealed": False,
              "start_cover": cover, "doubt_covered": [], "final_covered": [], "proven": None,
              "proven_not": [], "loose": {"gold": gold, "wine": wine, "grain": grain},
              "trios": 0, "shown_to": {}}
    record.update(more)
    return record


#: The example of ``docs/positions.md``: P1 (the Farmer) harvests, P2 doubts the claim,
#: P3 and P4 still vote. Written by the game (``test_the_example_is_what_the_game_writes``).
EXAMPLE: dict[str, Any] = {
    "format": "spieltisch-position", "version": 1, "game": "hoax", "players": 4,
    "options": {"first_player": 0, "reaction_seconds": 4.0}, "move": 10,
    "chance": {"seed": 7},
    "state": {
        "round": 1, "turns": 1, "finals": 0, "phase": "vote", "active": 0, "final": False,
        "last_reveal": None,
        "seats": [seat("FAR1", "merchant", gold=1), seat("JUD1", "baron", wine=1),
                  seat("MON1", "farmer", grain=1), seat("BAR1", "judge", grain=1)],
        "turn": {"action": "farmer harvest", "departing": False, "protected": [],
                 "protect_tried": [], "reacted": [], "barons": [],
                 "fines": [None] * 4, "forgivenesses": [None] * 4, "giving": [],
                 "window": [], "window_since": None,
                 "claim": {"seat": 0, "for": "action", "type": None, "opener": 1,
                           "voted": [1], "doubt": [1], "pending": [2, 3]},
                 "pass": None},
        "log": [["cover", 0, "merchant"], ["cover", 1, "baron"], ["cover", 2, "farmer"],
                ["cover", 3, "judge"], ["declare", 0, "farmer harvest"],
                ["doubt", 1, 0, "farmer"]],
    },
}


def test_the_example_is_what_the_game_writes():
    s = new_state(["farmer", "judge", "monk", "baron"],
                  covers=["merchant", "baron", "farmer", "judge"],
                  chips=["gold", "wine", "grain", "grain"])
    act(s, P1, "farmer harvest")
    act(s, P2, "doubt")
    written = s.position()
    assert {**written, "chance": {"seed": 7}} == EXAMPLE
    assert load(EXAMPLE).position()["state"] == EXAMPLE["state"]


def test_the_example_plays_on():
    """P3 doubts too (2 of R = 4: official); the Farmer is a Farmer → unjustified: P1 is
    revealed, +3 TP, out; the harvest still executes and then goes to the bank."""
    s = load(EXAMPLE)
    assert sorted(s.to_act()) == [P3, P4] and s.out_of_turn() == ()
    assert legal_texts(s, P3) == {"vote doubt", "vote trust"}
    assert s.view(P2)["pending"]["claim"] == {"seat": P1, "identity": "farmer",
                                              "for": "action", "opener": P2}
    assert s.bank == [19, 19, 18]
    act(s, P4, "vote trust")
    act(s, P3, "vote doubt")
    assert s.tp == [3, 0, 0, 0] and s.view(P4)["seats"][P1]["revealed"] == "farmer"
    assert s.view(P4)["seats"][P1]["loose"] == {"gold": 0, "wine": 0, "grain": 0}
    assert s.bank == [20, 19, 18]  # P1's gold and harvest went back to the bank
    assert s.active == P2 and s.view(None)["phase"] == "declare"


def test_the_example_by_hand_needs_few_fields():
    """What docs/positions.md says: the example without its log, written by hand."""
    short = {"game": "hoax", "players": 4, "version": 1, "options": {"first_player": 0},
             "state": {
                 "turns": 1, "phase": "vote", "active": 0,
                 "seats": [{"card": "FAR1", "start_cover": "merchant", "loose": {"gold": 1}},
                           {"card": "JUD1", "start_cover": "baron", "loose": {"wine": 1}},
                           {"card": "MON1", "start_cover": "farmer", "loose": {"grain": 1}},
                           {"card": "BAR1", "start_cover": "judge", "loose": {"grain": 1}}],
                 "turn": {"action": "farmer harvest",
                          "claim": {"seat": 0, "for": "action", "opener": 1}}}}
    assert load(short).position()["state"] == {**EXAMPLE["state"], "log": []}


#: A short hand-written position: unwritten fields take their "nothing" value. P1 has
#: covered all but the Farmer (start: Merchant; doubts: Baron … Thief).
SHORT = position(
    ["farmer", "judge", "monk", "baron"], covers=["merchant", "baron", "farmer", "judge"],
    seats={P1: {"loose": {"grain": 1},
                "doubt_covered": ["baron", "monk", "judge", "magician", "thief"]},
           P4: {"throne_points": 9, "trios": 1}})


def test_a_short_position_fills_in_the_rest():
    s = load(SHORT)
    accusations = {f"accuse {q} {x}" for q in (P2, P3, P4) for x in IDENTITY_NAMES}
    assert legal_texts(s, P1) == {"farmer harvest"} | accusations
    assert s.to_act() == (P1,) and s.out_of_turn() == () and s.deadlines() == []
    assert s.bank == [19, 19, 18]  # the bank holds what no seat holds
    written = s.position()["state"]
    assert written["seats"][P4] == seat("BAR1", "judge", throne_points=9, trios=1)
    assert written["turn"]["claim"] is None and written["log"] == []
    act(s, P1, "farmer harvest")
    assert s.view(None)["phase"] == "doubt" and s.out_of_turn() == (P2, P3, P4)
    [d] = s.deadlines()
    assert (d.seat, s.game.action_to_json(d.action), d.since) == (CLOCK, "close", 1)


def test_a_settle_position():
    """S8: P2's Grain fine and P3's Grain forgiveness stand; P1 pays the fine (2 of its 3
    grain) and the Judge passes one to the only Baron, P4."""
    pos = copy.deepcopy(SHORT)
    pos["state"]["phase"] = "settle"
    pos["state"]["seats"][P1]["loose"] = {"grain": 3}
    pos["state"]["turn"] = {"action": "farmer harvest", "reacted": [1, 2, 3],
                            "barons": [3], "fines": [None, "grain", None, None],
                            "forgivenesses": [None, None, "grain", None]}
    s = load(pos)
    assert legal_texts(s, P1) == {"pay 1", "pay 2"}  # the Magician is covered: no protect
    act(s, P1, "pay 1")
    assert [s.loose[3 * p + 2] for p in range(4)] == [1, 1, 0, 1]
    assert s.active == P2 and s.view(None)["phase"] == "declare"


def test_an_unwritten_window_admits_whom_the_game_would():
    pos = copy.deepcopy(SHORT)
    pos["state"]["phase"] = "illegal"
    pos["state"]["turn"] = {"action": "farmer harvest"}
    s = load(pos)
    # the illegal window opens to whom the game would admit: uncovered Barons but P1
    assert s.out_of_turn() == (P3, P4)
    act(s, P4, "illegal")
    assert s.view(None)["phase"] == "doubt"


# -- each check, with its exact message ---------------------------------------------------
def edit(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    pos = copy.deepcopy(SHORT)
    change(pos["state"])
    return pos


def seat_field(p: int, key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda st: st["seats"][p].__setitem__(key, value)


def turn(**fields: Any) -> Callable[[dict[str, Any]], None]:
    return lambda st: st.__setitem__("turn", fields)


def both(*changes: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    def apply(st: dict[str, Any]) -> None:
        for change in changes:
            change(st)
    return apply


def phase(name: str) -> Callable[[dict[str, Any]], None]:
    return lambda st: st.__setitem__("phase", name)


REFUSED = {
    "unknown card": (
        seat_field(P2, "card", "KNG1"),
        "position.state.seats[1].card: there is no card 'KNG1' in hoax (two of each "
        "identity: BAR1 BAR2 MON1 … FAR2)"),
    "duplicate card": (
        seat_field(P3, "card", "FAR1"),
        "card FAR1 is both in position.state.seats[0].card and in "
        "position.state.seats[2].card"),
    "missing card": (
        lambda st: st["seats"][P3].pop("card"),
        "position.state.seats[2].card is missing"),
    "seat to act out of the round": (
        both(seat_field(P1, "in_round", False), seat_field(P1, "loose", {})),
        "seat 0 is active in phase declare but not in the round"),
    "a giver without chips": (
        both(phase("give"), turn(action="monk collect", giving=[2])),
        "position.state.turn.giving: seat 2 must be in the round and hold a loose chip "
        "to give"),
    "chips in the cover phase": (
        phase("cover"),
        "position.state.seats[0] holds chips in phase cover: the starting chips are taken "
        "after the covers"),
    "settle with nothing to pay": (
        both(phase("settle"), turn(action="farmer harvest")),
        "phase settle needs a standing fine or forgiveness the actor can still pay"),
    "a claim outside a doubt": (
        turn(claim={"seat": 0, "for": "protect"}),
        "position.state.turn.claim: a claim is under doubt only in phases doubt and vote, "
        "not declare"),
    "a vote without its opener": (
        both(phase("vote"), turn(action="farmer harvest", claim={"seat": 0,
                                                                  "for": "action"})),
        "position.state.turn.claim.opener: phase vote needs the seat that opened the doubt "
        "(another seat in the round; its vote is a Doubt)"),
    "a window outside a window phase": (
        turn(window=[1, 2]),
        "position.state.turn.window: only a reaction window (doubt, protect, illegal, fine, "
        "forgive) has one, not phase declare"),
    "ten points while playing": (
        seat_field(P4, "throne_points", 10),
        "seat 3 has 10 throne points: the game ends at 10 (§6), so the phase must be over"),
    "an unknown phase": (
        phase("bidding"),
        "position.state.phase must be one of cover, chip, declare, doubt, vote, protect, "
        "give, show, illegal, fine, forgive, settle, pass, over, not 'bidding'"),
    "bad seat number": (
        lambda st: st.__setitem__("active", 4),
        "position.state.active must be at most 3, not 4"),
    "bad seat number in a list": (
        turn(barons=[5]),
        "position.state.turn.barons[0] must be at most 3, not 5"),
    "bad seat number as a key": (
        seat_field(P2, "shown_to", {"7": ["thief"]}),
        "position.state.seats[1].shown_to.7: '7' is not another seat's number (0 to 3)"),
    "misspelt seat key": (
        seat_field(P1, "trio", 1),
        "position.state.seats[0] has unknown field 'trio'"),
    "misspelt turn key": (
        turn(acton="farmer harvest"),
        "position.state.turn has unknown field 'acton'"),
    "too many chips": (
        seat_field(P2, "loose", {"gold": 20}),
        "the seats hold 21 gold (loose and in trios), but there are only 20"),
    "own identity covered": (
        seat_field(P1, "start_cover", "farmer"),
        "position.state.seats[0] covers its own identity (farmer)"),
    "own identity shown": (
        seat_field(P2, "shown_to", {"0": ["judge"]}),
        "position.state.seats[1].shown_to[0] names its own identity (judge): only false "
        "identities are shown"),
    "unknown identity": (
        seat_field(P2, "proven_not", ["king"]),
        "position.state.seats[1].proven_not[0] must be one of baron, monk, judge, merchant, "
        "magician, thief, farmer, not 'king'"),
    "a log entry that is no declaration": (
        lambda st: st.__setitem__("log", [["declare", 0, "show monk"]]),
        "position.state.log[0][2]: 'show monk' is not an action a player declares (such as "
        "'farmer harvest' or 'buy 2 1')"),
}


@pytest.mark.parametrize("case", list(REFUSED), ids=list(REFUSED))
def test_a_wrong_position_is_refused_by_name(case):
    change, message = REFUSED[case]
    with pytest.raises(ConfigError) as caught:
        load(edit(change))
    assert str(caught.value) == message
