"""Timing a state's deadlines on a runner's clock; the engine itself never reads a clock.

A runner (the real-time terminal, the server's table) keys each timer by ``(seat,
action, since)``: a key not seen before is a timer started now, a new ``since`` is a
timer started anew. A timer that a pause freezes moves from ``State.deadlines`` to
``State.frozen_timers`` and keeps the time it had run; when it comes back in
``deadlines`` with the same key it runs on from there (Hood Politix §5.3).
"""

from __future__ import annotations

from collections.abc import Iterable

from .core.game import Deadline, State

Key = tuple[int, int, int]


def key_of(d: Deadline) -> Key:
    return (d.seat, d.action, d.since)


class Timers:
    """When each running timer started on the runner's clock, and how long each frozen
    one had run when its pause began."""

    def __init__(self) -> None:
        self.started: dict[Key, float] = {}
        self.frozen: dict[Key, float] = {}

    def sync(self, state: State, now: float, extra: Iterable[Key] = ()) -> None:
        """Bring the books in line with ``state`` at ``now``: start the timers first seen,
        freeze those a pause stopped, resume the frozen ones that run again, forget the
        rest. ``extra`` are the runner's own timers (never frozen)."""
        frozen: dict[Key, float] = {}
        for d in state.frozen_timers():
            key = key_of(d)
            start = self.started.get(key)
            frozen[key] = self.frozen.get(key, 0.0) if start is None else now - start
        started: dict[Key, float] = {}
        for key in [*map(key_of, state.deadlines()), *extra]:
            start = self.started.get(key)
            started[key] = start if start is not None else now - self.frozen.get(key, 0.0)
        self.started = started
        self.frozen = frozen

    def due(self, d: Deadline, scale: float = 1.0) -> float:
        """When the running deadline ``d`` passes (after ``sync``)."""
        return self.started[key_of(d)] + d.seconds * scale


__all__ = ["Key", "Timers", "key_of"]
