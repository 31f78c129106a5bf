"""What Pixmit's browser module (``client.js``) draws, for the browser suite
(``tests/browser/test_cards.py`` finds this module through the registry): each card with
its number, its name and its groups, each hand's size, the stack."""

from __future__ import annotations

from typing import Any

from ..cards import GROUPS, LISTED, NAMES


def check_face(code: str, face: dict[str, Any]) -> None:
    """"12 Name (groups)": the number, the name and every group the card is listed in."""
    texts = face["text"]
    name = NAMES[int(code) - 1]
    assert face["label"].startswith(f"{code} {name} (")
    assert str(int(code)) in texts
    assert name.replace(" ", "") in "".join(texts).replace(" ", ""), (code, texts)
    groups = [g for g, mask in zip(GROUPS, LISTED, strict=True) if mask >> (int(code) - 1) & 1]
    assert set(groups) <= set(texts), (code, groups, texts)
    for g in groups:
        assert g in face["label"]


def hand(view: dict[str, Any]) -> list[str]:
    """The cards drawn face up in the seat's hand."""
    return list(view["hand"])


def counts(view: dict[str, Any]) -> list[int]:
    """Each seat's hand size, drawn as a fan of backs."""
    return list(view["hand_sizes"])


def check_table(seen: dict[str, Any], view: dict[str, Any], me: int) -> None:
    """The stack as a deck with its size."""
    assert seen["decks"][0]["count"] == view["stack_size"]
    assert seen["decks"][0]["label"] == f"Stack: {view['stack_size']} cards"
