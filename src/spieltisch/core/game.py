"""The game-agnostic engine: what every game provides and every layer above uses.

A *game spec* (``GameSpec``) is registered once: name, player counts, rule options.
Configuring it with a player count and options gives a ``Game`` (fixed sizes and
action space, like an OpenSpiel game object).  ``Game.new_state`` deals a ``State``.

A state answers:

* who must act now (``to_act``) and who may act out of turn (``out_of_turn``);
  these are sets of seats, never "the current player";
* the legal actions of a seat, and ``check`` for any attempt: legal, *faulty*
  (allowed to attempt but penalised, as in Hood Politix) or illegal (rejected,
  state unchanged);
* ``apply(seat, action)`` returning the events it caused;
* per-seat ``view`` and ``full_view``; ``determinise`` for search bots;
* ``deadlines``: "if nobody acts within t seconds, apply this action" — the
  state never reads a clock; whoever runs the game does.

Actions are integers in a fixed per-game action space (fast, and usable as RL
mask indices). Each game documents a stable text form (``"play 10H 10S"``)
through ``Game.action_to_json`` / ``Game.action_from_json``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar

from .options import Option, validate_options

if TYPE_CHECKING:
    from ..bots.base import Bot
    from ..narration import Narrator
    from .cards import Shuffler
    from .observation import Observer
    from .position import Fields

Json = Any

#: The pseudo-seat that applies deadline actions ("the clock"); see ``Deadline``.
CLOCK = -1


class SpieltischError(Exception):
    """Base of all errors a user may see; the message names the problem."""


class ConfigError(SpieltischError):
    """A bad game name, player count, option or stacked deck."""


class IllegalAction(SpieltischError):
    """An action that may not even be attempted now; the state is unchanged."""

    def __init__(self, reason: str, seat: int | None = None, action: Json = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.seat = seat
        self.action = action


class Verdict(Enum):
    LEGAL = "legal"
    #: Allowed to attempt, but a fault: the game applies its penalty.
    FAULTY = "faulty"
    ILLEGAL = "illegal"


@dataclass(slots=True)
class Check:
    verdict: Verdict
    reason: str = ""


LEGAL = Check(Verdict.LEGAL)


@dataclass(slots=True)
class Event:
    """Something that happened, as players learn of it.

    ``public`` is what everyone sees; ``private`` maps a seat to extra fields only
    that seat sees (the cards it drew, the hand it looked at).
    """

    kind: str
    seat: int | None = None
    public: dict[str, Json] = field(default_factory=dict)
    private: dict[int, dict[str, Json]] | None = None

    def for_seat(self, seat: int | None) -> dict[str, Json]:
        """The event as ``seat`` sees it; ``None`` is a spectator."""
        out: dict[str, Json] = {"kind": self.kind, "seat": self.seat, **self.public}
        if self.private and seat is not None and seat in self.private:
            out.update(self.private[seat])
        return out

    def full(self) -> dict[str, Json]:
        out: dict[str, Json] = {"kind": self.kind, "seat": self.seat, **self.public}
        if self.private:
            out["private"] = {str(s): d for s, d in self.private.items()}
        return out


@dataclass(frozen=True, slots=True)
class Deadline:
    """"If nobody acts for ``seconds``, apply ``action`` for ``seat``."

    ``seat`` may be ``CLOCK``: the deadline then tells the game that time ran out
    (a timer expired) rather than acting for a player. ``since`` identifies when
    the timer started (the number of actions applied at that moment), so a runner
    can tell a restarted timer from one still running.
    """

    seat: int
    action: int
    seconds: float
    since: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Result:
    """Final scores, ranks (1 = best, equal ranks for ties) and the winner."""

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    winner: int | None

    def to_json(self) -> dict[str, Json]:
        return {"scores": list(self.scores), "ranks": list(self.ranks), "winner": self.winner}


class Game(ABC):
    """A game configured with a player count and rule options (sizes are fixed)."""

    spec: ClassVar[GameSpec]

    def __init__(self, num_players: int, options: Mapping[str, Any]) -> None:
        self.num_players = num_players
        self.options = dict(options)

    @property
    def name(self) -> str:
        return self.spec.name

    # -- cards and dealing ---------------------------------------------------
    #: Card codes indexed by card id (``"10H"``, ``"JK1"``); empty for a game without cards.
    card_codes: ClassVar[tuple[str, ...]] = ()
    #: The codes views show cards by, where they are not ``card_codes`` (Hood Politix
    #: shows kinds, ``G7``, not copies, ``G7a``): what the RL encoder gives slots to.
    view_card_codes: ClassVar[tuple[str, ...]] = ()

    def card_id(self, code: str) -> int:
        try:
            return self._card_index()[code.upper()]
        except KeyError:
            raise ConfigError(f"unknown card code {code!r} for {self.name}") from None

    def _card_index(self) -> dict[str, int]:
        cls = type(self)
        idx = cls.__dict__.get("_card_index_cache")
        if idx is None:
            idx = {c.upper(): i for i, c in enumerate(cls.card_codes)}
            cls._card_index_cache = idx  # type: ignore[attr-defined]
        return idx

    def new_state(
        self, seed: int | None = None, deck: Sequence[Any] | None = None
    ) -> State:
        """Deal a new game.

        ``deck`` replaces shuffles with explicit orders: either one order (list of
        card codes, top card first) for the first shuffle, or a list of orders for
        successive shuffles; shuffles beyond those use the seeded generator.
        """
        stacked = self.parse_deck(deck) if deck is not None else []
        return self._new_state(random.Random(seed), stacked)

    def parse_deck(self, deck: Sequence[Any]) -> list[list[int]]:
        if not isinstance(deck, (list, tuple)) or not deck:
            raise ConfigError("a stacked deck must be a non-empty list of card codes")
        orders = deck if isinstance(deck[0], (list, tuple)) else [deck]
        out = []
        for order in orders:
            if not all(isinstance(c, (str, int)) for c in order):
                raise ConfigError("a stacked deck holds card codes such as '10H'")
            out.append([c if isinstance(c, int) else self.card_id(c) for c in order])
        return out

    @abstractmethod
    def _new_state(self, rng: random.Random, stacked: list[list[int]]) -> State: ...

    # -- positions (``core/position.py``, ``docs/positions.md``) ------------------
    def state_from_position(self, pos: Json) -> State:
        """The state a position describes (JSON text or object), checked whole:
        anything wrong in it is a ``ConfigError`` naming the field."""
        from . import position

        return position.read(self, pos)

    def _state_from_position(self, fields: Fields, shuffler: Shuffler) -> State:
        """Build a state from the position's ``"state"`` object (read with ``fields``,
        every field read or refused) and the position's chance; check what only this
        game knows (cards in two places, a seat to act without cards, a phase that
        contradicts the rest) and raise ``ConfigError`` naming it."""
        raise ConfigError(f"{self.name} has no position format")

    # -- actions --------------------------------------------------------------
    @property
    @abstractmethod
    def num_actions(self) -> int:
        """Size of the fixed action space (indices 0..num_actions-1)."""

    @abstractmethod
    def action_to_json(self, action: int) -> Json:
        """The stable text form of an action, e.g. ``"play 10H 10S"``."""

    @abstractmethod
    def action_from_json(self, obj: Json) -> int:
        """Parse the stable form; raise ``IllegalAction`` naming what is wrong."""

    def describe_action(self, action: int) -> str:
        """A human-readable form (the terminal shows this)."""
        return str(self.action_to_json(action))

    def render_view(self, view: dict[str, Json]) -> str:
        """The terminal's picture of a view; games override with something readable."""
        import json

        return json.dumps(view, indent=1)

    def bots(self) -> dict[str, type[Bot]]:
        """Game-specific bots by name (e.g. ``"heuristic"``)."""
        return {}

    def observer(self) -> Observer | None:
        """This game's own numeric observation for RL (``core.observation``), one per
        game object (an observer may keep what it last wrote), or None: the RL layer
        then encodes the JSON view generically."""
        cls = self.observer_class()
        if cls is None:
            return None
        obs: Observer | None = self.__dict__.get("_observer")
        if obs is None:
            obs = self._observer = cls(self)
        return obs

    def observer_class(self) -> type[Observer] | None:
        """The game's ``Observer`` subclass, if it has one (see ``observer``)."""
        return None

    def narrator(self) -> Narrator:
        """This game's narration (``spieltisch.narration``), one per game object."""
        narrator: Narrator | None = self.__dict__.get("_narrator")
        if narrator is None:
            narrator = self._narrator = self.narrator_class()(self)
        return narrator

    def narrator_class(self) -> type[Narrator]:
        """The game's ``Narrator``: the ``Narrator`` class of its package's ``narration``
        module when it has one (found by name, like the registry finds games), else the
        core's generic one."""
        import importlib
        import importlib.util

        from ..narration import Narrator

        package = type(self).__module__.rpartition(".")[0]
        name = f"{package}.narration"
        if importlib.util.find_spec(name) is None:
            return Narrator
        found = getattr(importlib.import_module(name), "Narrator", None)
        return found if isinstance(found, type) and issubclass(found, Narrator) else Narrator


class State(ABC):
    """One position of a game. Subclasses keep their fields cheap to copy."""

    game: Game
    #: All of the game's chance: stacked orders first, then the seeded generator.
    shuffler: Shuffler
    #: Number of actions applied so far (also the clock for ``Deadline.since``).
    move_number: int
    #: The events of the deal before the first action (the hands dealt, who starts), which
    #: runners tell before the first move; empty for a state loaded from a position.
    #: A class-level empty tuple by default: games set it on a fresh deal only.
    opening: Sequence[Event] = ()
    #: False on a search copy (``Observation.sample_state``): nobody reads the events
    #: ``apply`` returns there, so a game may skip building them on its hot paths.
    record_events: bool = True

    @property
    def num_players(self) -> int:
        return self.game.num_players

    @property
    def rng(self) -> random.Random:
        """The state's seeded generator (the shuffler's)."""
        return self.shuffler.rng

    # -- who acts --------------------------------------------------------------
    @abstractmethod
    def to_act(self) -> Sequence[int]:
        """Seats the game waits for (any order). Empty when over or waiting only on time."""

    def out_of_turn(self) -> Sequence[int]:
        """Seats that may act now although the game does not wait for them."""
        return ()

    def may_act(self) -> list[int]:
        seats = list(self.to_act())
        seats.extend(s for s in self.out_of_turn() if s not in seats)
        return seats

    #: (owner id, move number, seat, actions): see ``legal_actions``.
    _legal_cache: tuple[int, int, int, list[int]] | None = None

    def legal_actions(self, seat: int) -> list[int]:
        """The actions ``seat`` may correctly take now (faulty attempts excluded).

        Cached until the next action, so that the usual loop (list, pick, apply)
        generates them once. Do not mutate the returned list. The cache is keyed by
        the object's id too, so a clone or determinisation never trusts it.
        """
        cache = self._legal_cache
        if cache is not None and cache[1] == self.move_number and cache[2] == seat \
                and cache[0] == id(self):
            return cache[3]
        actions = self._legal_actions(seat)
        self._legal_cache = (id(self), self.move_number, seat, actions)
        return actions

    @abstractmethod
    def _legal_actions(self, seat: int) -> list[int]:
        """Compute the legal actions of ``seat`` (see ``legal_actions``)."""

    def check(self, seat: int, action: int) -> Check:
        """Judge an attempt. Games with faults (Hood Politix) override this."""
        if action in self.legal_actions(seat):
            return LEGAL
        return Check(Verdict.ILLEGAL, self.why_illegal(seat, action))

    def why_illegal(self, seat: int, action: int) -> str:
        """A reason for a rejected action; games give more precise ones."""
        if self.is_over():
            return "the game is over"
        if seat not in self.may_act():
            return f"seat {seat} may not act now"
        return f"{self.game.describe_action(action)} is not legal now"

    def apply(self, seat: int, action: int) -> list[Event]:
        """Apply ``action`` for ``seat`` and return the events it caused.

        Illegal actions raise ``IllegalAction`` and leave the state untouched;
        faulty ones are applied as the game's penalty.
        """
        if seat == CLOCK:
            if not any(d.action == action and d.seat == CLOCK for d in self.deadlines()):
                raise IllegalAction("no deadline with that action is running", seat, action)
        elif not (0 <= seat < self.game.num_players and action in self.legal_actions(seat)):
            # Not a listed legal action: judge it (illegal, or faulty in some games).
            if not (0 <= seat < self.game.num_players):
                raise IllegalAction(f"there is no seat {seat}", seat, action)
            if not (0 <= action < self.game.num_actions):
                raise IllegalAction(f"action {action} is outside the action space", seat, action)
            verdict = self.check(seat, action)
            if verdict.verdict is Verdict.ILLEGAL:
                raise IllegalAction(verdict.reason, seat, action)
            if verdict.verdict is Verdict.FAULTY:
                self.move_number += 1
                return self._apply_fault(seat, action, verdict.reason)
        self.move_number += 1
        return self._apply(seat, action)

    @abstractmethod
    def _apply(self, seat: int, action: int) -> list[Event]:
        """Apply an action already checked legal."""

    def _apply_fault(self, seat: int, action: int, reason: str) -> list[Event]:
        raise NotImplementedError("this game has no faulty actions")

    def deadlines(self) -> Sequence[Deadline]:
        """Timers running now. Games without real-time rules have none."""
        return ()

    def frozen_timers(self) -> Sequence[Deadline]:
        """Timers stopped by a pause (Hood Politix §5.3): not running now, they come back
        in ``deadlines()`` with the same ``(seat, action, since)`` when the pause ends, and
        a runner resumes them with the time they had left instead of starting them anew."""
        return ()

    # -- end ---------------------------------------------------------------------
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def result(self) -> Result:
        """Only valid when ``is_over()``."""

    # -- positions ---------------------------------------------------------------
    def position(self) -> dict[str, Json]:
        """The whole state as plain JSON (``docs/positions.md``): with
        ``Game.state_from_position`` it gives a state that plays on identically."""
        from . import position

        return position.write(self)

    def _position(self) -> dict[str, Json]:
        """This game's ``"state"`` object of a position: card codes, not masks."""
        raise NotImplementedError(f"{self.game.name} has no position format")

    def returns(self) -> list[float]:
        """Rewards for RL: +1 for the winner, -1 for the rest, 0 for all when tied."""
        r = self.result()
        n = self.num_players
        if r.winner is None:
            return [0.0] * n
        return [1.0 if s == r.winner else -1.0 for s in range(n)]

    # -- information -----------------------------------------------------------
    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Json]:
        """What ``seat`` may know, JSON-serialisable. ``None`` is a spectator."""

    @abstractmethod
    def full_view(self) -> dict[str, Json]:
        """Everything (replays, debugging)."""

    @abstractmethod
    def determinise(self, seat: int, rng: random.Random) -> State:
        """A complete state consistent with ``seat``'s view, hidden parts resampled.

        The copy draws its future chance from ``rng`` (``Shuffler.reseeded``): future
        chance is unknown to the seat as well.
        """

    @abstractmethod
    def clone(self) -> State:
        """An independent copy (cheap: no deepcopy)."""

    def round_number(self) -> int:
        """Which round (deal, period) is being played; 0 for games without rounds.

        Search bots may end a rollout when it changes and judge the position by
        ``standing``.
        """
        return 0

    def standing(self) -> list[float] | None:
        """Each seat's standing if the game were judged now (higher is better), e.g.
        points so far; ``None`` when the game offers no such estimate."""
        return None

    def estimate(self) -> list[float] | None:
        """Each seat's expected standing at the end of the current round if play went
        on from here: a cheap heuristic for search cutoffs (ISMCTS ``depth``), in the
        units of ``standing()``. Only differences between seats matter to a search, so a
        game may centre its expectation (add nothing when all seats' prospects are
        equal). It may read the whole state (a search calls it on determinisations) but
        not future chance (the shuffler, the order of a draw pile). Default: ``standing()``.
        """
        return self.standing()

    def stats(self) -> dict[str, Json]:
        """Per-game figures for simulation records, e.g. ``{"rounds": 3}``."""
        return {}

    def components(self) -> dict[str, int]:
        """Counts of every component wherever it lies; must never change.

        The conformance suite checks this invariant after every action.
        """
        return {}


@dataclass(frozen=True)
class GameSpec:
    """A registered game: metadata plus the class that configures it."""

    name: str
    title: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    game_class: type[Game]
    default_players: int
    summary: str = ""
    #: Upper bound on actions in one game, for conformance tests and runners.
    max_actions: int = 100_000

    def configure(self, num_players: int | None = None, options: Mapping[str, Any] | None = None
                  ) -> Game:
        """A ``Game`` for this player count and options (validated, defaults filled in)."""
        n = self.default_players if num_players is None else num_players
        if not isinstance(n, int) or not (self.min_players <= n <= self.max_players):
            raise ConfigError(
                f"{self.name} is for {self.min_players}–{self.max_players} players, not {n}"
            )
        opts = validate_options(self.name, self.options, options or {})
        return self.game_class(n, opts)
