"""Pixmit's score sheet: one scoring at the end (§4); equal points go to fewer vetoes, and
are shared when those are equal too — the tie on 40 of issue 34, in words."""

from __future__ import annotations

import pytest

from spieltisch.core.scoresheet import builder_of, sheet_of
from spieltisch.narration import context
from spieltisch.testing import finished

NAMES = ["Anna", "Ben", "Carl", "Dora"]


def test_a_tie_on_40_broken_by_fewer_vetoes() -> None:
    state, events = finished("pixmit", 4, 0)
    sheet = sheet_of(state, events)
    assert [(r.label.english(), r.points, r.winners) for r in sheet.rounds] == [
        ("Final hands", (40.0, 30.0, 10.0, 40.0), (0, 3))]
    assert sheet.totals() == state.result().scores
    assert (sheet.ranks, sheet.winner) == ((2, 3, 4, 1), 3)
    said = {lang: sheet.to_json(context(state.game, NAMES, lang)) for lang in ("en", "de", "nl")}
    assert said["en"]["ties"] == ["Dora and Anna both reached 40 points; Dora wins with fewer "
                                  "vetoes (0 against 4)."]
    assert said["de"]["ties"] == ["Dora und Anna haben beide 40 Punkte erreicht; Dora "
                                  "gewinnt mit weniger Vetos (0 gegen 4)."]
    assert said["nl"]["ties"] == ["Dora en Anna hebben allebei 40 punten gehaald; Dora wint "
                                  "met minder veto's (0 tegen 4)."]


def test_a_tie_on_40_with_as_many_vetoes_is_a_shared_win() -> None:
    state, events = finished("pixmit", 3, 2)
    sheet = sheet_of(state, events)
    assert sheet.totals() == state.result().scores == (40.0, 40.0, 20.0)
    assert (sheet.ranks, sheet.winner, sheet.played) == ((1, 1, 3), None, 3)
    said = sheet.to_json(context(state.game, NAMES[:3], "en"))
    assert said["ties"] == ["Anna and Ben reached 40 points and made as many vetoes (2): they "
                            "share the win."]
    assert said["rounds"][0]["winners"] == [0, 1]


@pytest.mark.parametrize("players", [3, 4])
def test_the_one_scoring_is_won_by_the_best_hands(players: int) -> None:
    """One scoring, at the end (§4): its winners are the seats with the most points."""
    for seed in range(4):
        state, events = finished("pixmit", players, seed)
        sheet = sheet_of(state, events)
        assert builder_of(state.game) is not None  # its own sheet, not the generic one
        rows = [r for r in sheet.rounds if r.label.template != "Start"]
        best = max(rows[0].points)
        assert rows[0].winners == tuple(s for s, p in enumerate(rows[0].points) if p == best)
