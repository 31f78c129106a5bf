"""HOAX: hidden identities, chips, reactions and accusations (4–8 players)."""

from ...core.game import GameSpec
from ...core.options import Option
from ...i18n import N_
from .state import HoaxGame, HoaxState

SPEC = GameSpec(
    name="hoax",
    title="HOAX (Die Erben von Hoax)",
    min_players=4,
    max_players=8,
    default_players=6,
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
    realtime=True,
)
HoaxGame.spec = SPEC

__all__ = ["SPEC", "HoaxGame", "HoaxState"]
