"""Pixmit's part of a position (``core/position.py``): the ``"state"`` object.

Cards are codes (``"07"``), seats are numbers, phases are names. Written: the phase,
round, start player, active seat, the chosen target and the offer with its
announcements; per seat its hand, the other cards whose place it knows and its vetoes;
the stack (top card first), the reveals, the caller, the hunt and the public log.

Derived on reading, not written: the turn's index in the round (from the active seat),
card 21's holder (and that everyone knows where 21 is while a hand holds it), who used
Wissen or Schöpfung (their reveals), the call's conditions and the seats eligible for
the hunt (from the hands at the call: the final hands with the hunt's draws put back),
and that every place is known once the game is over.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from ...core.game import ConfigError
from ...core.position import Fields, check_distinct
from . import cards as C
from .state import BIT21, PixmitState
from .terms import (
    BY_LABEL,
    CLAIM,
    CREATION,
    DISCARD,
    HAND_LIMIT,
    MESSENGER,
    OVER,
    ROUNDS,
    TURN,
    Phase,
)

if TYPE_CHECKING:
    from ...core.cards import Shuffler
    from .game import PixmitGame

_CLAIM_INDEX = {text.upper(): i for i, text in enumerate(C.CLAIM_TEXT)}
#: The sets a reveal shows (§3.2 Wissen, §3.5 Schöpfung), and their cards.
_REVEALED = {C.K_KNOWLEDGE: C.KNOWLEDGE, C.K_CREATION: C.CREATION}
#: The fields of each kind of log entry, in the order the game writes them.
_LOG_FIELDS: dict[str, tuple[str, ...]] = {
    "offer": ("seat", "target", "k"), "swap": ("seat", "target", "k"),
    "veto_draw": ("seat", "k"), "messenger": ("seat", "to"), "round": ("round",),
    "call": ("seat", "conditions"), "hunt": ("seat", "card"), "silent_end": (),
    **{kind: ("seat",) for kind in ("accept", "veto", "creation", "bottom", "knowledge")}}


def write(s: PixmitState) -> dict[str, Any]:
    """The ``"state"`` object of ``s`` (see the module docstring)."""
    over = s.phase is OVER
    public21 = BIT21 if s.holder21 >= 0 else 0
    seats = []
    for p, hand in enumerate(s.hands):
        seat: dict[str, Any] = {"hand": C.card_codes(hand)}
        if not over:  # at the end every place is known
            seat["known"] = C.card_codes(s.known[p] & ~hand & ~public21)
        seat["vetoes"] = s.vetoes[p]
        seats.append(seat)
    out: dict[str, Any] = {"phase": s.phase.label, "round": s.round, "start": s.start,
                           "active": s.active}
    if s.phase is TURN:  # later in the turn it is always false
        out["fresh"] = s.fresh
    out.update({
        "target": s.target if s.target >= 0 else None,
        "offer": [C.CARD_CODES[x] for x in s.offer_cards],
        "claims": [C.CLAIM_TEXT[x] for x in s.claims],
        "seats": seats,
        "stack_top_first": [C.CARD_CODES[x] for x in reversed(s.stack)],
        "reveals": [{"seat": r["seat"], "set": r["set"], "move": r["move"]}
                    for r in s.reveals],
        "caller": s.caller if s.caller >= 0 else None,
        "hunt": [[p, C.CARD_CODES[x]] for p, x in s.hunt],
        "log": copy.deepcopy(s.log),
    })
    return out


def read(game: PixmitGame, f: Fields, shuffler: Shuffler) -> PixmitState:
    """The state a ``"state"`` object describes, checked whole (``ConfigError`` names
    the field); built with the state's own constructor and phase helpers."""
    n = game.num_players

    def seat_no(key: str) -> int:
        return f.int(key, 0, n - 1)

    s = PixmitState.empty(game, shuffler)
    phase = BY_LABEL[f.str("phase", BY_LABEL)]
    s.round = f.int("round", 1, ROUNDS)
    s.start = seat_no("start")
    if game.start_player >= 0 and s.start != game.start_player:
        raise ConfigError(f"{f.path('start')} is {s.start}, but the option start_player is "
                          f"{game.start_player}")
    s.active = seat_no("active")
    s.turn_index = (s.active - s.start) % n
    if phase is TURN:
        s.fresh = f.bool("fresh", default=True)
    elif f.has("fresh"):
        raise ConfigError(f"{f.path('fresh')} belongs to phase turn only, not {phase.label}")
    else:
        s.fresh = False
    target = f.optional("target", seat_no)
    s.target = -1 if target is None else target
    s.offer_cards = tuple(f.cards("offer", game, default=[]))
    check_distinct({f.path("offer"): s.offer_cards}, game, complete=False)
    s.offer = sum(1 << x for x in s.offer_cards)
    s.claims = _read_claims(f)
    _read_cards(s, f, phase is OVER)
    _read_reveals(s, f)
    caller = f.optional("caller", seat_no)
    s.caller = -1 if caller is None else caller
    s.hunt = _read_hunt(f, game)
    s.log = _read_log(f, game)
    if phase is OVER:
        _check_end(s, f)
    else:
        _check_turn(s, phase, f)
    s._fix21()
    if phase is OVER:
        s._end_game()
    else:
        s.phase = phase
    return s


def _read_cards(s: PixmitState, f: Fields, over: bool) -> None:
    """The hands, what each seat knows and the stack: every card exactly once."""
    game = s.game
    places: dict[str, list[int]] = {}
    for p, seat in enumerate(f.subs("seats", s.num_players)):
        places[seat.path("hand")] = hand = seat.cards("hand", game)
        s.hands[p] = sum(1 << x for x in hand)
        if over and seat.has("known"):
            raise ConfigError(f"{seat.path('known')}: every place is known once the game is "
                              f"over, leave it out")
        known = seat.cards("known", game, default=[])
        check_distinct({seat.path("known"): known}, game, complete=False)
        s.known[p] = s.hands[p] | sum(1 << x for x in known)  # a seat knows its own hand
        s.vetoes[p] = seat.int("vetoes", 0, default=0)
        seat.done()
    places[f.path("stack_top_first")] = stack = f.cards("stack_top_first", game)
    check_distinct(places, game)
    s.stack = stack[::-1]  # the state keeps the top card last


def _read_claims(f: Fields) -> list[int]:
    """The announcements made (§3.3): none, a group or a card number each."""
    out = []
    for i, text in enumerate(f.list("claims", default=[])):
        claim = _CLAIM_INDEX.get(text.upper()) if isinstance(text, str) else None
        if claim is None:
            raise ConfigError(f"{f.path('claims')}[{i}] must be none, a group "
                              f"({', '.join(C.GROUPS)}) or a card number, not {text!r}")
        out.append(claim)
    return out


def _read_reveals(s: PixmitState, f: Fields) -> None:
    """Each reveal of Wissen or Schöpfung marks the set used: once per seat and game."""
    last_move = 0
    for r in f.subs("reveals") if f.has("reveals") else []:
        seat = r.int("seat", 0, s.num_players - 1)
        name = r.str("set", _REVEALED)
        move = r.int("move", last_move + 1)  # each reveal is an action of its own
        r.done()
        bit = 1 << seat
        used = s.used_knowledge if name == C.K_KNOWLEDGE else s.used_creation
        if used & bit:
            raise ConfigError(f"{r.where}: seat {seat} reveals {name} a second time "
                              f"(once per game)")
        if name == C.K_KNOWLEDGE:
            s.used_knowledge |= bit
        else:
            s.used_creation |= bit
        s.reveals.append({"seat": seat, "set": name, "cards": C.card_codes(_REVEALED[name]),
                          "move": move})
        last_move = move


def _read_hunt(f: Fields, game: PixmitGame) -> list[tuple[int, int]]:
    """``[[seat, card], …]``: who drew which card from the caller's hand, in order."""
    out = []
    for i, draw in enumerate(f.list("hunt", default=[])):
        where = f"{f.path('hunt')}[{i}]"
        if not isinstance(draw, list) or len(draw) != 2:
            raise ConfigError(f"{where} must be [seat, card], not {draw!r}")
        pair = Fields({"seat": draw[0], "card": [draw[1]]}, where)
        out.append((pair.int("seat", 0, game.num_players - 1), pair.cards("card", game)[0]))
    return out


def _read_log(f: Fields, game: PixmitGame) -> list[dict[str, Any]]:
    """The public log: each entry of a known kind with exactly its fields."""
    last = game.num_players - 1
    read = {"seat": lambda e, k: e.int(k, 0, last), "target": lambda e, k: e.int(k, 0, last),
            "to": lambda e, k: e.int(k, 0, last), "k": lambda e, k: e.int(k, 1, 2),
            "round": lambda e, k: e.int(k, 2, ROUNDS),
            "card": lambda e, k: e.str(k, C.CARD_CODES), "conditions": _read_conditions}
    out = []
    for entry in f.subs("log") if f.has("log") else []:
        kind = entry.str("kind", _LOG_FIELDS)
        out.append({"kind": kind, **{key: read[key](entry, key) for key in _LOG_FIELDS[kind]}})
        entry.done()
    return out


def _read_conditions(e: Fields, key: str) -> list[str]:
    """A call's conditions (§3.1 a–c) by name."""
    values = e.list(key)
    for i, c in enumerate(values):
        if c not in C.CALL_CONDITIONS:
            raise ConfigError(f"{e.path(key)}[{i}] must be one of "
                              f"{', '.join(C.CALL_CONDITIONS)}, not {c!r}")
    return list(values)


def _check_turn(s: PixmitState, phase: Phase, f: Fields) -> None:
    """A game in progress: hands, offer, announcements and target fit the phase (§3),
    so that whoever is to act has a legal action now and later."""
    n, a, t, k = s.num_players, s.active, s.target, len(s.offer_cards)
    name = phase.label
    if s.caller >= 0 or s.hunt:
        raise ConfigError(f"{f.path('caller')} and {f.path('hunt')} belong to phase over, "
                          f"not {name}")
    for p, hand in enumerate(s.hands):
        where = f"{f.path('seats')}[{p}].hand"
        limit = HAND_LIMIT + 1 if phase is DISCARD and p == a else HAND_LIMIT
        if not hand:
            raise ConfigError(f"{where} is empty: every hand holds cards until the game is "
                              f"over")
        if hand.bit_count() > limit:
            raise ConfigError(f"{where} holds {hand.bit_count()} cards, more than {limit} in "
                              f"phase {name} (§3.7)")
    if t == a:
        raise ConfigError(f"{f.path('target')}: seat {a} cannot offer to itself")
    if phase is TURN:
        if k or s.claims:
            raise ConfigError(f"in phase turn there is no offer yet: {f.path('offer')} and "
                              f"{f.path('claims')} must be empty")
        if not s.fresh and not s.used_knowledge >> a & 1:
            raise ConfigError(f"{f.path('fresh')} is false (Wissen played this turn), but "
                              f"seat {a} has not revealed Wissen")
        return
    if t < 0:
        raise ConfigError(f"phase {name} needs {f.path('target')}, the seat offered to")
    if not 1 <= k <= 2:
        raise ConfigError(f"phase {name} needs {f.path('offer')} of 1 or 2 cards, not {k}")
    if list(s.offer_cards) != sorted(s.offer_cards):
        raise ConfigError(f"{f.path('offer')} lists its cards in ascending order, as an "
                          f"offer does")
    if s.offer & ~s.hands[a]:
        raise ConfigError(f"{f.path('offer')}: seat {a} does not hold "
                          f"{' '.join(C.card_codes(s.offer & ~s.hands[a]))}")
    if s.hands[t].bit_count() < k:
        raise ConfigError(f"{f.path('offer')}: {k} cards offered to seat {t}, which holds "
                          f"only {s.hands[t].bit_count()} (§3.3)")
    made = len(s.claims)
    if (phase is CLAIM and made >= k) or (phase is not CLAIM and made != k):
        want = f"fewer than {k}" if phase is CLAIM else f"all {k}"
        raise ConfigError(f"phase {name} needs {want} announcement(s) in {f.path('claims')}, "
                          f"not {made}")
    if s.game.beginner:
        for i, (claim, x) in enumerate(zip(s.claims, s.offer_cards, strict=False)):
            if claim not in C.TRUTHFUL[x]:
                raise ConfigError(f"{f.path('claims')}[{i}]: {C.CLAIM_TEXT[claim]} is not "
                                  f"true of {C.CARD_CODES[x]}, and beginner mode allows only "
                                  f"true announcements")
    if phase in (MESSENGER, DISCARD) and n != 2:
        raise ConfigError(f"phase {name} follows the Blinder Bote, which only 2 players use "
                          f"(§3.6)")
    if phase is MESSENGER and s.hands[t].bit_count() < 2:
        raise ConfigError(f"phase messenger follows a veto, which needs 2 cards in seat {t}'s "
                          f"hand (§3.4)")
    if phase is DISCARD and s.hands[a].bit_count() != HAND_LIMIT + 1:
        raise ConfigError(f"phase discard follows the Bote's card: seat {a} holds "
                          f"{HAND_LIMIT + 1} cards, not {s.hands[a].bit_count()}")
    if phase is CREATION and (s.used_creation >> a & 1 or s.hands[a] & C.CREATION != C.CREATION):
        raise ConfigError(f"phase creation: seat {a} must hold 03, 20, 25 and not have "
                          f"revealed Schöpfung yet (§3.5)")


def _check_end(s: PixmitState, f: Fields) -> None:
    """A game that is over: the call (if any) was possible and the hunt followed §3
    HUNT; the call's conditions and the hunt's eligible seats are derived here."""
    if s.target >= 0 or s.offer_cards or s.claims:
        raise ConfigError(f"the game is over: {f.path('target')}, {f.path('offer')} and "
                          f"{f.path('claims')} must be empty")
    n, a = s.num_players, s.caller
    drawn = [0] * n
    for p, x in s.hunt:
        if not s.hands[p] >> x & 1:
            raise ConfigError(f"{f.path('hunt')}: seat {p} drew {C.CARD_CODES[x]} but does "
                              f"not hold it")
        drawn[p] |= 1 << x
    if a < 0:
        if s.hunt:
            raise ConfigError(f"{f.path('hunt')}: a hunt follows only a call "
                              f"({f.path('caller')})")
        return
    if a != s.active:
        raise ConfigError(f"{f.path('caller')}: seat {a} called Pixmit, but the active seat "
                          f"is {s.active}")
    at_call = [h & ~drawn[p] for p, h in enumerate(s.hands)]
    at_call[a] |= sum(drawn)
    s.call_conds = C.call_conditions(at_call[a])
    if not s.call_conds:
        raise ConfigError(f"{f.path('caller')}: seat {a}'s hand at the call "
                          f"({' '.join(C.card_codes(at_call[a]))}) meets no call condition")
    if at_call[a] & BIT21:
        s.hunt_eligible = [(a + i) % n for i in range(1, n)
                           if not C.has_set(at_call[(a + i) % n])]
    # the eligible seats draw in turn until 21 is drawn or the caller's hand is empty
    seats = [p for p, _ in s.hunt]
    cards = [x for _, x in s.hunt]
    stopped = bool(cards) and cards[-1] == C.JOKER_21 or not s.hands[a]
    if seats != s.hunt_eligible[:len(seats)] or C.JOKER_21 in cards[:-1] or \
            (len(seats) < len(s.hunt_eligible) and not stopped):
        raise ConfigError(f"{f.path('hunt')}: the seats without a set at the call "
                          f"({s.hunt_eligible}) draw in turn until 21 is drawn or the caller's "
                          f"hand is empty, not {seats}")
