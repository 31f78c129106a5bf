"""The registry of games: every package under ``spieltisch.games`` that exposes ``SPEC``.

Adding a game means adding its package; nothing else in the project changes. This is
the one list of games: the command line's help and arguments, the server's lobby and
``/api/games``, the benchmarks and the conformance suite all ask ``game_names()``, and
the browser loads ``static/games/<name>.js`` for each game the server lists (the
generic table when a game has no module of its own).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping, Sequence
from typing import Any

from .game import ConfigError, GameSpec, State

_SPECS: dict[str, GameSpec] | None = None


def _discover() -> dict[str, GameSpec]:
    """Import every game package once and keep the specs by name (sorted)."""
    global _SPECS
    if _SPECS is None:
        from .. import games

        found: dict[str, GameSpec] = {}
        for mod in sorted(pkgutil.iter_modules(games.__path__), key=lambda m: m.name):
            if not mod.ispkg:
                continue
            module = importlib.import_module(f"{games.__name__}.{mod.name}")
            spec = getattr(module, "SPEC", None)
            if isinstance(spec, GameSpec):
                found[spec.name] = spec
        _SPECS = found
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
