"""Mudslide: the engine's worked example, a small shedding game for 2–5 players in
three phases (``rules.md``). It lives outside ``spieltisch.games`` and joins the
registry through ``SPIELTISCH_GAMES`` (``core/registry.py``): the test suite registers
it, and every generic suite plays it."""

from spieltisch.core.game import GameSpec
from spieltisch.core.options import Option
from spieltisch.i18n import N_

from .game import MudslideGame
from .state import MudslideState

#: No module of this package is compiled (``setup.py`` reads only ``spieltisch.games``).
COMPILED = ()

SPEC = GameSpec(
    name="mudslide",
    title="Mudslide",
    min_players=2,
    max_players=5,
    default_players=3,
    options=(
        Option("first_player", int, -1, N_("the player who starts the slide"),
               minimum=-1, maximum=4, label=N_("Starting player"),
               value_labels={-1: N_("a random seat")}, seat=True),
    ),
    game_class=MudslideGame,
    summary=N_("Pass a card to your left, then shed cards of the top card's rank or suit; "
               "first out ends the slide, and the others get a last call."),
    max_actions=500,
)
MudslideGame.spec = SPEC

__all__ = ["SPEC", "MudslideGame", "MudslideState"]
