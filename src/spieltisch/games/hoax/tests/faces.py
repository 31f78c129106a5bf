"""What HOAX's browser module (``client.js``) draws, for the browser suite
(``tests/browser/test_cards.py`` finds this module through the registry): the secret
identity as a card with its name (and its original one), the others' identities as
backs, every seat's and the bank's chips as tokens."""

from __future__ import annotations

from typing import Any

from ..cards import IDENTITY_NAMES, IDENTITY_ORIGINAL

WORDS = {"baron": "Baron", "monk": "Monk", "judge": "Judge", "merchant": "Merchant",
         "magician": "Magician", "thief": "Thief", "farmer": "Farmer"}
CHIPS = ("gold", "wine", "grain")


def check_face(code: str, face: dict[str, Any]) -> None:
    """"Monk (Mönch)": the identity's name and, but for the Baron, its original one."""
    i = IDENTITY_NAMES.index(code)
    assert WORDS[code] in face["text"]
    if code != "baron":
        assert f"({IDENTITY_ORIGINAL[i]})" in face["text"]
        assert face["label"] == f"{WORDS[code]} ({IDENTITY_ORIGINAL[i]})"


def hand(view: dict[str, Any]) -> list[str]:
    """The seat's own identity, face up."""
    return [view["identity"]]


def counts(view: dict[str, Any]) -> None:
    """No fans: each identity is one card (``check_table`` counts the backs)."""
    return None


def tokens(chips: dict[str, int]) -> list[list[str]]:
    """Chips as the page's tokens: class, spoken count, shown count."""
    return [[f"chip-{c}", f"{chips[c]} {c}", str(chips[c])] for c in CHIPS]


def check_table(seen: dict[str, Any], view: dict[str, Any], me: int) -> None:
    """Each other seat: one back while its identity is in the round and unrevealed, its
    loose chips as tokens; the bank's chips as tokens."""
    for s in seen["seats"]:
        if s["seat"] == me:
            continue
        record = view["seats"][s["seat"]]
        assert s["backs"] == (1 if record.get("in_round") and not record.get("revealed") else 0)
        assert s["tokens"] == tokens(record["loose"])
    assert seen["bank"] == tokens(view["bank"])
