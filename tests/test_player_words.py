"""Issue 34, item 6: every word a player reads is in their language: every refusal and
every parse error, the seat options, the rules the Rules button shows.

For the refusals, two sides of the same promise:

* **every template** a game (or the core) can refuse with — collected from the source,
  each ``illegal``/``faulty``/``Check``/``IllegalAction`` call's ``N_`` literal — has a
  German and a Dutch translation with the same placeholders, and reads clean when its
  placeholders are filled with sample arguments of the types the engine passes;
* **every refusal met in play** (random games of each game, every seat trying actions it
  may not take) is read through ``translate_reason`` — the formatter the server and the
  terminal use — in German and Dutch: its template is one of the collected ones, each
  seat, phase, action, card or colour in it is a ``Told`` argument rendered in words
  (a seat by its player's name), and no English template, internal key, ``{…}`` or
  0-based "seat 0" is left.
"""

from __future__ import annotations

import ast
import random
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest

from spieltisch import new_game
from spieltisch.core.game import (
    IllegalAction,
    State,
    Told,
    Verdict,
    seat_arg,
    translate_reason,
    word_arg,
)
from spieltisch.core.registry import game_names, get_spec, package_dir
from spieltisch.i18n import translator
from spieltisch.narration import context

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "spieltisch"
LANGS = ("de", "nl")
NAMES = ("Ada", "Ben", "Cem", "Dora", "Emil", "Fenna", "Gus", "Hanna")
#: Calls that make a refusal: the template is the call's ``N_`` literal.
MAKERS = {"illegal", "faulty", "_illegal", "_faulty", "Check", "FaultCheck", "IllegalAction"}
#: Placeholders that name a thing of the game: never a raw value in a refusal.
TOLD = {"seat", "turn", "target", "waiting", "phase", "step", "pause", "colour", "fault",
        "action", "identity", "card", "top", "cards"}
#: What a player must never read: template braces, keys, reprs of None, a 0-based seat.
RAW = re.compile(r"[{}]|\b[a-z]+_[a-z_]+\b|\bNone\b|\b(?:seat|Platz|plaats) 0\b")
#: A card with a suit symbol (``7♦``) is already what the table shows.
SUITS = re.compile("[♠♥♦♣]")
#: Words of the engine's English that a German or Dutch refusal must not contain.
ENGLISH = re.compile(r"\b(?:seat|is not|not legal|may not|waiting for|the|your|turn)\b")


def _templates_in(path: Path) -> Iterator[tuple[str, str]]:
    """(call name, template) of every refusal made in ``path``."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else \
            node.func.attr if isinstance(node.func, ast.Attribute) else ""
        if name not in MAKERS:
            continue
        for arg in node.args:
            if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) \
                    and arg.func.id == "N_" and isinstance(arg.args[0], ast.Constant):
                yield name, str(arg.args[0].value)


def _domain_files(domain: str) -> list[Path]:
    if domain == "core":
        return [PACKAGE / "core" / "game.py"]
    folder = package_dir(domain)
    return [p for p in folder.rglob("*.py") if "tests" not in p.relative_to(folder).parts]


def templates(domain: str) -> set[str]:
    return {t for f in _domain_files(domain) for _, t in _templates_in(f)}


DOMAINS = ["core", *game_names()]


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def _sample(field: str) -> object:
    """A sample argument of the type the engine passes for ``field``."""
    if field in ("seat", "turn", "target"):
        return seat_arg(2)
    if field == "waiting":
        return Told("seat 1, 2", lambda ctx: f"{ctx.name(1)}, {ctx.name(2)}")
    if field in TOLD:
        return word_arg("the game is over")  # any translated word
    return 3 if field in ("count", "trios", "size", "played", "last", "action") else "'x'"


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_refusal_template_is_translated(domain: str) -> None:
    found = templates(domain)
    assert found, f"no refusal found in {domain}"
    for lang in LANGS:
        tr = translator(lang, domain, "core")
        for template in sorted(found):
            said = tr.gettext(template)
            assert said != template, f"{domain}/{lang}: untranslated {template!r}"
            assert _fields(said) == _fields(template), f"{domain}/{lang}: {said!r}"
            args = {f: _sample(f) for f in _fields(template)}
            check = IllegalAction(template, params=args or None)
            text = check.translate(tr, NAMES)
            assert RAW.search(text) is None, f"{domain}/{lang}: {text!r}"


def _refusals(state: State, rng: random.Random, tries: int) -> Iterator[tuple[int, int]]:
    """(seat, action) pairs to try in ``state``: random ones, plus every action of a seat
    that is waited for and of one that is not."""
    n, space = state.game.num_players, state.game.num_actions
    for _ in range(tries):
        yield rng.randrange(n), rng.randrange(space)
    for seat in {*state.to_act()[:1], rng.randrange(n)}:
        for action in range(0, space, max(1, space // 60)):
            yield seat, action


def _step(state: State, rng: random.Random) -> bool:
    """One random legal action (or a running deadline's); False if none is left."""
    movers = [s for s in state.may_act() if state.legal_actions(s)]
    if movers:
        seat = rng.choice(movers)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        return True
    for d in sorted(state.deadlines(), key=lambda d: d.seconds):
        state.apply(d.seat, d.action)
        return True
    return False


def player_counts(name: str) -> list[int]:
    """The fewest players and one more (where the game allows it): small tables, where a
    random game soon meets its refusals."""
    spec = get_spec(name)
    return sorted({spec.min_players, min(spec.min_players + 1, spec.max_players)})


@pytest.mark.parametrize("name", game_names())
def test_every_refusal_met_in_play_reads_in_words(name: str) -> None:
    known = templates(name) | templates("core")
    met: set[str] = set()
    for players in player_counts(name):
        for seed in range(2):
            rng = random.Random(seed)
            state = new_game(name, players, seed=seed)
            names = NAMES[:players]
            for move in range(160):
                if state.is_over() or not _step(state, rng):
                    break
                if move % 8:
                    continue
                for seat, action in _refusals(state, rng, 30):
                    check = state.judge(seat, action)
                    if check.verdict is Verdict.LEGAL:
                        continue
                    template = check.template
                    assert template in known, f"{name}: {template!r} not found in the source"
                    met.add(template)
                    params = check.params or {}
                    for key, value in params.items():
                        if key in TOLD and not SUITS.search(str(value)):
                            assert isinstance(value, Told), \
                                f"{name}: {key}={value!r} in {template!r} is not told in words"
                    for lang in LANGS:
                        text = translate_reason(state.game, check, lang, names)
                        where = f"{name}/{lang}: {check.reason!r} -> {text!r}"
                        assert RAW.search(text) is None, where
                        assert ENGLISH.search(text) is None, where
                        ctx = context(state.game, names, lang)
                        for value in params.values():
                            if isinstance(value, Told) and re.search("[a-z]", value.raw):
                                assert value.render(ctx) != value.raw, where
    assert met, f"{name}: no refusal met"


#: Texts a player might type that no game reads.
GARBAGE = ("xyz", "play xyz", "", "play", "play 7H 7H 7H 7H 7H", "offer 1 2 3", "target 9",
           "claim zz", "messenger", "give", "accuse x y", "take zz", 5)


@pytest.mark.parametrize("name", game_names())
def test_parse_errors_read_in_the_players_language(name: str) -> None:
    state = new_game(name, get_spec(name).min_players, seed=0)
    met = 0
    for text in GARBAGE:
        try:
            state.game.action_from_json(text)
        except IllegalAction as e:
            met += 1
            for lang in LANGS:
                said = translate_reason(state.game, e, lang)
                assert said != e.reason, f"{name}/{lang}: untranslated {e.reason!r}"
                assert not re.search(r"[{}]|\bunknown\b|\bnot an\b", said), said
    assert met >= 3


#: Project notes that belong to the implementer's rules.md, never to a player's text.
NOTES = re.compile(r"\[DECISION|shared/rules|Binding specification|machine translation|"
                   r"Maschinenübersetzung|machinevertaling|\.md\b|§")


@pytest.mark.parametrize("name", game_names())
def test_the_rules_a_player_reads_have_no_project_notes(name: str) -> None:
    """The Rules dialog shows the guide (``/api/games/{name}/guide``) in each language,
    without the spec's citations, decisions or file paths."""
    from spieltisch.guides import guide_text

    for lang in ("en", *LANGS):
        text = guide_text(name, lang)
        assert NOTES.search(text) is None, f"{name}/{lang}: {NOTES.search(text)}"


@pytest.mark.parametrize("name", game_names())
def test_seat_options_never_say_minus_one(name: str) -> None:
    """A seat option says what the seat does; the lobby offers "a random seat" and the
    seats by their labels (``seat``), so no player's text names -1 or a 0-based seat."""
    from spieltisch.core.registry import get_spec

    for option in get_spec(name).options:
        if option.value_labels and -1 in option.value_labels:
            assert option.seat and option.kind is int, option.name
        for lang in ("en", *LANGS):
            tr = translator(lang, name, "core")
            words = [tr.gettext(option.help), tr.gettext(option.label),
                     *(tr.gettext(w) for w in (option.value_labels or {}).values())]
            assert not any("-1" in w for w in words), (name, lang, words)
