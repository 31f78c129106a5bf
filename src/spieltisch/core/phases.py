"""Turn structure as data: each game's phases and, per phase, who may act and how.

In the spirit of boardgame.io's phases and stages: a game defines ``class Phase(IntEnum)``
and one ``PhaseTable`` giving every phase exactly one ``Rule`` — who may act (``Who``)
and how those seats are found, which kinds of action the phase allows, its handlers
(legal actions, apply, why an attempt is illegal: unbound methods of the state), what
opens and closes it (one line of prose each) and its deadlines if it is timed.

``State`` consults the table of a class that sets ``PHASES`` (``core/game.py``): its
``to_act``, ``out_of_turn``, ``legal_actions``, ``apply``, ``_why_illegal`` and
``deadlines`` dispatch on ``self.phase``: one tuple index by the phase's value and one
call of the handler (the state holds its class's table in a slot, ``_phases``); a game
with a table overrides none of them (the conformance suite checks it). No
code depends on the numeric order of phases: the values are only indices.

The table prints itself as Markdown (``PhaseTable.markdown``) for docs and docstrings.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum, Flag, IntEnum
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from .game import Check, Deadline, Event



class Who(Flag):
    """Who may act in a phase; ``TURN | WINDOW`` when one seat must act and others may."""

    #: Nobody acts: the phase waits on time (a deadline) or is the end of the game.
    NOBODY = 0
    #: The game waits for one seat (``State.to_act`` holds exactly that seat).
    TURN = 1
    #: Out of turn: the seats may act but the game does not wait (``State.out_of_turn``).
    WINDOW = 2
    #: The game waits for several seats at once (simultaneous choices; ``to_act``).
    EVERY = 4


#: Finds seats from a state: ``(state) -> seats``.
Seats = Callable[[Any], Sequence[int]]


@dataclass(frozen=True)
class Rule:
    """What one phase allows. Handlers are unbound methods of the game's state class."""

    #: Who may act (``Who.TURN``, ``Who.WINDOW``, ``Who.EVERY``, ``Who.NOBODY`` or a union).
    who: Who
    #: The kinds of action the phase allows (members of the game's own action-kind Enum).
    actions: Collection[Enum] = ()
    #: The seats the game waits for (``to_act``): required with ``TURN`` or ``EVERY``.
    seats: Callable[[Any], Sequence[int]] | None = None
    #: The seats that may act out of turn (``out_of_turn``): required with ``WINDOW``.
    window: Callable[[Any], Sequence[int]] | None = None
    #: ``(state, seat) -> actions``: the legal actions of a seat in this phase (none for a
    #: seat that may not act: the handler checks, the core does not ask again).
    legal: Callable[[Any, int], list[int]] | None = None
    #: ``(state, seat, action) -> events``: apply an action already judged legal.
    apply: Callable[[Any, int, int], list[Event]] | None = None
    #: ``(state, seat, action) -> Check``: why an action is not legal in this phase.
    why: Callable[[Any, int, int], Check] | None = None
    #: ``(state) -> deadlines`` when the phase is timed.
    deadline: Callable[[Any], Sequence[Deadline]] | None = None
    #: What opens the phase (one line of prose, cite the spec's §).
    opens: str = ""
    #: What closes it.
    closes: str = ""

    def __post_init__(self) -> None:
        waits = bool(self.who & (Who.TURN | Who.EVERY))
        if waits != (self.seats is not None):
            raise TypeError(f"a rule with who={self.who} needs 'seats' exactly when the "
                            "game waits for seats (TURN or EVERY)")
        if bool(self.who & Who.WINDOW) != (self.window is not None):
            raise TypeError(f"a rule with who={self.who} needs 'window' exactly when seats "
                            "may act out of turn (WINDOW)")
        if self.who & Who.TURN and self.who & Who.EVERY:
            raise TypeError("a phase waits for one seat (TURN) or several (EVERY), not both")
        if self.who is not Who.NOBODY and (self.legal is None or self.apply is None):
            raise TypeError(f"a rule where seats act ({self.who}) needs 'legal' and 'apply'")


P = TypeVar("P", bound=IntEnum)


class PhaseTable(Generic[P]):
    """Every member of a game's ``Phase`` enum with exactly one ``Rule``; O(1) lookup."""

    __slots__ = ("phase", "rules", "names", "_by_value", "seats_of", "window_of", "legal_of",
                 "apply_of", "why_of", "deadline_of")

    def __init__(self, phase: type[P], rules: Mapping[P, Rule]) -> None:
        missing = [p.name for p in phase if p not in rules]
        extra = [repr(p) for p in rules if not (isinstance(p, phase) and type(p) is phase)]
        if missing or extra:
            parts = []
            if missing:
                parts.append(f"no rule for {', '.join(missing)}")
            if extra:
                parts.append(f"rules for what is not a {phase.__name__}: {', '.join(extra)}")
            raise TypeError(f"phase table of {phase.__name__}: {'; '.join(parts)}")
        if any(p.value < 0 for p in phase):
            raise TypeError(f"{phase.__name__}: phase values must be non-negative indices")
        by_value: list[Rule | None] = [None] * (max(p.value for p in phase) + 1)
        for p in phase:
            by_value[p.value] = rules[p]
        self.phase = phase
        #: The rules in the enum's order of definition.
        self.rules: tuple[tuple[P, Rule], ...] = tuple((p, rules[p]) for p in phase)
        self._by_value: tuple[Rule | None, ...] = tuple(by_value)
        #: Each phase's name as views show it (``"play"``), indexed by phase.
        self.names: tuple[str | None, ...] = tuple(
            phase(i).name.lower() if r is not None else None for i, r in enumerate(by_value))
        # Per-handler tuples indexed by phase (a missing handler: nobody, no actions), so
        # a dispatch is one index and one call: ``table.legal_of[state.phase](state, seat)``.
        self.seats_of: tuple[Callable[[Any], Sequence[int]], ...] = self.handlers("seats", _nobody)
        self.window_of: tuple[Callable[[Any], Sequence[int]], ...] = \
            self.handlers("window", _nobody)
        self.legal_of: tuple[Callable[[Any, int], list[int]], ...] = \
            self.handlers("legal", _no_actions)
        self.apply_of: tuple[Callable[[Any, int, int], list[Event]], ...] = \
            self.handlers("apply", _no_apply)
        self.why_of: tuple[Callable[[Any, int, int], Check] | None, ...] = \
            self.handlers("why", None)
        self.deadline_of: tuple[Callable[[Any], Sequence[Deadline]], ...] = \
            self.handlers("deadline", _no_deadlines)

    def handlers(self, name: str, default: Any = None) -> tuple[Any, ...]:
        """One handler of every rule (``"legal"``, ``"apply"``, …) in a tuple indexed by
        the phase's value, ``default`` where a rule has none: a game's hot path indexes
        it with ``self.phase``."""
        return tuple(default if r is None or getattr(r, name) is None else getattr(r, name)
                     for r in self._by_value)

    def __getitem__(self, phase: int) -> Rule:
        """The rule of ``phase`` (a member of the game's ``Phase``; one tuple index)."""
        return self._by_value[phase]  # type: ignore[return-value]

    def __iter__(self) -> Iterator[tuple[P, Rule]]:
        return iter(self.rules)

    def __len__(self) -> int:
        return len(self.rules)

    def markdown(self) -> str:
        """The table in Markdown: phase, who acts, actions, opens, closes, timed."""
        lines = ["| Phase | Who acts | Actions | Opens | Closes | Timed |",
                 "|---|---|---|---|---|---|"]
        for p, r in self.rules:
            who = " + ".join(str(w.name).lower() for w in (Who.TURN, Who.WINDOW, Who.EVERY)
                             if w & r.who) if r.who is not Who.NOBODY else "nobody"
            kinds = ", ".join(_kind_name(k) for k in r.actions) or "—"
            lines.append(f"| {p.name.lower()} | {who} | {kinds} | {_cell(r.opens)} "
                         f"| {_cell(r.closes)} | {'yes' if r.deadline else 'no'} |")
        return "\n".join(lines)


def _nobody(state: Any) -> tuple[int, ...]:
    return ()


def _no_deadlines(state: Any) -> list[Deadline]:
    return []


def _no_actions(state: Any, seat: int) -> list[int]:
    return []


def _no_apply(state: Any, seat: int, action: int) -> list[Event]:
    raise TypeError(f"{type(state).__name__}: nobody acts in phase {state.phase!r}")


def _kind_name(kind: Enum) -> str:
    return kind.name.lower() if isinstance(kind, Enum) else str(kind)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ") or "—"


__all__ = ["PhaseTable", "Rule", "Who"]
