"""President: the climbing game with roles, card exchanges and revolutions (4–8 players)."""

from ...core.game import GameSpec
from ...core.options import Option
from .state import PresidentGame, PresidentState

SPEC = GameSpec(
    name="president",
    title="President",
    min_players=4,
    max_players=8,
    default_players=5,
    options=(
        Option("skip_rule", bool, False,
               "Überspringen: matching the top rank skips the next player"),
        Option("first_leader", int, -1,
               "seat that leads round 1 (-1: a random seat)", minimum=-1, maximum=7),
    ),
    game_class=PresidentGame,
    summary="Shed your cards first; roles, exchanges and revolutions. Points from 50 down to 0.",
    max_actions=200_000,
)
PresidentGame.spec = SPEC

__all__ = ["SPEC", "PresidentGame", "PresidentState"]
