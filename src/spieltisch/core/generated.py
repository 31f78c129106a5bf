"""Write each state class's ``_copy`` and ``_empty_fields`` from its ``FIELDS``.

The methods stand written out in the game's ``state.py`` between two marker lines
(``core.fields.BEGIN`` and ``END``), because the compiled build compiles them like any
other method (``core/fields.py`` says why). After changing a declaration::

    python -m spieltisch.core.generated --write hockey

rewrites the block; ``--check`` fails when one is stale, as ``tests/test_compiled.py``
does. Only this tool writes source: nothing in the package runs generated text.
"""

from __future__ import annotations

import argparse
import inspect
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .fields import BEGIN, END
from .game import State


def written(path: Path) -> str | None:
    """The generated block as it stands in the module at ``path`` (markers included);
    ``None`` if it has none."""
    text = path.read_text(encoding="utf-8")
    begin, end = text.find(BEGIN + "\n"), text.find(END + "\n")
    return None if begin < 0 or end < begin else text[begin:end + len(END) + 1]


def generated(cls: type[State[Any]]) -> str:
    """The block ``cls``'s ``FIELDS`` generates."""
    if cls.FIELDS is None:
        raise TypeError(f"{cls.__name__} declares no FIELDS")
    return cls.FIELDS.generated(cls.__name__)


def write(cls: type[State[Any]]) -> bool:
    """Rewrite ``cls``'s generated block from its ``FIELDS`` in its module's source;
    whether the text changed. The block must be there (add the two marker lines)."""
    path = Path(inspect.getfile(cls))
    old = written(path)
    if path.suffix != ".py" or old is None:
        raise ValueError(f"{path}: no block between {BEGIN.strip()!r} and {END.strip()!r}")
    new = generated(cls)
    if new != old:
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return new != old


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m spieltisch.core.generated --write GAME...`` (or ``--check``): rewrite or
    check each game's generated ``_copy`` and ``_empty_fields`` (no game: every game)."""
    from . import registry

    parser = argparse.ArgumentParser(prog="python -m spieltisch.core.generated",
                                     description=main.__doc__)
    parser.add_argument("--write", action="store_true", help="rewrite the blocks")
    parser.add_argument("--check", action="store_true", help="fail on a stale block")
    parser.add_argument("games", nargs="*")
    args = parser.parse_args(argv)
    stale = []
    for name in args.games or registry.game_names():
        cls = type(registry.get_spec(name).configure().new_state(seed=0))
        path = Path(inspect.getfile(cls))
        if args.write and write(cls):
            print(f"{name}: rewrote {path}")
        elif written(path) != generated(cls):
            stale.append(name)
            print(f"{name}: {path} is not what FIELDS generates")
    return 1 if stale and args.check else 0


__all__ = ["generated", "main", "write", "written"]

if __name__ == "__main__":
    raise SystemExit(main())
