"""The views' memo key against the fields it stands for."""

import random
from typing import Any

from spieltisch.core import State, get_spec
from spieltisch.games.hoax.state import HoaxState
from spieltisch.games.hoax.views import RECORD_FIELDS, HoaxViews, public_key, seat_pickers


def test_public_key_reads_the_record_fields_in_order():
    """``public_key`` is written out; it must read what ``RECORD_FIELDS`` declares, in
    order, so that ``seat_pickers`` picks each seat's own entries."""
    game = get_spec("hoax").configure(5)
    state = game.new_state(seed=3)
    assert isinstance(state, HoaxState)
    rng = random.Random(3)
    for _ in range(60):  # into a turn, with chips and covers that differ per seat
        seat = rng.choice(state.may_act() or [state.deadlines()[0].seat])
        legal = state.legal_actions(seat) if seat >= 0 else []
        if legal:
            state.apply(seat, rng.choice(legal))
        else:
            d = state.deadlines()[0]
            state.apply(d.seat, d.action)
    state.revealed = 0b100
    expected = (state.in_round, state.revealed, tuple(state.card),
                *(x for name, _width in RECORD_FIELDS for x in getattr(state, name)))
    assert public_key(state) == expected
    picked = [pick(public_key(state)) for pick in seat_pickers(5)]
    assert picked[2] == (state.tp[2], *state.loose[6:9], state.trios[2], state.covered[2],
                         state.start_cover[2], state.doubt_cov[2], state.known_is[2],
                         state.known_not[2])


def test_views_of_copies_are_the_views_of_fresh_states():
    """Copies share their log's entries and the views their public part: viewed in turn
    with the original, each view is what a new set of views would build."""
    game = get_spec("hoax").configure(4)
    state = game.new_state(seed=5)
    rng = random.Random(5)
    states = [state]
    for step in range(120):
        s = rng.choice(states)
        if s.is_over():
            continue
        if step % 10 == 0:
            s = s.clone()
            states.append(s)
        random_step(s, rng)
        for other in rng.sample(states, min(3, len(states))):
            for viewer in (None, 0, 2):
                assert other.view(viewer) == other.view(viewer)  # the memo's answer twice
                fresh = HoaxViews(game).view(other, viewer)  # type: ignore[arg-type]
                got = game.views.view(other, viewer)  # type: ignore[attr-defined]
                assert got == fresh


def random_step(s: State[Any], rng: random.Random) -> None:
    """A random legal move of a random seat that may act, else the first deadline's."""
    seat = rng.choice(s.may_act()) if s.may_act() else -1
    if seat >= 0 and s.legal_actions(seat):
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    else:
        d = s.deadlines()[0]
        s.apply(d.seat, d.action)


def test_a_seat_view_reads_as_the_view_without_who_may_act():
    """``seat_view`` (a rollout bot's view) holds every field of ``view`` with the same
    value but ``to_act`` and ``out_of_turn``, whatever state was viewed before (the
    views' caches serve every state of the game), and nothing else."""
    game = get_spec("hoax").configure(5)
    state = game.new_state(seed=8)
    rng = random.Random(8)
    states = [state]
    votes = 0
    for step in range(200):
        s = rng.choice(states)
        if s.is_over():
            continue
        if step % 25 == 0:
            states.append(s.clone())
        for seat in range(5):
            lean, full = s.seat_view(seat), s.view(seat)
            del full["to_act"], full["out_of_turn"]
            # ... and both as a fresh ``HoaxViews`` (no caches) builds them
            fresh = {**HoaxViews(game).view(s, seat),  # type: ignore[arg-type]
                     **s.common_view(seat)}
            del fresh["to_act"], fresh["out_of_turn"]
            assert lean == full == fresh
            votes += "my_vote" in full["pending"]
        random_step(s, rng)
    assert votes  # a seat's own vote was among the fields compared
