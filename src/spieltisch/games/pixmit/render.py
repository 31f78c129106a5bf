"""The terminal picture of a Pixmit view."""

from __future__ import annotations

from typing import Any

from .cards import CARD_CODES, NAMES

_NAME = dict(zip(CARD_CODES, NAMES, strict=True))


def _card(code: str) -> str:
    return f"{code} {_NAME[code]}"


def render(view: dict[str, Any]) -> str:
    lines = [f"Pixmit ({view['mode']}) · round {view['round']}/3 · "
             f"seat {view['active']} to play · phase {view['phase']}"]
    sizes = view["hand_sizes"]
    holder = view["holder_21"]
    for p, size in enumerate(sizes):
        marks = []
        if p == view.get("seat"):
            marks.append("you")
        if holder == p:
            marks.append("holds 21 Die Zerstörerin")
        if view["knowledge_used"][p]:
            marks.append("Wissen used")
        if view["creation_used"][p]:
            marks.append("Schöpfung used")
        extra = f" ({', '.join(marks)})" if marks else ""
        lines.append(f"  seat {p}: {size} cards, {view['vetoes'][p]} vetoes{extra}")
    where = "in the stack" if holder == "stack" else f"with seat {holder}"
    lines.append(f"  stack: {view['stack_size']} cards; card 21 is {where}")
    if "offer_target" in view:  # the active seat's private choice
        lines.append(f"  your offer goes to seat {view['offer_target']}: now choose the card(s)")
    offer = view.get("offer")
    if offer:
        claims = ", ".join(offer["claims"]) or "none yet"
        lines.append(f"  offer: seat {offer['from']} -> seat {offer['to']}, {offer['k']} "
                     f"card(s), announced: {claims}")
        if "cards" in offer:
            lines.append("    your offered cards: " + ", ".join(map(_card, offer["cards"])))
    if "hand" in view:
        lines.append(f"Your hand (best score now {view['score']}):")
        lines.extend(f"  {_card(code)}" for code in view["hand"])
        for k in [] if view.get("final") else view.get("known", []):
            where = f"seat {k['seat']}" if "seat" in k else \
                f"stack, {k['stack_from_top'] + 1}. from the top"
            lines.append(f"  you know: {_card(k['card'])} is at {where}")
    final = view.get("final")
    if final:
        lines.append("Final Auslegung:")
        for p, (hand, layout, score) in enumerate(
                zip(final["hands"], final["layouts"], final["scores"], strict=True)):
            units = "; ".join(f"{u['unit']} {' '.join(u['cards'])} = {u['points']}"
                              for u in layout) or "no unit"
            lines.append(f"  seat {p}: {score:4d}  [{' '.join(hand)}]  {units}")
        if final["caller"] >= 0:
            lines.append(f"  Pixmit called by seat {final['caller']} "
                         f"({', '.join(final['call_conditions'])})")
        if final["hunt"]:
            lines.append("  hunt: " + ", ".join(f"seat {p} drew {c}" for p, c in final["hunt"]))
        if final["annihilation_effect"]:
            lines.append("  Vernichtung: every opponent of the caller loses 5")
        r = final["result"]
        lines.append("  winner: " + ("shared" if r["winner"] is None else f"seat {r['winner']}"))
    return "\n".join(lines)
