"""The reports made on this machine: one JSON line per report, which the server's Lab
page lists (``spieltisch.server.lab_pages``).

The list lives in the user's data directory (where the server keeps its database), or
in the file ``SPIELTISCH_LAB_INDEX`` names. Reports are served by an id made from their
path, never by a path a browser sends.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

#: environment variable naming the index file (tests, or several separate labs)
ENV = "SPIELTISCH_LAB_INDEX"


def index_path() -> Path:
    """``$SPIELTISCH_LAB_INDEX``, else ``lab-reports.jsonl`` in the user's data directory."""
    named = os.environ.get(ENV)
    if named:
        return Path(named)
    try:
        import platformdirs

        folder = Path(platformdirs.user_data_dir("spieltisch", appauthor=False))
    except ImportError:  # platformdirs comes with the server and lab extras
        folder = Path.home() / ".local" / "share" / "spieltisch"
    return folder / "lab-reports.jsonl"


@dataclass(frozen=True)
class ReportEntry:
    """One report in the list."""

    path: str  # absolute path of the HTML file
    title: str
    game: str
    created: str  # ISO date and time
    games: int  # games played
    variants: list[str]

    @property
    def id(self) -> str:
        """A stable id for URLs: a digest of the path."""
        return hashlib.blake2b(self.path.encode(), digest_size=6).hexdigest()


def add(entry: ReportEntry, index: Path | None = None) -> Path:
    """Append ``entry`` to the list (creating its folder); returns the list's path."""
    path = index or index_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(asdict(entry)) + "\n")
    return path


def entries(index: Path | None = None) -> list[ReportEntry]:
    """The reports whose HTML file still exists, newest first; a report written again to
    the same path appears once (its latest run). Unreadable lines are skipped."""
    path = index or index_path()
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    latest: dict[str, ReportEntry] = {}
    for line in lines:
        try:
            entry = ReportEntry(**json.loads(line))
        except (ValueError, TypeError):
            continue
        latest.pop(entry.path, None)  # re-inserted: the dict keeps the order of the runs
        latest[entry.path] = entry
    return [e for e in reversed(latest.values()) if Path(e.path).is_file()]


def find(report_id: str, index: Path | None = None) -> ReportEntry | None:
    return next((e for e in entries(index) if e.id == report_id), None)


__all__ = ["ENV", "ReportEntry", "add", "entries", "find", "index_path"]
