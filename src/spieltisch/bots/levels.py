"""Bot levels a player chooses by: easy, medium and hard.

A level names the bot that plays it, for any game:

* easy: ``random``, a uniformly random legal move;
* medium: the game's ``heuristic`` bot (``random`` where a game has none);
* hard: ``ismcts`` with a per-game simulation budget (``GameSpec.hard_budget``) measured so
  that a decision answers within 2 s on the development machine, a quarter of it for
  out-of-turn chances (``REACT_SHARE``), the settings the game's package measured best
  (``GameSpec.hard_search``, e.g. ``opponents=policy``), and a wall-clock cap of
  ``HARD_MS`` on top in case the machine is busier than when it was measured.

No level sees hidden cards: every bot reads only its own seat's view (``Observation``);
the search bot samples the unseen cards afresh, consistent with what it has seen.
Labels and ``about`` lines are marked for translation in the ``core`` catalog.

A server may offer more levels, each played by a learned policy file in the games it has
one for (``add_policy_level``; ``spieltisch serve --policy-level NAME=PATH``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..core.game import ConfigError, Game, GameSpec
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
#: rate seen, takes 1 s: half the 2 s, the other half headroom for a busier machine;
#: Pixmit's is larger (1,800) to beat medium clearly; in the pure build on a quiet machine
#: the cap then stops about one Pixmit decision in twenty-five, more on a busier one
#: (docs/strength.md, "Hard against medium").
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


#: Levels played by learned policies (``add_policy_level``): name -> game -> policy file.
POLICY_LEVELS: dict[str, dict[str, str]] = {}
#: The ``about`` line of a policy level (translated where shown).
POLICY_ABOUT = N_("Plays a policy learned by self-play (reinforcement learning). "
                  "Bots never see hidden cards.")


@dataclass(frozen=True)
class PolicyLevel:
    """A level played by a learned policy; ``value`` is its name, as ``Level``'s."""

    value: str


def add_policy_level(name: str, path: str) -> str:
    """Offer the policy file at ``path`` as the level ``name`` in the game it was trained
    for (the file names it); returns that game. The same name may be given once per
    game. ``ConfigError`` for a bad file or name."""
    from ..core.registry import game_names, get_spec
    from . import available_bots
    from .policy import load_policy

    # a level's name is also a stored seat's spec: it must not be a level or a bot too
    taken = {lv.value for lv in Level}.union(
        *(available_bots(get_spec(g).configure()) for g in game_names()))
    if not re.fullmatch(r"[a-z][a-z0-9_-]{0,31}", name) or name in taken:
        raise ConfigError(f"a policy level's name is lowercase letters, digits, '-' and "
                          f"'_' (at most 32), neither a level nor a bot's name "
                          f"({', '.join(sorted(taken))}), not {name!r}")
    net = load_policy(path)
    net.check_game(get_spec(net.game).configure(net.players), f"policy file {path!r}")
    games = POLICY_LEVELS.setdefault(name, {})
    if games.get(net.game, path) != path:
        raise ConfigError(f"the level {name!r} has a policy for {net.game} already "
                          f"({games[net.game]!r})")
    games[net.game] = path
    return str(net.game)


def is_level(name: str) -> bool:
    """Whether ``name`` is a level (``"hard"``, or a policy level) rather than a bot spec
    (``"ismcts:200"``)."""
    return name in {level.value for level in Level} or name in POLICY_LEVELS


def policy_spec(game: Game, name: str) -> str:
    """The bot spec of the policy level ``name`` in ``game``: ``policy:PATH``."""
    path = POLICY_LEVELS.get(name, {}).get(game.name)
    if path is None:
        raise ConfigError(f"the level {name!r} has no policy for {game.name}")
    return f"policy:{path}"


def bot_spec(game: Game, level: Level) -> str:
    """The bot spec (``spieltisch.bots.make_bot``) that plays ``level`` in ``game``."""
    if level is Level.EASY:
        return "random"
    if level is Level.MEDIUM:
        return "heuristic" if "heuristic" in game.bots() else "random"
    return hard_spec(game)


def hard_spec(game: Game, capped: bool = True) -> str:
    """The hard level's search in ``game``: its budget, a share of it for reactions, the
    game's own search settings (``GameSpec.hard_search``) and, when ``capped``, the
    wall-clock cap."""
    budget = hard_budget(game.spec)
    react = max(1, round(budget * REACT_SHARE))
    extra = f":{game.spec.hard_search}" if game.spec.hard_search else ""
    cap = f":ms={HARD_MS}" if capped else ""
    return f"ismcts:{budget}:react_budget={react}{extra}{cap}"


def make_seat_bot(game: Game, spec: str, seat: int, seed: int | None) -> Bot:
    """The bot for a seat: ``spec`` is a level (``"medium"``) or any bot spec."""
    if spec in POLICY_LEVELS:
        spec = policy_spec(game, spec)
    elif is_level(spec):
        spec = bot_spec(game, Level(spec))
    return make_bot(game, spec, seat, seed)


def stored_level(spec: str | None) -> Level | PolicyLevel:
    """The level a server plays a stored bot seat at (``SeatRow.bot``). Clients choose
    only levels (``server.lobby``), but a table stored before that rule may name any
    spec (``ismcts:2000000000``, ``ismcts::ms=1e12``): it loads at the level of its
    kind of bot, never with its own numbers, and never fails: ``random`` is easy,
    ``ismcts`` hard, any other spec (``heuristic``, a game's own bot, one that no longer
    parses) medium; no spec is easy (the server's default bot, ``random``). A policy level
    of this server is itself; one the server no longer offers plays medium."""
    if spec is None:
        return Level.EASY
    if spec in POLICY_LEVELS:
        return PolicyLevel(spec)
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


def offered(lang: str | None, game: str | None = None) -> list[dict[str, Any]]:
    """The levels as the lobby offers them: ``level``, ``label`` and ``about`` in ``lang``;
    with ``game``, then the policy levels that have a policy for it, with the player
    count it plays (``players``)."""
    tr = translator(lang, "core")
    out: list[dict[str, Any]] = [
        {"level": level.value, "label": tr.gettext(LABELS[level]),
         "about": tr.gettext(ABOUT[level])} for level in Level]
    for name, games in POLICY_LEVELS.items():
        if game in games:
            from .policy import load_policy

            out.append({"level": name, "label": name, "about": tr.gettext(POLICY_ABOUT),
                        "players": load_policy(games[game]).players})
    return out


__all__ = ["ABOUT", "DEFAULT_HARD_BUDGET", "HARD_MS", "LABELS", "POLICY_ABOUT",
           "POLICY_LEVELS", "REACT_SHARE", "Level", "PolicyLevel", "add_policy_level",
           "bot_spec", "fallback_bot", "hard_budget", "hard_spec", "is_level", "make_seat_bot",
           "offered", "policy_spec", "stored_level"]
