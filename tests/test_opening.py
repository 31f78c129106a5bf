"""The first deal is told too: ``State.opening`` holds the events of the deal before the
first action, and every game's narrator tells them (issue 18: the log starts with the deal)."""

from __future__ import annotations

import pytest

from spieltisch.core import game_names, get_spec, load_position
from spieltisch.i18n import LANGUAGES
from spieltisch.narration import narrate


@pytest.mark.parametrize("name", game_names())
def test_the_first_deal_is_told_to_each_seat_with_its_own_cards(name):
    game = get_spec(name).configure()
    state = game.new_state(seed=4)
    if not state.opening:
        pytest.skip(f"{name}'s first deal is no event of its own (Pixmit starts with a turn)")
    names = [f"P{s}" for s in range(game.num_players)]
    for lang in LANGUAGES:
        spectator = [narrate(game, e.for_seat(None), names, lang) for e in state.opening]
        for seat in range(game.num_players):
            told = [narrate(game, e.for_seat(seat), names, lang, seat) for e in state.opening]
            private = [e for e in state.opening if e.private and seat in e.private]
            assert private, f"{name}: seat {seat} is dealt nothing it alone sees"
            assert told != spectator, f"{name}: seat {seat} is not told its own cards ({lang})"
            for line in told:
                assert line and not any(ch in line for ch in "={}[]"), line


@pytest.mark.parametrize("name", game_names())
def test_a_loaded_position_has_no_opening(name):
    state = get_spec(name).configure().new_state(seed=4)
    assert load_position(state.position()).opening == ()
