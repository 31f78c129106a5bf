"""The bot's reading (``Seen``) against the view it stands for."""

from __future__ import annotations

import random
from typing import Any, cast

from spieltisch.core import get_spec
from spieltisch.games.hoax.bot import HeuristicBot
from spieltisch.games.hoax.cards import CHIP_NAMES, IDENTITY_NAMES
from spieltisch.games.hoax.claims import CLAIM_FOR_NAMES
from spieltisch.games.hoax.phases import PHASE_NAMES
from spieltisch.games.hoax.seen import Seen
from spieltisch.games.hoax.state import HoaxState
from spieltisch.games.hoax.views import HoaxViews
from spieltisch.runner import step


def _mask(names: list[str]) -> int:
    return sum(1 << IDENTITY_NAMES.index(x) for x in names)


def _from_view(v: dict[str, Any], game: Any) -> dict[str, Any]:
    """What ``Seen`` must hold, worked out from the view alone."""
    seats = v["seats"]
    n = len(seats)
    pending = v["pending"]
    claim = pending.get("claim")
    fines = pending["fines"]
    return {
        "seat": v["seat"], "n": n, "phase": v["phase"], "round": v["round"],
        "turn": v["turn"], "active": v["active"], "in_final": v["in_final"],
        "identity": v["identity"],
        "in_round": sum(1 << p for p in range(n) if seats[p]["in_round"]),
        "tp": [seats[p]["throne_points"] for p in range(n)],
        "loose": [seats[p]["loose"][t] for p in range(n) for t in CHIP_NAMES],
        "covered": [_mask(seats[p]["covered"]) for p in range(n)],
        "known_is": [IDENTITY_NAMES.index(seats[p]["proven"]) if "proven" in seats[p]
                     else -1 for p in range(n)],
        "known_not": [_mask(seats[p].get("proven_not", [])) for p in range(n)],
        "face_up": [IDENTITY_NAMES.index(seats[p]["revealed"]) if "revealed" in seats[p]
                    else -1 for p in range(n)],
        "shown_to_me": [_mask(v["shown_to_me"].get(str(q), [])) for q in range(n)],
        "claim": None if claim is None else (claim["seat"], claim["identity"], claim["for"]),
        "act": pending["action"],
        "fine_t": [CHIP_NAMES.index(fines[str(p)]) if str(p) in fines else -1
                   for p in range(n)],
        "log": v["log"],
        "last_reveal": v["last_reveal"],
    }


def _in_view_terms(seen: Seen, game: Any) -> dict[str, Any]:
    """``seen``'s fields in the view's words (names for numbers), for comparison."""
    n = seen.n
    claim = seen.claim
    reveal = seen.last_reveal
    return {
        "seat": seen.seat, "n": n, "phase": PHASE_NAMES[seen.phase], "round": seen.round,
        "turn": seen.turn, "active": seen.active, "in_final": seen.in_final,
        "identity": IDENTITY_NAMES[seen.identity], "in_round": seen.in_round,
        "tp": list(seen.tp), "loose": list(seen.loose), "covered": list(seen.covered),
        "known_is": list(seen.known_is), "known_not": list(seen.known_not),
        "face_up": [seen.face_up[p] for p in range(n)],
        "shown_to_me": list(seen.shown_to_me),
        "claim": None if claim is None else (claim.seat, IDENTITY_NAMES[claim.identity],
                                             CLAIM_FOR_NAMES[claim.kind]),
        "act": game.table.text(seen.act) if seen.act >= 0 else None,
        "fine_t": list(seen.fine_t),
        "log": HoaxViews(game)._convert_log(seen.log),
        "last_reveal": [IDENTITY_NAMES[x] for x in reveal] if reveal else None,
    }


def _states(n: int, seed: int, steps: int) -> list[HoaxState]:
    """Copies of one game of ``n`` seats after each of its first ``steps`` moves: heuristic
    bots play it (they build trios and buy information, random players hardly do)."""
    game = get_spec("hoax").configure(n)
    s = cast(HoaxState, game.new_state(seed=seed))
    bots = [HeuristicBot(game, i, seed * 10 + i) for i in range(n)]
    rng = random.Random(seed)
    out: list[HoaxState] = []
    while len(out) < steps and not s.is_over():
        step(s, bots, rng)
        out.append(cast(HoaxState, s.clone()))
    return out


def test_seen_holds_what_the_view_shows_and_nothing_else() -> None:
    """Every field of ``Seen`` says what the seat's view says (every field is checked:
    a new one must be added here), at every move of random games with 4 to 8 seats,
    through cards face up, proofs, bought information, fines, finals and reveals."""
    met: set[str] = set()
    for n, seed in ((4, 1), (5, 2), (6, 3), (8, 4)):
        for s in _states(n, seed, 1200):
            game = s.game
            for seat in range(n):
                seen = s.typed_view(seat)
                got = _in_view_terms(seen, game)
                assert set(got) == _FIELDS
                assert got == _from_view(s.view(seat), game)
                met.update(name for name, value in got.items()
                           if name in _RARE and _RARE[name](value))
    assert met == set(_RARE)


#: Every field of ``Seen`` (a compiled class keeps them in ``__mypyc_attrs__``).
_FIELDS: set[str] = set(getattr(Seen, "__mypyc_attrs__", None) or Seen.__slots__)
#: Fields that hold something only in some states, and when they do: the test meets each.
_RARE: dict[str, Any] = {
    "face_up": lambda v: max(v) >= 0, "known_is": lambda v: max(v) >= 0,
    "known_not": any, "shown_to_me": any, "claim": bool, "fine_t": lambda v: max(v) >= 0,
    "in_final": bool, "last_reveal": bool, "act": bool}


def test_seen_is_the_same_for_states_the_seat_cannot_tell_apart() -> None:
    """A determinisation resamples what the seat may not know (the others' cards, what
    they showed each other): ``Seen`` does not change."""
    rng = random.Random(9)
    compared = 0
    for n, seed in ((4, 5), (6, 6), (8, 7)):
        for s in _states(n, seed, 400)[::7]:
            for seat in range(n):
                other = s.determinise(seat, rng)
                assert _in_view_terms(other.typed_view(seat), s.game) == \
                    _in_view_terms(s.typed_view(seat), s.game)
                compared += 1
    assert compared > 300
