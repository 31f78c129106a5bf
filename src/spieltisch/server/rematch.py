"""A rematch: the same people and bots at a new table, seats rotated by one, a new deal.

When a game with people at it ends, its table offers a rematch for ``rematch_seconds``
(``RematchOffer``): each person accepts it or declines it over the table's WebSocket
(``{"type": "rematch"}``, ``"accept": false`` to decline); bots accept at once. When
the last person accepts, the lobby stores the new table (``Lobby.start_rematch``) with
the same game, options and pace, a seed the server draws, every seat one place further
on (seat ``i`` sits at ``i + 1``), bots of the same level and name, and each person's
seat already taken: it starts at once. Every connection of the old table is told
(``rematch`` messages); a person's own gets the new seat and its token.

That token is derived from the person's token at the old table (``rematch_token``): the
server keeps only its hash, as for any seat, and can hand it out again to whoever says
``hello`` at the old table with the old token later (a reload). Whoever holds the old
token holds the seat at the rematch: the same person.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
from dataclasses import dataclass, field
from typing import Any

#: The states of an offer: open until every person accepted (started), one declined, or
#: its time ran out (closed).
OPEN, STARTED, DECLINED, CLOSED = "open", "started", "declined", "closed"


def rematch_token(token: str, code: str) -> str:
    """The seat token at the rematch ``code`` of the person whose token at the old table
    is ``token`` (as long as a token of ``secrets.token_urlsafe(32)``)."""
    digest = hashlib.sha256(f"spieltisch rematch\n{code}\n{token}".encode()).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def rotated(seat: int, players: int) -> int:
    """Where the player of ``seat`` sits at the rematch: one seat further on."""
    return (seat + 1) % players


@dataclass
class RematchOffer:
    """A finished table's offer of a rematch: who must answer and who accepted."""

    #: The seats of people (each must accept) and of bots (they accept at once).
    people: tuple[int, ...]
    bots: tuple[int, ...]
    #: Person seat → its token at this table, held until the new table is stored (its
    #: seats' tokens are derived from them).
    accepted: dict[int, str] = field(default_factory=dict)
    status: str = OPEN
    declined_by: int | None = None
    #: The rematch's code once it started.
    code: str | None = None
    timer: asyncio.TimerHandle | None = None

    def waiting(self) -> list[int]:
        """The people who have not answered yet."""
        return [s for s in self.people if s not in self.accepted]

    def json(self) -> dict[str, Any]:
        """What every connection of the table may know of it (no token)."""
        return {"status": self.status,
                "accepted": sorted([*self.bots, *self.accepted]),
                "waiting": self.waiting() if self.status == OPEN else [],
                "declined": self.declined_by, "code": self.code}


__all__ = ["CLOSED", "DECLINED", "OPEN", "STARTED", "RematchOffer", "rematch_token",
           "rotated"]
