"""A table's narrated history, kept as the game goes: what a snapshot's ``log`` copies.

A snapshot (``welcome``, ``state``, ``lang``) carries the whole history its reader saw,
one log line per narrated event. Working it out anew means replaying the log from the
seed and narrating every event: seconds on the event loop for a long game (issue 41).
Instead each table keeps, per reader (a seat, or ``None`` for spectators) and language
that somebody asked for, the history as JSON text, and adds the lines of each action as
it is applied: a snapshot then costs what is new since the last one plus copying the
text. A history is exactly the one replayed from the seed: each line is the narration
of ``event.for_seat(reader)`` with the reader's names and the table's ``time_factor``;
when either changes (the untimed pace offered for a round) the kept history no longer
matches and is narrated again.

Memory is bounded: at most ``keep`` histories per table (least recently asked for go
first), only for readers and languages asked for, and they go with the table's runtime.
The first history of a reader (a late spectator of a finished game) is narrated in one
thread of its own (``history_ready``), off the event loop, once for all who ask at the
same time; the few actions applied meanwhile are narrated after it, on the loop.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from .. import narration
from ..core.game import Event, Game, State
from .texts import log_lines

#: Where first histories are narrated: one thread for the whole server, so that however
#: many are asked for at once they take at most one core and never the event loop.
_NARRATOR = ThreadPoolExecutor(max_workers=1, thread_name_prefix="history")

Key = tuple[int | None, str]


class Narrated:
    """One reader's history in one language as JSON text (the lines of a snapshot's
    ``log`` without the brackets), up to action ``upto`` (exclusive)."""

    __slots__ = ("ctx", "last", "parts", "upto")

    def __init__(self, ctx: narration.Context) -> None:
        self.ctx = ctx
        self.upto = -1  # the opening deal (index -1) comes first
        #: Encoded lines, each after ", "; joined into one now and then (``text``).
        self.parts: list[str] = []
        #: The lines of the action added last: (its index, the lines).
        self.last: tuple[int, list[dict[str, Any]]] = (-2, [])

    def matches(self, names: Sequence[str], time_factor: float | None) -> bool:
        return list(self.ctx.names) == list(names) and self.ctx.time_factor == time_factor

    def add(self, game: Game, index: int, events: Sequence[Event]) -> None:
        """The events of action ``index`` (-1: the opening deal), the next one."""
        lines = log_lines(game, index, events, self.ctx.reader, self.ctx)
        if lines:
            self.parts.append("".join(", " + json.dumps(line) for line in lines))
        self.last = (index, lines)
        self.upto = index + 1

    def text(self) -> str:
        """The lines as JSON, without the brackets (the parts joined, and kept so)."""
        if len(self.parts) > 1:
            self.parts = ["".join(self.parts)]
        return self.parts[0][2:] if self.parts else ""

    def lines(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = json.loads("[" + self.text() + "]")
        return out


def narrate_log(game: Game, state: State, log: Sequence[tuple[int, Any]],
                ctx: narration.Context) -> tuple[Narrated, State]:
    """The history of ``log`` from ``state`` (the state before the first action; it is
    changed) told as ``ctx`` says, and the state after it."""
    told = Narrated(ctx)
    told.add(game, -1, state.opening)
    for index, (actor, text) in enumerate(log):
        told.add(game, index, state.apply(actor, game.action_from_json(text)))
    return told, state


async def off_loop(work: Callable[[], Any]) -> Any:
    """``work()`` in the history thread (a finished game's score sheet, made once)."""
    return await asyncio.get_running_loop().run_in_executor(_NARRATOR, work)


class Histories:
    """The histories kept for one table (module docstring)."""

    def __init__(self, game: Game, first_state: Callable[[], State], keep: int = 16) -> None:
        self.game = game
        self.first_state = first_state
        self.keep = max(1, keep)
        self._kept: OrderedDict[Key, Narrated] = OrderedDict()
        self._coming: dict[tuple[Key, tuple[str, ...], float | None],
                           asyncio.Future[None]] = {}

    def kept(self) -> int:
        return len(self._kept)

    def _fresh(self, key: Key, ctx: narration.Context, length: int) -> Narrated | None:
        told = self._kept.get(key)
        if told is None or told.upto != length \
                or not told.matches(ctx.names, ctx.time_factor):
            return None
        self._kept.move_to_end(key)
        return told

    def _put(self, key: Key, told: Narrated) -> None:
        self._kept[key] = told
        self._kept.move_to_end(key)
        while len(self._kept) > self.keep:
            self._kept.popitem(last=False)

    def get(self, lang: str, ctx: narration.Context,
            log: Sequence[tuple[int, Any]]) -> Narrated:
        """The history of ``ctx.reader`` in ``lang`` up to the end of ``log``: the kept
        one, else narrated here and now (the slow path ``history_ready`` avoids)."""
        key = (ctx.reader, lang)
        told = self._fresh(key, ctx, len(log))
        if told is None:
            told, _ = narrate_log(self.game, self.first_state(), log, ctx)
            self._put(key, told)
        return told

    def applied(self, index: int, events: Sequence[Event]) -> None:
        """Action ``index`` was applied with ``events``: every kept history grows by its
        lines (one that missed an action is dropped: it is narrated again if asked)."""
        for key, told in list(self._kept.items()):
            if told.upto == index:
                told.add(self.game, index, events)
            elif told.upto != index + 1:  # (one narrated since the action: it has it)
                del self._kept[key]

    def lines_of(self, lang: str, ctx: narration.Context, index: int
                 ) -> list[dict[str, Any]] | None:
        """The lines of action ``index`` just added to the kept history of ``ctx``'s
        reader in ``lang``, if it is kept (an update reuses them)."""
        told = self._kept.get((ctx.reader, lang))
        if told is None or told.last[0] != index \
                or not told.matches(ctx.names, ctx.time_factor):
            return None
        return told.last[1]

    async def ready(self, lang: str, ctx: narration.Context,
                    log: list[tuple[int, Any]]) -> None:
        """Make sure the history of ``ctx.reader`` in ``lang`` is kept, narrating it in
        the history thread if it is not (``log`` is the table's, growing meanwhile)."""
        key = (ctx.reader, lang)
        if self._fresh(key, ctx, len(log)) is not None:
            return
        flight = (key, tuple(ctx.names), ctx.time_factor)
        coming = self._coming.get(flight)
        if coming is not None:  # somebody asked already: wait for the same work
            await asyncio.wait([coming])  # its failure is its asker's (``get`` retries)
            return
        loop = asyncio.get_running_loop()
        coming = self._coming[flight] = loop.create_future()
        try:
            upto = len(log)
            head = log[:upto]
            told, state = await loop.run_in_executor(
                _NARRATOR, narrate_log, self.game, self.first_state(), head, ctx)
            # the actions applied while it was narrated, here (a few at most)
            for index in range(upto, len(log)):
                actor, text = log[index]
                told.add(self.game, index, state.apply(actor, self.game.action_from_json(text)))
            self._put(key, told)
            coming.set_result(None)
        except asyncio.CancelledError:
            coming.cancel()
            raise
        except Exception as e:
            coming.set_exception(e)
            coming.exception()  # retrieved: it is raised to this asker only
            raise
        finally:
            del self._coming[flight]


__all__ = ["Histories", "Narrated", "narrate_log", "off_loop"]
