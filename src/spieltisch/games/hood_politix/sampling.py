"""Sampling for search: a complete Hood Politix state consistent with one seat's view
(``State.determinise``), hidden hands and the draw pile's order redealt."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ...core.cards import cards_of, deal_masks

if TYPE_CHECKING:
    from .state import HoodPolitixState


def determinise(state: HoodPolitixState, seat: int, rng: random.Random) -> HoodPolitixState:
    """Redeal what ``seat`` cannot see: other hands (keeping sizes and the cards it knows
    there — revealed, seen by Snitch or Deal, §4) and the draw pile's order (keeping the
    buried bottom cards, §2.4).

    Only the redealt hand cards are drawn here (a partial Fisher-Yates shuffle of the
    unseen cards); the rest of the draw pile stays *unordered* and each draw takes a
    random one of its cards (``HoodPolitixState._draw``). Both are uniform, like a full
    shuffle, but a short search rollout draws a few cards, not ~100.

    A function of ``seat``'s view and ``rng`` (docs/engine.md, "Determinise"): the unseen
    cards are dealt from id order, never from where they really are.
    """
    s = state._copy(state.shuffler.reseeded(rng))
    n = state.n
    if seat != state.by:
        # Only the Snitch player knows of a pending take (their view alone shows it);
        # anyone else sees a Snitch not yet resolved, and a redealt target may not even
        # hold that kind. The Snitch player knows the target's whole hand, so their own
        # samples keep it, and the take with it.
        s.snitch_take = -1
    know = state.seen[seat] | state.public
    hands = [0] * n
    pool = 0
    need = [0] * n
    for p in range(n):
        h = state.hands[p]
        if p == seat:
            hands[p] = h
            continue
        hands[p] = h & know
        pool |= h & ~know
        need[p] = (h & ~know).bit_count()
    buried = state.buried
    cards = cards_of(pool) + state.draw[buried:]
    cards.sort()  # what is unseen, not where (docs/engine.md)
    dealt = deal_masks(cards, need, rng)
    s.hands = [h | d for h, d in zip(hands, dealt, strict=True)]
    dealt_count = sum(need)
    s.draw = state.draw[:buried] + cards[dealt_count:]
    s.unordered = len(cards) - dealt_count
    return s
