"""Bot levels: which bot plays each level, the hard level's budgets, and its time cap."""

from __future__ import annotations

import dataclasses
import time

import pytest

from spieltisch.bots.base import Observation
from spieltisch.bots.ismcts import ISMCTSBot
from spieltisch.bots.levels import (
    DEFAULT_HARD_BUDGET,
    HARD_MS,
    Level,
    bot_spec,
    hard_budget,
    make_seat_bot,
    offered,
)
from spieltisch.core import game_names, get_spec


@pytest.mark.parametrize("name", game_names())
def test_each_level_names_its_bot(name: str) -> None:
    game = get_spec(name).configure()
    budget = DEFAULT_HARD_BUDGET if game.spec.hard_budget is None else game.spec.hard_budget
    # medium is the game's rule of thumb, random for a game without one (a game's own
    # tests say whether it has one: its bot is part of its package)
    medium = "heuristic" if "heuristic" in game.bots() else "random"
    assert bot_spec(game, Level.EASY) == "random"
    assert bot_spec(game, Level.MEDIUM) == medium
    settings = f":{game.spec.hard_search}" if game.spec.hard_search else ""
    assert bot_spec(game, Level.HARD) == \
        f"ismcts:{budget}:react_budget={round(budget / 4)}{settings}:ms={HARD_MS}"
    hard = make_seat_bot(game, "hard", 1, 7)
    assert isinstance(hard, ISMCTSBot)
    assert (hard.budget, hard.react_budget, hard.ms, hard.seat) == \
        (budget, round(budget / 4), HARD_MS, 1)
    assert make_seat_bot(game, "medium", 0, 7).name == medium
    assert make_seat_bot(game, "easy", 0, 7).name == "random"
    assert make_seat_bot(game, "ismcts:30", 0, 7).budget == 30  # plain specs pass through


def test_measured_budgets_come_from_the_spec_and_others_get_the_default() -> None:
    hockey = get_spec("hockey")
    assert hard_budget(hockey) == hockey.hard_budget == 1100
    assert hard_budget(dataclasses.replace(hockey, hard_budget=None)) == DEFAULT_HARD_BUDGET


def test_levels_are_offered_in_the_readers_language() -> None:
    assert offered("en") == [
        {"level": "easy", "label": "Easy",
         "about": "Plays a random legal move. Bots never see hidden cards."},
        {"level": "medium", "label": "Medium",
         "about": "Plays by rules of thumb for this game, like a fair casual player. "
                  "Bots never see hidden cards."},
        {"level": "hard", "label": "Hard",
         "about": "Thinks ahead by trying out many possible deals of the cards it cannot "
                  "see, up to 2 seconds a move. Bots never see hidden cards."}]
    assert [lv["label"] for lv in offered("nl")] == ["Makkelijk", "Gemiddeld", "Moeilijk"]


def test_a_hard_decision_stops_at_its_time_cap() -> None:
    """Even with a budget it cannot spend in time, the hard bot answers by ``HARD_MS``."""
    game = get_spec("president").configure()
    state = game.new_state(seed=4)
    seat = state.to_act()[0]
    assert len(state.legal_actions(seat)) > 1  # a real decision: it searches
    bot = make_seat_bot(game, "hard", seat, 1)
    assert isinstance(bot, ISMCTSBot)
    bot.budget = 10 ** 9  # the cap alone stops it
    bot.ms = 300.0  # a short cap keeps the test quick; HARD_MS works the same way
    start = time.perf_counter()
    action = bot.act(Observation(state, seat))
    elapsed = time.perf_counter() - start
    assert action in state.legal_actions(seat)
    assert 0.3 <= elapsed < 1.0 and bot.last_search["simulations"] > 1
