"""A President bot a casual player would find sensible.

- Leads its weakest set (largest set of the weakest rank), keeping Jokers and 2s.
- Follows with the cheapest play that beats the pile; breaks up sets only when
  cheap, and spends Jokers or 2s only when few cards are left or the pile is high.
- As President / Prime Minister gives back its weakest cards.
"""

from __future__ import annotations

from typing import Any

from ...bots.base import Bot, Observation
from . import cards as C


class HeuristicBot(Bot):
    name = "heuristic"

    def act(self, obs: Observation) -> int | None:
        actions = obs.legal_actions()
        if len(actions) == 1:
            return actions[0]
        view = obs.view
        if view["phase"] == "exchange":
            return min(actions, key=lambda a: self._card_value(a - C.FIRST_GIVE))
        rev = view["revolution"]
        hand = sum(1 << self.game.card_id(c) for c in view["hand"])
        counts = [(hand >> (4 * r) & 15).bit_count() for r in range(13)]
        plays = [a for a in actions if a != C.PASS]
        if not plays:
            return C.PASS
        cards_left = len(view["hand"])

        def cost(a: int) -> tuple[float, ...]:
            rank, size = C.PLAY_RANK[a], C.PLAY_SIZE[a]
            if rank == C.JOKER_RANK:
                strength = 20.0
            else:
                strength = C.strength(rank, rev)
            broken = 0 if rank == C.JOKER_RANK else counts[rank] - size
            return (strength + 3 * broken, -size)

        best = min(plays, key=cost)
        if view["pile"]["size"] == 0:
            return best
        rank = C.PLAY_RANK[best]
        precious = rank == C.JOKER_RANK or rank == C.best_rank(rev)
        strong = precious or C.strength(rank, rev) >= 10
        others_min = min((n for s, n in enumerate(view["hand_sizes"])
                          if s != self.seat and n > 0), default=0)
        broken = rank != C.JOKER_RANK and counts[rank] > C.PLAY_SIZE[best]
        if (strong or broken) and cards_left > 4 and others_min > 3:
            return C.PASS
        return best

    def _card_value(self, card: int) -> tuple[int, int]:
        rank = C.rank_of(card)
        return (rank, card)


def describe(view: dict[str, Any]) -> str:  # pragma: no cover - debugging aid
    return ", ".join(view["hand"])
