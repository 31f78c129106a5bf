"""Pixmit (Romulan Tarot): the 33-card set-collecting trading game for 2–4 players."""

from ...core.game import GameSpec
from ...core.options import Option
from ...i18n import N_
from .game import PixmitGame
from .state import PixmitState

SPEC = GameSpec(
    name="pixmit",
    title="Pixmit (Romulan Tarot)",
    min_players=2,
    max_players=4,
    default_players=4,
    options=(
        Option("mode", str, "pro",
               N_("pro: announcements about offered cards may be lies; beginner: they must be "
                  "true"),
               choices=("pro", "beginner"), label=N_("Mode"),
               value_labels={"pro": N_("Pro (bluffing allowed)"),
                             "beginner": N_("Beginner (announcements are true)")}),
        Option("start_player", int, -1,
               N_("the player who starts every round"), minimum=-1, maximum=3,
               label=N_("Starting player"), value_labels={-1: N_("a random seat")}, seat=True),
    ),
    game_class=PixmitGame,
    summary=N_("Trade face-down cards for 3 rounds, collect sets, call Pixmit; exact best "
               "scoring."),
    max_actions=1_000,
)
PixmitGame.spec = SPEC

__all__ = ["SPEC", "PixmitGame", "PixmitState"]
