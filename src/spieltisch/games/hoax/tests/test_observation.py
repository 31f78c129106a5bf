"""HOAX's own RL observation (``observation.py``): the view's information, nothing more."""

from __future__ import annotations

import json
import random
from typing import Any, cast

import pytest

from spieltisch.core import get_spec
from spieltisch.games.hoax.cards import CHIP_NAMES, CHIPS_PER_TYPE, IDENTITY_NAMES
from spieltisch.games.hoax.observation import LOG_SLOTS, HoaxObserver

from .conftest import P1, P2, P3, P4, P5, P6, act, edited, hoax_game, new_state, observer


def random_states(n: int, games: int, seed: int = 0):
    """States of random play (every legal action of every seat that may act, or a
    deadline passing), one game after the other; yields the live state."""
    game = get_spec("hoax").configure(n)
    for g in range(games):
        s = game.new_state(seed=seed + g)
        rng = random.Random(seed + g)
        while not s.is_over() and s.move_number < 600:
            moves = [(p, a) for p in s.may_act() for a in s.legal_actions(p)]
            deadlines = s.deadlines()
            if deadlines and (not moves or rng.random() < 0.5):
                s.apply(deadlines[0].seat, deadlines[0].action)
            else:
                s.apply(*rng.choice(moves))
            yield s


def reduced(view: dict[str, Any]) -> str:
    """The view with its log cut to what the observation keeps: the length and the
    last ``LOG_SLOTS`` entries (older entries only count as claims)."""
    v = dict(view)
    v["log"] = [len(view["log"]), view["log"][-LOG_SLOTS:]]
    return json.dumps(v, sort_keys=True)


@pytest.mark.parametrize("n", [4, 6, 8])
def test_the_observation_is_a_function_of_the_view(n):
    game = hoax_game(n)
    obs = observer(game)  # writes the live state after every action, as an env does
    fresh = HoaxObserver(game)  # forgets its caches before each write
    other = HoaxObserver(game)  # writes determinisations
    by_view: dict[str, bytes] = {}
    by_obs: dict[tuple[int, bytes], str] = {}
    rng = random.Random(n)
    checked = 0
    for k, s in enumerate(random_states(n, 40, seed=10 * n)):
        first = obs.observe(s, k % n).tobytes()
        if k % 7:
            continue
        if checked >= 1500:
            break
        for seat in range(n):
            got = first if seat == k % n else obs.observe(s, seat).tobytes()
            view = s.view(seat)
            key = json.dumps(view, sort_keys=True)
            assert by_view.setdefault(key, got) == got, "equal views, equal observations"
            # and the converse: the observation (with the env's header: the seat) holds
            # everything of the view it keeps
            assert by_obs.setdefault((seat, got), reduced(view)) == reduced(view)
            # the caches (the seats' fields, the growing log) change nothing
            fresh.forget()
            assert fresh.observe(s, seat).tobytes() == got
            # what the seat cannot see can be anything consistent with what it saw
            d = s.determinise(seat, rng)
            assert other.observe(d, seat).tobytes() == got
            checked += 1
    assert checked >= 1500
    assert len(by_view) > 1200


@pytest.mark.parametrize("n", [4, 8])
def test_slots_match_the_view(n):
    game = get_spec("hoax").configure(n)
    obs = observer(game)
    states = [s.clone() for k, s in enumerate(random_states(n, 8, seed=n)) if k % 7 == 0]
    for k, s in enumerate(states[::max(1, len(states) // 60)]):
        seat = k % n
        D = obs.observe(s, seat)
        v = s.view(seat)
        assert obs.named(D, "phase=") == {v["phase"]: 1.0}
        assert obs.named(D, "active=") == {str(v["active"]): 1.0}
        assert obs.named(D, "to_act=") == {str(p): 1.0 for p in v["to_act"]}
        assert obs.named(D, "identity=") == {v["identity"]: 1.0}
        assert [D[obs.labels.index(f"bank={t}")] for t in CHIP_NAMES] == pytest.approx(
            [v["bank"][t] / CHIPS_PER_TYPE for t in CHIP_NAMES])
        for p, rec in enumerate(v["seats"]):
            at = f"seat{p}."
            assert bool(obs.named(D, at + "in_round")) == rec["in_round"]
            assert D[obs.labels.index(at + "throne_points")] == pytest.approx(
                rec["throne_points"] / 10)
            assert [D[obs.labels.index(f"{at}loose={t}")] for t in CHIP_NAMES] == \
                pytest.approx([rec["loose"][t] / CHIPS_PER_TYPE for t in CHIP_NAMES])
            assert D[obs.labels.index(at + "trios")] == pytest.approx(
                rec["trios"] / CHIPS_PER_TYPE)
            assert set(obs.named(D, at + "covered=")) == set(rec["covered"])
            assert set(obs.named(D, at + "start_cover=")) == {rec["start_cover"]} - {None}
            assert set(obs.named(D, at + "doubt_covered=")) == set(rec["doubt_covered"])
            assert set(obs.named(D, at + "revealed=")) == \
                ({rec["revealed"]} if "revealed" in rec else set())
            assert set(obs.named(D, at + "proven=")) == \
                ({rec["proven"]} if "proven" in rec else set())
            assert set(obs.named(D, at + "proven_not=")) == set(rec.get("proven_not", []))
            assert set(obs.named(D, at + "last_reveal=")) == \
                ({v["last_reveal"][p]} if v["last_reveal"] else set())
            assert set(obs.named(D, f"shown_to_me.seat{p}=")) == \
                set(v["shown_to_me"].get(str(p), []))
            assert set(obs.named(D, f"shown_by_me.seat{p}=")) == \
                set(v["shown_by_me"].get(str(p), []))
        pending = v["pending"]
        for part in ("protected", "barons", "reacted", "window"):
            assert set(obs.named(D, f"pending.{part}=")) == {str(p) for p in pending[part]}
        assert obs.named(D, "pending.fines.") == \
            {f"seat{p}={t}": 1.0 for p, t in pending["fines"].items()}
        assert obs.named(D, "pending.forgivenesses.") == \
            {f"seat{p}={t}": 1.0 for p, t in pending["forgivenesses"].items()}
        claim = pending.get("claim")
        assert obs.named(D, "pending.claim.") == ({} if claim is None else {
            f"seat={claim['seat']}": 1.0, f"identity={claim['identity']}": 1.0,
            f"for={claim['for']}": 1.0,
            **({f"opener={claim['opener']}": 1.0} if claim["opener"] >= 0 else {})})
        assert obs.named(D, "my_vote=") == \
            ({pending["my_vote"]: 1.0} if "my_vote" in pending else {})
        assert D[obs.log_start] == pytest.approx(len(v["log"]) / 64)
        for k_back, entry in enumerate(reversed(v["log"][-LOG_SLOTS:]), 1):
            assert obs.named(D, f"log[-{k_back}].kind=") == {entry[0]: 1.0}
            assert obs.named(D, f"log[-{k_back}].seat=") == {str(entry[1]): 1.0}


def test_a_doubted_claim_in_the_slots():
    s = new_state(["thief", "monk", "judge", "merchant", "magician", "farmer"])
    obs = observer(s.game)
    act(s, P1, "baron takegold")
    act(s, P6, "doubt")
    act(s, P2, "vote doubt")
    D = obs.observe(s, P2)
    assert obs.named(D, "phase=") == {"vote": 1.0}
    assert obs.named(D, "pending.claim.") == {
        "seat=0": 1.0, "identity=baron": 1.0, "for=action": 1.0, "opener=5": 1.0}
    assert obs.named(D, "pending.action.") == {"kind=baron takegold": 1.0}
    assert obs.named(D, "my_vote=") == {"doubt": 1.0}
    assert obs.named(D, "my_vote=") == {"doubt": 1.0}
    assert obs.named(obs.observe(s, P3), "my_vote=") == {}  # not voted yet
    assert obs.named(D, "log[-1].") == {
        "kind=doubt": 1.0, "seat=5": 1.0, "other=0": 1.0, "identity=baron": 1.0}
    assert obs.named(D, "log[-2].") == {
        "kind=declare": 1.0, "seat=0": 1.0, "action.kind=baron takegold": 1.0}
    assert obs.named(D, "claims.") == {"seat0=baron": pytest.approx(0.2)}
    for p in (P3, P4, P5):
        act(s, p, "vote doubt")
    # justified: the claim is void, P1 covers the Baron
    D = obs.observe(s, P4)
    assert obs.named(D, "log[-1].") == {
        "kind=vote": 1.0, "seat=0": 1.0, "identity=baron": 1.0, "seats=1": 1.0,
        "seats=2": 1.0, "seats=3": 1.0, "seats=4": 1.0, "seats=5": 1.0, "official": 1.0,
        "justified": 1.0}
    assert set(obs.named(D, "seat0.doubt_covered=")) == {"baron"}
    assert set(obs.named(D, "seat0.covered=")) == {"baron", "merchant"}
    assert obs.named(D, "identity=") == {"merchant": 1.0}
    assert obs.named(D, "my_vote=") == {}


def test_shown_identities_are_private():
    s = new_state(["baron", "monk", "judge", "merchant", "magician", "farmer"],
                  covers=["monk", "baron", "baron", "baron", "baron", "baron"])
    s = edited(s, {P1: {"trios": 2}})
    obs = observer(s.game)
    act(s, P1, "buy 2 2")
    act(s, P3, "show monk merchant")
    assert obs.named(obs.observe(s, P1), "shown_to_me.") == {
        "seat2=monk": 1.0, "seat2=merchant": 1.0}
    assert obs.named(obs.observe(s, P3), "shown_by_me.") == {
        "seat0=monk": 1.0, "seat0=merchant": 1.0}
    for p in (P2, P4, P5, P6):
        D = obs.observe(s, p)
        assert obs.named(D, "shown_") == {}
        assert obs.named(D, "log[-1].") == {  # the show itself: only the count
            "kind=show": 1.0, "seat=2": 1.0, "other=0": 1.0, "count": pytest.approx(0.4)}


def test_layout():
    game = get_spec("hoax").configure(6)
    obs = observer(game)
    assert game.observer() is obs
    assert len(set(obs.labels)) == obs.size
    assert obs.labels[obs.public_size] == "identity=baron"
    numeric = {obs.labels[i] for i in obs.numeric}
    assert {"round", "turn", "bank=gold", "seat3.throne_points", "seat5.loose=grain",
            "log[-8].got=wine", "claims.seat0=farmer", "pending.action.count"} <= numeric
    assert "seat3.covered=monk" not in numeric
    # the layout depends only on the configuration
    assert HoaxObserver(hoax_game(6)).labels == obs.labels
    assert len(HoaxObserver(hoax_game(8)).labels) > obs.size


def test_the_env_uses_it():
    from spieltisch.rl import raw_env
    from spieltisch.rl.encoding import StateEncoder

    e = raw_env("hoax")
    assert isinstance(cast(StateEncoder, e.encoder).observer, HoaxObserver)
    assert raw_env("hoax", observation="view").encoder is not e.encoder
    assert IDENTITY_NAMES[0] == "baron"
