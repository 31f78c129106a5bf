"""Turn-based terminal play: one human seat, bots in the others.

The human is just another ``Bot`` whose decisions come from the keyboard, so the
loop is the same ``runner.step`` the simulations use. Games with real-time rules
(deadlines) use ``realtime.py`` instead when it is available.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from rich.console import Console

from ..bots import expand_specs, make_bot
from ..bots.base import Bot, Observation
from ..core.game import Event, Game, IllegalAction
from ..replay import Replay
from ..runner import step


class Quit(Exception):
    """The human asked to stop."""


class HumanBot(Bot):
    """Asks the keyboard. Out of turn it asks only when something is possible."""

    name = "human"

    def __init__(self, game: Game, seat: int, console: Console) -> None:
        super().__init__(game, seat)
        self.console = console

    def act(self, obs: Observation) -> int | None:
        return self._ask(obs, optional=False)

    def react(self, obs: Observation) -> int | None:
        if not obs.legal_actions():
            return None
        return self._ask(obs, optional=True)

    def _ask(self, obs: Observation, optional: bool) -> int | None:
        game = self.game
        actions = obs.legal_actions()
        self.console.rule()
        self.console.print(game.render_view(obs.view), markup=False, highlight=False)
        if optional:
            self.console.print("You may act out of turn (Enter to let it pass):")
        else:
            self.console.print("Your move:")
        for i, a in enumerate(actions, 1):
            self.console.print(f"  {i:3d}. {game.describe_action(a)}", markup=False,
                               highlight=False)
        while True:
            try:
                text = input("> ").strip()
            except EOFError:
                raise Quit from None
            if not text:
                if optional:
                    return None
                self.console.print("Choose a number or type an action ('help' for help).")
                continue
            if text in ("q", "quit", "exit"):
                raise Quit
            if text in ("h", "help", "?"):
                self.console.print("Type the number of an action, or the action itself "
                                   "(e.g. 'play 7H 7S', 'pass'); 'quit' stops (you can save "
                                   "the replay).")
                continue
            if text.isdigit():
                k = int(text)
                if 1 <= k <= len(actions):
                    return actions[k - 1]
                self.console.print(f"There is no choice {k}: pick 1–{len(actions)}.")
                continue
            try:
                action = game.action_from_json(text)
            except IllegalAction as e:
                self.console.print(f"Not understood: {e}")
                continue
            if action not in actions:
                self.console.print(f"Not legal now: {obs._state.why_illegal(self.seat, action)}")
                continue
            return action


def describe_event(game: Game, ev: dict[str, Any], me: int) -> str:
    who = "You" if ev.get("seat") == me else (
        f"Seat {ev['seat']}" if ev.get("seat") is not None else "")
    fields = " ".join(f"{k}={v}" for k, v in ev.items() if k not in ("kind", "seat"))
    return f"{who} {ev['kind']} {fields}".strip()


def play_terminal(game: Game, seat: int, bot_specs: str, seed: int, save: Path | None,
                  console: Console) -> None:
    n = game.num_players
    specs = expand_specs(bot_specs, n)
    bots: list[Bot] = []
    for s in range(n):
        bots.append(HumanBot(game, s, console) if s == seat
                    else make_bot(game, specs[s], s, seed + 7919 * (s + 1)))
    state = game.new_state(seed=seed)
    names = [("you" if s == seat else specs[s]) for s in range(n)]
    replay = Replay.start(state, seed, seats=names)
    rng = random.Random(seed)
    console.print(f"[bold]{game.spec.title}[/] — you are seat {seat}; seed {seed}. "
                  "Type 'help' for help.")

    def on_event(actor: int, action: int, events: list[Event]) -> None:
        replay.record(game, actor, action)
        for e in events:
            console.print(describe_event(game, e.for_seat(seat), seat), markup=False,
                          highlight=False)

    quit_early = False
    try:
        while not state.is_over():
            step(state, bots, rng, on_event)
    except Quit:
        quit_early = True
        console.print("Stopped.")
    except KeyboardInterrupt:
        quit_early = True
        console.print("\nInterrupted.")
    if state.is_over():
        result = state.result()
        replay.result = result.to_json()
        console.rule("Game over")
        console.print(game.render_view(state.view(seat)), markup=False, highlight=False)
        for s in range(n):
            console.print(f"  {names[s]:>10} (seat {s}): score {result.scores[s]:g}, "
                          f"place {result.ranks[s]}")
    path = save
    if path is None:
        try:
            answer = input("Save the replay? File name (Enter to skip): ").strip()
        except EOFError:
            answer = str(default_replay_path(game, seed)) if quit_early else ""
        path = Path(answer) if answer else None
    if path is not None:
        save_replay(replay, path, lambda text: console.print(text, markup=False))


def default_replay_path(game: Game, seed: int) -> Path:
    return Path(f"spieltisch-{game.name}-{seed}.json")


def save_replay(replay: Replay, path: Path, out: Any) -> None:
    """Write the replay, reporting (not raising) a failure: the game is never lost silently."""
    try:
        replay.save(path)
        out(f"Replay saved to {path}")
    except OSError as e:
        out(f"Could not save the replay to {path}: {e.strerror}")
