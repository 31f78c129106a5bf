"""HOAX's identity claims and the doubt sub-machine (§5).

Every identity claim — a declared personal action (S0) or a Protect / Illegal / Fine /
Forgive reaction — passes through a DOUBT window and, once a seat opens a doubt, a
VOTE (§5.1–§5.4) before it takes effect. ``Claim`` is the claim under doubt (immutable:
a copy of the state shares it); the functions below are the sub-machine, run on a
``HoaxState`` (two are its DOUBT and VOTE handlers), which hands the outcome back to the
rules (``HoaxState._AFTER_CLAIM``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from ...core.game import Event
from .cards import (
    BARON,
    CLAIM_OF_KIND,
    IDENTITY_NAMES,
    JUDGE,
    MAGICIAN,
    MONK,
    REACTION_CLAIM,
    SEATS_OF,
    ActionTable,
)
from .phases import Phase

if TYPE_CHECKING:
    from .state import HoaxState


class ClaimFor(IntEnum):
    """What a claim was made for: where the rules go on once it is settled."""

    ACTION = 0          # S0: the declared personal action
    PROTECT = 1         # S2: a target protects as Magician
    ILLEGAL = 2         # S5: a Baron declares the action illegal
    FINE = 3            # S6: a Judge fines the actor
    FORGIVE = 4         # S7: a Monk forgives the actor
    SETTLE_PROTECT = 5  # S8: the convicted actor protects as Magician


#: The view's name of each ``ClaimFor``, indexed by it.
CLAIM_FOR_NAMES: Final[tuple[str, ...]] = tuple(k.name.lower().replace("_", "-") for k in ClaimFor)
#: The identity each reaction claims (-1: an action claims its own identity, §3).
CLAIMED_IDENTITY: Final[tuple[int, ...]] = (-1, MAGICIAN, BARON, JUDGE, MONK, MAGICIAN)


class Claim(NamedTuple):
    """An identity claim under doubt: ``seat`` claims to be ``identity`` (§5)."""

    seat: int
    identity: int
    kind: ClaimFor
    #: The chip type a Fine or Forgive names; -1 for other claims.
    chip: int = -1


def claims_in(entries: Iterable[tuple[Any, ...]],
              table: ActionTable) -> Iterator[tuple[int, int]]:
    """``(seat, identity)`` for every public identity claim among round-log entries:
    a declared personal action, or a Protect / Illegal / Fine / Forgive reaction."""
    kind = table.kind
    for entry in entries:
        word = entry[0]
        if word == "declare":
            identity = CLAIM_OF_KIND[kind[entry[2]]]
        elif word in REACTION_CLAIM:
            identity = REACTION_CLAIM[word]
        else:
            continue
        if identity >= 0:
            yield entry[1], identity


# -- the doubt sub-machine (§5): functions of the state, handlers of its phase table ----
def make_claim(s: HoaxState, seat: int, kind: ClaimFor, chip: int,
           ev: list[Event]) -> None:
    """§5.1: a claim opens a doubt window for every other seat in the round."""
    identity = CLAIMED_IDENTITY[kind]
    if identity < 0:  # ClaimFor.ACTION: the identity of the declared action
        identity = CLAIM_OF_KIND[s.tab.kind[s.act]]
    s.claim = Claim(seat, identity, kind, chip)
    s.opener = -1
    mask = s.in_round & ~(1 << seat)
    if not mask:
        claim_done(s, True, ev)
        return
    s._open_window(Phase.DOUBT, mask)

def open_doubt(s: HoaxState, seat: int, action: int) -> list[Event]:
    """§5.1: opening a doubt counts as a Doubt vote (§9.7); in the final it is
    official at once (§6)."""
    claim = s.claim
    assert claim is not None
    ev: list[Event] = []
    s.opener = seat
    s.log.append(("doubt", seat, claim.seat, claim.identity))
    ev.append(Event("doubt", seat, {"claimant": claim.seat,
                                    "identity": IDENTITY_NAMES[claim.identity]}))
    need = (s.in_round.bit_count() + 1) // 2
    s.votes_yes = s.voted = 1 << seat
    pending = s.in_round & ~(1 << claim.seat) & ~(1 << seat)
    if s.in_final or need <= 1 or not pending:
        tally(s, ev)
    else:
        s.vote_pending = pending
        s.phase = Phase.VOTE
    return ev

def vote(s: HoaxState, seat: int, action: int) -> list[Event]:
    """§5.2: a secret vote, Doubt or Trust; the last vote is tallied."""
    bit = 1 << seat
    doubt = action == s.tab.vote_doubt
    s.voted |= bit
    if doubt:
        s.votes_yes |= bit
    s.vote_pending &= ~bit
    ev = [Event("vote", seat, {}, {seat: {"vote": "doubt" if doubt else "trust"}})]
    if not s.vote_pending:
        tally(s, ev)
    return ev

def tally(s: HoaxState, ev: list[Event]) -> None:
    """§5.3–§5.4: a doubt is official with half the seats in the round (rounded up);
    justified, the claimant covers the identity and the claim is void; unjustified,
    the claimant's card is turned, it leaves with +3 and the claim stands."""
    claim = s.claim
    assert claim is not None
    need = (s.in_round.bit_count() + 1) // 2
    official = s.in_final or s.votes_yes.bit_count() >= need
    seat, identity = claim.seat, claim.identity
    doubters = list(SEATS_OF[s.votes_yes])
    if not official:
        s.log.append(("vote", seat, identity, s.votes_yes, False, None))
        ev.append(Event("vote_result", None, {"claimant": seat,
                                              "identity": IDENTITY_NAMES[identity],
                                              "doubters": doubters, "official": False}))
        claim_done(s, True, ev)
        return
    justified = s.card[seat] >> 1 != identity
    s.log.append(("vote", seat, identity, s.votes_yes, True, justified))
    ev.append(Event("vote_result", None, {"claimant": seat,
                                          "identity": IDENTITY_NAMES[identity],
                                          "doubters": doubters, "official": True,
                                          "justified": justified}))
    if justified:
        # §5.4: the claimant covers the identity for the rest of the round; void claim
        s.covered[seat] |= 1 << identity
        s.doubt_cov[seat] |= 1 << identity
        claim_done(s, False, ev)
        return
    if s.in_final:
        # §6: an unjustified doubt makes the doubter lose the final at once
        s._end_final(seat, s.opener, 3, False, ev)
        return
    # §5.4 unjustified: face up, out with +3, chips to the bank, the claim is carried out
    s.revealed |= 1 << seat
    action_claim = claim.kind is ClaimFor.ACTION
    s._leave(seat, ev, "unjustified doubt", keep_chips=action_claim)
    if action_claim:
        s.departing = True  # the action executes first (§8 scenario 4)
    if s._award(seat, 3, ev, why="unjustified doubt"):
        return
    claim_done(s, True, ev)

def claim_done(s: HoaxState, stands: bool, ev: list[Event]) -> None:
    """The claim is settled: it ``stands`` or is void; the rules go on from it."""
    claim = s.claim
    assert claim is not None
    s.claim = None
    s.opener = -1
    s.votes_yes = s.voted = s.vote_pending = 0
    s._AFTER_CLAIM[claim.kind](s, claim, stands, ev)


__all__ = ["CLAIMED_IDENTITY", "CLAIM_FOR_NAMES", "Claim", "ClaimFor", "claim_done",
           "claims_in", "make_claim", "open_doubt", "tally", "vote"]
