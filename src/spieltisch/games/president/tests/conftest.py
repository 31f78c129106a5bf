"""Set-ups for President scenarios: seats A, B, C, D are 0, 1, 2, 3."""

from __future__ import annotations

from typing import Any, cast

import pytest

from spieltisch.core import Game, get_spec
from spieltisch.games.president import cards as C
from spieltisch.games.president.game import PresidentGame
from spieltisch.games.president.observation import PresidentObserver
from spieltisch.games.president.state import PresidentState
from spieltisch.testing import act, edited, legal_texts

__all__ = ["A", "B", "C_", "D", "act", "arrange", "deal_order", "legal_texts", "new_state"]

A, B, C_, D = 0, 1, 2, 3


def president_game(n: int, options: dict[str, Any] | None = None) -> PresidentGame:
    """``get_spec("president").configure(n, options)``, typed as the game's own class."""
    return cast(PresidentGame, get_spec("president").configure(n, options))


def observer(game: Game) -> PresidentObserver:
    """``game.observer()``, typed as President's own observer."""
    return cast(PresidentObserver, game.observer())


def deal_order(hands: dict[int, list[str]], n: int, leader: int) -> list[str]:
    """A stacked order that deals ``hands`` (partial hands are filled up) from ``leader``.

    Cards are dealt one at a time clockwise from the leader (§2.2), so the order is
    interleaved: card k goes to seat (leader + k) mod n.
    """
    sizes = [54 // n + (1 if (s - leader) % n < 54 % n else 0) for s in range(n)]
    named = {c for h in hands.values() for c in h}
    spare = [c for c in C.CARD_CODES if c not in named]
    full = {}
    for s in range(n):
        h = list(hands.get(s, []))
        while len(h) < sizes[s]:
            h.append(spare.pop())  # from the top: 2s and Jokers go to unnamed seats first
        full[s] = h
    return [full[(leader + k) % n].pop(0) for k in range(54)]


def new_state(hands: dict[int, list[str]], n: int = 4, leader: int = 0, skip_rule: bool = False,
              later: list[list[str]] | None = None) -> PresidentState:
    game = get_spec("president").configure(n, {"skip_rule": skip_rule, "first_leader": leader})
    deck = [deal_order(hands, n, leader)] + (later or [])
    state = game.new_state(seed=0, deck=deck)
    assert isinstance(state, PresidentState)
    return state


def arrange(state: PresidentState, hands: dict[int, list[str]], **fields: Any
            ) -> PresidentState:
    """``state`` again through its position (``docs/positions.md``), the seats holding
    exactly ``hands`` (every other card counts as played) and the other ``fields`` of the
    position's ``"state"`` replaced (``to_move=2``, ``revolution=True``).

    Used for end-of-round scenarios that would otherwise need dozens of scripted piles.
    """
    named = {c for h in hands.values() for c in h}

    def hold(body: dict[str, Any]) -> None:
        for s, seat in enumerate(body["seats"]):
            seat["hand"] = list(hands.get(s, []))
        body["played"] = [c for c in C.CARD_CODES if c not in named]

    return edited(state, hold, **fields)


@pytest.fixture
def seats():
    return A, B, C_, D
