"""Which rules the bots use (issue 35): the action kinds a bot level chooses in seeded
games, and whether each rule option changes its games at all.

A game's rules are its kinds of action (the Enum ``Game.action_kind`` returns) and its
options. ``kind_coverage`` plays seeded games of one bot spec or level on every seat,
the player counts in turn, and counts for every kind how often a seat chose it, how
often a decision offered it (it was among the asked seat's legal actions) and how
often the clock applied it. The clock's kinds (Hood Politix ``expire``, HOAX ``close``)
are found, not listed: those the clock applied and no seat was ever offered. Every other
kind is *required*: a bot level that never chooses one plays without that rule. A
required kind the bots have not chosen and that was offered fewer than ``min_chances``
times is too rare to judge yet, so play goes on (up to ``max_games``) while every missing
kind is such a one (once one is judged missing, more games would not change the verdict).

``option_effects`` plays the same seeds with one option at another value: an option
that gives move-for-move the same games is a rule no bot uses (the designer's lab showed
five of nine Hood Politix options doing nothing before the bots used timers). Nothing
here knows a game: every fact comes from the game's spec, its ``action_kind`` and play.

``python benchmarks/bot_coverage.py`` prints the counts (docs/strength.md).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..core.game import CLOCK, ConfigError, Game
from ..core.options import Option
from ..core.registry import get_spec
from ..runner import StuckGame, step
from ..simulate import game_seed
from .base import Bot, Observation
from .levels import make_seat_bot

#: Games per game and bot level (docs/strength.md).
GAMES = 200
#: A required kind the bots never chose is judged once it was offered this often.
MIN_CHANCES = 20
#: ... or once this many games were played.
MAX_GAMES = 2000


class _Watched(Bot):
    """A seat's bot, asked as usual; every decision's legal kinds are counted."""

    def __init__(self, inner: Bot, kinds: Sequence[Enum | None], chances: Counter[Enum]
                 ) -> None:
        self.inner = inner
        self.game = inner.game
        self.seat = inner.seat
        self.name = inner.name  # type: ignore[misc]  # (it goes by its bot's name)
        self.kinds = kinds
        self.chances = chances

    def _offered(self, obs: Observation) -> None:
        kinds = self.kinds
        for k in {kinds[a] for a in obs.legal_actions()}:
            if k is not None:
                self.chances[k] += 1

    def act(self, obs: Observation) -> int | None:
        self._offered(obs)
        return self.inner.act(obs)

    def react(self, obs: Observation) -> int | None:
        self._offered(obs)
        return self.inner.react(obs)


@dataclass
class Coverage:
    """What one bot level did in ``games`` games of one game (see the module docstring)."""

    game: str
    bot: str
    games: int = 0
    kinds: list[Enum] = field(default_factory=list)
    used: Counter[Enum] = field(default_factory=Counter)
    chances: Counter[Enum] = field(default_factory=Counter)
    clock: Counter[Enum] = field(default_factory=Counter)
    #: Each game's ``(seat, action)`` list, for ``option_effects`` (the first ``GAMES``).
    records: list[list[tuple[int, int]]] = field(default_factory=list)

    def clock_kinds(self) -> list[Enum]:
        """Kinds only the clock applied: no seat was ever offered or chose one."""
        return [k for k in self.kinds if self.clock[k] and not self.chances[k]
                and not self.used[k]]

    def required(self) -> list[Enum]:
        """The kinds a seat can choose: every kind but the clock's."""
        clock = set(self.clock_kinds())
        return [k for k in self.kinds if k not in clock]

    def missing(self) -> list[Enum]:
        """Required kinds no seat chose."""
        return [k for k in self.required() if not self.used[k]]

    def undecided(self, min_chances: int) -> list[Enum]:
        """Missing kinds offered too rarely to tell whether the bots would choose them."""
        return [k for k in self.missing() if self.chances[k] < min_chances]


def player_counts(name: str) -> list[int]:
    """Every player count the game allows, fewest first: game ``i`` is played at
    ``counts[i % len(counts)]`` (rules that need a table size, such as Pixmit's
    2-player Bote, are played too)."""
    spec = get_spec(name)
    return list(range(spec.min_players, spec.max_players + 1))


class _Tables:
    """The game configured once per player count (and its actions' kinds)."""

    def __init__(self, name: str, options: dict[str, Any]) -> None:
        self.spec = get_spec(name)
        self.options = options
        self.counts = player_counts(name)
        self._games: dict[int, Game | None] = {}
        self._kinds: dict[int, list[Enum | None]] = {}

    def game(self, index: int) -> Game | None:
        """The game of the ``index``-th table; None where the options do not fit it."""
        n = self.counts[index % len(self.counts)]
        if n not in self._games:
            try:
                self._games[n] = self.spec.configure(n, self.options)
            except ConfigError:
                self._games[n] = None
        return self._games[n]

    def kinds(self, game: Game) -> list[Enum | None]:
        """Every action's kind, by action id."""
        n = game.num_players
        if n not in self._kinds:
            self._kinds[n] = [game.action_kind(a) for a in range(game.num_actions)]
        return self._kinds[n]


def _bots(game: Game, bot: str, seed: int) -> list[Bot]:
    """One bot per seat, seeded as ``simulate.play_one`` seeds them."""
    return [make_seat_bot(game, bot, s, seed + 7919 * (s + 1))
            for s in range(game.num_players)]


def kind_coverage(name: str, bot: str = "medium", games: int = GAMES, seed: int = 1,
                  min_chances: int = MIN_CHANCES, max_games: int = MAX_GAMES) -> Coverage:
    """Play ``games`` seeded games of ``bot`` (a level or a bot spec) on every seat at the
    default options, then more while every missing kind is undecided
    (``Coverage.undecided``), up to ``max_games``; count the kinds (module docstring)."""
    tables = _Tables(name, {})
    cov = Coverage(name, bot)
    enum: type[Enum] | None = None
    i = 0
    while i < games or (i < max_games and cov.missing()
                        and cov.undecided(min_chances) == cov.missing()):
        game = tables.game(i)
        assert game is not None  # the default options fit every player count
        kinds = tables.kinds(game)
        gs = game_seed(seed, i)
        state = game.new_state(seed=gs)
        bots: list[Bot] = [_Watched(b, kinds, cov.chances) for b in _bots(game, bot, gs)]
        rng = random.Random(gs)
        record: list[tuple[int, int]] = []
        limit = game.spec.max_actions
        while not state.is_over():
            if len(record) >= limit:
                raise StuckGame(f"{name}: no end after {limit} actions")
            seat, action = step(state, bots, rng)
            record.append((seat, action))
            kind = kinds[action]
            if kind is None:
                continue
            if enum is None:
                enum = type(kind)
                cov.kinds = list(enum)
            (cov.clock if seat == CLOCK else cov.used)[kind] += 1
        if i < games:
            cov.records.append(record)
        i += 1
        cov.games = i
    return cov


def other_value(option: Option, game: str) -> Any:
    """A representative value of ``option`` other than its default: a switch turned
    over, another choice, else the minimum or the maximum (None: there is none)."""
    if option.kind is bool:
        return not option.default
    if option.choices is not None:
        return next((c for c in option.choices if c != option.default), None)
    for bound in (option.minimum, option.maximum):
        if bound is not None and bound != option.default:
            return option.parse(game, option.kind(bound))
    return None


@dataclass(frozen=True)
class Effect:
    """What one option at ``value`` did to the games of ``Coverage.records``: the first
    game that differs (None: every game played the same), of ``compared`` games."""

    option: str
    value: Any
    differs_at: int | None
    compared: int


def option_effects(cov: Coverage, seed: int = 1) -> list[Effect]:
    """Each option of the game at ``other_value``, played on the seeds and tables of
    ``cov``'s recorded games (tables the value does not fit are skipped) until one game
    differs from its default-options twin, move for move."""
    out = []
    for option in get_spec(cov.game).options:
        value = other_value(option, cov.game)
        if value is None:
            continue
        tables = _Tables(cov.game, {option.name: value})
        differs_at = None
        compared = 0
        for i, record in enumerate(cov.records):
            game = tables.game(i)
            if game is None:
                continue
            compared += 1
            if _differs(game, cov.bot, game_seed(seed, i), record):
                differs_at = i
                break
        out.append(Effect(option.name, value, differs_at, compared))
    return out


def _differs(game: Game, bot: str, seed: int, record: list[tuple[int, int]]) -> bool:
    """Whether the game on ``seed`` departs from ``record`` (stopping where it does)."""
    state = game.new_state(seed=seed)
    bots = _bots(game, bot, seed)
    rng = random.Random(seed)
    for expected in record:
        if state.is_over() or step(state, bots, rng) != expected:
            return True
    return not state.is_over()


def kinds_table(covs: Sequence[Coverage]) -> str:
    """The counts as a Markdown table per game: kind, chosen, offered, by the clock."""
    lines = []
    for cov in covs:
        lines += [f"**{cov.game}**, {cov.games} games of `{cov.bot}` "
                  f"({', '.join(map(str, player_counts(cov.game)))} players in turn)", "",
                  "| kind | chosen | offered (decisions) | by the clock |",
                  "|---|---:|---:|---:|"]
        for k in cov.kinds:
            lines.append(f"| {k.name.lower()} | {cov.used[k]} | {cov.chances[k]} | "
                         f"{cov.clock[k]} |")
        lines.append("")
    return "\n".join(lines)


__all__ = ["GAMES", "MAX_GAMES", "MIN_CHANCES", "Coverage", "Effect", "kind_coverage",
           "kinds_table", "option_effects", "other_value", "player_counts"]
