"""Engine core behaviour independent of any one game."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from spieltisch.core import ConfigError, IllegalAction, get_spec, new_game
from spieltisch.core.cards import Shuffler, cards_of, deal_masks, mask_of


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


def test_events_are_redacted_per_seat():
    s = new_game("president", 4, seed=3)
    # The first round's deal event is produced at creation; find it via a fresh round end.
    from spieltisch.core.game import Event

    ev = Event("deal", None, {"round": 1}, {0: {"hand": ["3C"]}, 1: {"hand": ["4C"]}})
    assert ev.for_seat(0)["hand"] == ["3C"]
    assert "hand" not in ev.for_seat(2) and "hand" not in ev.for_seat(None)
    assert ev.full()["private"] == {"0": {"hand": ["3C"]}, "1": {"hand": ["4C"]}}
    # Exchange events tell only giver and receiver which cards moved.
    import random

    rng = random.Random(0)
    while s.round < 2:
        seat = s.to_act()[0]
        events = s.apply(seat, rng.choice(s.legal_actions(seat)))
    exchanges = [e for e in events if e.kind == "exchange"]
    assert exchanges
    for e in exchanges:
        giver, receiver = e.seat, e.public["to"]
        for seat in range(4):
            assert ("cards" in e.for_seat(seat)) == (seat in (giver, receiver))


def test_deal_masks_deals_each_need_uniformly():
    """``deal_masks``: disjoint hands of the asked sizes, drawn from ``cards``; the dealt
    cards first in the list; every card equally likely in every hand."""
    rng = random.Random(3)
    seen: Counter[tuple[int, int]] = Counter()
    trials = 6000
    for _ in range(trials):
        cards = [10, 11, 12, 13, 14, 15]
        hands = deal_masks(cards, [2, 0, 3], rng)
        assert [h.bit_count() for h in hands] == [2, 0, 3]
        assert hands[0] & hands[2] == 0
        assert sorted(cards) == [10, 11, 12, 13, 14, 15]
        assert hands[0] | hands[2] == sum(1 << c for c in cards[:5])
        for p, h in enumerate(hands):
            for c in range(10, 16):
                if h >> c & 1:
                    seen[p, c] += 1
    for c in range(10, 16):  # hand 0 gets 2 of 6 cards, hand 2 gets 3 of 6
        assert abs(seen[0, c] / trials - 2 / 6) < 0.025
        assert abs(seen[2, c] / trials - 3 / 6) < 0.025
        assert seen[1, c] == 0


def test_deal_masks_refuses_to_deal_more_than_it_has():
    with pytest.raises(ValueError, match="cannot deal 5 cards from 4"):
        deal_masks([1, 2, 3, 4], [2, 3], random.Random(1))


def test_deal_masks_last_hand_takes_the_rest_uniformly():
    """When the needs use every card, the last hand is what is left: still uniform."""
    rng = random.Random(4)
    seen: Counter[tuple[int, int]] = Counter()
    for _ in range(4000):
        hands = deal_masks([0, 1, 2, 3], [1, 3], rng)
        assert hands[0] | hands[1] == 15 and hands[0] & hands[1] == 0
        seen[0, hands[0].bit_length() - 1] += 1
    assert all(abs(seen[0, c] / 4000 - 0.25) < 0.03 for c in range(4))


def test_cards_of_lists_every_id_ascending():
    rng = random.Random(5)
    for _ in range(3000):
        ids = sorted(rng.sample(range(300), rng.randrange(0, 70)))  # past the byte table
        assert cards_of(mask_of(ids)) == ids


def test_deal_masks_deals_every_hand_equally_often():
    """Not only every card: every two-card hand of four cards (6 of them) comes up
    about equally often, as with a full shuffle."""
    rng = random.Random(6)
    hands: Counter[int] = Counter(deal_masks([0, 1, 2, 3], [2], rng)[0] for _ in range(6000))
    assert len(hands) == 6
    assert all(abs(k / 6000 - 1 / 6) < 0.03 for k in hands.values())
