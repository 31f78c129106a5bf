"""Reinforcement-learning environments for every registered game (``pip install '.[rl]'``).

* ``env(game, num_players=N, render_mode=None, **rule_options)`` — a PettingZoo AEC
  environment (``raw_env`` without the order-enforcing wrapper);
* ``SingleAgentEnv(game, ...)`` — a Gymnasium environment: the learner takes one
  seat, bots or policies the others (``selfplay`` for learned opponents); importing
  this package registers it as ``spieltisch/<game>-v0`` for ``gymnasium.make``;
* ``rlcard_env(game, ...)`` — the same games behind RLCard's environment interface.

See ``docs/rl.md``.
"""

from __future__ import annotations

from typing import Any

import gymnasium

from ..core.game import Game
from ..core.registry import game_names
from .aec import SpieltischAEC, env, raw_env
from .encoding import ViewEncoder, encoder_for
from .single import SingleAgentEnv


def rlcard_env(game: str | Game, num_players: int | None = None, seed: int | None = None,
               allow_step_back: bool = False, **kwargs: Any) -> Any:
    """The game as an RLCard environment (``rlcard_adapter.py``; needs the ``rlcard``
    extra): ``observation="auto"|"view"`` and rule options as keywords."""
    from .rlcard_adapter import SpieltischRLCardEnv

    return SpieltischRLCardEnv(game, num_players=num_players, seed=seed,
                               allow_step_back=allow_step_back, **kwargs)


def register_gymnasium() -> list[str]:
    """Register every game as ``spieltisch/<game>-v0`` (done on import; idempotent).

    ``gymnasium.make("spieltisch/hockey-v0", opponents="heuristic", seat=None)``: the
    keywords are ``SingleAgentEnv``'s (``num_players``, ``opponents``, rule options …).
    """
    ids = []
    for name in game_names():
        env_id = f"spieltisch/{name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point="spieltisch.rl.single:SingleAgentEnv",
                               kwargs={"game": name})
        ids.append(env_id)
    return ids


register_gymnasium()

__all__ = ["SingleAgentEnv", "SpieltischAEC", "ViewEncoder", "encoder_for", "env", "raw_env",
           "register_gymnasium", "rlcard_env"]
