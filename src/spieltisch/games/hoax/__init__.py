"""HOAX: hidden identities, chips, reactions and accusations (4–8 players)."""

from typing import Any

from ...core.game import GameSpec
from ...core.options import Option
from ...i18n import N_
from .state import HoaxGame, HoaxState

#: The modules of this package the compiled build compiles (``setup.py`` reads this
#: line without importing the package); the rest stays Python.
COMPILED = ("cards", "claims", "phases", "state", "legal", "turn", "sampling", "views", "seen",
            "bot")


def _lab_profile() -> Any:
    """The lab's profile (``profile.py``), loaded when the lab asks."""
    from .profile import PROFILE

    return PROFILE


SPEC = GameSpec(
    name="hoax",
    title="HOAX (Die Erben von Hoax)",
    min_players=4,
    max_players=8,
    default_players=6,
    # the levels' fixed ratings as rated opponents (server/ratings.py): OpenSkill after
    # 3 tournament games at the default count (docs/server.md, "Ratings")
    bot_ratings={"easy": (20.67, 7.93), "medium": (24.89, 7.98),
                 "hard": (29.52, 8.17)},
    options=(
        Option("first_player", int, -1,
               N_("the player who starts round 1"), minimum=-1, maximum=7,
               label=N_("Starting player"), value_labels={-1: N_("a random seat")}, seat=True),
        Option("reaction_seconds", float, 4.0,
               N_("how long a reaction window (doubt, protect, illegal, fine, forgive) stays "
                  "open without a reaction"), minimum=0.0, maximum=600.0,
               label=N_("Reaction time (seconds)")),
    ),
    game_class=HoaxGame,
    summary=N_("Claim identities, gather trios, buy information and unmask the others; "
               "first to 10 throne points."),
    max_actions=200_000,
    table_max_actions=20_000,  # rules.md, "Length of a table"
    realtime=True,
    # benchmarks/bot_levels.py, 6 players, per decision at budgets 50 / 200 / 600, median
    # and p99 in seconds: 0.071/0.140, 0.470/0.620, 1.305/1.580 (3.10 ms per simulation)
    hard_budget=300,
    search_depth=0,  # no estimate of its own: a round is played out (bots/ismcts.py)
    # most throne points: the first to 10 wins at once (rules.md §6): the default order
    one_winner=True,
    lab_profile=_lab_profile,
    raw_codes=(r"\b(?:baron|monk|judge|merchant|magician|thief|farmer) (?:tax|steal|trade)\b"
               r"|\bsettle-protect\b"),
    test_options={"reaction_seconds": 0.3},
)
HoaxGame.spec = SPEC

__all__ = ["SPEC", "HoaxGame", "HoaxState"]
