"""President's score sheet (``core.scoresheet``): the points of every round by finishing
place (§4), who went out first (the round's President), and ties of the final points
broken by the better place in the final round (§5)."""

from __future__ import annotations

from collections.abc import Sequence

from ...core.game import Event, seat_arg
from ...core.scoresheet import (
    Line,
    RoundScore,
    ScoreSheet,
    number,
    players_arg,
    shared_place,
    tie_lines,
)
from ...i18n import N_
from .state import PresidentState


def score_sheet(state: PresidentState, events: Sequence[Event]) -> ScoreSheet:
    """A first row with the points before the first round played (50 each at a fresh
    deal, §4), then one row per round: each seat's points for its place, won by the
    President (the first out)."""
    result = state.result()
    n = state.num_players
    ends = [e.public for e in events if e.kind == "round_end"]
    rounds: list[RoundScore] = []
    before = [float(x) for x in result.scores]
    for end in ends:
        before = [b - d for b, d in zip(before, end["deltas"], strict=True)]
    first = int(ends[0]["round"]) if ends else state.round
    label = Line(N_("Start")) if first == 1 else \
        Line(N_("Before round {round}"), {"round": first})
    rounds.append(RoundScore(label, tuple(before)))
    for end in ends:
        order = end["order"]
        rounds.append(RoundScore(Line(N_("Round {round}"), {"round": end["round"]}),
                                 tuple(float(d) for d in end["deltas"]), (order[0],),
                                 Line(N_("{first} went out first; {last} was left with "
                                         "cards."), {"first": seat_arg(order[0]),
                                                     "last": seat_arg(order[-1])})))
    last_order = list(ends[-1]["order"]) if ends else list(range(n))
    place = {s: i + 1 for i, s in enumerate(last_order)}

    def broken(a: int, b: int) -> Line:
        wins = result.ranks[a] == 1
        template = N_("{players} both have {points} points; {first} wins with the better "
                      "place in the last round ({place} against {other}).") if wins else \
            N_("{players} both have {points} points; {first} is placed ahead with the "
               "better place in the last round ({place} against {other}).")
        return Line(template, {"players": players_arg((a, b)), "first": seat_arg(a),
                               "points": number(result.scores[a]), "place": place[a],
                               "other": place[b]})

    return ScoreSheet(Line(N_("Points per round")), tuple(rounds), tuple(result.scores),
                      tuple(result.ranks), result.winner,
                      ties=tie_lines(result.scores, result.ranks, broken, shared_place),
                      played=len(ends))
