"""A Gymnasium single-agent view of any game: the learner holds one seat, opponents the rest.

``SingleAgentEnv("president", num_players=5, opponents="random")`` — an opponent is a
bot spec for ``spieltisch.bots.make_bot`` (``random``, ``heuristic``, ``ismcts`` …) or a
policy: any callable ``(observation, action_mask) -> action`` over the environment's
own spaces (``observation`` is what the learner gets in that seat: the dict of the
vector and the mask), such as a frozen copy of the learner (``spieltisch.rl.selfplay``). One
opponent for all other seats, or a list (or a comma-separated string of specs) with one
per other seat in seat order.
Observations, actions (including ``DECLINE``) and the polling order are those of
the AEC environment (``spieltisch.rl.aec``); opponents act whenever the AEC
environment polls their seat (a bot ``act``s when the game waits for it and ``react``s
to an out-of-turn chance, where ``None`` declines; a policy gets the seat's observation
and mask). The reward is the learner's ``state.returns()`` entry at the end, 0 before,
plus the optional shaping below.

**Reward shaping** (``shaping=k``, off by default): potential-based (Ng, Harada &
Russell 1999), so the optimal policy stays the same. The potential of a state is
``k × (the learner's standing − the mean standing of the others)`` (``State.standing``:
goals in Hockey, points in President, …) and 0 once the game is over; each learner step
gets ``gamma × potential(after) − potential(before)``. Over an episode the shaping adds
up to ``-potential(start)`` (0 in every game: nobody has points at the deal), so it
moves credit earlier without changing what is best. ``gamma`` must be the learner's
discount factor.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np

from ..bots import Bot, expand_specs, make_bot
from ..bots.base import Observation
from ..core.game import Game, IllegalAction, State
from .aec import SpieltischAEC

#: A policy playing a seat: ``(observation, int8 action mask) -> action index``, where the
#: observation is the seat's, in the environment's observation space.
Policy = Callable[[dict[str, np.ndarray], np.ndarray], Any]
#: A bot spec (``"heuristic"``) or a policy.
Opponent = str | Policy


class SingleAgentEnv(gymnasium.Env):
    """One seat for the learner, bots in the others.

    ``seat``: the learner's seat, or ``None`` for a seat drawn at every reset.
    ``opponents``: see the module docstring.
    ``illegal_action``: ``"raise"`` (an ``IllegalAction``), ``"random"`` (replaced by a
    uniformly drawn legal action, ``info["illegal"] = True``) or ``"lose"`` (the
    episode ends with reward -1).
    ``max_steps``: truncate after this many learner steps.
    ``shaping``, ``gamma``: the potential-based reward shaping of the module docstring.
    ``observation``: ``"auto"`` (the game's own observer) or ``"view"`` (``docs/rl.md``).
    """

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 4}

    def __init__(self, game: str | Game, num_players: int | None = None, seat: int | None = 0,
                 opponents: Opponent | Sequence[Opponent] = "random",
                 render_mode: str | None = None, illegal_action: str = "random",
                 max_steps: int | None = None, shaping: float = 0.0, gamma: float = 0.99,
                 observation: str = "auto", **rule_options: Any) -> None:
        if illegal_action not in ("raise", "random", "lose"):
            raise ValueError("illegal_action must be 'raise', 'random' or 'lose'")
        self.aec = SpieltischAEC(game, num_players=num_players, render_mode=render_mode,
                                 illegal_reward=None, observation=observation, **rule_options)
        self.game = self.aec.game
        n = self.game.num_players
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"seat must be in 0..{n - 1} or None")
        self.fixed_seat = seat
        self.seat = seat if seat is not None else 0
        #: One opponent per other seat, in seat order: a bot spec or a policy.
        self.opponents = self._expand(opponents, n - 1)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.max_steps = max_steps
        self.shaping = float(shaping)
        self.gamma = float(gamma)
        if self.shaping and self.game.new_state(seed=0).standing() is None:
            raise ValueError(f"{self.game.name} has no standing to shape the reward with")
        agent = self.aec.possible_agents[0]
        self.observation_space = self.aec.observation_space(agent)
        self.action_space = self.aec.action_space(agent)
        self.bots: dict[int, Bot | Policy] = {}
        self._rng = random.Random()
        self._steps = 0
        self._lost = False
        self._potential = 0.0

    def _expand(self, opponents: Opponent | Sequence[Opponent], seats: int) -> list[Opponent]:
        """One opponent per other seat; bot specs are checked now (unknown names fail)."""
        if isinstance(opponents, str):
            out: list[Opponent] = list(expand_specs(opponents, seats))
        elif callable(opponents):
            out = [opponents] * seats
        else:
            out = list(opponents)
            if len(out) == 1:
                out *= seats
            if len(out) != seats:
                raise ValueError(f"{len(out)} opponents given for {seats} seats: "
                                 f"give one or {seats}")
        for o in out:
            if isinstance(o, str):
                make_bot(self.game, o, 0, 0)
            elif not callable(o):
                raise TypeError(f"an opponent is a bot spec or a callable policy, not {o!r}")
        return out

    def set_opponents(self, opponents: Opponent | Sequence[Opponent]) -> None:
        """Change the opponents; they play from the next ``reset``."""
        self.opponents = self._expand(opponents, self.game.num_players - 1)

    @property
    def agent(self) -> str:
        return self.aec.possible_agents[self.seat]

    def potential(self, state: State) -> float:
        """The shaping potential of ``state`` for the learner (module docstring)."""
        if not self.shaping or state.is_over():
            return 0.0
        standing = state.standing()
        assert standing is not None
        others = (sum(standing) - standing[self.seat]) / (len(standing) - 1)
        return self.shaping * (standing[self.seat] - others)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        draw = self.np_random.integers
        n = self.game.num_players
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(draw(n))
        self._rng = random.Random(int(draw(2**62)))
        self.aec.reset(seed=int(draw(2**62)))
        others = [s for s in range(n) if s != self.seat]
        self.bots = {}
        for s, opponent in zip(others, self.opponents, strict=True):
            seed = int(draw(2**62))  # drawn for policies too: bots' seeds stay put
            self.bots[s] = make_bot(self.game, opponent, s, seed) \
                if isinstance(opponent, str) else opponent
        self._steps = 0
        self._lost = False
        self._play_bots()
        assert self.aec.game_state is not None
        self._potential = self.potential(self.aec.game_state)
        return self.aec.observe(self.agent), {"seat": self.seat}

    def _done(self) -> bool:
        a = self.agent
        return self._lost or self.aec.terminations.get(a, True) or self.aec.truncations.get(a, True)

    def _play_bots(self) -> None:
        """Let the opponents act until the learner is polled or the game is over."""
        aec = self.aec
        learner = self.agent
        while not self._done() and aec.agent_selection != learner:
            seat = aec._poll_seat
            assert aec.game_state is not None
            bot = self.bots[seat]
            if not isinstance(bot, Bot):
                agent = aec.agent_selection
                mask = aec.action_mask(agent)
                choice = int(bot(aec.observe(agent), mask))
                if not (0 <= choice < len(mask) and mask[choice]):
                    raise IllegalAction(f"the opponent policy at seat {seat} chose action "
                                        f"{choice}, which its mask does not allow", seat, choice)
                aec.step(choice)
                continue
            obs = Observation(aec.game_state, seat, required=aec.polled_required)
            if aec.polled_required:
                action = bot.act(obs)
                if action is None:
                    aec.pass_time()
                    continue
            else:
                action = bot.react(obs)
                if action is None:
                    action = aec.DECLINE
            aec.step_judged(action)  # a bot's slip is judged, as at a table

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
        if self.shaping:
            assert aec.game_state is not None
            after = self.potential(aec.game_state)
            reward += self.gamma * after - self._potential
            self._potential = after
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


__all__ = ["Opponent", "Policy", "SingleAgentEnv"]
