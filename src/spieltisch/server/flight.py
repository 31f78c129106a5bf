"""Single-flight: identical requests at the same time share one computation.

A finished long game's replay page or a table rebuilt from its log costs seconds of
CPU; two clients (or one client twice) asking for the same thing at once must not cost
it twice. The first request starts the computation as a task of its own, every request
for the same key meanwhile awaits that task, and the key is free again once it ends
(what it produced is cached elsewhere, or not at all).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine, Hashable
from typing import Any, Generic, TypeVar

V = TypeVar("V")


class SingleFlight(Generic[V]):
    """Computations under way by key: ``run`` joins one that runs for the same key."""

    def __init__(self) -> None:
        self._running: dict[Hashable, asyncio.Task[V]] = {}
        #: Computations started so far (for tests and figures).
        self.started = 0

    async def run(self, key: Hashable, compute: Callable[[], Coroutine[Any, Any, V]]) -> V:
        """``compute()``'s result (or its exception), computed once for every caller that
        asks for ``key`` while it runs. A caller that goes away (cancelled) does not stop
        it for the others: the task is shielded."""
        task = self._running.get(key)
        if task is None:
            task = asyncio.get_running_loop().create_task(compute())
            self._running[key] = task
            self.started += 1
            task.add_done_callback(functools.partial(self._done, key))
        return await asyncio.shield(task)

    def running(self, key: Hashable) -> bool:
        return key in self._running

    def _done(self, key: Hashable, task: asyncio.Task[V]) -> None:
        if self._running.get(key) is task:
            del self._running[key]
        if not task.cancelled():
            task.exception()  # every caller got it; none left is no lost error


__all__ = ["SingleFlight"]
