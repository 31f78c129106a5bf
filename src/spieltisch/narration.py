"""Narration: every event told as one sentence in the reader's language.

Each game has a ``narration`` module with a ``Narrator`` (``Game.narrator_class``; the
base class and the reader's ``Context`` are the core's, ``core/words.py``): it
turns an event *as one seat sees it* (``Event.for_seat``) into a sentence, naming
players by name (never translated) and cards by their original names. The browser
log, the terminal and ``spieltisch replay --narrate`` all call ``narrate``; none of
them formats events itself, so a reader never sees a raw key, JSON or a Python repr.

A narrator only reads the event dict it is given (which is already what that seat
may know), the seat names and the translator: narration cannot leak a secret.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .core.words import Context as Context
from .core.words import Narrator as Narrator
from .i18n import translator

if TYPE_CHECKING:
    from .core.game import Game


#: First names for bot seats, in the order they are given out (never a human's name at
#: the same table; the server and the terminal both use them). Twelve: a table has at
#: most eight seats.
BOT_NAMES = ("Anna", "Ben", "Clara", "David", "Emma", "Finn", "Greta", "Hugo", "Ida", "Jonas",
             "Lena", "Milan")


def context(game: Game, names: Sequence[str], lang: str | None = None,
            reader: int | None = None, time_factor: float | None = 1.0) -> Context:
    """What ``game``'s narrator needs to speak to ``reader`` in ``lang``; ``time_factor``
    stretches the rule's seconds to the table's (``Context.seconds``)."""
    return Context(translator(lang, *game.narrator().domains), names, reader, time_factor)


def narrate(game: Game, event: Mapping[str, Any], names: Sequence[str],
            lang: str | None = None, reader: int | None = None) -> str:
    """One sentence for ``event`` (as ``reader`` sees it) in ``lang``."""
    return game.narrator().tell(event, context(game, names, lang, reader))


def describe(game: Game, action: int, lang: str | None = None,
             names: Sequence[str] = (), reader: int | None = None) -> str:
    """``action`` as a player reads it, in ``lang``."""
    return game.narrator().action(action, context(game, names, lang, reader))


def board(game: Game, view: Mapping[str, Any], names: Sequence[str],
          lang: str | None = None, reader: int | None = None) -> str:
    """The terminal's picture of ``view`` (what ``reader`` sees) in ``lang``."""
    return game.narrator().board(view, context(game, names, lang, reader))
