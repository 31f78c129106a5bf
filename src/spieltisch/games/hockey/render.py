"""The terminal picture of a Hockey view."""

from __future__ import annotations

from ...core.game import Json
from .cards import CODES, SYMBOLS

_SYMBOL_OF = dict(zip(CODES, SYMBOLS, strict=True))


def symbols(codes: list[str]) -> str:
    return " ".join(_SYMBOL_OF[c] for c in codes) or "—"


def render(view: dict[str, Json]) -> str:
    seat = view.get("seat")

    def who(s: int | None) -> str:
        if s is None:
            return "nobody"
        if seat is None:
            return f"seat {s}"
        return "you" if s == seat else "opponent"

    period = view["period"]
    kind = f"overtime period {period}" if view["overtime"] else f"period {period} of 3"
    goals = view["goals"]
    if seat is None:
        score = f"seat 0 {goals[0]} – seat 1 {goals[1]}"
    else:
        score = f"you {goals[seat]} – opponent {goals[1 - seat]}"
    lines = [
        f"Hockey — {kind}, deal {view['deal']} of {view['deals_in_period']}, "
        f"dealer: {who(view['dealer'])}",
        f"Goals: {score}",
        f"Breakaway: {who(view['breakaway'])}",
    ]
    pile = view["pile"]
    top = _SYMBOL_OF[view["top"]] if view["top"] else "—"
    recent = symbols(pile[-8:])
    more = f"… ({len(pile)} cards) " if len(pile) > 8 else ""
    lines.append(f"Pile: {more}{recent}   top: {top}")
    counts = view["hand_counts"]
    if seat is None:
        lines.append(f"Stock: {view['stock']} cards; hands: {counts[0]} and {counts[1]} cards")
    else:
        lines.append(f"Stock: {view['stock']} cards; opponent holds {counts[1 - seat]} cards")
        lines.append(f"Your hand: {symbols(view['hand'])}")
    if view.get("winner") is not None:
        lines.append(f"Game over: {who(view['winner'])} won.")
    elif view.get("to_act"):
        lines.append(f"To play: {who(view['to_act'][0])}")
    return "\n".join(lines)
