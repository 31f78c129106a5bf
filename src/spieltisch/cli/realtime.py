"""Real-time terminal play for games that declare deadlines (Hood Politix).

Generic: driven only by ``to_act`` / ``out_of_turn`` / ``deadlines`` / ``check`` /
views. The wall clock runs:

* every ``Deadline`` is timed from the moment it is first seen (a new ``since``
  restarts it) and its action is applied when it passes; a timer that a pause
  freezes (``State.frozen_timers``) keeps the time it had run and, back in
  ``deadlines`` with the same key, runs on from there (Hood Politix §5.3);
* bots decide at once but act after a human-like reaction time; with probability
  ``mistake_rate`` a bot is *slow* (it waits past the move timer) or *forgets*
  (it drops the trailing words of its action, e.g. ``play G3 mic`` → ``play G3``,
  or lets an out-of-turn chance pass);
* the human types at any moment (a reader thread feeds a queue): an action's
  number or text form. A faulty attempt is applied with its penalty, an illegal
  one is refused with the reason.

``time_scale`` shrinks every delay and deadline (tests run at 0.01).
"""

from __future__ import annotations

import queue
import random
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from ..bots import expand_specs, make_bot
from ..bots.base import Bot, Observation
from ..core.game import Game, IllegalAction, State, Verdict
from ..replay import Replay
from ..timers import Timers
from .terminal import default_replay_path, save_replay


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
    """One game played against the wall clock. ``human`` is a seat or None (bots only)."""

    def __init__(self, game: Game, human: int | None, bots: list[Bot | None], seed: int,
                 out: Callable[[str], None], *, mistake_rate: float = 0.05,
                 reaction: tuple[float, float] = (0.7, 1.8), time_scale: float = 1.0,
                 clock: Callable[[], float] = time.monotonic,
                 start: State | None = None) -> None:
        self.game = game
        self.human = human
        self.bots = bots
        self.out = out
        self.mistake_rate = mistake_rate
        self.reaction = reaction
        self.scale = time_scale
        self.clock = clock
        self.rng = random.Random(seed ^ 0x5EED)
        # ``start``: a position to begin from (``play --position``), else a deal.
        self.state: State = start.clone() if start is not None else game.new_state(seed=seed)
        self.replay = Replay.start(self.state, seed, from_position=start is not None)
        self.plans: dict[int, _Plan] = {}
        self.timers = Timers()  # the state's timers on this clock
        self.planned_for = -1
        self.shown_for = -1
        self.choices: list[int] = []

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
            lo, hi = self.reaction
            delay = self.rng.uniform(lo, hi) if seat in required else \
                self.rng.uniform(lo * 0.6, hi * 0.8)
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
    def apply(self, seat: int, action: int) -> None:
        """Apply ``action`` for ``seat`` (a player, or the clock) now, and show its events.

        Timers started before it are known from now on: a pause it begins freezes them
        with the time they had run at this moment (§5.3)."""
        self.timers.sync(self.state, self.clock())
        events = self.state.apply(seat, action)
        self.timers.sync(self.state, self.clock())
        self.replay.record(self.game, seat, action)
        me = self.human
        for e in events:
            self.out(_describe(e.for_seat(me)))

    def _show(self) -> None:
        st = self.state
        if self.human is None:
            return
        self.out("-" * 60)
        self.out(self.game.render_view(st.view(self.human)))
        self.choices = list(st.legal_actions(self.human))
        if self.choices:
            due = self.human in st.to_act()
            self.out("YOUR MOVE:" if due else "You may act out of turn:")
            for i, a in enumerate(self.choices, 1):
                self.out(f"  {i:3d}. {self.game.describe_action(a)}")

    def handle_line(self, text: str) -> bool:
        """One line of human input; False to quit."""
        text = text.strip()
        if not text:
            return True
        if text in ("q", "quit", "exit"):
            return False
        if text in ("h", "help", "?"):
            self.out("Type an action's number or its text (e.g. 'play G7', 'throw G7', "
                     "'accuse 2 mic-check'); 'v' shows the table again; 'quit' stops.")
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
                self.out(f"Not understood: {e}")
                return True
        verdict = self.state.check(self.human, action)
        if verdict.verdict is Verdict.ILLEGAL:
            self.out(f"Refused: {verdict.reason}")
            return True
        if verdict.verdict is Verdict.FAULTY:
            self.out(f"FAULT: {verdict.reason}")
        self.apply(self.human, action)
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
            if st.check(seat, plan.action).verdict is not Verdict.ILLEGAL:
                self.apply(seat, plan.action)

    def run(self, lines: queue.Queue[str | None] | None) -> None:
        st = self.state
        while not st.is_over():
            now = self.clock()
            self.tick(now)
            if self.shown_for != st.move_number:
                self.shown_for = st.move_number
                self._show()
            if st.is_over():
                break
            timeout = max(0.0, self._next_wake(self.clock()) - self.clock())
            if lines is None:
                time.sleep(min(timeout, 0.25))
                continue
            try:
                line = lines.get(timeout=min(timeout, 0.25) or 0.001)
            except queue.Empty:
                continue
            if line is None:  # end of input (Ctrl-D): stop, as the turn-based terminal does
                raise KeyboardInterrupt
            if not self.handle_line(line):
                raise KeyboardInterrupt


def _describe(ev: dict[str, Any]) -> str:
    who = f"seat {ev['seat']}" if ev.get("seat") is not None and ev["seat"] >= 0 else (
        "clock" if ev.get("seat") == -1 else "")
    fields = " ".join(f"{k}={v}" for k, v in ev.items() if k not in ("kind", "seat"))
    return f"[{who}] {ev['kind']} {fields}".strip()


def _reader(stream: TextIO, lines: queue.Queue[str | None]) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


def play_realtime(game: Game, seat: int | None, bot_specs: str, seed: int,
                  save: Path | None, out: Callable[[str], None] = print, *,
                  mistake_rate: float = 0.05, time_scale: float = 1.0,
                  stream: TextIO | None = None, start: State | None = None) -> State:
    """Play one game in real time; the human (``seat``) types into ``stream`` (stdin);
    ``start`` is a position to begin from (else a deal)."""
    n = game.num_players
    specs = expand_specs(bot_specs, n)
    bots: list[Bot | None] = [None if s == seat else make_bot(game, specs[s], s,
                                                               seed + 7919 * (s + 1))
                              for s in range(n)]
    table = RealtimeTable(game, seat, bots, seed, out, mistake_rate=mistake_rate,
                          time_scale=time_scale, start=start)
    table.replay.seats = ["you" if s == seat else specs[s] for s in range(n)]
    lines: queue.Queue[str | None] | None = None
    if seat is not None:
        lines = queue.Queue()
        threading.Thread(target=_reader, args=(stream or sys.stdin, lines),
                         daemon=True).start()
    out(f"{game.spec.title} in real time — you are seat {seat}; seed {seed}. "
        "Type at any moment; 'help' for help.")
    try:
        table.run(lines)
    except KeyboardInterrupt:
        out("Stopped.")
    st = table.state
    if st.is_over():
        table.replay.result = st.result().to_json()
        r = st.result()
        out("Game over: " + ", ".join(f"seat {s}: {r.scores[s]:g} (place {r.ranks[s]})"
                                      for s in range(n)))
    # The keyboard belongs to the reader thread, so there is no question at the end:
    # the replay goes to --save, or to a default file name, never lost.
    save_replay(table.replay, save or default_replay_path(game, seed), out)
    return st


__all__ = ["RealtimeTable", "play_realtime", "uses_realtime"]
