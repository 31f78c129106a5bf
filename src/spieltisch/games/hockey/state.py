"""Hockey: the rules (spec ``shared/rules/hockey.md``; restated in ``rules.md``).

Two players; a period is one pass through the shuffled 52-card deck, dealt in
packets (5 cards each four times, then 6 each; in overtime 4 each five times,
then 6 each). Players alternately play one card onto a common pile. A Jack, or a
card of the same rank as the previous top card, makes a *breakaway*; matching the
opponent's card on the very next own turn while holding the breakaway scores a
*goal*. Three periods; if goals are tied, overtime periods until the first goal.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ...core.cards import Shuffler
from ...core.game import (
    LEGAL,
    Check,
    Event,
    Game,
    IllegalAction,
    Json,
    Result,
    State,
    Verdict,
)
from .cards import (
    ALL_CARDS_MASK,
    BIT,
    CODES,
    FULL_DECK,
    JACK,
    NUM_CARDS,
    OVERTIME_DEALS,
    RANK,
    REGULAR_DEALS,
    REGULAR_PERIODS,
    SYMBOLS,
    cards_in,
)

if TYPE_CHECKING:
    from ...core.observation import Observer
    from ...core.position import Fields

#: No breakaway holder (``HockeyState.breakaway``).
NOBODY = -1


def schedule_of(period: int) -> tuple[int, ...]:
    """Cards each per deal in ``period`` (§2): 5, 5, 5, 5, 6; in overtime 4 ×5, then 6."""
    return REGULAR_DEALS if period <= REGULAR_PERIODS else OVERTIME_DEALS


class HockeyGame(Game):
    """Hockey for exactly two players; actions are card ids (``"play 7H"``)."""

    card_codes = CODES

    def __init__(self, num_players: int, options: dict[str, Any]) -> None:
        super().__init__(num_players, options)
        #: Seat that deals period 1, or -1 for a random choice (§2).
        self.first_dealer: int = options["first_dealer"]

    def _new_state(self, rng: random.Random, stacked: list[list[int]]) -> HockeyState:
        return HockeyState.deal_new(self, Shuffler(rng, stacked))

    @property
    def num_actions(self) -> int:
        return NUM_CARDS

    def action_to_json(self, action: int) -> Json:
        return f"play {CODES[action]}"

    def action_from_json(self, obj: Json) -> int:
        if not isinstance(obj, str):
            raise IllegalAction(f"a Hockey action is text such as 'play 7H', not {obj!r}")
        words = obj.split()
        if len(words) == 2 and words[0].lower() == "play":
            words = words[1:]
        if len(words) != 1:
            raise IllegalAction(f"a Hockey action is 'play <card>' (e.g. 'play 7H'), not {obj!r}")
        code = words[0].upper()
        for sym, letter in (("♣", "C"), ("♦", "D"), ("♥", "H"), ("♠", "S")):
            code = code.replace(sym, letter)
        try:
            return self._card_index()[code]
        except KeyError:
            raise IllegalAction(f"unknown card {words[0]!r} (cards are written like 10H, JS, "
                                "AC)") from None

    def describe_action(self, action: int) -> str:
        return f"play {SYMBOLS[action]}"

    def _state_from_position(self, fields: Fields, shuffler: Shuffler) -> HockeyState:
        """A state from a position's ``"state"`` object (``position.py``)."""
        from .position import read  # (it imports this module)

        return read(self, fields, shuffler)

    def render_view(self, view: dict[str, Json]) -> str:
        from .render import render

        return render(view)

    def bots(self) -> dict[str, type[Any]]:
        from .bot import HeuristicBot

        return {"heuristic": HeuristicBot}

    def observer_class(self) -> type[Observer]:
        """Hockey's own RL observation (``observation.py``)."""
        from .observation import HockeyObserver

        return HockeyObserver


class HockeyState(State):
    """One position of a Hockey game.

    Fields (seats are 0 and 1; ``NOBODY`` = -1):

    * ``period`` (1-based; 4 and later are overtime), ``dealer``, ``deal`` (0-based
      index of the current deal in the period's schedule), ``schedule`` (cards each
      per deal for this period);
    * ``deck`` (this period's shuffled order, top first; shared between clones,
      never mutated) and ``dealt`` (how many of it have been dealt: the stock is
      ``deck[dealt:]``);
    * ``hands`` (two bitmasks), ``pile`` (this period's played cards, oldest
      first), ``top`` (last card played or -1), ``breakaway`` (holder or -1),
      ``goals``, ``to_move``, ``winner`` (-1 until the game ends).
    """

    game: HockeyGame

    def __init__(self, game: HockeyGame) -> None:
        self.game = game
        self.move_number = 0
        self.shuffler: Shuffler
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
        self.to_move = 0
        self.winner = -1
        self.period_goals: list[list[int]] = []

    # -- setting up ---------------------------------------------------------------
    @classmethod
    def deal_new(cls, game: HockeyGame, shuffler: Shuffler) -> HockeyState:
        """§2: the first dealer is random; then the first period is dealt."""
        s = cls(game)
        s.shuffler = shuffler
        s._start_period(1, shuffler.seat(game.first_dealer, 2))
        s.opening = (Event("period", None, {"period": 1, "dealer": s.dealer, "overtime": False}),
                     s._deal_event())
        return s

    def _start_period(self, period: int, dealer: int) -> None:
        """§2/§6: "the whole deck is shuffled and the central pile and breakaway state
        are emptied"; the non-dealer makes the first play of the period."""
        self.period = period
        self.dealer = dealer
        self.schedule = schedule_of(period)
        self.deck = self.shuffler.shuffled(FULL_DECK)
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
        n = self.schedule[self.deal]
        deck = self.deck
        i = self.dealt
        nd = 1 - self.dealer
        a = 0
        b = 0
        for j in range(i, i + 2 * n, 2):
            a |= BIT[deck[j]]
            b |= BIT[deck[j + 1]]
        hands = self.hands
        hands[nd] = a
        hands[self.dealer] = b
        self.dealt = i + 2 * n

    # -- who acts -------------------------------------------------------------------
    def to_act(self) -> list[int]:
        if self.winner >= 0:
            return []
        return [self.to_move]

    def _legal_actions(self, seat: int) -> list[int]:
        """§3: "any card in the mover's hand"; no passing, no drawing."""
        if seat != self.to_move or self.winner >= 0:
            return []
        return cards_in(self.hands[seat])

    def legal_actions(self, seat: int) -> list[int]:
        # Computing from the bitmask is as cheap as the base class's cache lookup.
        if seat != self.to_move or self.winner >= 0:
            return []
        return cards_in(self.hands[seat])

    def check(self, seat: int, action: int) -> Check:
        if seat == self.to_move and self.winner < 0 and self.hands[seat] >> action & 1:
            return LEGAL
        return Check(Verdict.ILLEGAL, self.why_illegal(seat, action))

    def apply(self, seat: int, action: int) -> list[Event]:
        # Fast path for the common, legal case; anything else takes the checked route.
        if seat == self.to_move and self.winner < 0 and 0 <= action < NUM_CARDS \
                and self.hands[seat] >> action & 1:
            self.move_number += 1
            return self._apply(seat, action)
        return super().apply(seat, action)

    def why_illegal(self, seat: int, action: int) -> str:
        if self.winner >= 0:
            return "the game is over"
        if seat != self.to_move:
            return f"it is seat {self.to_move}'s turn, not seat {seat}'s"
        return f"{SYMBOLS[action]} is not in your hand"

    # -- the rules ----------------------------------------------------------------------
    def _apply(self, seat: int, action: int) -> list[Event]:
        """§4, applied to each play (``p`` = seat, ``c`` = action, ``t`` = top)::

            if rank(c) == J:                  breakaway = p
            elif t exists and rank(c) == rank(t):
                if breakaway == p:            goals[p] += 1; breakaway = none   # GOAL
                else:                         breakaway = p
            elif breakaway == p:              breakaway = none   # chance missed
        """
        hands = self.hands
        hands[seat] ^= BIT[action]
        r = RANK[action]
        top = self.top
        goal = False
        if r == JACK:
            self.breakaway = seat
            outcome = "breakaway (Jack)"
        elif top >= 0 and RANK[top] == r:
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
        self.pile.append(action)
        self.top = action
        self.to_move = 1 - seat
        event = Event("play", seat, {"card": CODES[action], "outcome": outcome})
        if goal and self.period > REGULAR_PERIODS:
            # §6: "Overtime: the first goal ends the game immediately; the scorer wins."
            self.winner = seat
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
        if self.period >= REGULAR_PERIODS and g0 != g1:
            # After period 3 (or an overtime period, which cannot end with unequal goals
            # without having ended at the goal) the player with more goals wins.
            self.winner = 0 if g0 > g1 else 1
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

    def _deal_event(self) -> Event:
        n = self.schedule[self.deal]
        return Event("deal", self.dealer, {"deal": self.deal + 1, "cards_each": n,
                                           "stock": NUM_CARDS - self.dealt},
                     {s: {"hand": [CODES[c] for c in cards_in(self.hands[s])]}
                      for s in (0, 1)})

    # -- end --------------------------------------------------------------------------------
    def is_over(self) -> bool:
        return self.winner >= 0

    def result(self) -> Result:
        w = self.winner
        return Result(scores=(float(self.goals[0]), float(self.goals[1])),
                      ranks=(1, 2) if w == 0 else (2, 1), winner=w)

    def _position(self) -> dict[str, Json]:
        from .position import write  # (it imports this module)

        return write(self)

    # -- information ------------------------------------------------------------------------
    def _public(self) -> dict[str, Json]:
        return {
            "period": self.period,
            "overtime": self.period > REGULAR_PERIODS,
            "dealer": self.dealer,
            "deal": self.deal + 1,
            "deals_in_period": len(self.schedule),
            "to_move": self.to_move if self.winner < 0 else None,
            "pile": [CODES[c] for c in self.pile],
            "top": CODES[self.top] if self.top >= 0 else None,
            "breakaway": self.breakaway if self.breakaway >= 0 else None,
            "goals": list(self.goals),
            "stock": NUM_CARDS - self.dealt,
            "hand_counts": [self.hands[0].bit_count(), self.hands[1].bit_count()],
            "winner": self.winner if self.winner >= 0 else None,
        }

    def view(self, seat: int | None) -> dict[str, Json]:
        """Own hand, the pile, breakaway holder, goals, counts of the stock and the
        opponent's hand; never the opponent's cards or the stock order."""
        v = self._public()
        v["seat"] = seat
        if seat is not None:
            v["hand"] = [CODES[c] for c in cards_in(self.hands[seat])]
        return v

    def full_view(self) -> dict[str, Json]:
        v = self._public()
        v["hands"] = [[CODES[c] for c in cards_in(h)] for h in self.hands]
        v["stock_order"] = [CODES[c] for c in self.deck[self.dealt:]]
        v["period_goals"] = [list(g) for g in self.period_goals]
        return v

    def determinise(self, seat: int, rng: random.Random) -> HockeyState:
        """Resample the opponent's hand and the stock order from the cards ``seat``
        has not seen this period; later periods get fresh chance."""
        s = self.clone()
        s.shuffler = self.shuffler.reseeded(rng)
        opp = 1 - seat
        unseen = cards_in(self.hands[opp]) + self.deck[self.dealt:]
        rng.shuffle(unseen)
        k = self.hands[opp].bit_count()
        m = 0
        for c in unseen[:k]:
            m |= BIT[c]
        s.hands[opp] = m
        s.deck = self.deck[:self.dealt] + unseen[k:]
        return s

    def clone(self) -> HockeyState:
        s = HockeyState.__new__(HockeyState)
        s.game = self.game
        s.move_number = self.move_number
        s.shuffler = self.shuffler.copy()
        s.period = self.period
        s.dealer = self.dealer
        s.deal = self.deal
        s.schedule = self.schedule
        s.deck = self.deck  # never mutated: a new period gets a new list
        s.dealt = self.dealt
        s.hands = self.hands[:]
        s.pile = self.pile[:]
        s.top = self.top
        s.breakaway = self.breakaway
        s.goals = self.goals[:]
        s.to_move = self.to_move
        s.winner = self.winner
        s.period_goals = [g[:] for g in self.period_goals]
        return s

    def round_number(self) -> int:
        return self.period

    def standing(self) -> list[float]:
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
        """Period 1's dealer (the dealer alternates every period)."""
        return self.dealer if self.period % 2 == 1 else 1 - self.dealer

    def components(self) -> dict[str, int]:
        in_hands = self.hands[0].bit_count() + self.hands[1].bit_count()
        everywhere = self.hands[0] | self.hands[1]
        for c in self.pile:
            everywhere |= BIT[c]
        for c in self.deck[self.dealt:]:
            everywhere |= BIT[c]
        return {"cards": in_hands + len(self.pile) + NUM_CARDS - self.dealt,
                "distinct_cards": (everywhere & ALL_CARDS_MASK).bit_count()}
