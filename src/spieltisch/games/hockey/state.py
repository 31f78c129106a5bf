"""Hockey: the rules (spec ``shared/rules/hockey.md``; restated in ``rules.md``).

Two players; a period is one pass through the shuffled 52-card deck, dealt in
packets (5 cards each four times, then 6 each; in overtime 4 each five times,
then 6 each). Players alternately play one card onto a common pile. A Jack, or a
card of the same rank as the previous top card, makes a *breakaway*; matching the
opponent's card on the very next own turn while holding the breakaway scores a
*goal*. Three periods; if goals are tied, overtime periods until the first goal.

The turn structure is the phase table at the end of ``HockeyState``: in ``PLAY``
the seat to move plays a card, ``OVER`` waits for nobody.
"""

from __future__ import annotations

import random
from enum import Enum, IntEnum
from typing import TYPE_CHECKING, Final

from ...core.cards import Shuffler, shuffle
from ...core.fields import Copy, StateFields
from ...core.game import (
    Check,
    Event,
    Json,
    Result,
    State,
    illegal,
    ranks_from_scores,
    seat_arg,
)
from ...core.phases import PhaseTable, Rule, Who
from ...i18n import N_
from .cards import (
    ALL_CARDS_MASK,
    BIT,
    CODES,
    JACK,
    NUM_CARDS,
    OVERTIME_DEALS,
    RANK,
    REGULAR_DEALS,
    REGULAR_PERIODS,
    SYMBOLS,
    cards_in,
    codes_in,
)

if TYPE_CHECKING:
    from .game import HockeyGame

#: No breakaway holder (``HockeyState.breakaway``), no winner yet (``winner``).
NOBODY: Final = -1
#: The two commonest kinds of field (``HockeyState.FIELDS``), short.
V: Final = Copy.VALUE
L: Final = Copy.LIST


class Phase(IntEnum):
    """Where a game stands: play (§3) or over (§6)."""

    PLAY = 0  # the seat to move plays one card (§3)
    OVER = 1  # a winner (§6)

    @property
    def label(self) -> str:
        """The phase's name in views (``"play"``)."""
        return self.name.lower()


#: Aliases for the hot paths (a global is read faster than an Enum attribute).
PLAY: Final = Phase.PLAY
OVER: Final = Phase.OVER


class Move(Enum):
    """The kinds of action: Hockey has one, playing a card (§3)."""

    PLAY_CARD = "play"


def schedule_of(period: int) -> tuple[int, ...]:
    """Cards each per deal in ``period`` (§2): 5, 5, 5, 5, 6; in overtime 4 ×5, then 6."""
    return REGULAR_DEALS if period <= REGULAR_PERIODS else OVERTIME_DEALS


class HockeyState(State["HockeyGame"]):
    """One position of a Hockey game: its fields are ``FIELDS`` (seats are 0 and 1;
    ``NOBODY`` = -1)."""

    #: Every field: how a copy treats it (``clone``, ``determinise``), its type where the
    #: value does not say it, and its value before the deal (``empty``).
    FIELDS = StateFields(
        phase=(V, "", "PLAY"),
        period=(V, "", "0"),  # 1-based; 4 and later are overtime
        dealer=(V, "", "0"),
        deal=(V, "", "0"),  # 0-based index of the current deal in the period's schedule
        schedule=(V, "tuple[int, ...]", "REGULAR_DEALS"),  # cards each per deal this period
        # this period's shuffled order, top first; shared between copies, never mutated
        # (a new period gets a new list)
        deck=(V, "list[int]", "[]"),
        dealt=(V, "", "0"),  # how many of it have been dealt: the stock is deck[dealt:]
        hands=(L, "", "[0, 0]"),  # two bitmasks
        pile=(L, "list[int]", "[]"),  # this period's played cards, oldest first
        top=(V, "", "-1"),  # last card played or -1
        breakaway=(V, "", "NOBODY"),  # holder or NOBODY
        goals=(L, "", "[0, 0]"),
        period_goals=(Copy.NESTED, "list[list[int]]", "[]"),  # each period's goals
        to_move=(V, "", "0"),
        winner=(V, "", "NOBODY"),  # NOBODY until the game ends
    )

    # -- generated from FIELDS (python -m spieltisch.core.generated --write): do not edit --
    def _copy(self, shuffler: Shuffler) -> HockeyState:
        """A copy with ``shuffler`` as its chance (``FIELDS.copy_source``)."""
        s = HockeyState(self.game, shuffler)
        s.move_number = self.move_number
        s.opening = self.opening
        s.record_events = self.record_events
        s.phase = self.phase
        s.period = self.period
        s.dealer = self.dealer
        s.deal = self.deal
        s.schedule = self.schedule
        s.deck = self.deck
        s.dealt = self.dealt
        s.hands = self.hands[:]
        s.pile = self.pile[:]
        s.top = self.top
        s.breakaway = self.breakaway
        s.goals = self.goals[:]
        s.period_goals = [y.copy() for y in self.period_goals]
        s.to_move = self.to_move
        s.winner = self.winner
        return s

    def _empty_fields(self) -> None:
        """Every field at its value before the deal (``FIELDS.empty_source``)."""
        self.phase = PLAY
        self.period = 0
        self.dealer = 0
        self.deal = 0
        self.schedule: tuple[int, ...] = REGULAR_DEALS
        self.deck: list[int] = []
        self.dealt = 0
        self.hands = [0, 0]
        self.pile: list[int] = []
        self.top = -1
        self.breakaway = NOBODY
        self.goals = [0, 0]
        self.period_goals: list[list[int]] = []
        self.to_move = 0
        self.winner = NOBODY
    # -- end generated --

    # -- setting up ---------------------------------------------------------------
    @classmethod
    def deal_new(cls, game: HockeyGame, shuffler: Shuffler) -> HockeyState:
        """§2: the first dealer is random (or the option's); then period 1 is dealt."""
        s = cls.empty(game, shuffler)
        s._start_period(1, shuffler.seat(game.first_dealer, 2))
        s.opening = (Event("period", None, {"period": 1, "dealer": s.dealer, "overtime": False}),
                     s._deal_event())
        return s

    def _start_period(self, period: int, dealer: int) -> None:
        """§2/§6: "the whole deck is shuffled and the central pile and breakaway state
        are emptied"; the non-dealer makes the first play of the period."""
        self.period = period
        self.dealer = dealer
        # the research variant (rules.md) deals its small deck once
        self.schedule = self.game.research_deals or schedule_of(period)
        self.deck = self.shuffler.shuffled(self.game.deck_cards)
        self.dealt = 0
        self.deal = 0
        self.pile = []
        self.top = -1
        self.breakaway = NOBODY
        self.to_move = 1 - dealer
        self.period_goals.append([0, 0])
        self._deal_packet()

    def _deal_packet(self) -> None:
        """§2: "cards are dealt one at a time, alternately, non-dealer first"."""
        each = self.schedule[self.deal]
        deck = self.deck
        first = self.dealt
        non_dealer = 0
        dealer = 0
        for k in range(first, first + 2 * each, 2):
            non_dealer |= BIT[deck[k]]
            dealer |= BIT[deck[k + 1]]
        self.hands[1 - self.dealer] = non_dealer
        self.hands[self.dealer] = dealer
        self.dealt = first + 2 * each

    # -- phase PLAY (§3, §4) -------------------------------------------------------------
    def _mover(self) -> list[int]:
        """§3: the seats alternate, the non-dealer first in each period."""
        return [self.to_move]

    def _cards_of(self, seat: int) -> list[int]:
        """§3: "any card in the mover's hand"; no passing, no drawing."""
        return cards_in(self.hands[seat]) if seat == self.to_move else []

    def _why_not(self, seat: int, action: int) -> Check:
        """§3: only the mover plays, and only a card of its hand."""
        if seat != self.to_move:
            return illegal(N_("it is {turn}'s turn, not {seat}'s"),
                           turn=seat_arg(self.to_move), seat=seat_arg(seat))
        return illegal(N_("{card} is not in your hand"), card=SYMBOLS[action])

    def _play(self, seat: int, card: int) -> list[Event]:
        """§4, applied to each play (``top``: the previous top card)::

            if rank(card) == J:                      breakaway = seat
            elif top exists and rank(card) == rank(top):
                if breakaway == seat:                goals[seat] += 1; breakaway = none  # GOAL
                else:                                breakaway = seat
            elif breakaway == seat:                  breakaway = none   # chance missed
        """
        hands = self.hands
        hands[seat] ^= BIT[card]
        rank = RANK[card]
        top = self.top
        goal = False
        if rank == JACK:
            self.breakaway = seat
            outcome = "breakaway (Jack)"
        elif top >= 0 and RANK[top] == rank:
            if self.breakaway == seat:
                goal = True
                self.goals[seat] += 1
                self.period_goals[-1][seat] += 1
                self.breakaway = NOBODY
                outcome = "goal"
            else:
                self.breakaway = seat
                outcome = "breakaway"
        elif self.breakaway == seat:
            self.breakaway = NOBODY
            outcome = "breakaway lost"
        else:
            outcome = "none"
        self.pile.append(card)
        self.top = card
        self.to_move = 1 - seat
        event = Event("play", seat, {"card": CODES[card], "outcome": outcome})
        if goal and self.period > REGULAR_PERIODS:
            # §6: "Overtime: the first goal ends the game immediately; the scorer wins."
            self._end(seat)
            return [event, Event("game_over", seat, {"goals": list(self.goals),
                                                     "winner": seat})]
        if hands[0] or hands[1]:
            return [event]
        return [event, *self._hands_empty()]

    def _hands_empty(self) -> list[Event]:
        """§2: "A new deal happens only when both hands are empty"; after the last
        deal the period ends (§6)."""
        if self.deal + 1 < len(self.schedule):
            self.deal += 1
            self._deal_packet()
            return [self._deal_event()]
        events = [Event("period_over", None, {"period": self.period,
                                              "goals": list(self.goals)})]
        g0, g1 = self.goals
        if self.game.research_deals:  # rules.md, "Research variant": one period, ties draw
            self._end(NOBODY if g0 == g1 else 0 if g0 > g1 else 1)
            winner = None if g0 == g1 else self.winner
            events.append(Event("game_over", winner, {"goals": list(self.goals),
                                                      "winner": winner}))
            return events
        if self.period >= REGULAR_PERIODS and g0 != g1:
            # §6: after period 3 (or an overtime period, which cannot end with unequal
            # goals without having ended at the goal) the player with more goals wins.
            self._end(0 if g0 > g1 else 1)
            events.append(Event("game_over", self.winner, {"goals": list(self.goals),
                                                           "winner": self.winner}))
            return events
        # §6: the dealer alternates; tied after period 3 (or a goalless overtime) ->
        # another (overtime) period.
        self._start_period(self.period + 1, 1 - self.dealer)
        events.append(Event("period", None, {"period": self.period, "dealer": self.dealer,
                                             "overtime": self.period > REGULAR_PERIODS}))
        events.append(self._deal_event())
        return events

    def _end(self, winner: int) -> None:
        """§6: the game is over; ``winner`` has more goals."""
        self.winner = winner
        self.phase = OVER

    def _deal_event(self) -> Event:
        """The deal as each seat sees it: its own cards only (§2)."""
        each = self.schedule[self.deal]
        return Event("deal", self.dealer, {"deal": self.deal + 1, "cards_each": each,
                                           "stock": len(self.deck) - self.dealt},
                     {s: {"hand": codes_in(self.hands[s])}
                      for s in (0, 1)})

    # -- end --------------------------------------------------------------------------------
    def is_over(self) -> bool:
        """§6: a winner has been found."""
        return self.phase is OVER

    def result(self) -> Result:
        """§6: more goals wins (the game never ends tied)."""
        return Result(scores=(float(self.goals[0]), float(self.goals[1])),
                      ranks=ranks_from_scores(self.goals),
                      winner=self.winner if self.winner != NOBODY else None)  # research draw

    def _position(self) -> dict[str, Json]:
        """The ``"state"`` object of this state's position (``position.py``)."""
        from .position import write  # (it imports this module)

        return write(self)

    # -- information ------------------------------------------------------------------------
    def _public(self) -> dict[str, Json]:
        """What both seats and spectators see: the pile, goals, breakaway and counts."""
        return {
            "period": self.period,
            "overtime": self.period > REGULAR_PERIODS,
            "dealer": self.dealer,
            "deal": self.deal + 1,
            "deals_in_period": len(self.schedule),
            "pile": [CODES[c] for c in self.pile],
            "top": CODES[self.top] if self.top >= 0 else None,
            "breakaway": self.breakaway if self.breakaway >= 0 else None,
            "goals": list(self.goals),
            "stock": len(self.deck) - self.dealt,
            "hand_counts": [self.hands[0].bit_count(), self.hands[1].bit_count()],
        }

    def _view(self, seat: int | None) -> dict[str, Json]:
        """Own hand, the pile, breakaway holder, goals, counts of the stock and the
        opponent's hand; never the opponent's cards or the stock order."""
        v = self._public()
        if seat is not None:
            v["hand"] = codes_in(self.hands[seat])
        return v

    def _full_view(self) -> dict[str, Json]:
        """Both hands, the stock's order and each period's goals too."""
        v = self._public()
        v["hands"] = [codes_in(h) for h in self.hands]
        v["stock_order"] = [CODES[c] for c in self.deck[self.dealt:]]
        v["period_goals"] = [list(g) for g in self.period_goals]
        return v

    def determinise(self, seat: int, rng: random.Random) -> HockeyState:
        """Resample the opponent's hand and the stock order from the cards ``seat``
        has not seen this period; later periods get fresh chance.

        A function of ``seat``'s view and ``rng`` (docs/engine.md, "Determinise"): the
        unseen cards are shuffled from id order, never from where they really are."""
        s = self._copy(self.shuffler.reseeded(rng))
        opponent = 1 - seat
        unseen = cards_in(self.hands[opponent]) + self.deck[self.dealt:]
        unseen.sort()  # what is unseen, not where
        shuffle(rng, unseen)
        held = self.hands[opponent].bit_count()
        hand = 0
        for c in unseen[:held]:
            hand |= BIT[c]
        s.hands[opponent] = hand
        # The dealt part of the deck is history no rule reads again: it holds the pile
        # and both hands (in id order, as a position does), nothing of the real deal.
        s.deck = self.pile + cards_in(s.hands[0] | s.hands[1]) + unseen[held:]
        return s

    def round_number(self) -> int:
        """The period (§2)."""
        return self.period

    def standing(self) -> list[float]:
        """Goals so far (§6)."""
        return [float(g) for g in self.goals]

    def stats(self) -> dict[str, Json]:
        """Periods played, goals, and the seat figures: goals by each period's dealer and
        non-dealer, and whether period 1's dealer won (1/0)."""
        first = self.first_dealer()
        dealer_goals = sum(g[first if i % 2 == 0 else 1 - first]
                           for i, g in enumerate(self.period_goals))
        total = sum(self.goals)
        return {"periods": self.period, "overtime": int(self.period > REGULAR_PERIODS),
                "goals": total, "dealer_goals": dealer_goals,
                "non_dealer_goals": total - dealer_goals, "first_dealer": first,
                "first_dealer_won": int(self.winner == first) if self.winner >= 0 else None}

    def first_dealer(self) -> int:
        """Period 1's dealer (the dealer alternates every period, §6)."""
        return self.dealer if self.period % 2 == 1 else 1 - self.dealer

    def components(self) -> dict[str, int]:
        """The 52 cards, each once: in the hands, the pile or the stock (§1)."""
        in_hands = self.hands[0].bit_count() + self.hands[1].bit_count()
        everywhere = self.hands[0] | self.hands[1]
        for c in self.pile:
            everywhere |= BIT[c]
        for c in self.deck[self.dealt:]:
            everywhere |= BIT[c]
        return {"cards": in_hands + len(self.pile) + NUM_CARDS - self.dealt,
                "distinct_cards": (everywhere & ALL_CARDS_MASK).bit_count()}


# The phase table, set on the class once it exists (a compiled class's body cannot name
# its own methods).
HockeyState.PHASES = PhaseTable(Phase, {
    Phase.PLAY: Rule(
        Who.TURN, actions=(Move.PLAY_CARD,), seats=HockeyState._mover,
        legal=HockeyState._cards_of, apply=HockeyState._play,
        why=HockeyState._why_not, opens="§2: a game is dealt",
        closes="§6: the deciding goal, or the last card of period 3 or later with "
               "unequal goals"),
    Phase.OVER: Rule(Who.NOBODY, opens="§6: a winner", closes="never"),
})


__all__ = ["NOBODY", "OVER", "PLAY", "HockeyState", "Move", "Phase", "schedule_of"]
