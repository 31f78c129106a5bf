"""A state's fields, declared once: how each is copied, and the check that none is missing.

A game's state class lists every attribute it keeps in ``FIELDS``, in the order a
reader should meet them, each with how a copy treats it (``Copy``)::

    FIELDS = StateFields(period=Copy.VALUE, hands=Copy.LIST,
                         period_goals=Copy.NESTED, _view_cache=Copy.CACHE)

The class's ``_copy(shuffler)`` (and so ``clone`` and the start of ``determinise``) is
written from it: ``FIELDS.copy_source("HockeyState")`` prints the method, one statement
per field, and a test (``tests/test_compiled.py``) fails when a class's ``_copy`` is not
exactly that text, so a changed declaration cannot leave the copy behind.
``State.undeclared()`` names any attribute an instance holds that the class did not
declare; the conformance suite fails on it, so a new field cannot be forgotten either.

Why the copy is written out rather than generated when the class is made (as it was):
the compiled build (mypyc, ``docs/performance.md``) compiles it like any other method,
to direct slot assignments, and cannot add methods to a class at run time. Field by
field, and no copy of ``__dict__``: an instance whose ``__dict__`` was replaced
wholesale keeps its attributes in a plain dict, every read on it is slower, and a
compiled instance has no ``__dict__``.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import Enum


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
BASE_FIELDS: dict[str, Copy] = {
    "game": Copy.VALUE,
    "shuffler": Copy.VALUE,
    "move_number": Copy.VALUE,
    "opening": Copy.VALUE,
    "record_events": Copy.VALUE,
    "_legal_cache": Copy.CACHE,
}


class StateFields:
    """An ordered declaration of a state class's fields and how each is copied."""

    __slots__ = ("kinds",)

    def __init__(self, **kinds: Copy) -> None:
        for name, kind in kinds.items():
            if not isinstance(kind, Copy):
                raise TypeError(f"field {name!r}: {kind!r} is not a Copy kind")
            if name in BASE_FIELDS:
                raise TypeError(f"field {name!r} belongs to every State; do not declare it")
        self.kinds: dict[str, Copy] = dict(kinds)

    def __iter__(self) -> Iterator[str]:
        return iter(self.kinds)

    def __contains__(self, name: object) -> bool:
        return name in self.kinds or name in BASE_FIELDS

    def __or__(self, other: StateFields) -> StateFields:
        """A subclass's declaration added to its parent's."""
        return StateFields(**{**self.kinds, **other.kinds})

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


#: The statement that copies a field of each kind from ``src`` to ``dst``.
_STATEMENT = {
    Copy.VALUE: "{dst} = {src}",
    Copy.LIST: "{dst} = {src}[:]",
    Copy.OPTIONAL_LIST: "{dst} = None if {src} is None else {src}[:]",
    Copy.NESTED: "{dst} = [y.copy() for y in {src}]",
    Copy.COPY: "{dst} = {src}.copy()",
}


__all__ = ["BASE_FIELDS", "Copy", "StateFields"]
