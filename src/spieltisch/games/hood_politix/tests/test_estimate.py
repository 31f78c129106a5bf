"""``estimate()``: minus (points so far + expected place this round, centred)."""

from __future__ import annotations

import random
from typing import cast

from spieltisch import load_position
from spieltisch.bots.base import RandomBot
from spieltisch.core import get_spec
from spieltisch.games.hood_politix.state import HoodPolitixState
from spieltisch.games.hood_politix.terms import FINISHED
from spieltisch.runner import step

from .test_scenarios import A, B, D, position

C_ = 2


def test_finished_first_then_fewest_cards_and_ties_share_places():
    scores = {A: 3, B: 4, C_: 5, D: 6}
    s = cast(HoodPolitixState, load_position(position(
        "G7", {A: ["G3"], B: ["Y5", "Y6", "Y7"], C_: ["P4", "P5", "P6"]},
        exact=(A, B, C_, D), finish_order=[D],
        seats={p: {"score": scores[p], "status": "finished" if p == D else "in"}
               for p in range(4)})))
    assert s.status[D] == FINISHED
    # D 1st, A (1 card) 2nd, B and C (3 cards) share 3rd/4th; mean place 2.5.
    assert s.estimate() == [-(3 + 2 - 2.5), -(4 + 3.5 - 2.5), -(5 + 3.5 - 2.5),
                            -(6 + 1 - 2.5)]


def test_equal_hands_at_a_round_start_and_the_game_end_give_the_standing():
    game = get_spec("hood_politix").configure(4)
    s = game.new_state(seed=2)
    assert s.estimate() == s.standing()  # a fresh deal: equal prospects
    rng = random.Random(2)
    bots = [RandomBot(game, p, p, react_p=0.3) for p in range(4)]
    round_ = s.round_number()
    while not s.is_over():
        step(s, bots, rng)
        estimate = s.estimate()
        assert estimate is not None and len(estimate) == 4
        if s.round_number() != round_ and not s.is_over():
            round_ = s.round_number()
            assert s.estimate() == s.standing()
    assert s.estimate() == s.standing()


def test_estimate_ignores_the_draw_pile_and_future_chance():
    game = get_spec("hood_politix").configure(4)
    s = cast(HoodPolitixState, game.new_state(seed=5))
    pos = s.position()
    random.Random(1).shuffle(pos["state"]["draw"])
    pos["state"]["buried"] = 0  # the buried cards may be anywhere now
    pos["chance"] = {"seed": 9}
    t = cast(HoodPolitixState, load_position(pos))
    assert t.draw != s.draw and t.estimate() == s.estimate()
