#!/usr/bin/env python3
"""Wall time of a designer's lab, split into playing and the report (issue 22).

The default is the issue's target: a 10,000-game random-bot lab of President with two
variants (10,000 games each, so 20,000 games) in 2 processes, to finish in under
2 minutes on the project's 2-core machine. It runs the real command's steps (plan,
backend, tables, statistics, plots, HTML and Parquet) and prints the seconds of each, and
the CPU seconds the games took (what they cost on idle cores, when the machine is shared).

    python benchmarks/lab_speed.py [--games 10000] [--jobs 2 | --ray local] [--game president]
        [--variant base --variant skip:skip_rule=on] [--out /tmp/lab_speed.html]

With ``--ray ADDRESS`` the games run on a Ray cluster (``auto``, ``local`` or
``ray://host:10001``); connecting and starting the workers count in "play".
"""

from __future__ import annotations

import argparse
import contextlib
import resource
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from spieltisch.lab import LabPlan, LocalProcesses, OnWorkers, parse_variant
from spieltisch.lab.profiles import profile_for
from spieltisch.lab.report import RunInfo, write_report
from spieltisch.lab.tables import build_tables


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="president")
    p.add_argument("--games", type=int, default=10_000, help="games per variant")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--ray", default=None, metavar="ADDRESS", help="play on a Ray cluster")
    p.add_argument("--variant", action="append", default=None)
    p.add_argument("--bots", default="random")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args(argv)
    variants = [parse_variant(v) for v in args.variant or ["base", "skip:skip_rule=on"]]
    out = args.out or Path(tempfile.mkdtemp(prefix="lab_speed_")) / "lab_speed.html"
    out.parent.mkdir(parents=True, exist_ok=True)

    t0 = time.perf_counter()
    plan = LabPlan.make(args.game, None, variants, args.bots.split(","), args.games, 0,
                        args.seed)
    tasks = plan.tasks()
    cpu0 = _cpu_seconds()
    t1 = time.perf_counter()
    with contextlib.ExitStack() as stack:
        if args.ray:
            from spieltisch.cluster import RayWorkers

            backend = OnWorkers(stack.enter_context(RayWorkers(args.ray)))
        else:
            backend = LocalProcesses(args.jobs)
        records = backend.play(tasks)
        where = backend.describe()
    t2 = time.perf_counter()
    cpu = _cpu_seconds() - cpu0  # not the Ray workers' (they are not our children)
    profile = profile_for(plan.game)
    games, seats = build_tables(records, plan, profile.time)
    t3 = time.perf_counter()
    files = write_report(out, games, seats, plan, profile,
                         RunInfo(where, t2 - t1, datetime.now()))
    t4 = time.perf_counter()
    total = t4 - t0
    print(f"{plan.command()} " + (f"--ray {args.ray}" if args.ray else f"--jobs {args.jobs}"))
    print(f"{len(tasks)} games ({args.games} per variant, {len(variants)} variants)")
    print(f"  plan        {t1 - t0:7.1f} s")
    print(f"  play        {t2 - t1:7.1f} s  ({len(tasks) / (t2 - t1):.0f} games/s; "
          f"{cpu:.1f} CPU-s in all, {cpu / args.jobs:.1f} s on {args.jobs} idle cores)")
    print(f"  tables      {t3 - t2:7.1f} s")
    print(f"  report      {t4 - t3:7.1f} s  (statistics, plots, HTML, Parquet)")
    print(f"  total       {total:7.1f} s  target < 120 s: {'met' if total < 120 else 'MISSED'}")
    print(f"report: {files.html} ({files.html.stat().st_size / 1e6:.1f} MB)")
    return 0


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the worker processes):
    on a machine shared with other work, what the games cost whatever the wall clock."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


if __name__ == "__main__":
    sys.exit(main())
