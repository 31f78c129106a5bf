"""Languages: message catalogs (gettext ``.po`` files read with Babel) and language choice.

Text a person reads is written in English in the code, marked with ``N_`` (or passed
to ``gettext``/``ngettext`` of a ``Translator``), and translated where it is shown,
BGA-style: a template plus arguments, the arguments filled in after translation.
Player names and the original card names are arguments and are never translated.

Catalogs live in *domains*, one folder of ``<lang>.po`` files each, so that every part
owns its own texts:

* a game's domain is its package's ``locale/`` folder (``games/hockey/locale/de.po``),
  named by the game (``"hockey"``);
* a game's browser module (``client.js``) has a domain of its own in the package,
  ``locale/client/`` (``"hockey.client"``): the server hands it to the browser with the
  core client's texts when a table of that game is open;
* the other domains are folders under ``spieltisch/locale/`` (``"cli"``, ``"client"``,
  ``"server"``, ``"core"``).

The msgid is the English text, so English needs no catalog of its own (an ``en.po``
may still exist for plural forms or corrections). ``tests/test_i18n.py`` checks that
every marked text of every domain has a German and a Dutch translation with the same
``{placeholders}``.
"""

from __future__ import annotations

import gettext as _gettext
import io
import os
from functools import cache
from pathlib import Path
from typing import cast

from .core.words import N_ as N_  # where games and layers take the mark from
from .core.words import use_catalogs

#: The languages of the games' publications (German, Dutch) and English.
LANGUAGES: tuple[str, ...] = ("en", "de", "nl")
DEFAULT_LANGUAGE = "en"
#: Each language's name in itself, for language switchers.
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "de": "Deutsch", "nl": "Nederlands"}

_PACKAGE = Path(__file__).parent


def domain_dir(domain: str) -> Path:
    """The folder that holds ``domain``'s catalogs: a game's ``locale/`` or ``locale/<domain>``;
    ``<game>.client`` is the game's ``locale/client/`` (its browser module's texts)."""
    game, dot, part = domain.partition(".")
    if dot:
        return domain_dir(game) / part
    game_dir = _PACKAGE / "games" / domain / "locale"
    if (_PACKAGE / "games" / domain / "__init__.py").exists():
        return game_dir
    own = _PACKAGE / "locale" / domain
    if not own.is_dir():  # a game registered from elsewhere (``SPIELTISCH_GAMES``)?
        from .core.registry import game_names, package_dir

        if domain in game_names():
            return package_dir(domain) / "locale"
    return own


def domains() -> list[str]:
    """Every domain that has a catalog folder (games first, then the others)."""
    found = sorted(p.parent.name for p in (_PACKAGE / "games").glob("*/locale") if p.is_dir())
    found += sorted(f"{p.parent.parent.name}.{p.name}"
                    for p in (_PACKAGE / "games").glob("*/locale/client") if p.is_dir())
    found += sorted(p.name for p in (_PACKAGE / "locale").iterdir() if p.is_dir()) \
        if (_PACKAGE / "locale").is_dir() else []
    return found


def normalise_language(lang: str | None) -> str:
    """``"de_DE.UTF-8"`` → ``"de"``; anything not offered → the default (English)."""
    if not lang:
        return DEFAULT_LANGUAGE
    code = lang.replace("-", "_").split(".")[0].split("@")[0].split("_")[0].lower()
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


def parse_language(lang: str) -> str:
    """A language asked for by name (``--lang de``); unknown ones are a ``ValueError``."""
    code = lang.strip().lower()
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (languages: {', '.join(LANGUAGES)})")
    return code


def language_from_env(environ: dict[str, str] | None = None) -> str:
    """The terminal's language from ``LC_ALL``, ``LC_MESSAGES``, ``LANGUAGE`` or ``LANG``."""
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANGUAGE", "LANG"):
        value = env.get(var)
        if value and value not in ("C", "POSIX"):
            # LANGUAGE may list several (``nl:de``); the first offered one wins
            for part in value.split(":"):
                code = part.replace("-", "_").split(".")[0].split("_")[0].lower()
                if code in LANGUAGES:
                    return code
            return DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def language_from_accept(header: str | None) -> str:
    """The best offered language for an HTTP ``Accept-Language`` header (q-values honoured)."""
    if not header:
        return DEFAULT_LANGUAGE
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                q = float(params[2:])
            except ValueError:
                q = 0.0
        if q != q or q <= 0:  # NaN or refused
            continue
        code = tag.strip().split("-")[0].lower()
        if code in LANGUAGES:
            ranked.append((-q, i, code))
    return min(ranked)[2] if ranked else DEFAULT_LANGUAGE


class Translator:
    """The texts of some domains in one language; the first domain that knows a text wins."""

    def __init__(self, lang: str, domains: tuple[str, ...]) -> None:
        self.lang = lang
        self.domains = domains
        self._t: _gettext.NullTranslations = _gettext.NullTranslations()
        for domain in reversed(domains):
            compiled = _compiled(lang, domain)
            if compiled is not None:
                # a catalog object of its own: fallbacks chain per translator, so two
                # translators over different domains never link each other's catalogs
                cat = _gettext.GNUTranslations(io.BytesIO(compiled))
                cat.add_fallback(self._t)
                self._t = cat

    def gettext(self, message: str) -> str:
        """``message`` in this language (the English text when no translation exists)."""
        return self._t.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The singular or plural form for ``n``, as this language counts."""
        return self._t.ngettext(singular, plural, n)

    def format(self, message: str, /, **args: object) -> str:
        """Translate the template, then fill in ``{name}`` arguments (never translated)."""
        return self.gettext(message).format(**args)

    def nformat(self, singular: str, plural: str, n: int, /, **args: object) -> str:
        """Plural-aware ``format``; ``{n}`` is available in the template."""
        return self.ngettext(singular, plural, n).format(n=n, **args)

    def messages(self) -> dict[str, str]:
        """Every translated msgid → text of these domains (for the browser client)."""
        out: dict[str, str] = {}
        for domain in reversed(self.domains):
            out.update(_messages(self.lang, domain))
        return out


@cache
def translator(lang: str | None, *domains: str) -> Translator:
    """A translator for ``lang`` over ``domains`` (cached; catalogs are read once)."""
    return Translator(normalise_language(lang), domains or ("core",))


# the core's reasons translate through these catalogs (it imports nothing above it)
use_catalogs(translator)


def _po_path(lang: str, domain: str) -> Path:
    return domain_dir(domain) / f"{lang}.po"


@cache
def _compiled(lang: str, domain: str) -> bytes | None:
    """Compile ``<domain>/<lang>.po`` in memory with Babel (no ``.mo`` build step)."""
    path = _po_path(lang, domain)
    if not path.exists():
        return None
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=domain)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    return buf.getvalue()


@cache
def _messages(lang: str, domain: str) -> dict[str, str]:
    path = _po_path(lang, domain)
    if not path.exists():
        return {}
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=domain)
    out: dict[str, str] = {}
    for m in catalog:
        if m.id and m.string and not m.fuzzy:
            if isinstance(m.id, str):
                out[m.id] = cast(str, m.string)  # a singular entry's string is a str
            else:
                # a plural entry: each form under its English msgid (English, German and
                # Dutch have two forms: singular for 1, plural for every other number)
                out[m.id[0]] = m.string[0]
                if len(m.id) > 1 and len(m.string) > 1 and m.string[1]:
                    out[m.id[1]] = m.string[1]
    return out
