"""President: the climbing game with roles, card exchanges and revolutions (4–8 players)."""

from ...core.game import GameSpec
from ...core.options import Option
from ...i18n import N_
from .game import PresidentGame
from .state import PresidentState

SPEC = GameSpec(
    name="president",
    title="President",
    min_players=4,
    max_players=8,
    default_players=5,
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
)
PresidentGame.spec = SPEC

__all__ = ["SPEC", "PresidentGame", "PresidentState"]
