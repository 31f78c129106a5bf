"""Mudslide's rules (``rules.md``): the state, its phase table and its views.

The turn structure is data: ``MudslideState.PHASES`` below says who acts in each phase
and which handler lists and applies the actions; the core dispatches on it (``to_act``,
``legal_actions``, ``apply``, ``judge``), so this class writes no dispatch of its own.
"""

from __future__ import annotations

import random
from enum import Enum, IntEnum
from typing import TYPE_CHECKING

from spieltisch.core.cards import Shuffler
from spieltisch.core.fields import Copy, StateFields
from spieltisch.core.game import (
    Check,
    Event,
    Json,
    Result,
    State,
    illegal,
    ranks_from_scores,
    seat_arg,
)
from spieltisch.core.phases import PhaseTable, Rule, Who
from spieltisch.i18n import N_

from .cards import CODES, HAND_SIZE, NUM_CARDS, SYMBOLS, matches

if TYPE_CHECKING:
    from .game import MudslideGame

#: The action space: give card ``c`` is ``c``, play card ``c`` is ``PLAY + c``.
PLAY = NUM_CARDS
DRAW = 2 * NUM_CARDS
PASS = DRAW + 1
NUM_ACTIONS = PASS + 1


class Phase(IntEnum):
    """The three phases of a game (§3–§5) and its end (§6)."""

    GIVE = 0  # every seat at once chooses a card to pass left (§3)
    SLIDE = 1  # in turn: play a matching card, draw or pass (§4)
    LAST_CALL = 2  # each other seat once: one more matching card, or pass (§5)
    OVER = 3


class Move(Enum):
    """The kinds of action, as the phase table lists them."""

    GIVE = "give"
    PLAY = "play"
    DRAW = "draw"
    PASS = "pass"


def kind_of(action: int) -> Move:
    """The kind of ``action`` by its range in the action space."""
    if action < PLAY:
        return Move.GIVE
    if action < DRAW:
        return Move.PLAY
    return Move.DRAW if action == DRAW else Move.PASS


class MudslideState(State["MudslideGame"]):
    """One position of a Mudslide game: its fields are ``FIELDS``."""

    #: Every field: how a copy treats it, its type where the value does not say it, and
    #: its value before the deal (``empty``).
    FIELDS = StateFields(
        phase=(Copy.VALUE, "", "Phase.GIVE"),
        # each seat's card ids, ascending
        hands=(Copy.NESTED, "list[list[int]]", "[[] for _ in range(n)]"),
        stock=(Copy.LIST, "list[int]", "[]"),  # top first
        pile=(Copy.LIST, "list[int]", "[]"),  # played cards, the top last
        giving=(Copy.LIST, "", "[-1] * n"),  # the card each seat chose in GIVE, -1 before
        passed=(Copy.LIST, "", "[-1] * n"),  # the card each seat passed left, -1 before
        first=(Copy.VALUE, "", "0"),  # who starts the slide
        to_move=(Copy.VALUE, "", "0"),
        passes=(Copy.VALUE, "", "0"),  # passes in a row in the slide
        # the seats still to answer the last call, in order
        callers=(Copy.LIST, "list[int]", "[]"),
    )

    # -- generated from FIELDS (python -m spieltisch.core.generated --write): do not edit --
    def _copy(self, shuffler: Shuffler) -> MudslideState:
        """A copy with ``shuffler`` as its chance (``FIELDS.copy_source``)."""
        s = MudslideState(self.game, shuffler)
        s.move_number = self.move_number
        s.opening = self.opening
        s.record_events = self.record_events
        s.phase = self.phase
        s.hands = [y.copy() for y in self.hands]
        s.stock = self.stock[:]
        s.pile = self.pile[:]
        s.giving = self.giving[:]
        s.passed = self.passed[:]
        s.first = self.first
        s.to_move = self.to_move
        s.passes = self.passes
        s.callers = self.callers[:]
        return s

    def _empty_fields(self) -> None:
        """Every field at its value before the deal (``FIELDS.empty_source``)."""
        n = self.game.num_players
        self.phase = Phase.GIVE
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.stock: list[int] = []
        self.pile: list[int] = []
        self.giving = [-1] * n
        self.passed = [-1] * n
        self.first = 0
        self.to_move = 0
        self.passes = 0
        self.callers: list[int] = []
    # -- end generated --

    @classmethod
    def deal_new(cls, game: MudslideGame, shuffler: Shuffler) -> MudslideState:
        """§2: five cards each, one card face up, the rest the stock."""
        s = cls.empty(game, shuffler)
        n = game.num_players
        deck = shuffler.shuffled(range(NUM_CARDS))
        s.hands = [sorted(deck[k * HAND_SIZE:(k + 1) * HAND_SIZE]) for k in range(n)]
        s.pile = [deck[n * HAND_SIZE]]
        s.stock = deck[n * HAND_SIZE + 1:]
        s.first = s.to_move = shuffler.seat(game.first_player, n)
        s.opening = (Event("deal", s.first, {"top": CODES[s.pile[0]]},
                           {k: {"hand": [CODES[c] for c in s.hands[k]]} for k in range(n)}),)
        return s

    def _left(self, seat: int) -> int:
        return (seat + 1) % self.game.num_players

    # -- GIVE (§3) ---------------------------------------------------------------------
    def _choosing(self) -> list[int]:
        """§3: every seat that has not chosen yet."""
        return [s for s, card in enumerate(self.giving) if card < 0]

    def _cards_to_give(self, seat: int) -> list[int]:
        return list(self.hands[seat]) if self.giving[seat] < 0 else []

    def _give(self, seat: int, card: int) -> list[Event]:
        """§3: the card goes face down; when all have chosen, each goes left."""
        self.hands[seat].remove(card)
        self.giving[seat] = card
        events = [Event("give", seat, {}, {seat: {"card": CODES[card]}})]
        if any(c < 0 for c in self.giving):
            return events
        n = self.game.num_players
        for s in range(n):
            self.hands[self._left(s)].append(self.giving[s])
        for hand in self.hands:
            hand.sort()
        self.passed, self.giving = self.giving, [-1] * n
        self.phase = Phase.SLIDE
        events.append(Event("passed", None, {},
                            {self._left(s): {"card": CODES[self.passed[s]]} for s in range(n)}))
        return events

    def _why_not_give(self, seat: int, action: int) -> Check:
        if self.giving[seat] >= 0:
            return illegal(N_("{seat} has chosen a card already"), seat=seat_arg(seat))
        return illegal(N_("choose a card of your hand to pass"))

    # -- SLIDE (§4) and LAST_CALL (§5) ---------------------------------------------------
    def _mover(self) -> list[int]:
        return [self.to_move]

    def _slide_actions(self, seat: int) -> list[int]:
        """§4: any matching card; draw while the stock lasts, else pass."""
        if seat != self.to_move:
            return []
        top = self.pile[-1]
        plays = [PLAY + c for c in self.hands[seat] if matches(c, top)]
        return plays + [DRAW if self.stock else PASS]

    def _slide(self, seat: int, action: int) -> list[Event]:
        if action == DRAW:
            card = self.stock.pop(0)
            self.hands[seat].append(card)
            self.hands[seat].sort()
            self.passes = 0
            self.to_move = self._left(seat)
            return [Event("draw", seat, {"stock": len(self.stock)},
                          {seat: {"card": CODES[card]}})]
        if action == PASS:
            self.passes += 1
            events = [Event("pass", seat)]
            if self.passes == self.game.num_players:  # §4: all passed in a row
                events.append(Event("blocked", None))
                return events + self._call_last(seat)
            self.to_move = self._left(seat)
            return events
        card = action - PLAY
        self.hands[seat].remove(card)
        self.pile.append(card)
        self.passes = 0
        events = [Event("play", seat, {"card": CODES[card]})]
        if not self.hands[seat]:  # §4: out
            events.append(Event("out", seat))
            return events + self._call_last(seat)
        self.to_move = self._left(seat)
        return events

    def _call_last(self, seat: int) -> list[Event]:
        """§5: every other seat, starting left of ``seat``."""
        n = self.game.num_players
        self.callers = [(seat + k) % n for k in range(1, n)]
        self.to_move = self.callers[0]
        self.phase = Phase.LAST_CALL
        return [Event("last_call", None, {"seats": list(self.callers)})]

    def _call_actions(self, seat: int) -> list[int]:
        """§5: one matching card while another stays in the hand, or pass."""
        if seat != self.to_move:
            return []
        hand = self.hands[seat]
        top = self.pile[-1]
        plays = [PLAY + c for c in hand if matches(c, top)] if len(hand) > 1 else []
        return plays + [PASS]

    def _answer(self, seat: int, action: int) -> list[Event]:
        if action == PASS:
            events = [Event("pass", seat)]
        else:
            card = action - PLAY
            self.hands[seat].remove(card)
            self.pile.append(card)
            events = [Event("play", seat, {"card": CODES[card]})]
        self.callers.pop(0)
        if self.callers:
            self.to_move = self.callers[0]
            return events
        self.phase = Phase.OVER
        result = self.result()
        return events + [Event("game_over", result.winner,
                               {"scores": list(result.scores), "winner": result.winner})]

    def _why_not_turn(self, seat: int, action: int) -> Check:
        if seat != self.to_move:
            return illegal(N_("it is {turn}'s turn, not {seat}'s"),
                           turn=seat_arg(self.to_move), seat=seat_arg(seat))
        if action == DRAW and not self.stock:
            return illegal(N_("the stock is empty"))
        if action == DRAW:
            return illegal(N_("there is no drawing now"))
        if action == PASS and self.phase is Phase.SLIDE:
            return illegal(N_("you may pass only when the stock is empty"))
        if PLAY <= action < DRAW:
            card = action - PLAY
            if card not in self.hands[seat]:
                return illegal(N_("{card} is not in your hand"), card=SYMBOLS[card])
            if not matches(card, self.pile[-1]):
                return illegal(N_("{card} matches neither the rank nor the suit of {top}"),
                               card=SYMBOLS[card], top=SYMBOLS[self.pile[-1]])
            return illegal(N_("keep one card: the last call may not empty a hand"))
        return illegal(N_("that is not a move now"))

    # -- end (§6) ---------------------------------------------------------------------------
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def result(self) -> Result:
        """§6: minus the cards left; equal scores share a place."""
        scores = tuple(-float(len(h)) for h in self.hands)
        ranks = ranks_from_scores(scores)
        best = [s for s, r in enumerate(ranks) if r == 1]
        return Result(scores, ranks, best[0] if len(best) == 1 else None)

    def standing(self) -> list[float]:
        """Minus the cards held now (§6)."""
        return [-float(len(h)) for h in self.hands]

    def stats(self) -> dict[str, Json]:
        """Cards played and whether someone went out."""
        return {"played": len(self.pile) - 1,
                "went_out": int(any(not h for h in self.hands))}

    def components(self) -> dict[str, int]:
        """The 32 cards, each once: hands, choices, stock and pile (§1)."""
        places = [*self.hands, self.stock, self.pile, [c for c in self.giving if c >= 0]]
        cards = [c for place in places for c in place]
        return {"cards": len(cards), "distinct_cards": len(set(cards))}

    # -- information ----------------------------------------------------------------------
    def _public(self) -> dict[str, Json]:
        return {"top": CODES[self.pile[-1]], "pile": [CODES[c] for c in self.pile],
                "stock": len(self.stock), "hand_counts": [len(h) for h in self.hands],
                "chosen": [c >= 0 for c in self.giving], "first": self.first,
                "callers": list(self.callers)}

    def _view(self, seat: int | None) -> dict[str, Json]:
        """Own hand and own choices; never another hand, choice or the stock's order."""
        v = self._public()
        if seat is not None:
            v["hand"] = [CODES[c] for c in self.hands[seat]]
            v["giving"] = CODES[self.giving[seat]] if self.giving[seat] >= 0 else None
            v["passed"] = CODES[self.passed[seat]] if self.passed[seat] >= 0 else None
        return v

    def _full_view(self) -> dict[str, Json]:
        v = self._public()
        v["hands"] = [[CODES[c] for c in h] for h in self.hands]
        v["stock_order"] = [CODES[c] for c in self.stock]
        v["giving_all"] = [CODES[c] if c >= 0 else None for c in self.giving]
        v["passed_all"] = [CODES[c] if c >= 0 else None for c in self.passed]
        return v

    def _position(self) -> dict[str, Json]:
        from .position import write

        return write(self)

    def determinise(self, seat: int, rng: random.Random) -> MudslideState:
        """The other hands, their choices and the stock resampled from the cards ``seat``
        has not seen; the card it passed left stays with that neighbour while held.

        A function of ``seat``'s view and ``rng`` (docs/engine.md, "Determinise"): the
        unseen cards are shuffled from id order, never from where they really are."""
        s = self._copy(self.shuffler.reseeded(rng))
        left = self._left(seat)
        pinned = self.passed[seat] if self.passed[seat] in self.hands[left] else -1
        others = [k for k in range(self.num_players) if k != seat]
        unseen = [c for k in others for c in self.hands[k] if c != pinned] + \
            [self.giving[k] for k in others if self.giving[k] >= 0] + self.stock
        unseen.sort()  # what is unseen, not where
        rng.shuffle(unseen)
        for k in others:
            size = len(self.hands[k]) - (k == left and pinned >= 0)
            hand, unseen = unseen[:size], unseen[size:]
            if k == left and pinned >= 0:
                hand.append(pinned)
            s.hands[k] = sorted(hand)
            if self.giving[k] >= 0:
                s.giving[k], unseen = unseen[0], unseen[1:]
        s.stock = unseen
        return s


MudslideState.PHASES = PhaseTable(Phase, {
    Phase.GIVE: Rule(Who.EVERY, actions=(Move.GIVE,), seats=MudslideState._choosing,
                     legal=MudslideState._cards_to_give, apply=MudslideState._give,
                     why=MudslideState._why_not_give, opens="§2: the deal",
                     closes="§3: the last seat chose"),
    Phase.SLIDE: Rule(Who.TURN, actions=(Move.PLAY, Move.DRAW, Move.PASS),
                      seats=MudslideState._mover, legal=MudslideState._slide_actions,
                      apply=MudslideState._slide, why=MudslideState._why_not_turn,
                      opens="§3: the cards were passed",
                      closes="§4: a seat went out, or all passed in a row"),
    Phase.LAST_CALL: Rule(Who.TURN, actions=(Move.PLAY, Move.PASS),
                          seats=MudslideState._mover, legal=MudslideState._call_actions,
                          apply=MudslideState._answer, why=MudslideState._why_not_turn,
                          opens="§4: the slide ended", closes="§5: the last caller answered"),
    Phase.OVER: Rule(Who.NOBODY, opens="§5: the last call is over", closes="never"),
})
