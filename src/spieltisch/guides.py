"""Player guides: a short how-to-play per game and language, and the full rules.

A game's guides are ``games/<game>/guides/<lang>.md`` (``en``, ``de``, ``nl``); its full
rules, with every decision taken, are ``games/<game>/rules.md`` (English).
"""

from __future__ import annotations

import sys
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


def rules_text(game: str) -> str:
    """The full rules of ``game`` with every decision taken (Markdown, English)."""
    path = _package_dir(game) / "rules.md"
    if not path.exists():
        raise ConfigError(f"no rules document for {game}")
    return path.read_text(encoding="utf-8")
