"""The heuristic bot's hand valuation and its parameters."""

from __future__ import annotations

import pytest

from spieltisch.bots import make_bot
from spieltisch.core import get_spec
from spieltisch.core.game import ConfigError
from spieltisch.games.pixmit import bot as B
from spieltisch.games.pixmit import cards as C


@pytest.mark.parametrize(("numbers", "chances", "value"), [
    # no unit yet; Schöpfung (03 20 25) one card away is worth 40 × 0.4 = 16
    ((3, 20), 1.0, 16 * 0.6),
    ((3, 20), 0.5, 0.5 * 16 * 0.6),
    ((3, 20), 0.0, 0.0),
    # a complete Schöpfung scores 40 now, and nothing reachable is worth more
    ((3, 20, 25), 1.0, 40.0),
    # Elite (07 09 10 21) two cards away: 150 × 0.15 = 22.5 over the 10 scored now
    ((7, 10, 15), 1.0, 10 + 12.5 * 0.6),
    ((7, 10, 15), 0.0, 10.0),
])
def test_potential_is_the_score_plus_a_share_of_the_best_reachable_unit(
        numbers: tuple[int, ...], chances: float, value: float) -> None:
    hand = C.m(*numbers)
    B._PROSPECTS.clear()
    first = B.potential(hand, chances)
    assert first == pytest.approx(value)
    assert hand in B._PROSPECTS  # the second valuation comes from the memo, unchanged
    assert B.potential(hand, chances) == first


def test_the_bot_takes_its_parameters_from_the_spec_and_names_a_wrong_one() -> None:
    game = get_spec("pixmit").configure(4)
    bot = make_bot(game, "heuristic::call_at=40:bluff=0", 1, 3)
    assert isinstance(bot, B.HeuristicBot)
    assert (bot.call_at, bot.bluff, bot.number, bot.creation) == (40.0, 0.0, 0.2, 0.5)
    with pytest.raises(ConfigError, match="no parameter 'callat'.*bluff, call_at, creation"):
        make_bot(game, "heuristic::callat=40", 1, 3)
