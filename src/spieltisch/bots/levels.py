"""Bot levels a player chooses by: easy, medium and hard.

A level names the bot that plays it, for any game:

* easy: ``random``, a uniformly random legal move;
* medium: the game's ``heuristic`` bot (``random`` where a game has none);
* hard: ``ismcts`` with a per-game simulation budget (``GameSpec.hard_budget``) measured so
  that a decision answers within 2 s on the development machine, a quarter of it for
  out-of-turn chances (``REACT_SHARE``), and a wall-clock cap of ``HARD_MS`` on top in
  case the machine is busier than when it was measured.

No level sees hidden cards: every bot reads only its own seat's view (``Observation``);
the search bot samples the unseen cards afresh, consistent with what it has seen.
Labels and ``about`` lines are marked for translation in the ``core`` catalog.
"""

from __future__ import annotations

from enum import Enum

from ..core.game import Game, GameSpec
from ..i18n import N_, translator
from . import make_bot
from .base import Bot


class Level(Enum):
    """The levels offered in the lobby, weakest first."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


#: A short name per level (translated where shown).
LABELS: dict[Level, str] = {
    Level.EASY: N_("Easy"),
    Level.MEDIUM: N_("Medium"),
    Level.HARD: N_("Hard"),
}

#: One line per level: how it plays (translated where shown).
ABOUT: dict[Level, str] = {
    Level.EASY: N_("Plays a random legal move. Bots never see hidden cards."),
    Level.MEDIUM: N_("Plays by rules of thumb for this game, like a fair casual player. "
                     "Bots never see hidden cards."),
    Level.HARD: N_("Thinks ahead by trying out many possible deals of the cards it cannot "
                   "see, up to 2 seconds a move. Bots never see hidden cards."),
}

#: The hard level's simulations per decision come from each game's spec
#: (``GameSpec.hard_budget``), measured with ``benchmarks/bot_levels.py`` (12 s per game
#: and budget; seat 0 ISMCTS against heuristic bots at the default player count, every
#: searched ``act`` and ``react`` timed) on the 2-core development machine while other
#: sessions shared it (load average about 1-2); each game's package states its figures.
#: Each budget is the largest multiple of 50 whose p99, at the slowest per-simulation
#: rate seen, takes 1 s: half the 2 s, the other half headroom for a busier machine.
#: The budget for a game not measured: the search's own default, which beat the
#: heuristic bot in every game (docs/strength.md).
DEFAULT_HARD_BUDGET = 200
#: Out-of-turn chances (``react``) are searched with this share of the budget. HOAX and
#: Hood Politix offer one at nearly every step (measured: 4.2 and 1.8 reactions per own
#: move) and every bot seat is asked in turn, so a table of several hard bots would
#: otherwise think for seconds before each action.
REACT_SHARE = 0.25
#: Wall-clock cap of a hard decision (ms): the search stops there even if its budget
#: is not spent, so a decision answers within 1.5 s (issue 35: p95 at most 1.5 s in
#: every game, ``benchmarks/bot_levels.py --level hard``) on a machine busier than
#: measured, and a live table of several hard bots keeps a person's pace.
HARD_MS = 1300


def hard_budget(spec: GameSpec) -> int:
    """The hard level's simulations per decision in the game of ``spec``: its measured
    budget, ``DEFAULT_HARD_BUDGET`` where none was measured."""
    budget = spec.hard_budget
    return DEFAULT_HARD_BUDGET if budget is None else budget


def is_level(name: str) -> bool:
    """Whether ``name`` is a level (``"hard"``) rather than a bot spec (``"ismcts:200"``)."""
    return name in {level.value for level in Level}


def bot_spec(game: Game, level: Level) -> str:
    """The bot spec (``spieltisch.bots.make_bot``) that plays ``level`` in ``game``."""
    if level is Level.EASY:
        return "random"
    if level is Level.MEDIUM:
        return "heuristic" if "heuristic" in game.bots() else "random"
    budget = hard_budget(game.spec)
    react = max(1, round(budget * REACT_SHARE))
    return f"ismcts:{budget}:react_budget={react}:ms={HARD_MS}"


def make_seat_bot(game: Game, spec: str, seat: int, seed: int | None) -> Bot:
    """The bot for a seat: ``spec`` is a level (``"medium"``) or any bot spec."""
    if is_level(spec):
        spec = bot_spec(game, Level(spec))
    return make_bot(game, spec, seat, seed)


def stored_level(spec: str | None) -> Level:
    """The level a server plays a stored bot seat at (``SeatRow.bot``). Clients choose
    only levels (``server.lobby``), but a table stored before that rule may name any
    spec (``ismcts:2000000000``, ``ismcts::ms=1e12``): it loads at the level of its
    kind of bot, never with its own numbers, and never fails: ``random`` is easy,
    ``ismcts`` hard, any other spec (``heuristic``, a game's own bot, one that no longer
    parses) medium; no spec is easy (the server's default bot, ``random``)."""
    if spec is None:
        return Level.EASY
    if is_level(spec):
        return Level(spec)
    name = spec.strip().partition(":")[0]
    return {"random": Level.EASY, "ismcts": Level.HARD}.get(name, Level.MEDIUM)


def fallback_bot(game: Game, spec: str | None, seat: int, seed: int | None) -> Bot:
    """The quick bot that decides for a seat whose bot ran past the server's cap on a
    decision (``server.thinking``): its level's own bot when that is quick (easy), else
    the medium one (a rule of thumb decides in microseconds). Seeded apart from the
    seat's bot."""
    quick = Level.EASY if stored_level(spec) is Level.EASY else Level.MEDIUM
    return make_bot(game, bot_spec(game, quick), seat,
                    None if seed is None else seed ^ 0x5EED_FA11)


def offered(lang: str | None) -> list[dict[str, str]]:
    """The levels as the lobby offers them: ``level``, ``label`` and ``about`` in ``lang``."""
    tr = translator(lang, "core")
    return [{"level": level.value, "label": tr.gettext(LABELS[level]),
             "about": tr.gettext(ABOUT[level])} for level in Level]


__all__ = ["ABOUT", "DEFAULT_HARD_BUDGET", "HARD_MS", "LABELS", "REACT_SHARE",
           "Level",
           "bot_spec", "fallback_bot", "hard_budget", "is_level", "make_seat_bot", "offered",
           "stored_level"]
