"""Hood Politix: applying legal actions (§3–§5), one handler per phase of the phase
table (``HoodPolitixState.PHASES``, ``state.py``) and one per kind of out-of-turn action.

A phase's handler applies the moves of the seat the game waits for (a play, a draw, an
answer, a Snitch step, letting a Mic Drop pass); everything else is an out-of-turn
action (§5: throw-in, accusation, Mic Check, Politix, the end of a pause, and the clock's
``expire``), applied the same in every phase (``out_of_turn``). The card effects (§4) are
``play``, ``accept`` and ``resolve_snitch``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from ...core.game import CLOCK, Event
from . import cards as C
from .cards import (
    A_ACCEPT,
    A_ACCUSE,
    A_DRAW,
    A_END_POLITIX,
    A_EXPIRE,
    A_GIVE,
    A_MIC,
    A_PASS,
    A_PLAY,
    A_POLITIX,
    A_RELEASE,
    A_REVEAL,
    A_TAKE,
    A_THROW,
    AARG_T,
    AFLAG_T,
    AKIND_T,
    ATYPE_T,
    BUSTED,
    DEAL,
    DEUCE,
    F_MIC_CHECK,
    F_MIC_DROP,
    F_TIMEOUT,
    FIVEO,
    IYF,
    KIND_CODES,
    KIND_COLOUR,
    KIND_TYPE,
    PAYBACK,
    SLAP,
    T_MOVE,
    T_RESPEKT,
    codes,
    first_of_kind,
)
from .terms import (
    DEAL_R,
    FINISHED,
    IN,
    MICDROP_WAIT,
    NO_PAUSE,
    P_POLITIX,
    P_RESPEKT,
    PENALTY,
    PENDING,
    PHASE_NAMES,
    RESPEKT_AT,
    SLAP_DRAW,
    SLAP_R,
    SNITCH_R,
    STACK,
    TURN,
    Tally,
)

if TYPE_CHECKING:
    from .state import HoodPolitixState

#: What a ``mic`` flag says with 1, 2 or more cards in the hand before the card (§5.4):
#: with more than 2 it is a permitted bluff that changes nothing.
_MIC_SAID: Final = ("", "drop", "check", "bluff")


# -- the waited-for seat's moves, per phase --------------------------------------------
def turn(s: HoodPolitixState, seat: int, action: int) -> list[Event]:
    """TURN (§3): a card is played, or one is drawn, which ends the turn."""
    typ = ATYPE_T[action]
    if typ == A_PLAY:
        events: list[Event] = []
        play(s, seat, AKIND_T[action], AARG_T[action], AFLAG_T[action], events)
        return events
    if typ == A_DRAW:
        events = []
        s._begin_move()
        s._draw(seat, 1, events, "turn")
        s.due = s._next(seat)
        s._restart_timer()
        return events
    return out_of_turn(s, seat, action)

def answer(s: HoodPolitixState, seat: int, action: int) -> list[Event]:
    """STACK, SLAP, DEAL (§4): an answering card, or the penalty accepted."""
    typ = ATYPE_T[action]
    if typ == A_PLAY:
        events: list[Event] = []
        play(s, seat, AKIND_T[action], AARG_T[action], AFLAG_T[action], events)
        return events
    if typ == A_ACCEPT:
        events = []
        accept(s, seat, events)
        return events
    return out_of_turn(s, seat, action)

def snitch(s: HoodPolitixState, seat: int, action: int) -> list[Event]:
    """SNITCH (§4): reveal a card, or take one (no move yet) and then give one."""
    events: list[Event] = []
    typ = ATYPE_T[action]
    if typ == A_TAKE:
        # Half an exchange: no move yet (no event, timer running, phase unchanged).
        s.snitch_take = AKIND_T[action]
    elif typ == A_REVEAL:
        resolve_snitch(s, seat, AKIND_T[action], -1, events)
    elif typ == A_GIVE:
        resolve_snitch(s, seat, s.snitch_take, AKIND_T[action], events)
    else:
        return out_of_turn(s, seat, action)
    return events

def mic_drop_window(s: HoodPolitixState, seat: int, action: int) -> list[Event]:
    """MIC_DROP_WINDOW (§9.7): the missed Mic Drop passes; the round ends."""
    if ATYPE_T[action] != A_PASS:
        return out_of_turn(s, seat, action)
    events = [Event("mic_drop_passed", seat)]
    s._end_round(events)
    return events


# -- out of turn, in every phase (§5) ----------------------------------------------------
def out_of_turn(s: HoodPolitixState, seat: int, action: int) -> list[Event]:
    """An out-of-turn action (§5) or the clock's, by its type (``_OUT_OF_TURN``)."""
    return _OUT_OF_TURN[ATYPE_T[action]](s, seat, action)


def throw_in(s: HoodPolitixState, seat: int, action: int) -> list[Event]:
    """§5.1: an identical number card out of turn; the turn order stays (legal ones only:
    a wrong one is a fault)."""
    kind, flag = AKIND_T[action], AFLAG_T[action]
    events: list[Event] = []
    s._begin_move()
    before = s.hands[seat].bit_count()
    s._take(seat, kind)
    s.counts[Tally.THROW_INS] += 1
    if s.record_events:
        ev: dict[str, Any] = {"card": KIND_CODES[kind]}
        if flag:
            ev["mic"] = _MIC_SAID[min(before, 3)]
        events.append(Event("throw_in", seat, ev))
    if before == 2:
        s.penalised &= ~(1 << (seat * 3 + F_MIC_CHECK))
        if not flag:
            s.mic_duty = seat
    elif before == 1:
        s.penalised &= ~(1 << (seat * 3 + F_MIC_DROP))
        if not flag:
            s.drop_seat = seat
        s._finish(seat, events)
        if s.due == seat:
            s.due = s._next(seat)
    s._restart_timer()
    if s.in_round.bit_count() <= 1:  # one seat left: the round is over (§6)
        s._round_over(events)
    return events


def accusation(s: HoodPolitixState, seat: int, action: int) -> list[Event]:
    """§5.2: a valid accusation (only those are legal; invalid ones are faults) costs the
    accused 2 cards."""
    accused, fault = AARG_T[action], AKIND_T[action]
    events: list[Event] = []
    s.counts[Tally.ACCUSATIONS] += 1
    s.penalised |= 1 << (accused * 3 + fault)
    events.append(Event("accuse", seat, {"accused": accused,
                                         "fault": C.FAULT_CODES[fault], "valid": True}))
    if fault == F_MIC_DROP:
        # Back in the round with 2 cards, no place given (§5.4).
        s.drop_seat = -1
        if s.status[accused] == FINISHED:
            s._unfinish(accused, events)
        elif s.status[accused] == PENDING:  # a last Deuce or In Yo Face
            s.pending = -1
            s._set_status(accused, IN)
            events.append(Event("rejoin", accused))
    s._draw(accused, PENALTY, events, C.FAULT_CODES[fault])
    if fault == F_TIMEOUT:
        s._restart_timer()
    return events


def mic_check(s: HoodPolitixState, seat: int, action: int) -> list[Event]:
    """§5.4: a Mic Check announced; with nothing to announce a bluff that changes
    nothing."""
    if s.mic_duty == seat:
        s.mic_duty = -1
        return [Event("mic_check", seat)] if s.record_events else []
    return [Event("mic_check", seat, {"bluff": True})]


def politix(s: HoodPolitixState, seat: int, action: int) -> list[Event]:
    """§5.5: a Politix call pauses the game (the move timer freezes, §5.3)."""
    s.politix_left[seat] -= 1
    if not s.politix_left[seat]:
        s.callers &= ~(1 << seat)
    s.pause = P_POLITIX
    s.pause_seat = seat
    s.pause_since = s.move_number
    s.counts[Tally.POLITIX] += 1
    return [Event("politix", seat)] if s.record_events else []


def pause_end(s: HoodPolitixState, seat: int, action: int) -> list[Event]:
    """§5.5, §5.6: the caller ends Politix, or the Respekt player releases."""
    s.pause = NO_PAUSE  # the frozen move timer resumes (§5.3)
    return [Event("pause_end", seat)] if s.record_events else []


def expire(s: HoodPolitixState, seat: int, action: int) -> list[Event]:
    """A timer ran out: the move timer (a timeout may be claimed, §5.3; it closes the Mic
    Drop window, §9.7), Respekt (2 more cards, §5.6) or Politix (the pause ends, §5.5)."""
    timer = AARG_T[action]
    events = [Event("expire", CLOCK, {"timer": C.TIMER_CODES[timer]})]
    if timer == T_MOVE:
        if s.phase is MICDROP_WAIT:
            s._end_round(events)
        else:
            s.expired = True
            # A new timeout: an earlier penalised one of this seat is off the record.
            s.penalised &= ~(1 << (s.due * 3 + F_TIMEOUT))
    elif timer == T_RESPEKT:
        # §5.6: 2 more cards, no new Respekt; play resumes (the move timer too, §5.3).
        s.pause = NO_PAUSE
        s._draw(s.pause_seat, PENALTY, events, "respekt")
    else:  # T_POLITIX: the frozen move timer resumes (§5.3)
        s.pause = NO_PAUSE
    return events


def _not_out_of_turn(s: HoodPolitixState, seat: int, action: int) -> list[Event]:
    """A move of the waited-for seat reaching ``out_of_turn``: its phase does not allow it."""
    raise TypeError(f"{C.ActionType(ATYPE_T[action]).name} is not a move of phase {s.phase!r}")


#: The out-of-turn actions' handlers, by action type.
_OUT_OF_TURN_BY_TYPE: Final[dict[int, Callable[[HoodPolitixState, int, int], list[Event]]]] = {
    A_THROW: throw_in, A_ACCUSE: accusation, A_MIC: mic_check, A_POLITIX: politix,
    A_END_POLITIX: pause_end, A_RELEASE: pause_end, A_EXPIRE: expire}
_OUT_OF_TURN: Final[tuple[Callable[[HoodPolitixState, int, int], list[Event]], ...]] = tuple(
    _OUT_OF_TURN_BY_TYPE.get(typ, _not_out_of_turn) for typ in range(A_EXPIRE + 1))


# -- card effects (§4) -------------------------------------------------------------------
def play(s: HoodPolitixState, seat: int, kind: int, target: int, flag: int,
         events: list[Event]) -> None:
    """§4 card effects; ``seat`` is due, the play is legal in the current phase."""
    s._begin_move()
    phase = s.phase
    before = s.hands[seat].bit_count()
    s._take(seat, kind)
    s.top = kind
    s.colour = KIND_COLOUR[kind]
    typ = KIND_TYPE[kind]
    if s.record_events:
        ev: dict[str, Any] = {"card": KIND_CODES[kind]}
        if target >= 0:
            ev["target"] = target
        if flag:
            ev["mic"] = _MIC_SAID[min(before, 3)]
        events.append(Event("play", seat, ev))
    nxt = s._next
    # A pending finish is settled by the first answer to the stack (§4 last card).
    if phase is STACK and s.pending >= 0:
        p = s.pending
        s.pending = -1
        if typ == PAYBACK:
            s._set_status(p, IN)
            events.append(Event("rejoin", p))
        else:
            s._finish(p, events)
            if s.in_round.bit_count() <= 1:  # the One-on-One is decided by this answer
                s._end_round(events)
                return
    if before == 2:
        s.penalised &= ~(1 << (seat * 3 + F_MIC_CHECK))  # a new Mic Check moment
        if not flag:
            s.mic_duty = seat
    elif before == 1:
        s.penalised &= ~(1 << (seat * 3 + F_MIC_DROP))  # a new last card
        if not flag:
            s.drop_seat = seat
        if typ == DEUCE or typ == IYF:
            s._set_status(seat, PENDING)
            s.pending = seat
            events.append(Event("pending_finish", seat))
        else:
            s._finish(seat, events)
    if typ < 0:  # a number card
        s.phase = TURN
        s.due = nxt(seat)
    elif typ == DEUCE or typ == IYF:
        if phase is not STACK:
            s.stack = 0
            s.stack_iyf = False
        s.stack += 2 if typ == DEUCE else 5
        s.stack_iyf = s.stack_iyf or typ == IYF
        s.phase = STACK
        s.due = nxt(seat)
    elif typ == PAYBACK:
        s.direction = -s.direction
        if phase is SLAP_R:
            slap_draws(s, (s.by, seat), events, slapper_too=True)
            slapper = s.by
            s.phase = TURN
            s.due = slapper if s.status[slapper] == IN else nxt(slapper)
        else:  # a plain reversal, or the stack goes on in the new direction
            s.due = nxt(seat)
    elif typ == FIVEO:
        if phase is SLAP_R:
            slap_draws(s, (s.by, seat), events, slapper_too=False)
        elif phase is STACK:
            s.stack = 0
            s.stack_iyf = False
        elif phase is DEAL_R:
            events.append(Event("deal_blocked", seat, {"by": s.by}))
        s.phase = TURN
        s.due = nxt(seat)
    elif typ == BUSTED:
        skipped = nxt(seat)
        if s.record_events:
            events.append(Event("skipped", skipped))
        s.phase = TURN
        s.due = nxt(skipped)
    elif typ == SLAP:
        s.phase = SLAP_R
        s.by = seat
        s.due = nxt(seat)
    elif typ == DEAL:
        s.phase = TURN
        if before == 1:
            s.due = nxt(seat)
        elif target == nxt(seat):
            s.phase = DEAL_R
            s.by = seat
            s.due = target
        else:
            swap_hands(s, seat, target, events)
            s.due = nxt(seat)
    else:  # SNITCH
        s.phase = TURN
        if s.hands[target]:
            s.phase = SNITCH_R
            s.by = seat
            s.target = target
            s.due = seat
            look = s.hands[target]
            s.seen[seat] |= look
            if s.record_events:
                events.append(Event("snitch_look", seat, {"target": target},
                                    {seat: {"hand": codes(look)}}))
        else:
            s.due = nxt(seat)
    s._restart_timer()
    if s.in_round.bit_count() <= 1:  # one seat left: the round is over (§6)
        s._round_over(events)


def slap_draws(s: HoodPolitixState, spared: tuple[int, int], events: list[Event],
                slapper_too: bool) -> None:
    """§4 Pimp Slap: who draws 3; finished and pending players never draw (§9.8)."""
    slapper, answerer = spared
    n, st, step = s.n, s.status, s.direction
    for i in range(1, n + 1):
        p = (slapper + i * step) % n
        if st[p] != IN or p == answerer or (p == slapper and not slapper_too):
            continue
        s._draw(p, SLAP_DRAW, events, "pimp slap")


def accept(s: HoodPolitixState, seat: int, events: list[Event]) -> None:
    """§4: the answering seat takes the stack (a Respekt pause from 5 cards, §5.6), the
    Pimp Slap's draws (§9.2: then its turn) or the Deal's swap (§9.2)."""
    s._begin_move()
    phase = s.phase
    if s.record_events:
        events.append(Event("accept", seat, {"phase": PHASE_NAMES[phase]}))
    s.phase = TURN
    if phase is STACK:
        if s.pending >= 0:
            p = s.pending
            s.pending = -1
            s._finish(p, events)
            if s.in_round.bit_count() <= 1:
                s._end_round(events)
                return
        amount = s.stack
        s.stack = 0
        s.stack_iyf = False
        got = s._draw(seat, amount, events, "stack")
        s.due = s._next(seat)
        if got >= RESPEKT_AT and s.in_round.bit_count() > 1:
            s.pause = P_RESPEKT
            s.pause_seat = seat
            s.pause_since = s.move_number
            s.counts[Tally.RESPEKT] += 1
            events.append(Event("respekt", seat))
    elif phase is SLAP_R:
        slap_draws(s, (s.by, -1), events, slapper_too=False)
        s.due = seat
    else:  # DEAL_R: the hands change places, then the target takes a turn (§9.2)
        swap_hands(s, s.by, seat, events)
        s.due = seat
    s._restart_timer()
    if s.in_round.bit_count() <= 1:  # one seat left: the round is over (§6)
        s._round_over(events)


def resolve_snitch(s: HoodPolitixState, seat: int, kind: int, mine: int,
                   events: list[Event]) -> None:
    """§4 Snitch: reveal the target's ``kind`` to all (``mine`` -1), or swap it for
    the Snitch player's ``mine`` (the ``give`` after a ``take``)."""
    s._begin_move()
    s.snitch_take = -1
    t = s.target
    x = first_of_kind(s.hands[t], kind)
    bx = 1 << x
    if mine < 0:
        s.public |= bx
        events.append(Event("reveal", seat, {"target": t, "card": KIND_CODES[kind]}))
    else:
        y = first_of_kind(s.hands[seat], mine)
        by = 1 << y
        hands = s.hands
        hands[t] = hands[t] ^ bx | by
        hands[seat] = hands[seat] ^ by | bx
        both = hands[t] | hands[seat]
        # Third parties no longer know where the cards of these two hands are.
        s.seen[t] |= s.public & hands[seat] | bx
        s.seen[seat] |= hands[t] | s.public & hands[seat]
        for p in range(s.n):
            if p != t and p != seat:
                s.seen[p] &= ~both
        s.public &= ~both
        seen = {"took": KIND_CODES[kind], "gave": KIND_CODES[mine]}
        events.append(Event("exchange", seat, {"target": t}, {seat: seen, t: seen}))
    s.phase = TURN
    s.due = s._next(seat)
    s._restart_timer()
    if s.in_round.bit_count() <= 1:  # one seat left: the round is over (§6)
        s._round_over(events)


def swap_hands(s: HoodPolitixState, seat: int, other: int, events: list[Event]) -> None:
    """Deal (§4): whole hands change places; each now knows the other's hand. A Mic Check
    duty or fault goes with a hand size that changed (§5.4: not through a Deal)."""
    hands = s.hands
    if hands[seat].bit_count() != hands[other].bit_count():
        s.mic_open &= ~((1 << seat) | (1 << other))
        if s.mic_duty in (seat, other):
            s.mic_duty = -1
    hands[seat], hands[other] = hands[other], hands[seat]
    s.seen[seat] |= hands[other]
    s.seen[other] |= hands[seat]
    if s.record_events:
        events.append(Event("swap", seat, {"with": other},
                            {seat: {"hand": codes(hands[seat])},
                             other: {"hand": codes(hands[other])}}))
