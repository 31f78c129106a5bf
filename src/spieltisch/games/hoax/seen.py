"""What one seat sees of a HOAX state, in the rules' own numbers: the bot's reading.

The view (``views.py``) says it in JSON, for players, the server and narration. A bot
reads it far more often: a search's rollouts ask about 74 times per simulation, and
building those views was a quarter of a search. ``Seen`` holds the same facts, read
from the state in the form the rules keep them: identities as numbers, sets of seats
and of identities as masks, chips per seat and type, the round's log as recorded.

It shows exactly what ``view(seat)`` shows and nothing else: ``tests/test_seen.py``
holds every field to the view, and to the view of a determinisation (which resamples
all the seat may not know). The lists are the state's own, not copies: read them
before the state moves on, and never change them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from .claims import Claim
from .phases import Phase

if TYPE_CHECKING:
    from .state import HoaxState

#: No seat's card lies face up: every entry -1 (shared, read-only).
_NONE_FACE_UP: Final[tuple[int, ...]] = (-1,) * 8


class Seen:
    """``seat``'s view of a HOAX state as numbers (the module docstring)."""

    __slots__ = ("seat", "n", "phase", "round", "turn", "active", "in_final", "identity",
                 "in_round", "tp", "loose", "covered", "known_is", "known_not", "face_up",
                 "shown_to_me", "claim", "act", "fine_t", "log", "last_reveal")

    def __init__(self, s: HoaxState, seat: int) -> None:
        n = s.n
        self.seat = seat
        self.n = n
        self.phase: Phase = s.phase
        self.round: int = s.round_no
        #: turns begun in the game (the view's ``turn``)
        self.turn: int = s.turns
        self.active: int = s.active
        self.in_final: bool = s.in_final
        #: this seat's identity (its own card)
        self.identity: int = s.card[seat] >> 1
        #: seats still in the round (mask)
        self.in_round: int = s.in_round
        #: per seat: throne points; ``loose[3 * seat + type]``: loose chips
        self.tp: list[int] = s.tp
        self.loose: list[int] = s.loose
        #: per seat: the identities it covered (mask), proven to be (-1: none), proven
        #: not to be (mask), and the identity of its card if it lies face up (-1: not)
        self.covered: list[int] = s.covered
        self.known_is: list[int] = s.known_is
        self.known_not: list[int] = s.known_not
        rev = s.revealed
        self.face_up: Any = _NONE_FACE_UP if not rev else \
            [s.card[p] >> 1 if rev >> p & 1 else -1 for p in range(n)]
        #: per seat q: the identities q showed this seat as false (mask; §3 BuyInfo)
        self.shown_to_me: list[int] = s.shown[seat::n]
        #: the claim under doubt (§5; a Fine's or Forgive's chip is in the log too), the
        #: declared action (-1: none), and per seat the chip type of a standing fine (-1:
        #: none)
        self.claim: Claim | None = s.claim
        self.act: int = s.act
        self.fine_t: list[int] = s.fine_t
        #: the round's log as recorded (entries are tuples, shared by copies of the state)
        self.log: list[tuple[Any, ...]] = s.log
        #: every seat's identity at the last final's reveal (None: no reveal yet)
        self.last_reveal: list[int] | None = s.last_reveal

    def known(self, q: int) -> int:
        """Seat ``q``'s identity if its card lies face up or was proven, else -1."""
        x: int = self.face_up[q]
        return x if x >= 0 else self.known_is[q]

    def loose_of(self, q: int) -> int:
        """Seat ``q``'s loose chips, all types."""
        i = 3 * q
        lo = self.loose
        return lo[i] + lo[i + 1] + lo[i + 2]


__all__ = ["Seen"]
