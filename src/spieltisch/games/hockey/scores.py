"""Hockey's score sheet (``core.scoresheet``): goals per period, who won each period, and
how a draw after period 3 was broken (§6: overtime until the first goal)."""

from __future__ import annotations

from collections.abc import Sequence

from ...core.game import Event, seat_arg
from ...core.scoresheet import Line, RoundScore, ScoreSheet, players_arg
from ...i18n import N_
from .cards import REGULAR_PERIODS
from .state import HockeyState


def period_label(period: int) -> Line:
    """Periods 1–3 by number, the later ones as overtime (§6)."""
    if period <= REGULAR_PERIODS:
        return Line(N_("Period {period}"), {"period": period})
    return Line(N_("Overtime, period {period}"), {"period": period})


def score_sheet(state: HockeyState, events: Sequence[Event]) -> ScoreSheet:
    """One row per period with each seat's goals in it (the period's winner: more goals);
    the goals add up to the result's. A game that went to overtime says why (§6)."""
    result = state.result()
    rounds = []
    for period, goals in enumerate(state.period_goals, 1):
        winners = (0,) if goals[0] > goals[1] else (1,) if goals[1] > goals[0] else ()
        rounds.append(RoundScore(period_label(period), (float(goals[0]), float(goals[1])),
                                 winners))
    ties: tuple[Line, ...] = ()
    if state.period > REGULAR_PERIODS and result.winner is not None:
        level = sum(g[0] for g in state.period_goals[:REGULAR_PERIODS])
        ties = (Line(N_("{players} were level after period 3 ({goals}:{goals}); {winner} won "
                        "with the first goal of overtime, in period {period}."),
                     {"players": players_arg((0, 1)), "goals": level,
                      "winner": seat_arg(result.winner), "period": state.period}),)
    return ScoreSheet(Line(N_("Goals per period")), tuple(rounds), tuple(result.scores),
                      tuple(result.ranks), result.winner, ties=ties, played=state.period)
