"""Readable descriptions of HOAX actions (the terminal's menu and the engine's reasons);
the picture of a view is the narrator's ``board`` (``narration.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import (
    CHIP_NAMES,
    CHIP_ORIGINAL,
    IDENTITY_NAMES,
    IDENTITY_ORIGINAL,
    K_ACCUSE,
    K_BUY,
    K_STEAL,
    K_TRADE,
)

if TYPE_CHECKING:
    from .state import HoaxGame


def ident(name: str) -> str:
    """``Baron``, ``Monk (monnik)``: the English name with the original beside it."""
    i = IDENTITY_NAMES.index(name)
    orig = IDENTITY_ORIGINAL[i]
    return name.capitalize() + ("" if orig == name else f" ({orig})")


def chip(name: str) -> str:
    return f"{name} ({CHIP_ORIGINAL[CHIP_NAMES.index(name)]})"


def describe(game: HoaxGame, action: int) -> str:
    T = game.table
    text = T.text(action)
    kind = T.kind[action]
    words = text.split()
    if words[0] in IDENTITY_NAMES and kind not in (K_TRADE, K_STEAL):
        return f"as {ident(words[0])}: {' '.join(words[1:])}"
    if kind == K_TRADE:
        q, t1, t2, m = T.p1[action], T.p2[action], T.p3[action], T.p4[action]
        partner = "the bank" if q == game.num_players else f"seat {q}"
        return (f"as Merchant (handelaar): trade {m} {chip(CHIP_NAMES[t1])} with {partner} "
                f"for {m} {chip(CHIP_NAMES[t2])}")
    if kind == K_STEAL:
        q, t, n, k = T.p1[action], T.p2[action], T.p3[action], T.p4[action]
        return (f"as Thief (dief): steal {n} {chip(CHIP_NAMES[t])} from seat {q}"
                + (f", {k} out of trios" if k else ""))
    if kind == K_BUY:
        return f"buy information about seat {T.p1[action]} ({T.p2[action]} trio(s))"
    if kind == K_ACCUSE:
        return f"accuse seat {T.p1[action]} of being the {ident(IDENTITY_NAMES[T.p2[action]])}"
    simple = {
        "doubt": "doubt the claim (\"jij bent geen …!\")",
        "vote doubt": "vote: doubt", "vote trust": "vote: no doubt",
        "protect": "as Magician (magiër): protect myself",
        "illegal": "as Baron: declare the action illegal",
        "trio": "build a trio (1 gold, 1 wine, 1 grain)",
        "close": "the reaction window closes",
    }
    if text in simple:
        return simple[text]
    if words[0] == "fine":
        return f"as Judge (rechter): fine the actor in {chip(words[1])}"
    if words[0] == "forgive":
        return f"as Monk (monnik): forgive the actor for one {chip(words[1])}"
    if words[0] == "cover":
        return f"cover {ident(words[1])}"
    if words[0] == "show":
        return "show as false: " + (", ".join(ident(w) for w in words[1:]) or "nothing")
    return text

