"""The terminal picture of a Hood Politix view (original card names)."""

from __future__ import annotations

from typing import Any

from . import cards as C


def card_name(code: str) -> str:
    k = C.KIND_INDEX.get(code.upper())
    return C.KIND_NAMES[k] if k is not None else code


def render(view: dict[str, Any]) -> str:
    seat = view.get("seat")
    lines = [f"Round {view['round']} (at least {view['min_rounds']}), dealer seat "
             f"{view['dealer']}, {view['direction']}"]
    pause = view.get("pause")
    if pause:
        lines.append(f"** PAUSED: {pause['kind'].upper()} (seat {pause['seat']}) **")
    for s, size in enumerate(view["hand_sizes"]):
        tags = []
        status = view["status"][s]
        if status == "finished":
            place = view["finish_order"].index(s) + 1 if s in view["finish_order"] else "?"
            tags.append(f"out #{place}")
        elif status == "pending":
            tags.append("pending finish")
        if s in view["to_act"]:
            tags.append("<- to act")
        who = "you" if s == seat else f"seat {s}"
        lines.append(f"  {who:>7}: {size:2d} cards, {view['scores'][s]:3d} points  "
                     + " ".join(tags))
    lines.append(f"Top: {card_name(view['top'])} — colour "
                 f"{C.COLOUR_NAMES[C.COLOURS.index(view['colour'])]}; "
                 f"draw pile {view['draw_pile']}")
    if view["stack"]:
        st = view["stack"]
        lines.append(f"Stack: {st['amount']} cards for seat {st['target']}"
                     + (" (In Yo Face: no Deuce)" if st["in_yo_face"] else ""))
    if view["slap_by"] is not None:
        lines.append(f"Pimp Slap by seat {view['slap_by']}: answer Payback / 5-0 or accept")
    if view["deal"]:
        lines.append(f"Deal by seat {view['deal']['by']} on seat {view['deal']['target']}: "
                     "block with 5-0 or accept")
    if view["snitch"]:
        lines.append(f"Snitch by seat {view['snitch']['by']} on seat {view['snitch']['target']}")
    if view.get("mic_drop_window"):
        w = view["mic_drop_window"]
        lines.append(f"Seat {w['finisher']} went out WITHOUT Mic Drop: accuse or pass")
    for f in view["open_faults"]:
        lines.append(f"Open fault: seat {f['seat']} {f['fault']}")
    if view["mic_check_due"] is not None:
        lines.append(f"Seat {view['mic_check_due']} has one card: Mic Check?")
    for s, cards in view["revealed"].items():
        lines.append(f"Revealed in seat {s}'s hand: " + ", ".join(map(card_name, cards)))
    if seat is not None:
        for s, cards in view.get("known", {}).items():
            lines.append(f"You know seat {s} holds: " + ", ".join(map(card_name, cards)))
        if view.get("snitch_look"):
            lines.append("Snitch look: " + ", ".join(map(card_name, view["snitch_look"])))
        if view.get("snitch_take"):
            lines.append(f"You take their {card_name(view['snitch_take'])}: give one of "
                         "your cards for it")
        lines.append("Your hand: " + "  ".join(f"{c}" for c in view["hand"]))
    return "\n".join(lines)
