"""Card representation shared by every game: integer card ids, bitmask hands.

A hand (or any set of distinct cards) is a Python ``int`` whose bit ``c`` is set
when card ``c`` is in it: membership, adding and removing are single operations,
a copy is free, and ``mask.bit_count()`` is the size. Games with duplicate cards
(two Purple 4s) give each physical card its own id.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final

from mypy_extensions import mypyc_attr

from .game import ConfigError


def bit(card: int) -> int:
    return 1 << card


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """Shuffle ``cards`` in place exactly as ``rng.shuffle(cards)`` does: for a plain
    ``random.Random``, CPython's Fisher-Yates from the last place down, each index drawn
    by rejection from ``getrandbits`` (``Random._randbelow``), so the same generator gives
    the same order and is left in the same state. Written out because ``random.shuffle``
    is Python code with two calls per card: this loop costs half of it in the pure build
    and a quarter compiled (100 cards)."""
    if type(rng) is not random.Random:
        # a subclass may draw otherwise: OpenSpiel's ``ChanceRandom`` turns a shuffle into
        # chance nodes, and one overriding ``random()`` makes CPython draw without bits
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def mask_of(cards: Sequence[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _byte_tables(label: Callable[[int], Any], size: int) -> tuple[tuple[tuple[Any, ...], ...], ...]:
    """``t[k][b]``: the labels of the cards of byte value ``b`` at byte ``k`` of a mask
    (card ids below ``size``), lowest first; masks are read eight cards at a time."""
    return tuple(tuple(tuple(label(8 * k + i) for i in range(8) if b >> i & 1 and 8 * k + i < size)
                       for b in range(256))
                 for k in range((size + 7) // 8))


#: ``_BYTE_CARDS[k][b]``: the card ids of byte value ``b`` at byte ``k`` of a mask.
_BYTE_CARDS: Final = _byte_tables(int, 128)
#: ``SEATS_OF[m]``: the seats of a seat mask (bit ``s`` set for seat ``s``, up to 8 seats),
#: ascending: games that keep sets of seats as masks answer ``out_of_turn`` from it.
SEATS_OF: Final[tuple[tuple[int, ...], ...]] = _BYTE_CARDS[0]


def cards_of(mask: int) -> list[int]:
    """The card ids in ``mask``, ascending.

    Eight cards at a time from a table (a determinisation lists ~40 unseen cards on
    every search iteration; this is 6x faster than one bit at a time)."""
    out: list[int] = []
    k = 0
    while mask:
        if k == 16:  # beyond the table (more than 128 card ids): one bit at a time
            base = 128
            while mask:
                low = mask & -mask
                out.append(base + low.bit_length() - 1)
                mask ^= low
            break
        if mask & 255:
            out += _BYTE_CARDS[k][mask & 255]
        mask >>= 8
        k += 1
    return out


def deal_masks(cards: list[int], need: Sequence[int], rng: random.Random) -> list[int]:
    """Deal ``need[p]`` cards of ``cards`` at random to each ``p``, as hand masks.

    A partial Fisher-Yates shuffle (``random()`` per card is about three times cheaper
    than ``shuffle``'s ``randbelow``; determinisation deals on every search iteration):
    afterwards ``cards[:sum(need)]`` are the dealt cards and ``cards[sum(need):]`` the
    rest, in an order not to be relied on."""
    last = len(cards)
    if sum(need) > last:
        raise ValueError(f"cannot deal {sum(need)} cards from {last}")
    random_ = rng.random
    hands = []
    i = 0
    for k in need:
        m = 0
        if i + k == last:  # the rest of the cards: nothing left to choose
            for c in cards[i:]:
                m |= 1 << c
            i = last
        else:
            for _ in range(k):
                j = i + int(random_() * (last - i))
                c = cards[j]
                cards[j] = cards[i]
                cards[i] = c
                m |= 1 << c
                i += 1
        hands.append(m)
    return hands


def iter_cards(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def lowest(mask: int) -> int:
    """The lowest card id in a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def code_lister(names: Sequence[str]) -> Callable[[int], list[str]]:
    """A function from a card mask to its cards' codes, lowest id first.

    It looks up eight cards at a time (views list hands on every call, so this is hot).
    ``names`` gives each card id's code; duplicates may share one.
    """
    tables = _byte_tables(names.__getitem__, len(names))

    def codes(mask: int) -> list[str]:
        out: list[str] = []
        k = 0
        while mask:
            if mask & 255:
                out.extend(tables[k][mask & 255])
            mask >>= 8
            k += 1
        return out

    return codes


# Subclassed by the OpenSpiel wrapper, which stays Python (``openspiel.chance``: its
# shuffles become chance nodes): a compiled class refuses interpreted subclasses unless told.
@mypyc_attr(allow_interpreted_subclasses=True)
class Shuffler:
    """All of a game's chance: stacked orders first, then the seeded generator.

    Stacked orders (from a test or a replay) replace shuffles one by one, so any
    scenario can be dealt exactly; later shuffles fall back to ``rng``. An order
    may name only the top cards: the others follow in ascending id order.
    """

    __slots__ = ("rng", "stacked")

    def __init__(self, rng: random.Random, stacked: list[list[int]] | None = None) -> None:
        self.rng = rng
        self.stacked = list(stacked or [])

    def shuffled(self, cards: Sequence[int]) -> list[int]:
        """A new order of ``cards``, top card first."""
        if self.stacked:
            order = self.stacked.pop(0)
            given = set(order)
            extra = sorted(given - set(cards))
            if extra or len(given) != len(order):
                raise ConfigError(
                    "stacked deck must name each card to shuffle at most once "
                    f"({len(order)} given, {len(cards)} to shuffle; unexpected ids {extra[:5]})"
                )
            # A partial order gives the top cards; the rest follow in id order.
            return list(order) + sorted(c for c in cards if c not in given)
        order = list(cards)
        shuffle(self.rng, order)
        return order

    def seat(self, chosen: int, num_players: int) -> int:
        """The seat a rule option names (who deals or starts), or a random seat for -1."""
        return chosen if chosen >= 0 else self.rng.randrange(num_players)

    def copy(self) -> Shuffler:
        # ``Random()`` would first seed itself from the OS (most of a copy's cost) only
        # for ``setstate`` to replace it.
        rng = random.Random.__new__(random.Random)
        rng.setstate(self.rng.getstate())
        return Shuffler(rng, [list(o) for o in self.stacked])

    def reseeded(self, rng: random.Random) -> Shuffler:
        """A shuffler for a determinised copy: no stacked orders, and its future chance
        drawn from ``rng`` itself. The searcher's own generator is as unknown to the
        seat's future as a fresh one, and sharing it saves seeding a new generator
        (about 4 µs, 3% of a Hood Politix simulation)."""
        return Shuffler(rng)
