"""Hockey's cards: one standard 52-card deck; only the rank matters.

Card id = ``rank * 4 + suit`` with ranks ``A 2 3 4 5 6 7 8 9 10 J Q K`` (0..12) and
suits ``C D H S`` (0..3), so ``rank = id >> 2``. Codes are rank + suit letter
(``"10H"``, ``"JS"``, ``"AC"``); the terminal shows suit symbols (``10♥``).

The action space is the card ids: action ``c`` is "play card ``c``".
"""

from __future__ import annotations

from typing import Final

RANKS: Final[tuple[str, ...]] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: Final[tuple[str, ...]] = ("C", "D", "H", "S")
SUIT_SYMBOLS: Final[tuple[str, ...]] = ("♣", "♦", "♥", "♠")
RANK_NAMES: Final[tuple[str, ...]] = ("Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10",
                                      "Jack", "Queen", "King")

NUM_RANKS: Final = 13
NUM_CARDS: Final = 52
#: The Jack's rank index: a Jack always makes a breakaway and never scores.
JACK: Final = 10

#: ``CODES[c]`` is the stable code of card ``c`` (``"10H"``).
CODES: Final[tuple[str, ...]] = tuple(r + s for r in RANKS for s in SUITS)
#: ``SYMBOLS[c]`` is the terminal form of card ``c`` (``"10♥"``).
SYMBOLS: Final[tuple[str, ...]] = tuple(r + s for r in RANKS for s in SUIT_SYMBOLS)
#: ``RANK[c]`` is the rank index of card ``c``.
RANK: Final[tuple[int, ...]] = tuple(c >> 2 for c in range(NUM_CARDS))
#: ``RANK_MASK[r]`` holds the four cards of rank ``r``.
RANK_MASK: Final[tuple[int, ...]] = tuple(0xF << (4 * r) for r in range(NUM_RANKS))
#: ``BIT[c]`` is ``1 << c``.
BIT: Final[tuple[int, ...]] = tuple(1 << c for c in range(NUM_CARDS))
FULL_DECK: Final[tuple[int, ...]] = tuple(range(NUM_CARDS))
ALL_CARDS_MASK: Final = (1 << NUM_CARDS) - 1

#: Deal schedule per period, cards each per deal (§2): regular periods 1–3 and overtime.
REGULAR_DEALS: Final[tuple[int, ...]] = (5, 5, 5, 5, 6)
OVERTIME_DEALS: Final[tuple[int, ...]] = (4, 4, 4, 4, 4, 6)
REGULAR_PERIODS: Final = 3
#: The research variant's deck (``HockeyGame.research``, rules.md "Research variant"):
#: its first cards, JC JD QC QD KC KD AC AD, then the hearts and spades in that order.
RESEARCH_ORDER: Final[tuple[int, ...]] = (
    tuple(r * 4 + s for r in (10, 11, 12, 0) for s in (0, 1))
    + tuple(r * 4 + s for r in (10, 11, 12, 0) for s in (2, 3)))

# Hand -> list of card ids, by table lookup on four 13-bit slices of the mask (one
# slice per suit-interleaved quarter of the deck): faster than a bit loop.
_CHUNK: Final = 13
_CHUNK_MASK: Final = (1 << _CHUNK) - 1


def _chunk_table(base: int) -> tuple[tuple[int, ...], ...]:
    """``table[m]`` = the card ids ``base + i`` for the bits ``i`` of ``m`` (13 bits)."""
    table: list[tuple[int, ...]] = [()]
    for i in range(_CHUNK):
        table += [t + (base + i,) for t in table]
    return tuple(table)


_CHUNK_CARDS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    _chunk_table(base) for base in (0, 13, 26, 39))


#: The same slices by code: a hand's codes without a lookup per card (each deal's event).
_CHUNK_CODES: Final[tuple[tuple[tuple[str, ...], ...], ...]] = tuple(
    tuple(tuple(CODES[c] for c in cards) for cards in table) for table in _CHUNK_CARDS)


def cards_in(mask: int) -> list[int]:
    """The card ids in ``mask``, ascending (table-driven: the benchmark hot path)."""
    t = _CHUNK_CARDS
    m = _CHUNK_MASK
    return [*t[0][mask & m], *t[1][mask >> 13 & m], *t[2][mask >> 26 & m], *t[3][mask >> 39]]


def codes_in(mask: int) -> list[str]:
    """The codes of the cards in ``mask``, in ``cards_in``'s order."""
    t = _CHUNK_CODES
    m = _CHUNK_MASK
    return [*t[0][mask & m], *t[1][mask >> 13 & m], *t[2][mask >> 26 & m], *t[3][mask >> 39]]
