"""The words of Hood Politix's rules, declared once: phases, seat statuses, pauses, the kinds
of faulty attempts, the tally kept for ``stats`` and the rule's numbers (spec ``rules.md``).

Every name list (views, positions, observations, narration) is derived from these Enums;
nothing depends on their numeric order. Hot code compares against the module-level aliases
(``TURN``, ``IN``, …): reading ``Phase.TURN`` from the Enum class costs several times a global.
The rules code compares phases by identity (``phase is TURN``): a state's phase is always a
member (the conformance suite checks it), and ``==`` on an IntEnum takes the interpreter's
slow path.
"""

from __future__ import annotations

from enum import Enum, IntEnum
from typing import Final


class Phase(IntEnum):
    """Whom the game waits for and what they may do (§3 phase table, §9.7)."""

    TURN = 0             # the due seat plays or draws
    STACK = 1            # the stack target answers a Deuce / In Yo Face stack (§4)
    SLAP = 2             # the next seat answers a Pimp Slap (§4)
    DEAL = 3             # the Deal target, next in turn, blocks or accepts (§4)
    SNITCH = 4           # the Snitch player reveals or exchanges a card (§4)
    MIC_DROP_WINDOW = 5  # the One-on-One's last Mic Drop may still be accused (§9.7)
    OVER = 6             # the game has ended (§6)

    @property
    def label(self) -> str:
        """The phase's name in views and positions (``mic_drop_window``)."""
        return self.name.lower()


class Status(IntEnum):
    """A seat's standing in the round (§3 ``status``)."""

    IN = 0
    FINISHED = 1
    PENDING = 2  # PENDING_FINISH: a last Deuce / In Yo Face waits for its answer (§4)

    @property
    def label(self) -> str:
        """The status's name in views and positions."""
        return self.name.lower()


class Pause(IntEnum):
    """What freezes play (§3 ``pause``, §5.5, §5.6)."""

    NONE = 0  # falsy: ``if state.pause`` asks whether play is paused
    POLITIX = 1
    RESPEKT = 2

    @property
    def label(self) -> str:
        """The pause's name in views and positions."""
        return self.name.lower()


class Fault(Enum):
    """Why an attempt is faulty, costing the offender 2 cards (§3 invalid attempts, §5.1,
    §5.2); the value is the ``why`` of the ``fault`` event."""

    NO_MATCH = "no_match"                   # the card does not match the top card (§3)
    WRONG_ANSWER = "wrong_answer"           # not an answer the phase allows (§3, §4)
    OUT_OF_TURN = "out_of_turn"             # playing, drawing or accepting when not due
    PLAYABLE = "playable"                   # drawing while holding a playable card (§3)
    NOTHING_TO_ACCEPT = "nothing_to_accept"  # accepting with no penalty pending
    TOO_LATE = "too_late"                   # a throw-in not identical to the top card (§5.1)
    NOT_A_NUMBER = "not_a_number"           # an action card thrown in (§5.1, §7.6)
    FALSE_ACCUSATION = "false_accusation"   # Judas: no such open fault (§5.2)


class Tally(IntEnum):
    """What ``stats`` counts, an index into ``HoodPolitixState.counts``."""

    FAULTS = 0
    THROW_INS = 1
    ACCUSATIONS = 2
    POLITIX = 3
    RESPEKT = 4

    @property
    def label(self) -> str:
        """The count's name in ``stats`` and positions."""
        return self.name.lower()


# Hot-path aliases (see the module docstring).
TURN: Final = Phase.TURN
STACK: Final = Phase.STACK
SLAP_R: Final = Phase.SLAP
DEAL_R: Final = Phase.DEAL
SNITCH_R: Final = Phase.SNITCH
MICDROP_WAIT: Final = Phase.MIC_DROP_WINDOW
OVER: Final = Phase.OVER
IN: Final = Status.IN
FINISHED: Final = Status.FINISHED
PENDING: Final = Status.PENDING
NO_PAUSE: Final = Pause.NONE
P_POLITIX: Final = Pause.POLITIX
P_RESPEKT: Final = Pause.RESPEKT

#: Names by value, for views and positions (derived, never kept by hand).
PHASE_NAMES: Final = tuple(p.label for p in sorted(Phase))
STATUS_NAMES: Final = tuple(s.label for s in sorted(Status))
PAUSE_NAMES: Final = tuple(None if p is Pause.NONE else p.label for p in sorted(Pause))
COUNT_NAMES: Final = tuple(t.label for t in sorted(Tally))

#: Cards a faulty attempt or a valid accusation costs (§3, §5.2, §5.3).
PENALTY: Final = 2
#: Cards each slapped seat draws (§4 Pimp Slap).
SLAP_DRAW: Final = 3
#: One draw instruction of this many cards starts a Respekt pause (§5.6, §9.9).
RESPEKT_AT: Final = 5
