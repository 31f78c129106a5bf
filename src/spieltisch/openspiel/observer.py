"""Observation and information-state strings and tensors of the OpenSpiel games.

OpenSpiel asks a Python game for an observer per kind of observation
(``make_py_observer``); this one serves two kinds:

* **observation** (``perfect_recall=False``): the seat's view now. The string is the
  view as compact JSON; the tensor is the RL observation vector (the game's own
  observer, ``rl.encoding.StateEncoder``: its slots, then the seat one-hot and the
  "asked, required" / "asked, optional" flags);
* **information state** (``perfect_recall=True``): the string is everything the seat has
  seen, in order (``Table.information``: its view after the deal, each step's events as it saw
  them, its own decisions) — perfect recall, and equal exactly when the seat cannot
  tell two histories apart. The tensor is the observation tensor followed by the
  number of times the seat has taken each action (``own_actions``, one slot per action
  id): a fixed size cannot hold the unbounded histories of these games (President and
  Hood Politix play rounds until a score limit), so the tensor is a summary, not perfect
  recall; algorithms that need exact recall key on the string.

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
        g = game.engine_game
        self.encoder = encoder_for(g)
        size = self.encoder.size
        actions = g.num_actions + 1 if self.perfect_recall else 0
        self.tensor = np.zeros(size + actions, np.float32)
        self.dict = {"observation": self.tensor[:size]}
        if actions:
            self.dict["own_actions"] = self.tensor[size:]

    def set_from(self, state: SpielState, player: int) -> None:
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
        self.dict["observation"][:] = obs
        if self.perfect_recall:
            counts = self.dict["own_actions"]
            for action in t.own_actions(player):
                counts[action] += 1.0

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
