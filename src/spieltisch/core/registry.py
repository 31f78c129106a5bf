"""The registry of games: every package under ``spieltisch.games`` that exposes ``SPEC``.

Adding a game means adding its package; nothing else in the project changes. This is
the one list of games: the command line's help and arguments, the server's lobby and
``/api/games``, the benchmarks and the conformance suite all ask ``game_names()``, and
the browser loads the ``client.js`` of each listed game's package (the generic table
when a game has no module of its own).

A game package outside ``spieltisch.games`` (one being written, or the suite's example
game) joins the registry through the environment: ``SPIELTISCH_GAMES`` lists package
folders (``os.pathsep`` between them); each folder's parent goes on ``sys.path`` and
the package is imported by its folder's name. Processes started from this one inherit
the variable, so a server, a worker or a forked pool sees the same games.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .game import ConfigError, GameSpec, State

_SPECS: dict[str, GameSpec] | None = None
#: The environment variable naming game packages outside ``spieltisch.games``.
EXTRA_GAMES = "SPIELTISCH_GAMES"


def _extra_packages() -> list[str]:
    """The module names of the packages ``SPIELTISCH_GAMES`` names, their folders'
    parents put on ``sys.path``; ``ConfigError`` for a folder that is no package."""
    names = []
    for entry in filter(None, os.environ.get(EXTRA_GAMES, "").split(os.pathsep)):
        folder = os.path.abspath(entry)
        if not os.path.isfile(os.path.join(folder, "__init__.py")):
            raise ConfigError(f"{EXTRA_GAMES}: {entry} is not a package folder "
                              "(no __init__.py)")
        parent = os.path.dirname(folder)
        if parent not in sys.path:
            sys.path.append(parent)
        names.append(os.path.basename(folder))
    return names


def _discover() -> dict[str, GameSpec]:
    """Import every game package once and keep the specs by name (sorted)."""
    global _SPECS
    if _SPECS is None:
        from .. import games

        found: dict[str, GameSpec] = {}
        modules = [f"{games.__name__}.{mod.name}" for mod in pkgutil.iter_modules(games.__path__)
                   if mod.ispkg]
        for module_name in modules + _extra_packages():
            spec = getattr(importlib.import_module(module_name), "SPEC", None)
            if isinstance(spec, GameSpec):
                if spec.name in found:
                    raise ConfigError(f"two games are named {spec.name!r}")
                found[spec.name] = spec
        _SPECS = dict(sorted(found.items()))
    return _SPECS


def game_names() -> list[str]:
    """The registered games' names, sorted."""
    return list(_discover())


def get_spec(name: str) -> GameSpec:
    """The spec of game ``name``; ``ConfigError`` lists the games for an unknown name."""
    specs = _discover()
    try:
        return specs[name]
    except KeyError:
        raise ConfigError(
            f"unknown game {name!r} (games: {', '.join(specs) or 'none'})"
        ) from None


def package_name(name: str) -> str:
    """The module name of game ``name``'s package (``spieltisch.games.hockey``, or
    ``example_game`` for a package ``SPIELTISCH_GAMES`` names): the package whose ``SPEC``
    it is, else (the spec made elsewhere) the game class's module."""
    spec = get_spec(name)
    module = spec.game_class.__module__
    while module:
        found = sys.modules.get(module)
        if getattr(found, "SPEC", None) is spec and getattr(found, "__file__", None):
            return module
        module = module.rpartition(".")[0]
    return spec.game_class.__module__


def package_dir(name: str) -> Path:
    """The folder of game ``name``'s package (its rules, guides, catalogs, client module):
    the package whose ``SPEC`` it is, wherever the package lives."""
    return Path(str(getattr(sys.modules.get(package_name(name)), "__file__", ""))).parent


def client_module(name: str) -> Path | None:
    """Game ``name``'s browser module (``client.js`` in its package), if it has one: without
    it the browser draws the game with the generic table."""
    path = package_dir(name) / "client.js"
    return path if path.is_file() else None


def new_game(
    name: str,
    num_players: int | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int | None = None,
    deck: Sequence[Any] | None = None,
) -> State[Any]:
    """A new state of game ``name``: the one-call entry point."""
    return get_spec(name).configure(num_players, options).new_state(seed=seed, deck=deck)


def load_position(pos: Any) -> State[Any]:
    """The state a position describes, its game, player count and options read from the
    position itself (JSON text, bytes or object); ``ConfigError`` names what is wrong."""
    from .position import header

    name, players, options = header(pos)
    return get_spec(name).configure(players, options).state_from_position(pos)
