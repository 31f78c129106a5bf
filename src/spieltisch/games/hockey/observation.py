"""Hockey's own RL observation: what ``HockeyState.view(seat)`` shows, as float slots.

Written straight from the state (``core.observation``). Two players, so seats are
*relative* — ``me`` and ``opp`` (the opponent) — which lets one policy play either seat
without learning the seat's effect (the header still names the absolute seat). Cards
``c`` run over the 52 card ids (``AC AD AH AS 2C … KS``, the view's codes) and ranks
``r`` over ``A 2 … 10 J Q K``. Only the rank matters in Hockey (§1), so cards are also
counted per rank. Numeric slots (marked *num*) are scaled by a natural maximum.

===============================  ==========================================================
``period=1|2|3|overtime``        the period (4 and later are overtime)
``deal=1..6``                    the deal within the period
``dealer=me|opp``                who dealt this period
``to_move=me|opp``               whose turn it is (nothing set once the game is over)
``breakaway=me|opp``             who holds the breakaway (nothing set: nobody)
``goals=me|opp``                 *num*: goals so far / 5
``goals.lead=-3..3``             one-hot of my lead (my goals − theirs, clipped to ±3)
``stock``                        *num*: cards still to deal this period / 52
``hand_count=me|opp``            *num*: cards held / 6
``hand=c``, ``hand_rank=r``      my cards; per rank *num* count / 4
``pile=c``, ``pile_rank=r``      the cards played this period; per rank *num* count / 4
``unseen_rank=r``                *num*: cards of rank r I have not seen (4 − mine −
                                 played) / 4: what the opponent's hand and the stock hold
``top=c``, ``top_rank=r``        the top card of the pile (nothing set: empty pile)
``below_rank=r``                 the rank of the card under the top card
``can_score``                    I hold the breakaway and a card of the top's rank (not a
                                 Jack): playing it scores (§4)
``can_break``                    I hold a card of the top's rank or a Jack: a breakaway
``winner=me|opp``                at the end
===============================  ==========================================================

Everything here is in the view (the pile is the view's list, in order) or follows from
it and the seat, and nothing else: the opponent's cards and the stock's order stay out.
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING

from ...core.observation import Observer
from .cards import CODES, JACK, NUM_CARDS, NUM_RANKS, RANK, RANKS, REGULAR_PERIODS

if TYPE_CHECKING:
    from .game import HockeyGame
    from .state import HockeyState

GOAL_SCALE = 1.0 / 5  # more than five goals in a game are rare
HAND_SCALE = 1.0 / 6  # the largest packet dealt (§2)
RANK_SCALE = 1.0 / 4  # four cards of each rank
LEAD = 3  # the lead's one-hot is clipped to ±LEAD
SIDES = ("me", "opp")


class HockeyObserver(Observer):
    """The slots of the module docstring (the layout is the same for every game)."""

    def __init__(self, game: HockeyGame) -> None:
        super().__init__(game)
        self.period = self.slots("period", ("1", "2", "3", "overtime")) - 1  # + period
        self.deal = self.slots("deal", range(1, 7))  # + deal index (0-based)
        self.dealer = self.slots("dealer", SIDES)
        self.to_move = self.slots("to_move", SIDES)
        self.breakaway = self.slots("breakaway", SIDES)
        self.goals = self.slots("goals", SIDES, numeric=True)
        self.lead = self.slots("goals.lead", range(-LEAD, LEAD + 1)) + LEAD  # + lead
        self.stock = self.slot("stock", numeric=True)
        self.hand_count = self.slots("hand_count", SIDES, numeric=True)
        self.hand = self.slots("hand", CODES)
        self.hand_rank = self.slots("hand_rank", RANKS, numeric=True)
        self.pile = self.slots("pile", CODES)
        self.pile_rank = self.slots("pile_rank", RANKS, numeric=True)
        self.unseen_rank = self.slots("unseen_rank", RANKS, numeric=True)
        self.top = self.slots("top", CODES)
        self.top_rank = self.slots("top_rank", RANKS)
        self.below_rank = self.slots("below_rank", RANKS)
        self.can_score = self.slot("can_score")
        self.can_break = self.slot("can_break")
        self.winner = self.slots("winner", SIDES)

    def write(self, state: HockeyState, seat: int, D: array[float]) -> None:  # type: ignore[override]
        opp = 1 - seat
        side = (0, 1) if seat == 0 else (1, 0)  # side[s]: 0 = me, 1 = opp
        D[self.period + min(state.period, REGULAR_PERIODS + 1)] = 1.0
        D[self.deal + state.deal] = 1.0
        D[self.dealer + side[state.dealer]] = 1.0
        over = state.winner >= 0
        if not over:
            D[self.to_move + side[state.to_move]] = 1.0
        holder = state.breakaway
        if holder >= 0:
            D[self.breakaway + side[holder]] = 1.0
        mine, theirs = state.goals[seat], state.goals[opp]
        D[self.goals] = mine * GOAL_SCALE
        D[self.goals + 1] = theirs * GOAL_SCALE
        D[self.lead + max(-LEAD, min(LEAD, mine - theirs))] = 1.0
        D[self.stock] = (NUM_CARDS - state.dealt) / NUM_CARDS
        hand = state.hands[seat]
        D[self.hand_count] = hand.bit_count() * HAND_SCALE
        D[self.hand_count + 1] = state.hands[opp].bit_count() * HAND_SCALE
        seen = [0] * NUM_RANKS
        held = [0] * NUM_RANKS
        base = self.hand
        m = hand
        while m:
            low = m & -m
            c = low.bit_length() - 1
            D[base + c] = 1.0
            held[RANK[c]] += 1
            m ^= low
        base = self.pile
        for c in state.pile:
            D[base + c] = 1.0
            seen[RANK[c]] += 1
        for r in range(NUM_RANKS):
            if held[r]:
                D[self.hand_rank + r] = held[r] * RANK_SCALE
            if seen[r]:
                D[self.pile_rank + r] = seen[r] * RANK_SCALE
            D[self.unseen_rank + r] = (4 - held[r] - seen[r]) * RANK_SCALE
        top = state.top
        if top >= 0:
            r = RANK[top]
            D[self.top + top] = 1.0
            D[self.top_rank + r] = 1.0
            if len(state.pile) > 1:
                D[self.below_rank + RANK[state.pile[-2]]] = 1.0
            if r != JACK and held[r]:
                D[self.can_break] = 1.0
                if holder == seat:
                    D[self.can_score] = 1.0
        if held[JACK]:
            D[self.can_break] = 1.0
        if over:
            D[self.winner + side[state.winner]] = 1.0


__all__ = ["HockeyObserver"]
