"""What a lab run plays: variants, player counts, bots and the games' seeds.

Every variant plays game ``i`` of a player count on the same seeds: the deal seed and
the bots' seeds are ``simulate.game_seed(seed, i)``, exactly as ``spieltisch simulate``
seeds its game ``i``. So two variants differ only by their rules, and where an option
does not change the deal (``min_rounds``) they are played on the very same cards.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots import make_bot, parse_bot_spec
from ..core.game import ConfigError
from ..core.registry import get_spec
from ..simulate import game_seed

_NAME = re.compile(r"^[A-Za-z0-9_.+-]{1,40}$")


@dataclass(frozen=True)
class Variant:
    """A named set of rule options (the rest at their defaults)."""

    name: str
    options: tuple[tuple[str, Any], ...] = ()

    def describe(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.options) or "the standard rules"


def parse_variant(text: str) -> Variant:
    """``NAME:opt=val,opt=val`` (or just ``NAME``: the standard rules) → a ``Variant``."""
    name, colon, rest = text.strip().partition(":")
    name = name.strip()
    if not _NAME.match(name):
        raise ConfigError(f"--variant takes NAME:opt=val,opt=val with a NAME of letters, "
                          f"digits, '_', '-', '.' or '+', not {text!r}")
    options: dict[str, str] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ConfigError(f"variant {name!r}: options are opt=val, not {item!r}")
        options[key.strip()] = value.strip()
    if colon and not options:
        raise ConfigError(f"variant {name!r}: no options after ':' (give NAME alone for the "
                          "standard rules)")
    return Variant(name, tuple(options.items()))


def parse_players(text: str | None) -> list[int] | None:
    """``"4,6,8"`` → ``[4, 6, 8]``; None keeps the game's default."""
    if text is None:
        return None
    out: list[int] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        try:
            out.append(int(part))
        except ValueError:
            raise ConfigError(f"--players takes player counts such as 4,6,8, not {text!r}") \
                from None
    if not out:
        raise ConfigError("--players names no player count")
    if len(set(out)) != len(out):
        raise ConfigError(f"--players names a player count twice: {text!r}")
    return out


def parse_sweep(text: str) -> tuple[str, list[str]]:
    """``min_rounds=2..5`` → ``("min_rounds", ["2", "3", "4", "5"])``; ``hand_size=5,6,7``
    → its values as typed. The first value is the baseline."""
    key, eq, rest = text.partition("=")
    key, rest = key.strip(), rest.strip()
    low, dots, high = rest.partition("..")
    values: list[str] = []
    if dots:
        try:
            a, b = int(low), int(high)
        except ValueError:
            a, b = 0, -1
        values = [str(x) for x in range(a, b + 1)]
    else:
        values = [v.strip() for v in rest.split(",") if v.strip()]
    if not eq or not key or len(values) < 2 or len(set(values)) != len(values):
        raise ConfigError(f"--sweep takes OPTION=FROM..TO (whole numbers) or OPTION=A,B,C with "
                          f"two values or more, each once, not {text!r}")
    return key, values


def sweep_variants(option: str, values: Sequence[str]) -> list[Variant]:
    """A variant per value of a sweep, named ``option=value``."""
    return [Variant(f"{option}={v}", ((option, v),)) for v in values]


def parse_metric(text: str) -> tuple[str, str]:
    """``NAME=module:function`` → ``(NAME, "module:function")`` (loaded by the report)."""
    name, eq, target = text.partition("=")
    module, colon, fn = target.strip().partition(":")
    if not eq or not _NAME.match(name.strip()) or not module or not colon or not fn:
        raise ConfigError(f"--metric takes NAME=module:function (a function of one game's "
                          f"record), not {text!r}")
    return name.strip(), target.strip()


def parse_margin(text: str, known: Collection[str]) -> tuple[str, float]:
    """``minutes=10`` → ``("minutes", 0.10)``: a relevance margin in percent (of the mean)
    or percentage points (of a share), for one of the ``known`` metric columns."""
    key, eq, value = text.partition("=")
    key = key.strip()
    try:
        amount = float(value.strip().rstrip("%")) / 100 if eq else math.nan
    except ValueError:
        amount = math.nan
    if key not in known or not amount > 0:
        raise ConfigError(f"--margin takes METRIC=PERCENT with a percent above 0 and a "
                          f"METRIC of {', '.join(sorted(known))}, not {text!r}")
    return key, amount


@dataclass(frozen=True)
class LabTask:
    """One game to play: everything a worker process needs, as plain data."""

    game: str
    players: int
    variant: int  # index into the plan's variants
    options: tuple[tuple[str, Any], ...]  # validated, defaults filled in
    bots: tuple[str, ...]  # one bot spec per seat
    challenger: int  # index into the plan's challengers, -1 for a main game
    index: int  # game number: variants share the seeds of equal numbers
    deal_seed: int
    play_seed: int


@dataclass
class LabPlan:
    """A whole lab run (``spieltisch lab``), checked on creation (``LabPlan.make``)."""

    game: str
    players: list[int]
    variants: list[Variant]
    #: the bot on every seat of the main games, and the rest of the table in skill games
    field_bot: str
    #: bots measured for skill: each takes one seat among ``field_bot``s
    challengers: list[str]
    games: int
    skill_games: int
    seed: int
    #: options given for every variant (``--option``), as typed
    common: dict[str, Any] = field(default_factory=dict)
    #: validated options per (variant index, player count)
    options: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)
    #: relevance margins that override the metrics' own (``--margin``), by column
    margins: dict[str, float] = field(default_factory=dict)
    #: the option a sweep varies (``--sweep``: the variants are its values), else ""
    sweep: str = ""
    #: a designer's own metrics (``--metric NAME=module:function``), by name
    metrics: dict[str, str] = field(default_factory=dict)

    @classmethod
    def make(cls, game: str, players: Sequence[int] | None, variants: Sequence[Variant],
             bots: Sequence[str], games: int, skill_games: int, seed: int,
             common: Mapping[str, Any] | None = None,
             margins: Mapping[str, float] | None = None, sweep: str = "",
             metrics: Mapping[str, str] | None = None) -> LabPlan:
        """Check everything before a single game is played; ``ConfigError`` names what is
        wrong (an unknown option is named with its variant)."""
        spec = get_spec(game)
        counts = list(players) if players else [spec.default_players]
        variants = list(variants) or [Variant("standard")]
        names = [v.name for v in variants]
        dup = next((n for n in names if names.count(n) > 1), None)
        if dup is not None:
            raise ConfigError(f"two variants are called {dup!r}")
        specs = [b.strip() for b in bots if b.strip()]
        if not specs:
            raise ConfigError("--bots names no bot")
        if len(set(specs)) != len(specs):
            raise ConfigError("--bots names a bot twice")
        if games < 2:
            raise ConfigError("a lab needs at least 2 games per variant")
        plan = cls(game, counts, variants, specs[0], specs[1:], games,
                   min(skill_games, games) if len(specs) > 1 else 0, seed, dict(common or {}),
                   margins=dict(margins or {}), sweep=sweep, metrics=dict(metrics or {}))
        for v, variant in enumerate(variants):
            for n in counts:
                try:
                    g = spec.configure(n, {**(common or {}), **dict(variant.options)})
                except ConfigError as e:
                    raise ConfigError(f"variant {variant.name!r}: {e}") from None
                plan.options[v, n] = g.options
        g = spec.configure(counts[0], plan.options[0, counts[0]])
        for b in specs:  # a bad bot name or parameter fails now, not in a worker
            parse_bot_spec(b)
            make_bot(g, b, 0, 0)
        return plan

    def changed(self, v: int, n: int) -> dict[str, Any]:
        """The options of variant ``v`` at ``n`` players that differ from the baseline's."""
        base = self.options[0, n]
        return {k: x for k, x in self.options[v, n].items() if base.get(k) != x}

    def to_data(self) -> dict[str, Any]:
        """The plan as plain data (the report's JSON, the Parquet files' metadata):
        ``LabPlan.from_data`` makes it again."""
        return {"game": self.game, "players": self.players,
                "variants": [{"name": v.name, "options": dict(v.options)}
                             for v in self.variants],
                "bots": [self.field_bot, *self.challengers], "games": self.games,
                "skill_games": self.skill_games, "seed": self.seed,
                "common": dict(self.common), "margins": dict(self.margins),
                "sweep": self.sweep, "metrics": dict(self.metrics), "command": self.command()}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> LabPlan:
        """The plan ``to_data`` gave (checked again, as on the command line)."""
        variants = [Variant(v["name"], tuple(v["options"].items())) for v in data["variants"]]
        return cls.make(data["game"], data["players"], variants, data["bots"], data["games"],
                        data["skill_games"], data["seed"], data.get("common"),
                        data.get("margins"), data.get("sweep", ""), data.get("metrics"))

    def tasks(self) -> list[LabTask]:
        """Every game of the run: main games first, then skill games, in a fixed order."""
        out: list[LabTask] = []
        for n in self.players:
            for v in range(len(self.variants)):
                opts = tuple(sorted(self.options[v, n].items()))
                for i in range(self.games):
                    s = game_seed(self.seed, i)
                    out.append(LabTask(self.game, n, v, opts, (self.field_bot,) * n, -1, i,
                                       s, s))
                for c, bot in enumerate(self.challengers):
                    for i in range(self.skill_games):
                        # the challenger takes seat i mod n of main game i's deal and seeds
                        seats = [self.field_bot] * n
                        seats[i % n] = bot
                        s = game_seed(self.seed, i)
                        out.append(LabTask(self.game, n, v, opts, tuple(seats), c, i, s, s))
        return out

    def command(self) -> str:
        """The command line that makes this plan (shown in the report)."""
        parts = [f"spieltisch lab {self.game}",
                 f"--players {','.join(map(str, self.players))}"]
        if self.sweep:
            values = ",".join(str(dict(v.options)[self.sweep]) for v in self.variants)
            parts.append(f"--sweep {self.sweep}={values}")
        for v in self.variants if not self.sweep else ():
            opts = ",".join(f"{k}={val}" for k, val in v.options)
            parts.append(f"--variant {v.name}:{opts}" if opts else f"--variant {v.name}")
        parts.extend(f"-o {k}={val}" for k, val in self.common.items())
        parts.append(f"--bots {','.join([self.field_bot, *self.challengers])}")
        parts.append(f"--games {self.games}")
        if self.challengers:
            parts.append(f"--skill-games {self.skill_games}")
        parts.append(f"--seed {self.seed}")
        parts.extend(f"--margin {k}={v * 100:g}" for k, v in self.margins.items())
        parts.extend(f"--metric {k}={v}" for k, v in self.metrics.items())
        return " ".join(parts)


__all__ = ["LabPlan", "LabTask", "Variant", "parse_margin", "parse_metric", "parse_players",
           "parse_sweep", "parse_variant", "sweep_variants"]
