"""Score sheets (``core.scoresheet``): for seeded games of every registered game, the rows
add up to the engine's final scores, the ranks and winner are the result's, every
sentence reads in English, German and Dutch (each round's winner against the events is
each game's own test); the tie sentences of the core; a game without a ``scores`` module
gets the generic sheet."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from spieltisch.bots import make_bot
from spieltisch.core import game_names, get_spec, new_game
from spieltisch.core.scoresheet import (
    Line,
    generic_sheet,
    history,
    players_arg,
    shared_place,
    sheet_of,
    tie_lines,
)
from spieltisch.i18n import translator
from spieltisch.narration import Context, context
from spieltisch.runner import step
from spieltisch.testing import NAMES, assert_clean, finished


def cases() -> list[object]:
    """Every registered game at its fewest and its default number of players."""
    return [pytest.param(name, n, id=f"{name}-{n}p") for name in game_names()
            for n in sorted({get_spec(name).min_players, get_spec(name).default_players})]


@pytest.mark.parametrize(("name", "players"), cases())
def test_the_rows_add_up_to_the_result_in_every_language(name: str, players: int) -> None:
    """The generic part; each game's own ``tests/test_scores.py`` checks its sheet's
    rounds and their winners against the events."""
    for seed in range(4):
        state, events = finished(name, players, seed)
        sheet = sheet_of(state, events)
        result = state.result()
        assert sheet.totals() == result.scores == sheet.scores
        assert (sheet.ranks, sheet.winner) == (result.ranks, result.winner)
        assert sheet.actions == state.move_number
        for lang in ("en", "de", "nl"):
            told = sheet.to_json(context(state.game, NAMES[:players], lang))
            assert told["scores"] == [int(x) for x in result.scores]
            for text in [told["title"], *told["ties"],
                         *(r["label"] for r in told["rounds"]),
                         *(r["note"] for r in told["rounds"] if r["note"])]:
                assert_clean(text, f"{name} sheet in {lang}")
                assert "seat " not in text


def test_history_replays_the_events_of_a_game() -> None:
    state, events = finished("hockey", 2, 8)
    replayed = new_game("hockey", 2, seed=8)
    actions = []
    again = new_game("hockey", 2, seed=8)
    bots = [make_bot(again.game, "random", s, 80 + s) for s in range(2)]
    rng = random.Random(8)
    while not again.is_over():
        actions.append(step(again, bots, rng))
    final, told = history(replayed, actions)
    assert final.result() == state.result() and [e.full() for e in told] == \
        [e.full() for e in events]
    assert replayed.move_number == 0  # the first state is left as it was


def english(names: Sequence[str] = NAMES) -> Context:
    return Context(translator("en", "core"), names, None)


def test_ties_are_broken_pair_by_pair_or_shared() -> None:
    scores = (5.0, 7.0, 5.0, 5.0, 7.0)
    ranks = (3, 1, 3, 5, 1)  # 1 and 4 share the win; 0 and 2 share 3rd, 3 placed after
    lines = tie_lines(scores, ranks, lambda a, b: Line("{a} over {b}", {"a": a, "b": b}),
                      shared_place)
    assert [line.text(english()) for line in lines] == [
        "Ben and Emil share the win.", "Anna and Carl share place 3.", "2 over 3"]
    assert tie_lines((1.0, 2.0), (2, 1), lambda a, b: Line("x"), shared_place) == ()


def test_players_are_listed_in_each_language() -> None:
    three = players_arg((0, 1, 2))
    assert three.render(english()) == "Anna, Ben and Carl"
    assert three.render(Context(translator("de", "core"), NAMES, None)) == "Anna, Ben und Carl"
    assert players_arg((3, 1)).render(Context(translator("nl", "core"), NAMES, None)) == \
        "Dora en Ben"
    assert str(three) == "seat 0 and seat 1 and seat 2"


def test_a_game_without_a_scores_module_gets_the_generic_sheet() -> None:
    state, _ = finished("president", 4, 15)
    sheet = generic_sheet(state)
    assert [r.label.english() for r in sheet.rounds] == ["Final score"]
    assert sheet.totals() == state.result().scores
    told = sheet.to_json(context(state.game, NAMES[:4], "de"))
    assert told["title"] == "Endstand" and told["ties"] == [
        "Ben und Carl haben gleich viele Punkte; nach der Regel für Gleichstand liegt Ben "
        "vorn."]


def test_an_unfinished_game_has_no_sheet() -> None:
    state = new_game("hockey", 2, seed=1)
    with pytest.raises(ValueError):
        sheet_of(state, list(state.opening))


def test_a_sheet_says_how_long_the_game_took() -> None:
    state, events = finished("hoax", 4, 3)
    sheet = sheet_of(state, events, actions=70)
    length = sheet.to_json(context(get_spec("hoax").configure(4), NAMES[:4], "en"), 754.4)
    assert length["length"] == {"actions": 70, "rounds": 2, "seconds": 754}
