"""President's own RL observation: ``view(seat)`` as fixed float slots, written from the state.

Same information as the view (``PresidentState.view``), another form. Seats are
absolute (0..n-1) as in the view; ``c`` runs over the 54 cards (slot order = card id:
``3C 3D 3H 3S 4C … 2S JK1 JK2``, the view's card order). Numbers are scaled by a
natural maximum (marked *num*).

Public part (the same for every seat):

===============================  ===========================================================
``phase=P``                      one-hot: ``play``, ``exchange``, ``over``
``round``                        *num*: the round (deal) / 10
``to_act=s``                     the seat the game waits for
``revolution``                   the rank order is turned round
``hand_size.seat{s}``            *num*: cards held / the largest dealt hand
``pile.size=k``                  one-hot k = 1..4 (nothing set: the pile is empty)
``pile.top=c``                   the cards on top of the pile
``pile.owner=s``                 who played them
``pile.passed=s``                who passed on this pile
``place.seat{s}=k``              s went out k-th this round (k = 1..n-1; ``finished``)
``exchange[k].from=s``, ``.to``  the exchange steps still to come, in order (k = 0..2:
``exchange[k].count``            the Beggar's give runs at once, so at most 3 wait);
                                 *num* count / 2
``score.seat{s}``                *num*: points / 50 (the start)
``role.seat{s}=R``               the role earned last round (``roles``; none in round 1)
``played=c``                     the cards played this round
===============================  ===========================================================

Private part (the observing seat's own): ``hand=c``; ``received=c`` (the cards it got in
this round's exchange); ``gave.to=s`` and ``gave=c`` (the cards it gave, and to whom:
every role gives to one partner only, so the view's ``gave`` holds at most one seat).

Speed: card sets are bitmasks whose bit c is slot ``first + c``. Small sets (the top,
an exchange) set their slots bit by bit; the cards played and the hand, side by side,
are written eight at a time from a table of the 256 byte patterns. The standing (scores
and roles) changes once a round: its slots are kept while the scores and last round's
order stay equal (compared by value, so any state may be written in any order).
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING

from ...core.observation import Observer
from .cards import CARD_CODES, NUM_CARDS
from .state import START_POINTS, Phase, PresidentState, role_names

if TYPE_CHECKING:
    from .game import PresidentGame

ROUND_SCALE = 0.1
SCORE_SCALE = 1.0 / START_POINTS
COUNT_SCALE = 0.5  # the President gives 2 cards, the Prime Minister 1
#: Exchange steps the view can list (``exchange``): President → Beggar (its 2 cards),
#: Peasant → Prime Minister (automatic, run when it comes first), PM → Peasant.
EXCHANGE_STEPS = 3

#: The slot values of each byte of a card mask: 8 floats as bytes (bit i -> 1.0).
_ROW8: tuple[bytes, ...] = tuple(
    array("f", [float(b >> i & 1) for i in range(8)]).tobytes() for b in range(256))
_BOTH_BYTES = -(-2 * NUM_CARDS // 8)  # bytes of two card masks side by side


class PresidentObserver(Observer):
    """The observation of one configured President game (see the module docstring)."""

    def __init__(self, game: PresidentGame) -> None:
        super().__init__(game)
        n = game.num_players
        self.n = n
        seats = range(n)
        # -- public part --------------------------------------------------------------
        phase = self.slots("phase", [p.name.lower() for p in Phase])
        #: ``phase_at[p]``: the slot of phase ``p`` (indexed by the phase's value).
        self.phase_at = [0] * len(Phase)
        for i, p in enumerate(Phase):
            self.phase_at[p] = phase + i
        round_ = self.slot("round", numeric=True)
        to_act = self.slots("to_act", seats)
        revolution = self.slot("revolution")
        hand_size = self.size
        for s in seats:
            self.slot(f"hand_size.seat{s}", numeric=True)
        # hands are dealt with at most one card difference; the President may hold 2 more
        self.hand_scale = 1.0 / -(-NUM_CARDS // n)
        pile_size = self.slots("pile.size", range(1, 5)) - 1  # + size: its slot
        top = self.slots("pile.top", CARD_CODES)
        owner = self.slots("pile.owner", seats)
        passed = self.slots("pile.passed", seats)
        place = self.size - 1  # + (n - 1) * seat + place (1..n-1): its slot
        for s in seats:
            self.slots(f"place.seat{s}", range(1, n))
        exchange = self.size
        for k in range(EXCHANGE_STEPS):
            self.slots(f"exchange[{k}].from", seats)
            self.slots(f"exchange[{k}].to", seats)
            self.slot(f"exchange[{k}].count", numeric=True)
        self.step_size = 2 * n + 1
        # the standing: changes once a round, so its slots are kept (``_standing``)
        standing = self.size
        for s in seats:
            self.slot(f"score.seat{s}", numeric=True)
        roles = tuple(dict.fromkeys(role_names(n)))  # distinct, best first
        role_of_place = [roles.index(r) for r in role_names(n)]
        for s in seats:
            self.slots(f"role.seat{s}", roles)
        self.standing_size = self.size - standing
        #: the standing's slot of seat s holding the role of place i: ``role_at[i][s]``
        self.role_at = [[n + s * len(roles) + r for s in seats] for r in role_of_place]
        self._scores: list[int] = []
        self._order: list[int] = []
        self._standing = array("f")
        played = self.slots("played", CARD_CODES)
        # -- private part -------------------------------------------------------------
        hand = self.slots("hand", CARD_CODES)  # (right after ``played``: see ``write``)
        assert hand == played + NUM_CARDS
        received = self.slots("received", CARD_CODES)
        gave_to = self.slots("gave.to", seats)
        gave = self.slots("gave", CARD_CODES)
        #: the offsets ``write`` uses, in one tuple (one load)
        self._offsets = (round_, to_act, revolution, hand_size, pile_size, top, owner,
                         passed, place, exchange, standing, played, hand, received,
                         gave_to, gave)

    def write(self, state: PresidentState, seat: int, D: array[float]) -> None:  # type: ignore[override]
        (round_, to_act, revolution, hand_size, pile_size, top, owner, passed, place,
         exchange, standing, played, hand, received, gave_to, gave) = self._offsets
        n = self.n
        D[self.phase_at[state.phase]] = 1.0
        D[round_] = state.round * ROUND_SCALE
        for s in state.to_act():
            D[to_act + s] = 1.0
        if state.rev:
            D[revolution] = 1.0
        k = self.hand_scale
        for h in state.hands:
            D[hand_size] = h.bit_count() * k
            hand_size += 1
        # the pile
        if state.pile_size:
            D[pile_size + state.pile_size] = 1.0
            _set_cards(D, top, state.top_cards)
            D[owner + state.owner] = 1.0
            if state.passed:
                _set_cards(D, passed, state.passed)
        # the round so far: who went out, the exchange, the standing, the cards played
        for i, s in enumerate(state.finished, 1):
            D[place + (n - 1) * s + i] = 1.0
        if state.exchange:
            w = self.step_size
            for g, r, count, _automatic in state.exchange:
                D[exchange + g] = 1.0
                D[exchange + n + r] = 1.0
                D[exchange + w - 1] = count * COUNT_SCALE
                exchange += w
        if state.scores != self._scores or state.last_order != self._order:
            self._standing = self._standing_slots(state.scores, state.last_order)
            self._scores, self._order = state.scores[:], state.last_order[:]
        D[standing:standing + self.standing_size] = self._standing
        # the cards played, then (the next 54 slots) the seat's hand: many cards, so
        # eight at a time (a table row per byte of the two masks as one)
        m = state.played | state.hands[seat] << NUM_CARDS
        D[played:played + 2 * NUM_CARDS] = array("f", b"".join(
            map(_ROW8.__getitem__, m.to_bytes(_BOTH_BYTES, "little"))))[:2 * NUM_CARDS]
        # the seat's exchange
        if state.received[seat]:
            _set_cards(D, received, state.received[seat])
        for r, m in state.gave[seat].items():
            D[gave_to + r] = 1.0
            _set_cards(D, gave, m)

    def _standing_slots(self, scores: list[int], last_order: list[int]) -> array[float]:
        """The standing's slots: the scores, then the roles of last round's order."""
        out = array("f", bytes(4 * self.standing_size))
        for s, x in enumerate(scores):
            out[s] = x * SCORE_SCALE
        for i, s in enumerate(last_order):
            out[self.role_at[i][s]] = 1.0
        return out


def _set_cards(D: array[float], first: int, m: int) -> None:
    """Set slot ``first + c`` for each card (or seat) c in mask ``m``."""
    first -= 1  # bit c has bit_length c + 1
    while m:
        low = m & -m
        D[first + low.bit_length()] = 1.0
        m ^= low


__all__ = ["PresidentObserver"]
