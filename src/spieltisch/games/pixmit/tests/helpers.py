"""Set-ups for Pixmit scenarios: stacked decks, scripted turns and hand-written positions
(seats A, B, C, D = 0..3)."""

from __future__ import annotations

from typing import Any

from spieltisch.core import get_spec
from spieltisch.games.pixmit import cards as C
from spieltisch.games.pixmit.state import PixmitState
from spieltisch.games.pixmit.terms import Phase
from spieltisch.testing import act, edited, legal_texts
from spieltisch.testing import load as load_state

__all__ = ["A", "B", "C_", "D", "act", "cards", "code", "deal_order", "legal_texts", "load",
           "mask", "new_state", "numbers", "offer", "position", "reach_round3", "rearranged"]

A, B, C_, D = 0, 1, 2, 3


def code(n: int) -> str:
    return f"{n:02d}"


def mask(*numbers: int) -> int:
    return C.m(*numbers)


def numbers(hand: int) -> set[int]:
    return {x + 1 for x in range(C.NUM_CARDS) if hand >> x & 1}


def new_state(deck: list, n: int, start: int = 0, mode: str = "pro") -> PixmitState:
    game = get_spec("pixmit").configure(n, {"mode": mode, "start_player": start})
    state = game.new_state(seed=0, deck=deck)
    assert isinstance(state, PixmitState)
    return state


def deal_order(hands: dict[int, list[int]], stack_top: list[int], n: int, start: int) -> list[str]:
    """Top-first order: 2 cards to each seat from the start player clockwise, then the stack."""
    order: list[int] = []
    for i in range(n):
        order.extend(hands[(start + i) % n])
    order.extend(stack_top)
    return [code(x) for x in order]


def offer(state: PixmitState, seat: int, target: int, cards: str) -> None:
    """An offer's two actions: ``target T``, then ``offer CARDS``."""
    act(state, seat, f"target {target}")
    act(state, seat, f"offer {cards}")


def reach_round3(finals: dict[int, list[int]], n: int, start: int = 0,
                 targets: dict[int, int] | None = None, hunt: list[list[str]] | None = None,
                 mode: str = "pro") -> PixmitState:
    """Play rounds 1 and 2 so that every seat holds ``finals[seat]`` when round 3 starts.

    Each seat is dealt a junk card and its first card; in rounds 1 and 2 it offers its
    junk card to ``targets[seat]`` (default: its left neighbour), who vetoes, so it draws
    its next card from the stack (the junk goes under the stack). Round 2 draws give each
    seat one wanted card and one new junk card. ``hunt`` holds stacked orders for the
    hunt's random draws.
    """
    targets = targets or {p: (p + 1) % n for p in range(n)}
    used = {x for h in finals.values() for x in h}
    spare = [x for x in range(1, 34) if x not in used and x != 21]
    junk1 = {p: spare.pop() for p in range(n)}
    junk2 = {p: spare.pop() for p in range(n)}
    order = [(start + i) % n for i in range(n)]
    stack = [finals[p][1] for p in order]                      # round 1 veto draws
    for p in order:                                            # round 2 draws
        stack += [finals[p][2], junk2[p]]
    stack += [finals[p][3] for p in order]                     # round 2 veto draws
    for p in order:                                            # round 3 draws
        stack += [finals[p][4], finals[p][5]]
    deck = deal_order({p: [junk1[p], finals[p][0]] for p in range(n)}, stack, n, start)
    state = new_state([deck] + (hunt or []), n, start, mode)
    for junk in (junk1, junk2):
        for p in order:
            offer(state, p, targets[p], code(junk[p]))
            act(state, p, "claim none" if mode == "pro" else f"claim {code(junk[p])}")
            act(state, targets[p], "veto")
            if state.phase is Phase.CREATION:  # Schöpfung offered: let the veto stand
                act(state, p, "pass")
    assert state.round == 3
    for p in range(n):
        assert numbers(state.hands[p]) == set(finals[p]), (p, numbers(state.hands[p]))
    return state


def position(n: int, hands: dict[int, list[int]], start: int = 0, mode: str = "pro",
             **state: Any) -> dict[str, Any]:
    """A hand-written position (docs/positions.md) at the start of round 1, seat ``start``
    to play: every seat holds its ``hands`` entry (printed numbers), the other cards lie in
    the stack, lowest on top; ``state`` sets further fields of the ``"state"`` object."""
    return {
        "format": "spieltisch-position", "version": 1, "game": "pixmit", "players": n,
        "options": {"mode": mode, "start_player": start}, "chance": {"seed": 0},
        "state": {"phase": "turn", "round": 1, "start": start, "active": start,
                  **cards(n, hands), **state},
    }


def cards(n: int, hands: dict[int, list[int]]) -> dict[str, Any]:
    """The ``seats`` and ``stack_top_first`` of a position where every seat holds its
    ``hands`` entry and knows nothing else, the other cards in the stack, lowest on top."""
    named = {x for h in hands.values() for x in h}
    return {"seats": [{"hand": [code(x) for x in hands[p]]} for p in range(n)],
            "stack_top_first": [code(x) for x in range(1, 34) if x not in named]}


def rearranged(state: PixmitState, hands: dict[int, list[int]]) -> PixmitState:
    """A fresh deal with these hands instead, through its position (the same start
    player and generator): see ``cards``."""
    return edited(state, **cards(state.num_players, hands))


def load(pos: dict[str, Any]) -> PixmitState:
    return load_state(pos, PixmitState)
