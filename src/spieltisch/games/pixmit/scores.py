"""Pixmit's score sheet (``core.scoresheet``): the game is scored once, at its end (§4):
each hand's best split into units, then Vernichtung's −5 for everyone but a caller whose
hand has it; equal scores go to fewer vetoes, and are shared if those are equal too."""

from __future__ import annotations

from collections.abc import Sequence

from ...core.game import Event, seat_arg
from ...core.scoresheet import (
    Line,
    RoundScore,
    ScoreSheet,
    number,
    players_arg,
    tie_lines,
)
from ...i18n import N_
from . import cards as C
from .state import PixmitState


def score_sheet(state: PixmitState, events: Sequence[Event]) -> ScoreSheet:
    """The final hands' scores as one row (won by the best hand), and Vernichtung's row
    when a caller's hand has it (§4 final scoring 2)."""
    result = state.result()
    n = state.num_players
    hands = tuple(float(C.score(h)) for h in state.hands)
    best = max(hands)
    rounds = [RoundScore(Line(N_("Final hands")), hands,
                         tuple(s for s in range(n) if hands[s] == best))]
    if state.annihilation_effect():
        caller = state.caller
        rounds.append(RoundScore(
            Line(N_("Vernichtung: −5 for everyone but {player}"), {"player": seat_arg(caller)}),
            tuple(0.0 if s == caller else -5.0 for s in range(n))))
    vetoes = state.vetoes

    def broken(a: int, b: int) -> Line:
        template = N_("{players} both reached {points} points; {first} wins with fewer "
                      "vetoes ({vetoes} against {other}).") if result.ranks[a] == 1 else \
            N_("{players} both reached {points} points; {first} is placed ahead with fewer "
               "vetoes ({vetoes} against {other}).")
        return Line(template, {"players": players_arg((a, b)), "first": seat_arg(a),
                               "points": number(result.scores[a]), "vetoes": vetoes[a],
                               "other": vetoes[b]})

    def shared(seats: tuple[int, ...], place: int) -> Line:
        args = {"players": players_arg(seats), "points": number(result.scores[seats[0]]),
                "vetoes": vetoes[seats[0]], "place": place}
        if place == 1:
            return Line(N_("{players} reached {points} points and made as many vetoes "
                           "({vetoes}): they share the win."), args)
        return Line(N_("{players} reached {points} points and made as many vetoes ({vetoes}): "
                       "they share place {place}."), args)

    return ScoreSheet(Line(N_("Points of the final hands")), tuple(rounds),
                      tuple(result.scores), tuple(result.ranks), result.winner,
                      ties=tie_lines(result.scores, result.ranks, broken, shared),
                      played=state.round)
