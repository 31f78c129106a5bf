"""Hood Politix's score sheet: places as points round by round, the fewest points win, and
a level lowest total after the third round means a fourth (§6), said in words."""

from __future__ import annotations

from spieltisch.core.scoresheet import sheet_of
from spieltisch.narration import context
from spieltisch.testing import finished

NAMES = ["Anna", "Ben", "Carl"]


def test_a_level_lowest_total_after_round_3_plays_round_4() -> None:
    state, events = finished("hood_politix", 3, 6)
    sheet = sheet_of(state, events)
    assert [(r.label.english(), r.points, r.winners) for r in sheet.rounds] == [
        ("Round 1", (1.0, 2.0, 3.0), (0,)), ("Round 2", (1.0, 2.0, 3.0), (0,)),
        ("Round 3", (3.0, 1.0, 2.0), (1,)), ("Round 4", (2.0, 1.0, 3.0), (1,))]
    assert sheet.totals() == state.result().scores == (7.0, 6.0, 11.0)
    assert (sheet.ranks, sheet.winner, sheet.lower_wins) == ((2, 1, 3), 1, True)
    said = {lang: sheet.to_json(context(state.game, NAMES, lang)) for lang in ("en", "de", "nl")}
    assert said["en"]["ties"] == ["After round 3, Anna and Ben were level with the fewest "
                                  "points (5), so round 4 was played."]
    assert said["de"]["ties"] == ["Nach Runde 3 lagen Anna und Ben mit den wenigsten Punkten "
                                  "(5) gleichauf, deshalb wurde Runde 4 gespielt."]
    assert said["nl"]["ties"] == ["Na ronde 3 stonden Anna en Ben gelijk met de minste punten "
                                  "(5), dus werd ronde 4 gespeeld."]
    assert said["en"]["rounds"][0]["note"] == "Anna finished first; Carl lost the round."
