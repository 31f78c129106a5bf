"""Replay files: a game reproduced exactly from its setup and its actions.

Format (JSON object, version 1)::

    {
      "format": "spieltisch-replay", "version": 1,
      "game": "president", "players": 5, "options": {"skip_rule": false},
      "seed": 42,                    # or null when "deck" or "position" is given
      "deck": null,                  # or stacked orders: [["3C", "10H", ...], ...]
      "position": {...},             # optional: the game started from this position
                                     # (docs/positions.md) instead of a deal
      "seats": ["you", "heuristic", "random", ...],   # who sat where (free text)
      "actions": [[0, "play 3C"], [1, "pass"], [-1, "expire move-timer"], ...],
      "result": {"scores": [...], "ranks": [...], "winner": 2}   # optional, checked
    }

Each action is ``[seat, text form]``; seat ``-1`` is the clock (a deadline that
passed). ``verify`` re-applies everything and checks the recorded result.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .core.game import Event, Game, IllegalAction, Result, SpieltischError, State
from .core.registry import get_spec

FORMAT = "spieltisch-replay"
VERSION = 1


class ReplayError(SpieltischError):
    """A malformed replay file, or one whose actions do not apply."""

    def __init__(self, message: str, index: int | None = None, seat: int | None = None) -> None:
        super().__init__(message)
        self.index = index
        self.seat = seat


@dataclass
class Replay:
    game: str
    players: int
    options: dict[str, Any]
    seed: int | None
    deck: list[Any] | None = None
    seats: list[str] = field(default_factory=list)
    actions: list[tuple[int, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    #: The position the game started from, when it did not start with a deal.
    position: dict[str, Any] | None = None

    @classmethod
    def start(cls, state: State, seed: int | None, deck: list[Any] | None = None,
              seats: list[str] | None = None, from_position: bool = False) -> Replay:
        """A replay of the game ``state`` begins; ``from_position`` records ``state``'s
        position as the start (a game set up from a position, not dealt)."""
        g = state.game
        return cls(g.name, g.num_players, dict(g.options), seed, deck,
                   list(seats or []), [], None, state.position() if from_position else None)

    def record(self, game: Game, seat: int, action: int) -> None:
        self.actions.append((seat, game.action_to_json(action)))

    def to_json(self) -> dict[str, Any]:
        out = {
            "format": FORMAT, "version": VERSION, "game": self.game, "players": self.players,
            "options": self.options, "seed": self.seed, "deck": self.deck, "seats": self.seats,
            "actions": [[s, a] for s, a in self.actions], "result": self.result,
        }
        if self.position is not None:
            out["position"] = self.position
        return out

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, data: Any) -> Replay:
        if not isinstance(data, dict):
            raise ReplayError("a replay must be a JSON object")
        if data.get("format") != FORMAT:
            raise ReplayError(f"not a spieltisch replay (format is {data.get('format')!r})")
        if data.get("version") != VERSION:
            raise ReplayError(f"unsupported replay version {data.get('version')!r}")
        for key in ("game", "players", "actions"):
            if key not in data:
                raise ReplayError(f"replay has no {key!r}")
        if not isinstance(data["game"], str):
            raise ReplayError("'game' must be a game name")
        if not isinstance(data["players"], int):
            raise ReplayError("'players' must be an integer")
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise ReplayError("'options' must be an object")
        seed = data.get("seed")
        if seed is not None and not isinstance(seed, int):
            raise ReplayError("'seed' must be an integer or null")
        actions = data["actions"]
        if not isinstance(actions, list):
            raise ReplayError("'actions' must be a list")
        parsed: list[tuple[int, Any]] = []
        for i, entry in enumerate(actions):
            if (not isinstance(entry, list) or len(entry) != 2
                    or not isinstance(entry[0], int) or isinstance(entry[0], bool)):
                raise ReplayError(f"action {i} must be [seat, action], not {entry!r}", index=i)
            parsed.append((entry[0], entry[1]))
        seats = data.get("seats") or []
        if not isinstance(seats, list):
            raise ReplayError("'seats' must be a list")
        position = data.get("position")
        if position is not None and not isinstance(position, dict):
            raise ReplayError("'position' must be a position object (docs/positions.md)")
        return cls(data["game"], data["players"], options, seed, data.get("deck"),
                   [str(s) for s in seats], parsed, data.get("result"), position)

    @classmethod
    def load(cls, path: str | Path) -> Replay:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as e:
            raise ReplayError(f"cannot read {path}: {e.strerror}") from None
        except UnicodeDecodeError as e:
            raise ReplayError(f"{path} is not UTF-8 text (byte {e.start} cannot be read): "
                              "is it a replay file?") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ReplayError(f"{path} is not valid JSON: {e}") from None
        except RecursionError:
            raise ReplayError(f"{path} is nested too deeply to be a replay") from None
        return cls.from_json(data)

    def new_state(self) -> State:
        game = get_spec(self.game).configure(self.players, self.options)
        if self.position is not None:
            return game.state_from_position(self.position)
        return game.new_state(seed=self.seed, deck=self.deck)

    def run(self, upto: int | None = None,
            on_action: Callable[[int, int, list[Event]], None] | None = None) -> State:
        """Re-apply every action (the first ``upto`` only, if given), telling ``on_action``
        each one's seat, action and events; raises ``ReplayError`` naming the first that
        fails."""
        try:
            state = self.new_state()
        except SpieltischError as e:
            raise ReplayError(f"cannot set up the game: {e}") from None
        game = state.game
        actions = self.actions if upto is None else self.actions[:upto]
        for i, (seat, text) in enumerate(actions):
            try:
                action = game.action_from_json(text)
                events = state.apply(seat, action)
            except IllegalAction as e:
                raise ReplayError(f"action {i} ({text!r}) for seat {seat} is illegal: {e}",
                                  index=i, seat=seat) from None
            if on_action is not None:
                on_action(seat, action, events)
        return state

    def verify(self, on_action: Callable[[int, int, list[Event]], None] | None = None
               ) -> State:
        """``run``, then check the recorded result (if any) against the replayed one."""
        state = self.run(on_action=on_action)
        if self.result is not None:
            if not state.is_over():
                raise ReplayError("the replay records a result but the game is not over")
            got = state.result().to_json()
            if got != self.result:
                raise ReplayError(f"recorded result {self.result} differs from replayed {got}")
        return state


def result_json(state: State) -> dict[str, Any] | None:
    return state.result().to_json() if state.is_over() else None


__all__ = ["Replay", "ReplayError", "Result", "result_json"]
