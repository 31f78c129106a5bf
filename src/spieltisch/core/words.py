"""Words for people, as far as the core needs them: the ``N_`` mark, what a translator
answers, the reader's ``Context`` and the generic ``Narrator`` a game's narrator extends.

The core reads no catalog itself: a ``Translator`` comes from ``spieltisch.i18n``, which
hands the core its maker when it is imported (``use_catalogs``; ``spieltisch`` imports it
first), so that reasons (``Check``, ``IllegalAction``) translate without the core
importing anything above it. A game names its narrator through ``Game.narrator_class``,
as it names its observer and its bots; ``spieltisch.narration`` re-exports ``Context``
and ``Narrator`` and adds the helpers (``narrate``, ``context``) the layers above use.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .game import Game


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it (translated where shown)."""
    return message


class Translator(Protocol):
    """The texts of some catalog domains in one language (``spieltisch.i18n.Translator``)."""

    lang: str

    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...

    def format(self, message: str, /, **args: object) -> str: ...

    def nformat(self, singular: str, plural: str, n: int, /, **args: object) -> str: ...


#: ``(lang, *domains) -> Translator``: set by ``spieltisch.i18n`` (``use_catalogs``).
_MAKERS: list[Callable[..., Translator]] = []


def use_catalogs(maker: Callable[..., Translator]) -> None:
    """Make translators with ``maker(lang, *domains)`` (``spieltisch.i18n.translator``)."""
    _MAKERS[:] = [maker]


def translator_for(lang: str | None, *domains: str) -> Translator:
    """A translator for ``lang`` over ``domains``, from the catalogs ``use_catalogs`` gave."""
    if not _MAKERS:
        raise RuntimeError("no catalogs: spieltisch.i18n registers them when imported")
    return _MAKERS[0](lang, *domains)


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


class Narrator:
    """Tells a game's events, labels its actions and draws its board: the generic words
    of a game without a narrator of its own; games subclass it (``Game.narrator_class``)."""

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
        """The terminal's picture of a seat's view, every value in words: the one picture
        of a view (the terminal's, RL's text rendering); the generic one is the view's
        JSON."""
        return json.dumps(dict(view), indent=1)


__all__ = ["Context", "N_", "Narrator", "Translator", "translator_for", "use_catalogs"]
