"""Where the games of simulate, tournament and lab run (``--jobs`` or ``--ray``), and the
progress bar they share."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from ..core.game import SpieltischError

if TYPE_CHECKING:
    from ..simulate import Workers

RayOpt = Annotated[str | None, typer.Option(
    "--ray", metavar="ADDRESS",
    help="play on a Ray cluster instead of --jobs: auto (the cluster 'ray start' made "
         "on this machine), local (a private one for this run) or ray://host:10001; "
         "needs the 'cluster' extra (docs/cluster.md)")]


class GamesPerSecond(ProgressColumn):
    """Games per second over Rich's recent window."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.1f} games/s" if speed else "– games/s", style="progress.data.speed")


def games_progress(console: Console, disable: bool = False) -> Progress:
    """A bar with done/total, games per second, elapsed time and an ETA."""
    return Progress("[progress.description]{task.description}", BarColumn(),
                    MofNCompleteColumn(), GamesPerSecond(), TimeElapsedColumn(),
                    TimeRemainingColumn(), console=console, disable=disable)


@contextmanager
def open_workers(jobs: int, ray: str | None) -> Iterator[Workers | None]:
    """A connection to the ``--ray`` cluster for the run (Ray is imported only then), or
    None: the command's own ``--jobs`` processes. A clear error for both at once or an
    unreachable cluster."""
    from .main import err, fail

    if ray is None:
        yield None
        return
    if jobs > 1:
        fail("give --jobs or --ray, not both (on a cluster every CPU is used)")
    from ..cluster import RayWorkers

    workers = RayWorkers(ray)
    try:
        with err.status(f"connecting to Ray ({ray})"):
            workers.connect()
    except SpieltischError as e:
        fail(str(e))
    try:
        yield workers
    finally:
        workers.close()
