"""The words of Pixmit's turn, declared once: its phases and the rule's numbers (spec
``shared/rules/pixmit.md``).

Views, positions, the observation and the tests name phases from this Enum; nothing
depends on their numeric order (the values only index tables). Hot code compares
against the module-level aliases (``TURN``, ``OVER``, …): a global is read faster
than an attribute of the Enum class.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

#: A game is at most three rounds (§3).
ROUNDS: Final = 3
#: Cards a hand may hold at the end of a turn (§3.7).
HAND_LIMIT: Final = 6


class Phase(IntEnum):
    """What the game waits for within a turn of the active seat A (§3) and the end (§5)."""

    TURN = 0       # A calls, uses Wissen, or chooses a target and offers (§3.1–§3.3)
    CLAIM = 1      # A announces each offered card (§3.3)
    RESPONSE = 2   # the target T accepts or vetoes (§3.4)
    CREATION = 3   # after a veto A may reveal Schöpfung or let the veto stand (§3.5)
    RETURN = 4     # T gives back as many cards, blind (§3.4 ACCEPT)
    MESSENGER = 5  # 2 players: T gives a card through the Blinder Bote (§3.6)
    DISCARD = 6    # A puts cards over the hand limit under the stack (§3.7)
    OVER = 7       # the game has ended: a call or the silent end (§5)

    @property
    def label(self) -> str:
        """The phase's name in views and positions (``"messenger"``)."""
        return self.name.lower()


TURN: Final = Phase.TURN
CLAIM: Final = Phase.CLAIM
RESPONSE: Final = Phase.RESPONSE
CREATION: Final = Phase.CREATION
RETURN: Final = Phase.RETURN
MESSENGER: Final = Phase.MESSENGER
DISCARD: Final = Phase.DISCARD
OVER: Final = Phase.OVER
#: Phases after the offer's cards are laid down, while it is on the table.
OFFER_OPEN: Final = frozenset((CLAIM, RESPONSE, CREATION, RETURN, MESSENGER, DISCARD))
#: The phases by the names views and positions use.
BY_LABEL: Final[dict[str, Phase]] = {p.label: p for p in Phase}

__all__ = ["BY_LABEL", "CLAIM", "CREATION", "DISCARD", "HAND_LIMIT", "MESSENGER", "OFFER_OPEN",
           "OVER", "RESPONSE", "RETURN", "ROUNDS", "TURN", "Phase"]
