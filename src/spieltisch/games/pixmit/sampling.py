"""Sampling for search: a complete Pixmit state consistent with what one seat knows.

``determinise`` keeps every card whose place the seat knows (``PixmitState.known``) and
deals the others anew over the places they could be, honouring what is public: hand
sizes, the stack's size, card 21's holder (§2: "the holder of card 21 is public"; in
the stack, only that it is there) and, in beginner mode, the true announcements about
cards on offer (§3.3).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

from ...core.cards import cards_of, shuffle
from . import cards as C
from .terms import OVER, TURN

if TYPE_CHECKING:
    from .state import PixmitState

#: A hidden card's place: ``(in_hand, index, offered, knowers)``: a hand (index = seat)
#: or the stack (index = position, 0 = bottom); ``offered``: the card's position in the
#: offer's cards (``offer_cards``), -1 if not among them; ``knowers``: the mask of the
#: seats that know the card there. A sample keeps each place and deals it a card.
Place = tuple[bool, int, int, int]

#: Attempts at honouring the beginner-mode announcements at random before the first
#: assignment in id order that honours them (an announcement is true of several cards,
#: so the first attempt almost always succeeds).
ATTEMPTS: Final = 50


def determinise(state: PixmitState, seat: int, rng: random.Random) -> PixmitState:
    """Resample every card whose place ``seat`` does not know.

    Kept: the seat's hand, every card it knows the place of (``known``), hand sizes, the
    stack size, card 21's public place (a hand, or somewhere in the stack), which cards
    are on offer to the extent the seat knows them, and in beginner mode the
    announcements made about cards still on offer. A chosen target not yet offered to
    stays only in the active seat's own samples (nobody else sees it; without it, the
    active seat's options are those of the turn's start, as far as the others know:
    ``fresh`` is unchanged by the choice). The copy draws its future chance from ``rng``.

    A function of ``seat``'s view and ``rng`` (docs/engine.md, "Determinise"): the hidden
    cards are dealt from id order over their places listed in a fixed order, and what
    other seats knew of a card stays with its place, never with the real card.
    """
    s = state._copy(state.shuffler.reseeded(rng))
    if state.phase is OVER:
        return s
    if state.phase is TURN and seat != state.active:
        s.target = -1
    mine = state.known[seat]
    places: list[Place] = []
    hidden = 0
    for p, hand in enumerate(state.hands):
        held = hand & ~mine
        if held:
            hidden |= held
            # a hand's hidden places, told apart only by what they say, not by the card
            group = [(True, p, _offered(state, x), _knowers(state, x))
                     for x in cards_of(held)]
            group.sort()
            places += group
    for i, x in enumerate(state.stack):
        if not mine >> x & 1:
            places.append((False, i, _offered(state, x), _knowers(state, x)))
            hidden |= 1 << x
    if not hidden:
        return s
    dealt = _assign(state, places, cards_of(hidden), rng)
    hands = [h & ~hidden for h in state.hands]
    known = [k & ~hidden for k in state.known]
    offer_cards = list(state.offer_cards)
    for (in_hand, index, offered, knowers), x in zip(places, dealt, strict=True):
        bit = 1 << x
        p = 0
        while knowers >> p:
            if knowers >> p & 1:
                known[p] |= bit
            p += 1
        if in_hand:
            hands[index] |= bit
        else:
            s.stack[index] = x
        if offered >= 0:
            offer_cards[offered] = x
    s.hands = hands
    s.known = known
    if state.offer_cards:
        s.offer_cards = tuple(offer_cards)
        s.offer = sum(1 << x for x in offer_cards)
    return s


def _offered(state: PixmitState, card: int) -> int:
    """The card's position among the offer's cards, or -1."""
    return state.offer_cards.index(card) if state.offer >> card & 1 else -1


def _knowers(state: PixmitState, card: int) -> int:
    """The mask of seats that know where ``card`` is."""
    out = 0
    bit = 1
    for k in state.known:
        if k >> card & 1:
            out |= bit
        bit <<= 1
    return out


def _assign(state: PixmitState, places: list[Place], cards: list[int],
            rng: random.Random) -> list[int]:
    """A random assignment of ``cards`` to ``places`` honouring the public constraints.

    Card 21 among hidden cards is in the stack (in a hand it is public, §2): it goes to
    a random hidden stack place. In beginner mode, a hidden card on offer gets a card its
    announcement is true of (§3.3; number announcements first, as they allow fewer).
    """
    announced: list[tuple[int, int]] = []  # (index into places, claim)
    if state.game.beginner and state.claims:
        claims = state.claims
        active = state.active  # the cards on offer are in the active seat's hand
        announced = [(j, claims[offered]) for j, (in_hand, index, offered, _) in
                     enumerate(places) if in_hand and index == active
                     and 0 <= offered < len(claims)]
        announced.sort(key=lambda entry: -entry[1])
    in_stack = [j for j, place in enumerate(places) if not place[0]]
    for _ in range(ATTEMPTS):
        pool = cards[:]
        shuffle(rng, pool)
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
    return _first_assignment(announced, in_stack, cards)


def _first_assignment(announced: list[tuple[int, int]], in_stack: list[int],
                      cards: list[int]) -> list[int]:
    """The first assignment in id order honouring the constraints (the real cards do, so
    one exists), when random attempts found none."""
    out = [-1] * len(cards)
    pool = cards[:]
    if C.JOKER_21 in pool:
        out[in_stack[0]] = C.JOKER_21
        pool.remove(C.JOKER_21)
    rest = _honour(announced, 0, pool, out)
    if rest is None:  # no assignment honours them: cannot happen in a real game
        return cards[:]
    left = iter(rest)
    return [y if y >= 0 else next(left) for y in out]


def _honour(announced: list[tuple[int, int]], k: int, pool: list[int],
            out: list[int]) -> list[int] | None:
    """Give announced places ``k`` on a card of ``pool`` each their claim is true of
    (depth first, ids ascending); the cards left over, or None if impossible."""
    if k == len(announced):
        return pool
    j, claim = announced[k]
    for i, y in enumerate(pool):
        if claim in C.TRUTHFUL[y]:
            out[j] = y
            rest = _honour(announced, k + 1, pool[:i] + pool[i + 1:], out)
            if rest is not None:
                return rest
    out[j] = -1
    return None


__all__ = ["determinise"]
