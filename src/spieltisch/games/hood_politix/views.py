"""What each seat may see of a Hood Politix state (§3 state, hidden hands): the public view,
a seat's view (its hand, the cards it knows of others, its Snitch look) and the full view
for replays. Built from the state's fields alone; no caches to keep."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ...core.cards import cards_of
from . import cards as C
from .cards import KIND_CODES, codes
from .terms import (
    DEAL_R,
    MICDROP_WAIT,
    OVER,
    PAUSE_NAMES,
    SLAP_R,
    SNITCH_R,
    STACK,
    STATUS_NAMES,
)

if TYPE_CHECKING:
    from .state import HoodPolitixState

_MIC_CHECK: Final = C.FAULT_CODES[C.F_MIC_CHECK]
_MIC_DROP: Final = C.FAULT_CODES[C.F_MIC_DROP]
_TIMEOUT: Final = C.FAULT_CODES[C.F_TIMEOUT]


def public_view(s: HoodPolitixState) -> dict[str, Any]:
    """What everyone sees: piles, hand sizes, the phase and its pending penalty, open faults
    and revealed cards (§3, §5.2)."""
    phase = s.phase
    v: dict[str, Any] = {
        "game": "hood_politix",
        "round": s.round,
        "min_rounds": s.game.min_rounds,
        "dealer": s.dealer,
        "pause": None if not s.pause else {"kind": PAUSE_NAMES[s.pause],
                                           "seat": s.pause_seat},
        "due": s.due if phase != OVER else None,
        "scores": list(s.scores),
        "hand_sizes": [h.bit_count() for h in s.hands],
        "status": [STATUS_NAMES[x] for x in s.status],
        "finish_order": list(s.finish_order),
        "direction": "clockwise" if s.direction == 1 else "counter-clockwise",
        "top": KIND_CODES[s.top],
        "colour": C.COLOURS[s.colour],
        "draw_pile": len(s.draw),
        "discard_pile": len(s.discard),
        "buried": _buried(s),
        "stack": ({"amount": s.stack, "in_yo_face": s.stack_iyf, "target": s.due}
                  if phase == STACK else None),
        "pending_finish": s.pending if s.pending >= 0 else None,
        "slap_by": s.by if phase == SLAP_R else None,
        "deal": {"by": s.by, "target": s.due} if phase == DEAL_R else None,
        "snitch": {"by": s.by, "target": s.target} if phase == SNITCH_R else None,
        "mic_check_due": s.mic_duty if s.mic_duty >= 0 else None,
        "open_faults": open_faults(s),
        "timer_expired": s.expired,
        "politix_left": list(s.politix_left),
        "revealed": _in_hands(s, s.public, -1),
    }
    if phase == MICDROP_WAIT:
        v["mic_drop_window"] = {"finisher": s.drop_seat, "remaining": s.wait_seat}
    return v


def _buried(s: HoodPolitixState) -> list[str]:
    """The bottom cards of the draw pile everyone saw (§2.4)."""
    m = 0
    for c in s.draw[:s.buried]:
        m |= 1 << c
    return codes(m)


def _in_hands(s: HoodPolitixState, cards: int, other_than: int) -> dict[str, list[str]]:
    """The cards of the mask ``cards`` by the hand they are in (but ``other_than``'s)."""
    out: dict[str, list[str]] = {}
    if cards:
        for p, hand in enumerate(s.hands):
            if p != other_than and hand & cards:
                out[str(p)] = codes(hand & cards)
    return out


def open_faults(s: HoodPolitixState) -> list[dict[str, Any]]:
    """The faults anyone may accuse now (§5.2): missed Mic Checks and Mic Drop, a timeout."""
    out = [{"seat": p, "fault": _MIC_CHECK} for p in range(s.n) if s.mic_open >> p & 1]
    if s.drop_seat >= 0:
        out.append({"seat": s.drop_seat, "fault": _MIC_DROP})
    if s.expired and not s.pause and s.phase not in (MICDROP_WAIT, OVER):
        out.append({"seat": s.due, "fault": _TIMEOUT})
    return out


def seat_view(s: HoodPolitixState, seat: int | None) -> dict[str, Any]:
    """The public view plus what ``seat`` alone knows: its hand, cards it saw in other hands
    (Deal, Snitch, §4) and, as the Snitch player, the target's hand and its pending take."""
    v = public_view(s)
    if seat is not None:
        v["hand"] = codes(s.hands[seat])
        v["known"] = _in_hands(s, s.seen[seat], seat)
        if s.phase == SNITCH_R and seat == s.by:
            v["snitch_look"] = codes(s.hands[s.target])
            take = s.snitch_take
            v["snitch_take"] = KIND_CODES[take] if take >= 0 else None
    return v


def full_view(s: HoodPolitixState) -> dict[str, Any]:
    """Everything, for replays and debugging: every hand and both piles in order."""
    v = public_view(s)
    v["hands"] = [codes(h) for h in s.hands]
    v["draw_order"] = [C.CARD_CODES[c] for c in reversed(s.draw)]
    v["discard"] = [C.CARD_CODES[c] for c in s.discard]
    v["seen"] = [C.CARD_CODES[c] for m in s.knowledge()[0] for c in cards_of(m)]
    v["timer_since"] = s.timer_since
    v["pause_since"] = s.pause_since
    v["counts"] = list(s.counts)
    return v
