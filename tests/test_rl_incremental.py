"""The speed measures of the RL layer keep observations exact.

* ``IncrementalEncoder`` (re-encodes only the view's parts that changed) equals a fresh
  encoding at every step of random episodes, including after a part fails the fast
  path (a type discovery never met) and where ``1 == True`` could hide a change;
* the encoder's parts own contiguous, disjoint slot ranges covering the layout;
* the view contract the incremental encoder relies on (``docs/engine.md``): objects in
  a returned view are never mutated afterwards, and views built from a state's caches
  equal those of a fresh clone (which has none).
"""

from __future__ import annotations

import copy
import json
import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from spieltisch.core import game_names, get_spec  # noqa: E402
from spieltisch.rl import raw_env  # noqa: E402
from spieltisch.rl.encoding import IncrementalEncoder, ViewEncoder  # noqa: E402

GAMES = game_names()


def _episode_steps(name: str, steps: int, seed: int):
    """(env, agent, obs) along random masked play, across episode boundaries."""
    e = raw_env(name, observation="view")  # the generic encoding, for every game
    e.reset(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        agent = e.agent_selection
        obs = e.observe(agent)
        yield e, agent, obs
        if e.terminations[agent] or e.truncations[agent]:
            e.step(None)
        else:
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        if not e.agents:
            e.reset()


@pytest.mark.parametrize("name", GAMES)
def test_incremental_equals_fresh_encoding(name):
    for e, agent, obs in _episode_steps(name, 400, seed=7):
        seat = e._seat_of[agent]
        polled = seat == e._poll_seat
        fresh = e.encoder.encode(e.game_state.view(seat), seat, polled and e._poll_required,
                                 polled and not e._poll_required)
        assert np.array_equal(obs["observation"], fresh), (name, e.game_state.move_number)


@pytest.mark.parametrize("name", GAMES)
def test_parts_cover_the_layout(name):
    enc = raw_env(name, observation="view").encoder
    bounds = [(lo, hi) for _path, _f, _s, lo, hi in enc.plan]
    assert bounds[0][0] == enc.header
    assert all(lo < hi for lo, hi in bounds)
    assert all(a[1] == b[0] for a, b in zip(bounds, bounds[1:], strict=False))
    assert bounds[-1][1] == enc.size == len(enc.labels)


def test_fallback_and_bool_number_places():
    game = get_spec("president").configure(None, {})
    samples = [{"x": True, "n": 3, "l": [1, 2], "s": "a"},
               {"x": 2, "n": 0, "l": [0, 1], "s": "b c"}]
    enc = ViewEncoder(game, samples)
    inc = IncrementalEncoder(enc)
    views = [{"x": 1, "n": 3, "l": [1, 2], "s": "a"},
             {"x": True, "n": 3, "l": [1, 2], "s": "a"},       # 1 == True, encoded apart
             {"x": 0, "n": [9], "l": [1, "z"], "s": 5},        # types never met: checked path
             {"x": False, "n": 2, "l": [3, 4], "s": "c a"},
             {"x": False, "n": 2, "l": [3, 4], "s": "c a"}]
    for seat, v in enumerate(views):
        got = inc.encode(v, seat % game.num_players)
        assert np.array_equal(got, enc.encode(v, seat % game.num_players)), v
    assert not np.array_equal(IncrementalEncoder(enc).encode(views[0]),
                              IncrementalEncoder(enc).encode(views[1]))


def test_observations_are_fresh_arrays():
    e = raw_env("hockey")
    e.reset(seed=1)
    a = e.observe(e.agent_selection)["observation"]
    keep = a.copy()
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    e.observe(e.agent_selection)
    assert np.array_equal(a, keep)


@pytest.mark.parametrize("name", GAMES)
def test_views_are_never_mutated_and_match_fresh_clones(name):
    kept: list[tuple[dict, dict]] = []
    for i, (e, _agent, _obs) in enumerate(_episode_steps(name, 300, seed=3)):
        st = e.game_state
        for seat in [*range(st.num_players), None]:
            v = st.view(seat)
            if i % 7 == 0:
                assert v == st.clone().view(seat)
                assert v == json.loads(json.dumps(v))
            kept.append((v, copy.deepcopy(v)))
        kept = kept[-60:]
        for v, snapshot in kept:
            assert v == snapshot, f"{name}: a view changed after it was returned"


def test_exact_slot_values():
    """Sets are written once, repeated list elements and words are counted, numbers are
    scaled, unseen strings go to "other" — and a changed part is cleared first."""
    game = get_spec("president").configure(None, {})
    samples = [{"hand": ["3C", "3C", "4D"], "seats": [1, 2], "n": 4, "s": "a b", "f": True},
               {"hand": ["4D"], "seats": [0], "n": 2, "s": "a", "f": False}]
    enc = ViewEncoder(game, samples)
    slot = {label: i for i, label in enumerate(enc.labels)}
    inc = IncrementalEncoder(enc)

    def nonzero(vec):
        return {enc.labels[i]: float(vec[i]) for i in np.flatnonzero(vec)}

    got = inc.encode({"hand": ["3C", "3C", "4D", "ZZ"], "seats": [2, 2], "n": 3,
                      "s": "b a a", "f": True}, seat=1, required=True)
    assert nonzero(got) == {"header.seat=1": 1.0, "header.required": 1.0,
                            "view.hand[]=3C": 2.0, "view.hand[]=4D": 1.0, "view.hand[]=?": 1.0,
                            "view.seats[]=2": 1.0, "view.n": 0.75, "view.s=a": 2.0,
                            "view.s=b": 1.0, "view.f": 1.0}
    assert slot["view.n"] in enc.layout.numeric
    got = inc.encode({"hand": ["4D"], "seats": [0], "n": 3, "s": "b a a", "f": False}, seat=0)
    assert nonzero(got) == {"header.seat=0": 1.0, "view.hand[]=4D": 1.0, "view.seats[]=0": 1.0,
                            "view.n": 0.75, "view.s=a": 2.0, "view.s=b": 1.0}


def test_log_tail_shifts_equal_fresh_encodings():
    """A log (a list of records of varying length) keeps its last ``TAIL`` entries, most
    recent first; appended entries shift the older ones down instead of re-encoding
    them. Every kind of change (appends, a sliding window, a reset, a prepend, an
    edited or dropped entry, None entries) must give exactly the fresh encoding."""
    game = get_spec("president").configure(None, {})
    entry = [{"k": "play", "s": 1, "c": ["3C", "4D"]}, {"k": "pass", "s": 2},
             {"k": "round", "r": 3}, {"k": "play", "s": 0, "c": ["2H"], "note": "x y"}]
    samples = [{"log": entry[:i]} for i in range(5)] + [{"log": entry * 3}]
    enc = ViewEncoder(game, samples)
    assert any(label.startswith("view.log[-8]") for label in enc.labels)
    rng = random.Random(5)
    pool = [dict(e, s=rng.randrange(4)) if "s" in e else dict(e) for e in entry * 5]
    log: list = []
    inc = IncrementalEncoder(enc)
    for step in range(600):
        move = rng.randrange(9)
        if move < 4:    # append 1-3 (the common case), sometimes more than the tail
            log = log + rng.sample(pool, min(len(pool), rng.choice((1, 1, 2, 3, 9))))
        elif move == 4:  # a window of the newest entries
            log = log[-rng.randrange(1, 13):] + [rng.choice(pool)]
        elif move == 5:  # a new round: the log starts over
            log = [rng.choice(pool)] if rng.random() < 0.5 else []
        elif move == 6:  # an entry in front, or a None entry
            log = [rng.choice(pool)] + log if rng.random() < 0.5 else log + [None]
        elif move == 7 and log:  # an entry edited in place (a new object), or dropped
            i = rng.randrange(len(log))
            log = log[:i] + ([dict(pool[0], s=9)] if rng.random() < 0.5 else []) + log[i + 1:]
        view = {"log": list(log)}
        got = inc.encode(view, 0)
        assert np.array_equal(got, enc.encode(view, 0)), (step, move, log[-3:])
