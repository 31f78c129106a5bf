"""``spieltisch lab``: play rule variants on the same deals and write the designer's
report (one HTML file, records as Parquet beside it). See docs/lab.md."""

from __future__ import annotations

import time
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from ..core.game import SpieltischError
from .args import GameArg
from .workers import GamesPerSecond, RayOpt, open_workers

if TYPE_CHECKING:
    from ..lab.plan import LabPlan
    from ..lab.report import ReportFiles

LAB_EXTRA = ("pandas", "matplotlib", "scipy", "statsmodels", "pyarrow")


def missing_extra() -> str | None:
    """The first package of the ``lab`` extra that is not installed, if any."""
    import importlib.util

    return next((m for m in LAB_EXTRA if importlib.util.find_spec(m) is None), None)


def lab(
    game: GameArg,
    out: Annotated[Path, typer.Option(
        help="the report (.html); the records go beside it as NAME.games.parquet and "
             "NAME.seats.parquet")],
    players: Annotated[str | None, typer.Option(
        "--players", "-p", help="player counts, e.g. 4,6,8 (default: the game's)")] = None,
    variant: Annotated[list[str] | None, typer.Option(
        help="a rule variant NAME:opt=val,opt=val (NAME alone: the standard rules); "
             "repeatable, the first is the baseline (default: one variant, 'standard')")]
    = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="rule option key=value for every variant; repeatable")] = None,
    bots: Annotated[str, typer.Option(
        help="the first bot plays every seat of the main games; each further bot is "
             "measured for skill in one seat among them, e.g. random,heuristic,ismcts:50")]
    = "random,heuristic",
    games: Annotated[int, typer.Option(
        "--games", "-n", min=2, help="main games per variant and player count")] = 1000,
    skill_games: Annotated[int, typer.Option(
        min=0, help="games per skill bot, variant and player count (at most --games)")] = 200,
    seed: Annotated[int, typer.Option(help="run seed: same seed, same report")] = 0,
    sweep: Annotated[str | None, typer.Option(
        help="vary one rule option instead of --variant: OPTION=2..5 or OPTION=5,6,7 (the "
             "first value is the baseline); the report plots each metric against it")]
    = None,
    metric: Annotated[list[str] | None, typer.Option(
        help="a metric of your own, NAME=module:function of one game's record (see "
             "docs/lab.md), compared like the built-in ones; repeatable")] = None,
    margin: Annotated[list[str] | None, typer.Option(
        help="relevance margin METRIC=PERCENT: a change within it is no change (e.g. "
             "minutes=10, skill=3); repeatable; defaults in docs/lab.md")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="processes")] = 1,
    ray: RayOpt = None,
    export: Annotated[str, typer.Option(
        help="also write the plots for slides: pdf (NAME.pdf, a page per plot), png "
             "(NAME_plots/*.png) or none")] = "none",
) -> None:
    """Compare rule variants on the same deals: seat advantage, length, skill, cards,
    decisions, comebacks, each with its 95% interval, in one HTML report."""
    from ..lab import LabPlan, LocalProcesses, OnWorkers, parse_players, parse_variant
    from ..lab.metrics import load_metric
    from ..lab.plan import parse_margin, parse_metric, parse_sweep, sweep_variants
    from .main import check_writable, console, err, fail, parse_options

    lacking = missing_extra()
    if lacking:
        fail(f"the lab needs the 'lab' extra ({lacking} is not installed): "
             "pip install 'spieltisch[lab]'")
    if out.suffix.lower() not in (".html", ".htm"):
        fail(f"--out must end in .html, not {out.name!r}")
    check_writable(out, "--out")
    if export not in ("none", "pdf", "png"):
        fail(f"--export must be pdf, png or none, not {export!r}")
    try:
        variants = [parse_variant(v) for v in variant or []]
        swept = ""
        if sweep is not None:
            if variants:
                fail("--sweep makes the variants: give --variant or --sweep, not both")
            swept, values = parse_sweep(sweep)
            variants = sweep_variants(swept, values)
        from ..lab.stats import default_margins

        metrics = dict(parse_metric(m) for m in metric or [])
        for name, target in metrics.items():  # a missing module fails now, not after play
            load_metric(name, target)
        known = {**default_margins(), **dict.fromkeys(metrics, 0.0)}
        margins = dict(parse_margin(m, known) for m in margin or [])
        plan = LabPlan.make(game, parse_players(players), variants, bots.split(","), games,
                            skill_games, seed, parse_options(option), margins, swept, metrics)
    except SpieltischError as e:
        fail(str(e))
    tasks = plan.tasks()
    # where the games run: --jobs processes here, or a Ray cluster (--ray, issue 24)
    with open_workers(jobs, ray) as workers, Progress(
            "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
            TaskProgressColumn(), GamesPerSecond(), TimeElapsedColumn(),
            TimeRemainingColumn(), console=err) as progress:
        backend = OnWorkers(workers) if workers else LocalProcesses(jobs)
        bar = progress.add_task(f"{game}: {len(plan.variants)} variant(s)", total=len(tasks))
        start = time.perf_counter()
        try:
            records = backend.play(tasks, lambda k: progress.advance(bar, k))
        except SpieltischError as e:
            fail(str(e), 1)
        except KeyboardInterrupt:
            progress.stop()
            fail("interrupted: no report written", 130)
        seconds = time.perf_counter() - start
        where = backend.describe()
    with err.status("analysing and drawing the report"):
        files, sentences = write(out, records, plan, where, seconds, export)
    console.print(f"{len(tasks)} games in {seconds:.1f} s ({where})")
    for line in sentences:
        console.print(line, markup=False, highlight=False)
    console.print(f"report written to {files.html}", markup=False, highlight=False)
    console.print(f"records: {files.games}, {files.seats}", markup=False, highlight=False)
    for path in files.exports[:1]:
        more = f" and {len(files.exports) - 1} more" if len(files.exports) > 1 else ""
        console.print(f"plots for slides: {path}{more}", markup=False, highlight=False)


def write(out: Path, records: list[dict[str, Any]], plan: LabPlan, backend: str,
          seconds: float, export: str) -> tuple[ReportFiles, list[str]]:
    """Write the report and list it for the server's Lab page; returns the files and the
    report's summary in plain words."""
    from ..lab import index
    from ..lab.metrics import add_metrics
    from ..lab.profiles import profile_for
    from ..lab.report import Export, RunInfo, summary_lines, write_report
    from ..lab.tables import build_tables
    from .main import err

    profile = profile_for(plan.game)
    games, seats = build_tables(records, plan, profile.time)
    add_metrics(games, plan.metrics)
    created = datetime.now()
    files = write_report(out, games, seats, plan, profile, RunInfo(backend, seconds, created),
                         Export(export))
    try:
        index.add(index.ReportEntry(
            path=str(out.resolve()), title=files.title, game=plan.game,
            created=created.isoformat(timespec="seconds"), games=len(games),
            variants=[v.name for v in plan.variants]))
    except OSError as e:  # the report is written; only the server's list misses it
        err.print(f"note: the report is not listed for 'spieltisch serve': {e}",
                  markup=False, highlight=False)
    return files, summary_lines(files.analysis, plan, profile)  # the page's own lines


def register(app: typer.Typer) -> None:
    """Add the ``lab`` command to the main application."""
    app.command("lab")(lab)
