"""Set-ups for HOAX scenarios: the spec's P1, P2, … are seats 0, 1, …"""

from __future__ import annotations

from typing import Any, cast

from spieltisch import testing
from spieltisch.core import CLOCK, Game, get_spec
from spieltisch.games.hoax.cards import CHIP_NAMES, IDENTITY_CODES, IDENTITY_NAMES
from spieltisch.games.hoax.observation import HoaxObserver
from spieltisch.games.hoax.phases import WINDOWS, Phase
from spieltisch.games.hoax.state import HoaxGame, HoaxState
from spieltisch.testing import act, legal_texts

__all__ = ["act", "legal_texts"]  # (shared helpers, imported by the tests from here)

P1, P2, P3, P4, P5, P6 = range(6)


def hoax_game(n: int, options: dict[str, Any] | None = None) -> HoaxGame:
    """``get_spec("hoax").configure(n, options)``, typed as the game's own class."""
    return cast(HoaxGame, get_spec("hoax").configure(n, options))


def observer(game: Game) -> HoaxObserver:
    """``game.observer()``, typed as HOAX's own observer."""
    return cast(HoaxObserver, game.observer())


def deck_for(identities: list[str]) -> list[str]:
    """A stacked order dealing ``identities[s]`` to seat s (copies 1 then 2)."""
    used: dict[str, int] = {}
    out = []
    for name in identities:
        code = IDENTITY_CODES[IDENTITY_NAMES.index(name)]
        used[code] = used.get(code, 0) + 1
        out.append(f"{code}{used[code]}")
    return out


def new_state(identities: list[str], first: int = 0, covers: list[str] | None = None,
              chips: list[str] | None = None, later: list[list[str]] | None = None
              ) -> HoaxState:
    """Deal, then (unless ``covers`` is []) cover and take the starting chips.

    Default covers: the Merchant (the Farmer for a Merchant); default starting chip: gold.
    """
    n = len(identities)
    game = get_spec("hoax").configure(n, {"first_player": first})
    deck = [deck_for(identities)] + [deck_for(o) for o in (later or [])]
    state = game.new_state(seed=0, deck=deck)
    assert isinstance(state, HoaxState)
    if covers == []:
        return state
    if covers is None:
        covers = default_covers(identities)
    for s, x in enumerate(covers):
        act(state, s, f"cover {x}")
    for s in range(n):
        act(state, s, f"take {(chips or ['gold'] * n)[s]}")
    return state


def close(state: HoaxState) -> None:
    """The open reaction window's deadline passes."""
    assert state.phase in WINDOWS
    deadline = state.deadlines()[0]
    assert deadline.seat == CLOCK
    state.apply(deadline.seat, deadline.action)


def close_all(state: HoaxState) -> None:
    """Let every reaction window close without reactions until someone must act."""
    while state.phase in WINDOWS and not state.over:
        close(state)


def load(pos: dict[str, Any]) -> HoaxState:
    return testing.load(pos, HoaxState)


def edited(state: HoaxState, seats: dict[int, dict[str, Any]]) -> HoaxState:
    """``state``'s position, loaded, with fields of seats' records replaced: ``seats``
    maps a seat to its changed fields (``{P1: {"trios": 2}}``)."""
    def change(st: dict[str, Any]) -> None:
        for seat, changes in seats.items():
            st["seats"][seat].update(changes)

    return testing.edited(state, change)


def set_chips(state: HoaxState, seat: int, gold: int = 0, wine: int = 0, grain: int = 0,
              trios: int = 0) -> HoaxState:
    """``state`` with ``seat`` holding exactly these chips (the bank holds the rest)."""
    return edited(state, {seat: {"loose": {"gold": gold, "wine": wine, "grain": grain},
                                 "trios": trios}})


def position(identities: list[str], covers: list[str] | None = None,
             seats: dict[int, dict[str, Any]] | None = None) -> dict[str, Any]:
    """A hand-written position in phase declare, P1 to act, no chips: seat s holds
    ``identities[s]`` (copies 1 then 2) and covered ``covers[s]`` (default: the Merchant,
    the Farmer for a Merchant); ``seats`` adds fields to seats' records."""
    records = [{"card": card, "start_cover": cover} for card, cover in
               zip(deck_for(identities), covers or default_covers(identities), strict=True)]
    for seat, changes in (seats or {}).items():
        records[seat].update(changes)
    state = {"round": 1, "turns": 1, "phase": "declare", "active": P1, "seats": records}
    return {"game": "hoax", "players": len(identities), "version": 1, "state": state}


def default_covers(identities: list[str]) -> list[str]:
    return ["farmer" if own == "merchant" else "merchant" for own in identities]


def chips(state: HoaxState, seat: int) -> dict[str, int]:
    out = {CHIP_NAMES[t]: state.loose[3 * seat + t] for t in range(3)}
    out["trios"] = state.trios[seat]
    return out


def vote(state: HoaxState, doubters: list[int], claimant: int) -> None:
    """The first doubter opens the doubt; then every other voter votes (any order)."""
    act(state, doubters[0], "doubt")
    if state.phase != Phase.VOTE:
        return
    for s in reversed(list(state.to_act())):
        act(state, s, "vote doubt" if s in doubters else "vote trust")
