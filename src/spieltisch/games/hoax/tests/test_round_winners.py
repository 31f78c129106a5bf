"""HOAX's score sheet against the events: each round's winner is the winner of the round's
final, if it had one (moved here from tests/test_scoresheet.py, issue 36)."""

from __future__ import annotations

import pytest

from spieltisch.core.game import Event
from spieltisch.core.scoresheet import builder_of, sheet_of
from spieltisch.testing import finished


def round_winners(events: list[Event]) -> list[tuple[int, ...]]:
    """Who won each round, read from the events alone: the winner of its final."""
    out: list[tuple[int, ...]] = []
    for e in events:
        if e.kind == "deal":
            out.append(())
        elif e.kind == "final_won":
            assert e.seat is not None
            out[-1] = (e.seat,)
    return out


@pytest.mark.parametrize("players", [4, 6])
def test_each_round_is_won_by_the_winner_of_its_final(players: int) -> None:
    for seed in range(4):
        state, events = finished("hoax", players, seed)
        sheet = sheet_of(state, events)
        assert builder_of(state.game) is not None  # its own sheet, not the generic one
        rows = [r for r in sheet.rounds if r.label.template != "Start"]
        assert [r.winners for r in rows] == round_winners(events)
