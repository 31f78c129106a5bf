"""Hockey: the two-player fishing game of breakaways and goals (see ``rules.md``)."""

from typing import Any

from ...core.game import GameSpec
from ...core.options import Option
from ...i18n import N_
from .game import HockeyGame
from .state import HockeyState

#: The modules of this package the compiled build compiles (``setup.py`` reads this
#: line without importing the package); the rest stays Python.
COMPILED = ("cards", "game", "state")


def _lab_profile() -> Any:
    """The lab's profile (``profile.py``), loaded when the lab asks."""
    from .profile import PROFILE

    return PROFILE


def _research() -> Any:
    """The research configuration for OpenSpiel (``research.py``), loaded when asked."""
    from .research import RESEARCH

    return RESEARCH


SPEC = GameSpec(
    name="hockey",
    title="Hockey",
    min_players=2,
    max_players=2,
    options=(
        Option("first_dealer", int, -1,
               N_("the player who deals period 1; the dealer alternates"),
               minimum=-1, maximum=1, label=N_("First dealer"),
               value_labels={-1: N_("a random seat")}, seat=True),
    ),
    game_class=HockeyGame,
    default_players=2,
    # the levels' fixed ratings as rated opponents (server/ratings.py): OpenSkill after
    # 9 tournament games at the default count (docs/server.md, "Ratings")
    bot_ratings={"easy": (14.9, 7.11), "medium": (24.85, 6.99),
                 "hard": (35.62, 7.08)},
    summary=N_("Two players play single cards onto a pile: a Jack or a matching rank makes a "
               "breakaway, matching again on your next turn scores a goal. Three periods."),
    max_actions=52 * 500,
    table_max_actions=20_000,  # rules.md, "Length of a table"
    # benchmarks/bot_levels.py, 2 players, per decision at budgets 50 / 200 / 600, median
    # and p99 in seconds: 0.016/0.044, 0.059/0.168, 0.223/0.452 (0.89 ms per simulation)
    hard_budget=1100,
    # opponents=policy: the other's moves in the search are the heuristic's; at 200
    # simulations against the heuristic bot, 100 games on the same deals: ahead 0.590 ->
    # 0.620 (paired by deal +0.030, 95% -0.048 to +0.108; docs/strength.md)
    hard_search="opponents=policy",
    search_depth=0,  # no estimate of its own: a period is played out (bots/ismcts.py)
    # more goals wins; overtime ends at the first goal (rules.md §6): the default order
    one_winner=True,
    lab_profile=_lab_profile,
    research=_research,
    raw_codes=r"\b(?:10|[2-9AJQK])[CDHS]\b",
)
HockeyGame.spec = SPEC

__all__ = ["SPEC", "HockeyGame", "HockeyState"]
