"""Hood Politix: the ruthless shedding game with throw-ins, accusations and penalty
cards, in real time (2–8 players; see ``rules.md``)."""

from typing import Any

from ...core.game import GameSpec, Result
from ...core.options import Option
from ...i18n import N_
from .game import HoodPolitixGame
from .state import HoodPolitixState

#: The modules of this package the compiled build compiles (``setup.py`` reads this
#: line without importing the package); the rest stays Python.
COMPILED = ("cards", "terms", "judging", "legal", "moves", "game", "state", "sampling", "views")


def _lab_profile() -> Any:
    """The lab's profile (``profile.py``), loaded when the lab asks."""
    from .profile import PROFILE

    return PROFILE


def _rank_keys(state: Any, result: Result) -> list[tuple[float]]:
    """The lowest total wins (rules.md §6)."""
    return [(-score,) for score in result.scores]


SPEC = GameSpec(
    name="hood_politix",
    title="Hood Politix",
    min_players=2,
    max_players=8,
    default_players=4,
    # the levels' fixed ratings as rated opponents (server/ratings.py): OpenSkill after
    # 4 tournament games at the default count (docs/server.md, "Ratings")
    bot_ratings={"easy": (16.98, 7.49), "medium": (28.55, 7.85),
                 "hard": (28.01, 7.64)},
    options=(
        Option("hand_size", int, 6, N_("cards per hand (the dealer's choice, 5–7)"),
               choices=(5, 6, 7), label=N_("Hand size")),
        Option("min_rounds", int, 3, N_("rounds at least; then the unique lowest total wins"),
               minimum=1, maximum=50, label=N_("Rounds")),
        Option("move_seconds", float, 3.0,
               N_("the 3-second rule: seconds before a slow player may be called (0: off)"),
               minimum=0.0, maximum=3600.0, label=N_("Move timer (seconds)"),
               value_labels={0.0: N_("off")}),
        Option("respekt_seconds", float, 30.0,
               N_("Respekt pause: seconds before the player draws 2 more automatically"),
               minimum=1.0, maximum=3600.0, label=N_("Respekt pause (seconds)")),
        Option("politix_seconds", float, 60.0,
               N_("Politix pause: seconds before it ends by itself"), minimum=1.0,
               maximum=3600.0, label=N_("Politix pause (seconds)")),
        Option("politix_calls", int, 1, N_("Politix calls per player per round"),
               minimum=0, maximum=20, label=N_("Politix calls")),
        Option("first_dealer", int, -1, N_("the player who deals round 1"),
               minimum=-1, maximum=7, label=N_("First dealer"),
               value_labels={-1: N_("a random seat")}, seat=True),
    ),
    game_class=HoodPolitixGame,
    summary=N_("Shed your cards by colour, number or function; stack Deuces and In Yo Face, "
               "throw in identical cards, accuse forgotten Mic Checks. Places are points; "
               "lowest total after 3 rounds wins."),
    max_actions=200_000,
    table_max_actions=250_000,  # rules.md, "Length of a table"
    realtime=True,
    # benchmarks/bot_levels.py, 4 players, per decision at budgets 50 / 200 / 600, median
    # and p99 in seconds: 0.020/0.064, 0.162/0.232, 0.470/0.572 (1.28 ms per simulation)
    hard_budget=750,
    search_depth=20,  # its own estimate(): a cut 20 actions on (bots/ismcts.py)
    rank_keys=_rank_keys,
    one_winner=True,
    lab_profile=_lab_profile,
    raw_codes=r"\b[GOPY](?:10|[1-9]|DU|BU|PB|50|IY|PS|DL|SN)[ab]?\b|\bmic-(?:check|drop)\b",
    test_options={"move_seconds": 0.0},
    # random seats at large tables rarely settle the unique lowest total: from six players
    # on, one round keeps a random game to a few thousand moves; eight take 35 s and 4 GiB
    # in OpenSpiel's simulation test even so (seven end sooner with its seed, 3 s)
    quick_options=(6, {"min_rounds": 1}),
    slow_players=(8,),
)
HoodPolitixGame.spec = SPEC

__all__ = ["SPEC", "HoodPolitixGame", "HoodPolitixState"]
