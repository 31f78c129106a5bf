"""What a bot sees and does.

A bot never holds the state: it receives an ``Observation`` for its seat, which
offers the seat's view, its legal actions and determinisation (a sampled state
consistent with the view, for search). Oracle bots would need more; none exist.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, cast

from ..core.game import Check, Deadline, Game, State


class Observation:
    """One seat's window on a state."""

    __slots__ = ("_state", "seat", "required", "_view")

    def __init__(self, state: State[Any], seat: int, required: bool = True) -> None:
        self._state = state
        self.seat = seat
        #: True when the game waits for this seat; False for an out-of-turn chance.
        self.required = required
        self._view: dict[str, Any] | None = None

    @property
    def game(self) -> Game:
        return cast(Game, self._state.game)

    @property
    def view(self) -> dict[str, Any]:
        if self._view is None:
            self._view = self._state.view(self.seat)
        return self._view

    def legal_actions(self) -> list[int]:
        return self._state.legal_actions(self.seat)

    def judge(self, action: int) -> Check:
        """The engine's judgement of this seat attempting ``action`` (``State.judge``)."""
        return self._state.judge(self.seat, action)

    def deadlines(self) -> Sequence[Deadline]:
        return self._state.deadlines()

    @property
    def move_number(self) -> int:
        return self._state.move_number

    def sample_state(self, rng: random.Random) -> State[Any]:
        """A determinisation: a full state consistent with this seat's view, for search
        (it does not record events: ``State.record_events``)."""
        state = self._state.determinise(self.seat, rng)
        state.record_events = False
        return state


def outlasts(mean: float, seconds: float) -> float:
    """The chance that a person's time, exponential with ``mean`` seconds, runs past a timer
    of ``seconds`` (0 when ``mean`` is 0: an instant bot never does)."""
    return math.exp(-seconds / mean) if mean > 0 else 0.0


class Bot:
    """Base bot. ``act`` must return a legal action; ``react`` may decline (None)."""

    name = "bot"
    #: Tuning parameters read from ``params`` (besides the keywords ``__init__`` names):
    #: a spec's other ``key=value`` words are refused by ``make_bot``.
    tuning: tuple[str, ...] = ()
    #: Parameters that take a person's slips out of the bot (forgetting, lateness), so it
    #: plays as well as it can: a search asks a bot made with them for its hint.
    careful: ClassVar[Mapping[str, Any]] = {}

    def __init__(self, game: Game, seat: int, seed: int | None = None, **params: Any) -> None:
        self.game = game
        self.seat = seat
        self.rng = random.Random(seed)
        self.params = params

    def act(self, obs: Observation) -> int | None:
        """The game waits for this seat. ``None`` lets time pass (a slow player)."""
        raise NotImplementedError

    def react(self, obs: Observation) -> int | None:
        """An out-of-turn chance (throw-in, accusation). ``None`` declines."""
        return None


class RandomBot(Bot):
    """Uniform over legal actions; out of turn it acts with probability ``react_p``."""

    name = "random"

    def __init__(self, game: Game, seat: int, seed: int | None = None,
                 react_p: float = 0.1, **params: Any) -> None:
        super().__init__(game, seat, seed, **params)
        self.react_p = float(react_p)

    def act(self, obs: Observation) -> int | None:
        return self.rng.choice(obs.legal_actions())

    def react(self, obs: Observation) -> int | None:
        if self.rng.random() >= self.react_p:
            return None
        actions = obs.legal_actions()
        return self.rng.choice(actions) if actions else None
