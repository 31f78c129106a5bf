"""What a game's small research configuration for OpenSpiel's tabular tools is made of.

A game offers one in its package (``games/<g>/research.py``, ``RESEARCH = Config(…)``,
loaded by its spec's ``research``); ``spieltisch.openspiel.research`` plays it (one chance
node per deal, an information-state tensor, docs/rl.md "Small research configurations").
This module needs no OpenSpiel: a game's configuration imports it without the extra.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .game import Game
from .game import State as EngineState


@dataclass(frozen=True)
class Config:
    """One game's research configuration."""

    #: Its own OpenSpiel parameters and their defaults (sizes of the variant).
    sizes: Mapping[str, int]
    #: The engine game made research-sized: ``make(game, sizes)``.
    make: Callable[[Game, Mapping[str, int]], Game]
    #: Orders of one shuffle with equal keys deal the same game (one chance outcome),
    #: whatever seats are drawn after the shuffle (seat 0 stands in for them).
    deal_key: Callable[[EngineState[Any]], Hashable]
    #: How many distinct deals (chance outcomes) the sizes give.
    deals: Callable[[Mapping[str, int]], int]
    #: The most decisions a game can have (bounds the information-state tensor).
    decisions: Callable[[Mapping[str, int]], int]
    #: What the variant is, for the docs and errors.
    summary: str = ""
    #: Settings it always plays with (``players`` and rule options): a game's default
    #: gives way to them, any other value is refused.
    fixed: Mapping[str, Any] = field(default_factory=dict)
    #: Whether it offers an information-state tensor (OpenSpiel's ``TabularPolicy`` keeps
    #: one per information state: Pixmit's would need 60,000 floats each).
    tensor: bool = True
    #: Whether the tensor needs slots for the seat's own actions (not when the
    #: observation after each step shows them, as Hockey's pile does).
    own_actions: bool = True


__all__ = ["Config"]
