"""What each seat sees of a Pixmit state (``State.view``), and the caches behind it.

A seat sees every hand's size, the stack's size, the holder of card 21 (§2: public at
all times), the vetoes, the reveals (§3.2, §3.5), an offer's size and announcements,
its own hand and score, and the places of the cards it knows (``PixmitState.known``:
drawn, swapped, seen with Wissen or revealed). The core adds the fields every game
shares (seat, phase, to_act, …).

Views are read-only once returned (``docs/engine.md``), so they share sub-objects: the
tables below, the end-of-game summary (the same for every seat) and each seat's
private part (rebuilt only when cards move or become known). ``PixmitViews`` owns
those caches; each state has its own, which a copy drops.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from . import cards as C
from .terms import OFFER_OPEN, OVER, TURN

if TYPE_CHECKING:
    from .state import PixmitState

MAX_PLAYERS: Final = 4
#: ``knowledge_used`` / ``creation_used`` by player count and mask of seats.
_FLAGS: Final[list[list[list[bool]]]] = [
    [[bool(mask >> p & 1) for p in range(n)] for mask in range(1 << n)]
    for n in range(MAX_PLAYERS + 1)]
#: Entries of ``known``: card x in seat p's hand, and card x at a stack position.
_SEEN_IN_HAND: Final[list[list[dict[str, Any]]]] = [
    [{"card": code, "seat": p} for code in C.CARD_CODES] for p in range(MAX_PLAYERS)]
_SEEN_IN_STACK: Final[list[list[dict[str, Any]]]] = [
    [{"card": code, "stack_from_top": i} for code in C.CARD_CODES] for i in range(C.NUM_CARDS)]

#: A seat's private part: its hand, its score and the places it knows.
Private = tuple[list[str], int, list[dict[str, Any]]]


class PixmitViews:
    """The views of one state, with the caches they share (see the module docstring)."""

    __slots__ = ("_final", "_final_move", "_private", "_private_version")

    def __init__(self) -> None:
        self._final: dict[str, Any] | None = None
        self._final_move = -1
        self._private: dict[int, Private] = {}
        self._private_version = -1

    def view(self, state: PixmitState, seat: int | None) -> dict[str, Any]:
        """The public part, the final summary at the end, and the seat's own part."""
        out = self._public(state)
        if state.phase is OVER:
            out["final"] = self.final(state)
        if seat is None:
            return out
        out["hand"], out["score"], known = self.private(state, seat)
        if seat == state.active:
            if out["offer"] is not None:
                out["offer"]["cards"] = [C.CARD_CODES[x] for x in state.offer_cards]
            elif state.phase is TURN and state.target >= 0:
                # the chosen target is the active seat's secret until the cards follow
                out["offer_target"] = state.target
                out["may_call"] = False
        out["known"] = known
        return out

    def full_view(self, state: PixmitState) -> dict[str, Any]:
        """Everything: every hand, the stack's order, the offer's cards, what each seat
        knows (masks) and the hunt."""
        out = self._public(state)
        out["hands"] = [C.card_codes(h) for h in state.hands]
        out["stack_top_first"] = [C.CARD_CODES[x] for x in reversed(state.stack)]
        out["offer_cards"] = [C.CARD_CODES[x] for x in state.offer_cards]
        if state.phase is TURN and state.target >= 0:
            out["offer_target"] = state.target
        out["known"] = list(state.known)
        out["hunt"] = [[p, C.CARD_CODES[x]] for p, x in state.hunt]
        out["hunt_eligible"] = list(state.hunt_eligible)
        if state.phase is OVER:
            out["final"] = self.final(state)
        return out

    @staticmethod
    def _public(state: PixmitState) -> dict[str, Any]:
        """What every seat sees (a fresh dict)."""
        n = state.game.num_players
        holder = state.holder21
        offer = None
        if state.phase in OFFER_OPEN and state.offer_cards:
            offer = {"from": state.active, "to": state.target, "k": len(state.offer_cards),
                     "claims": [C.CLAIM_TEXT[x] for x in state.claims]}
        return {
            "game": "pixmit",
            "players": n,
            "mode": state.game.mode,
            "round": state.round,
            "start_player": state.start,
            "active": state.active,
            "may_call": state.phase is TURN and state.fresh,
            "hand_sizes": list(map(int.bit_count, state.hands)),
            "stack_size": len(state.stack),
            "holder_21": holder if holder >= 0 else "stack",
            "vetoes": list(state.vetoes),
            "knowledge_used": _FLAGS[n][state.used_knowledge],
            "creation_used": _FLAGS[n][state.used_creation],
            "reveals": list(state.reveals),
            "offer": offer,
            "log": state.log[-12:],
        }

    def final(self, state: PixmitState) -> dict[str, Any]:
        """The end-of-game summary (§4), the same for every seat: built once."""
        if self._final is None or self._final_move != state.move_number:
            self._final = {
                "hands": [C.card_codes(h) for h in state.hands],
                "layouts": [C.layout_text(h) for h in state.hands],
                "scores": state.final_scores(),
                "caller": state.caller,
                "call_conditions": list(state.call_conds),
                "hunt": [[p, C.CARD_CODES[x]] for p, x in state.hunt],
                "annihilation_effect": state.annihilation_effect(),
                "result": state.result().to_json(),
            }
            self._final_move = state.move_number
        return self._final

    def private(self, state: PixmitState, seat: int) -> Private:
        """The seat's hand, its score and the places it knows, kept until cards move or
        become known (``cards_version``)."""
        if self._private_version != state.cards_version:
            self._private = {}
            self._private_version = state.cards_version
        got = self._private.get(seat)
        if got is None:
            hand = state.hands[seat]
            got = self._private[seat] = (C.card_codes(hand), C.score(hand),
                                         _known_places(state, seat))
        return got


def _known_places(state: PixmitState, seat: int) -> list[dict[str, Any]]:
    """The cards of other hands, then of the stack (bottom first), whose place ``seat``
    knows (``known[seat]``); the entries are shared read-only dicts."""
    mine = state.known[seat]
    out: list[dict[str, Any]] = []
    held = 0
    for p, hand in enumerate(state.hands):
        held |= hand
        if p != seat and hand & mine:
            seen = _SEEN_IN_HAND[p]
            out += [seen[x] for x in C.card_ids(hand & mine)]
    if mine & ~held:  # every card not in a hand is in the stack
        top = len(state.stack) - 1
        out += [_SEEN_IN_STACK[top - i][x] for i, x in enumerate(state.stack) if mine >> x & 1]
    return out


__all__ = ["PixmitViews"]
