"""Bot-vs-bot simulation with statistics for game designers.

Every game gets its own seed derived from the run's seed and the game's index,
so the same seed gives the same records and figures whatever ``--jobs`` is.
"""

from __future__ import annotations

import hashlib
import math
import random
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .bots import make_bot
from .core.registry import get_spec
from .runner import play_out

T = TypeVar("T")
R = TypeVar("R")


def game_seed(seed: int, index: int) -> int:
    digest = hashlib.sha256(f"spieltisch:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class Task:
    game: str
    players: int
    options: tuple[tuple[str, Any], ...]
    bots: tuple[str, ...]
    seed: int
    index: int


def play_one(task: Task) -> dict[str, Any]:
    """Play one game; the record is everything the statistics need."""
    game = get_spec(task.game).configure(task.players, dict(task.options))
    gs = game_seed(task.seed, task.index)
    state = game.new_state(seed=gs)
    bots = [make_bot(game, spec, seat, gs + 7919 * (seat + 1))
            for seat, spec in enumerate(task.bots)]
    out = play_out(state, bots, random.Random(gs))
    result = state.result()
    return {"index": task.index, "seed": gs, "bots": list(task.bots),
            "winner": result.winner, "scores": list(result.scores), "ranks": list(result.ranks),
            "actions": len(out.actions), **state.stats()}


def run(tasks: Sequence[Task], jobs: int = 1,
        progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """Play all tasks (in ``jobs`` processes); records come back in task order."""
    chunk = max(1, min(50, len(tasks) // (jobs * 8) or 1))
    return map_in_order(play_one, tasks, jobs, progress, chunk)


def _indexed(job: tuple[Callable[[T], R], int, T]) -> tuple[int, R]:
    fn, i, item = job
    return i, fn(item)


def map_in_order(fn: Callable[[T], R], items: Sequence[T], jobs: int = 1,
                 progress: Callable[[int], None] | None = None, chunksize: int = 1,
                 on_result: Callable[[R], None] | None = None) -> list[R]:
    """``[fn(x) for x in items]``, in ``jobs`` forked processes when ``jobs > 1``.

    Results keep the items' order, so a run's figures never depend on ``jobs``;
    ``on_result`` sees each result as soon as it is in (with several processes, in the
    order they finish). Workers ignore Ctrl-C: the caller gets one KeyboardInterrupt.
    """
    if jobs <= 1 or len(items) <= 1:
        out: list[R] = []
        for item in items:
            out.append(fn(item))
            if on_result:
                on_result(out[-1])
            if progress:
                progress(1)
        return out
    import multiprocessing as mp
    import signal

    results: dict[int, R] = {}
    with mp.get_context("fork").Pool(jobs, initializer=signal.signal,
                                     initargs=(signal.SIGINT, signal.SIG_IGN)) as pool:
        jobs_ = ((fn, i, item) for i, item in enumerate(items))
        for i, result in pool.imap_unordered(_indexed, jobs_, chunksize=chunksize):
            results[i] = result
            if on_result:
                on_result(result)
            if progress:
                progress(1)
    return [results[i] for i in range(len(items))]


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 0.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    k = (len(ordered) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def spread(values: Sequence[float]) -> dict[str, float]:
    return {"mean": statistics.fmean(values) if values else 0.0,
            "median": statistics.median(values) if values else 0.0,
            "p95": percentile(values, 0.95),
            "stdev": statistics.pstdev(values) if len(values) > 1 else 0.0}


def summarise(records: Sequence[dict[str, Any]], players: int) -> dict[str, Any]:
    """Per-seat and per-bot win rates (95% interval), lengths and scores."""
    n = len(records)
    seats = []
    for s in range(players):
        wins = sum(1 for r in records if r["winner"] == s)
        lo, hi = wilson(wins, n)
        seats.append({
            "seat": s, "bots": sorted({r["bots"][s] for r in records}),
            "wins": wins, "win_rate": wins / n if n else 0.0, "ci95": [lo, hi],
            "score": spread([r["scores"][s] for r in records]),
            "mean_rank": statistics.fmean(r["ranks"][s] for r in records) if n else 0.0,
        })
    by_bot: dict[str, dict[str, float]] = {}
    for r in records:
        for s, name in enumerate(r["bots"]):
            b = by_bot.setdefault(name, {"seats": 0, "wins": 0, "rank_sum": 0})
            b["seats"] += 1
            b["wins"] += r["winner"] == s
            b["rank_sum"] += r["ranks"][s]
    bots = []
    for name, b in sorted(by_bot.items()):
        lo, hi = wilson(b["wins"], int(b["seats"]))
        bots.append({"bot": name, "seat_games": int(b["seats"]), "wins": int(b["wins"]),
                     "win_rate": b["wins"] / b["seats"], "ci95": [lo, hi],
                     "mean_rank": b["rank_sum"] / b["seats"]})
    extra_keys = sorted({k for r in records for k, v in r.items()
                         if isinstance(v, (int, float)) and not isinstance(v, bool)
                         and k not in ("index", "seed", "winner", "actions")})
    length = {"actions": spread([r["actions"] for r in records])}
    for k in extra_keys:
        length[k] = spread([r[k] for r in records if k in r])
    return {"games": n, "seats": seats, "bots": bots, "length": length,
            "draws": sum(1 for r in records if r["winner"] is None)}


def tasks_for(game: str, players: int, options: dict[str, Any], bots: Sequence[str],
              seed: int, games: int) -> list[Task]:
    opts = tuple(sorted(options.items()))
    return [Task(game, players, opts, tuple(bots), seed, i) for i in range(games)]


def records_to_csv_rows(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    for r in records:
        row = {k: v for k, v in r.items() if not isinstance(v, list)}
        for key in ("scores", "ranks", "bots"):
            for s, v in enumerate(r[key]):
                row[f"{key[:-1]}_{s}"] = v
        rows.append(row)
    return rows
