"""Hockey's score sheet: goals per period, the period's winner, and the draw after period 3
broken in overtime (§6), in English, German and Dutch."""

from __future__ import annotations

from spieltisch.core.game import Event
from spieltisch.core.scoresheet import builder_of, sheet_of
from spieltisch.narration import context
from spieltisch.testing import finished


def test_a_game_decided_in_overtime() -> None:
    state, events = finished("hockey", 2, 8)
    sheet = sheet_of(state, events)
    assert [(r.label.english(), r.points, r.winners) for r in sheet.rounds] == [
        ("Period 1", (0.0, 1.0), (1,)), ("Period 2", (0.0, 0.0), ()),
        ("Period 3", (1.0, 0.0), (0,)), ("Overtime, period 4", (1.0, 0.0), (0,))]
    assert sheet.totals() == state.result().scores == (2.0, 1.0)
    assert (sheet.winner, sheet.played) == (0, 4)
    said = {lang: sheet.to_json(context(state.game, ["Anna", "Ben"], lang))
            for lang in ("en", "de", "nl")}
    assert said["en"]["ties"] == ["Anna and Ben were level after period 3 (1:1); Anna won "
                                  "with the first goal of overtime, in period 4."]
    assert said["de"]["ties"] == ["Anna und Ben standen nach Periode 3 gleich (1:1); Anna "
                                  "gewann mit dem ersten Tor der Verlängerung, in Periode 4."]
    assert said["nl"]["ties"] == ["Anna en Ben stonden na periode 3 gelijk (1:1); Anna won "
                                  "met het eerste doelpunt van de verlenging, in periode 4."]
    assert [r["label"] for r in said["de"]["rounds"]][-1] == "Verlängerung, Periode 4"
    assert said["nl"]["title"] == "Doelpunten per periode"


def test_a_game_won_in_regular_time_has_no_tie() -> None:
    state, events = finished("hockey", 2, 1)
    sheet = sheet_of(state, events)
    assert state.round_number() == 3 and sheet.ties == ()
    assert len(sheet.rounds) == 3 and sheet.totals() == state.result().scores


def period_winners(events: list[Event]) -> list[tuple[int, ...]]:
    """Who won each period, read from the events alone: more goals in it."""
    goals: list[list[int]] = []
    for e in events:
        if e.kind == "period":
            goals.append([0, 0])
        elif e.kind == "play" and e.public["outcome"] == "goal":
            assert e.seat is not None
            goals[-1][e.seat] += 1
    return [(0,) if a > b else (1,) if b > a else () for a, b in goals]


def test_each_row_is_a_period_won_by_its_goals() -> None:
    for seed in range(4):
        state, events = finished("hockey", 2, seed)
        sheet = sheet_of(state, events)
        assert builder_of(state.game) is not None  # its own sheet, not the generic one
        assert [r.winners for r in sheet.rounds] == period_winners(events)
