"""Hood Politix's score sheet (``core.scoresheet``): places are points, round by round
(§6: 1st = 1 … last = N), the fewest points win; a level lowest total after
``min_rounds`` rounds means another round, which the sheet says in words."""

from __future__ import annotations

from collections.abc import Sequence

from ...core.game import Event, seat_arg
from ...core.scoresheet import (
    Line,
    RoundScore,
    ScoreSheet,
    ahead_by_rules,
    players_arg,
    shared_place,
    tie_lines,
)
from ...i18n import N_
from .state import HoodPolitixState


def score_sheet(state: HoodPolitixState, events: Sequence[Event]) -> ScoreSheet:
    """A row per round: each seat's place as its points, won by the first to finish. A
    first row holds the points from before, for a game that began from a position."""
    result = state.result()
    ends = [e.public for e in events if e.kind == "round_end"]
    before = [float(x) for x in result.scores]
    for end in ends:
        before = [b - p for b, p in zip(before, end["points"], strict=True)]
    rounds: list[RoundScore] = []
    if any(before):
        first = int(ends[0]["round"]) if ends else state.round
        rounds.append(RoundScore(Line(N_("Before round {round}"), {"round": first}),
                                 tuple(before)))
    ties: list[Line] = []
    for i, end in enumerate(ends):
        order = end["order"]
        rounds.append(RoundScore(Line(N_("Round {round}"), {"round": end["round"]}),
                                 tuple(float(p) for p in end["points"]), (order[0],),
                                 Line(N_("{first} finished first; {last} lost the round."),
                                      {"first": seat_arg(order[0]),
                                       "last": seat_arg(order[-1])})))
        totals = end["scores"]
        low = min(totals)
        level = tuple(s for s, x in enumerate(totals) if x == low)
        if i + 1 < len(ends) and end["round"] >= state.game.min_rounds and len(level) > 1:
            ties.append(Line(N_("After round {round}, {players} were level with the fewest "
                                "points ({points}), so round {next} was played."),
                             {"round": end["round"], "players": players_arg(level),
                              "points": low, "next": end["round"] + 1}))
    # equal totals share a place (§6): no tie of the final points is broken
    ties += tie_lines(result.scores, result.ranks, ahead_by_rules, shared_place)
    return ScoreSheet(Line(N_("Points per round: places, the fewest points win")),
                      tuple(rounds), tuple(result.scores), tuple(result.ranks),
                      result.winner, lower_wins=True, ties=tuple(ties), played=len(ends))

