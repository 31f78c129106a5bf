"""The heuristic bot: quick, finishing games, and stronger than random play."""

from __future__ import annotations

import random

from spieltisch.bots.base import RandomBot
from spieltisch.core import get_spec
from spieltisch.games.hoax.bot import HeuristicBot
from spieltisch.runner import play_out


def test_heuristic_games_end_in_sensible_length() -> None:
    game = get_spec("hoax").configure(6)
    for g in range(20):
        s = game.new_state(seed=g)
        play_out(s, [HeuristicBot(game, i, g * 10 + i) for i in range(6)], random.Random(g))
        assert s.is_over() and s.turns < 400


def test_knowledge_resets_with_a_new_round() -> None:
    game = get_spec("hoax").configure(4)
    s = game.new_state(seed=3)
    bots = [HeuristicBot(game, i, i) for i in range(4)]
    from spieltisch.bots.base import Observation
    from spieltisch.runner import step
    rng = random.Random(3)
    rounds = set()
    while not s.is_over():
        step(s, bots, rng)
        view = Observation(s, 0).view
        bots[0].beliefs(view)
        k = bots[0].k
        assert k.round == view["round"] and k.pos == len(view["log"])
        rounds.add(k.round)
    assert len(rounds) >= 2


def test_heuristic_beats_random() -> None:
    game = get_spec("hoax").configure(5)
    wins = 0
    games = 100
    for g in range(games):
        hs = g % 5
        bots = [HeuristicBot(game, i, g * 10 + i) if i == hs else RandomBot(game, i, g * 10 + i)
                for i in range(5)]
        s = game.new_state(seed=g)
        play_out(s, bots, random.Random(g))
        wins += s.winner == hs
    assert wins > 35  # random play would win about 20
