"""Positions (issue 19): every game's state round-trips through plain JSON exactly, and a
hand-written position is checked on load. Knows no game: it uses only the engine API."""

from __future__ import annotations

import json
import random

import pytest
from cases import player_cases
from test_conformance import random_bots, sample_states, snapshot

from spieltisch import load_position
from spieltisch.core import ConfigError, IllegalAction, game_names, get_spec
from spieltisch.core.position import FORMAT, VERSION, rng_from_text, rng_to_text
from spieltisch.runner import step


def through_json(pos: dict) -> dict:
    """What a file or a network would give back: JSON text, parsed again."""
    return json.loads(json.dumps(pos))


def same_position(a, b) -> None:
    """Two states that no observer can tell apart."""
    n = a.num_players
    assert snapshot(a) == snapshot(b)
    for seat in [*range(n), None]:
        assert a.view(seat) == b.view(seat), f"view of seat {seat}"
    assert sorted(a.to_act()) == sorted(b.to_act())
    assert sorted(a.out_of_turn()) == sorted(b.out_of_turn())
    for seat in range(n):
        assert a.legal_actions(seat) == b.legal_actions(seat), f"legal actions of seat {seat}"
    assert list(a.deadlines()) == list(b.deadlines())
    assert list(a.frozen_timers()) == list(b.frozen_timers())
    assert a.stats() == b.stats()
    assert a.is_over() == b.is_over() and a.move_number == b.move_number


def play_both(a, b, seed: int, limit: int = 200) -> None:
    """The same actions (random bots, deadlines when nobody acts) from both states give
    identical events and results."""
    bots = random_bots(a.game, seed)
    rng = random.Random(seed)
    seen: list = []
    for _ in range(limit):
        if a.is_over():
            break
        seat, action = step(a, bots, rng, on_event=lambda s, x, events: seen.append(events))
        events_b = b.apply(seat, action)
        assert [e.full() for e in events_b] == [e.full() for e in seen.pop()]
        assert snapshot(a) == snapshot(b)
    assert a.is_over() == b.is_over()
    if a.is_over():
        assert a.result() == b.result()


@pytest.mark.parametrize("name,n", player_cases())
def test_positions_round_trip(name, n):
    """For states met in random games (fresh deals, mid-round, windows, pauses, game end),
    ``load_position(state.position())`` is the same state and plays on identically."""
    states = sample_states(name, n, games=3, every=5, limit=60)
    # the even spread of long games' states may miss every game end: add one
    states += sample_states(name, n, games=1, seed=2, every=10**9)[-1:]
    assert any(s.is_over() for s in states)
    for i, state in enumerate(states):
        pos = through_json(state.position())
        assert pos["format"] == FORMAT and pos["version"] == VERSION and pos["game"] == name
        loaded = load_position(pos)
        same_position(state, loaded)
        assert through_json(loaded.position()) == pos, "a loaded position writes itself again"
        play_both(state.clone(), loaded, seed=i)


@pytest.mark.parametrize("name", game_names())
def test_positions_refuse_what_is_not_one(name):
    """Envelope errors name the problem (the game's own checks are in its tests)."""
    state = get_spec(name).configure().new_state(seed=5)
    pos = through_json(state.position())
    cases = {
        "version 99 is not supported": {**pos, "version": 99},
        "unknown game 'chess'": {**pos, "game": "chess"},
        "is for": {**pos, "players": 99},
        "unknown option 'nonsense'": {**pos, "options": {"nonsense": 1}},
        "position has unknown field 'extra'": {**pos, "extra": 1},
        "position.state is missing": {k: v for k, v in pos.items() if k != "state"},
        "position.move must be a whole number": {**pos, "move": "3"},
        "position.chance takes either a seed or an rng": {**pos, "chance": {"seed": 1,
                                                                             "rng": "x"}},
        "position.chance.rng is not a generator state": {**pos, "chance": {"rng": "@@"}},
    }
    for expected, bad in cases.items():
        with pytest.raises(ConfigError, match=expected):
            load_position(bad)
    with pytest.raises(ConfigError, match="not valid JSON: Expecting property name enclosed "
                                          "in double quotes at line 1, column 2"):
        load_position("{oops")
    with pytest.raises(ConfigError, match="contains NaN"):
        load_position(json.dumps(pos).replace(f'"move": {pos["move"]}', '"move": NaN'))
    with pytest.raises(ConfigError, match="must be a JSON object, not a list"):
        load_position("[]")
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_position(b"\xff\xfe")


@pytest.mark.parametrize("name", game_names())
def test_a_seed_replaces_the_generator(name):
    """A hand-written position may give a seed instead of the generator's state: two loads
    of it play on identically (the future is fixed by the seed)."""
    state = get_spec(name).configure().new_state(seed=11)
    pos = through_json(state.position())
    pos["chance"] = {"seed": 42}
    a, b = load_position(pos), load_position(pos)
    same_position(a, b)
    play_both(a, b, seed=3)


def test_generator_text_round_trips():
    rng = random.Random(1234)
    rng.random()
    again = rng_from_text(rng_to_text(rng), "rng")
    assert [again.random() for _ in range(5)] == [rng.random() for _ in range(5)]
    rng.gauss(0, 1)  # leaves a cached second normal in the state
    again = rng_from_text(rng_to_text(rng), "rng")
    assert again.gauss(0, 1) == rng.gauss(0, 1)


def test_a_loaded_state_refuses_what_the_original_refuses():
    """Loading does not loosen the rules: an illegal action stays illegal."""
    state = get_spec("president").configure(4).new_state(seed=2)
    loaded = load_position(state.position())
    seat = state.to_act()[0]
    wrong = next(a for a in range(state.game.num_actions)
                 if a not in state.legal_actions(seat))
    with pytest.raises(IllegalAction):
        loaded.apply(seat, wrong)
