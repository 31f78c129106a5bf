"""Set-ups for Hockey scenarios: D (dealer of period 1) is seat 0, N is seat 1.

Cards are dealt one at a time, non-dealer first, and play alternates non-dealer
first in every deal, so a period's stacked deck order *is* its play order: the
k-th card of the deck is the k-th card played (if each player plays its cards in
the order dealt). ``period_order`` turns a scripted start of a period into a full
52-card order whose remaining cards never match the card before them (no accidental
breakaways by matching, hence no accidental goals).
"""

from __future__ import annotations

from spieltisch.core import get_spec
from spieltisch.games.hockey.cards import CODES, RANK
from spieltisch.games.hockey.state import HockeyState
from spieltisch.testing import act

D, N = 0, 1


def rank_of(code: str) -> int:
    return RANK[CODES.index(code)]


def period_order(script: list[str], tail: list[str] | None = None) -> list[str]:
    """``script`` first, ``tail`` last, the other cards between, never a rank twice in a
    row from the end of ``script`` to the start of ``tail``."""
    tail = tail or []
    named = set(script) | set(tail)
    assert len(named) == len(script) + len(tail), "a card is named twice"
    rest = [c for c in CODES if c not in named]
    order = list(script)
    while rest:
        prev = rank_of(order[-1]) if order else -1
        counts: dict[int, int] = {}
        for c in rest:
            counts[rank_of(c)] = counts.get(rank_of(c), 0) + 1
        choices = [c for c in rest if rank_of(c) != prev]
        if len(rest) == 1 and tail:
            choices = [c for c in choices if rank_of(c) != rank_of(tail[0])]
        assert choices, "the filler cannot avoid a match"
        # The most plentiful rank first, so that no rank is left over at the end.
        pick = max(choices, key=lambda c: (counts[rank_of(c)], -CODES.index(c)))
        rest.remove(pick)
        order.append(pick)
    order += tail
    for i in range(max(len(script), 1), len(order) - len(tail) + 1):
        if i < len(order):
            assert rank_of(order[i - 1]) != rank_of(order[i]), "filler matched"
    return order


def new_state(*periods: list[str], first_dealer: int = D) -> HockeyState:
    game = get_spec("hockey").configure(2, {"first_dealer": first_dealer})
    state = game.new_state(seed=0, deck=[list(p) for p in periods] if periods else None)
    assert isinstance(state, HockeyState)
    return state


def play(state: HockeyState, seat: int, code: str) -> list:
    """``seat`` plays the card ``code``."""
    return act(state, seat, f"play {code}")


def play_in_deck_order(state: HockeyState, count: int) -> list:
    """Play the next ``count`` cards of the current period in deck (= play) order."""
    events = []
    for _ in range(count):
        played = len(state.pile)
        code = CODES[state.deck[played]]
        events += play(state, state.to_move, code)
    return events


def play_period(state: HockeyState) -> list:
    """Play out the current period in deck order (stops early if the game ends)."""
    period = state.period
    events = []
    while not state.is_over() and state.period == period:
        events += play_in_deck_order(state, 1)
    return events


def dealer_goals(ranks: list[str]) -> list[str]:
    """A script in which the dealer scores once per pair of ranks (N leads):
    N a, D a' (breakaway D), N b, D b' (goal D). ``ranks`` = [a, b, c, d, ...]."""
    out = []
    for i in range(0, len(ranks), 2):
        a, b = ranks[i], ranks[i + 1]
        out += [a + "C", a + "D", b + "C", b + "D"]
    return out
