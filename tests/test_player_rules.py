"""Issue 34, item 6: the full rules as a player reads them (``guides/full.<lang>.md``), in
English, German and Dutch, behind the Rules dialog's "Full rules" tab,
``GET /api/games/{name}/rules?for=player`` and ``spieltisch rules --full``.

A full text must be a player's: complete (every option the table can set, named by the
label the lobby shows, with its value words), without the implementer's notes, and the
German and Dutch ones must say what the English one says (the same sections and the
same numbers) in German and Dutch, not in English.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient
from typer.testing import CliRunner

from spieltisch import guides
from spieltisch.cli.main import app as cli
from spieltisch.core.registry import game_names, get_spec
from spieltisch.guides import full_rules_path, guide_text, player_rules
from spieltisch.i18n import translator
from spieltisch.server.web import web_routes

LANGS = ("en", "de", "nl")
#: The games that have full player rules (a new game may have only its guide).
FULL = [g for g in game_names() if full_rules_path(g, "en") is not None]

#: What belongs to the implementer's rules.md, never to a player's text: decisions,
#: citations, sources, file paths, and words about the program rather than the game.
NOTES = re.compile(
    r"\[D(?:ECISION)?\]|§|\.md\b|shared/|\bseeds?\b|pagat|\bBGA\b|Board Game Arena|DeepL"
    r"|\bspec\b|\bspecification\b|Spezifikation|specificatie|\bengine\b|\bimplement\w*"
    r"|\bimplementier\w*|\bimplementat\w*|\bbinding\b|\bverbindlich\w*|\bbindend\w*"
    r"|machine translation|Maschinenübersetzung|machinevertaling|\bdecision\b|\bTODO\b",
    re.IGNORECASE)
#: English words that no German or Dutch sentence has (outside `code` and card names).
ENGLISH = re.compile(r"\b(?:the|and|you|your|with|when|which|this|that|from|must|every|"
                     r"each|after|before|player|players|cards|points|round)\b", re.IGNORECASE)
#: Words of a Dutch text that would be German, and the other way round.
NOT_DUTCH = re.compile(r"\b(?:und|nicht|Spieler|wenn|oder|Karten|Punkte)\b")
NOT_GERMAN = re.compile(r"\b(?:het|niet|speler|spelers|kaarten|punten|wordt)\b")


def text(game: str, lang: str) -> str:
    path = full_rules_path(game, lang)
    assert path is not None and path.name == f"full.{lang}.md", f"{game}: no full.{lang}.md"
    return path.read_text(encoding="utf-8")


def sections(markdown: str) -> list[str]:
    return re.findall(r"^## (.+)$", markdown, re.MULTILINE)


def prose(markdown: str) -> str:
    """The text without `code` spans (typed moves are English in every language)."""
    return re.sub(r"`[^`]*`", " ", markdown)


def test_the_three_games_have_full_rules() -> None:
    assert {"president", "hockey", "pixmit"} <= set(FULL)


@pytest.mark.parametrize("game", FULL)
@pytest.mark.parametrize("lang", LANGS)
def test_full_rules_are_a_players_text(game: str, lang: str) -> None:
    spec = get_spec(game)
    said = text(game, lang)
    first = said.splitlines()[0]
    assert first.startswith("# ") and spec.title.split(" (")[0] in first, first
    found = NOTES.search(said)
    assert found is None, f"{game}/{lang}: project note {found.group(0)!r}"
    assert len(sections(said)) >= 5, f"{game}/{lang}: too few sections"
    # complete: longer than the short guide, and every option by the lobby's words
    assert len(said.split()) > 1.5 * len(guide_text(game, lang).split()), game
    tr = translator(lang, game, "core")
    for option in spec.options:
        words = [tr.gettext(option.label or option.name),
                 *(tr.gettext(w) for w in (option.value_labels or {}).values())]
        for word in words:
            assert word in said, f"{game}/{lang}: option {option.name} not named as {word!r}"


@pytest.mark.parametrize("game", FULL)
@pytest.mark.parametrize("lang", ["de", "nl"])
def test_german_and_dutch_say_what_the_english_says(game: str, lang: str) -> None:
    english, said = text(game, "en"), text(game, lang)
    assert len(sections(said)) == len(sections(english)), \
        f"{game}/{lang}: {sections(said)} against {sections(english)}"
    assert said.count("\n|") == english.count("\n|"), f"{game}/{lang}: table rows differ"
    numbers = set(re.findall(r"\d+", english))
    assert set(re.findall(r"\d+", said)) == numbers, \
        f"{game}/{lang}: numbers {set(re.findall(r'[0-9]+', said)) ^ numbers} differ"
    for line in prose(said).splitlines():
        found = ENGLISH.search(line)
        assert found is None, f"{game}/{lang}: English {found.group(0)!r} in {line!r}"
        other = (NOT_DUTCH if lang == "nl" else NOT_GERMAN).search(line)
        assert other is None, f"{game}/{lang}: {other.group(0)!r} in {line!r}"


def test_player_rules_fall_back(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # a language not offered reads English
    found = player_rules("president", "fr")
    assert (found.lang, found.full) == ("en", True)
    assert found.text == text("president", "en")
    assert player_rules("pixmit", "nl-BE").text == text("pixmit", "nl")
    # a game with full rules in English only, and a game without full rules
    folder = tmp_path / "guides"
    folder.mkdir()
    (folder / "en.md").write_text("# G — how to play\n")
    (folder / "de.md").write_text("# G — so wird gespielt\n")
    monkeypatch.setattr(guides, "_package_dir", lambda game: tmp_path)
    found = player_rules("hockey", "de")
    assert (found.text, found.lang, found.full) == ("# G — so wird gespielt\n", "de", False)
    (folder / "full.en.md").write_text("# G — full rules\n")
    found = player_rules("hockey", "de")
    assert (found.text, found.lang, found.full) == ("# G — full rules\n", "en", True)


def test_the_rules_route_for_players() -> None:
    with TestClient(Starlette(routes=web_routes())) as client:
        for lang in LANGS:
            r = client.get(f"/api/games/president/rules?for=player&lang={lang}")
            assert r.status_code == 200 and r.text == text("president", lang)
            assert r.headers["content-language"] == lang
            assert r.headers["content-type"].startswith("text/markdown")
        # else Accept-Language; a language not offered reads English
        r = client.get("/api/games/hockey/rules?for=player", headers={"accept-language": "nl"})
        assert r.text == text("hockey", "nl") and r.headers["content-language"] == "nl"
        r = client.get("/api/games/hockey/rules?for=player&lang=fr")
        assert r.text == text("hockey", "en") and r.headers["content-language"] == "en"
        # without `for` (or for=implementer): the implementer's rules, as before
        for query in ("", "?for=implementer", "?lang=de"):
            r = client.get(f"/api/games/president/rules{query}")
            assert r.status_code == 200 and "[DECISION]" in r.text
        r = client.get("/api/games/president/rules?for=robots")
        assert r.status_code == 400 and r.json()["error"] == "bad_audience"
        assert "player or implementer" in r.json()["message"]
        r = client.get("/api/games/chess/rules?for=player&lang=de")
        assert r.status_code == 404
        assert r.json() == {"error": "no_game", "message": "no game 'chess'"}


def test_cli_prints_the_full_rules() -> None:
    runner = CliRunner()
    r = runner.invoke(cli, ["rules", "president", "--full", "--lang", "de"])
    assert r.exit_code == 0, r.output
    assert "President — vollständige Spielregeln" in r.output and "[DECISION]" not in r.output
    r = runner.invoke(cli, ["rules", "pixmit", "--full", "--lang", "nl"])
    assert r.exit_code == 0 and "volledige spelregels" in r.output
    r = runner.invoke(cli, ["rules", "hockey", "--full", "--guide"])
    assert r.exit_code == 2 and "choose one of --guide and --full" in r.output
    r = runner.invoke(cli, ["rules", "chess", "--full"])
    assert r.exit_code == 2 and "unknown game 'chess'" in r.output
