"""A learned policy at the table: the bot spec ``policy:PATH``.

``PATH`` is a policy file (``spieltisch.rl.policy_file``: an MLP over the game's RL
observation, saved as ``.npz``), played with numpy alone; ``examples/train_league.py``
makes one with MaskablePPO (``docs/rl.md``). Everything after ``policy:`` is the path.

The bot sees what its seat may see and nothing more: it encodes a determinisation of its
seat's view (``Observation.sample_state``: the unseen cards dealt afresh), never the true
state, so the observation cannot depend on where the hidden cards really are; the games'
observers are tested to give equal observations for equal views. It then plays the legal
action with the largest logit (ties: the lowest action), so it is deterministic: the same
view gives the same action whatever the seed. ``policy-sample:PATH`` draws from the
softmax of the legal logits instead, with the bot's seeded generator (same seed, same
moves). Out of turn it may decline (``DECLINE``, the environment's extra action), as the
learner could in training.

Loaded files are cached per path and modification time (a table of several policy seats
reads the file once).
"""

from __future__ import annotations

import os
from typing import Any

from ..core.game import ConfigError, Game
from .base import Bot, Observation

#: (path, mtime) -> the loaded network
_CACHE: dict[tuple[str, float], Any] = {}


def load_policy(path: str) -> Any:
    """The ``PolicyNet`` of a policy file (cached), or ``ConfigError`` naming the problem
    (also when numpy or the ``rl`` extra is missing)."""
    try:
        from ..rl import policy_file
    except ImportError as e:
        raise ConfigError(f"policy bots need the 'rl' extra (pip install "
                          f"'spieltisch[rl]'): {e}") from None
    try:
        key = (os.path.abspath(path), os.path.getmtime(path))
    except OSError:
        return policy_file.load(path)  # names the problem (not found, not a file)
    net = _CACHE.get(key)
    if net is None:
        net = policy_file.load(path)
        _CACHE[key] = net
    return net


class PolicyBot(Bot):
    """Plays a policy file's most likely legal action for its seat's observation (or
    draws one: ``sample``)."""

    name = "policy"

    def __init__(self, game: Game, seat: int, seed: int | None = None, path: str = "",
                 sample: bool = False, **params: Any) -> None:
        super().__init__(game, seat, seed, **params)
        #: draw from the policy's distribution (softmax of the legal logits) with the
        #: bot's seeded generator, instead of its most likely action
        self.sample = sample
        if not path:
            raise ConfigError("the policy bot needs a file: policy:PATH")
        self.path = path
        self.net = load_policy(path)
        self.encoder = self.net.check_game(game, f"policy file {path!r}")
        self.decline = game.num_actions

    def _choose(self, obs: Observation, required: bool) -> int | None:
        import numpy as np

        legal = obs.legal_actions()
        if not legal:
            return None
        if required and len(legal) == 1:
            return legal[0]
        # a determinisation of the seat's view: the true state's hidden cards never reach
        # the network (module docstring)
        state = obs.sample_state(self.rng)
        if hasattr(self.encoder, "encode_state"):
            x = self.encoder.encode_state(state, self.seat, required, not required)
        else:
            x = self.encoder.encode(state.view(self.seat), self.seat, required, not required)
        mask = np.zeros(self.decline + 1, dtype=np.int8)
        mask[legal] = 1
        if not required:
            mask[self.decline] = 1
        if self.sample:
            logits = self.net.logits(x)[mask.astype(bool)]
            p = np.exp(logits - logits.max())
            options = np.flatnonzero(mask)
            action = int(options[self._draw(p / p.sum())])
        else:
            action = self.net.choose(x, mask)
        return None if action == self.decline else action

    def _draw(self, p: Any) -> int:
        """An index drawn with probabilities ``p`` by the bot's seeded generator."""
        u = self.rng.random()
        acc = 0.0
        for i, q in enumerate(p.tolist()):
            acc += q
            if u < acc:
                return i
        return len(p) - 1

    def act(self, obs: Observation) -> int | None:
        return self._choose(obs, True)

    def react(self, obs: Observation) -> int | None:
        return self._choose(obs, False)


__all__ = ["PolicyBot", "load_policy"]
