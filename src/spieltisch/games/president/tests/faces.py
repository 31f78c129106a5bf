"""What President's browser module (``client.js``) draws, for the browser suite
(``tests/browser/test_cards.py`` finds this module through the registry): French cards
and Jokers named and printed as the card, each hand's size, the pile's top play."""

from __future__ import annotations

from collections import Counter
from typing import Any

SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANKS = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}


def check_face(code: str, face: dict[str, Any]) -> None:
    """"Queen of hearts": the index twice, J, Q and K once more in the middle;
    "Joker 1" with its number."""
    if code.startswith("JK"):
        name, printed = f"Joker {code[2:]}", ["Joker", code[2:]]
    else:
        rank, suit = code[:-1], code[-1]
        name = f"{RANKS.get(rank, rank)} of {SUITS[suit]}"
        printed = [rank, rank] + ([rank] if rank in "JQK" else [])
    assert face["label"] == name
    assert Counter(printed) <= Counter(face["text"]), (code, face["text"])


def ready(snapshot: dict[str, Any]) -> bool:
    """A play lies on the pile (the table is checked from then on)."""
    return bool(snapshot["view"].get("pile", {}).get("top"))


def hand(view: dict[str, Any]) -> list[str]:
    """The cards drawn face up in the seat's hand."""
    return list(view["hand"])


def counts(view: dict[str, Any]) -> list[int]:
    """Each seat's hand size, drawn as a fan of backs."""
    return list(view["hand_sizes"])


def check_table(seen: dict[str, Any], view: dict[str, Any], me: int) -> None:
    """The pile's top play, card by card."""
    assert Counter(c["code"] for c in seen["tableCards"]) == Counter(view["pile"]["top"])
