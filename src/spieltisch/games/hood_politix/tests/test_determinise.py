"""``determinise`` redeals hidden hands with a partial shuffle and leaves the unseen
draw pile unordered; each draw from it takes a random one of its cards."""

from __future__ import annotations

import random
from collections import Counter
from typing import cast

from spieltisch.bots.base import RandomBot
from spieltisch.core import Verdict, get_spec
from spieltisch.core.cards import cards_of
from spieltisch.games.hood_politix import cards as C
from spieltisch.games.hood_politix.state import HoodPolitixState
from spieltisch.runner import step


def _mid_round(seed: int = 3, actions: int = 25):
    game = get_spec("hood_politix").configure(4)
    state = cast(HoodPolitixState, game.new_state(seed=seed))
    rng = random.Random(seed)
    bots = [RandomBot(game, s, seed + s) for s in range(4)]
    for _ in range(actions):
        step(state, bots, rng)
    assert not state.is_over() and state.round == 1
    return state


def test_real_games_never_hold_unordered_cards():
    game = get_spec("hood_politix").configure(4)
    state = cast(HoodPolitixState, game.new_state(seed=1))
    rng = random.Random(1)
    bots = [RandomBot(game, s, s) for s in range(4)]
    for _ in range(400):
        if state.is_over():
            break
        assert state.unordered == 0
        step(state, bots, rng)


def test_sample_keeps_known_cards_sizes_and_buried_bottom():
    state = _mid_round()
    seat = 0
    unseen = sum(state.hands[p] & ~(state.seen[seat] | state.public)
                 for p in range(4) if p != seat) | sum(1 << c for c in
                                                       state.draw[state.buried:])
    rng = random.Random(5)
    for _ in range(20):
        s = state.determinise(seat, rng)
        assert s.hands[seat] == state.hands[seat]
        assert [h.bit_count() for h in s.hands] == [h.bit_count() for h in state.hands]
        assert s.draw[:s.buried] == state.draw[:state.buried]
        assert s.unordered == len(s.draw) - s.buried
        # every other card the seat cannot see went to a hand or the unordered pile
        redealt = sum(s.hands[p] for p in range(4) if p != seat) & unseen
        pile = sum(1 << c for c in s.draw[s.buried:])
        assert redealt | pile == unseen and not redealt & pile


def test_draws_from_a_sample_are_uniform_over_the_unseen_cards():
    """A sample's next draws give any card the seat cannot see alike, as the top of a
    fully shuffled pile would (not the list's last cards): 4,000 samples, each drawing
    the 2 penalty cards of a false accusation (§5.2)."""
    state = _mid_round()
    seat = state.due
    judas = C.ACCUSE_ID[(seat + 1) % 4][C.F_MIC_DROP]
    assert state.judge(seat, judas).verdict is Verdict.FAULTY
    know = state.hands[seat] | state.seen[seat] | state.public
    unseen = {c for p in range(4) for c in cards_of(state.hands[p] & ~know)}
    unseen |= set(state.draw[state.buried:])
    rng = random.Random(7)
    first: Counter[int] = Counter()
    for _ in range(4000):
        s = state.determinise(seat, rng)
        before = s.hands[seat]
        s.apply(seat, judas)
        drawn = cards_of(s.hands[seat] & ~before)
        assert len(drawn) == 2 and s.unordered == len(s.draw) - s.buried
        first.update(drawn)
    assert set(first) == unseen
    expected = 2 * 4000 / len(unseen)
    assert all(0.4 * expected <= k <= 1.6 * expected for k in first.values())


def test_sample_plays_to_the_end_with_the_same_rng_twice():
    """Same rng seed, same sample, same future (the sample draws its chance from it)."""
    state = _mid_round()
    game = state.game

    def play(seed: int) -> list:
        rng = random.Random(seed)
        s = state.determinise(1, rng)
        bots = [RandomBot(game, p, 40 + p) for p in range(4)]
        out: list[tuple] = []
        step_rng = random.Random(2)
        while not s.is_over() and len(out) < 300:
            step(s, bots, step_rng)
            out.append((s.move_number, list(s.hands), len(s.draw)))
        return out

    assert play(11) == play(11)
    assert play(11) != play(12)
