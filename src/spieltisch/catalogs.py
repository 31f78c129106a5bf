"""Keeping the message catalogs in step with the code (Babel's extractor).

``python -m spieltisch.catalogs [DOMAIN …]`` extracts every marked text of every domain and adds
the new ones to each language's ``.po`` file (with an empty translation to fill in)
and drops texts the code no longer has; ``tests/test_i18n.py`` fails while any
translation is missing. Which source files belong to which domain is decided here:

* ``games/<game>/**.py`` (tests excluded) → the game's domain (``games/<game>/locale/``);
* ``games/<game>/**.js`` (its browser module, ``client.js``) → ``<game>.client``
  (``games/<game>/locale/client/``), served with the core client's texts at that game's
  tables (``GET /api/i18n/{lang}?game=<game>``);
* ``cli/**.py`` → ``cli``; ``server/**.py`` → ``server``; ``server/static/**.js`` → ``client``
  (the core client only);
* every other module of the package → ``core``.

A domain named on the command line limits the update to it; a game's name updates both
of the game's catalogs (``python -m spieltisch.catalogs hockey``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from .i18n import LANGUAGES, domain_dir

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

PACKAGE = Path(__file__).parent
#: Marker functions and their arguments (msgid, plural): see ``spieltisch.i18n``.
PY_KEYWORDS = {"N_": None, "_": None, "gettext": None, "ngettext": (1, 2), "nformat": (1, 2)}
JS_KEYWORDS = {"t": None, "tn": (1, 2)}


def domain_of(path: Path) -> str:
    """The domain a source file's texts belong to."""
    rel = path.relative_to(PACKAGE).parts
    if rel[0] == "games" and len(rel) > 2:
        return f"{rel[1]}.client" if path.suffix == ".js" else rel[1]
    if rel[0] == "cli":
        return "cli"
    if rel[0] == "server":
        return "client" if path.suffix == ".js" else "server"
    return "core"


def source_files() -> Iterator[Path]:
    for path in sorted(PACKAGE.rglob("*")):
        rel = path.relative_to(PACKAGE).parts
        if "tests" in rel or "__pycache__" in rel or not path.is_file():
            continue
        if path.suffix == ".py" or (path.suffix == ".js" and rel[0] in ("server", "games")):
            yield path


def outside_files() -> list[tuple[Path, str]]:
    """The Python files and browser modules of the games registered from outside the
    package (``SPIELTISCH_GAMES``, tests excluded), each with its domain: the game's name,
    ``<game>.client`` for its ``.js`` files."""
    from .core.registry import game_names, package_dir

    found = []
    for name in game_names():
        folder = package_dir(name)
        if folder.is_relative_to(PACKAGE):
            continue
        found += [(path, name if path.suffix == ".py" else f"{name}.client")
                  for path in sorted(folder.rglob("*"))
                  if path.suffix in (".py", ".js") and path.is_file()
                  and "tests" not in path.relative_to(folder).parts
                  and "__pycache__" not in path.parts]
    return found


def extract() -> dict[str, dict[str, tuple[str, ...]]]:
    """domain → msgid → the message (singular, or singular and plural), from the code."""
    from babel.messages.extract import extract_from_file

    out: dict[str, dict[str, tuple[str, ...]]] = {}
    for path, domain in [(p, domain_of(p)) for p in source_files()] + outside_files():
        method, keywords = ("javascript", JS_KEYWORDS) if path.suffix == ".js" \
            else ("python", PY_KEYWORDS)
        # the client builds its HTML in template strings: read the t() calls inside them
        options = {"parse_template_string": True} if path.suffix == ".js" else {}
        found = out.setdefault(domain, {})
        for _line, message, _comments, _context in extract_from_file(
                method, str(path), keywords=keywords, options=options):
            msg = (message,) if isinstance(message, str) else tuple(message)
            if msg[0]:
                found[msg[0]] = msg
    return {d: m for d, m in out.items() if m}


#: Headers carry this date, so that an update changes only the messages (clean merges).
_FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)


def _new_catalog(domain: str, lang: str | None) -> Catalog:
    from babel.messages.catalog import Catalog

    return Catalog(locale=lang, domain=domain, project="spieltisch", version="1",
                   copyright_holder="the spieltisch authors", fuzzy=False,
                   header_comment=f"# {domain}: texts of spieltisch ({lang or 'template'})",
                   creation_date=_FIXED_DATE, revision_date=_FIXED_DATE)


def update(verbose: bool = True, only: Sequence[str] = ()) -> None:
    """Add new texts to every catalog (empty translations), drop ones no longer in the code.

    ``only`` limits the update to those domains; a game's name stands for both of its
    catalogs (``python -m spieltisch.catalogs hockey``: ``hockey`` and ``hockey.client``).
    """
    from babel.messages.pofile import read_po, write_po

    for domain, messages in sorted(extract().items()):
        if only and domain not in only and domain.partition(".")[0] not in only:
            continue
        folder = domain_dir(domain)
        folder.mkdir(parents=True, exist_ok=True)
        template = _new_catalog(domain, None)
        for msg in messages.values():
            template.add(msg[0] if len(msg) == 1 else msg)
        for lang in LANGUAGES:
            if lang == "en":
                continue  # the msgids are English
            path = folder / f"{lang}.po"
            if path.exists():
                with path.open("rb") as f:
                    catalog = read_po(f, locale=lang, domain=domain)
            else:
                catalog = _new_catalog(domain, lang)
            catalog.update(template, no_fuzzy_matching=True)
            catalog.obsolete.clear()
            catalog.creation_date = catalog.revision_date = _FIXED_DATE  # no churn in diffs
            with path.open("wb") as f:
                write_po(f, catalog, width=0, omit_header=False, sort_output=True)
            missing = sum(1 for m in catalog if m.id and not m.string)
            if verbose:
                shown = path.relative_to(PACKAGE) if path.is_relative_to(PACKAGE) else path
                print(f"{shown}: {len(messages)} texts, {missing} untranslated")


if __name__ == "__main__":
    update(only=sys.argv[1:])
    sys.exit(0)
