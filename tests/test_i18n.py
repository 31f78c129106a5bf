"""Every text a person reads has a German, English and Dutch version (issue 18)."""

from __future__ import annotations

import re
import string

import pytest
from babel.messages.pofile import read_po

from spieltisch import catalogs
from spieltisch.i18n import (
    LANGUAGES,
    domain_dir,
    language_from_accept,
    language_from_env,
    normalise_language,
    parse_language,
    translator,
)

EXTRACTED = catalogs.extract()


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.mark.parametrize("domain", sorted(EXTRACTED))
@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_text_is_translated(domain: str, lang: str) -> None:
    path = domain_dir(domain) / f"{lang}.po"
    assert path.exists(), f"{domain} has texts but no {lang} catalog: run python -m " \
                          "spieltisch.catalogs and translate"
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    entries = {(m.id if isinstance(m.id, str) else m.id[0]): m for m in catalog if m.id}
    problems = []
    for msgid, msg in EXTRACTED[domain].items():
        entry = entries.get(msgid)
        if entry is None:
            problems.append(f"missing: {msgid!r}")
            continue
        texts = [entry.string] if isinstance(entry.string, str) else list(entry.string)
        if entry.fuzzy or not all(texts):
            problems.append(f"untranslated: {msgid!r}")
            continue
        wanted = set().union(*(placeholders(m) for m in msg))
        for text in texts:
            if placeholders(text) - wanted:
                problems.append(f"unknown placeholder in {lang} for {msgid!r}: {text!r}")
    assert not problems, "\n".join(problems)


def test_translator_fills_arguments_after_translating(tmp_path) -> None:
    tr = translator("xx", "core")  # an unknown language falls back to English
    assert tr.lang == "en"
    assert tr.format("{name} plays {card}", name="Anna", card="10H") == "Anna plays 10H"


def test_language_choice() -> None:
    assert normalise_language("de_DE.UTF-8") == "de"
    assert normalise_language("fr") == "en"
    assert parse_language(" NL ") == "nl"
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        parse_language("fr")
    assert language_from_env({"LANG": "nl_NL.UTF-8"}) == "nl"
    assert language_from_env({"LC_ALL": "C", "LANG": "de_AT.UTF-8"}) == "de"
    assert language_from_env({"LANGUAGE": "fr:de", "LANG": "nl_NL"}) == "de"
    assert language_from_env({}) == "en"
    assert language_from_accept("fr-CH, fr;q=0.9, nl;q=0.8, de;q=0.7, *;q=0.5") == "nl"
    assert language_from_accept("de;q=0.2, en;q=0.3") == "en"
    assert language_from_accept("de-DE") == "de"
    assert language_from_accept("xx, yy;q=nan") == "en"
    assert language_from_accept(None) == "en"


def test_catalog_placeholders_are_python_format() -> None:
    # a template uses {name} fields only; %s or ${name} would reach a player raw
    bad = [m for d in EXTRACTED.values() for msg in d.values() for m in msg
           if re.search(r"%[sd(]|\$\{", m)]
    assert not bad, bad


def test_translators_over_different_domains_stay_apart() -> None:
    """Catalogs are shared between translators, their fallback chains are not (a shared
    chain once linked the core catalog to itself: every unknown text recursed forever)."""
    a = translator("de", "cli", "core")
    b = translator("de", "hockey", "cli", "core")
    c = translator("de", "core", "cli")
    for tr in (a, b, c, translator("de", "core")):
        assert tr.gettext("a text no catalog has") == "a text no catalog has"
        assert tr.format("Seat {number}", number=2) == "Platz 2"


def test_plural_forms_are_passed_as_plain_strings() -> None:
    """``nformat(N_("a"), N_("b"), n)`` makes the extractor file two singular texts, so the
    plural is never found in a catalog and readers silently get English: pass the two forms
    as plain strings (the extractor knows ``nformat``/``ngettext``/``tn``)."""
    pattern = re.compile(r"\b(?:nformat|ngettext|tn)\(\s*(?:N_|t)\(")
    bad = [str(path.relative_to(catalogs.PACKAGE)) for path in catalogs.source_files()
           if pattern.search(path.read_text(encoding="utf-8"))]
    assert not bad, bad


@pytest.mark.parametrize("domain", sorted(d for d in EXTRACTED if d.split(".")[-1] == "client"))
def test_browser_catalogs_hold_only_their_own_texts(domain: str) -> None:
    """The core client's catalog has only the core client's texts and a game module's
    catalog (``<game>.client``, in its package) only that module's: a text moves with its
    module (``python -m spieltisch.catalogs`` drops what the code no longer has)."""
    for lang in (lang for lang in LANGUAGES if lang != "en"):
        with (domain_dir(domain) / f"{lang}.po").open("rb") as f:
            ids = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
        assert ids - set(EXTRACTED[domain]) == set(), (domain, lang)
