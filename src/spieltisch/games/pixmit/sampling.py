"""Sampling for search: a complete Pixmit state consistent with what one seat knows.

``determinise`` keeps every card whose place the seat knows (``PixmitState.known``) and
deals the others anew over the places they could be, honouring what is public: hand
sizes, the stack's size, card 21's holder (§2: "the holder of card 21 is public"; in
the stack, only that it is there) and, in beginner mode, the true announcements about
cards on offer (§3.3).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ...core.cards import cards_of
from . import cards as C
from .terms import OVER, TURN

if TYPE_CHECKING:
    from .state import PixmitState

#: A hidden card's place: ``(in_hand, index, offered)``: a hand (index = seat; offered:
#: the card lies in the active seat's offer) or the stack (index = position, 0 = bottom).
Place = tuple[bool, int, bool]

#: Attempts at honouring the beginner-mode announcements before keeping the cards as
#: they are (an announcement is true of several cards, so the first attempt almost
#: always succeeds).
ATTEMPTS = 50


def determinise(state: PixmitState, seat: int, rng: random.Random) -> PixmitState:
    """Resample every card whose place ``seat`` does not know.

    Kept: the seat's hand, every card it knows the place of (``known``), hand sizes, the
    stack size, card 21's public place (a hand, or somewhere in the stack), which cards
    are on offer to the extent the seat knows them, and in beginner mode the
    announcements made about cards still on offer. A chosen target not yet offered to
    stays only in the active seat's own samples (nobody else sees it; without it, the
    active seat's options are those of the turn's start, as far as the others know:
    ``fresh`` is unchanged by the choice). The copy draws its future chance from ``rng``.
    """
    s = state._copy(state.shuffler.reseeded(rng))
    if state.phase is OVER:
        return s
    if state.phase is TURN and seat != state.active:
        s.target = -1
    mine = state.known[seat]
    places: list[Place] = []
    hidden_cards: list[int] = []
    active, offer = state.active, state.offer
    for p, hand in enumerate(state.hands):
        for x in cards_of(hand & ~mine):
            places.append((True, p, p == active and bool(offer >> x & 1)))
            hidden_cards.append(x)
    for i, x in enumerate(state.stack):
        if not mine >> x & 1:
            places.append((False, i, False))
            hidden_cards.append(x)
    if not hidden_cards:
        return s
    dealt = _assign(state, places, hidden_cards, rng)
    hands = state.hands[:]
    for (in_hand, index, _), old in zip(places, hidden_cards, strict=True):
        if in_hand:
            hands[index] &= ~(1 << old)
    # what other seats knew moves with the place: a card's knowledge bits follow it
    hidden = sum(1 << x for x in hidden_cards)
    new_known = [k & ~hidden for k in state.known]
    renamed: dict[int, int] = {}
    for (in_hand, index, _), old, new in zip(places, hidden_cards, dealt, strict=True):
        renamed[old] = new
        for p, k in enumerate(state.known):
            if k >> old & 1:
                new_known[p] |= 1 << new
        if in_hand:
            hands[index] |= 1 << new
        else:
            s.stack[index] = new
    s.hands = hands
    s.known = new_known
    if state.offer_cards:
        s.offer_cards = tuple(renamed.get(x, x) for x in state.offer_cards)
        s.offer = sum(1 << x for x in s.offer_cards)
    return s


def _assign(state: PixmitState, places: list[Place], cards: list[int],
            rng: random.Random) -> list[int]:
    """A random assignment of ``cards`` to ``places`` honouring the public constraints.

    Card 21 among hidden cards is in the stack (in a hand it is public, §2): it goes to
    a random hidden stack place. In beginner mode, a hidden card on offer gets a card its
    announcement is true of (§3.3; number announcements first, as they allow fewer).
    """
    announced: list[tuple[int, int]] = []  # (index into places, claim)
    if state.game.beginner and state.claims:
        claim_of = {x: state.claims[i] for i, x in enumerate(state.offer_cards)
                    if i < len(state.claims)}
        announced = [(j, claim_of[x]) for j, x in enumerate(cards)
                     if x in claim_of and places[j][2]]
        announced.sort(key=lambda entry: -entry[1])
    in_stack = [j for j, place in enumerate(places) if not place[0]]
    for _ in range(ATTEMPTS):
        pool = cards[:]
        rng.shuffle(pool)
        out: list[int] = [-1] * len(cards)
        if C.JOKER_21 in pool:
            out[rng.choice(in_stack)] = C.JOKER_21
            pool.remove(C.JOKER_21)
        ok = True
        for j, claim in announced:
            choices = [y for y in pool if claim in C.TRUTHFUL[y]]
            if not choices or out[j] >= 0:
                ok = False
                break
            y = rng.choice(choices)
            out[j] = y
            pool.remove(y)
        if not ok:
            continue
        rest = iter(pool)
        return [y if y >= 0 else next(rest) for y in out]
    return cards[:]


__all__ = ["determinise"]
