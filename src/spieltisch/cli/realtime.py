"""Real-time terminal play for games that declare deadlines (Hood Politix).

Generic: driven only by ``to_act`` / ``out_of_turn`` / ``deadlines`` / ``check`` /
views. The wall clock runs:

* every ``Deadline`` is timed from the moment it is first seen (a new ``since``
  restarts it) and its action is applied when it passes; a timer that a pause
  freezes (``State.frozen_timers``) keeps the time it had run and, back in
  ``deadlines`` with the same key, runs on from there (Hood Politix §5.3);
* bots decide at once but act after a person's reaction time for their level (the
  server's, ``bots.pacing.TEMPI``: a turn 1.1-2.6 s after the change); with probability
  ``mistake_rate`` a bot is *slow* (it waits past the move timer) or *forgets*
  (it drops the trailing words of its action, e.g. ``play G3 mic`` → ``play G3``,
  or lets an out-of-turn chance pass);
* the human types at any moment: an action's number or text form. A faulty attempt
  is applied with its penalty, an illegal one is refused with the reason.

At a terminal the prompt stays on the bottom line (prompt_toolkit) while what happens
scrolls above it, so a bot's move never breaks the line being typed. Everything is told
in the player's language by the game's narrator, the first deal first. Input from a pipe
(or a test's stream) is read line by line instead.

``time_scale`` shrinks every delay and deadline (tests run at 0.01).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol, TextIO

from ..bots import expand_specs, make_bot
from ..bots.base import Bot, Observation
from ..bots.levels import Level
from ..bots.pacing import DEFAULT_LEVEL, BotClock, Moment, level_of
from ..core.game import Game, IllegalAction, State, Verdict
from ..i18n import N_
from ..replay import Replay
from ..timers import Timers
from .terminal import Table, default_replay_path, save_replay, seat_names, standings


def uses_realtime(game: Game) -> bool:
    """True for games whose states declare deadlines (checked on a fresh deal)."""
    try:
        return bool(game.new_state(seed=0).deadlines())
    except Exception:  # pragma: no cover - a game that cannot deal is not our concern
        return False


class _Plan:
    __slots__ = ("at", "action", "move")

    def __init__(self, at: float, action: int, move: int) -> None:
        self.at = at
        self.action = action
        self.move = move


class RealtimeTable:
    """One game played against the wall clock. ``human`` is a seat or None (bots only);
    ``names`` are the seats' names and ``lang`` the language everything is told in."""

    def __init__(self, game: Game, human: int | None, bots: list[Bot | None], seed: int,
                 out: Callable[[str], None], *, mistake_rate: float = 0.05,
                 levels: Sequence[Level] | None = None, time_scale: float = 1.0,
                 clock: Callable[[], float] = time.monotonic,
                 start: State | None = None, names: list[str] | None = None,
                 lang: str = "en") -> None:
        self.game = game
        self.human = human
        self.bots = bots
        self.out = out
        self.mistake_rate = mistake_rate
        #: Each bot seat's delays (its level's; medium unless ``levels`` says), scaled by
        #: ``time_scale`` where the plan is made.
        self.clocks = [BotClock(lv, seed + 104_729 * (s + 1), 1.0) for s, lv in
                       enumerate(levels or [DEFAULT_LEVEL] * game.num_players)]
        self.scale = time_scale
        self.clock = clock
        self.rng = random.Random(seed ^ 0x5EED)
        # ``start``: a position to begin from (``play --position``), else a deal.
        self.state: State = start.clone() if start is not None else game.new_state(seed=seed)
        self.replay = Replay.start(self.state, seed, from_position=start is not None)
        self.names = names or seat_names(game.num_players, human, "You")
        self.table = Table(game, self.names, lang, human)  # the narrator, in ``lang``
        self.tr = self.table.tr
        self.plans: dict[int, _Plan] = {}
        self.timers = Timers()  # the state's timers on this clock
        self.planned_for = -1
        self.shown_for = -1
        self.choices: list[int] = []
        #: Set when the human acted: the running loop re-plans at once.
        self._poke: asyncio.Event | None = None

    # -- the clock ---------------------------------------------------------------
    def _deadline_due(self, now: float) -> tuple[int, int] | None:
        self.timers.sync(self.state, now)
        for d in self.state.deadlines():
            if now >= self.timers.due(d, self.scale):
                return d.seat, d.action
        return None

    def _next_wake(self, now: float) -> float:
        if self.planned_for != self.state.move_number:
            return now  # the bots react to a move at once: its timers already run
        wake = now + 0.25
        for p in self.plans.values():
            if p.move == self.state.move_number:
                wake = min(wake, p.at)
        self.timers.sync(self.state, now)
        for d in self.state.deadlines():
            wake = min(wake, self.timers.due(d, self.scale))
        return max(wake, now)

    # -- bots ------------------------------------------------------------------------
    def _plan_bots(self, now: float) -> None:
        st = self.state
        self.plans = {}
        required = set(st.to_act())
        for seat in st.may_act():
            bot = self.bots[seat]
            if bot is None or seat == self.human:
                continue
            obs = Observation(st, seat, required=seat in required)
            action = bot.act(obs) if seat in required else bot.react(obs)
            if action is None:
                continue
            delay = self.clocks[seat].delay(Moment.ACT if seat in required else Moment.REACT)
            if self.rng.random() < self.mistake_rate:
                if self.rng.random() < 0.5:
                    delay += max((d.seconds for d in st.deadlines()), default=3.0) + 0.5
                else:
                    action = self._forget(seat, action)
                    if action is None:
                        continue
            self.plans[seat] = _Plan(now + delay * self.scale, action, st.move_number)

    def _forget(self, seat: int, action: int) -> int | None:
        """A human slip: drop the trailing words of the action (an announcement), or
        let an optional chance pass."""
        st = self.state
        if seat not in st.to_act():
            return None
        text = str(self.game.action_to_json(action))
        for b in st.legal_actions(seat):
            t = str(self.game.action_to_json(b))
            if b != action and text.startswith(t + " "):
                return b
        return action

    # -- applying ----------------------------------------------------------------------
    def opening(self) -> None:
        """Tell the first deal (``State.opening``), as the human's seat saw it."""
        for e in self.state.opening:
            self._tell(self.table.event(e))

    def _tell(self, text: str) -> None:
        if text:  # a narrator says nothing of an event the reader need not hear of
            self.out(text)

    def apply(self, seat: int, action: int) -> None:
        """Apply ``action`` for ``seat`` (a player, or the clock) now, and tell its events.

        Timers started before it are known from now on: a pause it begins freezes them
        with the time they had run at this moment (§5.3)."""
        self.timers.sync(self.state, self.clock())
        events = self.state.apply(seat, action)
        self.timers.sync(self.state, self.clock())
        self.replay.record(self.game, seat, action)
        for e in events:
            self._tell(self.table.event(e))

    def _show(self) -> None:
        st = self.state
        if self.human is None:
            return
        self.out("-" * 60)
        self.out(self.table.board(st.view(self.human)))
        self.choices = list(st.legal_actions(self.human))
        if self.choices:
            due = self.human in st.to_act()
            self.out(self.tr.gettext(N_("Your move:")) if due
                     else self.tr.gettext(N_("You may act out of turn:")))
            for i, a in enumerate(self.choices, 1):
                self.out(f"  {i:3d}. {self.table.action(a)}")

    def handle_line(self, text: str) -> bool:
        """One line of human input; False to quit."""
        text = text.strip()
        if not text:
            return True
        if text in ("q", "quit", "exit"):
            return False
        if text in ("h", "help", "?"):
            open_now = self.state.legal_actions(self.human) if self.human is not None else []
            examples = ", ".join(f"'{self.game.action_to_json(a)}'" for a in open_now[:3])
            self.out(self.tr.format(N_(
                "Type the number of a choice or the action itself ({examples}) at any "
                "moment; 'v' shows the table again, 'rules' how to play {game}; 'quit' "
                "stops."), examples=examples, game=self.game.spec.title))
            return True
        if text == "rules":
            from ..guides import guide_text

            self.out(guide_text(self.game.name, self.table.lang))
            return True
        if text in ("v", "view"):
            self._show()
            return True
        if self.human is None:
            return True
        if text.isdigit() and 1 <= int(text) <= len(self.choices):
            action = self.choices[int(text) - 1]
        else:
            try:
                action = self.game.action_from_json(text)
            except IllegalAction as e:
                self.out(self.tr.format(N_("Not understood: {reason}"),
                                        reason=e.translate(self.tr, self.names)))
                return True
        verdict = self.state.judge(self.human, action)
        if verdict.verdict is Verdict.ILLEGAL:
            self.out(self.tr.format(N_("Not legal now: {reason}"),
                                    reason=verdict.translate(self.tr, self.names)))
            return True
        if verdict.verdict is Verdict.FAULTY:
            self.out(self.tr.format(N_("Fault: {reason}"),
                                    reason=verdict.translate(self.tr, self.names)))
        self.apply(self.human, action)
        if self._poke is not None:
            self._poke.set()
        return True

    def tick(self, now: float) -> None:
        """Apply whatever is due at ``now``: a deadline, else the earliest bot action."""
        st = self.state
        if st.is_over():
            return
        if self.planned_for != st.move_number:
            self.planned_for = st.move_number
            self._plan_bots(now)
        due = self._deadline_due(now)
        if due is not None:
            self.apply(*due)
            return
        ready = [(p.at, s) for s, p in self.plans.items()
                 if p.at <= now and p.move == st.move_number]
        if ready:
            _, seat = min(ready)
            plan = self.plans.pop(seat)
            if st.judge(seat, plan.action).verdict is not Verdict.ILLEGAL:
                self.apply(seat, plan.action)

    async def run(self) -> None:
        """Play on the clock until the game is over; a human's action wakes it at once."""
        self._poke = asyncio.Event()
        st = self.state
        while not st.is_over():
            self.tick(self.clock())
            if self.shown_for != st.move_number:
                self.shown_for = st.move_number
                self._show()
            if st.is_over():
                break
            timeout = max(0.0, self._next_wake(self.clock()) - self.clock())
            self._poke.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poke.wait(), min(timeout, 0.25))


class Lines(Protocol):
    """Where the human's lines come from."""

    async def line(self, prompt: str) -> str:
        """The next line; ``EOFError`` at the end of input (Ctrl-D), ``KeyboardInterrupt``
        on Ctrl-C."""
        ...


class PromptLines:
    """A terminal: a prompt on the bottom line; what is printed meanwhile goes above it
    (with ``prompt_toolkit.patch_stdout`` active)."""

    def __init__(self) -> None:
        from prompt_toolkit import PromptSession

        self.session: PromptSession[str] = PromptSession()

    async def line(self, prompt: str) -> str:
        return await self.session.prompt_async(prompt)


class StreamLines:
    """Lines of a stream (a pipe, a test's text), read by a daemon thread so that a read
    still waiting never keeps the program from ending."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self._queue: asyncio.Queue[str | None] | None = None

    def _read(self, loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[str | None]) -> None:
        for text in self.stream:
            loop.call_soon_threadsafe(queue.put_nowait, text)
        loop.call_soon_threadsafe(queue.put_nowait, None)

    async def line(self, prompt: str) -> str:
        if self._queue is None:
            self._queue = asyncio.Queue()
            threading.Thread(target=self._read, daemon=True,
                             args=(asyncio.get_running_loop(), self._queue)).start()
        text = await self._queue.get()
        if text is None:
            self._queue.put_nowait(None)  # the end stays the end
            raise EOFError
        return text.rstrip("\n")


async def _session(table: RealtimeTable, lines: Lines | None, save: Path | None,
                   default_save: Path) -> None:
    """Play, then save the replay: to ``save``, else where the player says (Ctrl-D or an
    empty answer: not saved). Without a human (``lines`` None) it goes to ``default_save``."""
    tr = table.tr
    game = asyncio.create_task(table.run())
    try:
        while lines is not None and not game.done():
            read = asyncio.create_task(lines.line("> "))
            await asyncio.wait({read, game}, return_when=asyncio.FIRST_COMPLETED)
            if not read.done():  # the game ended while the player was typing
                read.cancel()
                with contextlib.suppress(asyncio.CancelledError, EOFError, KeyboardInterrupt):
                    await read
                break
            try:
                text = read.result()
            except EOFError:  # Ctrl-D: stop, as the turn-based terminal does
                table.out(tr.gettext(N_("Stopped.")))
                break
            except KeyboardInterrupt:
                table.out(tr.gettext(N_("Interrupted.")))
                break
            if not table.handle_line(text):
                table.out(tr.gettext(N_("Stopped.")))
                break
        if lines is None:
            await game
    finally:
        game.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await game
    st = table.state
    if st.is_over():
        table.replay.result = st.result().to_json()
        table.out(tr.gettext(N_("Game over")))
        if table.human is not None:
            table.out(table.table.board(st.view(table.human)))
        table.out(standings(st.result(), table.names, tr))
    path = save
    if path is None and lines is not None:
        try:
            answer = (await lines.line(tr.gettext(
                N_("Save the replay? File name (Enter to skip): ")))).strip()
        except (EOFError, KeyboardInterrupt):  # Ctrl-D (or Ctrl-C) at a question: no
            answer = ""
        path = Path(answer) if answer else None
    elif path is None:
        path = default_save
    if path is not None:
        save_replay(table.replay, path, table.out, tr)


def play_realtime(game: Game, seat: int | None, bot_specs: str, seed: int,
                  save: Path | None, out: Callable[[str], None] | None = None, *,
                  lang: str = "en", player: str = "You", mistake_rate: float = 0.05,
                  time_scale: float = 1.0, stream: TextIO | None = None,
                  start: State | None = None) -> State:
    """Play one game in real time in ``lang``, the human (``seat``, called ``player``)
    typing at a prompt (a terminal) or into ``stream``; ``start`` is a position to begin
    from (else a deal). ``out`` prints a line (default: above the prompt)."""
    n = game.num_players
    specs = expand_specs(bot_specs, n)
    bots: list[Bot | None] = [None if s == seat else make_bot(game, specs[s], s,
                                                               seed + 7919 * (s + 1))
                              for s in range(n)]
    names = seat_names(n, seat, player)
    at_terminal = seat is not None and stream is None and sys.stdin.isatty() \
        and sys.stdout.isatty()
    say = out or (lambda text: print(text, flush=True))
    table = RealtimeTable(game, seat, bots, seed, say, mistake_rate=mistake_rate,
                          levels=[level_of(spec) for spec in specs],
                          time_scale=time_scale, start=start, names=names, lang=lang)
    table.replay.seats = ["you" if s == seat else specs[s] for s in range(n)]
    tr = table.tr
    say(tr.format(N_("{game} in real time — you are {player} (seat {seat}); seed {seed}. "
                     "Type at any moment; 'help' for help."),
                  game=game.spec.title, player=names[seat] if seat is not None else "-",
                  seat=seat if seat is not None else "-", seed=seed))
    table.opening()
    lines: Lines | None = None
    if seat is not None:
        lines = PromptLines() if at_terminal else StreamLines(stream or sys.stdin)
    default = default_replay_path(game, seed)
    try:
        if at_terminal:
            from prompt_toolkit.patch_stdout import patch_stdout

            with patch_stdout():  # lines printed while the prompt waits go above it
                asyncio.run(_session(table, lines, save, default))
        else:
            asyncio.run(_session(table, lines, save, default))
    except KeyboardInterrupt:  # Ctrl-C outside the prompt: no question can be asked
        say(tr.gettext(N_("Interrupted.")))
        save_replay(table.replay, save or default, say, tr)
    return table.state


__all__ = ["RealtimeTable", "play_realtime", "uses_realtime"]
