"""HOAX's score sheet (``core.scoresheet``): the throne points each round gave (§6, §9.4:
finals, accusations, doubts), the round's final won by whom, and the first to 10 wins at
once; equal throne points of the others share a place."""

from __future__ import annotations

from collections.abc import Sequence

from ...core.game import Event, seat_arg
from ...core.scoresheet import (
    Line,
    RoundScore,
    ScoreSheet,
    ahead_by_rules,
    number,
    players_arg,
    tie_lines,
)
from ...i18n import N_
from .state import WIN_POINTS, HoaxState


def score_sheet(state: HoaxState, events: Sequence[Event]) -> ScoreSheet:
    """A row per round (a deal): the throne points of its ``points`` events per seat, won
    by the winner of its final (nobody, for a round without a final, or the last one,
    which the game's end cut short). A first row holds the points from before, for a
    game that began from a position."""
    result = state.result()
    n = state.num_players
    rows: list[tuple[int, list[float], list[int]]] = []  # round, points, final winners
    for e in events:
        if e.kind == "deal":
            rows.append((int(e.public["round"]), [0.0] * n, []))
        elif e.kind == "points" and rows and e.seat is not None:
            rows[-1][1][e.seat] += e.public["points"]
        elif e.kind == "final_won" and rows and e.seat is not None:
            rows[-1][2].append(e.seat)
    before = [float(x) - sum(r[1][s] for r in rows) for s, x in enumerate(result.scores)]
    rounds: list[RoundScore] = []
    if any(before):
        first = rows[0][0] if rows else state.round_no
        rounds.append(RoundScore(Line(N_("Before round {round}"), {"round": first}),
                                 tuple(before)))
    for number_, points, finals in rows:
        note = Line(N_("{player} won the final."), {"player": seat_arg(finals[-1])}) \
            if finals else None
        rounds.append(RoundScore(Line(N_("Round {round}"), {"round": number_}),
                                 tuple(points), tuple(finals[-1:]), note))

    def shared(seats: tuple[int, ...], place: int) -> Line:
        return Line(N_("{players} share place {place} with the same throne points "
                       "({points})."),
                    {"players": players_arg(seats), "place": place,
                     "points": number(result.scores[seats[0]])})

    ties = tie_lines(result.scores, result.ranks, ahead_by_rules, shared)
    if result.winner is not None:
        ties = (Line(N_("{player} was the first to reach {goal} throne points and won at "
                        "once."), {"player": seat_arg(result.winner), "goal": WIN_POINTS}),
                *ties)
    return ScoreSheet(Line(N_("Throne points per round")), tuple(rounds),
                      tuple(result.scores), tuple(result.ranks), result.winner, ties=ties,
                      played=len(rows) or state.round_no)
