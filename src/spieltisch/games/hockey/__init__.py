"""Hockey: the two-player fishing game of breakaways and goals (see ``rules.md``)."""

from ...core.game import GameSpec
from ...core.options import Option
from ...i18n import N_
from .game import HockeyGame
from .state import HockeyState

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
    summary=N_("Two players play single cards onto a pile: a Jack or a matching rank makes a "
               "breakaway, matching again on your next turn scores a goal. Three periods."),
    max_actions=52 * 500,
)
HockeyGame.spec = SPEC

__all__ = ["SPEC", "HockeyGame", "HockeyState"]
