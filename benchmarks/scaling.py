#!/usr/bin/env python3
"""Games per second with --jobs 1, --jobs 2 and on Ray with 1 and 2 worker processes
(issue 24), for a cheap workload and an expensive one, in one run.

Each configuration plays the same games (same seeds), and the records are checked to
be identical across configurations. Ray runs on a private instance of N CPUs
(``RayWorkers("local", num_cpus=N)``); its start and a first warm-up round are left out
of the figures (they are paid once per run, not per game) and printed apart. Ray's cost
per task is measured with no-op tasks (one item each); with the driver's cost per record
(back in order, into the summary, to disk) it gives the closing estimate of the games/s
of 8 such machines.

    python benchmarks/scaling.py [--cheap-games 3000] [--expensive-games 6]
        [--cheap president:random] [--expensive hood_politix:ismcts:50]
        [--task-seconds 1.0]

A workload is GAME:BOTS, BOTS one spec for every seat or one per seat (``,``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass

from spieltisch import simulate as sim
from spieltisch.bots import expand_specs
from spieltisch.core.registry import get_spec


@dataclass
class Figure:
    workload: str
    where: str
    games: int
    seconds: float
    tasks: int = 0
    task_seconds: float = 0.0  # seconds spent inside the games of the tasks
    workers: int = 1
    noop: float | None = None  # seconds of a worker per no-op task

    @property
    def rate(self) -> float:
        return self.games / self.seconds

    def idle_per_task(self) -> float | None:
        """Worker time not spent in games, per task (Ray's cost, and the workers idle at
        the end of the run waiting for the last task)."""
        if not self.tasks:
            return None
        return max(0.0, self.seconds * self.workers - self.task_seconds) / self.tasks


#: no-op tasks timed to measure Ray's cost per task
NOOP_TASKS = 300


def tasks_of(workload: str, games: int, seed: int) -> list[sim.Task]:
    game, _, bots = workload.partition(":")
    g = get_spec(game).configure(None, {})
    specs = expand_specs(bots or "random", g.num_players)
    return sim.tasks_for(game, g.num_players, g.options, specs, seed, games)


def on_jobs(workload: str, tasks: list[sim.Task], jobs: int) -> tuple[Figure, list]:
    start = time.perf_counter()
    records = sim.run(tasks, jobs)
    return Figure(workload, f"--jobs {jobs}", len(tasks), time.perf_counter() - start,
                  workers=jobs), records


def on_ray(runs: list[tuple[str, list[sim.Task], list[sim.Task]]], cpus: int,
           task_seconds: float) -> list[tuple[Figure, list, float]]:
    """Each workload on one private Ray instance of ``cpus`` CPUs."""
    from spieltisch.cluster import RayWorkers

    out = []
    t0 = time.perf_counter()
    with RayWorkers("local", num_cpus=cpus, task_seconds=task_seconds) as workers:
        for workload, warmup, tasks in runs:
            sim.run(warmup, workers=workers)  # starts the workers, imports the game
            ready = time.perf_counter() - t0
            start = time.perf_counter()
            records = sim.run(tasks, workers=workers)
            seconds = time.perf_counter() - start
            fig = Figure(workload, f"Ray, {cpus} worker{'s' if cpus > 1 else ''}",
                         len(tasks), seconds, workers.tasks_sent, workers.seconds_in_tasks,
                         cpus)
            # the bare cost of a task: no-op tasks of one item each, through the same path
            batch, workers.max_batch = workers.max_batch, 1
            start = time.perf_counter()
            for _ in workers.imap_unordered(abs, range(NOOP_TASKS)):
                pass
            fig.noop = (time.perf_counter() - start) * cpus / NOOP_TASKS
            workers.max_batch = batch
            out.append((fig, records, ready))
            t0 = time.perf_counter()
    return out


def driver_seconds_per_record(records: list[dict]) -> float:
    """What the driver spends on one record: back in order, into the summary, to disk."""
    import io

    players = len(records[0]["bots"])
    rounds = max(1, 20_000 // len(records))
    sink = io.StringIO()
    start = time.perf_counter()
    for _ in range(rounds):
        summary = sim.Summary(players)
        for r in sim.in_order(enumerate(records)):
            summary.add(r)
            sink.write(json.dumps(r) + "\n")
    return (time.perf_counter() - start) / (rounds * len(records))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cheap", default="president:random")
    p.add_argument("--expensive", default="hood_politix:ismcts:50")
    p.add_argument("--cheap-games", type=int, default=3000)
    p.add_argument("--expensive-games", type=int, default=6)
    p.add_argument("--task-seconds", type=float, default=1.0)
    p.add_argument("--machines", type=int, default=8, help="for the closing estimate")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

    figures: list[Figure] = []
    notes: list[str] = []
    # the warm-up: two random-bot games of the workload's game on every worker
    runs = [(w, tasks_of(f"{w.partition(':')[0]}:random", 4, args.seed + 1),
             tasks_of(w, n, args.seed))
            for w, n in ((args.cheap, args.cheap_games), (args.expensive, args.expensive_games))]
    reference: dict[str, list] = {}
    for workload, _, tasks in runs:
        for jobs in (1, 2):
            fig, records = on_jobs(workload, tasks, jobs)
            figures.append(fig)
            assert records == reference.setdefault(workload, records), fig.where
            print(f"{workload}, {fig.where}: {fig.rate:.4g} games/s", file=sys.stderr,
                  flush=True)
    per_record = driver_seconds_per_record(reference[args.cheap])
    for cpus in (1, 2):
        for fig, records, ready in on_ray(runs, cpus, args.task_seconds):
            figures.append(fig)
            assert records == reference[fig.workload], f"{fig.where} played other games"
            notes.append(f"{fig.workload}, {fig.where}: {fig.tasks} tasks; Ray start (first "
                         f"workload only) and warm-up {ready:.1f} s, not counted")
            print(f"{fig.workload}, {fig.where}: {fig.rate:.4g} games/s", file=sys.stderr,
                  flush=True)

    print(f"{'workload':<28} {'where':<16} {'games':>6} {'seconds':>8} {'games/s':>9} "
          f"{'tasks':>6} {'idle/task':>10} {'no-op task':>11}")
    for f in figures:
        o = f.idle_per_task()
        print(f"{f.workload:<28} {f.where:<16} {f.games:>6} {f.seconds:>8.1f} "
              f"{f.rate:>9.4g} {f.tasks or '':>6} "
              f"{'' if o is None else f'{o * 1000:.0f} ms':>10} "
              f"{'' if f.noop is None else f'{f.noop * 1000:.1f} ms':>11}")
    for line in notes:
        print(f"note: {line}")

    def rate(workload: str, where: str) -> float:
        return next(f.rate for f in figures if f.workload == workload and f.where == where)

    print()
    for workload in (args.cheap, args.expensive):
        jobs2 = rate(workload, "--jobs 2")
        ray2 = rate(workload, "Ray, 2 workers")
        print(f"{workload}: Ray with 2 workers {ray2:.4g} games/s, --jobs 2 {jobs2:.4g}: "
              f"Ray {ray2 / jobs2 - 1:+.1%}"
              + (" (target for the expensive workload: no worse than -10%)"
                 if workload == args.expensive else ""))
    overheads = [f.noop for f in figures if f.noop is not None]
    overhead = sorted(overheads)[len(overheads) // 2]
    cores = os.cpu_count() or 1
    workers = args.machines * cores
    print(f"\nmedian Ray cost per task {overhead * 1000:.1f} ms (no-op tasks); the driver spends "
          f"{per_record * 1e6:.0f} µs per record (order, summary, JSON Lines), a ceiling of "
          f"{1 / per_record:,.0f} games/s")
    for workload in (args.cheap, args.expensive):
        per_game = 1 / rate(workload, "--jobs 1")  # seconds of one core per game
        batch = max(1.0, args.task_seconds / per_game)
        per_worker = batch / (batch * per_game + overhead)
        estimate = min(workers * per_worker, 1 / per_record)
        print(f"{workload}: on {args.machines} machines of {cores} cores ({workers} workers, "
              f"tasks of {batch:.0f} game{'s' if batch >= 1.5 else ''}) about "
              f"{estimate:,.4g} games/s ({workers * per_worker / rate(workload, '--jobs 1'):.1f}"
              f"× one core{', capped by the driver' if estimate < workers * per_worker else ''})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
