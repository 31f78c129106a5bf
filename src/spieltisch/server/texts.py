"""What a connection reads in its language: seat names, narrated log lines, action labels.

Narration goes through each game's ``Narrator`` (``spieltisch.narration``) and is only
ever computed from ``event.for_seat(reader)`` and the seat names, so a log line cannot
tell a seat more than its own events do. Server messages (error reasons) come from the
``server`` catalog; seat names are never translated (only the "Seat N" stand-in for a
player who gave none).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Any

from .. import narration
from ..core.game import Event, Game
from ..i18n import Translator, normalise_language, translator
from ..narration import BOT_NAMES
from .accounts import DELETED_NAME
from .store import SeatRow

log = logging.getLogger("spieltisch.server")


def language(lang: Any) -> str:
    """A requested language code; anything not offered (or not a string) is English."""
    return normalise_language(lang if isinstance(lang, str) else None)


def server_tr(lang: str) -> Translator:
    """The server's own messages (error reasons) in ``lang``."""
    return translator(lang, "server", "core")


def seat_names(seats: Sequence[SeatRow], lang: str) -> list[str]:
    """Every seat's name: a human's chosen name ("Seat N" in ``lang`` when empty, or not
    yet joined), a bot's first name from ``BOT_NAMES`` that nobody else at the table has
    (a bot of a rematch keeps the name it had: the seat's stored name)."""
    taken = {s.name.strip().casefold() for s in seats if s.name.strip()}
    free = iter(n for n in BOT_NAMES if n.casefold() not in taken)
    nameless = narration.Context(translator(lang, "core"), (), None)  # its "Seat N"
    out = []
    for s in seats:
        if s.kind == "bot":
            out.append(s.name.strip() or next(free, None) or nameless.name(s.seat))
        elif s.name == DELETED_NAME:  # a deleted account's seat: the marker, translated
            out.append(server_tr(lang).gettext(DELETED_NAME))
        else:
            out.append(s.name.strip() or nameless.name(s.seat))
    return out


def localised(info: dict[str, Any], lang: str) -> dict[str, Any]:
    """A lobby entry stored in English with its seat names in ``lang``."""
    seats = [SeatRow(s["seat"], s["kind"], s.get("bot"), s.get("name") or "")
             for s in info["seats"]]
    names = seat_names(seats, lang)
    result = info.get("result")
    winner = result.get("winner") if result else None
    return {**info, "names": names,
            "winner": names[winner] if isinstance(winner, int) else None}


def log_lines(game: Game, index: int, events: Iterable[Event], reader: int | None,
              ctx: narration.Context) -> list[dict[str, Any]]:
    """Action ``index``'s events told to ``reader``, one ``{"index", "text"}`` each."""
    narrator = game.narrator()
    out = []
    for event in events:
        seen = event.for_seat(reader)
        try:
            text = narrator.tell(seen, ctx)
        except Exception:  # a narration bug must not stop the table: the generic sentence
            log.exception("%s: cannot narrate %r", game.name, event.kind)
            text = narration.Narrator.tell(narrator, seen, ctx)
        if text:
            out.append({"index": index, "text": text})
    return out


def action_labels(game: Game, actions: Iterable[int], ctx: narration.Context) -> dict[str, str]:
    """``{action text: label in the reader's language}`` for the given actions."""
    narrator = game.narrator()
    out = {}
    for action in actions:
        try:
            label = narrator.action(action, ctx)
        except Exception:  # as above: fall back to the engine's own description
            log.exception("%s: cannot label action %d", game.name, action)
            label = game.describe_action(action)
        out[str(game.action_to_json(action))] = label
    return out


__all__ = ["BOT_NAMES", "action_labels", "language", "localised", "log_lines", "seat_names",
           "server_tr"]
