"""Chance as OpenSpiel sees it: every shuffle and random seat becomes chance nodes.

The engine draws all of its chance through the state's ``Shuffler``, which asks its
generator for two things only: ``shuffle(cards)`` (a new order of a deck or pile) and
``randrange(n)`` (a random seat, e.g. the first dealer). ``ChanceRandom`` is that
generator for the OpenSpiel wrapper: it answers from outcomes already chosen at chance
nodes and, when it has none left, raises ``NeedChance`` saying what it needs. The
wrapper applies each engine step to a copy of the state; a ``NeedChance`` discards the
copy and opens chance nodes (a shuffle is chosen card by card, top card first, each
remaining card equally likely: a uniform permutation; a seat is one node with each seat
equally likely). With the outcomes chosen, the step is applied again from the start.

The generator's plain ``random()`` stays a seeded pseudo-random source: only a
determinised Hood Politix state uses it (its draw pile's unordered top, see
``HoodPolitixState.determinise``), so in states made by ``resample_from_infostate``
those draws are sampled rather than explicit.
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence
from dataclasses import dataclass
from typing import Any

from ..core.cards import Shuffler
from ..core.game import State


@dataclass(frozen=True, slots=True)
class Need:
    """What a chance node chooses: the next card of a shuffle of ``cards`` (``seats`` 0),
    or a seat among ``seats``."""

    cards: tuple[int, ...] = ()
    seats: int = 0


class NeedChance(Exception):
    """The engine asked for chance that has not been chosen yet."""

    def __init__(self, need: Need) -> None:
        super().__init__(need)
        self.need = need


class ChanceRandom(random.Random):
    """A generator whose shuffles and seat draws are chosen outcomes, in order (each an
    order of card ids or a seat); its plain ``random()`` and ``getstate`` are those of
    ``base``, the seeded generator it stands in for."""

    def __init__(self, base: random.Random, outcomes: list[list[int] | int] | None = None
                 ) -> None:
        # No ``super().__init__()``: this generator's own state is never used (seeding it
        # from the OS would cost more than the whole step of a small game).
        self.base = base
        self.outcomes: list[list[int] | int] = outcomes if outcomes is not None else []
        self.used = 0
        #: True while another generator may use ``base`` too (copy it before drawing).
        self.shared = False

    def fork(self) -> ChanceRandom:
        """A generator for a copied state. It shares ``base`` until either of the two draws
        from it: only resampled Hood Politix states ever do, and copying a generator's
        state costs more than a Hockey step."""
        self.shared = True
        other = ChanceRandom(self.base)
        other.shared = True
        return other

    def random(self) -> float:
        if self.shared:
            own = random.Random.__new__(random.Random)
            own.setstate(self.base.getstate())
            self.base, self.shared = own, False
        return self.base.random()

    def getstate(self) -> tuple[Any, ...]:
        return self.base.getstate()

    def _next(self, need: Need) -> list[int] | int:
        if self.used == len(self.outcomes):
            raise NeedChance(need)
        outcome = self.outcomes[self.used]
        self.used += 1
        return outcome

    def shuffle(self, x: MutableSequence[int]) -> None:
        order = self._next(Need(cards=tuple(sorted(x))))
        assert isinstance(order, list) and sorted(order) == sorted(x), "chance out of step"
        x[:] = order

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        assert stop is None and step == 1, "the engine draws seats as randrange(n)"
        seat = self._next(Need(seats=start))
        assert isinstance(seat, int) and 0 <= seat < start, "chance out of step"
        return seat


class ChanceShuffler(Shuffler):
    """The shuffler of a wrapped engine state: its generator is a ``ChanceRandom``, and a
    copy (``State.clone``) forks it instead of copying a generator's state."""

    __slots__ = ()
    rng: ChanceRandom

    def copy(self) -> ChanceShuffler:
        return ChanceShuffler(self.rng.fork())

    @classmethod
    def install(cls, state: State) -> None:
        """Give ``state`` a ``ChanceShuffler`` over the generator it has (a fresh deal, a
        position read, a determinisation come with a plain ``Shuffler``)."""
        shuffler = state.shuffler
        if isinstance(shuffler, cls):
            return
        assert not shuffler.stacked, "stacked orders are not chance nodes"
        rng = shuffler.rng
        state.shuffler = cls(rng if isinstance(rng, ChanceRandom) else ChanceRandom(rng))


__all__ = ["ChanceRandom", "ChanceShuffler", "Need", "NeedChance"]
