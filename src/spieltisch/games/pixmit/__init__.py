"""Pixmit (Romulan Tarot): the 33-card set-collecting trading game for 2–4 players."""

from typing import Any

from ...core.game import GameSpec, Result
from ...core.options import Option
from ...i18n import N_
from .game import PixmitGame
from .state import PixmitState

#: The modules of this package the compiled build compiles (``setup.py`` reads this
#: line without importing the package); the rest stays Python.
COMPILED = ("actions", "cards", "game", "state", "sampling", "views", "terms", "bot")


def _lab_profile() -> Any:
    """The lab's profile (``profile.py``), loaded when the lab asks."""
    from .profile import PROFILE

    return PROFILE


def _research() -> Any:
    """The research configuration for OpenSpiel (``research.py``), loaded when asked."""
    from .research import RESEARCH

    return RESEARCH


def _rank_keys(state: Any, result: Result) -> list[tuple[float, int]]:
    """Highest score; on a tie fewer vetoes; if still tied, shared (rules.md §4)."""
    vetoes = state.view(None)["vetoes"]
    return [(score, -vetoes[s]) for s, score in enumerate(result.scores)]


SPEC = GameSpec(
    name="pixmit",
    title="Pixmit (Romulan Tarot)",
    min_players=2,
    max_players=4,
    default_players=4,
    # the levels' fixed ratings as rated opponents (server/ratings.py): OpenSkill after
    # 8 tournament games at the default count (docs/server.md, "Ratings")
    bot_ratings={"easy": (13.8, 7.06), "medium": (26.11, 7.05),
                 "hard": (37.07, 7.41)},
    options=(
        Option("mode", str, "pro",
               N_("pro: announcements about offered cards may be lies; beginner: they must be "
                  "true"),
               choices=("pro", "beginner"), label=N_("Mode"),
               value_labels={"pro": N_("Pro (bluffing allowed)"),
                             "beginner": N_("Beginner (announcements are true)")}),
        Option("start_player", int, -1,
               N_("the player who starts every round"), minimum=-1, maximum=3,
               label=N_("Starting player"), value_labels={-1: N_("a random seat")}, seat=True),
    ),
    game_class=PixmitGame,
    summary=N_("Trade face-down cards for 3 rounds, collect sets, call Pixmit; exact best "
               "scoring."),
    max_actions=1_000,
    table_max_actions=1_000,  # rules.md, "Length of a table"
    # benchmarks/bot_levels.py, 4 players, per decision at budgets 50 / 200 / 600, median
    # and p99 in seconds: 0.018/0.061, 0.082/0.160, 0.214/0.704 (1.23 ms per simulation;
    # measured before the eleventh session's faster search)
    # 1,800 rather than the 1 s rule's 800 (bots/levels.py): hard ahead of medium in
    # 0.619 of seat pairs at 800 (200 games, seed 11), 0.637 at 1,200 and 0.679 at 1,800
    # (400 games each, seeds 11 and 12; issue 40 asks 0.65). With the bot's valuations
    # memoised and the bot compiled, a decision at 1,800 takes a median 0.775 s, p95
    # 1.289 s pure and 0.315 / 0.566 s compiled on a quiet machine (docs/strength.md,
    # "Hard against medium")
    hard_budget=1800,
    # opponents=policy: the others' moves in the search are the heuristic's; at 200
    # simulations against the heuristic bot, 100 games on the same deals: ahead 0.516 ->
    # 0.605 (paired by deal +0.089, 95% +0.014 to +0.164). reward=rank: places, not
    # margins (the bar counts places): 200 games on the same deals, +0.034 (-0.022 to
    # +0.089) (docs/strength.md)
    hard_search="opponents=policy:reward=rank",
    search_depth=0,  # no estimate of its own: a round is played out (bots/ismcts.py)
    rank_keys=_rank_keys,
    lab_profile=_lab_profile,
    research=_research,
    raw_codes=r"\b(?:offer|claim|return|target) (?:\d|none)",
)
PixmitGame.spec = SPEC

__all__ = ["SPEC", "PixmitGame", "PixmitState"]
