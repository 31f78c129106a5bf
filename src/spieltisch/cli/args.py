"""Command-line arguments shared by several commands."""

from __future__ import annotations

from typing import Annotated

import typer

from ..core.registry import game_names

#: The game a command is about, named as the registry names it.
GameArg = Annotated[str, typer.Argument(help="the game: " + ", ".join(game_names()),
                                        metavar="GAME", show_default=False)]
