"""Sampling for search: a complete President state consistent with what one seat knows.

A seat sees its own hand, the cards played, every hand's size, the cards it gave in
the exchange and, when it received an automatic give, that the giver kept no card above
the weakest rank given (§4: the Beggar and the Peasant give their highest cards).
``determinise`` deals every other card anew within those limits.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ...core.cards import cards_of, deal_masks

if TYPE_CHECKING:
    from .state import PresidentState


def determinise(state: PresidentState, seat: int, rng: random.Random) -> PresidentState:
    """Redeal the cards ``seat`` cannot see, keeping hand sizes and what it knows.

    It knows its own hand, the cards it gave (still held by the receiver unless played),
    and, when it received an automatic give, that the giver holds no card above the
    weakest rank given (ranks compare in the normal order, Jokers on top, §4). The copy
    draws its future chance from ``rng``.
    """
    s = state._copy(state.shuffler.reseeded(rng))
    n = state.num_players
    fixed = [0] * n
    fixed[seat] = state.hands[seat]
    for receiver, cards in state.gave[seat].items():
        fixed[receiver] |= cards & state.hands[receiver]
    known = 0
    for f in fixed:
        known |= f
    unseen = 0
    for h in state.hands:
        unseen |= h
    unseen &= ~known
    need = [state.hands[p].bit_count() - fixed[p].bit_count() for p in range(n)]
    hands = list(fixed)
    ceiling = state.ceiling[seat]
    if ceiling is not None and ceiling[0] != seat and need[ceiling[0]]:
        giver, top = ceiling
        # the cards of rank <= top: four ids per rank, the Jokers (rank 13) last
        allowed = unseen & ((1 << 4 * (top + 1)) - 1)
        got = deal_masks(cards_of(allowed), [need[giver]], rng)[0]
        hands[giver] |= got
        unseen &= ~got
        need[giver] = 0
    dealt = deal_masks(cards_of(unseen), need, rng)
    s.hands = [h | d for h, d in zip(hands, dealt, strict=True)]
    return s


__all__ = ["determinise"]
