"""Hand-written Hockey positions (``docs/positions.md``): what they load to, and the
exact error for each way a hand can get one wrong."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

import pytest

from spieltisch.core import ConfigError, load_position
from spieltisch.games.hockey.cards import CODES
from spieltisch.games.hockey.state import HockeyState
from spieltisch.testing import act
from spieltisch.testing import load as load_state

from .conftest import period_order

#: Period 2 (seat 1 deals, as ``first_dealer`` 0 makes it), deal 1: seat 0 led 4D, seat 1
#: answered QS, seat 0 played 7C and seat 1 matched it with 7H, a breakaway. Seat 0 is to
#: move; it scored once in period 1. This is the example of ``docs/positions.md``.
EXAMPLE: dict[str, Any] = {
    "format": "spieltisch-position", "version": 1, "game": "hockey", "players": 2,
    "options": {"first_dealer": 0}, "move": 56,
    "chance": {"seed": 7},
    "state": {
        "period": 2, "dealer": 1,
        "seats": [{"hand": ["2C", "7S", "JD"], "goals": [1, 0]},
                  {"hand": ["2H", "7D", "KD"], "goals": [0, 0]}],
        "pile": ["4D", "QS", "7C", "7H"],
        "stock": ["AC", "AD", "AH", "AS", "2D", "2S", "3C", "3D", "3H", "3S", "4C", "4H",
                  "4S", "5C", "5D", "5H", "5S", "6C", "6D", "6H", "6S", "8C", "8D", "8H",
                  "8S", "9C", "9D", "9H", "9S", "10C", "10D", "10H", "10S", "JC", "JH", "JS",
                  "QC", "QD", "QH", "KC", "KH", "KS"],
        "breakaway": 1,
    },
}


def example(edit: Callable[[dict[str, Any]], Any] | None = None) -> dict[str, Any]:
    """A copy of ``EXAMPLE`` with ``edit`` applied to its ``"state"``."""
    pos = copy.deepcopy(EXAMPLE)
    if edit is not None:
        edit(pos["state"])
    return pos


def overtime(pile: list[str], hands: list[list[str]], current: list[int],
             breakaway: int | None) -> dict[str, Any]:
    """Period 4 (overtime, seat 1 deals), deal 1 of 4 cards each; 2–2 after period 3."""
    used = {*pile, *hands[0], *hands[1]}
    pos = example()
    pos["state"] = {
        "period": 4, "dealer": 1,
        "seats": [{"hand": hands[0], "goals": [1, 0, 1, current[0]]},
                  {"hand": hands[1], "goals": [0, 2, 0, current[1]]}],
        "pile": pile, "stock": [c for c in CODES if c not in used][:44],
        "breakaway": breakaway,
    }
    return pos


def load(pos: dict[str, Any]) -> HockeyState:
    return load_state(pos, HockeyState)


def play(state: HockeyState, seat: int, code: str) -> list[dict[str, Any]]:
    return [e.full() for e in act(state, seat, f"play {code}")]


def test_the_example_loads_as_written():
    s = load(example())
    assert s.to_act() == [0] and s.move_number == 56
    assert [s.game.action_to_json(a) for a in s.legal_actions(0)] == [
        "play 2C", "play 7S", "play JD"]
    v = s.view(0)
    assert (v["period"], v["dealer"], v["deal"], v["stock"], v["top"]) == (2, 1, 1, 42, "7H")
    assert (v["breakaway"], v["goals"], v["hand_counts"]) == (1, [1, 0], [3, 3])
    assert s.stats()["first_dealer"] == 0


def test_the_breakaway_holder_scores_by_matching_the_next_card():
    s = load(example())
    assert play(s, 0, "2C")[0]["outcome"] == "none"  # seat 1 keeps its breakaway
    assert play(s, 1, "2H")[0]["outcome"] == "goal"
    assert s.goals == [1, 1] and s.view(None)["breakaway"] is None


def test_matching_the_breakaway_card_takes_the_breakaway():
    s = load(example())
    assert play(s, 0, "7S")[0]["outcome"] == "breakaway"
    assert s.view(None)["breakaway"] == 0
    assert play(s, 1, "7D")[0]["outcome"] == "breakaway"  # the fourth 7 passes it on
    assert s.view(None)["breakaway"] == 1 and s.goals == [1, 0]


def test_the_example_is_written_back_as_it_was():
    assert load(example()).position()["state"] == EXAMPLE["state"]


def test_an_overtime_goal_ends_the_game_at_once():
    s = load(overtime(["5C", "5D"], [["9H", "KC", "QC"], ["9C", "2S", "3S"]], [0, 0], 1))
    assert s.view(None)["overtime"] is True and s.view(None)["deal"] == 1
    play(s, 0, "9H")
    events = play(s, 1, "9C")
    assert [e["kind"] for e in events] == ["play", "game_over"]
    assert s.is_over() and s.result().winner == 1 and s.result().scores == (2.0, 3.0)


def test_a_position_after_the_overtime_goal_is_over():
    s = load(overtime(["5C", "5D", "9H", "9C"], [["KC", "QC"], ["2S", "3S"]], [0, 1], None))
    assert s.is_over() and list(s.to_act()) == [] and s.result().winner == 1
    assert s.view(None)["winner"] == 1 and s.view(None)["to_act"] == []


def refused(pos: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=f"^{re.escape(message)}$"):
        load_position(pos)


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda state: state.__setitem__(key, value)


def _move(card: str, source: Callable[[dict[str, Any]], list[str]],
          target: Callable[[dict[str, Any]], list[str]]) -> Callable[[dict[str, Any]], None]:
    def edit(state: dict[str, Any]) -> None:
        source(state).remove(card)
        target(state).append(card)
    return edit


def hand(seat: int) -> Callable[[dict[str, Any]], list[str]]:
    return lambda state: state["seats"][seat]["hand"]


def stock(state: dict[str, Any]) -> list[str]:
    return state["stock"]


def test_an_unknown_card():
    refused(example(lambda s: s["seats"][0]["hand"].__setitem__(0, "1Z")),
            "position.state.seats[0].hand[0]: there is no card '1Z' in hockey")


def test_a_card_in_two_places():
    refused(example(lambda s: s["seats"][0]["hand"].append("7H")),
            "card 7H is both in the hand of seat 0 and in the pile")


def test_a_missing_card():
    refused(example(lambda s: s["stock"].remove("KS")),
            "1 card(s) are nowhere in the position: KS")


def test_a_seat_to_move_without_cards():
    """The pile holds four cards, so the non-dealer (seat 0) is to move."""
    def edit(state: dict[str, Any]) -> None:
        state["seats"][1]["hand"] += state["seats"][0]["hand"]
        state["seats"][0]["hand"] = []
    refused(example(edit), "seat 0 is to move but holds no cards (the non-dealer plays "
                           "first, then the seats alternate: §2, §3)")


@pytest.mark.parametrize(("edit", "message"), [
    (_set("breakaway", 0), "state.breakaway must be 1: that is what the pile gives (§4)"),
    (_set("breakaway", None), "state.breakaway must be 1: that is what the pile gives (§4)"),
    (lambda s: s["seats"][1]["goals"].__setitem__(1, 1),
     "state.seats[1].goals[1] must be 0: that is what the pile of period 2 gives seat 1 (§4)"),
    (_set("dealer", 0),
     "state.dealer must be 1 in period 2: seat 0 deals period 1 (option first_dealer) and the "
     "dealer alternates (§2)"),
    (_move("KS", stock, hand(0)),
     "state.stock holds 41 cards, but after each deal of period 2 it holds 42, 32, 22, 12, 0 "
     "(§2)"),
    (_move("KD", hand(1), hand(0)),
     "seat 0 holds 4 cards, but after 4 plays of deal 1 (5 cards each, the non-dealer first) "
     "it holds 3 (§2, §3)"),
])
def test_a_state_that_contradicts_the_rest(edit, message):
    refused(example(edit), message)


def test_a_period_that_cannot_have_begun():
    refused(overtime(["5C", "5D"], [["9H", "KC", "QC"], ["9C", "2S", "3S"]], [0, 0], 1)
            | {"options": {"first_dealer": 1}},
            "state.dealer must be 0 in period 4: seat 1 deals period 1 (option first_dealer) "
            "and the dealer alternates (§2)")
    untied = overtime(["5C", "5D"], [["9H", "KC", "QC"], ["9C", "2S", "3S"]], [0, 0], 1)
    untied["state"]["seats"][0]["goals"][0] = 2
    refused(untied, "the goals after period 3 are 3–2: the game would have ended, with no "
                    "period 4 (§6)")
    late = overtime(["5C", "5D", "9H", "9C", "KC"], [["QC"], ["2S", "3S"]], [0, 1], None)
    refused(late, "the overtime goal with 9C ended the game at once (§6): nothing is played "
                  "after it")


def test_all_cards_played_in_an_early_period():
    """No card matches the one before it, and no Jack among the last two: no goal, and
    no breakaway is left."""
    pos = example()
    pos["state"].update(period=1, dealer=0, breakaway=None, stock=[],
                        pile=period_order([], tail=["5S", "6S"]),
                        seats=[{"hand": [], "goals": [0]}, {"hand": [], "goals": [0]}])
    refused(pos, "all 52 cards of period 1 are played: period 2 would have begun (§6)")


@pytest.mark.parametrize(("edit", "message"), [
    (_set("dealer", 2), "position.state.dealer must be at most 1, not 2"),
    (_set("breakaway", 5), "position.state.breakaway must be at most 1, not 5"),
    (lambda s: s["seats"].append({"hand": [], "goals": [0, 0]}),
     "position.state.seats must have 2 entries, not 3"),
])
def test_a_bad_seat_number(edit, message):
    refused(example(edit), message)


@pytest.mark.parametrize(("edit", "message"), [
    (lambda s: s.update(brekaway=s.pop("breakaway")),
     "position.state has unknown field 'brekaway'"),
    (lambda s: s["seats"][1].update(goal=0), "position.state.seats[1] has unknown field 'goal'"),
])
def test_a_misspelt_key(edit, message):
    refused(example(edit), message)


def test_goals_are_listed_for_every_period_so_far():
    refused(example(lambda s: s["seats"][0]["goals"].pop()),
            "position.state.seats[0].goals must have 2 entries, not 1")
