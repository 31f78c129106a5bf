"""Playing the lab's games: one instrumented game per task, and where the games run.

A lab game is played exactly like ``simulate``'s game of the same seeds (the same
``runner.step`` loop, bots and generators), so its winner and length are the ones
``spieltisch simulate`` reports; on the way the lab also counts what the report needs:
decisions and their legal moves, out-of-turn actions, action types, the leader when
the first round ends, the starting seat, the cards, the deal and a fingerprint of
every step (``trace``: whether a rule option changed the game at all) and the standing
at the start and as each round ends (``standings``: per-round results for a designer's
own metrics).

Where games run is a ``Backend``: ``LocalProcesses`` plays them in ``--jobs``
processes on this machine; ``OnWorkers`` plays them on a Ray cluster (``--ray``, issue
24). Same tasks in, same records out, in task order.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..bots import make_bot
from ..bots.base import Bot, Observation
from ..core.game import CLOCK, Game
from ..core.registry import get_spec
from ..runner import StuckGame, step
from ..simulate import Workers, map_in_order
from .plan import LabTask
from .profiles import CardsWhen, profile_for

#: ``leader`` of a record when the game ended within its first round
ENDED_IN_FIRST_ROUND = -2
#: ``leader`` of a record when several seats shared the lead after the first round
SHARED_LEAD = -1


class Tally:
    """What the seats' decisions looked like in one game."""

    __slots__ = ("decisions", "forced", "choices", "reactions")

    def __init__(self) -> None:
        self.decisions = 0  # times the game waited for a seat
        self.forced = 0  # ... and the seat had a single legal move
        self.choices = 0  # legal moves summed over those decisions
        self.reactions = 0  # out-of-turn actions taken


class CountingBot(Bot):
    """A bot's stand-in that counts the legal moves of every decision, then asks it."""

    def __init__(self, inner: Bot, tally: Tally) -> None:
        self.inner = inner
        self.tally = tally
        self.game = inner.game
        self.seat = inner.seat
        self.name = inner.name  # type: ignore[misc]  # (it goes by its bot's name)

    def act(self, obs: Observation) -> int | None:
        legal = len(obs.legal_actions())
        t = self.tally
        t.decisions += 1
        t.choices += legal
        t.forced += legal == 1
        return self.inner.act(obs)

    def react(self, obs: Observation) -> int | None:
        action = self.inner.react(obs)
        if action is not None:
            self.tally.reactions += 1
        return action


def action_types(game: Game, counts: dict[int, int]) -> dict[str, int]:
    """Counts by action id → counts by action type, the first word of the action's text
    form (``"play 10H 10S"`` → ``"play"``)."""
    out: dict[str, int] = {}
    for action, k in counts.items():
        word = str(game.action_to_json(action)).split(" ", 1)[0]
        out[word] = out.get(word, 0) + k
    return out


def play_lab_game(task: LabTask) -> dict[str, Any]:
    """Play one game and return its record (plain data, see ``tables.py``)."""
    game = get_spec(task.game).configure(task.players, dict(task.options))
    profile = profile_for(task.game)
    state = game.new_state(seed=task.deal_seed)
    n = task.players
    deal = profile.deal_key(state)
    starter = profile.starting_seat(state)
    cards: list[list[str]] = []
    if profile.cards_when is CardsWhen.DEALT:
        cards = [profile.cards(state, s) for s in range(n)]
    tally = Tally()
    # seeded as simulate.play_one seeds them: the same game as `spieltisch simulate`
    bots = [CountingBot(make_bot(game, spec, seat, task.play_seed + 7919 * (seat + 1)), tally)
            for seat, spec in enumerate(task.bots)]
    rng = random.Random(task.play_seed)
    counts: dict[int, int] = {}  # by action id: named once at the end (the loop is hot)
    trace: list[int] = []  # seat and action of every step: did the rules change the game?
    timers = 0
    first_round = state.round_number()
    current_round = first_round
    # the standing at the start, as each round ends, and at the end
    standings: list[list[float]] = [[float(x) for x in state.standing() or [0.0] * n]]
    leader = ENDED_IN_FIRST_ROUND
    counting_rounds = True
    limit = game.spec.max_actions
    actions = 0
    while not state.is_over():
        if actions >= limit:
            raise StuckGame(f"{game.name}: no end after {limit} actions")
        seat, action = step(state, bots, rng)
        actions += 1
        trace += (seat, action)
        counts[action] = counts.get(action, 0) + 1
        timers += seat == CLOCK
        if state.round_number() != current_round:
            current_round = state.round_number()
            standing = state.standing()
            if standing and not state.is_over():
                standings.append([float(x) for x in standing])
            if counting_rounds:
                counting_rounds = False
                if not state.is_over():
                    leader = unique_best(standing)
    if profile.cards_when is CardsWhen.HELD_AT_END:
        cards = [profile.cards(state, s) for s in range(n)]
    seat_counts: list[dict[int, int]] = [{} for _ in range(n)]
    for s, a in zip(trace[::2], trace[1::2], strict=True):  # after the game: the loop is hot
        if s >= 0:
            seat_counts[s][a] = seat_counts[s].get(a, 0) + 1
    result = state.result()
    final = state.standing() or result.scores
    standings.append([float(x) for x in final])
    stats: dict[str, int | float | str] = {}
    for key, value in state.stats().items():  # the game's own figures that fit a column
        if isinstance(value, bool):
            stats[key] = int(value)
        elif isinstance(value, (int, float, str)):
            stats[key] = value
    return {
        "players": n, "variant": task.variant, "challenger": task.challenger,
        "index": task.index, "deal_seed": task.deal_seed, "play_seed": task.play_seed,
        "deal": deal, "starter": starter,
        "winner": -1 if result.winner is None else result.winner,
        "actions": actions, "rounds": state.round_number(),
        "decisions": tally.decisions, "forced": tally.forced, "choices": tally.choices,
        "reactions": tally.reactions, "timers": timers, "leader": leader,
        "action_types": action_types(game, counts), "stats": stats,
        "trace": trace_key(trace, deal, result.ranks, result.scores), "standings": standings,
        "seat_actions": [action_types(game, c) for c in seat_counts],
        "bots": list(task.bots), "ranks": list(result.ranks),
        "scores": [float(x) for x in result.scores], "cards": cards,
    }


def trace_key(trace: Sequence[int], deal: str = "", ranks: Sequence[int] = (),
              scores: Sequence[float] = ()) -> str:
    """A short fingerprint of a game: its deal, its steps (seat and action each) and its
    outcome; equal keys, the same game move for move with the same result (an option that
    changes only the scoring, or the cards behind equal action numbers, is in play)."""
    data = "|".join((deal, ",".join(map(str, trace)), ",".join(map(str, ranks)),
                     ",".join(map(repr, map(float, scores))))).encode()
    return hashlib.blake2b(data, digest_size=8).hexdigest()


def unique_best(standing: Sequence[float] | None) -> int:
    """The seat with the best standing, or ``SHARED_LEAD`` when several share it."""
    if not standing:
        return SHARED_LEAD
    best = max(standing)
    seats = [s for s, v in enumerate(standing) if v == best]
    return seats[0] if len(seats) == 1 else SHARED_LEAD


class Backend(Protocol):
    """Where a lab's games are played. ``play`` returns the records in task order and
    calls ``progress(k)`` as ``k`` more games are done."""

    def play(self, tasks: Sequence[LabTask],
             progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]: ...

    def describe(self) -> str: ...


@dataclass(frozen=True)
class LocalProcesses:
    """Games in ``jobs`` processes on this machine (``--jobs``)."""

    jobs: int = 1

    def play(self, tasks: Sequence[LabTask],
             progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
        # batches of up to 50 games: a ~1 ms game is not worth a message of its own
        chunk = max(1, min(50, len(tasks) // (self.jobs * 8) or 1))
        return map_in_order(play_lab_game, tasks, self.jobs, progress, chunk)

    def describe(self) -> str:
        return f"{self.jobs} process{'es' if self.jobs > 1 else ''} on this machine"


@dataclass(frozen=True)
class OnWorkers:
    """Games on any ``simulate.Workers``: a Ray cluster (``--ray``, ``spieltisch.cluster``)
    sends them in tasks of about a second and puts the records back in task order."""

    workers: Workers

    def play(self, tasks: Sequence[LabTask],
             progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
        return map_in_order(play_lab_game, tasks, progress=progress, workers=self.workers)

    def describe(self) -> str:
        return self.workers.describe()


__all__ = ["Backend", "CountingBot", "LocalProcesses", "OnWorkers", "Tally", "play_lab_game",
           "trace_key", "unique_best"]
