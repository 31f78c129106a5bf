"""The terminal picture of a President view."""

from __future__ import annotations

from typing import Any

from .state import ROLE_NAMES


def render(view: dict[str, Any]) -> str:
    seat = view.get("seat")
    pile = view["pile"]
    lines = [f"Round {view['round']}" + ("   ** REVOLUTION: 3 is high **" if view["revolution"]
                                          else "")]
    for s, (score, size) in enumerate(zip(view["scores"], view["hand_sizes"], strict=True)):
        role = view["roles"].get(str(s))
        tags = []
        if role:
            tags.append(ROLE_NAMES[role])
        if s in view["finished"]:
            tags.append(f"out #{view['finished'].index(s) + 1}")
        if s in pile["passed"]:
            tags.append("passed")
        if s in view["to_act"]:
            tags.append("<- to act")
        who = "you" if s == seat else f"seat {s}"
        lines.append(f"  {who:>7}: {size:2d} cards, {score:4d} points  {' '.join(tags)}")
    if pile["size"]:
        lines.append(f"Pile: sets of {pile['size']}, top {' '.join(pile['top'])} "
                     f"(by seat {pile['owner']})")
    else:
        lines.append("Pile: empty (lead any set)")
    for step in view["exchange"]:
        lines.append(f"Exchange: seat {step['from']} gives {step['count']} to seat {step['to']}")
    if seat is not None:
        lines.append("Your hand: " + " ".join(view["hand"]))
        if view["received"]:
            lines.append("Received this round: " + " ".join(view["received"]))
    return "\n".join(lines)
