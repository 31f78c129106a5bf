"""An offer is two actions, `target T` then `offer c1 [c2]` (rules.md [DECISION]
"An offer is two actions"): the order, the privacy of the target and the text forms."""

from __future__ import annotations

import random

import pytest

from spieltisch.core import IllegalAction
from spieltisch.games.pixmit.actions import ActionSpace
from spieltisch.games.pixmit.terms import Phase
from spieltisch.narration import board

from .helpers import (
    C_,
    A,
    B,
    act,
    deal_order,
    legal_texts,
    load,
    new_state,
    numbers,
    position,
)


def three_players():
    """A holds 01 02, B 03 04, C 05 06; A starts."""
    return new_state(deal_order({A: [1, 2], B: [3, 4], C_: [5, 6]}, [], 3, A), 3)


def test_target_then_cards_make_one_offer():
    state = three_players()
    space = state.game.space
    assert legal_texts(state, A) == {"target 1", "target 2"}
    assert state.apply(A, space.from_text("target 1")) == []  # no event
    assert state.log == [] and state.phase is Phase.TURN and state.to_act() == (A,)
    assert legal_texts(state, A) == {"offer 01", "offer 02", "offer 01 02"}
    events = state.apply(A, space.from_text("offer 01 02"))
    assert [(e.kind, e.seat, e.public, e.private) for e in events] == \
        [("offer", A, {"target": B, "k": 2}, {A: {"cards": ["01", "02"]}})]
    assert state.log == [{"kind": "offer", "seat": A, "target": B, "k": 2}]
    assert state.view(A)["offer"] == {"from": A, "to": B, "k": 2, "claims": [],
                                      "cards": ["01", "02"]}
    assert state.view(B)["offer"] == {"from": A, "to": B, "k": 2, "claims": []}
    assert "offer_target" not in state.view(A)
    act(state, A, "claim none")
    act(state, A, "claim DK")
    act(state, B, "accept")
    act(state, B, "return 03 04")
    assert numbers(state.hands[A]) == {3, 4} and numbers(state.hands[B]) == {1, 2}
    assert state.log[-1] == {"kind": "swap", "seat": A, "target": B, "k": 2}
    assert state.active == B and state.target == -1
    assert legal_texts(state, B) == {"target 0", "target 2"}


def test_the_target_is_private_until_the_cards_follow():
    state = three_players()
    before = {p: state.view(p) for p in (None, B, C_)}
    act(state, A, "target 2")
    assert {p: state.view(p) for p in (None, B, C_)} == before
    mine = state.view(A)
    assert mine["offer_target"] == C_ and mine["may_call"] is False
    assert mine["offer"] is None and mine["log"] == []
    assert state.full_view()["offer_target"] == C_
    told = board(state.game, mine, ["Anna", "Ben", "Carl"], "en", A)
    assert "Your offer goes to Carl: now choose" in told
    # determinisation: only the active seat's own samples keep the choice
    rng = random.Random(1)
    assert state.determinise(A, rng).target == C_
    for seat in (B, C_):
        sample = state.determinise(seat, rng)
        assert sample.target == -1
        assert legal_texts(sample, A) == {"target 1", "target 2"}
    act(state, A, "offer 02")
    assert state.view(B)["offer"] == {"from": A, "to": C_, "k": 1, "claims": []}
    assert state.log == [{"kind": "offer", "seat": A, "target": C_, "k": 1}]


def test_illegal_orders():
    state = three_players()
    with pytest.raises(IllegalAction, match="choose the target first"):
        act(state, A, "offer 01")
    with pytest.raises(IllegalAction, match="another seat holding cards"):
        act(state, A, "target 0")
    with pytest.raises(IllegalAction, match="may not act now"):
        act(state, B, "target 0")
    act(state, A, "target 1")
    for text in ("target 2", "knowledge", "call"):
        with pytest.raises(IllegalAction, match="the target .seat 1. is chosen"):
            act(state, A, text)
    with pytest.raises(IllegalAction, match="may not act now"):
        act(state, B, "offer 03")
    with pytest.raises(IllegalAction, match="cards of your own hand"):
        act(state, A, "offer 03")
    assert state.log == [] and state.target == B


def test_no_call_or_wissen_after_the_target():
    """A callable hand with Wissen: both are offered until the target is chosen."""
    state = load(position(3, {A: [15, 19, 26, 5, 20, 21], B: [3, 4], C_: [6]}))
    assert {"call", "knowledge", "target 1", "target 2"} <= legal_texts(state, A)
    act(state, A, "target 2")
    # C holds one card: single offers only (k ≤ |hand(T)|)
    assert legal_texts(state, A) == {f"offer {x:02d}" for x in (5, 15, 19, 20, 21, 26)}
    with pytest.raises(IllegalAction, match="seat 2 holds 1 card"):
        act(state, A, "offer 15 19")


def test_text_forms():
    for n in (2, 3, 4):
        space = ActionSpace(n)
        # call..pass, n targets, 561 offers, 561 returns, 33 messenger, 33 bottom, 42 claims
        assert space.size == 6 + n + 561 + 561 + 33 + 33 + 42
        for a in range(space.size):
            assert space.from_text(space.to_text(a)) == a
    space = ActionSpace(4)
    assert space.to_text(6 + 2) == "target 2" and space.from_text("target 2") == 8
    assert space.decode(space.from_text("offer 05 13")) == ("offer", 162, 0)
    assert space.to_text(space.from_text("offer 13 5")) == "offer 05 13"
    with pytest.raises(IllegalAction, match="'target 2', then 'offer 05 13'"):
        space.from_text("offer 2 05 13")  # the old one-action form of older replays
    with pytest.raises(IllegalAction, match="'target 1', then 'offer 07'"):
        space.from_text("offer 1 07")
    for bad in ("target 4", "target", "target 1 2"):
        with pytest.raises(IllegalAction, match="takes one number from 0 to 3"):
            space.from_text(bad)
