"""Judging attempts that are not legal actions: faulty ones, which the rules punish with
2 cards (§3 invalid attempts, §5.1 throw-ins, §5.2 false accusations), and illegal ones,
refused with no penalty (§9.4, §9.5); plus the hints that say what would be right.

Attempts are judged three ways: LEGAL (a listed legal action, and also a bluff Mic Check,
which changes nothing, §5.4); FAULTY, with a ``Fault`` kind; and ILLEGAL (no such card in
your hand, nonsense targets, anything during a pause but accusations and ending it, a
repeat accusation of a fault on record).

Each phase has its judge in the phase table (its rule's ``why``: ``why_turn``,
``why_answer``, ``why_snitch``, ``why_mic_drop``, ``why_over``), which the core asks for
an attempt that is not listed; what every phase judges alike comes first (``_aside``, and
in the phases of play ``_in_play``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ...core.cards import lowest
from ...core.game import Check, Told, Verdict, seat_arg
from ...i18n import N_
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
    DEUCE,
    F_TIMEOUT,
    KIND_CODES,
    KIND_MASK,
    KIND_TYPE,
    NUMBER_KINDS,
)
from .terms import (
    FINISHED,
    IN,
    P_POLITIX,
    P_RESPEKT,
    PAUSE_NAMES,
    SLAP_R,
    SNITCH_R,
    STACK,
    Fault,
)

if TYPE_CHECKING:
    from ...narration import Context
    from .state import HoodPolitixState


class FaultCheck(Check):
    """A FAULTY verdict and its kind (§3): narration and statistics read the kind, never
    the reason's words."""

    __slots__ = ("fault",)

    def __init__(self, fault: Fault, template: str, params: dict[str, Any] | None = None
                 ) -> None:
        """A FAULTY check of kind ``fault``."""
        super().__init__(Verdict.FAULTY, template, params)
        self.fault = fault


def _card(code: str) -> Told:
    """A card in a reason: its code (``G7``) to the engine, "Grün 7" to the reader."""
    def render(ctx: Context) -> str:
        from .narration import card_name

        return card_name(code, ctx)
    return Told(code, render)


def _colour(colour: int) -> Told:
    """A colour in a reason: its letter to the engine, its name to the reader."""
    def render(ctx: Context) -> str:
        from .narration import COLOUR_WORDS

        return ctx.tr.gettext(COLOUR_WORDS[colour])
    return Told(C.COLOURS[colour], render)


def _pause(pause: int) -> Told:
    """A pause in a reason: ``politix`` to the engine, its name (Politix, Respekt) to the
    reader: the game's own words, not translated."""
    name = str(PAUSE_NAMES[pause])
    return Told(name, lambda ctx: name.capitalize())


def _fault_word(fault: int, seconds: float) -> Told:
    """A fault one may be accused of: its name to the engine, "a missed Mic Check" to the
    reader (the 3-second rule with the game's seconds)."""
    code = ("mic-check", "mic-drop", "timeout")[fault]

    def render(ctx: Context) -> str:
        from .narration import fault_words

        return fault_words(code, ctx, seconds)
    return Told(C.FAULT_NAMES[fault], render)


#: A Mic Check with nothing to announce, or a ``mic`` flag with more than 2 cards.
BLUFF: Final = Check(Verdict.LEGAL, N_("a bluff: permitted, and it changes nothing (§5.4)"))


def _some_card(hand: int) -> str:
    """The code of a hand's lowest card, for an example in a reason (``G1`` if it is empty)."""
    return C.CARD_KIND_CODES[lowest(hand)] if hand else "G1"


def _illegal(template: str, /, **args: Any) -> Check:
    """A refusal, no penalty: an English template (``N_``) and its arguments."""
    return Check(Verdict.ILLEGAL, template, args or None)


def _faulty(kind: Fault, template: str, /, **args: Any) -> FaultCheck:
    """A fault of ``kind`` (§3): the template and arguments say why (an argument may be
    called ``fault``: the compiled build binds a keyword to a positional-only parameter
    of its name)."""
    return FaultCheck(kind, template, args or None)


def judge(s: HoodPolitixState, seat: int, action: int) -> Check:
    """Judge an attempt that is not a listed legal action: the phase's judge (its rule's
    ``why`` in the phase table)."""
    table = s.PHASES
    assert table is not None
    why = table.why_of[s.phase]
    assert why is not None, f"phase {s.phase!r} has no judge"
    check: Check = why(s, seat, action)
    return check


def why_over(s: HoodPolitixState, seat: int, action: int) -> Check:
    """OVER: nothing more happens."""
    return _illegal(N_("the game is over"))


def _aside(s: HoodPolitixState, seat: int, action: int) -> Check | None:
    """What every phase judges alike first: the clock's actions, accusations (by anyone,
    also a finished player, §5.2), a finished seat, a pause (§9.5) and ending a pause
    there is none of; None if none of these applies."""
    typ = ATYPE_T[action]
    if typ == A_EXPIRE:
        return _illegal(N_("only the clock lets time run out"))
    if typ == A_ACCUSE:
        return _judge_accusation(s, seat, accused=AARG_T[action], fault=AKIND_T[action])
    if s.status[seat] == FINISHED and not (s.phase == SNITCH_R and seat == s.due):
        return _illegal(N_("you have finished this round; wait for the next one"))
    if s.pause:
        who = s.pause_seat
        if typ == A_END_POLITIX and s.pause == P_POLITIX:
            return _illegal(N_("only {seat}, who called Politix, may end the pause"),
                            seat=seat_arg(who))
        if typ == A_RELEASE and s.pause == P_RESPEKT:
            return _illegal(N_("only {seat} may release the Respekt pause"),
                           seat=seat_arg(who))
        return _illegal(N_("the game is paused ({pause}): only accusations until it ends"),
                        pause=_pause(s.pause))
    if typ == A_END_POLITIX:
        return _illegal(N_("there is no Politix pause"))
    if typ == A_RELEASE:
        return _illegal(N_("there is no Respekt pause"))
    return None


def why_mic_drop(s: HoodPolitixState, seat: int, action: int) -> Check:
    """MIC_DROP_WINDOW (§9.7): the round is ending; only its seat left accuses or passes."""
    check = _aside(s, seat, action)
    if check is not None:
        return check
    typ = ATYPE_T[action]
    if typ == A_POLITIX:
        return _illegal(N_("the round is ending"))
    if typ == A_PASS:
        return _illegal(N_("only {seat} lets the Mic Drop pass"), seat=seat_arg(s.wait_seat))
    return _illegal(N_("the round is ending: accuse the missed Mic Drop or pass"))


def _in_play(s: HoodPolitixState, seat: int, action: int) -> Check | None:
    """What every phase of play judges alike (§3, §5, §9.4): ``_aside``, Politix, Mic
    Check, the Snitch's steps, cards not held, targets, moves out of turn; None for a
    wrong move of the due seat, which the phase's judge says more about."""
    check = _aside(s, seat, action)
    if check is not None:
        return check
    typ, kind, arg, flag = ATYPE_T[action], AKIND_T[action], AARG_T[action], AFLAG_T[action]
    if typ == A_POLITIX:
        return _illegal(N_("you have no Politix call left this round"))
    if typ == A_PASS:
        return _illegal(N_("there is no Mic Drop window to let pass"))
    if typ == A_MIC:
        return BLUFF  # nothing to announce: a permitted bluff (§5.4)
    if typ == A_REVEAL or typ == A_TAKE or typ == A_GIVE:
        return _judge_snitch_step(s, seat, typ, kind)
    hand = s.hands[seat]
    due = s.due
    if typ == A_PLAY or typ == A_THROW:
        if not hand & KIND_MASK[kind]:
            return _illegal(N_("you do not hold {card}"), card=_card(KIND_CODES[kind]))
        if flag and hand.bit_count() > 2 and action - 1 in s.legal_actions(seat):
            return BLUFF  # the card without the flag is legal: the flag is a bluff
        if typ == A_THROW:
            if kind >= NUMBER_KINDS:
                return _faulty(Fault.NOT_A_NUMBER, N_("only number cards can be thrown in"))
            return _faulty(Fault.TOO_LATE,
                           N_("too late or not identical: the top card is {top}"),
                           top=_card(KIND_CODES[s.top]))
        if arg >= 0 and (arg >= s.n or arg == seat or s.status[arg] != IN):
            return _illegal(N_("{seat} cannot be targeted (another player still in)"),
                            seat=seat_arg(arg))
    elif typ != A_DRAW and typ != A_ACCEPT:
        return _illegal(N_("not possible now"))
    if seat != due:
        return _faulty(Fault.OUT_OF_TURN, N_("out of turn: {seat} is to act"),
                       seat=seat_arg(due))
    return None


def _judge_accusation(s: HoodPolitixState, seat: int, accused: int, fault: int) -> Check:
    """§5.2, §9.4: an accusation that is not legal is ignored (a fault on record, or a timeout
    claim during a pause) or costs the accuser 2 (Judas)."""
    if accused >= s.n:
        return _illegal(N_("there is no {seat}"), seat=seat_arg(accused))
    if accused == seat:
        return _illegal(N_("you cannot accuse yourself"))
    if s.penalised >> (accused * 3 + fault) & 1:
        return _illegal(N_("that fault has already been penalised (ignored)"))
    if fault == F_TIMEOUT and s.pause:
        return _illegal(N_("the game is paused: no move timer runs (§9.5)"))
    return _faulty(Fault.FALSE_ACCUSATION, N_("Judas! {seat} has not committed {fault}"),
                   seat=seat_arg(accused), fault=_fault_word(fault, s.game.move_seconds))


def _judge_snitch_step(s: HoodPolitixState, seat: int, typ: int, kind: int) -> Check:
    """§4 Snitch, §9.10: why a reveal, take or give is refused (never a fault)."""
    if s.phase != SNITCH_R or seat != s.due:
        return _illegal(N_("there is no Snitch of yours to resolve"))
    taken = s.snitch_take
    if taken >= 0:
        if typ != A_GIVE:
            # the example is a card of the player's own: a fixed one could name a hidden card
            return _illegal(N_("you are taking their {card}: give one of your cards for it "
                               "('give {code}')"), card=_card(KIND_CODES[taken]),
                            code=_some_card(s.hands[seat]))
        return _illegal(N_("you hold no {card}"), card=_card(KIND_CODES[kind]))
    if typ == A_GIVE:
        # the Snitch player sees the target's hand (§4): the example is one of its cards
        return _illegal(N_("take one of their cards first ('take {code}'), then give one of "
                           "yours"), code=_some_card(s.hands[s.target]))
    if not s.hands[s.target] & KIND_MASK[kind]:
        return _illegal(N_("{seat} holds no {card}"), seat=seat_arg(s.target),
                        card=_card(KIND_CODES[kind]))
    if typ == A_TAKE:
        return _illegal(N_("you have no card to give in exchange: reveal one of theirs"))
    return _illegal(N_("not possible"))


def why_turn(s: HoodPolitixState, seat: int, action: int) -> Check:
    """TURN (§3): what every phase of play refuses (``_in_play``); the due seat's card does
    not match, or it draws while holding a playable card."""
    check = _in_play(s, seat, action)
    if check is not None:
        return check
    typ = ATYPE_T[action]
    if typ == A_PLAY:
        kind = AKIND_T[action]
        return _faulty(Fault.NO_MATCH, N_("{card} does not match {top} (colour {colour})"),
                       card=_card(KIND_CODES[kind]), top=_card(KIND_CODES[s.top]),
                       colour=_colour(s.colour))
    if typ == A_DRAW:
        return _faulty(Fault.PLAYABLE, N_("you hold a playable card"))
    return _faulty(Fault.NOTHING_TO_ACCEPT, N_("nothing to accept"))


def why_answer(s: HoodPolitixState, seat: int, action: int) -> Check:
    """STACK, SLAP, DEAL (§4): what every phase of play refuses (``_in_play``); not an
    answer the phase allows, and the reason names the ones it does (§9.3: no Deuce on a
    stack with In Yo Face)."""
    check = _in_play(s, seat, action)
    if check is not None:
        return check
    phase = s.phase
    if phase == STACK:
        if s.stack_iyf:
            if ATYPE_T[action] == A_PLAY and KIND_TYPE[AKIND_T[action]] == DEUCE:
                return _faulty(Fault.WRONG_ANSWER,
                               N_("a Deuce cannot go on a stack with In Yo Face"))
            return _faulty(Fault.WRONG_ANSWER, N_("wrong response: answer the stack with In "
                                                  "Yo Face, 5-0, a matching Payback, or "
                                                  "accept"))
        return _faulty(Fault.WRONG_ANSWER, N_("wrong response: answer the stack with Deuce, "
                                              "In Yo Face, 5-0, a matching Payback, or "
                                              "accept"))
    if phase == SLAP_R:
        return _faulty(Fault.WRONG_ANSWER, N_("wrong response: answer the Pimp Slap with a "
                                              "matching Payback, 5-0, or accept"))
    return _faulty(Fault.WRONG_ANSWER, N_("wrong response: block the Deal with 5-0, or "
                                          "accept"))


def why_snitch(s: HoodPolitixState, seat: int, action: int) -> Check:
    """SNITCH (§4): what every phase of play refuses (``_in_play``); the Snitch is resolved
    first — reveal one of the target's cards, or take one and give one (the exchange's
    second step, §9.10)."""
    check = _in_play(s, seat, action)
    if check is not None:
        return check
    typ = ATYPE_T[action]
    taken = s.snitch_take
    if typ == A_PLAY:
        if taken >= 0:
            return _faulty(Fault.WRONG_ANSWER, N_("resolve your Snitch first (give one of "
                                                  "your cards for their {card})"),
                           card=_card(KIND_CODES[taken]))
        return _faulty(Fault.WRONG_ANSWER, N_("resolve your Snitch first (reveal one of "
                                              "their cards, or take one and give one of "
                                              "yours)"))
    if typ == A_DRAW:
        if taken >= 0:
            return _faulty(Fault.WRONG_ANSWER, N_("wrong response: resolve your Snitch (give "
                                                  "one of your cards for their {card})"),
                           card=_card(KIND_CODES[taken]))
        return _faulty(Fault.WRONG_ANSWER, N_("wrong response: resolve your Snitch (reveal "
                                              "one of their cards, or take one and give one "
                                              "of yours)"))
    return _faulty(Fault.NOTHING_TO_ACCEPT, N_("nothing to accept"))
