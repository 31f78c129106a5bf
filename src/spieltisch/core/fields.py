"""A state's fields, declared once: how each is copied, and the check that none is missing.

A game's state class lists every attribute it keeps in ``FIELDS``, in the order a
reader should meet them, each with how a copy treats it (``Copy``)::

    FIELDS = StateFields(period=Copy.VALUE, hands=Copy.LIST,
                         period_goals=Copy.NESTED, _view_cache=Copy.CACHE)

From it ``State`` gets ``_copy(shuffler)`` (and so ``clone`` and the start of
``determinise``), generated once when the class is created, as the dataclasses module
generates ``__init__``: one assignment per field, the statements a hand-written copy
would run. ``State.undeclared()`` names any attribute an instance holds that the class
did not declare; the conformance suite fails on it, so a new field cannot be forgotten
by the copy (the copy would drop it).

Why assignments by default and not a copy of ``__dict__``: an instance whose
``__dict__`` was replaced wholesale keeps its attributes in a plain dict, and every
attribute read on it is slower; search bots play their rollouts on copies, and those ran
3–20% faster on copies made field by field (President, Pixmit, Hockey; measured with
CPython 3.11). It also writes no ``__dict__``, as a compiled (mypyc) build requires.
For a state of 40 or more fields, though, the one C-level copy of the dict wins over the
slower reads (HOAX, Hood Politix: a copy per ISMCTS simulation, 5 against 2 µs): such a
class sets ``COPY_DICT = True`` (``State``) and gets the other form, from the same
declaration.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from enum import Enum
from typing import Any


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
    #: A cache: dropped by a copy (it falls back to the class attribute of that name).
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

    def caches(self) -> list[str]:
        return ["_legal_cache", *self.of(Copy.CACHE)]

    def copier(self, cls: type, whole_dict: bool = False) -> Callable[[Any, Any], Any]:
        """Generate ``_copy(self, shuffler)`` for ``cls``: a copy of the state with
        ``shuffler`` as its chance, containers copied and caches dropped (one statement
        per field, in declaration order; with ``whole_dict``, one copy of the instance's
        dict, then a statement per container and cache)."""
        for name in self.of(Copy.CACHE):
            if not hasattr(cls, name):
                raise TypeError(f"{cls.__name__}: cache field {name!r} needs a class "
                                "attribute with its empty value (a copy falls back to it)")
        body = self._dict_copy() if whole_dict else self._field_copy()
        src = "def _copy(self, shuffler):\n    " + "\n    ".join(body) + "\n"
        namespace: dict[str, Any] = {"cls": cls, "new": object.__new__}
        exec(compile(src, f"<{cls.__qualname__}._copy>", "exec"), namespace)  # noqa: S102
        fn: Callable[[Any, Any], Any] = namespace["_copy"]
        fn.__qualname__ = f"{cls.__qualname__}._copy"
        fn.__doc__ = "A copy of the state with ``shuffler`` as its chance (from ``FIELDS``)."
        return fn

    def _dict_copy(self) -> list[str]:
        """The statements of a copy made from a copy of the instance's dict (values are
        in it already)."""
        body = ["s = new(cls)", "d = self.__dict__.copy()", "d['shuffler'] = shuffler"]
        for name in self.caches():  # dropped: the copy falls back to the class attribute
            body.append(f"d.pop({name!r}, None)")
        for name, kind in self.kinds.items():
            if kind is not Copy.VALUE and kind is not Copy.CACHE:
                body.append(_STATEMENT[kind].format(dst=f"d[{name!r}]", src=f"d[{name!r}]"))
        return [*body, "s.__dict__ = d", "return s"]

    def _field_copy(self) -> list[str]:
        """The statements of a copy made field by field (caches left out: the copy reads
        the class attribute until it computes its own)."""
        body = ["s = new(cls)", "s.game = self.game", "s.shuffler = shuffler",
                "s.move_number = self.move_number", "s.opening = self.opening",
                "s.record_events = self.record_events"]
        for name, kind in self.kinds.items():
            if kind is not Copy.CACHE:
                body.append(_STATEMENT[kind].format(dst=f"s.{name}", src=f"self.{name}"))
        return [*body, "return s"]


#: The statement that copies a field of each kind from ``src`` to ``dst``.
_STATEMENT = {
    Copy.VALUE: "{dst} = {src}",
    Copy.LIST: "{dst} = {src}[:]",
    Copy.OPTIONAL_LIST: "x = {src}\n    {dst} = None if x is None else x[:]",
    Copy.NESTED: "{dst} = [y.copy() for y in {src}]",
    Copy.COPY: "{dst} = {src}.copy()",
}


__all__ = ["BASE_FIELDS", "Copy", "StateFields"]
