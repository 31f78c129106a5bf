"""Fair time at a live table: the pace, credit for network delay, and races.

The server alone keeps time. It stamps every client message on arrival (the event loop's
clock) and never reads a time the client sends. What the network costs a player is
measured by the server's own pings of the player's connection and credited back, up to
a small quota per player (lichess's lag compensation). Out-of-turn actions that arrive
within ``race_window`` of each other are a race: they are applied in the order of their
compensated arrival, ties by a tie-break drawn from the table's seed. See the "Time"
section of docs/server.md.
"""

from __future__ import annotations

import asyncio
import enum
import random
import statistics
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..timers import Key

#: The relaxed pace gives every timer three times the rule's length.
RELAXED_FACTOR = 3.0
#: At the untimed pace a reaction window (a deadline while the game waits for nobody)
#: stays open at least this long, so the game cannot stall; there is no move timer.
UNTIMED_WINDOW = 10.0


class Pace(enum.StrEnum):
    """How fast a table plays, chosen by its creator."""

    RULES = "rules"      # the rule's times (Hood Politix: 3 s per move)
    RELAXED = "relaxed"  # every time three times as long, for learners
    UNTIMED = "untimed"  # no move timer; reaction windows get a generous fixed time

    @classmethod
    def parse(cls, value: Any) -> Pace:
        """The pace a request names (``None``: the rule's times); ``ValueError`` else."""
        if value is None:
            return cls.RULES
        if isinstance(value, str) and value in cls._value2member_map_:
            return cls(value)
        raise ValueError(f"unknown pace {value!r}")

    def length(self, seconds: float, move_timer: bool) -> float | None:
        """The length of a timer that the rules give ``seconds``, at this pace; None when
        it does not run at all. ``move_timer``: the game waits for a seat (it is that
        seat's clock), else it is a reaction window that only time closes."""
        if self is Pace.RULES:
            return seconds
        if self is Pace.RELAXED:
            return seconds * RELAXED_FACTOR
        return None if move_timer else max(seconds, UNTIMED_WINDOW)


class LagMeter:
    """The network delay of one connection: half the round trip of the server's pings,
    the median of the last few (one slow trip does not count for much).

    The server sends ``{"type": "ping", "id": n}`` and times the client's
    ``{"type": "pong", "id": n}`` on its own clock; a pong for a ping never sent, or
    sent twice, is ignored. A client that holds its pongs back looks slower than it is,
    but its credit never exceeds its quota (``LagQuota``)."""

    #: Round trips kept, and pings waiting for their pong.
    SAMPLES = 5
    OUTSTANDING = 8

    def __init__(self) -> None:
        self._next_id = 0
        self._sent: OrderedDict[int, float] = OrderedDict()
        self._trips: deque[float] = deque(maxlen=self.SAMPLES)
        #: The handle of the next ping (the table schedules them).
        self.timer: asyncio.TimerHandle | None = None

    def ping(self, now: float) -> int:
        """A new ping sent at ``now``: its id."""
        self._next_id += 1
        self._sent[self._next_id] = now
        while len(self._sent) > self.OUTSTANDING:
            self._sent.popitem(last=False)
        return self._next_id

    def pong(self, ping_id: Any, now: float) -> bool:
        """The pong of ``ping_id`` arrived at ``now``; False if no such ping waits."""
        if not isinstance(ping_id, int) or isinstance(ping_id, bool):
            return False
        sent = self._sent.pop(ping_id, None)
        if sent is None:
            return False
        self._trips.append(max(0.0, now - sent))
        return True

    def lag(self) -> float:
        """The one-way delay (seconds): half the median round trip; 0 before any pong."""
        return statistics.median(self._trips) / 2 if self._trips else 0.0

    def stop(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None


@dataclass
class LagQuota:
    """A player's allowance for network delay (lichess): the credit for one message is
    ``min(measured lag, quota)``; each of the player's actions spends its credit and adds
    ``gain``, and the quota never exceeds ``cap``."""

    gain: float
    cap: float
    value: float

    def credit(self, lag: float) -> float:
        return max(0.0, min(lag, self.value))

    def spend(self, credit: float) -> None:
        self.value = min(self.cap, max(0.0, self.value - credit) + self.gain)


class EntryKind(enum.IntEnum):
    """What contends in a race; at the same compensated moment an action comes first
    (a deadline that expires inside the window loses to an action that was in time)."""

    ACTION = 0
    DEADLINE = 1


@dataclass
class Entry:
    """One contender: a player's or a bot's action, or a deadline that passed."""

    kind: EntryKind
    #: When it arrived (loop time); for a deadline, the moment it passed.
    arrival: float
    #: The credit for network delay (seconds, already capped by the quota).
    credit: float = 0.0
    seat: int = -1
    action: int = -1
    #: A deadline's timer key.
    key: Key | None = None
    #: The client's message id (as text) and as sent, and how to acknowledge it.
    client_id: str | None = None
    ack: Callable[[int], None] | None = None
    #: A bot's action (a refusal is logged, not sent).
    bot: bool = False
    #: A player's action: the connection it came on (for the error's language) and its
    #: message id as sent.
    sender: Any = None
    sent_id: Any = None
    #: The outcome for the sender: an error message, or None when applied.
    done: asyncio.Future[dict[str, Any] | None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future())

    def compensated_ms(self) -> int:
        """The arrival, less the credit, in whole milliseconds (a network's resolution)."""
        return round((self.arrival - self.credit) * 1000)


@dataclass
class RaceWindow:
    """Contenders held together until ``close`` (loop time), then applied in order."""

    close: float
    entries: list[Entry] = field(default_factory=list)
    timer: asyncio.TimerHandle | None = None

    def ordered(self, rng: random.Random) -> list[Entry]:
        """By compensated arrival, actions before deadlines, then by a tie-break drawn
        from ``rng`` (the table's seed), one draw per entry in the order they came."""
        draws = [rng.random() for _ in self.entries]
        order = sorted(range(len(self.entries)), key=lambda i: (
            self.entries[i].compensated_ms(), self.entries[i].kind, draws[i]))
        return [self.entries[i] for i in order]


__all__ = ["RELAXED_FACTOR", "UNTIMED_WINDOW", "Entry", "EntryKind", "LagMeter", "LagQuota",
           "Pace", "RaceWindow"]
