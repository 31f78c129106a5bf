"""How fast a bot answers at a live table: like a person, not like a machine.

A person needs a moment to see a card before playing on it, and a moment longer to
decide to do something out of turn than to see there is nothing to do. So a bot's
decision is applied only after a delay drawn per level (``TEMPI``) from a right-skewed
(triangular) distribution: ``act`` on its own turn, ``react`` for an out-of-turn move
(a throw-in, an accusation), ``glance`` for letting a chance pass. The bot thinks during
the delay, so a search bot is not slower for it; a thought that takes longer than the
delay is applied when it ends.

The floors keep every level slower than the credit for network delay a person gets
(``ServerConfig.lag_quota_cap``, 0.4 s) and every turn slower than 1.0 s, so a person who
reacts within a second can throw in before the next player plays (measured by
``benchmarks/realtime.py``). Each bot seat draws from its own generator, seeded from the
table's seed: the same table answers after the same delays.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum

from .levels import POLICY_LEVELS, Level, is_level


class Moment(Enum):
    """What a bot is about to do: the three delays of ``Tempo``."""

    ACT = "act"        # its own turn: the game waits for it alone
    REACT = "react"    # a move out of turn, or a vote every seat casts at once
    GLANCE = "glance"  # nothing: it lets the chance pass


@dataclass(frozen=True)
class Delay:
    """Seconds from ``low`` to ``high``, most often near ``mode`` (a person's reaction
    time is skewed: rarely much quicker than usual, now and then much slower)."""

    low: float
    mode: float
    high: float

    def draw(self, rng: random.Random) -> float:
        return rng.triangular(self.low, self.high, self.mode)


@dataclass(frozen=True)
class Tempo:
    """A level's delays."""

    act: Delay
    react: Delay
    glance: Delay

    def delay(self, moment: Moment) -> Delay:
        return {Moment.ACT: self.act, Moment.REACT: self.react,
                Moment.GLANCE: self.glance}[moment]


#: Per level, in seconds. Easy bots are the slowest; hard bots see and act quickest, but
#: never quicker than a person's lag credit (0.4 s), and no bot plays its turn within
#: 1.1 s of the card before it.
TEMPI: dict[Level, Tempo] = {
    Level.EASY: Tempo(act=Delay(1.4, 1.8, 2.6), react=Delay(1.0, 1.4, 2.2),
                      glance=Delay(0.5, 0.7, 1.0)),
    Level.MEDIUM: Tempo(act=Delay(1.2, 1.5, 2.2), react=Delay(0.7, 0.9, 1.4),
                        glance=Delay(0.4, 0.5, 0.8)),
    Level.HARD: Tempo(act=Delay(1.1, 1.3, 1.8), react=Delay(0.55, 0.75, 1.1),
                      glance=Delay(0.4, 0.5, 0.7)),
}
#: A bot given by spec rather than level ("ismcts:200"), and a substitute for a person
#: who left, answers at the medium level's pace.
DEFAULT_LEVEL = Level.MEDIUM


def level_of(spec: str | None) -> Level:
    """The level whose pace a seat's bot keeps: its own level, else the medium one (a
    policy level too: ``levels.POLICY_LEVELS``)."""
    return Level(spec) if spec is not None and is_level(spec) and spec not in POLICY_LEVELS \
        else DEFAULT_LEVEL


class BotClock:
    """One bot seat's delays: drawn from its level's ``Tempo`` by a generator of its own,
    times ``scale`` (``ServerConfig.bot_timing``: 1 = a person's pace, 0 = at once)."""

    def __init__(self, level: Level, seed: int, scale: float) -> None:
        self.tempo = TEMPI[level]
        self.rng = random.Random(seed)
        self.scale = scale

    def delay(self, moment: Moment) -> float:
        """The seconds before the bot's next answer of this kind shows."""
        if self.scale <= 0:
            return 0.0
        return self.tempo.delay(moment).draw(self.rng) * self.scale


__all__ = ["DEFAULT_LEVEL", "TEMPI", "BotClock", "Delay", "Moment", "Tempo", "level_of"]
