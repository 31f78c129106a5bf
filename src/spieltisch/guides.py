"""Player texts: a short how-to-play guide per game and language, the full rules as a
player reads them, and the implementer's rules.

A game's texts live in its package:

* ``guides/<lang>.md`` (``en``, ``de``, ``nl``): the short guide (the Rules dialog's
  "Quick guide", the terminal's ``rules`` command, ``spieltisch rules --guide``);
* ``guides/full.<lang>.md``: the full rules in a player's words, every rule and option
  (the dialog's "Full rules", ``spieltisch rules --full``); a game may not have them yet,
  and then its guide stands in;
* ``rules.md``: the implementer's rules (English, with the decisions taken), never shown
  to players.

A language a game has no text in falls back to English.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from .core.game import ConfigError
from .core.registry import get_spec
from .i18n import DEFAULT_LANGUAGE, normalise_language


def _package_dir(game: str) -> Path:
    spec = get_spec(game)  # ConfigError for an unknown game
    module = sys.modules[spec.game_class.__module__]
    return Path(module.__file__ or "").parent


def guide_path(game: str, lang: str | None) -> Path:
    """The guide's file in ``lang`` (the English one where that language has none)."""
    folder = _package_dir(game) / "guides"
    path = folder / f"{normalise_language(lang)}.md"
    return path if path.exists() else folder / f"{DEFAULT_LANGUAGE}.md"


def guide_text(game: str, lang: str | None) -> str:
    """The how-to-play guide of ``game`` in ``lang`` (Markdown)."""
    path = guide_path(game, lang)
    if not path.exists():
        raise ConfigError(f"no player guide for {game}")
    return path.read_text(encoding="utf-8")


def full_rules_path(game: str, lang: str | None) -> Path | None:
    """The file of ``game``'s full player rules in ``lang`` (English where that language
    has none); None if the game has no full rules in any language."""
    folder = _package_dir(game) / "guides"
    for code in dict.fromkeys((normalise_language(lang), DEFAULT_LANGUAGE)):
        path = folder / f"full.{code}.md"
        if path.exists():
            return path
    return None


@dataclass(frozen=True)
class PlayerRules:
    """A player's text of the rules: what was asked for, or what stands in for it."""

    text: str
    #: The language the text is in (English where the one asked for has none).
    lang: str
    #: True: the full rules; False: the game has none and this is its short guide.
    full: bool


def player_rules(game: str, lang: str | None) -> PlayerRules:
    """The full rules of ``game`` as a player reads them, in ``lang``: English where that
    language has none, the short guide where the game has no full rules.
    ``ConfigError`` for an unknown game, or one without any player text."""
    path = full_rules_path(game, lang)
    full = path is not None
    if path is None:
        path = guide_path(game, lang)
        if not path.exists():
            raise ConfigError(f"no player rules for {game}")
    code = path.stem.removeprefix("full.")
    return PlayerRules(path.read_text(encoding="utf-8"), code, full)


def full_rules_text(game: str, lang: str | None) -> str:
    """The full rules of ``game`` in a player's words, in ``lang`` (Markdown), with the
    fallbacks of ``player_rules``."""
    return player_rules(game, lang).text


def rules_text(game: str) -> str:
    """The implementer's rules of ``game`` with every decision taken (Markdown, English)."""
    path = _package_dir(game) / "rules.md"
    if not path.exists():
        raise ConfigError(f"no rules document for {game}")
    return path.read_text(encoding="utf-8")
