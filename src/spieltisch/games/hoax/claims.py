"""HOAX's identity claims and the doubt sub-machine (§5).

Every identity claim — a declared personal action (S0) or a Protect / Illegal / Fine /
Forgive reaction — passes through a DOUBT window and, once a seat opens a doubt, a
VOTE (§5.1–§5.4) before it takes effect. ``Claim`` is the claim under doubt (immutable:
a copy of the state shares it); ``DoubtRules`` is the sub-machine, a part of
``HoaxState``, which hands the outcome back to the rules (``HoaxState._AFTER_CLAIM``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, NamedTuple

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
from .phases import PHASE

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


#: The same members for the hot paths (``Phase``'s ``PHASE`` says why).
CLAIM_FOR = SimpleNamespace(**ClaimFor.__members__)
#: The view's name of each ``ClaimFor``, indexed by it.
CLAIM_FOR_NAMES: tuple[str, ...] = tuple(k.name.lower().replace("_", "-") for k in ClaimFor)
#: The identity each reaction claims (-1: an action claims its own identity, §3).
CLAIMED_IDENTITY: tuple[int, ...] = (-1, MAGICIAN, BARON, JUDGE, MONK, MAGICIAN)


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


class DoubtRules:
    """The doubt sub-machine of ``HoaxState`` (§5): claim, doubt, vote, tally."""

    def _claim(self: HoaxState, seat: int, kind: ClaimFor, chip: int,
               ev: list[Event]) -> None:
        """§5.1: a claim opens a doubt window for every other seat in the round."""
        identity = CLAIMED_IDENTITY[kind]
        if identity < 0:  # ClaimFor.ACTION: the identity of the declared action
            identity = CLAIM_OF_KIND[self.tab.kind[self.act]]
        self.claim = Claim(seat, identity, kind, chip)
        self.opener = -1
        mask = self.in_round & ~(1 << seat)
        if not mask:
            self._claim_done(True, ev)
            return
        self._open_window(PHASE.DOUBT, mask)

    def _open_doubt(self: HoaxState, seat: int, action: int) -> list[Event]:
        """§5.1: opening a doubt counts as a Doubt vote (§9.7); in the final it is
        official at once (§6)."""
        claim = self.claim
        assert claim is not None
        ev: list[Event] = []
        self.opener = seat
        self.log.append(("doubt", seat, claim.seat, claim.identity))
        ev.append(Event("doubt", seat, {"claimant": claim.seat,
                                        "identity": IDENTITY_NAMES[claim.identity]}))
        need = (self.in_round.bit_count() + 1) // 2
        self.votes_yes = self.voted = 1 << seat
        pending = self.in_round & ~(1 << claim.seat) & ~(1 << seat)
        if self.in_final or need <= 1 or not pending:
            self._tally(ev)
        else:
            self.vote_pending = pending
            self.phase = PHASE.VOTE
        return ev

    def _vote(self: HoaxState, seat: int, action: int) -> list[Event]:
        """§5.2: a secret vote, Doubt or Trust; the last vote is tallied."""
        bit = 1 << seat
        doubt = action == self.tab.vote_doubt
        self.voted |= bit
        if doubt:
            self.votes_yes |= bit
        self.vote_pending &= ~bit
        ev = [Event("vote", seat, {}, {seat: {"vote": "doubt" if doubt else "trust"}})]
        if not self.vote_pending:
            self._tally(ev)
        return ev

    def _tally(self: HoaxState, ev: list[Event]) -> None:
        """§5.3–§5.4: a doubt is official with half the seats in the round (rounded up);
        justified, the claimant covers the identity and the claim is void; unjustified,
        the claimant's card is turned, it leaves with +3 and the claim stands."""
        claim = self.claim
        assert claim is not None
        need = (self.in_round.bit_count() + 1) // 2
        official = self.in_final or self.votes_yes.bit_count() >= need
        seat, identity = claim.seat, claim.identity
        doubters = list(SEATS_OF[self.votes_yes])
        if not official:
            self.log.append(("vote", seat, identity, self.votes_yes, False, None))
            ev.append(Event("vote_result", None, {"claimant": seat,
                                                  "identity": IDENTITY_NAMES[identity],
                                                  "doubters": doubters, "official": False}))
            self._claim_done(True, ev)
            return
        justified = self.card[seat] >> 1 != identity
        self.log.append(("vote", seat, identity, self.votes_yes, True, justified))
        ev.append(Event("vote_result", None, {"claimant": seat,
                                              "identity": IDENTITY_NAMES[identity],
                                              "doubters": doubters, "official": True,
                                              "justified": justified}))
        if justified:
            # §5.4: the claimant covers the identity for the rest of the round; void claim
            self.covered[seat] |= 1 << identity
            self.doubt_cov[seat] |= 1 << identity
            self._claim_done(False, ev)
            return
        if self.in_final:
            # §6: an unjustified doubt makes the doubter lose the final at once
            self._end_final(seat, self.opener, 3, False, ev)
            return
        # §5.4 unjustified: face up, out with +3, chips to the bank, the claim is carried out
        self.revealed |= 1 << seat
        action_claim = claim.kind is CLAIM_FOR.ACTION
        self._leave(seat, ev, "unjustified doubt", keep_chips=action_claim)
        if action_claim:
            self.departing = True  # the action executes first (§8 scenario 4)
        if self._award(seat, 3, ev, why="unjustified doubt"):
            return
        self._claim_done(True, ev)

    def _claim_done(self: HoaxState, stands: bool, ev: list[Event]) -> None:
        """The claim is settled: it ``stands`` or is void; the rules go on from it."""
        claim = self.claim
        assert claim is not None
        self.claim = None
        self.opener = -1
        self.votes_yes = self.voted = self.vote_pending = 0
        self._AFTER_CLAIM[claim.kind](self, claim, stands, ev)


__all__ = ["CLAIMED_IDENTITY", "CLAIM_FOR", "CLAIM_FOR_NAMES", "Claim", "ClaimFor", "DoubtRules",
           "claims_in"]
