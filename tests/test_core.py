"""Engine core behaviour independent of any one game."""

from __future__ import annotations

import pytest

from spieltisch.core import ConfigError, IllegalAction, get_spec, new_game
from spieltisch.core.cards import Shuffler, cards_of, mask_of


def test_unknown_game_and_bad_player_count():
    with pytest.raises(ConfigError, match="unknown game 'uno'"):
        new_game("uno")
    with pytest.raises(ConfigError, match="4–8 players, not 9"):
        new_game("president", 9)


def test_options_are_typed_and_validated():
    spec = get_spec("president")
    assert spec.configure(4, {"skip_rule": "on"}).options["skip_rule"] is True
    with pytest.raises(ConfigError, match="'skip_rule' of president must be a bool"):
        spec.configure(4, {"skip_rule": 3})
    with pytest.raises(ConfigError, match="at most 7"):
        spec.configure(4, {"first_leader": 8})
    with pytest.raises(ConfigError, match="below the player count"):
        spec.configure(4, {"first_leader": 5})


def test_stacked_deck_errors_are_named():
    game = get_spec("president").configure(4)
    with pytest.raises(ConfigError, match="unknown card code 'XX'"):
        game.new_state(deck=["XX"])
    with pytest.raises(ConfigError, match="at most once"):
        game.new_state(deck=["3C", "3C"])


def test_partial_stacked_order_fills_up_in_id_order():
    import random

    sh = Shuffler(random.Random(0), [[5, 2]])
    assert sh.shuffled(range(6)) == [5, 2, 0, 1, 3, 4]
    assert sorted(sh.shuffled(range(6))) == list(range(6))  # then the generator


def test_bitmask_helpers():
    assert cards_of(mask_of([3, 0, 9])) == [0, 3, 9]


def test_illegal_seat_and_out_of_space_action():
    s = new_game("president", 4, seed=1)
    with pytest.raises(IllegalAction, match="no seat 7"):
        s.apply(7, 1)
    with pytest.raises(IllegalAction, match="outside the action space"):
        s.apply(s.to_act()[0], 10_000)
    with pytest.raises(IllegalAction, match="no deadline"):
        s.apply(-1, 0)
