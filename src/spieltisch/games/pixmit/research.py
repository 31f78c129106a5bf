"""Pixmit's research configuration for OpenSpiel's tabular tools (rules.md, "Research
variant"; ``spieltisch.openspiel.research``): two players, one round, a few cards.
Loaded when ``spieltisch.openspiel`` registers the games (``SPEC.research``); it needs
no OpenSpiel itself."""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from typing import Any

from ...core.game import ConfigError, Game, State
from ...core.research import Config
from .game import PixmitGame

#: The research variant's cards (printed numbers): two beasts, two objects, two persons.
DECK = (7, 10, 4, 6, 13, 14)


def _make(game: Game, sizes: Mapping[str, int]) -> Game:
    assert isinstance(game, PixmitGame)
    size = sizes["research_deck"]
    if not 4 <= size <= len(DECK):
        raise ConfigError(f"research_deck of pixmit must be 4..{len(DECK)}, not {size}")
    return game.research(DECK[:size], 1)


def _deal_key(state: State[Any]) -> Hashable:
    # one round: the stack is never drawn from (no Wissen cards, and with two players a
    # veto sends no card under it), so the hands decide everything
    return tuple(state.hands)  # type: ignore[attr-defined]


def _deals(sizes: Mapping[str, int]) -> int:
    n = sizes["research_deck"]
    return math.comb(n, 2) * math.comb(n - 2, 2)


RESEARCH = Config(
    sizes={"research_deck": 4},
    make=_make, deal_key=_deal_key, deals=_deals,
    # a turn: target, offer, two claims, answer, creation or pass, return or messenger
    decisions=lambda sizes: 2 * 8,
    summary="two players, beginner mode, one round, the first research_deck cards of "
            "07 10 04 06 13 14 (beasts, objects, persons), two each",
    fixed={"players": 2, "mode": "beginner"}, tensor=False)
