"""Narration: every event told as one sentence in the reader's language.

Each game has a ``narration`` module with a ``Narrator`` (``Game.narrator()``): it
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

from .i18n import N_, Translator, translator

if TYPE_CHECKING:
    from .core.game import Game


#: First names for bot seats, in the order they are given out (never a human's name at
#: the same table; the server and the terminal both use them). Twelve: a table has at
#: most eight seats.
BOT_NAMES = ("Anna", "Ben", "Clara", "David", "Emma", "Finn", "Greta", "Hugo", "Ida", "Jonas",
             "Lena", "Milan")


class Narrator:
    """Tells a game's events; games subclass it and override ``tell``."""

    def __init__(self, game: Game) -> None:
        self.game = game

    @property
    def domains(self) -> tuple[str, ...]:
        """The catalogs the sentences come from: the game's, then the core's."""
        return (self.game.name, "core")

    def tell(self, event: Mapping[str, Any], ctx: Context) -> str:
        """One sentence for ``event``; the default names the actor and the event's kind."""
        kind = str(event.get("kind", "")).replace("_", " ")
        seat = event.get("seat")
        if seat is None or not isinstance(seat, int) or seat < 0:
            return ctx.tr.format(N_("Something happened: {what}."), what=kind)
        return ctx.tr.format(N_("{player}: {what}."), player=ctx.name(seat), what=kind)

    def action(self, action: int, ctx: Context) -> str:
        """An action as a player reads it in a menu or on a button ("Play 10♥")."""
        return str(self.game.describe_action(action))

    def board(self, view: Mapping[str, Any], ctx: Context) -> str:
        """The terminal's picture of a seat's view, every value in words."""
        return self.game.render_view(dict(view))


class Context:
    """What a narrator may use: the translator, the seat names, the reader's seat and how
    the table's pace stretches the rule's times (``time_factor``; None: no move timers)."""

    __slots__ = ("tr", "names", "reader", "time_factor")

    def __init__(self, tr: Translator, names: Sequence[str], reader: int | None,
                 time_factor: float | None = 1.0) -> None:
        self.tr = tr
        self.names = names
        self.reader = reader
        self.time_factor = time_factor

    def seconds(self, rule_seconds: float) -> str:
        """A rule's seconds as this table runs them ("3", "9", "1.5"): the rule's own
        number where no move timer runs."""
        factor = 1.0 if self.time_factor is None else self.time_factor
        return f"{round(rule_seconds * factor, 1):g}"

    def name(self, seat: int | None) -> str:
        """A seat's player name (never translated); the clock for ``None`` or ``-1``."""
        if seat is None or seat < 0:
            return self.tr.gettext(N_("the clock"))
        if 0 <= seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return self.tr.format(N_("Seat {number}"), number=seat + 1)


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
