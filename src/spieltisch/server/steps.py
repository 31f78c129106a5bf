"""A finished table's replay steps, a page at a time (``GET …/replay/steps``).

A step is one action as a reader saw it: its events, the view after it, its log lines
in the reader's language and its label; step 0 is the deal. A long game's steps are
large (a 24,538-action Hood Politix game in the full view was 69 MB in one answer), so
they are served in pages of at most ``replay_max_steps`` (``from``, ``limit``; ``next``
names the following page) and a page larger than ``replay_max_bytes`` is refused. A page
starts from the engine state where an earlier page of the same table ended
(``Checkpoints``), not from the seed, so reading a replay page by page applies each
action about once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .. import narration
from ..core.game import CLOCK, Game, State
from . import texts


@dataclass(frozen=True)
class Page:
    """What a ``replay/steps`` request asks for: whose view (``seat``, or ``full``; a
    spectator is seat None), the language, and steps ``start`` .. ``start + limit - 1``."""

    seat: int | None
    full: bool
    lang: str
    start: int
    limit: int

    @property
    def viewer(self) -> str:
        return "full" if self.full else "spectator" if self.seat is None else str(self.seat)


class Checkpoints:
    """Engine states of finished tables' replays where pages ended, by (table code,
    actions applied): a page resumes from the nearest one at or before its start.
    Shared by the store threads (a lock); each state goes in and out as a clone. At most
    ``size`` states, the least recently used dropped first."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._states: OrderedDict[tuple[str, int], State] = OrderedDict()
        self._lock = threading.Lock()

    def nearest(self, code: str, applied: int) -> tuple[int, State] | None:
        """The state of ``code`` with the most actions applied, at most ``applied``."""
        with self._lock:
            best = max((n for c, n in self._states if c == code and n <= applied),
                       default=None)
            if best is None:
                return None
            self._states.move_to_end((code, best))
            return best, self._states[(code, best)].clone()

    def put(self, code: str, applied: int, state: State) -> None:
        with self._lock:
            self._states[(code, applied)] = state.clone()
            self._states.move_to_end((code, applied))
            while len(self._states) > self.size:
                self._states.popitem(last=False)


def steps_page(game: Game, first_state: Callable[[], State],
               actions: Sequence[tuple[int, str]], names: Sequence[str], page: Page,
               resume: tuple[int, State] | None = None) -> tuple[list[dict[str, Any]], State]:
    """Steps ``page.start`` .. as ``page`` asks for them, and the state after the last
    one (the page's end, to resume from). ``resume``: a state with that many actions
    applied, at most ``page.start - 1`` (else the game is set up from its seed)."""
    full, seat = page.full, page.seat
    reader = None if full else seat
    ctx = narration.context(game, names, page.lang, reader)
    applied, state = resume if resume is not None else (0, first_state())
    for actor, text in actions[applied:max(page.start - 1, 0)]:  # up to the page
        state.apply(actor, game.action_from_json(text))

    def look() -> dict[str, Any]:
        return state.full_view() if full else state.view(seat)

    steps: list[dict[str, Any]] = []
    if page.start == 0:
        steps.append({"index": -1, "seat": None, "action": None, "events": [],
                      "view": look(),
                      "log": texts.log_lines(game, -1, state.opening, reader, ctx)})
    end = min(page.start + page.limit, len(actions) + 1)
    for step in range(max(page.start, 1), end):
        i = step - 1  # the action this step applies
        actor, text = actions[i]
        action = game.action_from_json(text)
        events = state.apply(actor, action)
        steps.append({"index": i, "seat": None if actor == CLOCK else actor,
                      "action": text,
                      "events": [e.full() if full else e.for_seat(seat) for e in events],
                      "view": look(), "log": texts.log_lines(game, i, events, reader, ctx),
                      "label": texts.action_labels(game, [action], ctx).get(text, "")
                      if actor != CLOCK else ""})
    return steps, state


__all__ = ["Checkpoints", "Page", "steps_page"]
