"""Hood Politix's own RL observation (``core.observation``): the seat's view as float slots.

It carries exactly what ``HoodPolitixState.view(seat)`` shows, written straight from the
state (no view dict, no generic encoding). Seats are absolute (0..n-1), as in the view;
the observing seat itself is in the RL header (``header.seat=…``), not here.

Cards are shown by *kind* (72, ``G7`` … ``YSN``), as the view lists them: a card set
(hand, buried cards, known or revealed cards of a seat, the Snitch look) has one slot
per kind holding the *count* of that kind in the set (0, 1 or 2: numbers, Deuce, Busted,
Payback and 5-0 come in two copies).

Layout (n seats; "numeric" slots are scaled numbers):

=====================================  =================================================
``round``                              numeric: round / min_rounds
``dealer=s``                           one-hot seat
``phase=turn`` … ``phase=over``        one-hot (7 phases)
``pause=politix|respekt``              one-hot, none without a pause
``pause.seat=s``                       the seat the pause waits for
``to_act=s``                           the seat the game waits for (none when over)
``due=s``                              the seat due (none when over)
``score.seat{s}``                      numeric: points / (n * min_rounds)
``hand_size.seat{s}``                  numeric: cards held / hand_size (1 = a fresh hand)
``politix_left.seat{s}``               numeric: Politix calls left / politix_calls
``status.seat{s}=in|finished|pending`` one-hot per seat
``finish.seat{s}=p``                   the seat's place p (1..n) in the finish order
``direction=counter-clockwise``        1 when play runs counter-clockwise
``top=K``                              one-hot kind of the discard pile's top card
``colour=c``                           one-hot active colour (G, O, P, Y)
``draw_pile``, ``discard_pile``        numeric: pile sizes / 128 cards
``buried=K``                           counts: the buried bottom cards of the draw pile
``stack.amount``                       numeric: pending draw / 36 (all Deuces and In Yo
                                       Faces); 0 outside the STACK phase
``stack.in_yo_face``                   1 when an In Yo Face is on the stack
``pending_finish=s``                   the seat whose last card was a Deuce / In Yo Face
``slap_by=s``                          the slapper (SLAP phase)
``deal.by=s``                          the Deal player (DEAL phase)
``snitch.by=s``, ``snitch.target=s``   the Snitch player and target (SNITCH phase)
``mic_check_due=s``                    the seat that may still announce Mic Check
``open_fault.seat{s}=F``               open faults: mic-check, mic-drop, timeout
``timer_expired``                      1 once the move timer has expired
``revealed.seat{s}=K``                 counts: the seat's cards revealed to all
``mic_drop_window.finisher=s``         the One-on-One Mic Drop window (its phase):
``mic_drop_window.remaining=s``        the finisher and the seat left in the round
``hand=K``                             counts: the observer's hand
``known.seat{s}=K``                    counts: the cards of seat s the observer knows
                                       (never its own seat: that is the hand)
``snitch_look=K``                      counts: the target's hand, for the Snitch player
``snitch_take=K``                      one-hot: the kind the Snitch player takes
=====================================  =================================================

The view's ``stack.target`` and ``deal.target`` are the due seat (``due=s``), and
``seat`` is the header's; ``game`` and ``min_rounds`` are the configuration.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from typing import cast

from ...core.observation import Observer
from . import cards as C
from .cards import KIND_CODES, KIND_OF_T, NUM_CARDS, NUM_KINDS, PAIR_FIRST
from .game import HoodPolitixGame
from .state import HoodPolitixState
from .terms import (
    DEAL_R,
    MICDROP_WAIT,
    OVER,
    PHASE_NAMES,
    SLAP_R,
    SNITCH_R,
    STACK,
    STATUS_NAMES,
    Pause,
)

_FAULTS = C.FAULT_CODES  # by fault id (cards.F_MIC_CHECK …)
#: _BIT1[c]: the card ``c - 1``'s bit (``c`` is a ``bit_length``).
_BIT1 = (0, *(1 << c for c in range(NUM_CARDS)))
#: The largest pending draw: 8 Deuces (+2) and 4 In Yo Faces (+5).
_MAX_STACK = 8 * 2 + 4 * 5


class HoodPolitixObserver(Observer):
    """The slots of one configured Hood Politix game (layout in the module docstring)."""

    def __init__(self, game: HoodPolitixGame) -> None:
        """The layout for ``game``'s player count and options (module docstring)."""
        super().__init__(game)
        n = game.num_players
        self.n = n
        seats = range(n)
        kinds = KIND_CODES
        # Scales: natural maxima, so that values stay about in [0, 1].
        self.inv_round = 1.0 / game.min_rounds
        self.inv_score = 1.0 / (n * game.min_rounds)
        self.inv_hand = 1.0 / game.hand_size
        self.inv_pile = 1.0 / NUM_CARDS
        self.inv_stack = 1.0 / _MAX_STACK
        self.inv_politix = 1.0 / max(1, game.politix_calls)

        self.round = self.slot("round", numeric=True)
        self.dealer = self.slots("dealer", seats)
        self.phase = self.slots("phase", PHASE_NAMES)
        # one slot per kind of pause (``Pause`` members but NONE), found by ``pause_slot``
        pauses = [p for p in Pause if p is not Pause.NONE]
        self.pause = self.slots("pause", [p.label for p in pauses])
        self.pause_slot: dict[Pause, int] = {p: self.pause + i for i, p in enumerate(pauses)}
        self.pause_seat = self.slots("pause.seat", seats)
        self.to_act = self.slots("to_act", seats)
        self.due = self.slots("due", seats)
        self.score = self.first((f"score.seat{s}" for s in seats), numeric=True)
        self.hand_size = self.first((f"hand_size.seat{s}" for s in seats), numeric=True)
        self.politix_left = self.first((f"politix_left.seat{s}" for s in seats), numeric=True)
        # status.seat{s}=… at status + 3 * s + code
        self.status = self.first(f"status.seat{s}={x}" for s in seats for x in STATUS_NAMES)
        # finish.seat{s}={p} at finish + n * s + p - 1
        self.finish = self.first(f"finish.seat{s}={p}" for s in seats
                                 for p in range(1, n + 1))
        self.ccw = self.slot("direction=counter-clockwise")
        self.top = self.slots("top", kinds)
        self.colour = self.slots("colour", C.COLOURS)
        self.draw_pile = self.slot("draw_pile", numeric=True)
        self.discard_pile = self.slot("discard_pile", numeric=True)
        self.buried = self.slots("buried", kinds)
        self.stack_amount = self.slot("stack.amount", numeric=True)
        self.stack_iyf = self.slot("stack.in_yo_face")
        self.pending = self.slots("pending_finish", seats)
        self.slap_by = self.slots("slap_by", seats)
        self.deal_by = self.slots("deal.by", seats)
        self.snitch_by = self.slots("snitch.by", seats)
        self.snitch_target = self.slots("snitch.target", seats)
        self.mic_duty = self.slots("mic_check_due", seats)
        # open_fault.seat{s}={fault} at open_fault + 3 * s + fault
        self.open_fault = self.first(f"open_fault.seat{s}={f}" for s in seats for f in _FAULTS)
        self.expired = self.slot("timer_expired")
        # revealed.seat{s}={kind} at revealed + 72 * s + kind
        self.revealed = self.first(f"revealed.seat{s}={k}" for s in seats for k in kinds)
        self.drop_finisher = self.slots("mic_drop_window.finisher", seats)
        self.drop_remaining = self.slots("mic_drop_window.remaining", seats)
        self.hand = self.slots("hand", kinds)
        self.known = self.first(f"known.seat{s}={k}" for s in seats for k in kinds)
        self.snitch_look = self.slots("snitch_look", kinds)
        self.snitch_take = self.slots("snitch_take", kinds)

        # Precomputed for ``write``: scaled values come from tuples (no float is made
        # per call for them).
        self.scaled_hand = tuple(k * self.inv_hand for k in range(NUM_CARDS + 1))
        self.scaled_left = tuple(k * self.inv_politix for k in range(game.politix_calls + 1))
        self.scaled_pile = tuple(k * self.inv_pile for k in range(NUM_CARDS + 1))
        # Card sets iterate their masks from the highest bit: ``c = m.bit_length()`` is
        # 1 + the card's id and ``m ^= _BIT1[c]`` drops it; ``<set>_slot[c]`` is the
        # slot of that card's kind.
        def kind_slots(first: int) -> tuple[int, ...]:
            """Per ``bit_length`` of a card, the slot of its kind from ``first``."""
            return (-1, *(first + KIND_OF_T[c] for c in range(NUM_CARDS)))
        self.hand_slot = kind_slots(self.hand)
        self.known_slot = tuple(kind_slots(self.known + NUM_KINDS * s) for s in seats)
        self.revealed_slot = tuple(kind_slots(self.revealed + NUM_KINDS * s) for s in seats)
        self.look_slot = kind_slots(self.snitch_look)

    def first(self, labels: Iterable[str], numeric: bool = False) -> int:
        """Consecutive slots with these labels; returns the first one's index."""
        start = self.size
        for label in labels:
            self.slot(label, numeric)
        return start

    def write(self, state: HoodPolitixState, seat: int,  # type: ignore[override]
              D: array[float]) -> None:
        """Fill the zeroed ``D`` with what ``seat`` sees of ``state`` (its view, §3)."""
        # its items are set faster than the array's (an "f" array: items are floats)
        V = cast("memoryview[float]", memoryview(D))
        n = self.n
        phase = state.phase
        hands = state.hands

        V[self.round] = state.round * self.inv_round
        V[self.dealer + state.dealer] = 1.0
        V[self.phase + phase] = 1.0
        over = phase == OVER
        if state.pause:
            V[self.pause_slot[state.pause]] = 1.0
            V[self.pause_seat + state.pause_seat] = 1.0
            V[self.to_act + state.pause_seat] = 1.0
        elif not over:
            V[self.to_act + state.due] = 1.0
        if not over:
            V[self.due + state.due] = 1.0

        # Per seat: score, hand size, Politix calls left, status (V is zero on entry:
        # zeros need no write).
        i = self.score
        inv_score = self.inv_score
        for x in state.scores:
            if x:
                V[i] = x * inv_score
            i += 1
        i = self.hand_size
        scaled_hand = self.scaled_hand
        for h in hands:
            V[i] = scaled_hand[h.bit_count()]
            i += 1
        i = self.politix_left
        scaled_left = self.scaled_left
        for x in state.politix_left:
            if x:
                V[i] = scaled_left[x]
            i += 1
        i = self.status
        for x in state.status:
            V[i + x] = 1.0
            i += 3
        finish = self.finish
        for p, s in enumerate(state.finish_order):
            V[finish + n * s + p] = 1.0

        if state.direction != 1:
            V[self.ccw] = 1.0
        V[self.top + state.top] = 1.0
        V[self.colour + state.colour] = 1.0
        draw = state.draw
        V[self.draw_pile] = self.scaled_pile[len(draw)]
        V[self.discard_pile] = self.scaled_pile[len(state.discard)]
        b = self.buried
        for i in range(state.buried):  # the bottom cards, all seen at the deal
            V[b + KIND_OF_T[draw[i]]] += 1.0

        if phase == STACK:
            V[self.stack_amount] = state.stack * self.inv_stack
            if state.stack_iyf:
                V[self.stack_iyf] = 1.0
        elif phase == SLAP_R:
            V[self.slap_by + state.by] = 1.0
        elif phase == DEAL_R:
            V[self.deal_by + state.by] = 1.0
        elif phase == SNITCH_R:
            V[self.snitch_by + state.by] = 1.0
            V[self.snitch_target + state.target] = 1.0
        elif phase == MICDROP_WAIT:
            V[self.drop_finisher + state.drop_seat] = 1.0
            V[self.drop_remaining + state.wait_seat] = 1.0
        if state.pending >= 0:
            V[self.pending + state.pending] = 1.0
        if state.mic_duty >= 0:
            V[self.mic_duty + state.mic_duty] = 1.0

        # Open faults (``views.open_faults``).
        fault = self.open_fault
        m = state.mic_open
        while m:
            low = m & -m
            V[fault + 3 * (low.bit_length() - 1) + C.F_MIC_CHECK] = 1.0
            m ^= low
        if state.drop_seat >= 0:
            V[fault + 3 * state.drop_seat + C.F_MIC_DROP] = 1.0
        if state.expired:
            V[self.expired] = 1.0
            if not state.pause and phase != MICDROP_WAIT and not over:
                V[fault + 3 * state.due + C.F_TIMEOUT] = 1.0

        # Card sets, one count per kind.
        _count_kinds(V, hands[seat], self.hand_slot)
        known = state.seen[seat]
        if known:
            for s, t in enumerate(self.known_slot):
                if s != seat and (m := hands[s] & known):
                    _count_kinds(V, m, t)
        public = state.public
        if public:
            for s, t in enumerate(self.revealed_slot):
                if m := hands[s] & public:
                    _count_kinds(V, m, t)
        if phase == SNITCH_R and seat == state.by:
            _count_kinds(V, hands[state.target], self.look_slot)
            if state.snitch_take >= 0:
                V[self.snitch_take + state.snitch_take] = 1.0


def _count_kinds(D: memoryview[float], m: int, slot: tuple[int, ...]) -> None:
    """Set ``D[slot[…]]`` to the count of each kind in the card mask ``m``.

    Every card sets its kind's slot to 1; then the kinds held twice get 2. The two
    copies of a kind have adjacent ids (an even one first, ``cards.PAIR_FIRST``), so
    ``m & m >> 1 & PAIR_FIRST`` has the lower copy of each kind held twice. (Setting
    is cheaper than adding 1 per card.)"""
    two = m & m >> 1 & PAIR_FIRST
    while m:
        c = m.bit_length()
        D[slot[c]] = 1.0
        m ^= _BIT1[c]
    while two:
        c = two.bit_length()
        D[slot[c]] = 2.0
        two ^= _BIT1[c]


__all__ = ["HoodPolitixObserver"]
