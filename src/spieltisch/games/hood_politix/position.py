"""Hood Politix positions (``docs/positions.md``): the ``"state"`` object, written and read.

Cards are written by their physical codes (``G7a``, ``G7b``, ``GIY``), so a position
round-trips exactly; a hand-written one may use kind codes (``G7``), which name the
lowest copy of that kind that no other place names. The draw pile is listed top card
first (its last ``buried`` cards are the buried action cards everyone saw, §2.4), the
discard pile bottom first (its last card is the top card, which also gives the active
colour). A hand-written draw pile may end with ``"..."``: every card that no place names
follows, in id order (as in a stacked deck). Phases, statuses and faults are written by
name, seats by number.

Only what cannot be derived is written: the seats still in the round, the Politix
callers, the top card and colour, the seat a Mic Drop window waits for and the cards
anybody knows are rebuilt on load.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.cards import Shuffler, cards_of
from ...core.game import ConfigError
from ...core.position import Fields, check_distinct
from . import cards as C
from .cards import KIND_COLOUR, KIND_OF_T
from .state import HoodPolitixState
from .terms import (
    COUNT_NAMES,
    DEAL_R,
    FINISHED,
    MICDROP_WAIT,
    OVER,
    PAUSE_NAMES,
    PENDING,
    PHASE_NAMES,
    SLAP_R,
    SNITCH_R,
    STACK,
    STATUS_NAMES,
    TURN,
    Pause,
    Phase,
    Status,
)

if TYPE_CHECKING:
    from .game import HoodPolitixGame

DIRECTIONS = ("clockwise", "counter-clockwise")
#: As the last entry of ``draw``: every card no place names, in id order (hand-written).
REST = "..."


def write(s: HoodPolitixState) -> dict[str, Any]:
    """The ``"state"`` object of ``s`` (see the module docstring)."""
    code = C.CARD_CODES
    phase = s.phase
    seen, public = s.knowledge()
    out: dict[str, Any] = {
        "round": s.round,
        "dealer": s.dealer,
        "seats": [{"hand": _codes(s.hands[p]), "status": STATUS_NAMES[s.status[p]],
                   "score": s.scores[p], "politix_left": s.politix_left[p],
                   "knows": _codes(seen[p])} for p in range(s.n)],
        "draw": [code[c] for c in reversed(s.draw)],
        "buried": s.buried,
        "discard": [code[c] for c in s.discard],
        "direction": DIRECTIONS[s.direction != 1],
        "phase": PHASE_NAMES[phase],
        "due": None if phase == OVER else s.due,
        "stack": ({"amount": s.stack, "in_yo_face": s.stack_iyf} if phase == STACK
                  else None),
        "pending_finish": s.pending if s.pending >= 0 else None,
        "slap_by": s.by if phase == SLAP_R else None,
        "deal_by": s.by if phase == DEAL_R else None,
        "snitch": ({"by": s.by, "target": s.target,
                    "take": C.KIND_CODES[s.snitch_take] if s.snitch_take >= 0 else None}
                   if phase == SNITCH_R else None),
        "finish_order": list(s.finish_order),
        "pause": (None if not s.pause else {"kind": PAUSE_NAMES[s.pause],
                                             "seat": s.pause_seat}),
        "pause_since": s.pause_since,
        "timer_since": s.timer_since,
        "timer_expired": s.expired,
        "mic_check_due": s.mic_duty if s.mic_duty >= 0 else None,
        "missed_mic_check": [p for p in range(s.n) if s.mic_open >> p & 1],
        "missed_mic_drop": s.drop_seat if s.drop_seat >= 0 else None,
        "penalised": [{"seat": b // 3, "fault": C.FAULT_CODES[b % 3]}
                      for b in range(3 * s.n) if s.penalised >> b & 1],
        "revealed": _codes(public),
        "counts": dict(zip(COUNT_NAMES, s.counts, strict=True)),
    }
    if phase == MICDROP_WAIT:
        out["resume"] = {"phase": PHASE_NAMES[s.saved[0]], "due": s.saved[1]}
    if s.unordered:
        out["unordered"] = s.unordered
    return out


def _codes(mask: int) -> list[str]:
    """The physical codes of a card mask, lowest id first."""
    return [C.CARD_CODES[c] for c in cards_of(mask)]


def read(game: HoodPolitixGame, f: Fields, shuffler: Shuffler) -> HoodPolitixState:
    """The state a ``"state"`` object describes, checked (``ConfigError`` names the field)."""
    n = game.num_players
    last = n - 1
    s = HoodPolitixState.empty(game, shuffler)
    s.round = f.int("round", 1, default=1)
    s.dealer = f.int("dealer", 0, last)

    # -- cards: every card in exactly one of the hands, the draw and the discard pile --
    resolver = _Resolver()
    seats = f.subs("seats", n)
    places: dict[str, list[int]] = {}
    raw_hands = [(p, seat.list("hand")) for p, seat in enumerate(seats)]
    raw_draw = f.list("draw")
    rest = bool(raw_draw) and raw_draw[-1] == REST  # the rest of the cards, by id
    if rest:
        raw_draw = raw_draw[:-1]
    raw_discard = f.list("discard")
    for p, raw in raw_hands:
        resolver.claim(raw, seats[p].path("hand"))
    resolver.claim(raw_draw, f.path("draw"))
    resolver.claim(raw_discard, f.path("discard"))
    for p, raw in raw_hands:
        places[f"the hand of seat {p}"] = resolver.ids(raw, seats[p].path("hand"))
    draw_top_first = resolver.ids(raw_draw, f.path("draw"))
    places["the draw pile"] = draw_top_first
    places["the discard pile"] = resolver.ids(raw_discard, f.path("discard"))
    if rest:
        named = {c for cards in places.values() for c in cards}
        draw_top_first += [c for c in range(C.NUM_CARDS) if c not in named]
    check_distinct(places, game)
    hands = [_mask(places[f"the hand of seat {p}"]) for p in range(n)]
    s.hands = hands
    s.draw = draw_top_first[::-1]
    s.discard = places["the discard pile"]
    if not s.discard:
        raise ConfigError(f"{f.path('discard')} is empty: it needs a top card")
    s.top = KIND_OF_T[s.discard[-1]]
    s.colour = KIND_COLOUR[s.top]
    s.buried = f.int("buried", 0, len(s.draw), default=0)
    for c in s.draw[:s.buried]:
        if C.CARD_TYPE[c] < 0:
            raise ConfigError(f"{f.path('buried')}: the buried cards at the bottom of the "
                              f"draw pile are action cards, not {C.CARD_CODES[c]}")
    s.unordered = f.int("unordered", 0, len(s.draw) - s.buried, default=0)

    # -- seats --------------------------------------------------------------------------
    s.status = [Status[seat.str("status", STATUS_NAMES, default="in").upper()]
                for seat in seats]
    s.scores = [seat.int("score", 0, default=0) for seat in seats]
    s.politix_left = [seat.int("politix_left", 0, game.politix_calls,
                               default=game.politix_calls) for seat in seats]
    s.seen = []
    for p, seat in enumerate(seats):
        s.seen.append(_mask(resolver.held(seat.list("knows", default=[]), seat.path("knows"),
                                          hands, not_of=p)))
        seat.done()
    s.public = _mask(resolver.held(f.list("revealed", default=[]), f.path("revealed"), hands))
    s.in_round = sum(1 << p for p in range(n) if s.status[p] != FINISHED)
    s.callers = sum(1 << p for p in range(n) if s.politix_left[p])
    s.direction = -1 if f.str("direction", DIRECTIONS, default=DIRECTIONS[0]) \
        == DIRECTIONS[1] else 1

    # -- phase ------------------------------------------------------------------------------
    phase = s.phase = Phase[f.str("phase", PHASE_NAMES).upper()]
    name = phase.label
    if phase == OVER:
        if f.raw("due", None) is not None:
            raise ConfigError(f"{f.path('due')} must be null when the game is over")
        s.due = 0
    else:
        s.due = f.int("due", 0, last)
    top = C.KIND_TYPE[s.top]
    tops = {STACK: (C.DEUCE, C.IYF, C.PAYBACK), SLAP_R: (C.SLAP,), DEAL_R: (C.DEAL,),
            SNITCH_R: (C.SNITCH,)}
    if phase in tops and top not in tops[phase]:
        wanted = " or ".join(C.TYPE_NAMES[t] for t in tops[phase])
        raise ConfigError(f"phase {name} needs a {wanted} on top of the discard pile, "
                          f"not {C.KIND_CODES[s.top]}")

    stack = f.optional("stack", f.sub)
    if (stack is not None) != (phase == STACK):
        raise ConfigError(_only_in(f.path("stack"), "stack", name))
    if stack is not None:
        s.stack_iyf = stack.bool("in_yo_face")
        s.stack = stack.int("amount", 5 if s.stack_iyf else 2)
        stack.done()
    s.pending = _seat_or_none(f, "pending_finish", last)
    pending = [p for p in range(n) if s.status[p] == PENDING]
    if pending != ([s.pending] if s.pending >= 0 else []):
        raise ConfigError(f"{f.path('pending_finish')} must name the one seat whose status "
                          f"is pending, not {s.pending if s.pending >= 0 else None} "
                          f"(pending: {pending})")
    if s.pending >= 0 and phase != STACK:
        raise ConfigError(f"a pending finish waits for the answer to a stack, not for "
                          f"phase {name}")
    slap_by = _seat_or_none(f, "slap_by", last)
    deal_by = _seat_or_none(f, "deal_by", last)
    snitch = f.optional("snitch", f.sub)
    for key, value, own in (("slap_by", slap_by >= 0, SLAP_R), ("deal_by", deal_by >= 0, DEAL_R),
                            ("snitch", snitch is not None, SNITCH_R)):
        if value != (phase == own):
            raise ConfigError(_only_in(f.path(key), PHASE_NAMES[own], name))
    if phase == SLAP_R:
        s.by = slap_by
    elif phase == DEAL_R:
        s.by = deal_by
    if snitch is not None:
        s.by = snitch.int("by", 0, last)
        s.target = snitch.int("target", 0, last)
        take = snitch.optional("take", snitch.str)
        snitch.done()
        if s.by != s.due or s.target == s.by:
            raise ConfigError(f"{f.path('snitch')}: the Snitch player must be the seat due "
                              f"({s.due}) and target another seat")
        if not hands[s.target]:
            raise ConfigError(f"{f.path('snitch')}: the Snitch target, seat {s.target}, "
                              f"holds no cards")
        if take is not None:
            kind = C.KIND_INDEX.get(take.upper(), -1)
            if kind < 0 or not hands[s.target] & C.KIND_MASK[kind]:
                raise ConfigError(f"{f.path('snitch')}.take: seat {s.target} holds no "
                                  f"{take}")
            if not hands[s.by]:
                raise ConfigError(f"{f.path('snitch')}.take: seat {s.by} has no card to give")
            s.snitch_take = kind
    if phase in (SLAP_R, DEAL_R) and s.by == s.due:
        raise ConfigError(f"phase {name}: seat {s.due} cannot answer its own card")

    # -- who is in the round --------------------------------------------------------------
    s.finish_order = f.ints("finish_order", lo=0, hi=last, default=[])
    order = s.finish_order
    if len(set(order)) != len(order):
        raise ConfigError(f"{f.path('finish_order')} names a seat twice: {order}")
    finished = [p for p in range(n) if s.status[p] == FINISHED]
    if phase == OVER:
        if sorted(order) != list(range(n)) or sorted(finished) != sorted(order[:-1]):
            raise ConfigError(f"{f.path('finish_order')}: a game that is over lists every "
                              f"seat, the loser (the one seat not finished) last")
    elif sorted(order) != finished:
        raise ConfigError(f"{f.path('finish_order')} must list exactly the finished seats "
                          f"{finished}, not {order}")
    for p in finished:
        if hands[p]:
            raise ConfigError(f"seat {p} has finished but holds cards")
    left = n - len(finished)
    if phase == MICDROP_WAIT:
        if left != 1 or s.status[s.due] == FINISHED:
            raise ConfigError("phase mic_drop_window: exactly one seat is left in the round "
                              "and it is due")
        s.wait_seat = s.due
    elif phase != OVER:
        if left < 2:
            raise ConfigError(f"phase {name}: at least two seats must be in the round, "
                              f"not {left}")
        if s.status[s.due] == FINISHED and phase != SNITCH_R:
            raise ConfigError(f"the seat due, {s.due}, has finished")
        if phase in (TURN, SLAP_R, DEAL_R) and not hands[s.due]:
            raise ConfigError(f"seat {s.due} is to act in phase {name} but holds no cards")
    resume = f.optional("resume", f.sub)
    if (resume is not None) != (phase == MICDROP_WAIT):
        raise ConfigError(_only_in(f.path("resume"), "mic_drop_window", name))
    if resume is not None:
        resumed = resume.str("phase", [p for p in PHASE_NAMES
                                       if p not in ("mic_drop_window", "over")])
        s.saved = (Phase[resumed.upper()], resume.int("due", 0, last))
        resume.done()

    # -- pause and timers -------------------------------------------------------------
    pause = f.optional("pause", f.sub)
    if pause is not None:
        kinds = [k for k in PAUSE_NAMES if k]
        s.pause = Pause[pause.str("kind", kinds).upper()]
        s.pause_seat = pause.int("seat", 0, last)
        pause.done()
        if phase in (OVER, MICDROP_WAIT):
            raise ConfigError(f"there is no pause in phase {name}")
    s.pause_since = f.int("pause_since", 0, default=0)
    s.timer_since = f.int("timer_since", 0, default=0)
    s.expired = f.bool("timer_expired", default=False)

    # -- Mic Check, faults, counters ---------------------------------------------------------
    s.mic_duty = _seat_or_none(f, "mic_check_due", last)
    missed = f.ints("missed_mic_check", lo=0, hi=last, default=[])
    for p in missed + ([s.mic_duty] if s.mic_duty >= 0 else []):
        if hands[p].bit_count() != 1:
            raise ConfigError(f"seat {p} holds {hands[p].bit_count()} cards: a Mic Check "
                              "(due or missed) goes with exactly 1 card")
    s.mic_open = _mask(missed)
    s.drop_seat = _seat_or_none(f, "missed_mic_drop", last)
    if phase == MICDROP_WAIT and (s.drop_seat < 0 or s.status[s.drop_seat] != FINISHED):
        raise ConfigError("phase mic_drop_window waits on a missed Mic Drop: "
                          f"{f.path('missed_mic_drop')} must name a finished seat")
    s.penalised = 0
    for i, value in enumerate(f.list("penalised", default=[])):
        rec = Fields(value, f"{f.path('penalised')}[{i}]")
        who = rec.int("seat", 0, last)
        fault = rec.str("fault", C.FAULT_CODES)
        rec.done()
        s.penalised |= 1 << (who * 3 + C.FAULT_CODES.index(fault))
    counts = f.sub("counts", {})
    s.counts = [counts.int(k, 0, default=0) for k in COUNT_NAMES]
    counts.done()
    return s


def _only_in(path: str, phase: str, actual: str) -> str:
    """The error for a field that belongs to another phase."""
    return f"{path} belongs to phase {phase}, and only there (the phase is {actual})"


def _mask(ids: list[int]) -> int:
    """The card mask of card ids."""
    m = 0
    for c in ids:
        m |= 1 << c
    return m


def _seat_or_none(f: Fields, key: str, last: int) -> int:
    """An optional seat field: the seat, or -1 when absent or null."""
    value = f.optional(key, lambda k: f.int(k, 0, last))
    return -1 if value is None else value


class _Resolver:
    """Card codes to card ids: a physical code (``G7a``) is that copy; a kind code
    (``G7``) the lowest copy of the kind that no physical code and no earlier kind code
    names."""

    def __init__(self) -> None:
        """No copy named yet."""
        self.named = 0   # copies named by physical code
        self.given = 0   # copies handed to kind codes so far

    @staticmethod
    def parse(code: Any, where: str) -> tuple[int, int]:
        """(card id or -1, kind) of one code."""
        if not isinstance(code, str):
            raise ConfigError(f"{where} must be a card code such as 'G7a' or 'G7', "
                              f"not {code!r}")
        upper = code.upper()
        card = _PHYSICAL.get(upper, -1)
        if card >= 0:
            return card, KIND_OF_T[card]
        kind = C.KIND_INDEX.get(upper, -1)
        if kind < 0:
            raise ConfigError(f"{where}: there is no card {code!r} in hood_politix")
        return -1, kind

    def claim(self, raw: list[Any], where: str) -> None:
        """First pass: note the copies named by physical code."""
        for i, code in enumerate(raw):
            card, _ = self.parse(code, f"{where}[{i}]")
            if card >= 0:
                self.named |= 1 << card

    def ids(self, raw: list[Any], where: str) -> list[int]:
        """Second pass: the card id of each code (a kind code takes the lowest free copy)."""
        out = []
        for i, code in enumerate(raw):
            card, kind = self.parse(code, f"{where}[{i}]")
            if card < 0:
                free = C.KIND_MASK[kind] & ~self.named & ~self.given
                if not free:
                    raise ConfigError(f"{where}[{i}]: {code} is named more often than it "
                                      f"exists ({C.KIND_COPIES[kind]} in the game)")
                low = free & -free
                self.given |= low
                card = low.bit_length() - 1
            out.append(card)
        return out

    def held(self, raw: list[Any], where: str, hands: list[int], not_of: int = -1) -> list[int]:
        """Cards that must be in somebody's hand (known or revealed ones): a kind code
        names a copy held by another seat than ``not_of``, the lowest such."""
        everyone = 0
        others = 0
        for p, h in enumerate(hands):
            everyone |= h
            if p != not_of:
                others |= h
        out = []
        for i, code in enumerate(raw):
            card, kind = self.parse(code, f"{where}[{i}]")
            if card < 0:
                m = C.KIND_MASK[kind] & others or C.KIND_MASK[kind] & everyone
                card = (m & -m).bit_length() - 1 if m else -1
            if card < 0 or not everyone >> card & 1:
                raise ConfigError(f"{where}[{i}]: {code} is in nobody's hand")
            out.append(card)
        return out


_PHYSICAL = {code.upper(): i for i, code in enumerate(C.CARD_CODES)}
