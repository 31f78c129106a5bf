"""What Hood Politix's browser module (``client.js``) draws, for the browser suite
(``tests/browser/test_cards.py`` finds this module through the registry): number and
action cards named and printed as the card, each hand's size, the top card and the
draw pile."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

COLOURS = {"G": "Green", "O": "Orange", "P": "Purple", "Y": "Yellow"}
TYPES = {"DU": "Deuce", "BU": "Busted", "PB": "Payback", "50": "5-0", "IY": "In Yo Face",
         "PS": "Pimp Slap", "DL": "Deal", "SN": "Snitch"}


def check_face(code: str, face: dict[str, Any]) -> None:
    """"Green 7" with 7 in both corners and the middle; "Purple Busted" with its name
    (and +2 or +5 on the cards that make a player draw)."""
    rest = code[1:]
    if rest not in TYPES and not re.fullmatch(r"10|[1-9]", rest):
        rest = rest[:-1]  # the copy letter: "G7a"
    if rest in TYPES:
        name = f"{COLOURS[code[0]]} {TYPES[rest]}"
        printed = [TYPES[rest]] + (["+2"] if rest == "DU" else ["+5"] if rest == "IY" else [])
    else:
        name, printed = f"{COLOURS[code[0]]} {rest}", [rest, rest, rest]
    assert face["label"] == name
    assert Counter(printed) <= Counter(face["text"]), (code, face["text"])


def hand(view: dict[str, Any]) -> list[str]:
    """The cards drawn face up in the seat's hand."""
    return list(view["hand"])


def counts(view: dict[str, Any]) -> list[int]:
    """Each seat's hand size, drawn as a fan of backs."""
    return list(view["hand_sizes"])


def check_table(seen: dict[str, Any], view: dict[str, Any], me: int) -> None:
    """The top card first; the draw pile as a deck with its size."""
    assert seen["tableCards"][0]["code"] == view["top"]
    assert seen["decks"][0]["count"] == view["draw_pile"]
    assert seen["decks"][0]["label"] == f"Draw pile: {view['draw_pile']} cards"
