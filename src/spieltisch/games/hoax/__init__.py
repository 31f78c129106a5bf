"""HOAX: hidden identities, chips, reactions and accusations (4–8 players)."""

from ...core.game import GameSpec
from ...core.options import Option
from .state import HoaxGame, HoaxState

SPEC = GameSpec(
    name="hoax",
    title="HOAX (Die Erben von Hoax)",
    min_players=4,
    max_players=8,
    default_players=6,
    options=(
        Option("first_player", int, -1,
               "seat that starts round 1 (-1: a random seat)", minimum=-1, maximum=7),
        Option("reaction_seconds", float, 4.0,
               "how long a reaction window (doubt, protect, illegal, fine, forgive) stays "
               "open without a reaction", minimum=0.0, maximum=600.0),
    ),
    game_class=HoaxGame,
    summary="Claim identities, gather trios, buy information and unmask the others; "
            "first to 10 throne points.",
    max_actions=200_000,
)
HoaxGame.spec = SPEC

__all__ = ["SPEC", "HoaxGame", "HoaxState"]
