"""A Gymnasium single-agent view of any game: the learner holds one seat, bots the rest.

``SingleAgentEnv("president", num_players=5, opponents="random")`` — the other seats
are filled by ``spieltisch.bots.make_bot`` (``random``, ``heuristic``, ``ismcts`` …,
one spec for all or a comma-separated list for the other seats in seat order).
Observations, actions (including ``DECLINE``) and the polling order are those of
the AEC environment (``spieltisch.rl.aec``); the bots act whenever the AEC
environment polls their seat (``act`` when the game waits for them, ``react`` for
an out-of-turn chance, where ``None`` declines). The reward is the learner's
``state.returns()`` entry at the end, 0 before.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np

from ..bots import Bot, expand_specs, make_bot
from ..bots.base import Observation
from ..core.game import Game, IllegalAction
from .aec import SpieltischAEC


class SingleAgentEnv(gymnasium.Env):
    """One seat for the learner, bots in the others.

    ``seat``: the learner's seat, or ``None`` for a seat drawn at every reset.
    ``illegal_action``: ``"raise"`` (an ``IllegalAction``), ``"random"`` (replaced by a
    uniformly drawn legal action, ``info["illegal"] = True``) or ``"lose"`` (the
    episode ends with reward -1).
    ``max_steps``: truncate after this many learner steps.
    """

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(self, game: str | Game, num_players: int | None = None, seat: int | None = 0,
                 opponents: str = "random", render_mode: str | None = None,
                 illegal_action: str = "random", max_steps: int | None = None,
                 **rule_options: Any) -> None:
        if illegal_action not in ("raise", "random", "lose"):
            raise ValueError("illegal_action must be 'raise', 'random' or 'lose'")
        self.aec = SpieltischAEC(game, num_players=num_players, render_mode=render_mode,
                                 illegal_reward=None, **rule_options)
        self.game = self.aec.game
        n = self.game.num_players
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"seat must be in 0..{n - 1} or None")
        self.fixed_seat = seat
        self.seat = seat if seat is not None else 0
        self.opponent_specs = expand_specs(opponents, n - 1)
        # Fail early on unknown bot names.
        for spec in set(self.opponent_specs):
            make_bot(self.game, spec, 0, 0)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.max_steps = max_steps
        agent = self.aec.possible_agents[0]
        self.observation_space = self.aec.observation_space(agent)
        self.action_space = self.aec.action_space(agent)
        self.bots: dict[int, Bot] = {}
        self._rng = random.Random()
        self._steps = 0
        self._lost = False

    @property
    def agent(self) -> str:
        return self.aec.possible_agents[self.seat]

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        draw = self.np_random.integers
        n = self.game.num_players
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(draw(n))
        self._rng = random.Random(int(draw(2**62)))
        self.aec.reset(seed=int(draw(2**62)))
        others = [s for s in range(n) if s != self.seat]
        self.bots = {s: make_bot(self.game, spec, s, int(draw(2**62)))
                     for s, spec in zip(others, self.opponent_specs, strict=True)}
        self._steps = 0
        self._lost = False
        self._play_bots()
        return self.aec.observe(self.agent), {"seat": self.seat}

    def _done(self) -> bool:
        a = self.agent
        return self._lost or self.aec.terminations.get(a, True) or self.aec.truncations.get(a, True)

    def _play_bots(self) -> None:
        """Let the bots act until the learner is polled or the game is over."""
        aec = self.aec
        learner = self.agent
        while not self._done() and aec.agent_selection != learner:
            seat = aec._poll_seat
            assert aec.state is not None
            obs = Observation(aec.state, seat, required=aec.polled_required)
            bot = self.bots[seat]
            if aec.polled_required:
                action = bot.act(obs)
                if action is None:
                    aec.pass_time()
                    continue
            else:
                action = bot.react(obs)
                if action is None:
                    action = aec.DECLINE
            aec.step(action)

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool,
                                         dict[str, Any]]:
        aec = self.aec
        if self._done():
            raise RuntimeError("the episode is over: call reset()")
        info: dict[str, Any] = {}
        a = int(action)
        mask = aec.action_mask(self.agent)
        if not (0 <= a < len(mask) and mask[a]):
            if self.illegal_action == "raise":
                raise IllegalAction(f"action {a} is not legal now", self.seat, a)
            info["illegal"] = True
            if self.illegal_action == "lose":
                self._lost = True
                obs = aec.observe(self.agent)
                return obs, -1.0, True, False, info
            a = self._rng.choice(np.flatnonzero(mask).tolist())
        aec.step(a)
        self._steps += 1
        self._play_bots()
        learner = self.agent
        reward = float(aec._cumulative_rewards.get(learner, 0.0))
        aec._cumulative_rewards[learner] = 0.0
        terminated = aec.terminations.get(learner, False)
        truncated = aec.truncations.get(learner, False)
        if not terminated and self.max_steps is not None and self._steps >= self.max_steps:
            truncated = True
        if terminated or truncated:
            info.update(aec.infos.get(learner, {}))
        return aec.observe(learner), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal-action mask as booleans (the name sb3-contrib's MaskablePPO uses)."""
        return self.aec.action_mask(self.agent).astype(bool)

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


__all__ = ["SingleAgentEnv"]
