"""Hockey's research configuration for OpenSpiel's tabular tools (rules.md, "Research
variant"; ``spieltisch.openspiel.research``): one period of one deal on a small deck.
Loaded when ``spieltisch.openspiel`` registers the games (``SPEC.research``); it needs
no OpenSpiel itself."""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from typing import Any

from ...core.game import Game, State
from ...core.research import Config
from .game import HockeyGame


def _make(game: Game, sizes: Mapping[str, int]) -> Game:
    assert isinstance(game, HockeyGame)
    return game.research(sizes["research_deck"], sizes["research_hand"])


def _deal_key(state: State[Any]) -> Hashable:
    # the one deal ends the game: cards left in the stock are never seen, their order
    # never matters; the dealer was chosen before (a chance node, or the option)
    return (state.dealer, tuple(state.hands))  # type: ignore[attr-defined]


def _deals(sizes: Mapping[str, int]) -> int:
    n, h = sizes["research_deck"], sizes["research_hand"]
    return math.comb(n, h) * math.comb(n - h, h)


RESEARCH = Config(
    sizes={"research_deck": 6, "research_hand": 2},
    make=_make, deal_key=_deal_key, deals=_deals,
    decisions=lambda sizes: 2 * sizes["research_hand"], own_actions=False,
    summary="one period of one deal of research_hand cards each from the first "
            "research_deck cards of JC JD QC QD KC KD AC AD …; equal goals draw")
