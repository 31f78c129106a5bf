"""What Hockey's browser module (``client.js``) draws, for the browser suite
(``tests/browser/test_cards.py`` finds this module through the registry): French cards
named and printed as the card, the two hands' counts, the pile's last cards and the stock."""

from __future__ import annotations

from collections import Counter
from typing import Any

SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANKS = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}


def check_face(code: str, face: dict[str, Any]) -> None:
    """"Queen of hearts": the index twice, J, Q and K once more in the middle."""
    rank, suit = code[:-1], code[-1]
    assert face["label"] == f"{RANKS.get(rank, rank)} of {SUITS[suit]}"
    printed = [rank, rank] + ([rank] if rank in "JQK" else [])
    assert Counter(printed) <= Counter(face["text"]), (code, face["text"])


def ready(snapshot: dict[str, Any]) -> bool:
    """A card lies on the pile (the table is checked from then on)."""
    return snapshot["view"].get("top") is not None


def hand(view: dict[str, Any]) -> list[str]:
    """The cards drawn face up in the seat's hand."""
    return list(view["hand"])


def counts(view: dict[str, Any]) -> list[int]:
    """Each seat's hand size, drawn as a fan of backs."""
    return list(view["hand_counts"])


def check_table(seen: dict[str, Any], view: dict[str, Any], me: int) -> None:
    """The top card first, then up to six cards below it, newest first; the stock as a
    deck of one back per eight cards (at most three)."""
    on_table = [c["code"] for c in seen["tableCards"]]
    assert on_table[0] == view["top"]
    assert on_table[1:] == view["pile"][-7:-1][::-1]
    n = view["stock"]
    words = f"{n} {'card' if n == 1 else 'cards'} still to deal"
    assert seen["decks"] == [{"count": n, "label": words, "backs": min(3, -(-n // 8))}]
