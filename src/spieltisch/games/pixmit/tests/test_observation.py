"""Pixmit's own RL observation (``observation.py``) carries exactly its view.

``decode`` rebuilds the view from the observation's slots alone (by their labels); it
must give back the view itself, except for the view's log entries older than the last 8
and the parts the observer leaves to others: the observing seat (the encoder's header),
the fixed game name and player count (the layout), a reveal's cards (fixed by its set),
the final hands (the hand plus ``known``) and their layouts (fixed by the hands).
"""

from __future__ import annotations

import json
import random
from array import array
from typing import Any, cast

import numpy as np
import pytest

from spieltisch.core import Game, get_spec
from spieltisch.games.pixmit import cards as C
from spieltisch.games.pixmit.observation import PixmitObserver
from spieltisch.games.pixmit.state import PixmitState
from spieltisch.games.pixmit.terms import Phase
from spieltisch.games.pixmit.tests.helpers import rearranged


def observer(game: Game) -> PixmitObserver:
    """``game.observer()``, typed as the game's own observer."""
    return cast(PixmitObserver, game.observer())


CONFIGS = [(2, "pro"), (2, "beginner"), (3, "pro"), (4, "pro"), (4, "beginner")]


#: Dealt hands for half of the games (rotated over the seats), so that Wissen, Schöpfung,
#: calls (Elite; a Joker-Satz with Vernichtung) and the hunt occur.
SPECIAL_DEALS = (
    [[15, 19, 26, 4], [3, 20, 25, 6], [7, 9, 10, 21], [30, 31]],
    [[1, 11, 21, 22, 23, 33], [15, 19, 26], [30, 31], [3, 20, 25]],
)


def play(n: int, mode: str, games: int, seed: int) -> list[PixmitState]:
    """Every state of random games; the simple actions (call, Wissen, veto, Schöpfung,
    ...) are taken half of the time they are legal, so that rare turns occur."""
    game = get_spec("pixmit").configure(n, {"mode": mode})
    rng = random.Random(seed)
    out: list[PixmitState] = []
    for g in range(games):
        s = cast(PixmitState, game.new_state(seed=seed * 1000 + g))
        if g % 2:
            deal = SPECIAL_DEALS[g // 2 % 2]
            s = rearranged(s, {p: deal[(p + g // 4) % 4] for p in range(n)})
        while True:
            out.append(cast(PixmitState, s.clone()))
            if s.is_over():
                break
            seat = s.to_act()[0]
            legal = s.legal_actions(seat)
            simple = [a for a in legal if a < 6]
            s.apply(seat, rng.choice(simple if simple and rng.random() < 0.5 else legal))
    return out



def decode(obs: PixmitObserver, D: array) -> dict[str, Any]:
    """The view that the slots show (see the module docstring for what is left out)."""
    n = obs.game.num_players
    on: dict[str, list[str]] = {}  # label prefix -> the names of its slots set to 1
    num: dict[str, float] = {}  # numeric slot label -> value
    numeric = set(obs.numeric)
    for i, label in enumerate(obs.labels):
        if i in numeric:
            num[label] = D[i]
        elif D[i]:
            assert D[i] == 1.0, label
            prefix, _, name = label.partition("=")
            on.setdefault(prefix, []).append(name)

    def one(prefix: str) -> str | None:
        names = on.get(prefix, [])
        assert len(names) <= 1, (prefix, names)
        return names[0] if names else None

    def one_int(prefix: str) -> int:  # ``int(one(prefix))``: a slot that is set
        return int(cast(str, one(prefix)))

    def count(label: str, scale: float) -> int:
        value = num[label] * scale
        assert abs(value - round(value)) < 1e-3, (label, value)
        return round(value)

    seat_or = lambda text: int(text) if text is not None and text.isdigit() else text  # noqa: E731
    view: dict[str, Any] = {
        "mode": one("mode"), "round": one_int("round"),
        "start_player": one_int("start_player"), "active": one_int("active"),
        "phase": one("phase"), "to_act": [int(p) for p in on.get("to_act", [])],
        "may_call": "may_call" in on,
        "hand_sizes": [count(f"hand_size.seat{p}", 6) for p in range(n)],
        "stack_size": count("stack_size", 33), "holder_21": seat_or(one("holder_21")),
        "vetoes": [count(f"vetoes.seat{p}", 3 * (n - 1)) for p in range(n)],
        "knowledge_used": [f"knowledge_used.seat{p}" in on for p in range(n)],
        "creation_used": [f"creation_used.seat{p}" in on for p in range(n)],
    }
    reveals = []
    for name, set_kind, cards in (("knowledge", C.K_KNOWLEDGE, C.KNOWLEDGE),
                                  ("creation", C.K_CREATION, C.CREATION)):
        for p in range(n):
            if num[f"reveal.{name}.seat{p}.move"]:
                move = count(f"reveal.{name}.seat{p}.move", 27 * n + 1) - 1
                reveals.append({"seat": p, "set": set_kind, "cards": C.card_codes(cards),
                                "move": move})
    view["reveals"] = sorted(reveals, key=lambda r: r["move"])
    if "offer_target" in on:
        view["offer_target"] = one_int("offer_target")
    view["offer"] = None
    if "offer" in on:
        k = one_int("offer.k")
        claims = [one(f"offer.claim[{i}]") for i in range(2)]
        view["offer"] = {"from": view["active"], "to": one_int("offer.to"), "k": k,
                         "claims": [c for c in claims if c is not None]}
        if "offer.cards" in on:
            view["offer"]["cards"] = on["offer.cards"]
    view["hand"] = on.get("hand", [])
    view["score"] = count("score", 150)
    known = [{"card": x, "seat": p} for p in range(n) for x in on.get(f"known.seat{p}", [])]
    depth = {x: count(f"known.stack_depth={x}", 33) - 1 for x in on.get("known.stack", [])}
    known += [{"card": x, "stack_from_top": d}
              for x, d in sorted(depth.items(), key=lambda xd: -xd[1])]  # bottom first
    view["known"] = known
    hunt = {int(label[len("final.hunt.seat"):]): names[0]
            for label, names in on.items() if label.startswith("final.hunt.seat")}
    log = []
    for i in range(8, 0, -1):
        kind = one(f"log[-{i}].kind")
        if kind is None:
            continue
        entry: dict[str, Any] = {"kind": kind}
        for key, label in (("seat", "seat"), ("target", "target"), ("k", "k"),
                           ("round", "round")):
            value = one(f"log[-{i}].{label}")
            if value is not None:
                entry["to" if key == "target" and kind == "messenger" else key] = int(value)
        if kind == "call":
            entry["conditions"] = on.get(f"log[-{i}].conditions", [])
        if kind == "hunt":
            entry["card"] = hunt[entry["seat"]]
        log.append(entry)
    view["log"] = log
    if view["phase"] == "over":
        scores = [count(f"final.score.seat{p}", 150) for p in range(n)]
        ranks = [one_int(f"final.rank.seat{p}") for p in range(n)]
        caller = seat_or(one("final.caller"))
        winner = seat_or(one("final.winner"))
        view["final"] = {
            "scores": scores, "caller": -1 if caller == "none" else caller,
            "call_conditions": on.get("final.call", []),
            "hunt": [[p, hunt[p]] for p in sorted(hunt, key=lambda p: (p - caller) % n)],
            "annihilation_effect": "final.annihilation_effect" in on,
            "result": {"scores": [float(s) for s in scores], "ranks": ranks,
                       "winner": None if winner == "none" else winner},
        }
    return view


def shown(state: PixmitState, seat: int) -> dict[str, Any]:
    """``view(seat)`` less what ``decode`` leaves out (module docstring)."""
    view = json.loads(json.dumps(state.view(seat)))
    for key in ("game", "players", "seat"):
        del view[key]
    # the core's shared fields that follow from others (phase over, the final result) or
    # that the observation leaves out (out of turn: nobody in Pixmit; the move count)
    for key in ("out_of_turn", "over", "winner", "move_number"):
        view.pop(key, None)
    view["log"] = view["log"][-8:]
    if view["offer"] and "cards" in view["offer"]:
        # a set: ascending in play; ``determinise`` may list resampled ones otherwise
        view["offer"]["cards"].sort()
    if "final" in view:
        final = view["final"]
        hands = [view["hand"] if p == seat else
                 [k["card"] for k in view["known"] if k.get("seat") == p]
                 for p in range(state.game.num_players)]
        assert hands == final.pop("hands")  # everything is known at the end
        final.pop("layouts")  # the hands' best layouts
    return view


@pytest.mark.parametrize("n,mode", CONFIGS)
def test_the_observation_shows_exactly_the_view(n, mode):
    """Decoding every seat's observation gives back its view (all slots checked)."""
    # (seed n + 1: with the two-action offer, seed n's 2-player pro sample has no hunt)
    states = play(n, mode, games=12, seed=n + 1)
    obs = observer(states[0].game)
    kinds: set[str] = set()
    phases: set[str] = set()
    for s in states:
        for seat in range(n):
            assert decode(obs, obs.observe(s, seat)) == shown(s, seat)
        kinds.update(e["kind"] for e in s.log)
        phases.add(s.phase.label)
    # the sample holds the rare turns (2 players: Blinder Bote; 3-4: the veto draw)
    assert {"offer", "accept", "veto", "swap", "knowledge", "round", "call", "hunt",
            "silent_end"} <= kinds
    assert {"turn", "claim", "response", "creation", "return", "over"} <= phases
    assert ("messenger" in kinds) == (n == 2) and ("veto_draw" in kinds) == (n > 2)


@pytest.mark.parametrize("n,mode", CONFIGS)
def test_the_observation_is_a_function_of_the_view(n, mode):
    """Equal views give equal observations, and resampling what the seat cannot see
    (``determinise``) changes nothing."""
    states = play(n, mode, games=15, seed=10 + n)
    obs = observer(states[0].game)
    rng = random.Random(n)
    seen: dict[str, bytes] = {}
    for i, s in enumerate(states):
        for seat in range(n):
            got = obs.observe(s, seat).tobytes()
            key = json.dumps(s.view(seat), sort_keys=True)
            assert seen.setdefault(key, got) == got
            if (i + seat) % 3 == 0:
                other = s.determinise(seat, rng)
                assert obs.observe(other, seat).tobytes() == got
                # and the determinised state's own observations are its own
                for p in range(n):
                    assert decode(obs, obs.observe(other, p)) == shown(other, p)
    assert len(seen) > 500


@pytest.mark.parametrize("n", [2, 4])
def test_the_kept_blocks_follow_the_state(n):
    """The card and log slots kept on a state (``write``) stay right as the state moves
    on (the RL environment's pattern: one state, one seat observed per step), and a
    clone or a determinised copy that carries them gets its own."""
    game = get_spec("pixmit").configure(n, {})
    obs = observer(game)
    rng = random.Random(n)
    for g in range(6):
        s = cast(PixmitState, game.new_state(seed=g))
        if g % 2:
            s = rearranged(s, {p: SPECIAL_DEALS[g // 2 % 2][p] for p in range(n)})
        while True:
            seats = [s.to_act()[0]] if s.to_act() else list(range(n))
            for seat in seats if rng.random() < 0.7 else range(n):
                assert decode(obs, obs.observe(s, seat)) == shown(s, seat)
            if s.is_over():
                break
            if rng.random() < 0.2:
                branch = cast(PixmitState, s.clone() if rng.random() < 0.5
                              else s.determinise(seats[0], rng))
                legal = branch.legal_actions(seats[0])
                branch.apply(seats[0], legal[-1])
                for p in range(n):
                    assert decode(obs, obs.observe(branch, p)) == shown(branch, p)
            legal = s.legal_actions(seats[0])
            simple = [a for a in legal if a < 6]
            s.apply(seats[0], rng.choice(simple if simple and rng.random() < 0.5 else legal))


def test_slots_of_a_dealt_state():
    """A fresh 4-player deal, seat by seat: the main slots hold exactly the view."""
    game = get_spec("pixmit").configure(4, {"mode": "beginner", "start_player": 2})
    s = game.new_state(seed=1)
    obs = observer(game)
    label = {name: i for i, name in enumerate(obs.labels)}
    for seat in range(4):
        D = obs.observe(s, seat)
        view = s.view(seat)
        hand = [x for x in C.CARD_CODES if D[label[f"hand={x}"]]]
        assert hand == view["hand"] and len(hand) == 2
        assert [D[label[f"hand_size.seat{p}"]] for p in range(4)] == \
            [pytest.approx(2 / 6)] * 4
        assert D[label["stack_size"]] == pytest.approx(25 / 33)
        assert [p.label for p in Phase if D[label[f"phase={p.label}"]]] == ["turn"]
        assert D[label["mode=beginner"]] == 1 and D[label["mode=pro"]] == 0
        assert D[label["start_player=2"]] == 1 and D[label["active=2"]] == 1
        assert D[label["to_act=2"]] == 1 and D[label["may_call"]] == 1
        assert D[label["holder_21=stack"]] == 1
        assert D[label["round=1"]] == 1
        # nothing else is known yet, and the log is empty
        assert not any(D[i] for name, i in label.items()
                       if name.startswith(("known.", "log[", "offer", "final.")))
        assert D[label["score"]] == pytest.approx(view["score"] / 150)
        # 8 one-hots, 4 hand sizes, the stack size, the 2 hand cards and the score
        assert sum(1 for x in D if x) == 8 + 4 + 1 + 2 + (view["score"] > 0)


def test_the_env_uses_the_observer():
    pytest.importorskip("pettingzoo")
    from spieltisch.rl import raw_env
    from spieltisch.rl.encoding import StateEncoder

    e = raw_env("pixmit", 3)
    encoder = cast(StateEncoder, e.encoder)
    assert isinstance(encoder.observer, PixmitObserver)
    assert encoder.observer is e.game.observer()
    e.reset(seed=2)
    agent = e.agent_selection
    seat = e.possible_agents.index(agent)
    got = e.observe(agent)["observation"]
    assert e.game_state is not None
    want = np.frombuffer(encoder.observer.observe(e.game_state, seat), dtype=np.float32)
    assert np.array_equal(got[:len(want)], want)
    assert got[len(want) + seat] == 1.0  # the header: the observing seat
