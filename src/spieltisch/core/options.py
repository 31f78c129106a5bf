"""Typed rule options (variants) with defaults and validation."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Option:
    """One rule option. ``kind`` is ``bool``, ``int``, ``float`` or ``str``."""

    name: str
    kind: type[Any]
    default: Any
    help: str
    choices: Sequence[Any] | None = None
    minimum: float | None = None
    maximum: float | None = None
    #: A short name for players ("Skip rule"); ``help`` explains it. Both are English
    #: texts marked for translation in the game's catalog (``N_``) and shown translated.
    label: str = ""
    #: Words for the values of a ``choices`` option or a special number (-1 → "random"),
    #: marked for translation like ``label``.
    value_labels: Mapping[Any, str] | None = None
    #: The option names a seat (0-based; -1 a random one, its ``value_labels`` word):
    #: the lobby offers the seats by the labels the table uses ("Seat 1" …), never a
    #: number, and ``help`` says what the seat does without the numbers.
    seat: bool = False

    def parse(self, game: str, value: Any) -> Any:
        """Convert (from a command-line string too) and validate one value."""
        from .game import ConfigError

        where = f"option {self.name!r} of {game}"
        if isinstance(value, str) and self.kind is not str:
            text = value.strip().lower()
            try:
                if self.kind is bool:
                    if text in ("1", "true", "yes", "on"):
                        value = True
                    elif text in ("0", "false", "no", "off"):
                        value = False
                    else:
                        raise ValueError
                else:
                    value = self.kind(text)
            except ValueError:
                raise ConfigError(f"{where} must be a {self.kind.__name__}, not {value!r}") \
                    from None
        if self.kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, self.kind) or (self.kind is int and isinstance(value, bool)):
            raise ConfigError(f"{where} must be a {self.kind.__name__}, not {value!r}")
        if self.kind is float and not math.isfinite(value):
            # NaN passes every comparison below, and an infinite time never ends
            raise ConfigError(f"{where} must be a finite number, not {value!r}")
        if self.choices is not None and value not in self.choices:
            raise ConfigError(f"{where} must be one of {', '.join(map(str, self.choices))}, "
                              f"not {value!r}")
        if self.minimum is not None and value < self.minimum:
            raise ConfigError(f"{where} must be at least {self.minimum}, not {value!r}")
        if self.maximum is not None and value > self.maximum:
            raise ConfigError(f"{where} must be at most {self.maximum}, not {value!r}")
        return value

    def describe(self) -> str:
        extra = ""
        if self.choices is not None:
            extra = f" (one of {', '.join(map(str, self.choices))})"
        elif self.seat:
            extra = f" (a seat 0..{self.maximum} counted from 0; -1: a random seat)"
        elif self.minimum is not None or self.maximum is not None:
            extra = f" ({self.minimum}..{self.maximum})"
        return f"{self.name}={self.default!r}{extra}: {self.help}"


def validate_options(game: str, schema: Sequence[Option], given: Mapping[str, Any]
                     ) -> dict[str, Any]:
    """Defaults filled in, unknown names rejected, values checked."""
    from .game import ConfigError

    by_name = {o.name: o for o in schema}
    unknown = [k for k in given if k not in by_name]
    if unknown:
        known = ", ".join(by_name) or "none"
        raise ConfigError(f"unknown option {unknown[0]!r} for {game} (options: {known})")
    return {o.name: o.parse(game, given[o.name]) if o.name in given else o.default
            for o in schema}
