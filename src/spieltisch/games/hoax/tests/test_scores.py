"""HOAX's score sheet: the throne points of every round, its final's winner, the first to
10 (§6), and equal throne points of the others as a shared place."""

from __future__ import annotations

from spieltisch.core.scoresheet import sheet_of
from spieltisch.narration import context
from spieltisch.testing import finished

NAMES = ["Anna", "Ben", "Carl", "Dora"]


def test_the_first_to_ten_wins_and_the_others_share_a_place() -> None:
    state, events = finished("hoax", 4, 3)
    sheet = sheet_of(state, events)
    assert [(r.label.english(), r.points, r.winners) for r in sheet.rounds] == [
        ("Round 1", (5.0, 0.0, 2.0, 0.0), (0,)), ("Round 2", (5.0, 0.0, 0.0, 0.0), (0,))]
    assert sheet.totals() == state.result().scores == (10.0, 0.0, 2.0, 0.0)
    assert (sheet.ranks, sheet.winner, sheet.played) == ((1, 3, 2, 3), 0, 2)
    said = {lang: sheet.to_json(context(state.game, NAMES, lang)) for lang in ("en", "de", "nl")}
    assert said["en"]["ties"] == [
        "Anna was the first to reach 10 throne points and won at once.",
        "Ben and Dora share place 3 with the same throne points (0)."]
    assert said["de"]["ties"] == [
        "Anna hat 10 Thronpunkte zuerst erreicht und sofort gewonnen.",
        "Ben und Dora teilen sich Platz 3 mit gleich vielen Thronpunkten (0)."]
    assert said["nl"]["ties"] == [
        "Anna had als eerste 10 troonpunten en won meteen.",
        "Ben en Dora delen plaats 3 met evenveel troonpunten (0)."]
    assert said["en"]["rounds"][1]["note"] == "Anna won the final."
