"""A Pixmit bot a casual player would find sensible.

- Values a hand as its exact score now plus a share of the best unit it can still
  reach ("plan"): 5-card sets, named sets, Elite and 3er-Sätze, discounted by how
  many cards are missing and how many draws and trades are left.
- Offers (and gives back, sends via the Bote, puts under the stack) the cards that
  do not fit that plan: two cards when the pair costs next to nothing, else one.
- Announces each offered card truthfully by a group it belongs to, or now and then
  (``number``) by its number; in pro mode it bluffs with probability ``bluff``: a
  false group most often, sometimes a false number or no announcement at all (beginner
  mode allows only the truth).
- Vetoes an offer whose announcements are all useless to its own plan (an offer
  without announcements may be anything: it accepts it).
- Calls Pixmit when its score, after the expected hunt losses, is ahead of what
  opponents typically hold at that point; always uses Wissen; invokes Schöpfung
  in the 2-player game (the swap beats the Bote); with 3–4 players the stack's cards
  and a blind return are worth the same on average, so it invokes it on a share
  ``creation`` of its chances, at random: a veto then tells nobody what follows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, cast

from ...bots.base import Bot, Observation
from . import actions as A
from . import cards as C

if TYPE_CHECKING:
    from .game import PixmitGame

_W: Final = (1.0, 0.4, 0.15, 0.05, 0.0, 0.0)

#: plans: (mask of useful cards, cards needed, points)
_PLANS: Final[tuple[tuple[int, int, int], ...]] = (
    *((C.MEMBERS[g], 5, pts) for g, pts in ((C.PK, 75), (C.DK, 90), (C.OK, 100),
                                            (C.ASK, 100))),
    *((C.MEMBERS[g], 3, 30) for g in range(8)),
    (C.CREATION, 3, 40), (C.KNOWLEDGE, 3, 50), (C.ANNIHILATION, 3, 50), (C.ELITE, 4, 150))
_FIRE: Final = C.MEMBERS[C.FK]
_BEAST_T: Final = C.MEMBERS[C.TK]
_BEAST_A: Final = C.MEMBERS[C.AK]


def potential(hand: int, chances: float) -> float:
    """Score now plus a discounted share of the best reachable unit.

    ``chances`` scales the discount: about 1 early in the game, 0 at the end.
    """
    hit = _PROSPECTS.get(hand)
    if hit is None:
        hit = _prospects(hand)
    now, gap = hit
    if chances <= 0:
        return float(now)
    return now + chances * gap * 0.6


#: ``_prospects`` per hand: a search's rollouts value the same hands over and over (a
#: third of a Pixmit search's profile); cleared when full, like the scorer's memo
_PROSPECTS: Final[dict[int, tuple[int, float]]] = {}
_PROSPECTS_LIMIT: Final = 200_000


def _prospects(hand: int) -> tuple[int, float]:
    """The hand's score now and how far the best reachable unit is worth more (≥ 0)."""
    now = C.score(hand)
    best = 0.0
    for mask, size, pts in _PLANS:
        have = (hand & mask).bit_count()
        need = size - have if have < size else 0
        if need < 4:
            val = pts * _W[need]
            if val > best:
                best = val
    fire = (hand & _FIRE).bit_count()
    need = max(0, 3 - fire) + max(0, 5 - hand.bit_count() - 1)
    best = max(best, 100 * _W[min(need, 5)])
    need = max(0, 2 - (hand & _BEAST_T).bit_count()) + max(0, 3 - (hand & _BEAST_A).bit_count())
    best = max(best, 120 * _W[min(need, 5)])
    if len(_PROSPECTS) >= _PROSPECTS_LIMIT:
        _PROSPECTS.clear()
    hit = _PROSPECTS[hand] = (now, max(0.0, best - now))
    return hit


class HeuristicBot(Bot):
    name = "heuristic"

    tuning = ("call_at", "bluff", "number", "creation")

    def __init__(self, game: Any, seat: int, seed: int | None = None, **params: Any) -> None:
        """``call_at``: the score worth a call (55); ``bluff``: the share of false
        announcements (pro mode; 0.3); ``number``: of true ones by the card's number rather
        than a group (0.2); ``creation``: of Schöpfung chances taken with 3–4 players
        (0.5). (Read from ``params`` and named in ``tuning``, as HOAX's compiled bot does:
        docs/performance.md, rule 10.)"""
        super().__init__(game, seat, seed, **params)
        self.call_at = float(params.get("call_at", 55.0))
        self.bluff = float(params.get("bluff", 0.3))
        self.number = float(params.get("number", 0.2))
        self.creation = float(params.get("creation", 0.5))
        #: the game's action numbering (``self.game`` stays a ``Game``: a compiled class
        #: cannot narrow an attribute's type, docs/performance.md rule 1)
        self.space = cast("PixmitGame", game).space

    # -- helpers ---------------------------------------------------------------------------
    def _hand(self, view: dict[str, Any]) -> int:
        return sum(1 << (int(code) - 1) for code in view["hand"])

    def _chances(self, view: dict[str, Any]) -> float:
        n: int = view["players"]
        done: int = (view["round"] - 1) * n + ((view["active"] - view["start_player"]) % n)
        return max(0.0, 1.0 - done / (3 * n))

    def _cheapest(self, hand: int, options: list[tuple[int, int]], chances: float) -> int:
        """The action whose cards (mask) cost the least potential to part with."""
        base = potential(hand, chances)
        return min(options, key=lambda am: (base - potential(hand & ~am[1], chances),
                                            self.rng.random()))[0]

    # -- decisions -------------------------------------------------------------------------
    def act(self, obs: Observation) -> int | None:
        actions = obs.legal_actions()
        if len(actions) == 1:
            return actions[0]
        view = obs.view
        phase = view["phase"]
        space = self.space
        hand = self._hand(view)
        chances = self._chances(view)
        if phase == "turn":
            if A.CALL in actions and self._should_call(hand, view):
                return A.CALL
            if "offer_target" in view:  # the target is chosen: now the cards
                return self._offer_cards(hand, actions, chances)
            if A.KNOWLEDGE in actions:
                return A.KNOWLEDGE
            return self._target(hand, actions, view, chances)
        if phase == "claim":
            return self._claim(actions, view)
        if phase == "response":
            return self._respond(hand, view, chances)
        if phase == "creation":
            if view["players"] == 2 or self.rng.random() < self.creation:
                return A.CREATION
            return A.PASS
        if phase == "return":
            opts = [(a, C.SUBSETS[a - space.return_base]) for a in actions]
            return self._cheapest(hand, opts, chances)
        if phase == "messenger":
            opts = [(a, 1 << (a - space.messenger_base)) for a in actions]
            return self._cheapest(hand, opts, chances)
        if phase == "discard":
            opts = [(a, 1 << (a - space.bottom_base)) for a in actions]
            return self._cheapest(hand, opts, chances)
        return self.rng.choice(actions)

    def _should_call(self, hand: int, view: dict[str, Any]) -> bool:
        now = float(C.score(hand))
        if hand & (1 << C.JOKER_21):
            # the hunt: expect about one random card drawn per opponent without a set
            cards = [x for x in range(C.NUM_CARDS) if hand >> x & 1]
            now = sum(C.score(hand & ~(1 << x)) for x in cards) / len(cards)
        if view["round"] == 3:
            return now >= self.call_at * 0.8
        return now >= self.call_at

    def _give(self, hand: int, chances: float) -> tuple[int, int]:
        """The cards to offer (mask) and the single card to offer instead when the
        target holds only one card: the least useful to the plan; both if the pair
        costs next to nothing."""
        cards = [x for x in range(C.NUM_CARDS) if hand >> x & 1]
        base = potential(hand, chances)
        loss = {x: base - potential(hand & ~(1 << x), chances) for x in cards}
        order = sorted(cards, key=lambda x: (loss[x], self.rng.random()))
        give = 1 << order[0]
        if len(order) >= 2:
            pair = give | (1 << order[1])
            if base - potential(hand & ~pair, chances) <= 0.5:
                give = pair
        return give, 1 << order[0]

    def _target(self, hand: int, actions: list[int], view: dict[str, Any],
                chances: float) -> int:
        """A random opponent that can take the planned offer (k ≤ its hand size),
        else one that can take the single card."""
        targets = [t for t in range(view["players"]) if t != self.seat]
        self.rng.shuffle(targets)
        sizes = view["hand_sizes"]
        for mask in self._give(hand, chances):
            for t in targets:
                a = self.space.target(t)
                if a in actions and sizes[t] >= mask.bit_count():
                    return a
        return self.rng.choice(actions)

    def _offer_cards(self, hand: int, actions: list[int], chances: float) -> int:
        """The planned cards, or the single card if the target cannot take two."""
        for mask in self._give(hand, chances):
            a = self.space.offer(C.SUBSET_INDEX[mask])
            if a in actions:
                return a
        return self.rng.choice(actions)

    def _claim(self, actions: list[int], view: dict[str, Any]) -> int:
        """The announcement of the next offered card (see the module docstring)."""
        base = self.space.claim_base
        offer = view["offer"]
        card = int(offer["cards"][len(offer["claims"])]) - 1
        true = C.TRUTHFUL[card]
        rng = self.rng
        groups = len(C.GROUPS)
        if view["mode"] == "pro" and rng.random() < self.bluff:
            r = rng.random()
            if r < 0.15:
                lies = [0]  # no announcement
            elif r < 0.35:
                lies = [x for x in range(groups + 1, C.NUM_CLAIMS) if x not in true]
            else:
                lies = [x for x in range(1, groups + 1) if x not in true]
            choices = [a for a in (base + x for x in lies) if a in actions]
            if choices:
                return rng.choice(choices)
        by_number = rng.random() < self.number
        truthful = [base + x for x in true if (x > groups) == by_number]
        choices = [a for a in truthful if a in actions] or actions
        return rng.choice(choices)

    def _respond(self, hand: int, view: dict[str, Any], chances: float) -> int:
        claims = view["offer"]["claims"]
        base = potential(hand, chances)
        useful = False
        for claim in claims:
            if claim == "none":
                useful = True
            elif claim in C.GROUPS:
                g = C.GROUPS.index(claim)
                if hand & C.MEMBERS[g] & ~(1 << C.JOKER_21):
                    useful = True
            else:
                x = int(claim) - 1
                if potential(hand | (1 << x), chances) > base + 1:
                    useful = True
        return A.ACCEPT if useful else A.VETO

