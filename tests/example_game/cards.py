"""Mudslide's cards (§1): 32 cards, id = ``rank * 4 + suit``, ranks ``7 8 9 10 J Q K A``
and suits ``C D H S``; codes are rank + suit letter (``"10H"``)."""

from __future__ import annotations

RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
NUM_CARDS = 32
#: ``CODES[c]`` is card ``c``'s code (``"10H"``), ``SYMBOLS[c]`` how players read it.
CODES = tuple(r + s for r in RANKS for s in SUITS)
SYMBOLS = tuple(r + s for r in RANKS for s in SUIT_SYMBOLS)
HAND_SIZE = 5


def matches(card: int, top: int) -> bool:
    """§4: the same rank or the same suit as the top card."""
    return card >> 2 == top >> 2 or card & 3 == top & 3
