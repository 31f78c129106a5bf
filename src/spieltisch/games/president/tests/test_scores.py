"""President's score sheet: 50 points each at the start, every round's points by place,
the President as the round's winner, and equal points broken by the last round (§5)."""

from __future__ import annotations

import pytest

from spieltisch.core.game import Event
from spieltisch.core.scoresheet import builder_of, sheet_of
from spieltisch.narration import context
from spieltisch.testing import finished

NAMES = ["Anna", "Ben", "Carl", "Dora"]


def test_equal_points_go_to_the_better_place_in_the_last_round() -> None:
    state, events = finished("president", 4, 15)
    sheet = sheet_of(state, events)
    assert [(r.label.english(), r.points, r.winners) for r in sheet.rounds] == [
        ("Start", (50.0, 50.0, 50.0, 50.0), ()),
        ("Round 1", (5.0, 0.0, -10.0, -15.0), (0,)),
        ("Round 2", (-10.0, -15.0, 5.0, 0.0), (2,)),
        ("Round 3", (-15.0, 5.0, 0.0, -10.0), (1,)),
        ("Round 4", (-10.0, 5.0, -15.0, 0.0), (1,)),
        ("Round 5", (-10.0, -15.0, 5.0, 0.0), (2,)),
        ("Round 6", (-10.0, 5.0, 0.0, -15.0), (1,))]
    assert sheet.totals() == state.result().scores == (0.0, 35.0, 35.0, 10.0)
    assert (sheet.ranks, sheet.winner, sheet.played) == ((4, 1, 2, 3), 1, 6)
    said = {lang: sheet.to_json(context(state.game, NAMES, lang)) for lang in ("en", "de", "nl")}
    assert said["en"]["ties"] == ["Ben and Carl both have 35 points; Ben wins with the better "
                                  "place in the last round (1 against 2)."]
    assert said["de"]["ties"] == ["Ben und Carl haben beide 35 Punkte; Ben gewinnt mit dem "
                                  "besseren Platz in der letzten Runde (1 gegen 2)."]
    assert said["nl"]["ties"] == ["Ben en Carl hebben allebei 35 punten; Ben wint met de "
                                  "betere plaats in de laatste ronde (1 tegen 2)."]
    assert said["en"]["rounds"][-1]["note"] == "Ben went out first; Dora was left with cards."


def round_winners(events: list[Event]) -> list[tuple[int, ...]]:
    """Who won each round, read from the events alone: the first out after each deal."""
    out: list[tuple[int, ...]] = []
    first: int | None = None
    for e in events:
        if e.kind == "deal":
            first = None
        elif e.kind == "out" and first is None:
            first = e.seat
        elif e.kind == "round_end":
            out.append((first,) if first is not None else (e.public["order"][0],))
    return out


@pytest.mark.parametrize("players", [4, 6])
def test_each_round_is_won_by_the_first_out(players: int) -> None:
    for seed in range(4):
        state, events = finished("president", players, seed)
        sheet = sheet_of(state, events)
        assert builder_of(state.game) is not None  # its own sheet, not the generic one
        rows = [r for r in sheet.rounds if r.label.template != "Start"]
        assert [r.winners for r in rows] == round_winners(events)
