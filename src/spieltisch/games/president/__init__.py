"""President: the climbing game with roles, card exchanges and revolutions (4–8 players)."""

from typing import Any

from ...core.game import GameSpec, Result
from ...core.options import Option
from ...i18n import N_
from .game import PresidentGame
from .state import PresidentState

#: The modules of this package the compiled build compiles (``setup.py`` reads this
#: line without importing the package); the rest stays Python.
COMPILED = ("cards", "game", "state", "sampling")


def _lab_profile() -> Any:
    """The lab's profile (``profile.py``), loaded when the lab asks."""
    from .profile import PROFILE

    return PROFILE


def _rank_keys(state: Any, result: Result) -> list[tuple[float, int]]:
    """Most points; ties go to the better place in the final round (rules.md §5), read
    from the public view: the seat left holding cards is last."""
    finished = state.view(None)["finished"]
    order = finished + [s for s in range(state.num_players) if s not in finished]
    return [(score, -order.index(s)) for s, score in enumerate(result.scores)]


SPEC = GameSpec(
    name="president",
    title="President",
    min_players=4,
    max_players=8,
    default_players=5,
    # the levels' fixed ratings as rated opponents (server/ratings.py): OpenSkill after
    # 6 tournament games at the default count (docs/server.md, "Ratings")
    bot_ratings={"easy": (13.01, 7.36), "medium": (28.14, 7.52),
                 "hard": (33.4, 7.74)},
    options=(
        Option("skip_rule", bool, False,
               N_("Überspringen: matching the top rank skips the next player"),
               label=N_("Skip rule (Überspringen)")),
        Option("first_leader", int, -1,
               N_("the player who leads round 1"), minimum=-1, maximum=7,
               label=N_("First to lead"), value_labels={-1: N_("a random seat")}, seat=True),
    ),
    game_class=PresidentGame,
    summary=N_("Shed your cards first; roles, exchanges and revolutions. Points from 50 down "
               "to 0."),
    max_actions=200_000,
    table_max_actions=20_000,  # rules.md, "Length of a table"
    # benchmarks/bot_levels.py, 5 players, per decision at budgets 50 / 200 / 600, median
    # and p99 in seconds: 0.032/0.062, 0.135/0.337, 0.395/0.565 (1.68 ms per simulation)
    hard_budget=550,
    # opponents=policy: the others' moves in the search are the heuristic's; at 200
    # simulations against the heuristic bot, 100 games on the same deals: ahead 0.632 ->
    # 0.670 (paired by deal +0.038, 95% -0.029 to +0.105; docs/strength.md)
    hard_search="opponents=policy",
    search_depth=20,  # its own estimate(): a cut 20 actions on (bots/ismcts.py)
    rank_keys=_rank_keys,
    one_winner=True,
    lab_profile=_lab_profile,
    raw_codes=r"\b(?:10|[2-9AJQK])[CDHS]\b|\bJK[12]\b",
    test_whole_game=True,
)
PresidentGame.spec = SPEC

__all__ = ["SPEC", "PresidentGame", "PresidentState"]
