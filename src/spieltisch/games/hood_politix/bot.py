"""A Hood Politix bot a quick, attentive but human player would find sensible.

- Plays a card with its Mic Check / Mic Drop announcement, but forgets it now and then
  (``slip``); a forgotten Mic Check it may still announce out of turn before the next
  move (``recall``). It announces Mic Check one card early now and then (``bluff``: a
  ``mic`` flag with three cards, a permitted bluff, §5.4).
- Out of turn: throws in whenever it can; accuses an open fault it sees only when it
  notices it (``alert``, each chance anew, half as often once it has finished: a fault
  may stay unaccused for a while, or for good once its window closes); claims timeouts
  the same way. So the last Mic Drop of a round may pass unaccused (§9.7).
- Takes its time like a person: a decision takes an exponential time with a mean of
  ``think`` seconds, so now and then it outlasts the move timer (§5.3). Then Politix
  pays: with a call left it calls Politix (§5.5), which freezes the timer so nobody can
  claim a timeout, and ends the pause when it is ready (it lets the pause run out if it
  needs longer than ``politix_seconds``); without a call it lets the timer run out.
- After a Respekt draw it releases after an exponential time with a mean of ``release``
  seconds, so once in a while the Respekt pause runs out and it draws 2 more (§5.6).
- Stacks draw penalties (Deuce, In Yo Face) rather than drawing; answers with a
  matching Payback next, 5-0 last; accepts only without an answer.
- On its turn it keeps 5-0 and Payback for defence, hits a player close to finishing
  with Busted, Pimp Slap or a stack, Deals its big hand to the player with the fewest
  cards (and blocks a Deal that would hurt it), Snitches the leader and takes their
  best card for its worst one, or reveals their best card when it has nothing worse
  to give.

The defaults are the medium level's rates (``spieltisch.bots.levels``); a spec such as
``heuristic:slip=0.3:alert=0.3`` plays a sloppier person. Every random choice comes from
the bot's own seeded ``rng``: the same seed gives the same game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...bots.base import Bot, Observation, outlasts
from ...core.game import Verdict
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
    EXPIRE_ID,
    KIND_TYPE,
    T_MOVE,
    T_POLITIX,
    T_RESPEKT,
)

if TYPE_CHECKING:
    from .game import HoodPolitixGame

# How much a card is worth keeping (higher: play it later).
KEEP = {-1: 0.0, C.DEUCE: 2.0, C.BUSTED: 1.5, C.PAYBACK: 4.0, C.FIVEO: 6.0, C.IYF: 5.0,
        C.SLAP: 3.0, C.DEAL: 3.5, C.SNITCH: 2.5}
STACK_PREF = {C.DEUCE: 0, C.IYF: 1, C.PAYBACK: 2, C.FIVEO: 3}
_MOVE_TIMER, _RESPEKT_TIMER, _POLITIX_TIMER = (EXPIRE_ID[t] for t in
                                               (T_MOVE, T_RESPEKT, T_POLITIX))


class HeuristicBot(Bot):
    """The attentive but human player of the module docstring."""
    name = "heuristic"
    game: HoodPolitixGame
    #: No slips, bluffs or delays: the search's hint (``Bot.careful``).
    careful = {"slip": 0.0, "bluff": 0.0, "recall": 1.0, "alert": 1.0, "think": 0.0,
               "release": 0.0}

    def __init__(self, game: Any, seat: int, seed: int | None = None, slip: float = 0.1,
                 recall: float = 0.5, bluff: float = 0.05, alert: float = 0.6,
                 think: float = 0.75, release: float = 5.0, **params: Any) -> None:
        """``slip``: chance of forgetting an announcement; ``recall``: of announcing a
        forgotten Mic Check at a later chance; ``bluff``: of a Mic Check one card early;
        ``alert``: of accusing a fault it may accuse, at each chance; ``think`` and
        ``release``: mean seconds of a decision and of releasing a Respekt pause."""
        super().__init__(game, seat, seed, **params)
        self.slip = float(slip)
        self.recall = float(recall)
        self.bluff = float(bluff)
        self.alert = float(alert)
        self.think = float(think)
        self.release = float(release)
        g = self.game
        # A timer is outlasted with these chances (0 where the timer is off).
        self._slow = outlasts(self.think, g.move_seconds) if g.move_seconds > 0 else 0.0
        self._long_pause = outlasts(self.think, g.politix_seconds)
        self._sulk = outlasts(self.release, g.respekt_seconds)
        #: The move timer (its ``since``) this bot outlasted, so it is slow once per timer.
        self._slow_since = -1
        #: The pause (its ``since``) it lets run out.
        self._hold_since = -1

    def react(self, obs: Observation) -> int | None:
        """Out of turn: a remembered Mic Check, a fault it notices, else a throw-in (§5)."""
        accuse = mic = throw = None
        for a in obs.legal_actions():
            t = ATYPE_T[a]
            if t == A_ACCUSE:
                if accuse is None:
                    accuse = a
            elif t == C.A_MIC:
                mic = a
            elif t == A_THROW and (throw is None or AFLAG_T[a]):
                throw = a
        rng = self.rng
        if mic is not None and rng.random() < self.recall:
            return mic
        if accuse is not None and rng.random() < self._alertness(obs):
            return accuse
        return self._announce(obs, throw) if throw is not None else None

    def act(self, obs: Observation) -> int | None:
        """On its turn: its pause, a fault it notices, a slow move, stacks and slaps, else
        the best play."""
        actions = obs.legal_actions()
        types = [ATYPE_T[a] for a in actions]
        if C.A_RELEASE in types or C.A_END_POLITIX in types:
            return self._pause(obs, actions, types)
        rng = self.rng
        if self._slow and rng.random() < self._slow and self._outlasted(obs):
            # Politix pays: the pause freezes the move timer (§5.3, §5.5).
            return actions[types.index(C.A_POLITIX)] if C.A_POLITIX in types else None
        if len(actions) == 1:
            return actions[0]
        if C.A_MIC in types and rng.random() < self.recall:
            return actions[types.index(C.A_MIC)]
        if A_ACCUSE in types and rng.random() < self.alert:
            return actions[types.index(A_ACCUSE)]
        if A_PASS in types:  # the One-on-One's missed Mic Drop went unnoticed (§9.7)
            return actions[types.index(A_PASS)]
        view = obs.view
        phase = view["phase"]
        sizes = view["hand_sizes"]
        me = self.seat
        plays = [a for a, t in zip(actions, types, strict=True) if t == A_PLAY]
        # Announce whenever a flagged version exists (``_announce`` may forget it).
        flagged = {(AKIND_T[a], AARG_T[a]) for a in plays if AFLAG_T[a]}
        plays = [a for a in plays if AFLAG_T[a] or (AKIND_T[a], AARG_T[a]) not in flagged]
        if phase == "snitch":
            return self._snitch(actions, types, view)
        if phase in ("stack", "slap", "deal"):
            accept = actions[types.index(A_ACCEPT)] if A_ACCEPT in types else None
            if phase == "deal":
                by = view["deal"]["by"]
                if plays and sizes[by] > sizes[me]:
                    return self._announce(obs, plays[0])
                return accept
            if not plays:
                return accept
            return self._announce(
                obs, min(plays, key=lambda a: STACK_PREF.get(KIND_TYPE[AKIND_T[a]], 9)))
        if not plays:
            for a, t in zip(actions, types, strict=True):
                if t == C.A_DRAW:
                    return a
            return actions[0]
        return self._announce(obs, max(plays, key=lambda a: self._score(a, view, sizes)))

    # -- a person's timing and slips ------------------------------------------------------
    def _alertness(self, obs: Observation) -> float:
        """The chance of noticing a fault now: half as much once out of the round (a
        finished player watches the table less closely)."""
        if obs.view["status"][self.seat] == "finished":
            return self.alert / 2
        return self.alert

    def _outlasted(self, obs: Observation) -> bool:
        """Whether this decision outlasts the running move timer: once per timer (a timer
        that comes back after a pause, with the same ``since``, is not outlasted again).
        A finished player revealing with its last Snitch is never slow: the rules give
        no way back into the round to a finished player penalised for a timeout."""
        if obs.view["status"][self.seat] == "finished":
            return False
        for d in obs.deadlines():
            if d.action == _MOVE_TIMER and not d.fixed and d.since != self._slow_since:
                self._slow_since = d.since
                return True
        return False

    def _pause(self, obs: Observation, actions: list[int], types: list[int]) -> int | None:
        """Its own pause: end Politix when ready, release Respekt after a while (§5.5,
        §5.6); either may run out, once per pause."""
        politix = C.A_END_POLITIX in types
        timer = _POLITIX_TIMER if politix else _RESPEKT_TIMER
        since = next((d.since for d in obs.deadlines() if d.action == timer), None)
        if since is not None:  # (without a running timer nothing could end the pause)
            if since == self._hold_since:
                return None
            if self.rng.random() < (self._long_pause if politix else self._sulk):
                self._hold_since = since
                return None
        return actions[types.index(C.A_END_POLITIX if politix else C.A_RELEASE)]

    def _announce(self, obs: Observation, a: int) -> int:
        """The play or throw-in ``a`` with its announcement as a person makes it: now and
        then forgotten (``slip``), or a Mic Check bluffed with three cards (``bluff``)."""
        rng = self.rng
        if AFLAG_T[a]:
            return a - 1 if rng.random() < self.slip else a  # the unflagged twin
        if self.bluff and rng.random() < self.bluff and \
                len(obs.view["hand"]) == 3 and AFLAG_T[a + 1] and \
                obs.judge(a + 1).verdict is Verdict.LEGAL:
            return a + 1  # the flagged twin: a permitted bluff (§5.4)
        return a

    # -- choosing a card ---------------------------------------------------------------
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
        """§4 Snitch: take their best card for its least valuable one when that gains,
        else reveal their best card to everyone."""
        # The exchange's second step: give the least valuable card.
        gives = [a for a, t in zip(actions, types, strict=True) if t == A_GIVE]
        if gives:
            return min(gives, key=lambda a: KEEP[KIND_TYPE[AKIND_T[a]]])
        reveals = [a for a, t in zip(actions, types, strict=True) if t == A_REVEAL]
        best = max(reveals, key=lambda a: KEEP[KIND_TYPE[AKIND_T[a]]])
        takes = [a for a, t in zip(actions, types, strict=True) if t == A_TAKE]
        if takes:
            worst = min(KEEP[KIND_TYPE[C.KIND_INDEX[code.upper()]]] for code in view["hand"])
            if KEEP[KIND_TYPE[AKIND_T[best]]] > worst:
                return max(takes, key=lambda a: KEEP[KIND_TYPE[AKIND_T[a]]])
        return best


__all__ = ["HeuristicBot"]
