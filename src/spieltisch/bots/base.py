"""What a bot sees and does.

A bot never holds the state: it receives an ``Observation`` for its seat, which
offers the seat's view (and, where its game has one, the same in the game's own terms:
``typed_view``), its legal actions and determinisation (a sampled state consistent with
the view, for search). Oracle bots would need more; none exist.

The compiled build compiles this module (``setup.py``): a compiled bot then reads its own
fields and its window directly. Bots and windows written in Python subclass them as
before.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, ClassVar, cast

from mypy_extensions import mypyc_attr

from ..core.game import Check, Deadline, Game, State


@mypyc_attr(allow_interpreted_subclasses=True)
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

    def typed_view(self) -> Any:
        """The seat's view in its game's own terms (``State.typed_view``), for that game's
        bot."""
        return self._state.typed_view(self.seat)

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

    def detached(self) -> Observation:
        """The same window on a copy of the state (for a second reader while a first one,
        an abandoned search, still reads this one)."""
        return Observation(self._state.clone(), self.seat, self.required)

    def sample_state(self, rng: random.Random) -> State[Any]:
        """A determinisation: a full state consistent with this seat's view, for search
        (it does not record events: ``State.record_events``)."""
        state = self._state.determinise(self.seat, rng)
        state.record_events = False
        return state


class Halt:
    """When the decision under way must end, as its runner says (``server.thinking``):
    ``at`` on ``time.perf_counter``'s clock, or at once when ``cancelled`` is set (from
    any thread). A bot that searches checks ``due()`` between simulations and answers
    with what it found so far; a quick bot never needs to."""

    __slots__ = ("at", "cancelled")

    def __init__(self, at: float = math.inf) -> None:
        self.at = at
        self.cancelled = False

    def due(self) -> bool:
        return self.cancelled or time.perf_counter() >= self.at


_halts = threading.local()


def current_halt() -> Halt | None:
    """The ``Halt`` of the decision this thread runs (None: nobody set one, as in the
    CLI, the lab and tournaments, where a bot's own budget alone bounds it)."""
    halt: Halt | None = getattr(_halts, "halt", None)
    return halt


@contextmanager
def halting(halt: Halt) -> Iterator[Halt]:
    """Run the decisions of this block under ``halt`` (this thread only)."""
    before = getattr(_halts, "halt", None)
    _halts.halt = halt
    try:
        yield halt
    finally:
        _halts.halt = before


def outlasts(mean: float, seconds: float) -> float:
    """The chance that a person's time, exponential with ``mean`` seconds, runs past a timer
    of ``seconds`` (0 when ``mean`` is 0: an instant bot never does)."""
    return math.exp(-seconds / mean) if mean > 0 else 0.0


@mypyc_attr(allow_interpreted_subclasses=True)
class Bot:
    """Base bot. ``act`` must return a legal action; ``react`` may decline (None)."""

    name: ClassVar[str] = "bot"
    #: Tuning parameters read from ``params`` (besides the keywords ``__init__`` names):
    #: a spec's other ``key=value`` words are refused by ``make_bot``. A class variable:
    #: ``make_bot`` reads it from the class, which a compiled bot keeps it on only so.
    tuning: ClassVar[tuple[str, ...]] = ()
    #: Parameters that take a person's slips out of the bot (forgetting, lateness), so it
    #: plays as well as it can: a search asks a bot made with them for its hint.
    careful: ClassVar[Mapping[str, Any]] = {}

    def __init__(self, game: Game, seat: int, seed: int | None = None, **params: Any) -> None:
        self.game = game
        self.seat = seat
        self.rng = random.Random(seed)
        self.params = params

    @classmethod
    def rollout_players(cls, game: Game, seeds: Sequence[int]) -> list[Bot]:
        """One bot of this class per seat (seat ``s`` seeded with ``seeds[s]``) to play a
        search's rollouts of one round together. A game's bot may let them share what each
        would read alike from the public record: they start together and read the same
        states, so it is the same work (HOAX reads the log once for all of them)."""
        return [cls(game, s, seed) for s, seed in enumerate(seeds)]

    def act(self, obs: Observation) -> int | None:
        """The game waits for this seat. ``None`` lets time pass (a slow player)."""
        raise NotImplementedError

    def react(self, obs: Observation) -> int | None:
        """An out-of-turn chance (throw-in, accusation). ``None`` declines."""
        return None


class RandomBot(Bot):
    """Uniform over legal actions; out of turn it acts with probability ``react_p``."""

    name = "random"
    #: ``react_p``: the chance of taking an out-of-turn chance (0.1). A tuning word, not a
    #: keyword of ``__init__``: mypyc (1.x) cannot write the signature of a compiled
    #: ``__init__`` with a keyword of its own between ``seed`` and ``**params``.
    tuning = ("react_p",)

    def __init__(self, game: Game, seat: int, seed: int | None = None, **params: Any) -> None:
        super().__init__(game, seat, seed, **params)
        self.react_p = float(params.get("react_p", 0.1))

    def act(self, obs: Observation) -> int | None:
        return self.rng.choice(obs.legal_actions())

    def react(self, obs: Observation) -> int | None:
        if self.rng.random() >= self.react_p:
            return None
        actions = obs.legal_actions()
        return self.rng.choice(actions) if actions else None
