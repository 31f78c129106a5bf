"""Playing a game to the end with bots, without clocks.

The loop every layer uses in some form: offer out-of-turn chances, let a seat the
game waits for act, and when nobody acts, let the earliest deadline pass (its
action is applied at once: simulations never sleep).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .bots.base import Bot, Observation
from .core.game import CLOCK, Event, SpieltischError, State


class StuckGame(SpieltischError):
    """Nobody may act and no deadline runs: a bug in the game."""


@dataclass
class Playout:
    state: State
    actions: list[tuple[int, int]] = field(default_factory=list)


def step(state: State, bots: Sequence[Bot], rng: random.Random,
         on_event: Callable[[int, int, list[Event]], None] | None = None) -> tuple[int, int]:
    """Make one action happen; returns ``(seat, action)``."""
    required = state.to_act()
    optional = state.out_of_turn()
    if optional:
        order = [s for s in optional if s not in required]
        rng.shuffle(order)
        for seat in order:
            action = bots[seat].react(Observation(state, seat, required=False))
            if action is not None:
                events = state.apply(seat, action)
                if on_event:
                    on_event(seat, action, events)
                return seat, action
    if required:
        seat = required[0] if len(required) == 1 else rng.choice(list(required))
        action = bots[seat].act(Observation(state, seat, required=True))
        if action is not None:
            events = state.apply(seat, action)
            if on_event:
                on_event(seat, action, events)
            return seat, action
    deadlines = state.deadlines()
    if not deadlines:
        raise StuckGame(f"{state.game.name}: nobody acted and no deadline runs "
                        f"(move {state.move_number})")
    first = min(deadlines, key=lambda d: d.seconds)
    events = state.apply(first.seat, first.action)
    if on_event:
        on_event(first.seat, first.action, events)
    return first.seat, first.action


def play_out(state: State, bots: Sequence[Bot], rng: random.Random,
             max_actions: int | None = None) -> Playout:
    """Play to the end, recording every ``(seat, action)`` (deadlines as ``CLOCK`` or a seat)."""
    limit = max_actions or state.game.spec.max_actions
    out = Playout(state)
    while not state.is_over():
        if len(out.actions) >= limit:
            raise StuckGame(f"{state.game.name}: no end after {limit} actions")
        out.actions.append(step(state, bots, rng))
    return out


__all__ = ["CLOCK", "Playout", "StuckGame", "play_out", "step"]
