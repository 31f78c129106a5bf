"""HOAX's phases: the round's set-up (§2) and the steps of a turn (§3 S0–S9, §5).

``HoaxState.phase`` is always a member of ``Phase``; what each phase allows is the
phase table at the end of ``HoaxState`` (``state.py``). The values are indices only
(into ``PHASE_NAMES`` and the observation's one-hot slots): no code compares phases by
order, groups of phases are the sets below.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final


class Phase(IntEnum):
    """One step of a HOAX round; its name (lower case) is the view's ``phase``."""

    COVER = 0     # §2: every seat covers one identity that is not its own
    CHIP = 1      # §2: every seat takes one starting chip
    DECLARE = 2   # S0: the active seat declares an action
    DOUBT = 3     # S1 (§5.1): a window to doubt the claim just made
    VOTE = 4      # §5.2: the other seats vote on the doubt
    PROTECT = 5   # S2: targets may protect as Magician
    GIVE = 6      # S3 (Monk collect): payers with a choice give a chip
    SHOW = 7      # S3 (BuyInfo): the seat asked shows false identities
    ILLEGAL = 8   # S5: a window to declare the action illegal as Baron
    FINE = 9      # S6: a window to fine the actor as Judge
    FORGIVE = 10  # S7: a window to forgive the actor as Monk
    SETTLE = 11   # S8: the convicted actor pays (or protects as Magician)
    PASS = 12     # §7.9: the paid Judge chooses the Baron who gets a chip
    OVER = 13     # §6: a seat reached 10 throne points


#: The view's name of each phase, indexed by the phase (``Phase.X.name`` is slow in 3.11).
PHASE_NAMES: Final[tuple[str, ...]] = tuple(p.name.lower() for p in Phase)
assert [p.value for p in Phase] == list(range(len(Phase))), "phases index PHASE_NAMES"

def phase_named(name: str) -> Phase:
    """The phase a view names (``view["phase"]``, a ``close`` event's window)."""
    return Phase[name.upper()]


#: Reaction windows: seats may react out of turn until the deadline closes the window.
WINDOWS: Final = frozenset((Phase.DOUBT, Phase.PROTECT, Phase.ILLEGAL, Phase.FINE, Phase.FORGIVE))
#: Windows that react to the actor's loose chips (§9.1): void when the actor holds none.
CHIP_WINDOWS: Final = frozenset((Phase.FINE, Phase.FORGIVE))
#: The round's set-up: every seat chooses at once, nobody builds trios yet.
SETUP: Final = frozenset((Phase.COVER, Phase.CHIP))
#: Phases in which a seat in the round may build a trio (out of turn, §3): all of a turn.
TRIO_PHASES: Final = frozenset(p for p in Phase if p not in SETUP and p is not Phase.OVER)
#: Phases with a claim under doubt (§5).
CLAIM_PHASES: Final = frozenset((Phase.DOUBT, Phase.VOTE))

__all__ = ["CHIP_WINDOWS", "CLAIM_PHASES", "PHASE_NAMES", "SETUP", "TRIO_PHASES",
           "WINDOWS", "phase_named",
           "Phase"]
