"""President's own RL observation (``observation.py``): the view's information, nothing more."""

from __future__ import annotations

import json
import random
from typing import cast

import pytest

from spieltisch.core import get_spec
from spieltisch.games.president.observation import PresidentObserver

from .conftest import C_, A, B, D, act, new_state, observer, president_game


def random_states(n: int, games: int, seed: int = 0, skip_rule: bool = False):
    """States of random play, one game after the other; yields the live state."""
    game = get_spec("president").configure(n, {"skip_rule": skip_rule})
    for g in range(games):
        s = game.new_state(seed=seed + g)
        rng = random.Random(seed + g)
        while not s.is_over():
            p = s.to_act()[0]
            s.apply(p, rng.choice(s.legal_actions(p)))
            yield s


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_the_observation_is_a_function_of_the_view(n):
    game = president_game(n, {"skip_rule": n % 2 == 1})
    obs = observer(game)  # writes the live state after every action, as an env does
    other = PresidentObserver(game)  # writes determinisations and fresh clones
    by_view: dict[str, bytes] = {}
    by_obs: dict[tuple[int, bytes], str] = {}
    rng = random.Random(n)
    checked = 0
    for k, s in enumerate(random_states(n, 3, seed=10 * n, skip_rule=n % 2 == 1)):
        first = obs.observe(s, k % n).tobytes()
        if k % 5:
            continue
        for seat in range(n):
            got = first if seat == k % n else obs.observe(s, seat).tobytes()
            key = json.dumps(s.view(seat), sort_keys=True)
            assert by_view.setdefault(key, got) == got, "equal views, equal observations"
            # and the converse (with the env's header: the seat): nothing of the view
            # is lost
            assert by_obs.setdefault((seat, got), key) == key
            # what the seat cannot see can be anything consistent with what it saw
            d = s.determinise(seat, rng)
            assert other.observe(d, seat).tobytes() == got
            # the kept standing changes nothing: a fresh observer writes the same
            assert PresidentObserver(game).observe(s, seat).tobytes() == got
            checked += 1
    assert checked >= 300
    assert len(by_view) == checked  # every view differs (a move changes the view)


@pytest.mark.parametrize("n", [4, 6])
def test_slots_match_the_view(n):
    game = get_spec("president").configure(n, {})
    obs = observer(game)
    cards = set(game.card_codes)
    seen = set()
    for k, s in enumerate(random_states(n, 2, seed=n)):
        if k % 3:
            continue
        seat = k % n
        out = obs.observe(s, seat)
        v = s.view(seat)
        seen.add(v["phase"])
        assert obs.named(out, "phase=") == {v["phase"]: 1.0}
        assert out[obs.labels.index("round")] == pytest.approx(v["round"] / 10)
        assert obs.named(out, "to_act=") == {str(p): 1.0 for p in v["to_act"]}
        assert obs.named(out, "revolution") == ({"": 1.0} if v["revolution"] else {})
        max_hand = -(-54 // n)
        for p in range(n):
            assert out[obs.labels.index(f"score.seat{p}")] == pytest.approx(
                v["scores"][p] / 50)
            assert out[obs.labels.index(f"hand_size.seat{p}")] == pytest.approx(
                v["hand_sizes"][p] / max_hand)
            place = v["finished"].index(p) + 1 if p in v["finished"] else None
            assert obs.named(out, f"place.seat{p}=") == (
                {str(place): 1.0} if place else {})
            role = v["roles"].get(str(p))
            assert obs.named(out, f"role.seat{p}=") == ({role: 1.0} if role else {})
        pile = v["pile"]
        assert obs.named(out, "pile.size=") == (
            {str(pile["size"]): 1.0} if pile["size"] else {})
        assert set(obs.named(out, "pile.top=")) == set(pile["top"]) <= cards
        assert obs.named(out, "pile.owner=") == (
            {str(pile["owner"]): 1.0} if pile["owner"] >= 0 else {})
        assert set(obs.named(out, "pile.passed=")) == {str(p) for p in pile["passed"]}
        assert obs.named(out, "exchange[") == {
            key: val for i, step in enumerate(v["exchange"]) for key, val in (
                (f"{i}].from={step['from']}", 1.0), (f"{i}].to={step['to']}", 1.0),
                (f"{i}].count", step["count"] / 2))}
        assert set(obs.named(out, "played=")) == set(v["played"])
        assert set(obs.named(out, "hand=")) == set(v["hand"])
        assert set(obs.named(out, "received=")) == set(v["received"])
        assert set(obs.named(out, "gave.to=")) == set(v["gave"])
        assert set(obs.named(out, "gave=")) == {c for m in v["gave"].values() for c in m}
    assert seen == {"play", "exchange", "over"}


def test_a_pile_and_a_revolution_in_the_slots():
    s = new_state({A: ["5C", "5D", "5H", "5S", "9C"], B: ["7C", "7D", "7H", "7S"],
                   C_: ["JK1"]})
    obs = observer(s.game)
    act(s, A, "play 5C 5D 5H 5S")  # four of a kind: revolution
    act(s, B, "pass")
    out = obs.observe(s, C_)
    assert obs.named(out, "revolution") == {"": 1.0}
    assert obs.named(out, "pile.") == {
        "size=4": 1.0, "top=5C": 1.0, "top=5D": 1.0, "top=5H": 1.0, "top=5S": 1.0,
        "owner=0": 1.0, "passed=1": 1.0}
    assert obs.named(out, "played=") == {"5C": 1.0, "5D": 1.0, "5H": 1.0, "5S": 1.0}
    assert obs.named(out, "to_act=") == {"2": 1.0}
    assert "JK1" in obs.named(out, "hand=")
    assert "JK1" not in obs.named(obs.observe(s, A), "hand=")
    assert obs.named(out, "hand_size.") == {
        "seat0": pytest.approx(10 / 14), "seat1": 1.0, "seat2": pytest.approx(13 / 14),
        "seat3": pytest.approx(13 / 14)}
    act(s, C_, "play JK1")  # a single Joker trumps the four
    out = obs.observe(s, D)
    assert obs.named(out, "pile.") == {"size=4": 1.0, "top=JK1": 1.0, "owner=2": 1.0,
                                          "passed=1": 1.0}


def test_the_exchange_in_the_slots():
    s = new_state({}, n=4)
    obs = observer(s.game)
    rng = random.Random(0)
    while s.round == 1:  # play out round 1 at random
        p = s.to_act()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
    president, pm, peasant, beggar = s.last_order
    out = obs.observe(s, president)
    assert obs.named(out, "phase=") == {"exchange": 1.0}
    assert obs.named(out, "role.") == {
        f"seat{president}=president": 1.0, f"seat{pm}=prime_minister": 1.0,
        f"seat{peasant}=peasant": 1.0, f"seat{beggar}=beggar": 1.0}
    # the Beggar's two highest cards went to the President at once
    got = s.received[president]
    assert got.bit_count() == 2
    assert set(obs.named(out, "received=")) == set(s.game.card_codes[c] for c in range(54)
                                                     if got >> c & 1)
    assert obs.named(out, "exchange[") == {
        f"0].from={president}": 1.0, f"0].to={beggar}": 1.0, "0].count": 1.0,
        f"1].from={peasant}": 1.0, f"1].to={pm}": 1.0, "1].count": 0.5,
        f"2].from={pm}": 1.0, f"2].to={peasant}": 1.0, "2].count": 0.5}
    assert obs.named(out, "gave") == {}
    # the Beggar knows what it gave, and to whom
    assert set(obs.named(obs.observe(s, beggar), "gave")) == {
        f".to={president}", *(f"={c}" for c in obs.named(out, "received="))}
    assert obs.named(obs.observe(s, pm), "gave") == {}


def test_layout():
    game = get_spec("president").configure(5, {})
    obs = observer(game)
    assert game.observer() is obs
    assert len(set(obs.labels)) == obs.size
    numeric = {obs.labels[i] for i in obs.numeric}
    assert numeric == {"round", "exchange[0].count", "exchange[1].count", "exchange[2].count",
                       *(f"{part}.seat{s}" for part in ("score", "hand_size")
                         for s in range(5))}
    assert [label for label in obs.labels if label.startswith("role.seat0=")] == [
        "role.seat0=president", "role.seat0=prime_minister", "role.seat0=citizen",
        "role.seat0=peasant", "role.seat0=beggar"]
    hand = obs.labels.index("hand=3C")  # one slot per card, in card id order
    assert obs.labels[hand:hand + 54] == [f"hand={c}" for c in game.card_codes]
    assert obs.labels[-1] == "gave=JK2"
    # the layout depends only on the configuration
    assert PresidentObserver(president_game(5, {})).labels == obs.labels
    assert "role.seat0=citizen" not in PresidentObserver(president_game(4, {})).labels


def test_the_env_uses_it():
    from spieltisch.rl import raw_env
    from spieltisch.rl.encoding import StateEncoder

    e = raw_env("president")
    assert isinstance(cast(StateEncoder, e.encoder).observer, PresidentObserver)
    assert raw_env("president", observation="view").encoder is not e.encoder
