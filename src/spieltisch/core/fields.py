"""A state's fields, declared once: how each is copied, its type and empty value.

A game's state class lists every attribute it keeps in ``FIELDS``, in the order a
reader should meet them, each with how a copy treats it (``Copy``), its type where its
value does not say it, and the source text of its value before the deal::

    FIELDS = StateFields(period=(Copy.VALUE, "", "0"), hands=(Copy.LIST, "", "[0] * n"),
                         period_goals=(Copy.NESTED, "list[list[int]]", "[]"),
                         _view_cache=Copy.CACHE)

The class's ``_copy(shuffler)`` (and so ``clone`` and the start of ``determinise``) and
``_empty_fields()`` are written from it: ``FIELDS.copy_source("HockeyState")`` and
``FIELDS.empty_source()`` print them, ``python -m spieltisch.core.generated --write``
keeps them in ``state.py`` between the markers ``BEGIN`` and ``END``, and a test
(``tests/test_compiled.py``) fails when the block there is not exactly that text, so a
changed declaration cannot leave either behind. ``State.undeclared()`` names any
attribute an instance holds that the class did not declare; the conformance suite fails
on it, so a new field cannot be forgotten either.

Why written out rather than generated when the class is made (as it was): the compiled
build (mypyc, ``docs/performance.md``) compiles them like any other method, to direct
slot assignments of the declared types, and cannot add methods to a class at run time.
Field by field, and no copy of ``__dict__``: an instance whose ``__dict__`` was replaced
wholesale keeps its attributes in a plain dict, every read on it is slower, and a
compiled instance has no ``__dict__``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from enum import Enum
from typing import Final


class Copy(Enum):
    """How a copy of the state treats a field."""

    #: Immutable, or never mutated in place (replaced whole): shared by the copy.
    VALUE = "value"
    #: A list of immutable values: copied with ``[:]``.
    LIST = "list"
    #: ``None`` or a list of immutable values.
    OPTIONAL_LIST = "optional list"
    #: A container of mutable containers (list of lists, list of dicts): both levels copied.
    NESTED = "nested"
    #: Anything with ``.copy()`` (dict, set, a small object of the game).
    COPY = "copy"
    #: A cache: not copied (the copy starts with the class's empty value of that name).
    CACHE = "cache"


#: The fields every ``State`` has (``core/game.py``); ``shuffler`` is copied by the caller.
BASE_FIELDS: Final[dict[str, Copy]] = {
    "game": Copy.VALUE,
    "shuffler": Copy.VALUE,
    "move_number": Copy.VALUE,
    "opening": Copy.VALUE,
    "record_events": Copy.VALUE,
    "_phases": Copy.VALUE,
    "_legal_move": Copy.CACHE,
    "_legal_seat": Copy.CACHE,
    "_legal_list": Copy.CACHE,
}


#: A field's declaration in full: how a copy treats it, its type as written in
#: ``_empty_fields`` ("" where the empty value or ``State`` gives it), and the source text
#: of its value before the deal (``None``: set by hand, see ``StateFields``).
Declared = tuple[Copy, str, "str | None"]


class StateFields:
    """An ordered declaration of a state class's fields: how each is copied and, where
    given, its type and value before the deal (``by_hand``: the statement that sets the
    rest, e.g. ``"self._round_fields(-1)"``)."""

    __slots__ = ("kinds", "types", "empties", "by_hand")

    def __init__(self, *, by_hand: str = "", **fields: Copy | Declared) -> None:
        self.kinds: dict[str, Copy] = {}
        self.types: dict[str, str] = {}
        self.empties: dict[str, str | None] = {}
        self.by_hand = by_hand
        for name, field in fields.items():
            kind, type_, empty = field if isinstance(field, tuple) else (field, "", None)
            if not isinstance(kind, Copy):
                raise TypeError(f"field {name!r}: {kind!r} is not a Copy kind")
            if name in BASE_FIELDS:
                raise TypeError(f"field {name!r} belongs to every State; do not declare it")
            if kind is Copy.CACHE and empty is not None:
                raise TypeError(f"cache field {name!r}: its empty value is the class's")
            self.kinds[name] = kind
            self.types[name] = type_
            self.empties[name] = empty

    def __iter__(self) -> Iterator[str]:
        return iter(self.kinds)

    def __contains__(self, name: object) -> bool:
        return name in self.kinds or name in BASE_FIELDS

    def __or__(self, other: StateFields) -> StateFields:
        """A subclass's declaration added to its parent's."""
        fields: dict[str, Copy | Declared] = {}
        for part in (self, other):
            fields.update({n: (k, part.types[n], part.empties[n]) for n, k in part.kinds.items()})
        return StateFields(by_hand=other.by_hand or self.by_hand, **fields)

    def of(self, kind: Copy) -> list[str]:
        """The fields copied as ``kind``, in declaration order."""
        return [n for n, k in self.kinds.items() if k is kind]

    def copy_source(self, cls_name: str) -> str:
        """The ``_copy`` method of state class ``cls_name`` with these fields, as source
        text to paste into the class (4-space indent): a new state of the same game with
        ``shuffler`` as its chance, then one statement per field in declaration order
        (caches left out: the copy starts with the class's empty value)."""
        body = [f"s = {cls_name}(self.game, shuffler)", "s.move_number = self.move_number",
                "s.opening = self.opening", "s.record_events = self.record_events"]
        for name, kind in self.kinds.items():
            if kind is not Copy.CACHE:
                body.append(_STATEMENT[kind].format(dst=f"s.{name}", src=f"self.{name}"))
        lines = [f"def _copy(self, shuffler: Shuffler) -> {cls_name}:",
                 '    """A copy with ``shuffler`` as its chance (``FIELDS.copy_source``)."""',
                 *(f"    {line}" for line in body), "    return s"]
        return "\n".join(f"    {line}" for line in lines) + "\n"

    def empty_source(self) -> str:
        """The ``_empty_fields`` method these fields give, as source text (4-space
        indent): each field with an empty value set to it, typed where the declaration
        says, in declaration order (``n`` is the number of players), then ``by_hand``."""
        body = []
        for name, kind in self.kinds.items():
            empty = self.empties[name]
            if empty is not None:
                type_ = self.types[name]
                body.append(f"self.{name}{': ' + type_ if type_ else ''} = {empty}")
            elif kind is not Copy.CACHE and not self.by_hand:
                raise TypeError(f"field {name!r} has no empty value and nothing sets it by "
                                "hand (by_hand)")
        if any(_USES_N.search(empty) for empty in self.empties.values() if empty):
            body.insert(0, "n = self.game.num_players")
        if self.by_hand:
            body.append(self.by_hand)
        lines = ["def _empty_fields(self) -> None:",
                 '    """Every field at its value before the deal (``FIELDS.empty_source``)."""',
                 *(f"    {line}" for line in body or ["pass"])]
        return "\n".join(f"    {line}" for line in lines) + "\n"

    def generated(self, cls_name: str) -> str:
        """The block ``write`` keeps in the class's module: both methods between the
        markers."""
        return f"{BEGIN}\n{self.copy_source(cls_name)}\n{self.empty_source()}{END}\n"


#: The lines around the generated methods in a state module (4-space indent).
BEGIN: Final = ("    # -- generated from FIELDS (python -m spieltisch.core.generated --write): "
                "do not edit --")
END: Final = "    # -- end generated --"
#: An empty value that reads the number of players.
_USES_N: Final = re.compile(r"\bn\b")


#: The statement that copies a field of each kind from ``src`` to ``dst``.
_STATEMENT: Final = {
    Copy.VALUE: "{dst} = {src}",
    Copy.LIST: "{dst} = {src}[:]",
    Copy.OPTIONAL_LIST: "{dst} = None if {src} is None else {src}[:]",
    Copy.NESTED: "{dst} = [y.copy() for y in {src}]",
    Copy.COPY: "{dst} = {src}.copy()",
}


__all__ = ["BASE_FIELDS", "BEGIN", "END", "Copy", "StateFields"]
