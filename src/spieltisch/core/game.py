"""The game-agnostic engine: what every game provides and every layer above uses.

A *game spec* (``GameSpec``) is registered once: name, player counts, rule options.
Configuring it with a player count and options gives a ``Game`` (fixed sizes and
action space, like an OpenSpiel game object).  ``Game.new_state`` deals a ``State``.

A state answers:

* who must act now (``to_act``) and who may act out of turn (``out_of_turn``);
  these are sets of seats, never "the current player";
* the legal actions of a seat, and ``judge`` for any attempt: legal, *faulty*
  (allowed to attempt but penalised, as in Hood Politix) or illegal (rejected,
  state unchanged), with a reason that translates (``Check``: template + params);
* ``apply(seat, action)`` returning the events it caused (judged: the one path for
  every move from a person); ``apply_trusted`` for search copies;
* per-seat ``view`` (the shared fields plus the game's ``_view``) and ``full_view``;
  ``determinise`` for search bots;
* ``deadlines``: "if nobody acts within t seconds, apply this action" — the
  state never reads a clock; whoever runs the game does.

A game declares its turn structure as data (``PHASES``, ``core/phases.py``) and its
fields once (``FIELDS``, ``core/fields.py``: ``clone`` comes from it).

Actions are integers in a fixed per-game action space (fast, and usable as RL
mask indices). Each game documents a stable text form (``"play 10H 10S"``)
through ``Game.action_to_json`` / ``Game.action_from_json``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar, Final, Generic, TypeVar

from mypy_extensions import mypyc_attr

from .fields import Copy, StateFields
from .options import Option, validate_options
from .words import N_, Context, Narrator, Translator, translator_for

if TYPE_CHECKING:
    from .cards import Shuffler
    from .observation import Observer
    from .phases import PhaseTable
    from .position import Fields
    from .scoresheet import Builder

Json = Any

#: The pseudo-seat that applies deadline actions ("the clock"); see ``Deadline``.
CLOCK: Final = -1


class SpieltischError(Exception):
    """Base of all errors a user may see; the message names the problem."""


class ConfigError(SpieltischError):
    """A bad game name, player count, option or stacked deck."""


def _filled(template: str, params: Mapping[str, Json] | None) -> str:
    """A reason's English text: ``template`` filled in with ``params``."""
    return template.format(**params) if params else template


def _translated(tr: Translator, template: str, params: Mapping[str, Json] | None,
                names: Sequence[str] = ()) -> str:
    """A reason in ``tr``'s language: the template translated, then filled in with its
    arguments, each ``Told`` argument in words (a seat by its player's name, ``names``;
    1-based without one)."""
    if not params:
        return tr.gettext(template)
    if not any(isinstance(v, Told) for v in params.values()):
        return tr.format(template, **params)
    ctx = Context(tr, names, None)
    return tr.format(template, **{k: v.render(ctx) if isinstance(v, Told) else v
                                  for k, v in params.items()})


class Told:
    """A reason's argument that the reader's language renders: a seat as its player's
    name, a phase or a fault as a translated word, an action as its narrated label.
    ``str`` gives the engine's English text (``Check.reason``, logs and tests);
    ``render(ctx)`` the reader's (``ctx``: a narration ``Context``)."""

    __slots__ = ("raw", "_render")

    def __init__(self, raw: str, render: Callable[[Context], str]) -> None:
        self.raw = raw
        self._render = render

    def render(self, ctx: Context) -> str:
        return self._render(ctx)

    def __str__(self) -> str:
        return self.raw

    def __format__(self, spec: str) -> str:
        return format(self.raw, spec)

    def __repr__(self) -> str:
        return repr(self.raw)

    def __eq__(self, other: object) -> bool:
        return self.raw == (other.raw if isinstance(other, Told) else other)

    def __hash__(self) -> int:
        return hash(self.raw)

    def __reduce__(self) -> tuple[type[str], tuple[str]]:
        """Pickled (an error crossing processes) as its English text: a renderer is a
        closure, and the other side needs only the text."""
        return str, (self.raw,)


def seat_arg(seat: int) -> Told:
    """A seat in a reason: ``seat 2`` to the engine, its player's name (or "Seat 3") to
    the reader. Templates say ``{seat}``, never ``seat {seat}``."""
    return Told(f"seat {seat}", lambda ctx: ctx.name(seat))


def seats_arg(seats: Sequence[int]) -> Told:
    """Several seats in a reason (``seat 0, 2``; the players' names, "Ada, Ben")."""
    group = tuple(seats)
    return Told("seat " + ", ".join(map(str, group)),
                lambda ctx: ", ".join(ctx.name(s) for s in group))


def word_arg(text: str, raw: str | None = None) -> Told:
    """A word of the rules in a reason (a phase, a pause, a fault), marked ``N_`` where
    it is defined and translated for the reader from the game's catalog; ``raw`` (default
    ``text``) is what the engine's English says (a phase's view name)."""
    return Told(text if raw is None else raw, lambda ctx: ctx.tr.gettext(text))


def action_arg(game: Game, action: int, raw: str | None = None) -> Told:
    """An action in a reason: ``raw`` (default ``describe_action``) to the engine, the
    narrator's label ("Play 7♥", "als Baron: …") to the reader."""
    return Told(str(game.describe_action(action)) if raw is None else raw,
                lambda ctx: game.narrator().action(action, ctx))


class Reason:
    """A reason as an English template (marked ``N_``) and its arguments (card codes,
    seats, names: never translated), read in each player's language."""

    template: str
    params: Mapping[str, Json] | None

    @property
    def reason(self) -> str:
        """The reason in English (empty for a legal check)."""
        return _filled(self.template, self.params)

    def text(self) -> str:
        return self.reason

    def translate(self, tr: Translator, names: Sequence[str] = ()) -> str:
        """The reason in ``tr``'s language (template translated, then filled in; seats
        by ``names``)."""
        return _translated(tr, self.template, self.params, names)


class IllegalAction(SpieltischError):
    """An action that may not even be attempted now; the state is unchanged.

    The reason is an English template (marked ``N_``) and its arguments, as events are
    in narration: ``reason`` is the English text, ``translate`` gives it in a language
    (as ``Reason`` does: an exception class of the compiled build takes no other base).
    """

    def __init__(self, reason: str, seat: int | None = None, action: Json = None,
                 params: Mapping[str, Json] | None = None) -> None:
        self.template = reason
        self.params = params
        self.seat = seat
        self.action = action
        super().__init__(self.reason)

    @property
    def reason(self) -> str:
        """The reason in English."""
        return _filled(self.template, self.params)

    def text(self) -> str:
        return self.reason

    def translate(self, tr: Translator, names: Sequence[str] = ()) -> str:
        """The reason in ``tr``'s language (template translated, then filled in; seats
        by ``names``)."""
        return _translated(tr, self.template, self.params, names)

    @classmethod
    def of(cls, check: Check, seat: int | None = None, action: Json = None) -> IllegalAction:
        """The error for a refused ``check``."""
        return cls(check.template, seat, action, check.params)


class Verdict(Enum):
    LEGAL = "legal"
    #: Allowed to attempt, but a fault: the game applies its penalty.
    FAULTY = "faulty"
    ILLEGAL = "illegal"


class Check(Reason):
    """A judgement of an attempt: its verdict and, unless legal, why.

    The reason is an English template marked with ``N_`` plus its arguments (card
    codes, seats, names: never translated), so that each player reads it in their
    language (``translate``); ``reason`` / ``text()`` give the English text.
    ``Check(Verdict.ILLEGAL, "some text")`` without arguments is taken literally.
    """

    __slots__ = ("verdict", "template", "params")

    def __init__(self, verdict: Verdict, template: str = "",
                 params: Mapping[str, Json] | None = None) -> None:
        self.verdict = verdict
        self.template = template
        self.params = params

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Check) and self.verdict is other.verdict \
            and self.reason == other.reason

    def __hash__(self) -> int:
        return hash((self.verdict, self.reason))

    def __repr__(self) -> str:
        return f"Check({self.verdict}, {self.reason!r})"


def illegal(template: str, /, **args: Json) -> Check:
    """An ``ILLEGAL`` check: ``illegal(N_("{card} is not in your hand"), card="7H")``."""
    return Check(Verdict.ILLEGAL, template, args or None)


def faulty(template: str, /, **args: Json) -> Check:
    """A ``FAULTY`` check (allowed to attempt, penalised), reason as for ``illegal``."""
    return Check(Verdict.FAULTY, template, args or None)


def translate_reason(game: Game, reason: Check | IllegalAction, lang: str | None,
                     names: Sequence[str] = ()) -> str:
    """``reason`` in ``lang`` from the game's catalog and the core's (English as a
    fallback), every seat in it by its player's name in ``names`` ("Seat 3" without)."""
    return reason.translate(translator_for(lang, game.name, "core"), names)


def ranks_from_scores(scores: Sequence[Any], higher_is_better: bool = True
                      ) -> tuple[int, ...]:
    """Ranks for ``Result``: 1 is best, tied scores share a rank (1, 1, 3). Scores may be
    numbers or sort keys (tuples: a tie-break after the score)."""
    if higher_is_better:
        return tuple(1 + sum(1 for o in scores if o > s) for s in scores)
    return tuple(1 + sum(1 for o in scores if o < s) for s in scores)


LEGAL: Final = Check(Verdict.LEGAL)


# Event and Deadline write their ``__init__`` out (``init=False``): the compiled build
# runs a generated dataclass ``__init__`` as interpreted code, and a frozen one sets each
# field through ``object.__setattr__``. Written out, making one costs about a sixth
# (compiled: 45 ns against 270 ns for an Event, 1,480 ns for a Deadline; pure: a
# Deadline 420 ns against 1,470 ns), and a HOAX move makes about four.
@dataclass(slots=True, init=False)
class Event:
    """Something that happened, as players learn of it.

    ``public`` is what everyone sees; ``private`` maps a seat to extra fields only
    that seat sees (the cards it drew, the hand it looked at).
    """

    kind: str
    seat: int | None
    public: dict[str, Json]
    private: dict[int, dict[str, Json]] | None

    def __init__(self, kind: str, seat: int | None = None,
                 public: dict[str, Json] | None = None,
                 private: dict[int, dict[str, Json]] | None = None) -> None:
        self.kind = kind
        self.seat = seat
        self.public = {} if public is None else public
        self.private = private

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


@dataclass(slots=True, init=False, unsafe_hash=True)
class Deadline:
    """"If nobody acts for ``seconds``, apply ``action`` for ``seat``."

    ``seat`` may be ``CLOCK``: the deadline then tells the game that time ran out
    (a timer expired) rather than acting for a player. ``since`` identifies when
    the timer started (the number of actions applied at that moment), so a runner
    can tell a restarted timer from one still running.

    ``fixed``: not the move timer of the seat the game waits for, though it may wait
    for one, but a length the rules fix (a pause, a last reaction window: Hood Politix
    §5.5, §5.6, §9.7). A pace without move timers keeps it, so an idle player cannot
    stall the game.

    ``passable``: a reaction window that the rules close once every seat that may act
    in it (``State.out_of_turn``) has passed (HOAX polls "until everyone passes"); a
    live table applies ``action`` then, without waiting for the time to run out.

    A value: equal fields, equal deadlines (hashable). Never change one once made (not
    frozen only for speed, see above): a state hands the same one out again.
    """

    seat: int
    action: int
    seconds: float
    since: int
    reason: str
    fixed: bool
    passable: bool

    def __init__(self, seat: int, action: int, seconds: float, since: int,
                 reason: str = "", fixed: bool = False, passable: bool = False) -> None:
        self.seat = seat
        self.action = action
        self.seconds = seconds
        self.since = since
        self.reason = reason
        self.fixed = fixed
        self.passable = passable


@dataclass(frozen=True)
class Result:
    """Final scores, ranks (1 = best, equal ranks for ties) and the winner."""

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    winner: int | None

    def to_json(self) -> dict[str, Json]:
        return {"scores": list(self.scores), "ranks": list(self.ranks), "winner": self.winner}


#: Each game class's card index (``Game.card_id``), made on first use.
_CARD_INDEX: Final[dict[type, dict[str, int]]] = {}


@mypyc_attr(allow_interpreted_subclasses=True)
class Game(ABC):
    """A game configured with a player count and rule options (sizes are fixed)."""

    spec: ClassVar[GameSpec]

    def __init__(self, num_players: int, options: Mapping[str, Any]) -> None:
        self.num_players = num_players
        self.options = dict(options)
        self._observer: Observer | None = None
        self._narrator: Narrator | None = None

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
        idx = _CARD_INDEX.get(cls)
        if idx is None:
            idx = _CARD_INDEX[cls] = {c.upper(): i for i, c in enumerate(cls.card_codes)}
        return idx

    def new_state(
        self, seed: int | None = None, deck: Sequence[Any] | None = None
    ) -> State[Any]:
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
    def _new_state(self, rng: random.Random, stacked: list[list[int]]) -> State[Any]: ...

    # -- positions (``core/position.py``, ``docs/positions.md``) ------------------
    def state_from_position(self, pos: Json) -> State[Any]:
        """The state a position describes (JSON text or object), checked whole:
        anything wrong in it is a ``ConfigError`` naming the field."""
        from . import position

        return position.read(self, pos)

    def _state_from_position(self, fields: Fields, shuffler: Shuffler) -> State[Any]:
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

    def action_kind(self, action: int) -> Enum | None:
        """The kind of ``action`` (a member of the game's action-kind Enum, as its phase
        table lists them: the conformance suite checks each phase allows only its kinds);
        None for a game that does not say."""
        return None

    def describe_action(self, action: int) -> str:
        """A human-readable form (the terminal shows this)."""
        return str(self.action_to_json(action))

    def bots(self) -> dict[str, type[Any]]:
        """The game's own bots by name (``"heuristic"``: ``bots.base.Bot`` subclasses);
        none by default (the levels then play random)."""
        return {}

    def observer(self) -> Observer | None:
        """This game's own numeric observation for RL (``core.observation``), one per
        game object (an observer may keep what it last wrote), or None: the RL layer
        then encodes the JSON view generically."""
        cls = self.observer_class()
        if cls is None:
            return None
        obs = self._observer
        if obs is None:
            obs = self._observer = cls(self)
        return obs

    def score_sheet_builder(self) -> Builder | None:
        """The game's own score sheet (its ``scores.score_sheet``), if it has one; else
        the core's generic sheet of the final scores is shown."""
        return None

    def observer_class(self) -> type[Observer] | None:
        """The game's ``Observer`` subclass, if it has one (see ``observer``)."""
        return None

    def narrator(self) -> Narrator:
        """This game's narration (``narrator_class``), one per game object: its events,
        action labels and the one picture of a view (``Narrator.board``)."""
        narrator = self._narrator
        if narrator is None:
            narrator = self._narrator = self.narrator_class()(self)
        return narrator

    def narrator_class(self) -> type[Narrator]:
        """The game's ``Narrator`` subclass (its ``narration.py``), as it names its
        observer and bots; the core's generic one for a game without."""
        return Narrator


G = TypeVar("G", bound=Game)
S = TypeVar("S", bound="State[Any]")


@mypyc_attr(allow_interpreted_subclasses=True)
class State(ABC, Generic[G]):
    """One position of a game (of ``Game`` class ``G``). Subclasses keep their fields
    cheap to copy.

    A game's state class declares (see ``docs/engine.md``):

    * ``FIELDS``: every attribute, how a copy treats it, its type and value before the
      deal (``core.fields``); its ``_copy`` and ``_empty_fields`` are written from it
      (``python -m spieltisch.core.generated``, checked by a test), and ``undeclared()``
      finds a forgotten field;
    * ``PHASES``: its ``PhaseTable`` (``core.phases``), with ``phase`` a member of its
      ``Phase`` enum; ``to_act``, ``out_of_turn``, ``legal_actions``, ``apply``,
      ``_why_illegal`` and ``deadlines`` then dispatch on the phase (``_legal_actions``
      and ``_apply`` are the hooks of a game without a table);
    * ``_view(seat)``: its own view fields (the core adds the shared ones, ``view``).
    """

    game: G
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
    #: The declared fields (``core.fields.StateFields``); ``None``: the game copies by hand.
    FIELDS: ClassVar[StateFields | None] = None
    #: The phase table (``core.phases.PhaseTable``); ``None``: the game dispatches itself.
    PHASES: ClassVar[PhaseTable[Any] | None] = None
    #: The current phase, a member of the game's ``Phase`` enum (games with ``PHASES``).
    phase: Any
    #: ``PHASES`` of the state's class (set by ``__init__``; see there).
    _phases: PhaseTable[Any] | None

    def __init__(self, game: G, shuffler: Shuffler) -> None:
        """A state of ``game`` with ``shuffler`` as its chance and no fields of its own
        yet: a deal, a position or a copy sets them."""
        self.game = game
        self.shuffler = shuffler
        self.move_number = 0
        # The class's table, read from the instance: the dispatch below reads it on every
        # call, and an instance's attribute is one slot read where ``PHASES`` is a lookup
        # through the class.
        self._phases = self.PHASES

    @classmethod
    def empty(cls: type[S], game: Any, shuffler: Shuffler) -> S:
        """An empty table: every field at its value before the deal (``_empty_fields``),
        which a deal or a position then fills."""
        s = cls(game, shuffler)
        s._empty_fields()
        return s

    def _empty_fields(self) -> None:
        """Set the game's own fields to their values before the deal (see ``empty``)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields = cls.FIELDS
        if fields is not None:
            own = vars(cls)
            if "FIELDS" in own and "_copy" not in own:
                raise TypeError(f"{cls.__name__} declares FIELDS but no _copy: paste "
                                f"FIELDS.copy_source({cls.__name__!r}) into the class")
            for name in fields.of(Copy.CACHE):
                if not hasattr(cls, name):
                    raise TypeError(f"{cls.__name__}: cache field {name!r} needs a class "
                                    "attribute with its empty value (a copy starts with it)")
        for old, new in (("check", "_judge"), ("why_illegal", "_why_illegal"),
                         ("view", "_view"), ("full_view", "_full_view")):
            if old in vars(cls):
                raise TypeError(f"{cls.__name__} overrides {old}: override {new} instead "
                                "(the core's part must run)")

    @property
    def num_players(self) -> int:
        return self.game.num_players

    @property
    def rng(self) -> random.Random:
        """The state's seeded generator (the shuffler's)."""
        return self.shuffler.rng

    # -- who acts --------------------------------------------------------------
    def to_act(self) -> Sequence[int]:
        """Seats the game waits for (any order). Empty when over or waiting only on time.

        Default: the ``seats`` of the current phase's rule (``PHASES``)."""
        table = self._phases
        if table is None:
            raise NotImplementedError(f"{type(self).__name__} has no to_act and no PHASES")
        seats: Sequence[int] = table.seats_of[self.phase](self)
        return seats

    def out_of_turn(self) -> Sequence[int]:
        """Seats that may act now although the game does not wait for them.

        Default: the ``window`` of the current phase's rule, else nobody."""
        table = self._phases
        if table is None:
            return ()
        seats: Sequence[int] = table.window_of[self.phase](self)
        return seats

    def may_act(self) -> list[int]:
        seats = list(self.to_act())
        seats.extend(s for s in self.out_of_turn() if s not in seats)
        return seats

    def phase_name(self) -> str | None:
        """The current phase's name for views (``"play"``); None for a game without phases."""
        table = self._phases
        return None if table is None else table.names[self.phase]

    # The last list ``legal_actions`` made, and the move number and seat it was made for.
    # A copy starts with the class's values (``_copy`` sets only declared fields), so it
    # never trusts its original's list; a pickled state keeps a list that is still true.
    # Plain attributes, not a tuple: the compiled build reads each as a slot.
    _legal_move: int = -1
    _legal_seat: int = -1
    _legal_list: list[int] = []  # never read while _legal_move is -1

    def legal_actions(self, seat: int) -> list[int]:
        """The actions ``seat`` may correctly take now (faulty attempts excluded).

        Cached until the next action, so that the usual loop (list, pick, apply)
        generates them once. Do not mutate the returned list.
        """
        if self._legal_move == self.move_number and self._legal_seat == seat:
            return self._legal_list
        # the phase's handler (``_legal_actions``'s default, without its call)
        table = self._phases
        actions: list[int] = table.legal_of[self.phase](self, seat) if table is not None \
            else self._legal_actions(seat)
        self._legal_move = self.move_number
        self._legal_seat = seat
        self._legal_list = actions
        return actions

    def _legal_actions(self, seat: int) -> list[int]:
        """Compute the legal actions of ``seat``, uncached (see ``legal_actions``): the
        current phase's ``legal`` handler (none for a seat that may not act: the handler
        checks; the conformance suite holds it to that). Only a game without ``PHASES``
        overrides it: ``legal_actions`` calls a table's handler directly."""
        table = self._phases
        if table is None:
            raise NotImplementedError(f"{type(self).__name__} has no PHASES and no "
                                      "_legal_actions")
        actions: list[int] = table.legal_of[self.phase](self, seat)
        return actions

    # -- judging -----------------------------------------------------------------
    def judge(self, seat: int, action: int) -> Check:
        """Judge an attempt: the checks every game shares, then the game's ``_judge``.

        Shared: the game is over; ``CLOCK`` may only take a running deadline's action;
        the seat and the action exist. The server, the terminal and ``apply`` all judge
        through here, so a move is judged the same way wherever it comes from.
        """
        if self.is_over():
            return Check(Verdict.ILLEGAL, N_("the game is over"))
        if seat == CLOCK:
            if self._clock_runs(action):
                return LEGAL
            return Check(Verdict.ILLEGAL, N_("no deadline with that action is running"))
        if not (0 <= seat < self.game.num_players):
            return Check(Verdict.ILLEGAL, N_("there is no {seat}"), {"seat": seat_arg(seat)})
        if not (0 <= action < self.game.num_actions):
            return Check(Verdict.ILLEGAL, N_("action {action} is outside the action space"),
                         {"action": action})
        return self._judge(seat, action)

    def _clock_runs(self, action: int) -> bool:
        """A running deadline has ``action`` for ``CLOCK``: the clock may take it now."""
        for d in self.deadlines():
            if d.seat == CLOCK and d.action == action:
                return True
        return False

    def _judge(self, seat: int, action: int) -> Check:
        """The game's hook (seat and action exist, game not over): legal if listed, else
        why not. Games with faults (Hood Politix) override it to return ``FAULTY``."""
        if action in self.legal_actions(seat):
            return LEGAL
        return self._why_illegal(seat, action)

    def _why_illegal(self, seat: int, action: int) -> Check:
        """Why an unlisted action is illegal (``illegal(N_(template), **args)``).

        Default: the current phase's ``why`` handler, else the generic reasons."""
        table = self._phases
        if table is not None:
            why = table.why_of[self.phase]
            if why is not None:
                check: Check = why(self, seat, action)
                return check
        if self.is_over():
            return Check(Verdict.ILLEGAL, N_("the game is over"))
        if seat not in self.may_act():
            return Check(Verdict.ILLEGAL, N_("{seat} may not act now"),
                         {"seat": seat_arg(seat)})
        return Check(Verdict.ILLEGAL, N_("{action} is not legal now"),
                     {"action": action_arg(self.game, action)})

    def why_illegal(self, seat: int, action: int) -> str:
        """Why ``action`` is illegal for ``seat``, in English (see ``judge``)."""
        return self._why_illegal(seat, action).reason

    # -- applying ----------------------------------------------------------------
    def apply(self, seat: int, action: int) -> list[Event]:
        """Apply ``action`` for ``seat`` and return the events it caused.

        Illegal actions raise ``IllegalAction`` and leave the state untouched;
        faulty ones are applied as the game's penalty.
        """
        # the list ``legal_actions`` made for this seat and move (the usual loop: list,
        # pick, apply), read here without a call; else listed now
        listed: list[int] | None
        if self._legal_move == self.move_number and self._legal_seat == seat:
            listed = self._legal_list
        else:
            listed = self.legal_actions(seat) if 0 <= seat < self.game.num_players else None
        if listed is not None and action in listed:
            # listed legal: the common case needs no judging, and goes straight to the
            # phase's handler (``_apply``'s default, without its call)
            self.move_number += 1
            table = self._phases
            if table is not None:
                events: list[Event] = table.apply_of[self.phase](self, seat, action)
                return events
            return self._apply(seat, action)
        if seat == CLOCK and not self.is_over() and self._clock_runs(action):
            # a running deadline's action (the usual loop lets the earliest pass): what
            # ``judge`` finds legal, without making its verdict
            self.move_number += 1
            return self._apply(seat, action)
        check = self.judge(seat, action)
        if check.verdict is Verdict.ILLEGAL:
            raise IllegalAction.of(check, seat, action)
        self.move_number += 1
        if check.verdict is Verdict.FAULTY:
            events = self._apply_fault(seat, action, check.reason)
            # a penalty may ask for legal actions before it changes the hand (Hood
            # Politix judges the attempt again): that list is not true after it
            self._legal_move = -1
            return events
        return self._apply(seat, action)

    def apply_trusted(self, seat: int, action: int) -> list[Event]:
        """Apply an action known to be legal (listed by ``legal_actions`` of this very
        state, or a running deadline's): no judging. For search copies (ISMCTS)."""
        self.move_number += 1
        return self._apply(seat, action)

    def _apply(self, seat: int, action: int) -> list[Event]:
        """Apply an action already judged legal: the current phase's ``apply`` handler
        (``CLOCK``'s deadline actions too). Only a game without ``PHASES`` overrides it:
        ``apply`` calls a table's handler directly."""
        table = self._phases
        if table is None:
            raise NotImplementedError(f"{type(self).__name__} has no _apply")
        events: list[Event] = table.apply_of[self.phase](self, seat, action)
        return events

    def _apply_fault(self, seat: int, action: int, reason: str) -> list[Event]:
        raise NotImplementedError("this game has no faulty actions")

    def deadlines(self) -> Sequence[Deadline]:
        """Timers running now. Default: the current phase's ``deadline`` handler; games
        without real-time rules have none."""
        table = self._phases
        if table is None:
            return ()
        deadlines: Sequence[Deadline] = table.deadline_of[self.phase](self)
        return deadlines

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
    def view(self, seat: int | None) -> dict[str, Json]:
        """What ``seat`` may know, JSON-serialisable. ``None`` is a spectator.

        The game's ``_view(seat)`` plus the fields every game shares (``common_view``)."""
        v = self._view(seat)
        self._add_common(v, seat)
        return v

    def seat_view(self, seat: int) -> dict[str, Json]:
        """``view(seat)`` for a search's rollout bots: the same fields with the same
        values, but for ``to_act`` and ``out_of_turn``. A rollout bot is asked to act or to
        react, which tells it which, and listing who else may act costs a rollout more than
        anything else the core adds. Read-only (parts may be shared with other views)."""
        v = self._view(seat)
        self._add_common(v, seat, seats=False)
        return v

    def typed_view(self, seat: int) -> Any:
        """What ``seat`` sees, in the game's own terms, for the game's own bot: the facts
        of ``view(seat)`` and no others, read from the state without building the view
        (HOAX's ``Seen``). A game that offers it tests it against the view. Default: none
        (a game's bots read ``view``)."""
        raise NotImplementedError(f"{type(self).__name__} offers its bots no reading "
                                  "of its own: read the view")

    def full_view(self) -> dict[str, Json]:
        """Everything (replays, debugging): the game's ``_full_view`` plus the shared
        fields (``seat`` is None, ``out_of_turn`` lists every seat) and ``move_number``."""
        v = self._full_view()
        self._add_common(v, None)
        v["out_of_turn"] = list(self.out_of_turn())
        v["move_number"] = self.move_number
        return v

    def common_view(self, seat: int | None) -> dict[str, Json]:
        """The view fields every game shares: ``seat``, ``phase`` (name or None),
        ``to_act``, ``out_of_turn``, ``over`` and ``winner`` (None until over, or tied).

        ``out_of_turn`` holds the viewing seat alone, when it may act out of turn: who
        else may can depend on hidden cards (who holds a card to throw in). No
        ``move_number``: a private action (Pixmit's offer target) would show in it. The
        full view has both."""
        v: dict[str, Json] = {}
        self._add_common(v, seat)
        return v

    def _add_common(self, v: dict[str, Json], seat: int | None, seats: bool = True) -> None:
        """The shared fields (``common_view``); ``seats=False``: all but ``to_act`` and
        ``out_of_turn`` (``seat_view``)."""
        over = self.is_over()
        v["seat"] = seat
        v["phase"] = self.phase_name()
        if seats:
            v["to_act"] = list(self.to_act())
            v["out_of_turn"] = [seat] if seat is not None and seat in self.out_of_turn() \
                else []
        v["over"] = over
        v["winner"] = self.result().winner if over else None

    def _view(self, seat: int | None) -> dict[str, Json]:
        """The game's own view fields for ``seat`` (a new dict the core adds to)."""
        raise NotImplementedError(f"{type(self).__name__} has no view")

    def _full_view(self) -> dict[str, Json]:
        """The game's own fields of ``full_view`` (a new dict)."""
        raise NotImplementedError(f"{type(self).__name__} has no full view")

    @abstractmethod
    def determinise(self, seat: int, rng: random.Random) -> State[G]:
        """A complete state consistent with ``seat``'s view, hidden parts resampled.

        The copy draws its future chance from ``rng`` (``Shuffler.reseeded``): future
        chance is unknown to the seat as well. Usually starts with
        ``self._copy(self.shuffler.reseeded(rng))``.
        """

    def clone(self) -> State[G]:
        """An independent copy (cheap: no deepcopy)."""
        return self._copy(self.shuffler.copy())

    def _copy(self, shuffler: Shuffler) -> State[G]:
        """A copy with ``shuffler`` as its chance: written from ``FIELDS``
        (``StateFields.copy_source``)."""
        raise NotImplementedError(f"{type(self).__name__} declares no FIELDS")

    def undeclared(self) -> list[str]:
        """Attributes this state holds that its class's ``FIELDS`` does not declare
        (the conformance suite requires none); empty for a class without ``FIELDS`` and
        in the compiled build, where a state holds only the attributes its class names."""
        fields = self.FIELDS
        held = getattr(self, "__dict__", None)
        if fields is None or held is None:
            return []
        return [n for n in held if n not in fields]

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
    #: Actions a server table may reach (clock actions count): there it is abandoned
    #: (docs/server.md, "Length of a table"). Well above real games' lengths, so that only
    #: a runaway table or an endless one meets it; the log and its replays stay bounded.
    table_max_actions: int = 100_000
    #: The game runs clocks of its own (``State.deadlines``): a live table waits until
    #: every person says they are ready before they run, and the lobby offers a pace.
    realtime: bool = False
    #: The hard bot level's simulations per decision (``bots.levels``), measured for this
    #: game with ``benchmarks/bot_levels.py``; None: not measured, the levels' default.
    hard_budget: int | None = None
    #: More settings of the hard level's search, as a bot spec's ``key=value`` items
    #: joined by ``:`` (``"opponents=policy"``), measured for this game (``bots.levels``).
    hard_search: str = ""
    #: The search bot's rollout depth when its spec names none (``bots.ismcts``); None:
    #: its default (a cut where the game has an ``estimate()`` of its own, else none).
    search_depth: int | None = None
    #: The final order by the rules, for the conformance suite: each seat's key from the
    #: finished state and its result, larger is better, equal keys share a rank. None:
    #: the scores, higher is better.
    rank_keys: Callable[[Any, Result], Sequence[Any]] | None = None
    #: The end rule always leaves exactly one winner (no shared first place).
    one_winner: bool = False
    #: The fixed OpenSkill rating (mu, sigma) of each bot level ("easy", "medium",
    #: "hard") as a rated opponent (``server.ratings``), calibrated with the tournament
    #: (docs/server.md, "Ratings"); a level missing: the model's default.
    bot_ratings: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    #: The lab's profile of the game (``lab.profiles.GameProfile``), loaded when the lab
    #: asks (the package need not import the lab); None: the lab's generic answers.
    lab_profile: Callable[[], Any] | None = None
    #: The game's small research configuration for OpenSpiel's tabular tools
    #: (``core.research.Config``, in the package's ``research.py``), loaded when
    #: ``spieltisch.openspiel`` registers the games; None: ``research=True`` is refused.
    research: Callable[[], Any] | None = None
    #: A regular expression for the game's internal codes (cards, actions) that a player
    #: must never read as text (the browser tests look for it); empty: none.
    raw_codes: str = ""
    #: Options of the tables the suite plays in a browser against bots (``tests/browser``):
    #: no timer that fines a click a loaded machine delays, waits short enough for a round
    #: in a test's time. Empty: the defaults.
    test_options: Mapping[str, Any] = field(default_factory=dict)
    #: The browser suite plays a whole game (it ends within about two minutes of bots and
    #: quick clicks); False: it plays until the end or the second round, what comes first.
    test_whole_game: bool = False
    #: Options that keep a game of random moves short, with the fewest players they apply
    #: from: ``(6, {"min_rounds": 1})``. The suites' random games use them (OpenSpiel's
    #: simulation test keeps a copy of every state). None: the defaults at every count.
    quick_options: tuple[int, Mapping[str, Any]] | None = None
    #: Player counts whose random games take too long for the normal suite even so: the
    #: suites mark them ``slow``.
    slow_players: tuple[int, ...] = ()

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
