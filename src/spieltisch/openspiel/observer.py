"""Observation and information-state strings and tensors of the OpenSpiel games.

OpenSpiel asks a Python game for an observer per kind of observation
(``make_py_observer``); this one serves two kinds:

* **observation** (``perfect_recall=False``): the seat's view now. The string is the
  view as compact JSON; the tensor is the RL observation vector (the game's own
  observer, ``rl.encoding.StateEncoder``: its slots, then the seat one-hot and the
  "asked, required" / "asked, optional" flags);
* **information state** (``perfect_recall=True``): the string is everything the seat has
  seen, in order (``Table.information``: its view after the deal, each step's events as it
  saw them, its own decisions) — perfect recall, and equal exactly when the seat cannot
  tell two histories apart. There is no tensor (the game type says
  ``provides_information_state_tensor=False``): President and Hood Politix play rounds
  until a score limit, HOAX until a throne-point total and Hockey's overtime until a
  goal, so no fixed size holds a perfect-recall history (Pixmit's one deal is bounded,
  but one rule holds for every game), and a summary under that name would break the
  contract of algorithms that rely on it (Deep CFR, exploitability tools). OpenSpiel's
  own long card games (crazy_eights, gin_rummy, hanabi, skat, spades) do the same; its
  ``rl_environment`` then takes the observation tensor.

A research configuration (``research.py``) is bounded: its information state has a
tensor too (``ResearchTable.information_tensor``), where the configuration offers one.

Public-only observations (``private_info=NONE``) and observations of all players' private
information are not offered.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import numpy as np
import pyspiel

from ..rl.encoding import StateEncoder, encoder_for

if TYPE_CHECKING:
    from .game import SpielGame, SpielState


class SpielObserver:
    """OpenSpiel's Python observer interface: ``tensor``, ``dict``, ``set_from``,
    ``string_from``."""

    def __init__(self, game: SpielGame, iig_obs_type: pyspiel.IIGObservationType | None,
                 params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if not kind.public_info or kind.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("only the seat's own observation (public and its private "
                             "information) is offered")
        self.perfect_recall = kind.perfect_recall
        # perfect recall: a string only (see the module docstring), but for a research
        # game (research.py), which is bounded: its tensor holds the whole history
        self.research = (game.research is not None and game.research.config.tensor
                         and self.perfect_recall)
        self.encoder = None if self.perfect_recall else encoder_for(game.engine_game)
        size = self.encoder.size if self.encoder else 0
        if self.research and game.research is not None:
            from .research import ResearchTable

            size = ResearchTable(game.engine_game, game.research).tensor_size()
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor} if size else {}

    def set_from(self, state: SpielState, player: int) -> None:
        if self.research:
            state.t.information_tensor(player, self.tensor)  # type: ignore[attr-defined]
            return
        if self.encoder is None:
            raise ValueError("the information state is a string only: a fixed-size tensor "
                             "cannot hold these games' unbounded histories (use the "
                             "observation tensor)")
        t = state.t
        t.settle()
        self.tensor.fill(0.0)
        engine = t.engine
        if engine is None:  # before the first deal: nothing seen yet
            return
        polled = t.poll is not None and t.poll[0] == player
        required = polled and t.poll[1]  # type: ignore[index]
        optional = polled and not required
        if isinstance(self.encoder, StateEncoder):
            obs = self.encoder.encode_state(engine, player, required, optional)
        else:
            obs = self.encoder.encode(engine.view(player), player, required, optional)
        self.tensor[:] = obs

    def string_from(self, state: SpielState, player: int) -> str:
        t = state.t
        t.settle()
        if self.perfect_recall:
            return t.information(player)
        if t.engine is None:
            return ""
        return json.dumps(t.engine.view(player), separators=(",", ":"), sort_keys=True,
                          ensure_ascii=False)


__all__ = ["SpielObserver"]
