"""Games on a Ray cluster: ``--ray ADDRESS`` of simulate, tournament and lab (issue 24).

``RayWorkers`` is a ``simulate.Workers``: the same function over the same items gives
the same results as ``--jobs``, because every game's seeds come from its index and
the caller puts results back in index order. What Ray adds:

* **Batches of about a second.** Items go out in Ray tasks of ``batch`` games; the size
  follows the measured seconds per game so that a task lasts ``task_seconds`` (a 1 ms
  game is not worth a task of its own, a 60 s one is).
* **A bounded window.** At most two tasks per CPU of the cluster are out at once, and
  items are drawn from their iterator only when a task is sent: a million-game run
  never holds a million tasks.
* **Lost nodes cost their tasks only.** A task whose worker or node dies is run again
  by Ray (``max_retries``); its games are the same games (same seeds), and the caller
  keeps each position once.

Ray is imported only here, and only when a run asks for it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Any, TypeVar

from ..core.game import SpieltischError

T = TypeVar("T")
R = TypeVar("R")

#: what ``--ray`` takes besides a ``ray://host:port`` or ``host:port`` address
SPECIAL_ADDRESSES = {
    "auto": "the cluster that 'ray start' made on this machine",
    "local": "a private Ray instance for this run only",
}


class ClusterError(SpieltischError):
    """Ray is missing, the cluster cannot be reached, or it failed under a run."""


def import_ray() -> Any:
    """Ray, or a ``ClusterError`` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ClusterError("--ray needs the 'cluster' extra (Ray is not installed): "
                           "pip install 'spieltisch[cluster]'") from None
    return ray


def _play_batch(fn: Callable[[T], R], items: list[T]) -> tuple[list[R], float, Exception | None]:
    """Run on a worker: ``fn`` over a batch, with its seconds; a game's own error (a
    ``SpieltischError``) comes back as a value, to be raised as it is on the driver."""
    start = time.perf_counter()
    out: list[R] = []
    try:
        for item in items:
            out.append(fn(item))
    except SpieltischError as e:
        return out, time.perf_counter() - start, e
    return out, time.perf_counter() - start, None


class RayWorkers:
    """Work on a Ray cluster; a context manager that connects and disconnects.

    ``address``: ``auto`` (the cluster ``ray start`` made on this machine), ``local`` (a
    private instance of ``num_cpus`` CPUs for this run), ``ray://host:10001`` (a remote
    cluster through Ray Client) or a ``host:6379`` address of a cluster this machine is
    part of. Already connected (``ray.init`` by the caller), it uses that connection and
    leaves it open."""

    def __init__(self, address: str, task_seconds: float = 1.0, max_retries: int = 5,
                 num_cpus: int | None = None, max_batch: int = 20_000) -> None:
        if not address or address.isspace():
            raise ClusterError("--ray needs an address: auto, local or ray://host:10001")
        self.address = address.strip()
        self.task_seconds = task_seconds
        self.max_retries = max_retries
        self.num_cpus = num_cpus
        self.max_batch = max_batch
        self._ray: Any = None
        self._owned = False
        self._remote: Any = None
        #: Ray tasks sent, and seconds of play in them, in the last ``imap_unordered``
        self.tasks_sent = 0
        self.seconds_in_tasks = 0.0

    # -- connection --------------------------------------------------------------------
    def __enter__(self) -> RayWorkers:
        self.connect()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def connect(self) -> None:
        ray = import_ray()
        self._ray = ray
        if ray.is_initialized():
            return
        # no usage report leaves the machine unless the user asked for it
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        kwargs: dict[str, Any] = {"logging_level": "WARNING", "log_to_driver": False}
        try:
            if self.address == "local":
                ray.init(num_cpus=self.num_cpus, include_dashboard=False, **kwargs)
            else:
                ray.init(address=self.address, **kwargs)
        except (ConnectionError, TimeoutError, ValueError, RuntimeError,
                getattr(getattr(ray, "exceptions", None), "RayError", RuntimeError)) as e:
            text = str(e).strip()
            if "Authentication" in type(e).__name__ or "authentication token" in text:
                hint = (" (the cluster uses token authentication: give this machine its "
                        "token in ~/.ray/auth_token or RAY_AUTH_TOKEN, and set "
                        "RAY_AUTH_MODE=token; docs/cluster.md)")
            elif self.address == "auto":
                hint = " (start one with 'ray start --head', or use --ray local)"
            else:
                hint = ""
            raise ClusterError(f"cannot reach the Ray cluster at {self.address}{hint}: "
                               f"{text.splitlines()[0] if text else repr(e)}") from None
        self._owned = True

    def close(self) -> None:
        if self._owned and self._ray is not None:
            self._ray.shutdown()
        self._owned = False

    def cpus(self) -> int:
        """The CPUs of the cluster's live nodes."""
        return max(1, int(self._ray.cluster_resources().get("CPU", 1)))

    def describe(self) -> str:
        if self._ray is None or not self._ray.is_initialized():
            return f"Ray cluster at {self.address}"
        nodes = sum(1 for n in self._ray.nodes() if n.get("Alive"))
        return (f"Ray cluster at {self.address}: {nodes} node{'s' if nodes != 1 else ''}, "
                f"{self.cpus()} CPUs")

    # -- work --------------------------------------------------------------------------
    def imap_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[tuple[int, R]]:
        """``(position, fn(item))`` for every item, as Ray tasks finish."""
        if self._ray is None:
            self.connect()
        ray = self._ray
        if self._remote is None:
            # a worker or node that dies takes its task with it: Ray runs it again
            # elsewhere; an exception raised by the games is not retried (it would again)
            self._remote = ray.remote(_play_batch).options(
                num_cpus=1, max_retries=self.max_retries, retry_exceptions=False)
        source = iter(items)
        position = 0
        exhausted = False
        batch = 1  # until the first task says how long a game takes
        games_timed = 0
        seconds_timed = 0.0
        pending: dict[Any, int] = {}  # task → position of its first item
        window = 2 * self.cpus()
        looked = time.monotonic()
        self.tasks_sent = 0
        self.seconds_in_tasks = 0.0
        try:
            while True:
                while not exhausted and len(pending) < window:
                    chunk = list(islice(source, batch))
                    if not chunk:
                        exhausted = True
                        break
                    pending[self._remote.remote(fn, chunk)] = position
                    position += len(chunk)
                    self.tasks_sent += 1
                if not pending:
                    return
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    start = pending.pop(ref)
                    try:
                        results, seconds, error = ray.get(ref)
                    except ray.exceptions.RayTaskError:
                        raise  # a bug in the code: its traceback says where
                    except ray.exceptions.RayError as e:
                        raise ClusterError(f"the Ray cluster lost a task for good "
                                           f"(after {self.max_retries} retries): "
                                           f"{type(e).__name__}: {str(e)[:300]}") from None
                    if error is not None:
                        raise error
                    games_timed += len(results)
                    seconds_timed += seconds
                    self.seconds_in_tasks += seconds
                    if seconds_timed > 0:
                        per_game = seconds_timed / games_timed
                        batch = max(1, min(self.max_batch, round(self.task_seconds / per_game)))
                    for k, result in enumerate(results):
                        yield start + k, result
                if time.monotonic() - looked > 5:  # nodes come and go
                    looked = time.monotonic()
                    window = 2 * self.cpus()
        finally:
            for ref in pending:  # stopped early (Ctrl-C, an error): free the workers
                try:
                    ray.cancel(ref, force=True)
                except Exception:  # noqa: BLE001 - the cluster may be gone already
                    pass


__all__ = ["SPECIAL_ADDRESSES", "ClusterError", "RayWorkers", "import_ray"]
