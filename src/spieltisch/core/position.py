"""Positions: the whole state of a game at one moment as plain JSON (``docs/positions.md``).

A position is what ``full_view()`` shows plus whatever else the state needs to go on
exactly (the order of the draw pile, the phase, open faults, votes, the generator), in
hand-friendly text (card codes, not bit masks)::

    {"format": "spieltisch-position", "version": 1, "game": "hockey", "players": 2,
     "options": {"first_dealer": 0}, "move": 12,
     "chance": {"seed": 7},                 # or {"rng": "…"}: the generator's exact state
     "state": {…the game's own fields…}}

``State.position()`` writes one, ``Game.state_from_position`` reads one for a game
already configured, and ``load_position`` picks the game, player count and options from
the position itself. Reading checks everything a hand could get wrong and raises
``ConfigError`` naming it; a state built from a position never crashes later.

Each game writes and reads only its ``"state"`` object (``State._position`` and
``Game._state_from_position``), with ``Fields`` to read it: the core owns the envelope,
the generator and the checks every game shares (components, somebody to act).
"""

from __future__ import annotations

import base64
import builtins
import json
import math
import random
import struct
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from .game import ConfigError

if TYPE_CHECKING:
    from .cards import Shuffler
    from .game import Game, State

FORMAT = "spieltisch-position"
#: Raised when the layout changes; older versions are refused by name.
VERSION = 1
_ENVELOPE = ("format", "version", "game", "players", "options", "move", "chance", "state")

T = TypeVar("T")
_MISSING: Any = object()


class Fields:
    """Reads one JSON object of a position; every problem is a ``ConfigError`` naming
    the field by its path (``state.hands[2]``), so a hand-written position is easy to fix."""

    def __init__(self, data: Any, where: str = "position") -> None:
        if not isinstance(data, dict):
            raise ConfigError(f"{where} must be an object, not {_kind(data)}")
        self.data: dict[str, Any] = data
        self.where = where
        self._read: set[str] = set()

    def path(self, key: str | int) -> str:
        return f"{self.where}[{key}]" if isinstance(key, int) else f"{self.where}.{key}"

    def has(self, key: str) -> bool:
        return key in self.data

    def raw(self, key: str, default: Any = _MISSING) -> Any:
        """The value of ``key`` as it is; missing keys are an error unless a default is given."""
        self._read.add(key)
        if key in self.data:
            return self.data[key]
        if default is _MISSING:
            raise ConfigError(f"{self.path(key)} is missing")
        return default

    def int(self, key: str, lo: int | None = None, hi: int | None = None,
            default: Any = _MISSING) -> int:
        """An integer (``lo`` ≤ value ≤ ``hi``); booleans and floats are refused."""
        value = self.raw(key, default)
        return check_int(value, self.path(key), lo, hi)

    def float(self, key: str, lo: float | None = None, default: Any = _MISSING) -> float:
        """A finite number (at least ``lo``)."""
        value = self.raw(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not math.isfinite(value):
            raise ConfigError(f"{self.path(key)} must be a finite number, not {_show(value)}")
        if lo is not None and value < lo:
            raise ConfigError(f"{self.path(key)} must be at least {lo}, not {value}")
        return float(value)

    def bool(self, key: str, default: Any = _MISSING) -> bool:
        value = self.raw(key, default)
        if not isinstance(value, bool):
            raise ConfigError(f"{self.path(key)} must be true or false, not {_show(value)}")
        return value

    def str(self, key: str, choices: Iterable[str] | None = None, default: Any = _MISSING) -> str:
        value = self.raw(key, default)
        if not isinstance(value, str):
            raise ConfigError(f"{self.path(key)} must be a string, not {_show(value)}")
        if choices is not None:
            allowed = list(choices)
            if value not in allowed:
                raise ConfigError(f"{self.path(key)} must be one of {', '.join(allowed)}, "
                                  f"not {value!r}")
        return value

    # from here on a bare ``str``, ``int`` or ``list`` in an annotation names the method
    def optional(self, key: builtins.str, read: Callable[[builtins.str], T]) -> T | None:
        """``read(key)`` unless the value is null or missing."""
        if self.data.get(key) is None:
            self._read.add(key)
            return None
        return read(key)

    def list(self, key: builtins.str, length: builtins.int | None = None,
             default: Any = _MISSING) -> builtins.list[Any]:
        value = self.raw(key, default)
        if not isinstance(value, list):
            raise ConfigError(f"{self.path(key)} must be a list, not {_show(value)}")
        if length is not None and len(value) != length:
            raise ConfigError(f"{self.path(key)} must have {length} entries, not {len(value)}")
        return value

    def ints(self, key: builtins.str, length: builtins.int | None = None,
             lo: builtins.int | None = None, hi: builtins.int | None = None,
             default: Any = _MISSING) -> builtins.list[builtins.int]:
        """A list of integers, each checked as ``int`` does."""
        values = self.list(key, length, default)
        return [check_int(v, f"{self.path(key)}[{i}]", lo, hi) for i, v in enumerate(values)]

    def sub(self, key: builtins.str, default: Any = _MISSING) -> Fields:
        """A nested object."""
        return Fields(self.raw(key, default), self.path(key))

    def subs(self, key: builtins.str, length: builtins.int | None = None) -> builtins.list[Fields]:
        """A list of objects (one per seat, say)."""
        return [Fields(v, f"{self.path(key)}[{i}]")
                for i, v in enumerate(self.list(key, length))]

    def cards(self, key: builtins.str, game: Game,
              default: Any = _MISSING) -> builtins.list[builtins.int]:
        """A list of card codes (``["10H", "JK1"]``) as card ids of ``game``."""
        return card_ids(self.list(key, default=default), game, self.path(key))

    def done(self) -> None:
        """Refuse keys nobody read: a misspelt field must not be silently ignored."""
        extra = sorted(set(self.data) - self._read)
        if extra:
            raise ConfigError(f"{self.where} has unknown field {extra[0]!r}")


def check_int(value: Any, where: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{where} must be a whole number, not {_show(value)}")
    if lo is not None and value < lo:
        raise ConfigError(f"{where} must be at least {lo}, not {value}")
    if hi is not None and value > hi:
        raise ConfigError(f"{where} must be at most {hi}, not {value}")
    return value


def card_ids(codes: Any, game: Game, where: str) -> list[int]:
    """Card codes to ids; an unknown code or a non-string names its place."""
    if not isinstance(codes, list):
        raise ConfigError(f"{where} must be a list of card codes, not {_show(codes)}")
    out = []
    for i, code in enumerate(codes):
        if not isinstance(code, str):
            raise ConfigError(f"{where}[{i}] must be a card code such as "
                              f"{game.card_codes[0]!r}, not {_show(code)}")
        try:
            out.append(game.card_id(code))
        except ConfigError:
            raise ConfigError(f"{where}[{i}]: there is no card {code!r} in {game.name}") \
                from None
    return out


def check_distinct(places: Mapping[str, Sequence[int]], game: Game,
                   complete: bool = True) -> None:
    """Every card lies in at most one place (and, if ``complete``, each card somewhere):
    ``places`` maps a place's name (``"hand of seat 2"``) to the card ids there."""
    seen: dict[int, str] = {}
    for where, cards in places.items():
        for c in cards:
            if c in seen:
                other = seen[c]
                raise ConfigError(f"card {game.card_codes[c]} is both in {other} and in {where}"
                                  if other != where else
                                  f"card {game.card_codes[c]} is twice in {where}")
            seen[c] = where
    if complete:
        missing = [game.card_codes[c] for c in range(len(game.card_codes)) if c not in seen]
        if missing:
            shown = ", ".join(missing[:5]) + (" …" if len(missing) > 5 else "")
            raise ConfigError(f"{len(missing)} card(s) are nowhere in the position: {shown}")


# -- the generator ---------------------------------------------------------------------------

def rng_to_text(rng: random.Random) -> str:
    """The generator's exact state as compact text (Mersenne Twister words, base64)."""
    version, internal, gauss = rng.getstate()
    raw = struct.pack(f"<{len(internal)}I", *internal)
    text = base64.b64encode(raw).decode("ascii")
    return text if gauss is None else f"{text}|{gauss!r}"


def rng_from_text(text: Any, where: str) -> random.Random:
    if not isinstance(text, str):
        raise ConfigError(f"{where} must be the text written by a position, not {_show(text)}")
    body, _, gauss_text = text.partition("|")
    try:
        raw = base64.b64decode(body, validate=True)
        internal = struct.unpack(f"<{len(raw) // 4}I", raw)
        gauss = float(gauss_text) if gauss_text else None
        rng = random.Random.__new__(random.Random)
        rng.setstate((3, internal, gauss))
    except (ValueError, TypeError, struct.error) as e:
        raise ConfigError(f"{where} is not a generator state written by a position ({e})") \
            from None
    return rng


def write(state: State[Any]) -> dict[str, Any]:
    """The position of ``state`` (see the module docstring)."""
    game = state.game
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game.name,
        "players": game.num_players,
        "options": dict(game.options),
        "move": state.move_number,
        "chance": {"rng": rng_to_text(state.shuffler.rng),
                   "stacked": [[game.card_codes[c] for c in order]
                               for order in state.shuffler.stacked]},
        "state": state._position(),
    }


def parse(pos: Any) -> dict[str, Any]:
    """A position given as JSON text, bytes or an already-parsed object."""
    if isinstance(pos, bytes):
        try:
            pos = pos.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ConfigError(f"the position is not UTF-8 text ({e.reason} at byte {e.start})") \
                from None
    if isinstance(pos, str):
        try:
            pos = json.loads(pos, parse_constant=_refuse_constant)
        except json.JSONDecodeError as e:
            raise ConfigError(f"the position is not valid JSON: {e.msg} at line {e.lineno}, "
                              f"column {e.colno}") from None
        except RecursionError:
            raise ConfigError("the position is nested too deeply") from None
    if not isinstance(pos, dict):
        raise ConfigError(f"a position must be a JSON object, not {_kind(pos)}")
    fmt = pos.get("format", FORMAT)
    if fmt != FORMAT:
        raise ConfigError(f"this is not a spieltisch position (format {_show(fmt)})")
    return pos


def header(pos: Any) -> tuple[str, int, dict[str, Any]]:
    """The game, player count and options a position names."""
    f = Fields(parse(pos))
    name = f.str("game")
    players = f.int("players", 1)
    options = f.raw("options", {})
    if not isinstance(options, dict):
        raise ConfigError(f"position.options must be an object, not {_show(options)}")
    return name, players, options


def read(game: Game, pos: Any) -> State[Any]:
    """Build a state of ``game`` (already configured) from a position, checking it whole."""
    f = Fields(parse(pos))
    f.str("format", (FORMAT,), default=FORMAT)
    version = f.int("version")
    if version != VERSION:
        raise ConfigError(f"position version {version} is not supported (this is version "
                          f"{VERSION})")
    name = f.str("game")
    if name != game.name:
        raise ConfigError(f"the position is of {name}, not {game.name}")
    players = f.int("players")
    if players != game.num_players:
        raise ConfigError(f"the position has {players} players, this game {game.num_players}")
    options = f.raw("options", {})
    if not isinstance(options, dict):
        raise ConfigError(f"position.options must be an object, not {_show(options)}")
    from .options import validate_options

    if validate_options(game.name, game.spec.options, options) != game.options:
        raise ConfigError("the position's options differ from this game's")
    move = f.int("move", 0, default=0)
    shuffler = _read_chance(f.sub("chance", {}), game)
    body = f.sub("state")
    f.done()
    state = game._state_from_position(body, shuffler)
    body.done()
    state.move_number = move
    _check_whole(game, state)
    return state


def _read_chance(f: Fields, game: Game) -> Shuffler:
    from .cards import Shuffler

    if f.has("rng") and f.has("seed"):
        raise ConfigError("position.chance takes either a seed or an rng, not both")
    if f.has("rng"):
        rng = rng_from_text(f.raw("rng"), f.path("rng"))
    else:
        rng = random.Random(f.int("seed", default=0))
    stacked = [card_ids(order, game, f"{f.path('stacked')}[{i}]")
               for i, order in enumerate(f.list("stacked", default=[]))]
    f.done()
    return Shuffler(rng, stacked)


def _check_whole(game: Game, state: State[Any]) -> None:
    """Checks every game shares: the components are those of a fresh deal, and a game
    that is not over waits for somebody or for a timer."""
    fresh = game.new_state(seed=0).components()
    have = state.components()
    for name, count in fresh.items():
        if have.get(name) != count:
            raise ConfigError(f"the position has {have.get(name)} {name}, the game has {count}")
    if not state.is_over() and not state.may_act() and not state.deadlines():
        raise ConfigError("nobody may act in the position and no timer runs: it cannot go on")


def _refuse_constant(name: str) -> Any:
    raise ConfigError(f"the position contains {name}, which is not a JSON number")


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false",
            type(None): "null"}.get(type(value), "a number")


def _show(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, float) or math.isfinite(value) \
        else str(value)
    return text if len(text) <= 40 else text[:37] + "…"
