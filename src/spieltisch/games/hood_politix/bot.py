"""A Hood Politix bot a quick, attentive player would find sensible.

- Always announces Mic Check / Mic Drop with the play (flagged actions).
- Out of turn: throws in whenever it can, accuses every open fault it sees,
  claims timeouts; it never calls Politix.
- Stacks draw penalties (Deuce, In Yo Face) rather than drawing; answers with a
  matching Payback next, 5-0 last; accepts only without an answer.
- On its turn it keeps 5-0 and Payback for defence, hits a player close to
  finishing with Busted, Pimp Slap or a stack, Deals its big hand to the player
  with the fewest cards (and blocks a Deal that would hurt it), Snitches the
  leader and takes their best card.
"""

from __future__ import annotations

from typing import Any

from ...bots.base import Bot, Observation
from . import cards as C
from .cards import (
    A_ACCEPT,
    A_ACCUSE,
    A_GIVE,
    A_PASS,
    A_PLAY,
    A_REVEAL,
    A_TAKE,
    A_THROW,
    AARG_T,
    AFLAG_T,
    AKIND_T,
    ATYPE_T,
    KIND_TYPE,
)

# How much a card is worth keeping (higher: play it later).
KEEP = {-1: 0.0, C.DEUCE: 2.0, C.BUSTED: 1.5, C.PAYBACK: 4.0, C.FIVEO: 6.0, C.IYF: 5.0,
        C.SLAP: 3.0, C.DEAL: 3.5, C.SNITCH: 2.5}
STACK_PREF = {C.DEUCE: 0, C.IYF: 1, C.PAYBACK: 2, C.FIVEO: 3}


class HeuristicBot(Bot):
    """The attentive player of the module docstring."""
    name = "heuristic"

    def react(self, obs: Observation) -> int | None:
        """Out of turn: accuse any open fault, announce Mic Check, throw in (§5)."""
        best = None
        for a in obs.legal_actions():
            t = ATYPE_T[a]
            if t == A_ACCUSE:
                return a
            if t == C.A_MIC:
                return a
            if t == A_THROW and (best is None or AFLAG_T[a]):
                best = a
        return best

    def act(self, obs: Observation) -> int | None:
        """On its turn: end pauses at once, answer stacks and slaps, else the best play."""
        actions = obs.legal_actions()
        if len(actions) == 1:
            return actions[0]
        types = [ATYPE_T[a] for a in actions]
        for a, t in zip(actions, types, strict=True):
            if t == A_ACCUSE or t == C.A_RELEASE or t == C.A_END_POLITIX or t == C.A_MIC:
                return a
        if A_PASS in types:
            return actions[types.index(A_PASS)]
        view = obs.view
        phase = view["phase"]
        sizes = view["hand_sizes"]
        me = self.seat
        plays = [a for a, t in zip(actions, types, strict=True) if t == A_PLAY]
        # Announce whenever a flagged version exists.
        flagged = {(AKIND_T[a], AARG_T[a]) for a in plays if AFLAG_T[a]}
        plays = [a for a in plays if AFLAG_T[a] or (AKIND_T[a], AARG_T[a]) not in flagged]
        if phase == "snitch":
            return self._snitch(actions, types, view)
        if phase in ("stack", "slap", "deal"):
            accept = actions[types.index(A_ACCEPT)] if A_ACCEPT in types else None
            if phase == "deal":
                by = view["deal"]["by"]
                if plays and sizes[by] > sizes[me]:
                    return plays[0]
                return accept
            if not plays:
                return accept
            return min(plays, key=lambda a: STACK_PREF.get(KIND_TYPE[AKIND_T[a]], 9))
        if not plays:
            for a, t in zip(actions, types, strict=True):
                if t == C.A_DRAW:
                    return a
            return actions[0]
        return max(plays, key=lambda a: self._score(a, view, sizes))

    def _score(self, a: int, view: dict[str, Any], sizes: list[int]) -> float:
        """How good a play is now (higher: better); see the module docstring."""
        kind, target = AKIND_T[a], AARG_T[a]
        typ = KIND_TYPE[kind]
        me = self.seat
        n = len(sizes)
        status = view["status"]
        step = 1 if view["direction"] == "clockwise" else -1
        nxt = me
        for _ in range(n):
            nxt = (nxt + step) % n
            if status[nxt] != "finished":
                break
        danger = sizes[nxt] <= 2 and status[nxt] == "in"
        mine = sizes[me]
        score = -KEEP[typ]
        if typ == -1:
            # Prefer numbers whose colour we hold more of (keeps options).
            colour = C.KIND_COLOUR[kind]
            hand = view["hand"]
            score += 0.1 * sum(1 for c in hand if c[0] == C.COLOURS[colour])
        elif typ in (C.DEUCE, C.IYF, C.BUSTED, C.SLAP):
            if danger:
                score += 8.0
        elif typ == C.DEAL:
            gain = mine - 1 - sizes[target]
            score += gain if gain > 1 else -5.0
        elif typ == C.SNITCH:
            score += 1.0 if sizes[target] <= 2 else -1.0
            score -= 0.1 * sizes[target]
        if mine <= 2 and typ not in (C.DEUCE, C.IYF):
            score += 1.0  # finish cleanly rather than pending
        return score

    def _snitch(self, actions: list[int], types: list[int], view: dict[str, Any]) -> int:
        """§4 Snitch: take their best card and give its least valuable one, else reveal."""
        # An exchange when it can give a card: take their best card, then give its
        # least valuable one (the two choices are independent).
        gives = [a for a, t in zip(actions, types, strict=True) if t == A_GIVE]
        if gives:
            return min(gives, key=lambda a: KEEP[KIND_TYPE[AKIND_T[a]]])
        takes = [a for a, t in zip(actions, types, strict=True) if t == A_TAKE]
        if takes:
            return max(takes, key=lambda a: KEEP[KIND_TYPE[AKIND_T[a]]])
        reveals = [a for a, t in zip(actions, types, strict=True) if t == A_REVEAL]
        return max(reveals, key=lambda a: KEEP[KIND_TYPE[AKIND_T[a]]])


__all__ = ["HeuristicBot"]
