"""PettingZoo AEC environments for every registered game (one generic implementation).

``env("president", num_players=5)`` — see ``docs/rl.md`` for the observation, the
reward scheme and how out-of-turn windows become AEC turns. In short:

* agents ``player_0 … player_{n-1}`` are the seats;
* observation = ``{"observation": float32 vector of the seat's view,
  "action_mask": int8 vector}`` over ``game.num_actions + 1`` actions: the game's
  actions plus ``DECLINE = game.num_actions`` ("let it pass"), legal only when the
  seat is polled for an optional (out-of-turn) action;
* polling order at each state: optional seats first (those in ``out_of_turn()``
  with legal actions, not waited for, not yet declined since the state last
  changed) in seat order starting at ``move_number % n``; then the seats the game
  waits for (``to_act()``) in seat order; when nobody is left, the earliest
  deadline is applied (as ``runner.step`` does) without an agent step;
* rewards are 0 until the game ends, then ``state.returns()``;
* ``state()`` is the global state for centralised critics: every seat's observation
  side by side (``state_space``); the engine's state is ``env.game_state``.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from ..core.game import Game, IllegalAction, State
from ..core.registry import get_spec
from ..narration import board
from .encoding import IncrementalEncoder, StateEncoder, ViewEncoder, encoder_for
from .polling import first_deadline, next_poll

#: The mask's dtype as an instance (see ``encoding.F32``: positional, it is cheaper).
I8 = np.dtype(np.int8)


class SpieltischAEC(AECEnv):
    """The raw AEC environment of one configured game (use ``env()`` for the wrapped one)."""

    # render_fps: how often "human" mode may print (a text picture per step).
    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "name": "spieltisch_v0",
                                "is_parallelizable": False, "render_fps": 4}

    def __init__(self, game: str | Game, num_players: int | None = None,
                 render_mode: str | None = None, illegal_reward: float | None = -1.0,
                 max_cycles: int | None = None, observation: str = "auto",
                 **rule_options: Any) -> None:
        super().__init__()
        if isinstance(game, Game):
            if rule_options or (num_players is not None and num_players != game.num_players):
                raise ValueError("pass either a configured Game or a name with options")
            self.game = game
        else:
            self.game = get_spec(game).configure(num_players, rule_options)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.illegal_reward = illegal_reward
        self.max_cycles = max_cycles
        g = self.game
        n = g.num_players
        self.metadata = dict(self.metadata, name=f"spieltisch_{g.name}_v0")
        self.num_game_actions = g.num_actions
        #: The extra action "decline / let it pass", legal only for optional polls.
        self.DECLINE = g.num_actions
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self._seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        #: The game's own observer where it has one, else the generic view encoding
        #: (``observation="view"`` forces the latter; see docs/rl.md).
        self.encoder: ViewEncoder | StateEncoder = encoder_for(g, observation)
        self._from_state = isinstance(self.encoder, StateEncoder)
        self._inc = None if isinstance(self.encoder, StateEncoder) \
            else IncrementalEncoder(self.encoder)
        obs_box = gymnasium.spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32)
        mask_box = gymnasium.spaces.Box(0, 1, (g.num_actions + 1,), dtype=np.int8)
        self.observation_spaces = {
            a: gymnasium.spaces.Dict({"observation": obs_box, "action_mask": mask_box})
            for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(g.num_actions + 1)
                              for a in self.possible_agents}
        #: ``state()``: the observations of all seats, seat 0 first.
        self.state_space = gymnasium.spaces.Box(np.tile(self.encoder.low, n),
                                                np.tile(self.encoder.high, n), dtype=np.float32)
        self._no_actions = np.zeros(g.num_actions + 1, dtype=np.int8)  # unpolled agents
        self._rng = random.Random()
        #: The engine's state of the current episode (``spieltisch.core.State``).
        self.game_state: State | None = None
        #: Counters of the current episode: agent steps, decline steps, deadlines applied.
        self.counts = {"steps": 0, "declines": 0, "deadlines": 0}

    # -- spaces ---------------------------------------------------------------------
    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    def __str__(self) -> str:
        return self.metadata["name"]

    # -- episode --------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        game_seed = self._rng.getrandbits(63)
        self.game_state = self.game.new_state(seed=game_seed)
        # Nothing here reads the events ``apply`` returns: games may skip building them.
        self.game_state.record_events = False
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.counts = {"steps": 0, "declines": 0, "deadlines": 0}
        self._rewards_dirty = False  # some entry of self.rewards is not 0
        self._declined: set[int] = set()
        self._declined_at = -1
        self._obs_key: tuple[int, ...] | None = None
        self._obs: dict[str, np.ndarray] | None = None
        self.agent_selection = self.agents[0]
        self._advance()
        if self.render_mode == "human":
            self.render()

    def _advance(self) -> None:
        """Select the next seat to poll (``polling.next_poll``); apply deadlines when nobody
        is left to ask."""
        st = self.game_state
        assert st is not None
        while not st.is_over():
            m = st.move_number
            if m != self._declined_at:
                self._declined_at = m
                if self._declined:
                    self._declined = set()
            poll = next_poll(st, self._declined)
            if poll is not None:
                self._poll_seat, self._poll_required = poll
                self.agent_selection = self.possible_agents[poll[0]]
                return
            first = first_deadline(st)
            st.apply_trusted(first.seat, first.action)  # a running deadline's
            self.counts["deadlines"] += 1
        self._finish(st.returns())

    def _finish(self, rewards: list[float], truncated: bool = False) -> None:
        """The episode ended: every agent is done and steps once more with ``None``."""
        self._poll_seat, self._poll_required = -1, False
        self._rewards_dirty = True
        for a in self.agents:
            self.rewards[a] = float(rewards[self._seat_of[a]])
            if truncated:
                self.truncations[a] = True
            else:
                self.terminations[a] = True
        st = self.game_state
        if st is not None and st.is_over():
            result = st.result().to_json()
            for a in self.agents:
                self.infos[a] = {"result": result, **self.counts}
        if self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.game_state
        assert st is not None
        seat = self._poll_seat
        if action is None:
            raise ValueError(f"{agent} must act (None is only for agents that are done)")
        a = int(action)
        self._moving(agent)
        counts = self.counts
        if a == self.DECLINE and not self._poll_required:
            self._declined.add(seat)
            counts["declines"] += 1
        elif 0 <= a < self.DECLINE and a in st.legal_actions(seat):
            st.apply_trusted(seat, a)  # listed by this very state: no second check
        else:
            self._illegal(agent, seat, a)
            return
        self._moved()

    def step_judged(self, action: int) -> None:
        """The polled seat's ``action`` as a table takes a bot's move: a listed one as
        ``step``, an attempt outside the list judged by the game (a slip gets its
        penalty; ``IllegalAction`` where the game refuses it). For opponents that are
        bots, which slip as players do; a learner's actions go through ``step``."""
        st = self.game_state
        assert st is not None
        seat = self._poll_seat
        if action == self.DECLINE or action in st.legal_actions(seat):
            self.step(action)
            return
        st.apply(seat, action)
        self._moving(self.agent_selection)
        self._moved()

    def _moving(self, agent: str) -> None:
        """Before a move: a step counted, the last step's rewards cleared."""
        self._cumulative_rewards[agent] = 0.0
        if self._rewards_dirty:  # rewards are 0 except at the end: no per-step dict loops
            self._clear_rewards()
            self._rewards_dirty = False
        self.counts["steps"] += 1

    def _moved(self) -> None:
        """After a move: the step limit, the next seat to poll, the rewards."""
        counts = self.counts
        if self.max_cycles is not None and \
                counts["steps"] >= self.max_cycles * self.game.num_players:
            self._finish([0.0] * self.game.num_players, truncated=True)
        else:
            self._advance()
        if self._rewards_dirty:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _illegal(self, agent: str, seat: int, action: int) -> None:
        what = "decline" if action == self.DECLINE else (
            self.game.describe_action(action) if 0 <= action < self.DECLINE else str(action))
        reason = f"{agent} (seat {seat}) may not {what} now"
        if self.illegal_reward is None:
            raise IllegalAction(reason, seat, action)
        # As PettingZoo's TerminateIllegalWrapper: the offender gets illegal_reward, others 0.
        rewards = [0.0] * self.game.num_players
        rewards[seat] = float(self.illegal_reward)
        self._finish(rewards)
        for a in self.agents:
            self.infos[a] = {"illegal_action": reason}
        self._accumulate_rewards()

    # -- observations ---------------------------------------------------------------
    def action_mask(self, agent: str) -> np.ndarray:
        seat = self._seat_of[agent]
        if seat != self._poll_seat or self.game_state is None:
            return self._no_actions.copy()
        # Legal lists are short (2–30 actions), the space long (up to ~5,600): setting
        # bytes one by one in a fresh bytearray beats numpy's list conversion for ``put``.
        mask = bytearray(self.DECLINE + 1)
        for a in self.game_state.legal_actions(seat):
            mask[a] = 1
        if not self._poll_required:
            mask[self.DECLINE] = 1
        return np.frombuffer(mask, I8)  # writable, owns its fresh buffer

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        st = self.game_state
        assert st is not None
        seat = self._seat_of[agent]
        key = (seat, self.counts["steps"], st.move_number, self._poll_seat)
        if key == self._obs_key and self._obs is not None:
            return self._obs
        polled = seat == self._poll_seat
        required, optional = polled and self._poll_required, polled and not self._poll_required
        if self._from_state:
            obs = self.encoder.encode_state(st, seat, required, optional)  # type: ignore[union-attr]
        else:
            obs = self._inc.encode(st.view(seat), seat, required, optional)  # type: ignore[union-attr]
        self._obs = {"observation": obs, "action_mask": self.action_mask(agent)}
        self._obs_key = key
        return self._obs

    def state(self) -> np.ndarray:
        """The global state (PettingZoo's ``state()``, for centralised critics and MAPPO):
        every seat's observation vector, seat 0 first, each with its own header (the
        polled seat's "required"/"optional" flag set as in its observation). It holds
        all hands but not what no seat sees (the order of a draw pile)."""
        st = self.game_state
        if st is None:
            raise RuntimeError("state() called before reset()")
        parts = []
        for seat in range(self.game.num_players):
            polled = seat == self._poll_seat
            required, optional = polled and self._poll_required, polled and not self._poll_required
            if self._from_state:
                parts.append(self.encoder.encode_state(st, seat, required, optional))  # type: ignore[union-attr]
            else:
                parts.append(self.encoder.encode(st.view(seat), seat, required, optional))  # type: ignore[union-attr]
        return np.concatenate(parts)

    @property
    def polled_required(self) -> bool:
        """True when the selected agent is one the game waits for (no decline)."""
        return self._poll_required

    def pass_time(self) -> None:
        """Let the earliest deadline pass now (for bots that let time pass)."""
        st = self.game_state
        assert st is not None
        first = first_deadline(st)
        st.apply_trusted(first.seat, first.action)  # a running deadline's
        self.counts["deadlines"] += 1
        self._advance()
        if self._rewards_dirty:
            self._accumulate_rewards()

    # -- rendering ------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        st = self.game_state
        if st is None:
            text = "(not reset)"
        else:
            seat = self._poll_seat if self._poll_seat >= 0 and not st.is_over() else None
            header = f"move {st.move_number}: " + (
                "game over" if st.is_over() else
                f"polling player_{seat} ({'required' if self._poll_required else 'optional'})")
            # the terminal's picture (the game's narrator), in English, seats by number
            text = header + "\n" + board(self.game, st.view(seat), (), "en", seat)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass


def raw_env(game: str | Game, num_players: int | None = None, render_mode: str | None = None,
            **kwargs: Any) -> SpieltischAEC:
    """The unwrapped AEC environment (``illegal_reward``, ``max_cycles``,
    ``observation="auto"|"view"``, rule options)."""
    return SpieltischAEC(game, num_players=num_players, render_mode=render_mode, **kwargs)


class _OrderEnforcing(OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` with direct paths for the per-step calls.

    Same checks and behaviour; once reset, ``agents``/``agent_selection`` and ``last``,
    ``observe``, ``step`` go to the raw environment without the wrapper's generic
    ``__getattr__`` chain (which costs more than a whole step of a small game)."""

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self.env.agents

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.agent_selection

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            return super().last(observe)
        return self.env.last(observe)

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            return super().observe(agent)
        return self.env.observe(agent)

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)


def env(game: str | Game, num_players: int | None = None, render_mode: str | None = None,
        **kwargs: Any) -> OrderEnforcingWrapper:
    """The AEC environment wrapped as PettingZoo's classic games are (order enforcing)."""
    return _OrderEnforcing(raw_env(game, num_players, render_mode, **kwargs))


__all__ = ["SpieltischAEC", "env", "raw_env"]
