"""Learned policies as opponents: saved ones, and the learner itself (self-play).

``SingleAgentEnv`` takes any callable ``(observation, action_mask) -> action`` as an
opponent. ``PolicyOpponent`` makes one from a Stable-Baselines3 policy (sb3-contrib's
``MaskablePPO`` or anything with the same ``predict``):

```python
from sb3_contrib import MaskablePPO
from spieltisch.rl import SingleAgentEnv
from spieltisch.rl.selfplay import PolicyOpponent, self_play_callback

saved = PolicyOpponent.load("hockey.zip")             # a saved policy
env = SingleAgentEnv("hockey", seat=None, opponents="random")
model = MaskablePPO("MultiInputPolicy", env)
me = PolicyOpponent.frozen(model)                      # a frozen copy of the learner
env.set_opponents(me)                                  # plays from the next reset
model.learn(100_000, callback=self_play_callback(me, every=10_000))
```

The frozen copy's weights are replaced by the learner's every ``every`` steps. The
opponent is called in the environment's own process, so use ``DummyVecEnv`` (the
default for one environment), not ``SubprocVecEnv``, for self-play. Needs the
``rl-train`` extra (sb3-contrib, torch).
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np


class PolicyOpponent:
    """An SB3 policy playing a seat: ``(observation, action_mask) -> action``."""

    def __init__(self, policy: Any, deterministic: bool = False) -> None:
        #: Anything with SB3's ``predict(observation, action_masks=..., deterministic=...)``.
        self.policy = policy
        self.deterministic = deterministic

    def __call__(self, observation: dict[str, np.ndarray], action_mask: np.ndarray) -> int:
        action, _ = self.policy.predict(observation, action_masks=action_mask.astype(bool),
                                        deterministic=self.deterministic)
        return int(action)

    @classmethod
    def load(cls, path: str, deterministic: bool = False) -> PolicyOpponent:
        """A policy saved with ``MaskablePPO.save(path)``."""
        from sb3_contrib import MaskablePPO

        return cls(MaskablePPO.load(path, device="cpu").policy, deterministic)

    @classmethod
    def frozen(cls, model: Any, deterministic: bool = False) -> PolicyOpponent:
        """A copy of ``model``'s policy as it is now (later learning does not change it)."""
        return cls(copy.deepcopy(model.policy), deterministic)

    def update(self, model: Any) -> None:
        """Take ``model``'s current weights."""
        self.policy.load_state_dict(model.policy.state_dict())


def self_play_callback(opponent: PolicyOpponent, every: int) -> Any:
    """An SB3 callback that copies the learner's weights into ``opponent`` every
    ``every`` environment steps."""
    from stable_baselines3.common.callbacks import BaseCallback

    class SelfPlay(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.last = 0

        def _on_step(self) -> bool:
            if self.num_timesteps - self.last >= every:
                self.last = self.num_timesteps
                opponent.update(self.model)
            return True

    return SelfPlay()


__all__ = ["PolicyOpponent", "self_play_callback"]
