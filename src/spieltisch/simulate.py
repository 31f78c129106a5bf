"""Bot-vs-bot simulation with statistics for game designers.

Every game gets its own seed derived from the run's seed and the game's index,
so the same seed gives the same records and figures wherever the games are played:
in this process, in ``--jobs`` processes or on a Ray cluster (``--ray``, see
``spieltisch.cluster``). A run streams: tasks are made as they are sent, records come
back in game order as soon as every earlier game is in, go to disk one by one
(``RecordWriter``) and into the summary (``Summary``), which keeps counts, not records.
"""

from __future__ import annotations

import csv
import hashlib
import json
import math
import random
import statistics
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Protocol, TypeVar

from .bots import make_bot
from .core.game import ConfigError
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


class Workers(Protocol):
    """Where work runs: this process, forked processes (``Processes``) or a Ray cluster
    (``spieltisch.cluster.RayWorkers``). Any of them gives the same results."""

    def imap_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[tuple[int, R]]:
        """``(position, fn(item))`` for every item, in the order they finish."""
        ...

    def describe(self) -> str: ...


def _indexed(job: tuple[Callable[[T], R], int, T]) -> tuple[int, R]:
    fn, i, item = job
    return i, fn(item)


@dataclass(frozen=True)
class Processes:
    """``jobs`` forked processes on this machine (``--jobs``); one means this process.

    Items are sent ``chunksize`` at a time (0: an eighth of each process's share, at most
    50: a ~1 ms game is not worth a message of its own). Workers ignore Ctrl-C: the
    caller gets one KeyboardInterrupt."""

    jobs: int = 1
    chunksize: int = 0

    def imap_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[tuple[int, R]]:
        if self.jobs <= 1:
            for i, item in enumerate(items):
                yield i, fn(item)
            return
        import multiprocessing as mp

        chunk = self.chunksize or self._chunk(items)
        with mp.get_context("fork").Pool(self.jobs, initializer=_worker_signals) as pool:
            jobs_ = ((fn, i, item) for i, item in enumerate(items))
            # the pool reads ``jobs_`` only as fast as its pipe takes them: a run of a
            # million games never holds a million tasks
            yield from pool.imap_unordered(_indexed, jobs_, chunksize=chunk)

    def _chunk(self, items: Iterable[Any]) -> int:
        n = len(items) if isinstance(items, Sequence) else 400 * self.jobs
        return max(1, min(50, n // (self.jobs * 8) or 1))

    def describe(self) -> str:
        return f"{self.jobs} process{'es' if self.jobs > 1 else ''} on this machine"


def _worker_signals() -> None:
    """A worker ignores Ctrl-C (the parent stops the run) and dies of the pool's SIGTERM,
    whatever handler the parent process had installed (Ray's driver, for one, installs a
    SIGTERM handler that raises ``SystemExit``: inherited, a terminated worker would go on
    running the parent's code)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def in_order(pairs: Iterable[tuple[int, R]]) -> Iterator[R]:
    """The results of ``imap_unordered`` back in item order, each as soon as every earlier
    one is in. A position seen twice (a task that a cluster ran again) counts once."""
    waiting: dict[int, R] = {}
    upto = 0
    for i, result in pairs:
        if i < upto or i in waiting:
            continue
        waiting[i] = result
        while upto in waiting:
            yield waiting.pop(upto)
            upto += 1


def map_in_order(fn: Callable[[T], R], items: Sequence[T], jobs: int = 1,
                 progress: Callable[[int], None] | None = None, chunksize: int = 1,
                 on_result: Callable[[R], None] | None = None,
                 workers: Workers | None = None) -> list[R]:
    """``[fn(x) for x in items]``, on ``workers`` (default: ``jobs`` forked processes).

    Results keep the items' order, so a run's figures never depend on where it ran;
    ``on_result`` sees each result as soon as it is in (with several workers, in the
    order they finish)."""
    pool = workers or Processes(jobs, chunksize)
    results: dict[int, R] = {}
    for i, result in pool.imap_unordered(fn, items):
        if i in results:  # run twice by a cluster that lost a node: keep the first
            continue
        results[i] = result
        if on_result:
            on_result(result)
        if progress:
            progress(1)
    return [results[i] for i in range(len(items))]


def run(tasks: Sequence[Task], jobs: int = 1,
        progress: Callable[[int], None] | None = None,
        workers: Workers | None = None) -> list[dict[str, Any]]:
    """Play all tasks (in ``jobs`` processes, or on ``workers``); records in task order."""
    return list(stream(tasks, workers or Processes(jobs), progress))


def stream(tasks: Iterable[Task], workers: Workers,
           progress: Callable[[int], None] | None = None) -> Iterator[dict[str, Any]]:
    """Play the tasks on ``workers``; yields the records in task order, each as soon as
    every earlier one is in, so a long run never holds its records."""

    def counted() -> Iterator[tuple[int, dict[str, Any]]]:
        for pair in workers.imap_unordered(play_one, tasks):
            if progress:
                progress(1)
            yield pair

    return in_order(counted())


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


class Tally:
    """How often each value of one measure occurred: ``spread`` of all of them, in memory
    that grows with the distinct values, not with the games. Mean and deviation are
    computed exactly (``math.fsum``, fractions), so they do not depend on the order the
    values came in and equal ``spread`` of the list."""

    __slots__ = ("counts", "n")

    def __init__(self) -> None:
        self.counts: dict[float, int] = {}
        self.n = 0

    def add(self, value: float) -> None:
        self.counts[value] = self.counts.get(value, 0) + 1
        self.n += 1

    def _sorted(self) -> Iterator[float]:
        for value in sorted(self.counts):
            for _ in range(self.counts[value]):
                yield value

    def _at(self, k: int) -> float:
        """The ``k``-th smallest value."""
        seen = 0
        for value in sorted(self.counts):
            seen += self.counts[value]
            if k < seen:
                return value
        raise IndexError(k)

    def spread(self) -> dict[str, float]:
        n = self.n
        if n == 0:
            return spread([])
        half = n // 2
        median = self._at(half) if n % 2 else (self._at(half - 1) + self._at(half)) / 2
        k = (n - 1) * 0.95
        lo, hi = self._at(math.floor(k)), self._at(math.ceil(k))
        return {"mean": statistics.fmean(self._sorted()), "median": median,
                "p95": lo + (hi - lo) * (k - math.floor(k)),
                "stdev": statistics.pstdev(self._sorted()) if n > 1 else 0.0}


#: record keys that are not measures of a game's length
_NOT_LENGTH = ("index", "seed", "winner", "actions")


class Summary:
    """``summarise`` fed one record at a time: counts and sums, never the records."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.games = 0
        self.draws = 0
        self.wins = [0] * players
        self.rank_sums = [0] * players
        self.seat_bots: list[set[str]] = [set() for _ in range(players)]
        self.scores = [Tally() for _ in range(players)]
        self.by_bot: dict[str, list[int]] = {}  # seat-games, wins, sum of places
        self.length: dict[str, Tally] = {"actions": Tally()}

    def add(self, r: dict[str, Any]) -> None:
        self.games += 1
        self.draws += r["winner"] is None
        for s, name in enumerate(r["bots"]):
            won = r["winner"] == s
            self.wins[s] += won
            self.rank_sums[s] += r["ranks"][s]
            self.seat_bots[s].add(name)
            self.scores[s].add(r["scores"][s])
            b = self.by_bot.setdefault(name, [0, 0, 0])
            b[0] += 1
            b[1] += won
            b[2] += r["ranks"][s]
        self.length["actions"].add(r["actions"])
        for k, v in r.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool) and k not in _NOT_LENGTH:
                self.length.setdefault(k, Tally()).add(v)

    def result(self) -> dict[str, Any]:
        """Per-seat and per-bot win rates (95% interval), lengths and scores."""
        n = self.games
        seats = []
        for s in range(self.players):
            lo, hi = wilson(self.wins[s], n)
            seats.append({
                "seat": s, "bots": sorted(self.seat_bots[s]), "wins": self.wins[s],
                "win_rate": self.wins[s] / n if n else 0.0, "ci95": [lo, hi],
                "score": self.scores[s].spread(),
                "mean_rank": self.rank_sums[s] / n if n else 0.0,
            })
        bots = []
        for name, (seat_games, wins, rank_sum) in sorted(self.by_bot.items()):
            lo, hi = wilson(wins, seat_games)
            bots.append({"bot": name, "seat_games": seat_games, "wins": wins,
                         "win_rate": wins / seat_games, "ci95": [lo, hi],
                         "mean_rank": rank_sum / seat_games})
        length = {"actions": self.length["actions"].spread()}
        for k in sorted(self.length):
            if k != "actions":
                length[k] = self.length[k].spread()
        return {"games": n, "seats": seats, "bots": bots, "length": length,
                "draws": self.draws}


def summarise(records: Iterable[dict[str, Any]], players: int) -> dict[str, Any]:
    """Per-seat and per-bot win rates (95% interval), lengths and scores."""
    summary = Summary(players)
    for r in records:
        summary.add(r)
    return summary.result()


class Tasks(Sequence[Task]):
    """A run's tasks, each made when it is asked for: a million of them take no memory,
    and their number still sizes the batches."""

    def __init__(self, game: str, players: int, options: dict[str, Any],
                 bots: Sequence[str], seed: int, games: int) -> None:
        self._make = (game, players, tuple(sorted(options.items())), tuple(bots), seed)
        self._games = games

    def __len__(self) -> int:
        return self._games

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self._games))]
        if not -self._games <= i < self._games:
            raise IndexError(i)
        return Task(*self._make, i % self._games)


def tasks_for(game: str, players: int, options: dict[str, Any], bots: Sequence[str],
              seed: int, games: int) -> list[Task]:
    return list(Tasks(game, players, options, bots, seed, games))


def csv_row(r: dict[str, Any]) -> dict[str, Any]:
    """A record as one flat CSV row: ``scores`` → ``score_0``, ``score_1`` …"""
    row = {k: v for k, v in r.items() if not isinstance(v, list)}
    for key in ("scores", "ranks", "bots"):
        for s, v in enumerate(r[key]):
            row[f"{key[:-1]}_{s}"] = v
    return row


def records_to_csv_rows(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [csv_row(r) for r in records]


#: the formats ``RecordWriter`` writes, by file suffix
RECORD_FORMATS = (".jsonl", ".csv", ".parquet")


class RecordWriter:
    """Writes records to ``path`` one at a time, as they come: JSON Lines (``.jsonl``),
    CSV (``.csv``, columns from the first record) or Parquet (``.parquet``, with pyarrow,
    a row group per ``parquet_rows`` records). Use it as a context manager."""

    def __init__(self, path: Path, parquet_rows: int = 10_000) -> None:
        if path.suffix not in RECORD_FORMATS:
            raise ConfigError(f"records are written as {', '.join(RECORD_FORMATS)}, "
                              f"not {path.suffix or path.name!r}")
        self.path = path
        self.format = path.suffix
        self.parquet_rows = parquet_rows
        self.written = 0
        self._file: IO[str] | None = None
        self._csv: csv.DictWriter[str] | None = None
        self._parquet: Any = None
        self._schema: Any = None
        self._rows: list[dict[str, Any]] = []
        if self.format == ".parquet":
            try:
                import pyarrow  # noqa: F401
            except ImportError:
                raise ConfigError("Parquet records need pyarrow: pip install pyarrow "
                                  "(or write .jsonl)") from None
        else:
            self._file = path.open("w", newline="" if self.format == ".csv" else None)

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def write(self, record: dict[str, Any]) -> None:
        self.written += 1
        if self.format == ".jsonl":
            assert self._file is not None
            self._file.write(json.dumps(record) + "\n")
        elif self.format == ".csv":
            assert self._file is not None
            row = csv_row(record)
            if self._csv is None:
                self._csv = csv.DictWriter(self._file, fieldnames=list(row))
                self._csv.writeheader()
            self._csv.writerow(row)
        else:
            self._rows.append(record)
            if len(self._rows) >= self.parquet_rows:
                self._flush_parquet()

    def _flush_parquet(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        if not self._rows:
            return
        rows = [_parquet_row(r) for r in self._rows]
        self._rows = []
        if self._parquet is None:
            self._schema = _parquet_schema(pa, pa.Table.from_pylist(rows).schema)
            self._parquet = pq.ParquetWriter(self.path, self._schema)
        try:
            table = pa.Table.from_pylist(rows, schema=self._schema)
        except (pa.ArrowInvalid, pa.ArrowTypeError) as e:
            raise ConfigError(f"{self.path}: a record does not fit the Parquet columns of "
                              f"the first ones ({e}); write .jsonl instead") from None
        self._parquet.write_table(table)

    def close(self) -> None:
        if self.format == ".parquet":
            self._flush_parquet()
            if self._parquet is not None:
                self._parquet.close()
                self._parquet = None
        elif self._file is not None:
            self._file.close()
            self._file = None


def _parquet_row(r: dict[str, Any]) -> dict[str, Any]:
    """Nested values other than the lists of seats (``units`` of Pixmit, say) as JSON text:
    their keys vary from game to game."""
    return {k: json.dumps(v, sort_keys=True)
            if isinstance(v, dict) or (isinstance(v, list) and k not in _SEAT_LISTS) else v
            for k, v in r.items()}


_SEAT_LISTS = ("bots", "scores", "ranks")


def _parquet_schema(pa: Any, inferred: Any) -> Any:
    """The first rows' columns, with the fixed ones typed whatever those rows held (a
    first batch of draws has no winner to infer a type from)."""
    fixed = {"index": pa.int64(), "seed": pa.int64(), "winner": pa.int64(),
             "actions": pa.int64(), "bots": pa.list_(pa.string()),
             "scores": pa.list_(pa.float64()), "ranks": pa.list_(pa.int64())}
    fields = []
    for f in inferred:
        kind = fixed.get(f.name, pa.string() if pa.types.is_null(f.type) else f.type)
        fields.append(pa.field(f.name, kind))
    return pa.schema(fields)

