"""Hood Politix: the rules (spec: ``rules.md`` beside this file, sections quoted as §).

A *round* is one deal, played until one player still holds cards; points are
places (1st = 1 … last = N); after at least ``min_rounds`` rounds the unique
lowest total wins.

The state machine has one seat the game waits for (``due``) in a *phase* (``Phase``:
TURN, STACK, SLAP, DEAL, SNITCH, and MIC_DROP_WINDOW at the end of a round), an optional
*pause* (Politix or Respekt) and the out-of-turn windows: throw-ins, Mic Check, Politix
calls and accusations, which cost no decisions: nobody passes. What each phase allows is
one table, ``HoodPolitixState.PHASES`` (below), and the core dispatches on it: who acts
and what is legal is in ``legal.py``, applying a move in ``moves.py`` (card effects,
§4; out-of-turn actions apply in any phase), judging an attempt that is not legal in
``judging.py`` (FAULTY ones, §3, cost the offender 2 cards, with the card going back;
ILLEGAL ones are refused). This module keeps the fields, the deal, the cards' moves
between hand and piles, the round's end and time. What seats see is in ``views.py``,
sampling for search in ``sampling.py``, the action text forms and options in
``game.py``, the rule's words (phases, statuses, fault kinds) in ``terms.py``.

Time (§5.3, §5.5, §5.6) is a set of deadlines the state declares; the clock
applies ``expire …`` actions. A timeout claim is valid only once the move timer
has expired. During a pause the move timer is frozen (``frozen_timers``) and comes
back unchanged when the pause ends; the runner resumes it with the time it had left.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Final

from ...core.cards import Shuffler
from ...core.fields import Copy, StateFields
from ...core.game import CLOCK, Deadline, Event, Result, State, ranks_from_scores
from ...core.phases import PhaseTable, Rule, Who
from . import judging, legal, moves, sampling, views
from .cards import (
    A_ACCEPT,
    A_ACCUSE,
    A_DRAW,
    A_END_POLITIX,
    A_GIVE,
    A_MIC,
    A_PASS,
    A_PLAY,
    A_POLITIX,
    A_RELEASE,
    A_REVEAL,
    A_TAKE,
    A_THROW,
    CARD_BIT,
    CARD_KIND_CODES,
    CARD_TYPE,
    EXPIRE_ID,
    KIND_CODES,
    KIND_COLOUR,
    KIND_FIRST,
    KIND_OF_T,
    NUM_CARDS,
    T_MOVE,
    T_POLITIX,
    T_RESPEKT,
    codes,
)
from .terms import (
    FINISHED,
    IN,
    MICDROP_WAIT,
    NO_PAUSE,
    OVER,
    P_POLITIX,
    P_RESPEKT,
    PENALTY,
    PENDING,
    SNITCH_R,
    TURN,
    Pause,
    Phase,
    Status,
    Tally,
)

if TYPE_CHECKING:
    from .game import HoodPolitixGame

V: Final = Copy.VALUE
L: Final = Copy.LIST
#: What a seat may do in every phase but the Mic Drop window (§5): announce, call Politix,
#: accuse, and during a pause end it or release.
_ANY_PHASE: Final = (A_MIC, A_POLITIX, A_ACCUSE, A_END_POLITIX, A_RELEASE)


class HoodPolitixState(State["HoodPolitixGame"]):
    """One position of Hood Politix: the rules and the phase machine (§2–§6)."""

    #: Every field, declared once: how a copy treats it, its type where the value does
    #: not say it, and its value before the deal (``empty``).
    FIELDS = StateFields(
        n=(V, "", "n"), scores=(L, "", "[0] * n"), round=(V, "", "0"), dealer=(V, "", "0"),
        hands=(L, "", "[0] * n"), status=(L, "", "[IN] * n"),
        # Seat sets as masks (bit s for seat s; ``out_of_turn`` reads them in every search
        # step): seats still in the round (IN or PENDING, not FINISHED), and seats with a
        # Politix call left. ``_set_status`` keeps the first in step with ``status``.
        in_round=(V, "", "(1 << n) - 1"), callers=(V, "", "0"),
        direction=(V, "", "1"),
        draw=(L, "list[int]", "[]"),  # top card last
        buried=(V, "", "0"),  # bottom cards of the draw pile everyone saw (§2.4)
        # Top cards of the draw pile in no particular order: only a determinisation
        # leaves them so (see ``determinise``); each draw then takes a random one of them.
        unordered=(V, "", "0"),
        discard=(L, "list[int]", "[]"),  # top card last
        top=(V, "", "0"),  # top kind
        colour=(V, "", "0"),  # active colour
        phase=(V, "", "TURN"), due=(V, "", "0"),
        stack=(V, "", "0"),  # pending draw amount (STACK)
        stack_iyf=(V, "", "False"),
        pending=(V, "", "-1"),  # seat whose last card was a Deuce/IYF (§4)
        by=(V, "", "-1"),  # slapper, Deal player or Snitch player
        target=(V, "", "-1"),  # Deal / Snitch target
        # The kind the Snitch player chose to take (``take``), until they ``give``; -1 none.
        # Private: only their view shows it (the pair is one move for everyone else).
        snitch_take=(V, "", "-1"),
        finish_order=(L, "list[int]", "[]"),
        pause=(V, "", "NO_PAUSE"), pause_seat=(V, "", "-1"), pause_since=(V, "", "0"),
        timer_since=(V, "", "0"), expired=(V, "", "False"),
        mic_duty=(V, "", "-1"),  # may still announce Mic Check (§5.4)
        mic_open=(V, "", "0"),  # seats with an open MISSED_MIC_CHECK
        drop_seat=(V, "", "-1"),  # open MISSED_MIC_DROP
        penalised=(V, "", "0"),  # (seat * 3 + fault) bits penalised since the last move
        saved=(V, "", "(TURN, 0)"),  # phase and due seat behind MICDROP_WAIT
        wait_seat=(V, "", "-1"),
        politix_left=(L, "", "[0] * n"),
        # Cards each seat knows in others' hands, and cards everyone knows in a hand
        # (revealed). A card played or thrown in stays in them until the discard pile is
        # reshuffled (``_reshuffle``): one clear per reshuffle, not one per card. They are
        # read masked by the hands (``knowledge``): a discarded card is never known.
        seen=(L, "", "[0] * n"), public=(V, "", "0"),
        counts=(L, "", "[0, 0, 0, 0, 0]"),  # faults, throw-ins, accusations, politix, respekt
    )

    # -- generated from FIELDS (python -m spieltisch.core.generated --write): do not edit --
    def _copy(self, shuffler: Shuffler) -> HoodPolitixState:
        """A copy with ``shuffler`` as its chance (``FIELDS.copy_source``)."""
        s = HoodPolitixState(self.game, shuffler)
        s.move_number = self.move_number
        s.opening = self.opening
        s.record_events = self.record_events
        s.n = self.n
        s.scores = self.scores[:]
        s.round = self.round
        s.dealer = self.dealer
        s.hands = self.hands[:]
        s.status = self.status[:]
        s.in_round = self.in_round
        s.callers = self.callers
        s.direction = self.direction
        s.draw = self.draw[:]
        s.buried = self.buried
        s.unordered = self.unordered
        s.discard = self.discard[:]
        s.top = self.top
        s.colour = self.colour
        s.phase = self.phase
        s.due = self.due
        s.stack = self.stack
        s.stack_iyf = self.stack_iyf
        s.pending = self.pending
        s.by = self.by
        s.target = self.target
        s.snitch_take = self.snitch_take
        s.finish_order = self.finish_order[:]
        s.pause = self.pause
        s.pause_seat = self.pause_seat
        s.pause_since = self.pause_since
        s.timer_since = self.timer_since
        s.expired = self.expired
        s.mic_duty = self.mic_duty
        s.mic_open = self.mic_open
        s.drop_seat = self.drop_seat
        s.penalised = self.penalised
        s.saved = self.saved
        s.wait_seat = self.wait_seat
        s.politix_left = self.politix_left[:]
        s.seen = self.seen[:]
        s.public = self.public
        s.counts = self.counts[:]
        return s

    def _empty_fields(self) -> None:
        """Every field at its value before the deal (``FIELDS.empty_source``)."""
        n = self.game.num_players
        self.n = n
        self.scores = [0] * n
        self.round = 0
        self.dealer = 0
        self.hands = [0] * n
        self.status = [IN] * n
        self.in_round = (1 << n) - 1
        self.callers = 0
        self.direction = 1
        self.draw: list[int] = []
        self.buried = 0
        self.unordered = 0
        self.discard: list[int] = []
        self.top = 0
        self.colour = 0
        self.phase = TURN
        self.due = 0
        self.stack = 0
        self.stack_iyf = False
        self.pending = -1
        self.by = -1
        self.target = -1
        self.snitch_take = -1
        self.finish_order: list[int] = []
        self.pause = NO_PAUSE
        self.pause_seat = -1
        self.pause_since = 0
        self.timer_since = 0
        self.expired = False
        self.mic_duty = -1
        self.mic_open = 0
        self.drop_seat = -1
        self.penalised = 0
        self.saved = (TURN, 0)
        self.wait_seat = -1
        self.politix_left = [0] * n
        self.seen = [0] * n
        self.public = 0
        self.counts = [0, 0, 0, 0, 0]
    # -- end generated --

    # -- setup (§2) -------------------------------------------------------------------
    @classmethod
    def deal_first(cls, game: HoodPolitixGame, shuffler: Shuffler) -> HoodPolitixState:
        """Round 1 dealt: the first dealer is random unless an option names it (§2.1)."""
        s = cls.empty(game, shuffler)
        dealer = shuffler.seat(game.first_dealer, game.num_players)
        opening: list[Event] = []
        s._start_round(dealer, opening)
        s.opening = opening
        return s

    def _start_round(self, dealer: int, events: list[Event]) -> None:
        """§2: H cards per set, sets chosen clockwise from the dealer's left; the start
        card is turned, action cards are buried (at the bottom of the draw pile)."""
        n = self.n
        h = self.game.hand_size
        self.round += 1
        self.dealer = dealer
        deck = self.shuffler.shuffled(range(NUM_CARDS))
        hands = [0] * n
        for i in range(n):
            seat = (dealer + 1 + i) % n
            m = 0
            for c in deck[i * h:(i + 1) * h]:
                m |= 1 << c
            hands[seat] = m
        rest = deck[n * h:]
        idx = 0
        while CARD_TYPE[rest[idx]] >= 0:
            idx += 1
        start = rest[idx]
        buried = rest[:idx]
        self.draw = buried[::-1] + rest[idx + 1:][::-1]
        self.buried = len(buried)
        self.unordered = 0
        self.discard = [start]
        self.top = KIND_OF_T[start]
        self.colour = KIND_COLOUR[self.top]
        self.hands = hands
        self.status = [IN] * n
        self.in_round = (1 << n) - 1
        self.direction = 1
        self.phase = TURN
        self.due = (dealer + 1) % n
        self.stack = 0
        self.stack_iyf = False
        self.pending = -1
        self.by = self.target = self.snitch_take = -1
        self.finish_order = []
        self.pause = NO_PAUSE
        self.pause_seat = -1
        self.mic_duty = -1
        self.mic_open = 0
        self.drop_seat = -1
        self.penalised = 0
        self.wait_seat = -1
        self.politix_left = [self.game.politix_calls] * n
        self.callers = (1 << n) - 1 if self.game.politix_calls else 0
        self.seen = [0] * n
        self.public = 0
        self._restart_timer()
        events.append(Event("deal", None, {
            "round": self.round, "dealer": dealer, "start": KIND_CODES[self.top],
            "buried": codes(sum(1 << c for c in buried))},
            {s: {"hand": codes(hands[s])} for s in range(n)}))

    # -- helpers -------------------------------------------------------------------------
    def _next(self, seat: int) -> int:
        """§3 ``next(p)``: the next seat in the direction that is IN or PENDING_FINISH."""
        n, step, status = self.n, self.direction, self.status
        s = (seat + step) % n
        while status[s] == FINISHED and s != seat:
            s = (s + step) % n
        return s

    def _restart_timer(self) -> None:
        """§5.3: the move timer starts again (its ``since`` is this move)."""
        self.timer_since = self.move_number
        self.expired = False

    def _begin_move(self) -> None:
        """A play, draw or throw-in begins: a Mic Check not yet announced becomes an open
        fault (§5.4), the Mic Drop window closes (§7.11). Penalised faults stay on record
        (§9.4): a seat's record of a fault ends only when it can commit that fault anew."""
        if self.mic_duty >= 0:
            self.mic_open |= 1 << self.mic_duty
            self.mic_duty = -1
        self.drop_seat = -1

    def _draw(self, seat: int, count: int, events: list[Event], reason: str) -> int:
        """Draw ``count`` cards; an empty pile is refilled from the discards (top card stays);
        draws beyond all cards lapse (§3)."""
        draw = self.draw
        got = 0
        ids: list[int] = []  # the cards drawn (cheaper for the event than the mask's codes)
        unordered = self.unordered
        while got < count:
            if not draw:
                if len(self.discard) <= 1:
                    break
                draw = self._reshuffle(events)
            if unordered:
                # The top ``unordered`` cards were never shuffled: take a random one of
                # them, as the top of a shuffled pile would be (``random() * k`` is
                # uniform enough and cheaper than ``randrange``).
                j = len(draw) - 1 - int(self.shuffler.rng.random() * unordered)
                draw[j], draw[-1] = draw[-1], draw[j]
                unordered -= 1
                ids.append(draw.pop())
                got += 1
            else:  # the top cards, at once
                k = min(count - got, len(draw))
                ids += draw[-k:]
                del draw[-k:]
                got += k
        self.unordered = unordered
        if got:
            mask = 0
            for c in ids:
                mask |= CARD_BIT[c]
            self.hands[seat] |= mask
            if self.mic_open:
                self.mic_open &= ~(1 << seat)
            if self.mic_duty == seat:
                self.mic_duty = -1
            if len(draw) < self.buried:
                self.buried = len(draw)
            if self.phase is SNITCH_R and seat == self.target:
                # The Snitch player is looking at this hand (§9.10): they see these too.
                self.seen[self.by] |= mask
        if self.record_events:
            if got > 1:
                ids.sort()  # lowest id first, as ``codes`` lists a hand
            events.append(Event("draw", seat, {"count": got, "reason": reason},
                                {seat: {"cards": [CARD_KIND_CODES[c] for c in ids]}}))
        return got

    def _reshuffle(self, events: list[Event]) -> list[int]:
        """The discard pile but its top card, shuffled, is the new draw pile (§3): the
        cards played since the last reshuffle leave ``seen`` and ``public`` now."""
        top = self.discard.pop()
        order = self.shuffler.shuffled(self.discard)
        self.discard = [top]
        draw = self.draw = order[::-1]
        self.buried = 0
        events.append(Event("reshuffle", None, {"cards": len(order)}))
        self.seen, self.public = self.knowledge()
        return draw

    def knowledge(self) -> tuple[list[int], int]:
        """``seen`` and ``public`` as the rules mean them: without the cards played since
        the last reshuffle (they stay in the masks until then, see ``FIELDS``)."""
        held = 0
        for h in self.hands:
            held |= h
        return [m & held for m in self.seen], self.public & held

    def _take(self, seat: int, kind: int) -> int:
        """Remove one card of ``kind`` from the hand onto the discard pile (the lower id
        held: the copies of a kind are adjacent ids)."""
        hand = self.hands[seat]
        c = KIND_FIRST[kind]
        if not hand & CARD_BIT[c]:
            c += 1
        self.hands[seat] = hand ^ CARD_BIT[c]
        self.discard.append(c)
        if self.mic_open:
            self.mic_open &= ~(1 << seat)
        return c

    def _set_status(self, seat: int, status: Status) -> None:
        """A seat's status (§3), with the mask of seats still in the round kept in step."""
        self.status[seat] = status
        if status == FINISHED:
            self.in_round &= ~(1 << seat)
        else:
            self.in_round |= 1 << seat

    def _finish(self, seat: int, events: list[Event]) -> None:
        """§6: the seat is out and takes the next place."""
        self._set_status(seat, FINISHED)
        self.finish_order.append(seat)
        if self.record_events:
            events.append(Event("finish", seat, {"place": len(self.finish_order)}))

    def _round_over(self, events: list[Event]) -> None:
        """One seat is left in the round (the moves check ``in_round`` first): the round
        ends (§6), or the One-on-One Mic Drop window opens first (§9.7)."""
        if self.drop_seat >= 0 and self.status[self.drop_seat] == FINISHED:
            self.saved = (self.phase, self.due)
            self.phase = MICDROP_WAIT
            self.wait_seat = next(s for s in range(self.n) if self.status[s] != FINISHED)
            self.due = self.wait_seat
            return
        self._end_round(events)

    def _end_round(self, events: list[Event]) -> None:
        """Places as points; the loser deals next; ≥ min_rounds and a unique lowest total
        ends the game (§6)."""
        loser = next(s for s in range(self.n) if self.status[s] != FINISHED)
        order = self.finish_order + [loser]
        points = [0] * self.n
        for place, s in enumerate(order):
            points[s] = place + 1
            self.scores[s] += place + 1
        events.append(Event("round_end", None, {"round": self.round, "order": order,
                                                "points": points,
                                                "scores": list(self.scores)}))
        self.finish_order = order
        low = min(self.scores)
        if self.round >= self.game.min_rounds and self.scores.count(low) == 1:
            self.phase = OVER
            self.pause = NO_PAUSE
            events.append(Event("game_end", None, self.result().to_json()))
            return
        self._start_round(loser, events)

    # -- faults (§3; legal moves are applied in ``moves.py``) ----------------------------
    def _apply_fault(self, seat: int, action: int, reason: str) -> list[Event]:
        """§3: the card goes back and the offender draws 2; §5.2: a false accuser too. A
        finished Judas holds cards again, so it is back in the round (as after §5.4)."""
        verdict = judging.judge(self, seat, action)
        why = verdict.fault.value if isinstance(verdict, judging.FaultCheck) else None
        events = [Event("fault", seat, {"action": self.game.action_to_json(action),
                                        "reason": reason, "why": why})]
        self.counts[Tally.FAULTS] += 1
        got = self._draw(seat, PENALTY, events, "fault")
        if got and self.status[seat] == FINISHED:
            self._unfinish(seat, events)
        return events

    def _unfinish(self, seat: int, events: list[Event]) -> None:
        """A finished seat holds cards again: IN, its place given up; a One-on-One Mic Drop
        window that was waiting to end the round gives way to the game going on."""
        self.finish_order.remove(seat)
        self._set_status(seat, IN)
        events.append(Event("rejoin", seat))
        if self.phase is MICDROP_WAIT:
            self.phase, self.due = self.saved
            self.wait_seat = -1
            self._restart_timer()

    # -- time (§5.3, §5.5, §5.6) ---------------------------------------------------------
    def _timers(self) -> tuple[Deadline, ...]:
        """The pause's timer during a pause (§5.5, §5.6), else the move timer unless it
        expired (§5.3). A pause's length is ``fixed``: it runs at every pace, so an idle
        caller or Respekt player cannot stall the game (rules.md, idle players)."""
        g = self.game
        if self.pause == P_POLITIX:
            return (Deadline(CLOCK, EXPIRE_ID[T_POLITIX], g.politix_seconds, self.pause_since,
                             "the Politix pause ends", fixed=True),)
        if self.pause == P_RESPEKT:
            return (Deadline(CLOCK, EXPIRE_ID[T_RESPEKT], g.respekt_seconds, self.pause_since,
                             f"seat {self.pause_seat} draws 2 more unless released",
                             fixed=True),)
        return self._move_timer()

    def frozen_timers(self) -> tuple[Deadline, ...]:
        """§5.3: the move timer is frozen during a pause; it comes back in ``deadlines``
        with the same ``since`` when the pause ends, and runs on from where it stopped."""
        if not self.pause or self.phase is OVER:
            return ()
        return self._move_timer()

    def _move_timer(self) -> tuple[Deadline, ...]:
        """The 3-second rule's timer (§5.3), unless it expired or is switched off; in the
        One-on-One's Mic Drop window it is the window's deadline (§9.7), ``fixed`` like a
        pause's (rules.md, idle players)."""
        g = self.game
        if self.expired or g.move_seconds <= 0:
            return ()
        if self.phase is MICDROP_WAIT:
            return (Deadline(CLOCK, EXPIRE_ID[T_MOVE], g.move_seconds, self.timer_since,
                             "the Mic Drop window closes", fixed=True),)
        return (Deadline(CLOCK, EXPIRE_ID[T_MOVE], g.move_seconds, self.timer_since,
                         f"seat {self.due} is too slow"),)

    # -- end --------------------------------------------------------------------------
    def is_over(self) -> bool:
        """§6: after ``min_rounds``, once one seat has the lowest total."""
        return self.phase is OVER

    def result(self) -> Result:
        """Lowest total wins (§6); equal totals share a rank."""
        sc = self.scores
        ranks = ranks_from_scores(sc, higher_is_better=False)
        low = min(sc)
        winner = sc.index(low) if sc.count(low) == 1 else None
        return Result(tuple(float(x) for x in sc), ranks, winner)

    def round_number(self) -> int:
        """The round being played (§6), from 1."""
        return self.round

    def standing(self) -> list[float]:
        """Fewer points are better (places are points)."""
        return [-float(x) for x in self.scores]

    def estimate(self) -> list[float]:
        """``standing`` minus each seat's expected place this round (§6: points = place),
        centred on the mean place (a shift common to all seats changes no decision).

        Finished seats keep their place; the others are expected to finish in the order
        of the cards they hold, fewest first (every card must go, one per move, and
        penalties only add cards). Equal hand sizes share the places they span, so at
        the start of a round (equal hands) the estimate is the standing.
        """
        n = self.n
        out = [-float(x) for x in self.scores]
        if self.phase is OVER:
            return out
        mean = (n + 1) / 2
        done = self.finish_order
        for place, s in enumerate(done, 1):
            out[s] -= place - mean
        sizes = sorted((self.hands[s].bit_count(), s) for s in range(n)
                       if self.status[s] != FINISHED)
        place = len(done) + 1
        i = 0
        while i < len(sizes):  # a run of equal sizes shares its places
            j = i
            while j < len(sizes) and sizes[j][0] == sizes[i][0]:
                j += 1
            share = place + (i + j - 1) / 2 - mean  # mean of places place+i .. place+j-1
            for _, s in sizes[i:j]:
                out[s] -= share
            i = j
        return out

    def stats(self) -> dict[str, Any]:
        """Rounds played and the ``Tally`` counts, for simulation records."""
        counts = self.counts
        return {"rounds": self.round, **{t.label: counts[t] for t in Tally}}

    def components(self) -> dict[str, int]:
        """Every card somewhere, once (§1: 128 cards): the conformance suite's invariant."""
        held = 0
        total = len(self.draw) + len(self.discard)
        for h in self.hands:
            held |= h
            total += h.bit_count()
        for c in self.draw:
            held |= 1 << c
        for c in self.discard:
            held |= 1 << c
        return {"cards": total, "distinct": held.bit_count()}

    # -- views, sampling, positions (their own modules) ---------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (``views.seat_view``); the core adds the shared fields."""
        return views.seat_view(self, seat)

    def _full_view(self) -> dict[str, Any]:
        """Everything, for replays (``views.full_view``)."""
        return views.full_view(self)

    def determinise(self, seat: int, rng: random.Random) -> HoodPolitixState:
        """A state consistent with ``seat``'s view (``sampling.determinise``)."""
        return sampling.determinise(self, seat, rng)

    def _position(self) -> dict[str, Any]:
        """This state's ``"state"`` object of a position (``position.py``)."""
        from .position import write

        return write(self)


# ============================================================= the phase table (§3)
# Set on the class once it exists (a compiled class's body cannot name its own methods).
# The core dispatches on it (``State.to_act``, ``out_of_turn``, ``legal_actions``,
# ``apply``, ``_why_illegal``, ``deadlines``): who acts and what is legal in ``legal.py``,
# applying in ``moves.py``, judging wrong attempts in ``judging.py``.
HoodPolitixState.PHASES = PhaseTable(Phase, {
    Phase.TURN: Rule(
        Who.TURN | Who.WINDOW, (A_PLAY, A_DRAW, A_THROW, *_ANY_PHASE),
        seats=legal.seats, window=legal.window, legal=legal.turn, apply=moves.turn,
        why=judging.why_turn, deadline=HoodPolitixState._timers,
        opens="§2.5 the deal; after every completed move (§3)",
        closes="a Deuce / In Yo Face → stack, a Pimp Slap → slap, a Deal on the next "
               "seat → deal, a Snitch → snitch (§4); the last seat left → round end (§6)"),
    Phase.STACK: Rule(
        Who.TURN | Who.WINDOW, (A_PLAY, A_ACCEPT, *_ANY_PHASE),
        seats=legal.seats, window=legal.window, legal=legal.stack, apply=moves.answer,
        why=judging.why_answer, deadline=HoodPolitixState._timers,
        opens="§4 Deuce / In Yo Face: the next seat must answer the stack",
        closes="accept (draw it) or 5-0 → turn; Deuce, In Yo Face, Payback → stack on"),
    Phase.SLAP: Rule(
        Who.TURN | Who.WINDOW, (A_PLAY, A_ACCEPT, *_ANY_PHASE),
        seats=legal.seats, window=legal.window, legal=legal.slap, apply=moves.answer,
        why=judging.why_answer, deadline=HoodPolitixState._timers,
        opens="§4 Pimp Slap: the next seat answers",
        closes="accept, Payback or 5-0 → the draws, then turn"),
    Phase.DEAL: Rule(
        Who.TURN | Who.WINDOW, (A_PLAY, A_ACCEPT, *_ANY_PHASE),
        seats=legal.seats, window=legal.window, legal=legal.deal, apply=moves.answer,
        why=judging.why_answer, deadline=HoodPolitixState._timers,
        opens="§4 Deal on the next seat: it may block",
        closes="5-0 (no swap) or accept (swap, §9.2) → turn"),
    Phase.SNITCH: Rule(
        Who.TURN | Who.WINDOW, (A_REVEAL, A_TAKE, A_GIVE, *_ANY_PHASE),
        seats=legal.seats, window=legal.window, legal=legal.snitch, apply=moves.snitch,
        why=judging.why_snitch, deadline=HoodPolitixState._timers,
        opens="§4 Snitch on a seat holding cards: the Snitch player looks",
        closes="reveal, or take then give (§9.10) → turn"),
    Phase.MIC_DROP_WINDOW: Rule(
        Who.TURN | Who.WINDOW, (A_PASS, A_ACCUSE),
        seats=legal.seats, window=legal.window_mic_drop, legal=legal.mic_drop_window,
        apply=moves.mic_drop_window, why=judging.why_mic_drop,
        deadline=HoodPolitixState._move_timer,
        opens="§9.7 the One-on-One's finisher missed the Mic Drop",
        closes="accused → the game goes on; pass or the deadline → round end"),
    Phase.OVER: Rule(Who.NOBODY, why=judging.why_over,
                     opens="§6 after min_rounds, a unique lowest total", closes="never"),
})


__all__ = ["HoodPolitixState", "Phase", "Status", "Pause", "IN", "FINISHED", "PENDING"]
