"""Helpers for game tests: act by an action's text, legal actions as texts, scripted plays,
positions from text or edited from a state, and the narration sweep.

Every helper goes through the public API (``apply``, ``legal_actions``, positions,
``narrate``), never through a game's private fields, so a test written with them keeps
passing when a game's insides change::

    from spieltisch.testing import act, legal_texts, load, edited

    s = new_game("hockey", 2, seed=1)
    assert "play 7H" in legal_texts(s, 1)
    act(s, 1, "play 7H")
    later = edited(s, breakaway=None)   # the same state, one position field replaced
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from .core.game import Event, State
from .core.registry import load_position
from .narration import Narrator, board, context, describe, narrate

S = TypeVar("S", bound=State)

__all__ = [
    "LANGS", "NAMES", "RAW", "act", "assert_clean", "edited", "finished", "legal_texts",
    "load", "play", "raw_pattern", "sweep", "told", "too_big",
]

#: Names the narration tests give the seats.
NAMES = ("Anna", "Ben", "Carl", "Dora", "Emil", "Fenna", "Greta", "Hugo")
#: The languages every game is told in.
LANGS = ("en", "de", "nl")


def too_big(paths: Iterable[Path], lines: int = 900, methods: int = 60) -> list[str]:
    """The modules among ``paths`` over ``lines`` lines and their classes over ``methods``
    methods (issue 36: a module a newcomer reads alone; a class that grows gets parts)."""
    found = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        if len(text.splitlines()) > lines:
            found.append(f"{path}: {len(text.splitlines())} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                count = sum(isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
                            for n in node.body)
                if count > methods:
                    found.append(f"{path}: {node.name} has {count} methods")
    return found


# -- acting -----------------------------------------------------------------------------
def act(state: State, seat: int, text: str) -> list[Event]:
    """Apply the action written ``text`` (its stable form, ``"play 7H"``) for ``seat``."""
    return state.apply(seat, state.game.action_from_json(text))


def legal_texts(state: State, seat: int) -> set[str]:
    """The stable texts of ``seat``'s legal actions."""
    to_text = state.game.action_to_json
    return {to_text(a) for a in state.legal_actions(seat)}


def play(state: State, moves: Iterable[tuple[int, str]]) -> list[Event]:
    """Apply scripted ``(seat, text)`` moves in order; the events of all of them."""
    events: list[Event] = []
    for seat, text in moves:
        events += act(state, seat, text)
    return events


def finished(name: str, players: int, seed: int) -> tuple[State, list[Event]]:
    """A game of random bots (seeded from ``seed``) played to its end, the clock's
    deadlines included, and every event of it, the opening's first: the material of a
    score sheet (``core.scoresheet.sheet_of``)."""
    from .bots import make_bot
    from .core.registry import new_game
    from .runner import step

    state = new_game(name, players, seed=seed)
    bots = [make_bot(state.game, "random", s, seed * 10 + s) for s in range(players)]
    rng = random.Random(seed)
    events: list[Event] = list(state.opening)
    while not state.is_over():
        step(state, bots, rng, lambda _seat, _action, got: events.extend(got))
    return state, events


# -- positions --------------------------------------------------------------------------
def load(pos: Any, kind: type[S] = State) -> S:  # type: ignore[assignment]
    """The state a position (JSON text or object) describes, checked to be a ``kind``."""
    state = load_position(pos)
    assert isinstance(state, kind), f"{type(state).__name__} is not a {kind.__name__}"
    return state


def edited(state: S, change: Callable[[dict[str, Any]], None] | None = None,
           **fields: Any) -> S:
    """``state`` again through its position, the ``"state"`` object's ``fields`` replaced
    and ``change`` (if given) applied to that object first: scenario set-ups that would
    otherwise need dozens of scripted moves."""
    pos = state.position()
    if change is not None:
        change(pos["state"])
    pos["state"].update(fields)
    return load(pos, type(state))


# -- narration --------------------------------------------------------------------------
def told(state: State, events: Iterable[Event], reader: int | None, lang: str,
         names: Sequence[str] = NAMES) -> list[str]:
    """``events`` as ``reader`` learns of them, told in ``lang``."""
    seated = names[:state.num_players]
    return [narrate(state.game, e.for_seat(reader), seated, lang, reader) for e in events]


def raw_pattern(cards: str = "") -> re.Pattern[str]:
    """What a reader must never see: template braces, reprs, keys and the regular
    expression ``cards`` for a game's raw card codes."""
    base = r"[=\[\]{}_]|None|True|False|Something happened"
    return re.compile(f"{base}|{cards}" if cards else base)


#: Raw data in any game's text (no card codes: see ``raw_pattern``).
RAW = raw_pattern()


def assert_clean(text: str, where: str, raw: re.Pattern[str] = RAW) -> None:
    """``text`` is words: not empty and nothing ``raw`` matches."""
    assert text.strip(), f"{where}: empty"
    found = raw.search(text)
    assert found is None, f"{where}: {found.group()!r} in {text!r}"


def sweep(state: State, rng: random.Random, *, names: Sequence[str] = NAMES,
          langs: Sequence[str] = LANGS, raw: re.Pattern[str] = RAW, board_every: int = 23,
          kind_of: Callable[[Event], str] = lambda e: e.kind) -> set[str]:
    """Play ``state`` out with random legal actions, telling every event to every seat and
    the spectator in every language, every legal action's label, and a board every
    ``board_every`` moves and at the end; each text must be clean (``assert_clean``) and
    the event texts the game's own (not the generic narrator's). Returns the event kinds
    met (``kind_of`` may split a kind by its outcome)."""
    game = state.game
    seated = names[:state.num_players]
    generic = Narrator(game)
    readers: list[int | None] = [*range(state.num_players), None]
    seen: set[str] = set()
    step = 0
    while not state.is_over():
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        for lang in langs:
            for a in legal:
                assert_clean(describe(game, a, lang), f"action {a}", raw)
            if step % board_every == 0:
                for reader in readers:
                    assert_clean(board(game, state.view(reader), seated, lang, reader),
                                 "board", raw)
        for event in state.apply(seat, rng.choice(legal)):
            seen.add(kind_of(event))
            for reader in readers:
                seen_by: Mapping[str, Any] = event.for_seat(reader)
                for lang in langs:
                    text = narrate(game, seen_by, seated, lang, reader)
                    assert_clean(text, f"{event.kind} for {reader} in {lang}", raw)
                    assert text != generic.tell(seen_by, context(game, seated, lang, reader))
        step += 1
    for lang in langs:
        for reader in readers:
            assert_clean(board(game, state.view(reader), seated, lang, reader),
                         "final board", raw)
    return seen
