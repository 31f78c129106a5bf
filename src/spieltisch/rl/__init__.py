"""Reinforcement-learning environments for every registered game (``pip install '.[rl]'``).

* ``env(game, num_players=N, render_mode=None, **rule_options)`` — a PettingZoo AEC
  environment (``raw_env`` without the order-enforcing wrapper);
* ``SingleAgentEnv(game, ...)`` — a Gymnasium environment: the learner takes one
  seat, bots from ``spieltisch.bots`` the others.

See ``docs/rl.md``.
"""

from __future__ import annotations

from .aec import SpieltischAEC, env, raw_env
from .encoding import ViewEncoder, encoder_for
from .single import SingleAgentEnv

__all__ = ["SingleAgentEnv", "SpieltischAEC", "ViewEncoder", "encoder_for", "env", "raw_env"]
