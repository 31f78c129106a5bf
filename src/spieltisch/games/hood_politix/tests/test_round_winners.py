"""Hood Politix's score sheet against the events: each round's winner is its place 1 (one
point; moved here from tests/test_scoresheet.py, issue 36)."""

from __future__ import annotations

import pytest

from spieltisch.core.scoresheet import builder_of, sheet_of
from spieltisch.testing import finished


@pytest.mark.parametrize("players", [3, 4])
def test_each_round_is_won_by_its_place_1(players: int) -> None:
    for seed in range(4):
        state, events = finished("hood_politix", players, seed)
        sheet = sheet_of(state, events)
        assert builder_of(state.game) is not None  # its own sheet, not the generic one
        rows = [r for r in sheet.rounds if r.label.template != "Start"]
        assert [r.winners for r in rows] == [
            (e.public["points"].index(1),) for e in events if e.kind == "round_end"]
