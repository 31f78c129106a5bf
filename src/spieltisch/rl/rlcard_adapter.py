"""Every game behind RLCard's environment interface (``pip install '.[rlcard]'``).

``spieltisch.rl.rlcard_env("hockey")`` is an ``rlcard.envs.Env``: ``reset``, ``step``,
``step_back``, ``run`` with ``set_agents``, ``get_state``, ``get_payoffs``,
``num_players``, ``num_actions``, ``state_shape`` — so RLCard's agents (random, DQN,
NFSP, DMC) run on it unchanged. The pieces are those of the PettingZoo environment:

* the seat asked next follows the polling order (``polling.py``), so out-of-turn
  windows become turns; ``num_actions`` is the game's actions plus ``DECLINE`` (the
  last index: "let it pass"), legal only when a seat is asked for an optional action;
* ``state["obs"]`` is the seat's observation vector (the game's observer, as in the
  PettingZoo environment), ``state["legal_actions"]`` an ordered dict of the legal action
  ids, ``state["raw_obs"]`` the seat's JSON view and ``state["raw_legal_actions"]`` the
  actions' text forms (``"play 7H"``, ``"decline"``);
* the payoffs are ``state.returns()`` (+1 for the winner, -1 for the others, 0 on a tie).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np
from rlcard.envs import Env

from ..core.game import Game, IllegalAction, State
from ..core.registry import get_spec
from .encoding import StateEncoder, encoder_for
from .polling import first_deadline, next_poll


class _Table:
    """RLCard's "game" object (what ``rlcard.envs.Env`` drives) over a spieltisch state:
    deals with the env's generator, asks seats in the polling order, steps back."""

    def __init__(self, game: Game, observation: str) -> None:
        self.game = game
        self.encoder = encoder_for(game, observation)
        self.decline = game.num_actions
        self.allow_step_back = False
        self.np_random: np.random.RandomState | None = None  # set by ``Env.seed``
        self.state: State | None = None
        self.declined: set[int] = set()
        self.poll: tuple[int, bool] | None = None
        #: For ``step_back``: (state, declined) before each step.
        self.history: list[tuple[State, set[int]]] = []

    # -- the interface ``rlcard.envs.Env`` uses ---------------------------------------------
    def get_num_players(self) -> int:
        return self.game.num_players

    def get_num_actions(self) -> int:
        return self.game.num_actions + 1

    def init_game(self) -> tuple[dict[str, Any], int]:
        assert self.np_random is not None
        self.state = self.game.new_state(seed=int(self.np_random.randint(2**31)))
        self.declined = set()
        self.history = []
        self._advance()
        seat = self.get_player_id()
        return self.get_state(seat), seat

    def step(self, action: int | str) -> tuple[dict[str, Any], int]:
        """Apply an action id, or its text form (agents with ``use_raw``)."""
        st = self.state
        assert st is not None and self.poll is not None
        seat, required = self.poll
        if isinstance(action, str):
            action = self.decline if action == "decline" else self.game.action_from_json(action)
        if self.allow_step_back:
            self.history.append((st.clone(), set(self.declined)))
        if action == self.decline and not required:
            self.declined.add(seat)
        elif action in st.legal_actions(seat):
            st.apply(seat, action)
            self.declined = set()
        else:
            raise IllegalAction(f"seat {seat} may not take action {action} now", seat, action)
        self._advance()
        nxt = self.get_player_id()
        return self.get_state(nxt), nxt

    def step_back(self) -> bool:
        if not self.history:
            return False
        self.state, self.declined = self.history.pop()
        self._advance()
        return True

    def get_player_id(self) -> int:
        """The seat asked now; at the end, the last one asked (RLCard reads it there too)."""
        return self.poll[0] if self.poll is not None else 0

    def is_over(self) -> bool:
        return self.state is not None and self.state.is_over()

    def get_state(self, seat: int) -> dict[str, Any]:
        """The raw state: the seat's view and legal actions (``Env._extract_state`` adds
        the observation)."""
        st = self.state
        assert st is not None
        asked = self.poll is not None and self.poll[0] == seat and not st.is_over()
        required = asked and self.poll[1]  # type: ignore[index]
        legal = list(st.legal_actions(seat)) if asked else []
        if asked and not required:
            legal.append(self.decline)
        return {"seat": seat, "view": st.view(seat), "legal": legal,
                "required": required, "optional": asked and not required}

    # -- helpers ----------------------------------------------------------------------------
    def _advance(self) -> None:
        """Find the seat to ask; apply deadlines while nobody is left (``polling.py``)."""
        st = self.state
        assert st is not None
        while not st.is_over():
            poll = next_poll(st, self.declined)
            if poll is not None:
                self.poll = poll
                return
            first = first_deadline(st)
            st.apply(first.seat, first.action)
            self.declined = set()

    def observe(self, raw: dict[str, Any]) -> np.ndarray:
        st = self.state
        assert st is not None
        seat, required, optional = raw["seat"], raw["required"], raw["optional"]
        if isinstance(self.encoder, StateEncoder):
            return self.encoder.encode_state(st, seat, required, optional)
        return self.encoder.encode(raw["view"], seat, required, optional)


class SpieltischRLCardEnv(Env):
    """A configured game as an RLCard environment (see the module docstring)."""

    def __init__(self, game: str | Game, num_players: int | None = None, seed: int | None = None,
                 allow_step_back: bool = False, observation: str = "auto",
                 **rule_options: Any) -> None:
        if not isinstance(game, Game):
            game = get_spec(game).configure(num_players, rule_options)
        self.name = f"spieltisch-{game.name}"
        self.game = _Table(game, observation)
        super().__init__({"seed": seed, "allow_step_back": allow_step_back})
        size = self.game.encoder.size
        self.state_shape = [[size] for _ in range(self.num_players)]
        self.action_shape = [None for _ in range(self.num_players)]

    def _extract_state(self, raw: dict[str, Any]) -> dict[str, Any]:
        table = self.game
        return {
            "obs": table.observe(raw),
            "legal_actions": OrderedDict((a, None) for a in raw["legal"]),
            "raw_obs": raw["view"],
            "raw_legal_actions": [self._action_text(a) for a in raw["legal"]],
            "action_record": self.action_recorder,
        }

    def _action_text(self, action: int) -> str:
        if action == self.game.decline:
            return "decline"
        return str(self.game.game.action_to_json(action))

    def _decode_action(self, action_id: int) -> int:
        return int(action_id)

    def _get_legal_actions(self) -> list[int]:
        return self.game.get_state(self.get_player_id())["legal"]

    def get_payoffs(self) -> np.ndarray:
        st = self.game.state
        assert st is not None and st.is_over()
        return np.array(st.returns(), dtype=np.float64)

    def get_perfect_information(self) -> dict[str, Any]:
        st = self.game.state
        assert st is not None
        return st.full_view()


__all__ = ["SpieltischRLCardEnv"]
