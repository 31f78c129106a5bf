"""Hood Politix: the rules (spec: ``rules.md`` beside this file, sections quoted as §).

A *round* is one deal, played until one player still holds cards; points are
places (1st = 1 … last = N); after at least ``min_rounds`` rounds the unique
lowest total wins.

The state machine has one seat the game waits for (``due``) in a *phase* (``Phase``:
TURN, STACK, SLAP, DEAL, SNITCH, and MIC_DROP_WINDOW at the end of a round), an optional
*pause* (Politix or Respekt) and the out-of-turn windows: throw-ins, Mic Check, Politix
calls and accusations, which cost no decisions: nobody passes. What each phase allows is
one table, ``HoodPolitixState.PHASES`` (below): ``out_of_turn``, ``_legal_actions``,
``_apply`` (for the waited-for seat's move; out-of-turn actions apply in any phase),
the judge's reason for a wrong move and ``deadlines`` consult it.

Attempts that are not legal actions are judged in ``judging.py``: FAULTY ones (§3) cost
the offender 2 cards, with the card going back; ILLEGAL ones are refused. What seats see
is in ``views.py``, sampling for search in ``sampling.py``, the action text forms and
options in ``game.py``, the rule's words (phases, statuses, fault kinds) in ``terms.py``.

Time (§5.3, §5.5, §5.6) is a set of deadlines the state declares; the clock
applies ``expire …`` actions. A timeout claim is valid only once the move timer
has expired. During a pause the move timer is frozen (``frozen_timers``) and comes
back unchanged when the pause ends; the runner resumes it with the time it had left.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...core.cards import SEATS_OF, Shuffler
from ...core.fields import Copy, StateFields
from ...core.game import CLOCK, LEGAL, Check, Deadline, Event, Result, State, ranks_from_scores
from ...core.phases import PhaseTable, Rule, Who
from . import cards as C
from . import judging, sampling, views
from .cards import (
    A_ACCEPT,
    A_ACCUSE,
    A_DRAW,
    A_END_POLITIX,
    A_EXPIRE,
    A_GIVE,
    A_MIC,
    A_PASS,
    A_PLAY,
    A_POLITIX,
    A_RELEASE,
    A_REVEAL,
    A_TAKE,
    A_THROW,
    AARG_T,
    ACCEPT,
    ACCUSE_ID,
    AFLAG_T,
    AKIND_T,
    ATYPE_T,
    BUSTED,
    CARD_KIND_CODES,
    CARD_TYPE,
    DEAL,
    DEUCE,
    DRAW,
    END_POLITIX,
    EXPIRE_ID,
    F_MIC_CHECK,
    F_MIC_DROP,
    F_TIMEOUT,
    FIVEO,
    GIVE_ID,
    IYF,
    KIND_CODES,
    KIND_COLOUR,
    KIND_MASK,
    KIND_OF_T,
    KIND_TYPE,
    MATCH,
    MIC,
    NUM_CARDS,
    NUMBER_KINDS,
    PAIR_FIRST,
    PASS,
    PAYBACK,
    PLAY_ID,
    PLAYS_BY_CARD,
    POLITIX,
    RELEASE,
    REVEAL_ID,
    SINGLES,
    SLAP,
    T_MOVE,
    T_POLITIX,
    T_RESPEKT,
    TAKE_ID,
    TARGETED,
    THROW_ID,
    TYPE_MASK,
    codes,
    first_of_kind,
    kinds_of,
)
from .terms import (
    DEAL_R,
    FINISHED,
    IN,
    MICDROP_WAIT,
    NO_PAUSE,
    OVER,
    P_POLITIX,
    P_RESPEKT,
    PENALTY,
    PENDING,
    PHASE_NAMES,
    RESPEKT_AT,
    SLAP_DRAW,
    SLAP_R,
    SNITCH_R,
    STACK,
    TURN,
    Pause,
    Phase,
    Status,
    Tally,
)

if TYPE_CHECKING:
    from .game import HoodPolitixGame

FIVEO_MASK = TYPE_MASK[FIVEO]
DEUCE_MASK = TYPE_MASK[DEUCE]
IYF_MASK = TYPE_MASK[IYF]
PAYBACK_MASK = TYPE_MASK[PAYBACK]
#: What a ``mic`` flag says with 1, 2 or more cards in the hand before the card (§5.4):
#: with more than 2 it is a permitted bluff that changes nothing.
_MIC_SAID = ("", "drop", "check", "bluff")


V, L = Copy.VALUE, Copy.LIST
#: What a seat may do in every phase but the Mic Drop window (§5): announce, call Politix,
#: accuse, and during a pause end it or release.
_ANY_PHASE = (A_MIC, A_POLITIX, A_ACCUSE, A_END_POLITIX, A_RELEASE)


class HoodPolitixState(State["HoodPolitixGame"]):
    """One position of Hood Politix: the rules and the phase machine (§2–§6)."""

    #: Every field, declared once (``_copy`` is written from it); ``_empty_fields`` says
    #: what each holds.
    FIELDS = StateFields(
        n=V, scores=L, round=V, dealer=V, hands=L, status=L, in_round=V, callers=V,
        direction=V, draw=L, buried=V, unordered=V, discard=L, top=V, colour=V, phase=V,
        due=V, stack=V, stack_iyf=V, pending=V, by=V, target=V, snitch_take=V,
        finish_order=L, pause=V, pause_seat=V, pause_since=V, timer_since=V, expired=V,
        mic_duty=V, mic_open=V, drop_seat=V, penalised=V, saved=V, wait_seat=V,
        politix_left=L, seen=L, public=V, seen_any=V, counts=L)

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
        s.seen_any = self.seen_any
        s.counts = self.counts[:]
        return s

    def _empty_fields(self) -> None:
        """Every field of the game's own at its value before the deal (``empty``: a
        new table, which a deal or a position fills)."""
        n = self.game.num_players
        self.n = n
        self.scores = [0] * n
        self.round = 0
        self.dealer = 0
        self.hands = [0] * n
        self.status = [IN] * n
        # Seat sets as masks (bit s for seat s; ``out_of_turn`` reads them in every search
        # step): seats still in the round (IN or PENDING, not FINISHED), and seats with a
        # Politix call left. ``_set_status`` keeps the first in step with ``status``.
        self.in_round = (1 << n) - 1
        self.callers = 0
        self.direction = 1
        self.draw: list[int] = []  # top card last
        self.buried = 0            # bottom cards of the draw pile everyone saw (§2.4)
        # Top cards of the draw pile in no particular order: only a determinisation
        # leaves them so (see ``determinise``); each draw then takes a random one of them.
        self.unordered = 0
        self.discard: list[int] = []  # top card last
        self.top = 0               # top kind
        self.colour = 0            # active colour
        self.phase = TURN
        self.due = 0
        self.stack = 0             # pending draw amount (STACK)
        self.stack_iyf = False
        self.pending = -1          # seat whose last card was a Deuce/IYF (§4)
        self.by = -1               # slapper, Deal player or Snitch player
        self.target = -1           # Deal / Snitch target
        # The kind the Snitch player chose to take (``take``), until they ``give``; -1 none.
        # Private: only their view shows it (the pair is one move for everyone else).
        self.snitch_take = -1
        self.finish_order: list[int] = []
        self.pause = NO_PAUSE
        self.pause_seat = -1
        self.pause_since = 0
        self.timer_since = 0
        self.expired = False
        self.mic_duty = -1         # may still announce Mic Check (§5.4)
        self.mic_open = 0          # seats with an open MISSED_MIC_CHECK
        self.drop_seat = -1        # open MISSED_MIC_DROP
        self.penalised = 0         # (seat * 3 + fault) bits penalised since the last move
        self.saved = (TURN, 0)     # phase and due seat behind MICDROP_WAIT
        self.wait_seat = -1
        self.politix_left = [0] * n
        self.seen = [0] * n        # cards each seat knows in others' hands
        self.public = 0            # cards everyone knows in a hand (revealed)
        self.seen_any = 0
        self.counts = [0, 0, 0, 0, 0]  # faults, throw-ins, accusations, politix, respekt

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
        self.seen_any = 0
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
        mask = 0
        ids: list[int] = []  # for the event (cheaper than listing the mask's codes)
        unordered = self.unordered
        random = self.shuffler.rng.random
        while got < count:
            if not draw:
                if len(self.discard) <= 1:
                    break
                top = self.discard.pop()
                order = self.shuffler.shuffled(self.discard)
                self.discard = [top]
                draw = self.draw = order[::-1]
                self.buried = 0
                events.append(Event("reshuffle", None, {"cards": len(order)}))
            if unordered:
                # The top ``unordered`` cards were never shuffled: take a random one of
                # them, as the top of a shuffled pile would be (``random() * k`` is
                # uniform enough and cheaper than ``randrange``).
                j = len(draw) - 1 - int(random() * unordered)
                draw[j], draw[-1] = draw[-1], draw[j]
                unordered -= 1
            c = draw.pop()
            mask |= 1 << c
            ids.append(c)
            got += 1
        self.unordered = unordered
        if got:
            self.hands[seat] |= mask
            self.mic_open &= ~(1 << seat)
            if self.mic_duty == seat:
                self.mic_duty = -1
            if len(draw) < self.buried:
                self.buried = len(draw)
            if self.phase is SNITCH_R and seat == self.target:
                # The Snitch player is looking at this hand (§9.10): they see these too.
                self.seen[self.by] |= mask
                self.seen_any |= mask
        if self.record_events:
            if got > 1:
                ids.sort()  # lowest id first, as ``codes`` lists a hand
            events.append(Event("draw", seat, {"count": got, "reason": reason},
                                {seat: {"cards": [CARD_KIND_CODES[c] for c in ids]}}))
        return got

    def _take(self, seat: int, kind: int) -> int:
        """Remove one card of ``kind`` from the hand onto the discard pile."""
        m = self.hands[seat] & KIND_MASK[kind]
        b = m & -m
        self.hands[seat] ^= b
        c = b.bit_length() - 1
        self.discard.append(c)
        self.mic_open &= ~(1 << seat)
        if self.seen_any & b:
            keep = ~b
            self.seen = [x & keep for x in self.seen]
            self.public &= ~b
            self.seen_any &= ~b
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

    def _swap_hands(self, seat: int, other: int, events: list[Event]) -> None:
        """Deal (§4): whole hands change places; each now knows the other's hand. A Mic Check
        duty or fault goes with a hand size that changed (§5.4: not through a Deal)."""
        hands = self.hands
        if hands[seat].bit_count() != hands[other].bit_count():
            self.mic_open &= ~((1 << seat) | (1 << other))
            if self.mic_duty in (seat, other):
                self.mic_duty = -1
        hands[seat], hands[other] = hands[other], hands[seat]
        self.seen[seat] |= hands[other]
        self.seen[other] |= hands[seat]
        self.seen_any |= hands[seat] | hands[other]
        if self.record_events:
            events.append(Event("swap", seat, {"with": other},
                                {seat: {"hand": codes(hands[seat])},
                                 other: {"hand": codes(hands[other])}}))

    def _after_move(self, events: list[Event]) -> None:
        """Round end (§6), or the One-on-One Mic Drop window first (§9.7)."""
        if self.in_round.bit_count() > 1:
            return
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

    # -- who acts (§3; the phase table at the end of the class) ------------------------
    def to_act(self) -> tuple[int, ...]:
        """The seat the game waits for: the pause's seat during a pause (§5.5, §5.6), else
        the due seat; nobody once the game is over."""
        if self.phase is OVER:
            return ()
        if self.pause:
            return (self.pause_seat,)
        return (self.due,)

    def out_of_turn(self) -> tuple[int, ...]:
        """Seats with an optional action now (the phase's ``window``): throw-in, Mic Check,
        Politix (seats still in the round), accusation (any seat, also a finished one:
        §5.2); during a pause only accusations (§9.5)."""
        phase = self.phase
        if phase is OVER:
            return ()
        if self.pause:  # only accusations, by anyone but the seat the pause waits for
            return SEATS_OF[self._accusers(timeout=False) & ~(1 << self.pause_seat)]
        out: tuple[int, ...] = _WINDOW[phase](self)
        return out

    def _window(self) -> tuple[int, ...]:
        """Seats other than the due one that may act out of turn (§5): Politix callers, the
        Mic Check duty, in TURN the holders of the top number card (§5.1; in STACK, SLAP,
        DEAL and SNITCH the top card is an action card), and whoever has an open fault to
        accuse (§5.2)."""
        may = self.callers
        if self.mic_duty >= 0:
            may |= 1 << self.mic_duty
        top = self.top
        if top < NUMBER_KINDS and self.phase is TURN:  # who could throw in
            throw = KIND_MASK[top]
            for s, hand in enumerate(self.hands):
                if hand & throw:
                    may |= 1 << s
        may &= self.in_round
        if self.mic_open or self.drop_seat >= 0 or self.expired:
            may |= self._accusers(timeout=self.expired)
        return SEATS_OF[may & ~(1 << self.due)]

    def _nobody(self) -> tuple[int, ...]:
        """OVER: nobody may act."""
        return ()

    def _window_mic_drop(self) -> tuple[int, ...]:
        """MIC_DROP_WINDOW (§9.7): the seat left is due; finished seats may accuse."""
        return SEATS_OF[self._accusers(timeout=False) & ~(1 << self.due)]

    def _accusers(self, timeout: bool) -> int:
        """The seats that have someone to accuse (§5.2), as a mask: anyone but the offender
        of an open missed Mic Check or Mic Drop, and with ``timeout`` (an expired move
        timer, no pause) anyone but the slow due seat. ``_accusations`` lists the actions."""
        everyone = (1 << self.n) - 1
        m = 0
        mic = self.mic_open
        if mic:  # nobody accuses themself: one offender is left out, two or more are not
            m = everyone if mic & (mic - 1) else everyone & ~mic
        if self.drop_seat >= 0:
            m |= everyone & ~(1 << self.drop_seat)
        if timeout:
            m |= everyone & ~(1 << self.due)
        return m

    def _accusations(self, seat: int, out: list[int]) -> None:
        """Add ``seat``'s valid accusations (§5.2): open missed Mic Checks, a missed Mic
        Drop, and a timeout once the move timer has run out (§5.3)."""
        m = self.mic_open & ~(1 << seat)
        while m:
            low = m & -m
            out.append(ACCUSE_ID[low.bit_length() - 1][F_MIC_CHECK])
            m ^= low
        d = self.drop_seat
        if d >= 0 and d != seat:
            out.append(ACCUSE_ID[d][F_MIC_DROP])
        if self.expired and self.due != seat and not self.pause and self.phase is not MICDROP_WAIT:
            out.append(ACCUSE_ID[self.due][F_TIMEOUT])

    def _legal_actions(self, seat: int) -> list[int]:
        """The legal actions of ``seat``: a finished seat only accuses (and resolves a last
        Snitch, §4); during a pause only the pause's seat ends it, and anyone accuses
        (§9.5); otherwise the phase's rule (``legal``) lists them, followed in the phases
        of play by the out-of-turn actions of §5."""
        phase = self.phase
        if phase is OVER:
            return []
        out: list[int] = []
        if self.status[seat] == FINISHED:
            if phase is SNITCH_R and seat == self.due and not self.pause:
                # A Snitch played as the last card is still resolved (§4: reveal only).
                out = [REVEAL_ID[k] for k in kinds_of(self.hands[self.target])]
            if self.mic_open or self.drop_seat >= 0 or self.expired:
                self._accusations(seat, out)  # a finished player may accuse (§5.2)
            return out
        if self.pause:
            if seat == self.pause_seat:
                out.append(END_POLITIX if self.pause == P_POLITIX else RELEASE)
            self._accusations(seat, out)
            return out
        out = _LEGAL[phase](self, seat)
        if _ANYTIME_IN[phase]:  # (inline: every legal-action list of a search passes here)
            # what a seat in the round may do out of turn (§5): announce its Mic Check
            # (§5.4), call Politix (§5.5), accuse (§5.2)
            if self.mic_duty == seat:
                out.append(MIC)
            if self.politix_left[seat]:
                out.append(POLITIX)
            if self.mic_open or self.drop_seat >= 0 or self.expired:
                self._accusations(seat, out)
        return out

    def _legal_turn(self, seat: int) -> list[int]:
        """TURN (§3): the due seat plays a matching card, or draws without one; anyone
        holding the top number card may throw it in (§5.1)."""
        out: list[int] = []
        hand = self.hands[seat]
        small = hand.bit_count() <= 2
        if seat == self.due:
            playable = hand & MATCH[self.top * 4 + self.colour]
            if playable:
                self._plays(seat, playable, small, out)
            if not out:
                out.append(DRAW)
        top = self.top
        if top < NUMBER_KINDS and hand & KIND_MASK[top]:
            out.append(THROW_ID[top][0])
            if small:
                out.append(THROW_ID[top][1])
        return out

    def _legal_stack(self, seat: int) -> list[int]:
        """STACK (§4, §9.3): Deuce (not on In Yo Face), In Yo Face, 5-0, a matching Payback,
        or accept."""
        out: list[int] = []
        if seat == self.due:
            hand = self.hands[seat]
            m = IYF_MASK | FIVEO_MASK | (PAYBACK_MASK & MATCH[self.top * 4 + self.colour])
            if not self.stack_iyf:
                m |= DEUCE_MASK
            self._plays(seat, hand & m, hand.bit_count() <= 2, out)
            out.append(ACCEPT)
        return out

    def _legal_slap(self, seat: int) -> list[int]:
        """SLAP (§4 Pimp Slap): a matching Payback, 5-0, or accept."""
        out: list[int] = []
        if seat == self.due:
            hand = self.hands[seat]
            self._plays(seat, hand & (FIVEO_MASK | (
                PAYBACK_MASK & MATCH[self.top * 4 + self.colour])), hand.bit_count() <= 2, out)
            out.append(ACCEPT)
        return out

    def _legal_deal(self, seat: int) -> list[int]:
        """DEAL (§4 Deal): the target next in turn blocks with 5-0, or accepts."""
        out: list[int] = []
        if seat == self.due:
            hand = self.hands[seat]
            self._plays(seat, hand & FIVEO_MASK, hand.bit_count() <= 2, out)
            out.append(ACCEPT)
        return out

    def _legal_snitch(self, seat: int) -> list[int]:
        """SNITCH (§4, §9.10): reveal one of the target's cards, or take one and then give
        one of your own."""
        out: list[int] = []
        if seat == self.due:
            hand = self.hands[seat]
            if self.snitch_take >= 0:  # the exchange half done: give a card
                for m in kinds_of(hand):
                    out.append(GIVE_ID[m])
            else:
                theirs = kinds_of(self.hands[self.target])
                for k in theirs:
                    out.append(REVEAL_ID[k])
                if hand:
                    for k in theirs:
                        out.append(TAKE_ID[k])
        return out

    def _legal_mic_drop(self, seat: int) -> list[int]:
        """MIC_DROP_WINDOW (§9.7): the seat left accuses the missed Mic Drop or lets it pass."""
        if seat != self.wait_seat:
            return []
        out = [PASS]
        self._accusations(seat, out)
        return out

    def _legal_nothing(self, seat: int) -> list[int]:
        """OVER: nobody acts."""
        return []

    def _plays(self, seat: int, playable: int, flag: bool, out: list[int]) -> None:
        """The play actions of the cards in ``playable`` (one per kind; Deal and Snitch
        once per target still IN; the Mic flag only with the last two cards)."""
        m = ((playable | (playable >> 1)) & PAIR_FIRST) | (playable & SINGLES)
        targeted = m & TARGETED
        if targeted:
            m ^= targeted
            st = self.status
            while targeted:
                low = targeted & -targeted
                targeted ^= low
                ids = PLAY_ID[KIND_OF_T[low.bit_length() - 1]]
                for t in range(self.n):
                    if t != seat and st[t] == IN:
                        out.append(ids[t + 1][0])
                        if flag:
                            out.append(ids[t + 1][1])
        table = PLAYS_BY_CARD[flag]
        while m:
            low = m & -m
            m ^= low
            out += table[low.bit_length() - 1]

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

    # -- applying -----------------------------------------------------------------------
    def _apply(self, seat: int, action: int) -> list[Event]:
        """Apply a legal action: an out-of-turn one (§5) by its type, a move of the seat the
        game waits for by the phase's rule (``apply``)."""
        anytime = _ANYTIME[ATYPE_T[action]]
        if anytime is not None:
            events: list[Event] = anytime(self, seat, action)
            return events
        out: list[Event] = _APPLY[self.phase](self, seat, action)
        return out

    def _apply_turn(self, seat: int, action: int) -> list[Event]:
        """TURN (§3): a card is played, or one is drawn, which ends the turn."""
        events: list[Event] = []
        if ATYPE_T[action] == A_PLAY:
            self._play(seat, AKIND_T[action], AARG_T[action], AFLAG_T[action], events)
        else:  # A_DRAW
            self._begin_move()
            self._draw(seat, 1, events, "turn")
            self.due = self._next(seat)
            self._restart_timer()
        return events

    def _apply_answer(self, seat: int, action: int) -> list[Event]:
        """STACK, SLAP, DEAL (§4): an answering card, or the penalty accepted."""
        events: list[Event] = []
        if ATYPE_T[action] == A_PLAY:
            self._play(seat, AKIND_T[action], AARG_T[action], AFLAG_T[action], events)
        else:  # A_ACCEPT
            self._accept(seat, events)
        return events

    def _apply_snitch(self, seat: int, action: int) -> list[Event]:
        """SNITCH (§4): reveal a card, or take one (no move yet) and then give one."""
        events: list[Event] = []
        typ = ATYPE_T[action]
        if typ == A_TAKE:
            # Half an exchange: no move yet (no event, timer running, phase unchanged).
            self.snitch_take = AKIND_T[action]
        elif typ == A_REVEAL:
            self._resolve_snitch(seat, AKIND_T[action], -1, events)
        else:  # A_GIVE
            self._resolve_snitch(seat, self.snitch_take, AKIND_T[action], events)
        return events

    def _apply_pass(self, seat: int, action: int) -> list[Event]:
        """MIC_DROP_WINDOW (§9.7): the missed Mic Drop passes; the round ends."""
        events = [Event("mic_drop_passed", seat)]
        self._end_round(events)
        return events

    def _apply_throw(self, seat: int, action: int) -> list[Event]:
        """§5.1: a throw-in (legal ones only: a wrong one is a fault)."""
        events: list[Event] = []
        self._throw(seat, AKIND_T[action], AFLAG_T[action], events)
        return events

    def _apply_accusation(self, seat: int, action: int) -> list[Event]:
        """§5.2: a valid accusation (invalid ones are faults)."""
        events: list[Event] = []
        self._accuse(seat, AARG_T[action], AKIND_T[action], events)
        return events

    def _apply_mic_check(self, seat: int, action: int) -> list[Event]:
        """§5.4: a Mic Check announced; with nothing to announce a bluff that changes
        nothing."""
        if self.mic_duty == seat:
            self.mic_duty = -1
            return [Event("mic_check", seat)] if self.record_events else []
        return [Event("mic_check", seat, {"bluff": True})]

    def _apply_politix(self, seat: int, action: int) -> list[Event]:
        """§5.5: a Politix call pauses the game (the move timer freezes, §5.3)."""
        self.politix_left[seat] -= 1
        if not self.politix_left[seat]:
            self.callers &= ~(1 << seat)
        self.pause = P_POLITIX
        self.pause_seat = seat
        self.pause_since = self.move_number
        self.counts[Tally.POLITIX] += 1
        return [Event("politix", seat)] if self.record_events else []

    def _apply_pause_end(self, seat: int, action: int) -> list[Event]:
        """§5.5, §5.6: the caller ends Politix, or the Respekt player releases."""
        self.pause = NO_PAUSE  # the frozen move timer resumes (§5.3)
        return [Event("pause_end", seat)] if self.record_events else []

    def _apply_expire(self, seat: int, action: int) -> list[Event]:
        """A timer ran out (the clock's action): see ``_expire``."""
        events: list[Event] = []
        self._expire(AARG_T[action], events)
        return events

    def _play(self, seat: int, kind: int, target: int, flag: int, events: list[Event]) -> None:
        """§4 card effects; ``seat`` is due, the play is legal in the current phase."""
        self._begin_move()
        phase = self.phase
        before = self.hands[seat].bit_count()
        self._take(seat, kind)
        self.top = kind
        self.colour = KIND_COLOUR[kind]
        typ = KIND_TYPE[kind]
        if self.record_events:
            ev: dict[str, Any] = {"card": KIND_CODES[kind]}
            if target >= 0:
                ev["target"] = target
            if flag:
                ev["mic"] = _MIC_SAID[min(before, 3)]
            events.append(Event("play", seat, ev))
        nxt = self._next
        # A pending finish is settled by the first answer to the stack (§4 last card).
        if phase is STACK and self.pending >= 0:
            p = self.pending
            self.pending = -1
            if typ == PAYBACK:
                self._set_status(p, IN)
                events.append(Event("rejoin", p))
            else:
                self._finish(p, events)
                if self.in_round.bit_count() <= 1:  # the One-on-One is decided by this answer
                    self._end_round(events)
                    return
        if before == 2:
            self.penalised &= ~(1 << (seat * 3 + F_MIC_CHECK))  # a new Mic Check moment
            if not flag:
                self.mic_duty = seat
        elif before == 1:
            self.penalised &= ~(1 << (seat * 3 + F_MIC_DROP))  # a new last card
            if not flag:
                self.drop_seat = seat
            if typ == DEUCE or typ == IYF:
                self._set_status(seat, PENDING)
                self.pending = seat
                events.append(Event("pending_finish", seat))
            else:
                self._finish(seat, events)
        if typ < 0:  # a number card
            self.phase = TURN
            self.due = nxt(seat)
        elif typ == DEUCE or typ == IYF:
            if phase is not STACK:
                self.stack = 0
                self.stack_iyf = False
            self.stack += 2 if typ == DEUCE else 5
            self.stack_iyf = self.stack_iyf or typ == IYF
            self.phase = STACK
            self.due = nxt(seat)
        elif typ == PAYBACK:
            self.direction = -self.direction
            if phase is SLAP_R:
                self._slap_draws((self.by, seat), events, slapper_too=True)
                slapper = self.by
                self.phase = TURN
                self.due = slapper if self.status[slapper] == IN else nxt(slapper)
            else:  # a plain reversal, or the stack goes on in the new direction
                self.due = nxt(seat)
        elif typ == FIVEO:
            if phase is SLAP_R:
                self._slap_draws((self.by, seat), events, slapper_too=False)
            elif phase is STACK:
                self.stack = 0
                self.stack_iyf = False
            elif phase is DEAL_R:
                events.append(Event("deal_blocked", seat, {"by": self.by}))
            self.phase = TURN
            self.due = nxt(seat)
        elif typ == BUSTED:
            skipped = nxt(seat)
            if self.record_events:
                events.append(Event("skipped", skipped))
            self.phase = TURN
            self.due = nxt(skipped)
        elif typ == SLAP:
            self.phase = SLAP_R
            self.by = seat
            self.due = nxt(seat)
        elif typ == DEAL:
            self.phase = TURN
            if before == 1:
                self.due = nxt(seat)
            elif target == nxt(seat):
                self.phase = DEAL_R
                self.by = seat
                self.due = target
            else:
                self._swap_hands(seat, target, events)
                self.due = nxt(seat)
        else:  # SNITCH
            self.phase = TURN
            if self.hands[target]:
                self.phase = SNITCH_R
                self.by = seat
                self.target = target
                self.due = seat
                look = self.hands[target]
                self.seen[seat] |= look
                self.seen_any |= look
                if self.record_events:
                    events.append(Event("snitch_look", seat, {"target": target},
                                        {seat: {"hand": codes(look)}}))
            else:
                self.due = nxt(seat)
        self._restart_timer()
        self._after_move(events)

    def _slap_draws(self, spared: tuple[int, int], events: list[Event],
                    slapper_too: bool) -> None:
        """§4 Pimp Slap: who draws 3; finished and pending players never draw (§9.8)."""
        slapper, answerer = spared
        n, st = self.n, self.status
        for i in range(1, n + 1):
            s = (slapper + i * self.direction) % n
            if st[s] != IN or s == answerer or (s == slapper and not slapper_too):
                continue
            self._draw(s, SLAP_DRAW, events, "pimp slap")

    def _accept(self, seat: int, events: list[Event]) -> None:
        """§4: the answering seat takes the stack (a Respekt pause from 5 cards, §5.6), the
        Pimp Slap's draws (§9.2: then its turn) or the Deal's swap (§9.2)."""
        self._begin_move()
        phase = self.phase
        if self.record_events:
            events.append(Event("accept", seat, {"phase": PHASE_NAMES[phase]}))
        self.phase = TURN
        if phase is STACK:
            if self.pending >= 0:
                p = self.pending
                self.pending = -1
                self._finish(p, events)
                if self.in_round.bit_count() <= 1:
                    self._end_round(events)
                    return
            amount = self.stack
            self.stack = 0
            self.stack_iyf = False
            got = self._draw(seat, amount, events, "stack")
            self.due = self._next(seat)
            if got >= RESPEKT_AT and self.in_round.bit_count() > 1:
                self.pause = P_RESPEKT
                self.pause_seat = seat
                self.pause_since = self.move_number
                self.counts[Tally.RESPEKT] += 1
                events.append(Event("respekt", seat))
        elif phase is SLAP_R:
            self._slap_draws((self.by, -1), events, slapper_too=False)
            self.due = seat
        else:  # DEAL_R: the hands change places, then the target takes a turn (§9.2)
            self._swap_hands(self.by, seat, events)
            self.due = seat
        self._restart_timer()
        self._after_move(events)

    def _throw(self, seat: int, kind: int, flag: int, events: list[Event]) -> None:
        """§5.1: an identical number card out of turn; the turn order stays."""
        self._begin_move()
        before = self.hands[seat].bit_count()
        self._take(seat, kind)
        self.counts[Tally.THROW_INS] += 1
        if self.record_events:
            ev: dict[str, Any] = {"card": KIND_CODES[kind]}
            if flag:
                ev["mic"] = _MIC_SAID[min(before, 3)]
            events.append(Event("throw_in", seat, ev))
        if before == 2:
            self.penalised &= ~(1 << (seat * 3 + F_MIC_CHECK))
            if not flag:
                self.mic_duty = seat
        elif before == 1:
            self.penalised &= ~(1 << (seat * 3 + F_MIC_DROP))
            if not flag:
                self.drop_seat = seat
            self._finish(seat, events)
            if self.due == seat:
                self.due = self._next(seat)
        self._restart_timer()
        self._after_move(events)

    def _resolve_snitch(self, seat: int, kind: int, mine: int, events: list[Event]) -> None:
        """§4 Snitch: reveal the target's ``kind`` to all (``mine`` -1), or swap it for
        the Snitch player's ``mine`` (the ``give`` after a ``take``)."""
        self._begin_move()
        self.snitch_take = -1
        t = self.target
        x = first_of_kind(self.hands[t], kind)
        bx = 1 << x
        if mine < 0:
            self.public |= bx
            self.seen_any |= bx
            events.append(Event("reveal", seat, {"target": t, "card": KIND_CODES[kind]}))
        else:
            y = first_of_kind(self.hands[seat], mine)
            by = 1 << y
            hands = self.hands
            hands[t] = hands[t] ^ bx | by
            hands[seat] = hands[seat] ^ by | bx
            both = hands[t] | hands[seat]
            # Third parties no longer know where the cards of these two hands are.
            self.seen[t] |= self.public & hands[seat] | bx
            self.seen[seat] |= hands[t] | self.public & hands[seat]
            for s in range(self.n):
                if s != t and s != seat:
                    self.seen[s] &= ~both
            self.public &= ~both
            self.seen_any |= hands[t] | bx
            seen = {"took": KIND_CODES[kind], "gave": KIND_CODES[mine]}
            events.append(Event("exchange", seat, {"target": t}, {seat: seen, t: seen}))
        self.phase = TURN
        self.due = self._next(seat)
        self._restart_timer()
        self._after_move(events)

    def _accuse(self, seat: int, accused: int, fault: int, events: list[Event]) -> None:
        """§5.2: a valid accusation (only those are legal) costs the accused 2 cards."""
        self.counts[Tally.ACCUSATIONS] += 1
        self.penalised |= 1 << (accused * 3 + fault)
        events.append(Event("accuse", seat, {"accused": accused,
                                             "fault": C.FAULT_CODES[fault], "valid": True}))
        if fault == F_MIC_DROP:
            # Back in the round with 2 cards, no place given (§5.4).
            self.drop_seat = -1
            if self.status[accused] == FINISHED:
                self._unfinish(accused, events)
            elif self.status[accused] == PENDING:  # a last Deuce or In Yo Face
                self.pending = -1
                self._set_status(accused, IN)
                events.append(Event("rejoin", accused))
        self._draw(accused, PENALTY, events, C.FAULT_CODES[fault])
        if fault == F_TIMEOUT:
            self._restart_timer()

    def _expire(self, timer: int, events: list[Event]) -> None:
        """A timer ran out: the move timer (a timeout may be claimed, §5.3; it closes the Mic
        Drop window, §9.7), Respekt (2 more cards, §5.6) or Politix (the pause ends, §5.5)."""
        events.append(Event("expire", CLOCK, {"timer": C.TIMER_CODES[timer]}))
        if timer == T_MOVE:
            if self.phase is MICDROP_WAIT:
                self._end_round(events)
            else:
                self.expired = True
                # A new timeout: an earlier penalised one of this seat is off the record.
                self.penalised &= ~(1 << (self.due * 3 + F_TIMEOUT))
        elif timer == T_RESPEKT:
            # §5.6: 2 more cards, no new Respekt; play resumes (the move timer too, §5.3).
            seat = self.pause_seat
            self.pause = NO_PAUSE
            self._draw(seat, PENALTY, events, "respekt")
        else:  # T_POLITIX: the frozen move timer resumes (§5.3)
            self.pause = NO_PAUSE

    def deadlines(self) -> tuple[Deadline, ...]:
        """The timers running now: the phase's rule (``deadline``)."""
        out: tuple[Deadline, ...] = _DEADLINE[self.phase](self)
        return out

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

    def _no_timers(self) -> tuple[Deadline, ...]:
        """OVER: no timer runs."""
        return ()

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

    # -- judging, views, sampling (their own modules) ----------------------------------
    def _judge(self, seat: int, action: int) -> Check:
        """The judge hook (``State.judge``): legal if listed, else ``judging.judge`` —
        faulty (§3, §5.1, §5.2) or refused (§9.4, §9.5)."""
        if action in self.legal_actions(seat):
            return LEGAL
        return judging.judge(self, seat, action)

    def _why_illegal(self, seat: int, action: int) -> Check:
        """Why an unlisted attempt is not legal (``judging.judge``)."""
        return self._judge(seat, action)

    def phase_name(self) -> str:
        """The phase's name in views (``mic_drop_window``)."""
        out: str = self.phase.label
        return out

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
# The phase table and what the entry points index, set on the class once it exists (a
# compiled class's body cannot name its own methods).
HoodPolitixState.PHASES = PhaseTable(Phase, {
    Phase.TURN: Rule(
        Who.TURN | Who.WINDOW, (A_PLAY, A_DRAW, A_THROW, *_ANY_PHASE),
        seats=HoodPolitixState.to_act, window=HoodPolitixState._window,
        legal=HoodPolitixState._legal_turn, apply=HoodPolitixState._apply_turn,
        why=judging.why_turn, deadline=HoodPolitixState._timers,
        opens="§2.5 the deal; after every completed move (§3)",
        closes="a Deuce / In Yo Face → stack, a Pimp Slap → slap, a Deal on the next "
               "seat → deal, a Snitch → snitch (§4); the last seat left → round end (§6)"),
    Phase.STACK: Rule(
        Who.TURN | Who.WINDOW, (A_PLAY, A_ACCEPT, *_ANY_PHASE),
        seats=HoodPolitixState.to_act, window=HoodPolitixState._window,
        legal=HoodPolitixState._legal_stack, apply=HoodPolitixState._apply_answer,
        why=judging.why_answer, deadline=HoodPolitixState._timers,
        opens="§4 Deuce / In Yo Face: the next seat must answer the stack",
        closes="accept (draw it) or 5-0 → turn; Deuce, In Yo Face, Payback → stack on"),
    Phase.SLAP: Rule(
        Who.TURN | Who.WINDOW, (A_PLAY, A_ACCEPT, *_ANY_PHASE),
        seats=HoodPolitixState.to_act, window=HoodPolitixState._window,
        legal=HoodPolitixState._legal_slap, apply=HoodPolitixState._apply_answer,
        why=judging.why_answer, deadline=HoodPolitixState._timers,
        opens="§4 Pimp Slap: the next seat answers",
        closes="accept, Payback or 5-0 → the draws, then turn"),
    Phase.DEAL: Rule(
        Who.TURN | Who.WINDOW, (A_PLAY, A_ACCEPT, *_ANY_PHASE),
        seats=HoodPolitixState.to_act, window=HoodPolitixState._window,
        legal=HoodPolitixState._legal_deal, apply=HoodPolitixState._apply_answer,
        why=judging.why_answer, deadline=HoodPolitixState._timers,
        opens="§4 Deal on the next seat: it may block",
        closes="5-0 (no swap) or accept (swap, §9.2) → turn"),
    Phase.SNITCH: Rule(
        Who.TURN | Who.WINDOW, (A_REVEAL, A_TAKE, A_GIVE, *_ANY_PHASE),
        seats=HoodPolitixState.to_act, window=HoodPolitixState._window,
        legal=HoodPolitixState._legal_snitch, apply=HoodPolitixState._apply_snitch,
        why=judging.why_snitch, deadline=HoodPolitixState._timers,
        opens="§4 Snitch on a seat holding cards: the Snitch player looks",
        closes="reveal, or take then give (§9.10) → turn"),
    Phase.MIC_DROP_WINDOW: Rule(
        Who.TURN | Who.WINDOW, (A_PASS, A_ACCUSE),
        seats=HoodPolitixState.to_act, window=HoodPolitixState._window_mic_drop,
        legal=HoodPolitixState._legal_mic_drop, apply=HoodPolitixState._apply_pass,
        deadline=HoodPolitixState._move_timer,
        opens="§9.7 the One-on-One's finisher missed the Mic Drop",
        closes="accused → the game goes on; pass or the deadline → round end"),
    Phase.OVER: Rule(Who.NOBODY,
                     opens="§6 after min_rounds, a unique lowest total", closes="never"),
})


# The entry points (``out_of_turn``, ``_legal_actions``, ``_apply``, ``deadlines``) index
# these, one handler per phase from the table above (module globals: read in every step
# of a search, they cost less than class attributes).
_WINDOW: tuple[Callable[[HoodPolitixState], tuple[int, ...]], ...] = \
    HoodPolitixState.PHASES.handlers("window", HoodPolitixState._nobody)
_LEGAL: tuple[Callable[[HoodPolitixState, int], list[int]], ...] = \
    HoodPolitixState.PHASES.handlers("legal", HoodPolitixState._legal_nothing)
_APPLY: tuple[Callable[[HoodPolitixState, int, int], list[Event]], ...] = \
    HoodPolitixState.PHASES.handlers("apply", None)
_DEADLINE: tuple[Callable[[HoodPolitixState], tuple[Deadline, ...]], ...] = \
    HoodPolitixState.PHASES.handlers("deadline", HoodPolitixState._no_timers)


#: Per phase: whether a seat in the round may also announce, call Politix and accuse
#: there (the phase's rule lists those actions, ``_ANY_PHASE``).
_ANYTIME_IN: tuple[bool, ...] = tuple(
    A_MIC in HoodPolitixState.PHASES[phase].actions for phase in Phase)


#: The out-of-turn actions (§5), applied whatever the phase, by action type; ``None``: a
#: move of the seat the game waits for, applied by the phase's rule.
_ANYTIME_BY_TYPE: dict[int, Callable[[HoodPolitixState, int, int], list[Event]]] = {
    A_THROW: HoodPolitixState._apply_throw, A_ACCUSE: HoodPolitixState._apply_accusation,
    A_MIC: HoodPolitixState._apply_mic_check, A_POLITIX: HoodPolitixState._apply_politix,
    A_END_POLITIX: HoodPolitixState._apply_pause_end,
    A_RELEASE: HoodPolitixState._apply_pause_end,
    A_EXPIRE: HoodPolitixState._apply_expire}
_ANYTIME: tuple[Callable[[HoodPolitixState, int, int], list[Event]] | None, ...] = tuple(
    _ANYTIME_BY_TYPE.get(typ) for typ in range(A_EXPIRE + 1))


__all__ = ["HoodPolitixState", "Phase", "Status", "Pause", "IN", "FINISHED", "PENDING"]
