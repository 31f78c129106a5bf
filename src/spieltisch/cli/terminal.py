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

from .. import narration
from ..bots import expand_specs, make_bot
from ..bots.base import Bot, Observation
from ..core.game import Event, Game, IllegalAction, Result, State
from ..i18n import N_, Translator, translator
from ..replay import Replay
from ..runner import step


class Quit(Exception):
    """The human asked to stop."""


def seat_names(n: int, human: int | None, player: str) -> list[str]:
    """The names shown for each seat: the player's own name and first names for the bots."""
    bots = (name for name in narration.BOT_NAMES if name.casefold() != player.casefold())
    return [player if s == human else next(bots) for s in range(n)]


class Table:
    """What the terminal says, in the player's language: the board, events, action labels."""

    def __init__(self, game: Game, names: list[str], lang: str, seat: int | None) -> None:
        self.game = game
        self.names = names
        self.lang = lang
        self.seat = seat
        self.ctx = narration.context(game, names, lang, seat)
        self.tr = translator(lang, "cli", game.name, "core")

    def board(self, view: dict[str, Any]) -> str:
        return self.game.narrator().board(view, self.ctx)

    def action(self, action: int) -> str:
        return self.game.narrator().action(action, self.ctx)

    def event(self, event: Event) -> str:
        return self.game.narrator().tell(event.for_seat(self.seat), self.ctx)

    def help(self, actions: list[int]) -> str:
        """Help for this game: how to answer, with examples from the actions open now."""
        examples = ", ".join(f"'{self.game.action_to_json(a)}'" for a in actions[:3])
        return self.tr.format(N_(
            "Type the number of a choice, or the action itself ({examples}). 'rules' shows "
            "how to play {game}; 'quit' stops (you can save the replay)."),
            examples=examples, game=self.game.spec.title)


class HumanBot(Bot):
    """Asks the keyboard. Out of turn it asks only when something is possible."""

    name = "human"

    def __init__(self, game: Game, seat: int, console: Console, table: Table) -> None:
        super().__init__(game, seat)
        self.console = console
        self.table = table

    def say(self, text: str) -> None:
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)

    def act(self, obs: Observation) -> int | None:
        return self._ask(obs, optional=False)

    def react(self, obs: Observation) -> int | None:
        if not obs.legal_actions():
            return None
        return self._ask(obs, optional=True)

    def _ask(self, obs: Observation, optional: bool) -> int | None:
        game, table, tr = self.game, self.table, self.table.tr
        actions = obs.legal_actions()
        self.console.rule()
        self.say(table.board(obs.view))
        if optional:
            self.say(tr.gettext(N_("You may act out of turn (Enter to let it pass):")))
        else:
            self.say(tr.gettext(N_("Your move:")))
        for i, a in enumerate(actions, 1):
            self.say(f"  {i:3d}. {table.action(a)}")
        while True:
            try:
                text = input("> ").strip()
            except EOFError:
                raise Quit from None
            if not text:
                if optional:
                    return None
                self.say(tr.gettext(N_("Choose a number or type an action ('help' for help).")))
                continue
            if text in ("q", "quit", "exit"):
                raise Quit
            if text in ("h", "help", "?"):
                self.say(table.help(actions))
                continue
            if text == "rules":
                from ..guides import guide_text

                self.say(guide_text(game.name, table.lang))
                continue
            if text.isdigit():
                k = int(text)
                if 1 <= k <= len(actions):
                    return actions[k - 1]
                self.say(tr.format(N_("There is no choice {number}: pick 1–{last}."),
                                   number=k, last=len(actions)))
                continue
            try:
                action = game.action_from_json(text)
            except IllegalAction as e:
                self.say(tr.format(N_("Not understood: {reason}"),
                                   reason=e.translate(tr, table.names)))
                continue
            if action not in actions:
                self.say(tr.format(N_("Not legal now: {reason}"),
                                   reason=obs.judge(action).translate(tr, table.names)))
                continue
            return action


def ask_yes_no_path(question: str) -> str:
    """A line of input; Ctrl-D (end of input) is the empty answer: no."""
    try:
        return input(question).strip()
    except EOFError:
        return ""


def play_terminal(game: Game, seat: int, bot_specs: str, seed: int, save: Path | None,
                  console: Console, *, lang: str = "en", player: str = "You",
                  start: State | None = None) -> None:
    """Play one game in the terminal; ``start`` is a position to begin from (else a deal)."""
    n = game.num_players
    specs = expand_specs(bot_specs, n)
    names = seat_names(n, seat, player)
    table = Table(game, names, lang, seat)
    tr = table.tr
    bots: list[Bot] = []
    for s in range(n):
        bots.append(HumanBot(game, s, console, table) if s == seat
                    else make_bot(game, specs[s], s, seed + 7919 * (s + 1)))
    state = start if start is not None else game.new_state(seed=seed)
    seats = [("you" if s == seat else specs[s]) for s in range(n)]
    replay = Replay.start(state, seed, seats=seats, from_position=start is not None)
    rng = random.Random(seed)

    def say(text: str) -> None:
        console.print(text, markup=False, highlight=False, soft_wrap=True)

    say(tr.format(N_("{game} — you are {player} (seat {seat}); seed {seed}. "
                     "Type 'help' for help."),
                  game=game.spec.title, player=names[seat], seat=seat, seed=seed))

    for e in state.opening:
        say(table.event(e))

    def on_event(actor: int, action: int, events: list[Event]) -> None:
        replay.record(game, actor, action)
        for e in events:
            say(table.event(e))

    try:
        while not state.is_over():
            step(state, bots, rng, on_event)
    except Quit:
        say(tr.gettext(N_("Stopped.")))
    except KeyboardInterrupt:
        say("\n" + tr.gettext(N_("Interrupted.")))
    if state.is_over():
        result = state.result()
        replay.result = result.to_json()
        console.rule(tr.gettext(N_("Game over")))
        say(table.board(state.view(seat)))
        say(standings(result, names, tr))
    path = save
    if path is None:
        question = tr.gettext(N_("Save the replay? File name (Enter to skip): "))
        answer = ask_yes_no_path(question)
        path = Path(answer) if answer else None
    if path is not None:
        save_replay(replay, path, say, tr)


def standings(result: Result, names: list[str], tr: Translator) -> str:
    """The final standings by place, one line a player."""
    order = sorted(range(len(names)), key=lambda s: (result.ranks[s], s))
    return "\n".join(tr.format(N_("{place}. {player}: {score} points"), place=result.ranks[s],
                               player=names[s], score=f"{result.scores[s]:g}")
                     for s in order)


def default_replay_path(game: Game, seed: int) -> Path:
    return Path(f"spieltisch-{game.name}-{seed}.json")


def save_replay(replay: Replay, path: Path, out: Any, tr: Translator | None = None) -> None:
    """Write the replay, reporting (not raising) a failure: the game is never lost silently."""
    tr = tr or translator("en", "cli")
    try:
        replay.save(path)
        out(tr.format(N_("Replay saved to {path}"), path=str(path)))
    except OSError as e:
        out(tr.format(N_("Could not save the replay to {path}: {reason}"), path=str(path),
                      reason=e.strerror or str(e)))
