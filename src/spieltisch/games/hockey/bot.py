"""A Hockey bot a decent player would recognise.

It looks one exchange ahead, counting the ranks it has seen (its hand and this
period's pile) to estimate what the opponent may hold:

- scores whenever it holds the breakaway and can match the opponent's card;
- otherwise takes a breakaway by matching the top card, or with a Jack when that
  keeps or steals a breakaway; it otherwise keeps its Jacks for later;
- when the opponent holds the breakaway, it plays the card the opponent is least
  likely to match (a rank whose other cards are all seen);
- prefers to play one card of a pair: if the opponent matches it for a breakaway,
  the partner takes the breakaway straight back (the third card of a rank);
- plays cards the opponent cannot match (all other cards of the rank are seen).
"""

from __future__ import annotations

from typing import Any

from ...bots.base import Bot, Observation
from ...core.game import Game
from .cards import JACK, NUM_RANKS, OVERTIME_DEALS, RANK, REGULAR_DEALS

#: Expected goals from holding a breakaway when the opponent is about to play.
BREAKAWAY_VALUE = 0.25
#: Fraction of the "my hand matches their card" chance that survives the opponent
#: choosing its card to avoid my ranks.
ADVERSARIAL = 0.35
#: A Jack in hand is a breakaway saved for later (to keep or steal one).
JACK_KEEP = 0.3
#: How much of the opponent's breakaway threat remains when I can match back.
PARTNER_RELIEF = 0.35


def p_holds(k: int, h: int, u: int) -> float:
    """Probability that ``h`` cards drawn from ``u`` unseen include one of ``k`` given."""
    if k <= 0 or h <= 0 or u <= 0:
        return 0.0
    if h > u:
        h = u
    miss = 1.0
    for i in range(h):
        miss *= (u - k - i) / (u - i)
        if miss <= 0.0:
            return 1.0
    return 1.0 - miss


class HeuristicBot(Bot):
    name = "heuristic"
    tuning = ("breakaway_value", "adversarial", "jack_keep", "partner_relief")

    def __init__(self, game: Game, seat: int, seed: int | None = None, **params: Any) -> None:
        super().__init__(game, seat, seed, **params)
        self._ids = game._card_index()
        # The weights, overridable by keyword (for tuning experiments).
        self.breakaway_value = float(params.get("breakaway_value", BREAKAWAY_VALUE))
        self.adversarial = float(params.get("adversarial", ADVERSARIAL))
        self.jack_keep = float(params.get("jack_keep", JACK_KEEP))
        self.partner_relief = float(params.get("partner_relief", PARTNER_RELIEF))

    def act(self, obs: Observation) -> int | None:
        actions = obs.legal_actions()
        if len(actions) == 1:
            return actions[0]
        view = obs.view
        ids = self._ids
        me = self.seat
        opp = 1 - me
        seen = [0] * NUM_RANKS
        for c in actions:  # the legal actions are exactly my hand
            seen[RANK[c]] += 1
        mine = seen[:]
        for code in view["pile"]:
            seen[RANK[ids[code]]] += 1
        unseen = [4 - n for n in seen]
        total_unseen = sum(unseen)
        top = ids[view["top"]] if view["top"] else -1
        top_rank = RANK[top] if top >= 0 else -1
        holder = view["breakaway"]
        if holder is None:
            holder = -1
        opp_cards = view["hand_counts"][opp]
        my_cards = len(actions)
        # After my play, does a new deal come (both hands empty), or does the period end?
        new_deal = opp_cards == 0 and my_cards == 1
        period_ends = new_deal and view["stock"] == 0
        if new_deal and not period_ends:
            schedule = OVERTIME_DEALS if view["overtime"] else REGULAR_DEALS
            next_size = schedule[view["deal"]] if view["deal"] < len(schedule) else 6
            opp_next = next_size
        else:
            opp_next = opp_cards
        p_jack = p_holds(unseen[JACK], opp_next, total_unseen)

        best = actions[0]
        best_value = -1e9
        for c in actions:
            r = RANK[c]
            value = 0.0
            goal = False
            # -- my play under §4 ---------------------------------------------------
            if r == JACK:
                new_holder = me
            elif r == top_rank:
                if holder == me:
                    goal = True
                    new_holder = -1
                else:
                    new_holder = me
            else:
                new_holder = -1 if holder == me else holder
            if goal:
                value += 1.0
            if period_ends:
                value += self.rng.random() * 1e-6
                if value > best_value:
                    best, best_value = c, value
                continue
            # -- the opponent's reply ---------------------------------------------
            p_match = p_holds(unseen[r], opp_next, total_unseen) if r != JACK else p_jack
            partner = mine[r] > 1
            if new_holder == me:
                # They void my breakaway by matching my card or playing a Jack.
                p_void = 1.0 - (1.0 - p_match) * (1.0 - p_jack)
                if new_deal:
                    p_score = 0.25
                else:
                    live = 0
                    for rr in range(NUM_RANKS):
                        if rr != JACK and mine[rr] - (rr == r) > 0:
                            live += unseen[rr]
                    p_score = self.adversarial * live / max(1, total_unseen)
                value += (1.0 - p_void) * p_score - p_void * self.breakaway_value * (
                    self.partner_relief if partner else 1.0)
            elif new_holder == opp:
                # They score if they can match my card.
                value -= p_match
            else:
                p_gain = 1.0 - (1.0 - p_match) * (1.0 - p_jack)
                relief = self.partner_relief if partner else 1.0
                value -= (p_match * relief + (p_gain - p_match)) * self.breakaway_value
            # -- what I keep ------------------------------------------------------
            if r == JACK:
                value -= self.jack_keep
            value += self.rng.random() * 1e-6
            if value > best_value:
                best, best_value = c, value
        return best
