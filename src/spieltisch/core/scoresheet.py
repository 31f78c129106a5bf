"""The end of a game on paper: points per round and seat, who won each round, how ties
were broken (in words) and how long the game was.

The core knows no game. A game's package may have a ``scores`` module whose
``score_sheet(state, events)`` builds the ``ScoreSheet`` of a finished game from its
final state and every event of the game in order (``State.opening`` first; ``history``
replays them); a game without one gets ``generic_sheet``: one row, the final scores.
Everything else (the server, the replay, the terminal) asks ``sheet_of`` and reads the
sheet through ``ScoreSheet.to_json`` in a reader's language: a sheet's words are
``Line`` templates with arguments, like narration and refusals (``N_``, ``Told``), so a
player's name is never translated and each language has its own sentence.

The numbers are the engine's: a sheet's rows add up to ``State.result().scores`` (a
game's tests check it), its ``ranks`` and ``winner`` are the result's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .game import Event, Game, State, Told, _filled, seat_arg
from .words import N_

if TYPE_CHECKING:
    from .words import Context

#: A game's sheet builder: the finished state and every event of the game, in order.
Builder = Callable[[Any, Sequence[Event]], "ScoreSheet"]


def number(x: float) -> int | float:
    """A score as a sheet writes it: ``40``, not ``40.0``."""
    return int(x) if float(x).is_integer() else x


def players_arg(seats: Sequence[int]) -> Told:
    """Several seats in a sentence, joined as the reader's language joins a list: "Ben and
    Clara", "Ada, Ben und Clara" (players' names, never translated)."""
    group = tuple(seats)

    def render(ctx: Context) -> str:
        names = [ctx.name(s) for s in group]
        if len(names) < 2:
            return "".join(names)
        return ctx.tr.format(N_("{players} and {last}"), players=", ".join(names[:-1]),
                             last=names[-1])

    return Told(" and ".join(f"seat {s}" for s in group), render)


@dataclass(frozen=True)
class Line:
    """A sentence or label for people: an English template (marked ``N_`` where it is
    written) and its arguments. ``text(ctx)`` says it in the reader's language (the game's
    catalog, then the core's), each ``Told`` argument in words (a seat by its player's
    name); ``english()`` is the engine's English (seats as ``seat 2``), for logs."""

    template: str
    args: Mapping[str, Any] = field(default_factory=dict)

    def text(self, ctx: Context) -> str:
        return ctx.tr.format(self.template, **{
            k: v.render(ctx) if isinstance(v, Told) else v for k, v in self.args.items()})

    def english(self) -> str:
        return _filled(self.template, self.args)


@dataclass(frozen=True)
class RoundScore:
    """One row of the sheet: a round (a deal, a period, the final hands), what it gave
    each seat (``points``, in the units of the result's scores) and who won it (none for
    a round nobody won, several for a shared one)."""

    label: Line
    points: tuple[float, ...]
    winners: tuple[int, ...] = ()
    #: What decided the round, where the game says more than the numbers.
    note: Line | None = None


@dataclass(frozen=True)
class ScoreSheet:
    """The score sheet of a finished game. ``rounds`` add up to ``scores`` seat by seat
    (a first row may hold what the seats had before the first round); ``scores``,
    ``ranks`` and ``winner`` are the engine's result; ``ties`` say in words how every tie
    of the final scores was broken or shared."""

    #: What the numbers are ("Goals per period"), the table's caption.
    title: Line
    rounds: tuple[RoundScore, ...]
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    winner: int | None
    #: Fewer points are better (a game where places are points).
    lower_wins: bool = False
    ties: tuple[Line, ...] = ()
    #: Rounds played (deals, periods), as the game counts them.
    played: int = 0
    #: Actions applied, the clock's included (``sheet_of`` sets it).
    actions: int = 0

    def totals(self) -> tuple[float, ...]:
        """Each seat's points over the rows (equal to ``scores``: a game's tests hold it)."""
        n = len(self.scores)
        return tuple(sum(r.points[s] for r in self.rounds) for s in range(n))

    def to_json(self, ctx: Context, seconds: float | None = None) -> dict[str, Any]:
        """The sheet in the reader's language (``ctx``: narration's context, with the seat
        names) as the server sends it; ``seconds``: how long the game took, if known."""
        return {
            "title": self.title.text(ctx),
            "lower_wins": self.lower_wins,
            "rounds": [{"label": r.label.text(ctx), "points": [number(p) for p in r.points],
                        "winners": list(r.winners),
                        "note": r.note.text(ctx) if r.note is not None else None}
                       for r in self.rounds],
            "scores": [number(x) for x in self.scores],
            "ranks": list(self.ranks),
            "winner": self.winner,
            "ties": [line.text(ctx) for line in self.ties],
            "length": {"actions": self.actions, "rounds": self.played,
                       "seconds": None if seconds is None else round(seconds)},
        }


# -- ties -------------------------------------------------------------------------------
def tie_lines(scores: Sequence[float], ranks: Sequence[int],
              broken: Callable[[int, int], Line],
              shared: Callable[[tuple[int, ...], int], Line]) -> tuple[Line, ...]:
    """A sentence for every tie of the final ``scores``, best places first: within seats
    of equal score, ``broken(a, b)`` for each pair the rules' tie-break put apart (``a``
    placed ahead of ``b``, the next one), ``shared(seats, place)`` for seats left on the
    same place."""
    n = len(scores)
    order = sorted(range(n), key=lambda s: (ranks[s], s))
    lines: list[Line] = []
    done: set[int] = set()
    for s in order:
        if s in done:
            continue
        group = [o for o in order if scores[o] == scores[s]]
        done.update(group)
        if len(group) < 2:
            continue
        runs: list[list[int]] = []
        for o in group:
            if runs and ranks[runs[-1][0]] == ranks[o]:
                runs[-1].append(o)
            else:
                runs.append([o])
        for i, run in enumerate(runs):
            if i:
                lines.append(broken(runs[i - 1][-1], run[0]))
            if len(run) > 1:
                lines.append(shared(tuple(run), ranks[run[0]]))
    return tuple(lines)


def shared_place(seats: tuple[int, ...], place: int) -> Line:
    """Seats the rules leave on one place: "Ben and Clara share place 2."; the winners'
    place is "share the win"."""
    if place == 1:
        return Line(N_("{players} share the win."), {"players": players_arg(seats)})
    return Line(N_("{players} share place {place}."),
                {"players": players_arg(seats), "place": place})


def ahead_by_rules(a: int, b: int) -> Line:
    """A tie broken without a sentence of the game's own: "Ben and Clara have the same
    score; the rules' tie-break places Ben ahead."."""
    return Line(N_("{players} have the same score; the rules' tie-break places {first} "
                   "ahead."), {"players": players_arg((a, b)), "first": seat_arg(a)})


# -- building ------------------------------------------------------------------------------
def generic_sheet(state: State[Any], events: Sequence[Event] = ()) -> ScoreSheet:
    """The sheet of a game without a ``scores`` module: one row, the final scores, won by
    the seats on place 1; ties shared, or broken by "the rules' tie-break"."""
    result = state.result()
    best = tuple(s for s, r in enumerate(result.ranks) if r == 1)
    row = RoundScore(Line(N_("Final score")), tuple(result.scores), best)
    return ScoreSheet(Line(N_("Final scores")), (row,), tuple(result.scores),
                      tuple(result.ranks), result.winner,
                      ties=tie_lines(result.scores, result.ranks, ahead_by_rules, shared_place),
                      played=state.round_number())


def builder_of(game: Game) -> Builder | None:
    """The game's own score-sheet builder (``Game.score_sheet_builder``), if any."""
    return game.score_sheet_builder()


def history(first: State[Any], actions: Iterable[tuple[int, int]]
            ) -> tuple[State[Any], list[Event]]:
    """Replay ``actions`` (seat, action) on a copy of ``first``: the state they lead to and
    every event on the way, the opening's first."""
    state = first.clone()
    events: list[Event] = list(first.opening)
    for seat, action in actions:
        events += state.apply(seat, action)
    return state, events


def sheet_of(state: State[Any], events: Sequence[Event], actions: int | None = None
             ) -> ScoreSheet:
    """The score sheet of the finished ``state``, whose game's events are ``events`` (in
    order, the opening's first): the game's own, else ``generic_sheet``. ``actions``: the
    game's length in actions (default: the state's move number)."""
    if not state.is_over():
        raise ValueError("a score sheet needs a finished game")
    build = builder_of(state.game)
    sheet = build(state, events) if build is not None else generic_sheet(state, events)
    return replace(sheet, actions=state.move_number if actions is None else actions)


__all__ = ["Line", "RoundScore", "ScoreSheet", "ahead_by_rules", "builder_of",
           "generic_sheet", "history", "number", "players_arg", "shared_place", "sheet_of",
           "tie_lines"]
