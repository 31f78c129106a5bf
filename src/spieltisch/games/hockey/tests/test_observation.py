"""Hockey's own RL observation (``observation.py``) carries its view and nothing more.

``decode`` rebuilds the view's fields from the observation's slots alone (by their
labels); it must give back the view itself, except the pile's order below the top two
cards (the observation keeps the pile as a set, the top and the rank under it).
"""

from __future__ import annotations

import json
import random
from array import array
from typing import Any, cast

from spieltisch.core import get_spec
from spieltisch.games.hockey.cards import CODES, RANKS
from spieltisch.games.hockey.observation import HockeyObserver
from spieltisch.games.hockey.state import HockeyState


def play(games: int, seed: int) -> list[HockeyState]:
    """Every state of random games (overtime included: ties after period 3 are common)."""
    game = get_spec("hockey").configure(2, {})
    rng = random.Random(seed)
    out: list[HockeyState] = []
    for g in range(games):
        s = cast(HockeyState, game.new_state(seed=seed * 1000 + g))
        while True:
            out.append(cast(HockeyState, s.clone()))
            if s.is_over():
                break
            seat = s.to_act()[0]
            s.apply(seat, rng.choice(s.legal_actions(seat)))
    return out


def decode(obs: HockeyObserver, D: array, seat: int) -> dict[str, Any]:
    """The view's fields, read back from the slots."""
    on = obs.named(D)
    absolute = {"me": seat, "opp": 1 - seat}

    def one(prefix: str) -> str | None:
        hits = [k[len(prefix) + 1:] for k in on if k.startswith(prefix + "=")]
        assert len(hits) <= 1, (prefix, hits)
        return hits[0] if hits else None

    def cards(prefix: str) -> list[str]:
        return [c for c in CODES if on.get(f"{prefix}={c}")]

    period = one("period")
    goals = [0, 0]
    counts = [0, 0]
    for side, s in absolute.items():
        goals[s] = round(on.get(f"goals={side}", 0) * 5)
        counts[s] = round(on.get(f"hand_count={side}", 0) * 6)
    to_move, holder, winner = one("to_move"), one("breakaway"), one("winner")
    return {
        "period": 4 if period == "overtime" else int(period),  # type: ignore[arg-type]
        "deal": int(one("deal")),  # type: ignore[arg-type]
        "dealer": absolute[one("dealer")],  # type: ignore[index]
        "to_move": None if to_move is None else absolute[to_move],
        "breakaway": None if holder is None else absolute[holder],
        "winner": None if winner is None else absolute[winner],
        "goals": goals,
        "hand_counts": counts,
        "stock": round(on.get("stock", 0) * 52),
        "hand": cards("hand"),
        "pile": sorted(cards("pile"), key=CODES.index),
        "top": one("top"),
        "below_rank": one("below_rank"),
    }


def expected(view: dict[str, Any]) -> dict[str, Any]:
    """The same fields from the view (the period capped at 4: overtime is one slot)."""
    pile = view["pile"]
    return {
        "period": min(view["period"], 4), "deal": view["deal"], "dealer": view["dealer"],
        "to_move": view["to_act"][0] if view["to_act"] else None,
        "breakaway": view["breakaway"], "winner": view["winner"],
        "goals": view["goals"], "hand_counts": view["hand_counts"], "stock": view["stock"],
        "hand": view["hand"], "pile": sorted(pile, key=CODES.index), "top": view["top"],
        "below_rank": RANKS[CODES.index(pile[-2]) >> 2] if len(pile) > 1 else None,
    }


def test_the_observation_decodes_to_the_view():
    states = play(3, seed=1)
    obs = HockeyObserver(states[0].game)
    assert any(s.period > 3 for s in states) or len({s.period for s in states}) == 3
    for s in states[::3]:
        for seat in (0, 1):
            D = obs.observe(s, seat)
            assert decode(obs, D, seat) == expected(s.view(seat))


def test_equal_views_give_equal_observations_and_hidden_cards_do_not_show():
    states = play(2, seed=2)
    obs = HockeyObserver(states[0].game)
    rng = random.Random(0)
    seen: dict[str, bytes] = {}
    for s in states[::2]:
        for seat in (0, 1):
            D = obs.observe(s, seat).tobytes()
            key = json.dumps(s.view(seat), sort_keys=True)
            assert seen.setdefault(key, D) == D
            # the opponent's hand and the stock resampled: the same observation
            assert obs.observe(s.determinise(seat, rng), seat).tobytes() == D


def rank(code: str) -> str:
    return code[:-1]


def test_derived_slots_follow_the_rules():
    """``can_score``: holding the breakaway and the top card's rank (§4); ``unseen_rank``:
    4 minus the cards of that rank in my hand and the pile."""
    states = play(2, seed=3)
    obs = HockeyObserver(states[0].game)
    scored = 0
    for s in states:
        if s.is_over():
            continue
        seat = s.to_move
        D = obs.named(obs.observe(s, seat))
        hand = s.view(seat)["hand"]
        top = s.view(seat)["top"]
        can = (s.breakaway == seat and top is not None and rank(top) != "J"
               and any(rank(c) == rank(top) for c in hand))
        assert bool(D.get("can_score")) == can
        scored += can
        for r in RANKS:
            mine = sum(rank(c) == r for c in hand)
            played = sum(rank(c) == r for c in s.view(seat)["pile"])
            assert D.get(f"unseen_rank={r}", 0) * 4 == 4 - mine - played
    assert scored > 0
