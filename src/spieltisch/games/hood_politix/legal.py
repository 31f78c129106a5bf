"""Hood Politix: who may act and what is legal (§3–§5), one handler per phase of the
phase table (``HoodPolitixState.PHASES``, ``state.py``).

``seats`` is whom the game waits for, ``window`` who may act out of turn, and each
phase's legal actions list what the waited-for seat may do there, followed by what a
seat in the round may do in any phase of play (§5: throw in, announce its Mic Check,
call Politix, accuse). A finished seat and a paused game are the same in every phase
(``aside``). Plays are listed from precomputed tables (``cards.py``), so a table of 8
costs little more than one of 4.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ...core.cards import SEATS_OF
from .cards import (
    ACCEPT,
    ACCUSE_ID,
    BIG_HAND,
    DEUCE,
    DRAW,
    END_POLITIX,
    F_MIC_CHECK,
    F_MIC_DROP,
    F_TIMEOUT,
    FIRST_TARGETED,
    FIVEO,
    GIVES,
    IYF,
    KIND_MASK,
    MATCH,
    MAX_SEATS,
    MIC,
    NUMBER_KINDS,
    PAIR_FIRST,
    PASS,
    PAYBACK,
    PLAYS,
    PLAYS_BY_CARD,
    POLITIX,
    RELEASE,
    REVEALS,
    SINGLES,
    TAKES,
    TARGETED,
    TARGETED_PLAYS,
    THROW_ID,
    TYPE_MASK,
    listed,
    one_per_kind,
)
from .terms import FINISHED, MICDROP_WAIT, P_POLITIX, SNITCH_R, TURN

if TYPE_CHECKING:
    from .state import HoodPolitixState

FIVEO_MASK: Final = TYPE_MASK[FIVEO]
DEUCE_MASK: Final = TYPE_MASK[DEUCE]
IYF_MASK: Final = TYPE_MASK[IYF]
PAYBACK_MASK: Final = TYPE_MASK[PAYBACK]
#: ``(seat,)`` for every seat: ``seats`` answers without building a tuple.
_ONE_SEAT: Final = tuple((seat,) for seat in range(MAX_SEATS))


# -- who acts ----------------------------------------------------------------------------
def seats(s: HoodPolitixState) -> tuple[int, ...]:
    """The seat the game waits for: the pause's seat during a pause (§5.5, §5.6), else
    the due seat."""
    return _ONE_SEAT[s.pause_seat] if s.pause else _ONE_SEAT[s.due]


def window(s: HoodPolitixState) -> tuple[int, ...]:
    """Seats other than the due one that may act out of turn (§5): Politix callers, the
    Mic Check duty, in TURN the holders of the top number card (§5.1; in STACK, SLAP,
    DEAL and SNITCH the top card is an action card), and whoever has an open fault to
    accuse (§5.2); during a pause only accusers (§9.5)."""
    if s.pause:
        return _paused_window(s)
    may = s.callers
    if s.mic_duty >= 0:
        may |= 1 << s.mic_duty
    top = s.top
    if top < NUMBER_KINDS and s.phase is TURN:  # who could throw in
        throw = KIND_MASK[top]
        for p, hand in enumerate(s.hands):
            if hand & throw:
                may |= 1 << p
    may &= s.in_round
    if s.mic_open or s.drop_seat >= 0 or s.expired:
        may |= accusers(s, timeout=s.expired)
    return SEATS_OF[may & ~(1 << s.due)]


def window_mic_drop(s: HoodPolitixState) -> tuple[int, ...]:
    """MIC_DROP_WINDOW (§9.7): the seat left is due; finished seats may accuse."""
    if s.pause:
        return _paused_window(s)
    return SEATS_OF[accusers(s, timeout=False) & ~(1 << s.due)]


def _paused_window(s: HoodPolitixState) -> tuple[int, ...]:
    """During a pause only accusations, by anyone but the seat the pause waits for."""
    return SEATS_OF[accusers(s, timeout=False) & ~(1 << s.pause_seat)]


def accusers(s: HoodPolitixState, timeout: bool) -> int:
    """The seats that have someone to accuse (§5.2), as a mask: anyone but the offender
    of an open missed Mic Check or Mic Drop, and with ``timeout`` (an expired move
    timer, no pause) anyone but the slow due seat. ``accusations`` lists the actions."""
    everyone = (1 << s.n) - 1
    m = 0
    mic = s.mic_open
    if mic:  # nobody accuses themself: one offender is left out, two or more are not
        m = everyone if mic & (mic - 1) else everyone & ~mic
    if s.drop_seat >= 0:
        m |= everyone & ~(1 << s.drop_seat)
    if timeout:
        m |= everyone & ~(1 << s.due)
    return m


# -- what is legal -----------------------------------------------------------------------
def aside(s: HoodPolitixState, seat: int) -> list[int]:
    """In any phase: a finished seat only accuses (and resolves a last Snitch, §4); during
    a pause only the pause's seat ends it, and anyone accuses (§9.5)."""
    out: list[int] = []
    if s.status[seat] == FINISHED:
        if s.phase is SNITCH_R and seat == s.due and not s.pause:
            # A Snitch played as the last card is still resolved (§4: reveal only).
            out = listed(one_per_kind(s.hands[s.target]), REVEALS, [])
        if s.mic_open or s.drop_seat >= 0 or s.expired:
            accusations(s, seat, out)  # a finished player may accuse (§5.2)
        return out
    if seat == s.pause_seat:
        out.append(END_POLITIX if s.pause == P_POLITIX else RELEASE)
    accusations(s, seat, out)
    return out


def any_time(s: HoodPolitixState, seat: int, out: list[int]) -> list[int]:
    """Add what a seat in the round may do in every phase of play (§5): announce its
    Mic Check (§5.4), call Politix (§5.5), accuse (§5.2)."""
    if s.mic_duty == seat:
        out.append(MIC)
    if s.politix_left[seat]:
        out.append(POLITIX)
    if s.mic_open or s.drop_seat >= 0 or s.expired:
        accusations(s, seat, out)
    return out


def accusations(s: HoodPolitixState, seat: int, out: list[int]) -> None:
    """Add ``seat``'s valid accusations (§5.2): open missed Mic Checks, a missed Mic
    Drop, and a timeout once the move timer has run out (§5.3)."""
    m = s.mic_open & ~(1 << seat)
    while m:
        low = m & -m
        out.append(ACCUSE_ID[low.bit_length() - 1][F_MIC_CHECK])
        m ^= low
    d = s.drop_seat
    if d >= 0 and d != seat:
        out.append(ACCUSE_ID[d][F_MIC_DROP])
    if s.expired and s.due != seat and not s.pause and s.phase is not MICDROP_WAIT:
        out.append(ACCUSE_ID[s.due][F_TIMEOUT])


def turn(s: HoodPolitixState, seat: int) -> list[int]:
    """TURN (§3): the due seat plays a matching card, or draws without one; anyone
    holding the top number card may throw it in (§5.1)."""
    if s.pause or s.status[seat] == FINISHED:
        return aside(s, seat)
    out: list[int] = []
    hand = s.hands[seat]
    size = hand.bit_count()
    if seat == s.due:
        playable = hand & MATCH[s.top * 4 + s.colour]
        if playable:
            plays(s, seat, playable, size, out)
        if not out:
            out.append(DRAW)
    top = s.top
    if top < NUMBER_KINDS and hand & KIND_MASK[top]:
        out.append(THROW_ID[top][0])
        if size <= 2:
            out.append(THROW_ID[top][1])
    return any_time(s, seat, out)


def stack(s: HoodPolitixState, seat: int) -> list[int]:
    """STACK (§4, §9.3): Deuce (not on In Yo Face), In Yo Face, 5-0, a matching Payback,
    or accept."""
    if s.pause or s.status[seat] == FINISHED:
        return aside(s, seat)
    out: list[int] = []
    if seat == s.due:
        hand = s.hands[seat]
        m = IYF_MASK | FIVEO_MASK | (PAYBACK_MASK & MATCH[s.top * 4 + s.colour])
        if not s.stack_iyf:
            m |= DEUCE_MASK
        plays(s, seat, hand & m, hand.bit_count(), out)
        out.append(ACCEPT)
    return any_time(s, seat, out)


def slap(s: HoodPolitixState, seat: int) -> list[int]:
    """SLAP (§4 Pimp Slap): a matching Payback, 5-0, or accept."""
    if s.pause or s.status[seat] == FINISHED:
        return aside(s, seat)
    out: list[int] = []
    if seat == s.due:
        hand = s.hands[seat]
        plays(s, seat, hand & (FIVEO_MASK | (
            PAYBACK_MASK & MATCH[s.top * 4 + s.colour])), hand.bit_count(), out)
        out.append(ACCEPT)
    return any_time(s, seat, out)


def deal(s: HoodPolitixState, seat: int) -> list[int]:
    """DEAL (§4 Deal): the target next in turn blocks with 5-0, or accepts."""
    if s.pause or s.status[seat] == FINISHED:
        return aside(s, seat)
    out: list[int] = []
    if seat == s.due:
        hand = s.hands[seat]
        plays(s, seat, hand & FIVEO_MASK, hand.bit_count(), out)
        out.append(ACCEPT)
    return any_time(s, seat, out)


def snitch(s: HoodPolitixState, seat: int) -> list[int]:
    """SNITCH (§4, §9.10): reveal one of the target's cards, or take one and then give
    one of your own."""
    if s.pause or s.status[seat] == FINISHED:
        return aside(s, seat)
    out: list[int] = []
    if seat == s.due:
        hand = s.hands[seat]
        if s.snitch_take >= 0:  # the exchange half done: give a card
            out = listed(one_per_kind(hand), GIVES, [])
        else:
            theirs = one_per_kind(s.hands[s.target])
            out = listed(theirs, REVEALS, [])
            if hand:
                listed(theirs, TAKES, out)
    return any_time(s, seat, out)


def mic_drop_window(s: HoodPolitixState, seat: int) -> list[int]:
    """MIC_DROP_WINDOW (§9.7): the seat left accuses the missed Mic Drop or lets it pass."""
    if s.pause or s.status[seat] == FINISHED:
        return aside(s, seat)
    if seat != s.wait_seat:
        return []
    out = [PASS]
    accusations(s, seat, out)
    return out


def plays(s: HoodPolitixState, seat: int, playable: int, size: int, out: list[int]) -> None:
    """The play actions of the cards in ``playable`` out of a hand of ``size`` cards (one
    per kind; Deal and Snitch once per target still IN; the Mic flag only with the last
    two cards)."""
    flag = size <= 2
    m = ((playable | (playable >> 1)) & PAIR_FIRST) | (playable & SINGLES)  # one_per_kind
    targeted = m & TARGETED
    if targeted:
        m ^= targeted
        # The targets: the seats IN, that is in the round but not a pending finisher.
        targets = s.in_round & ~(1 << seat)
        if s.pending >= 0:
            targets &= ~(1 << s.pending)
        by_targets = TARGETED_PLAYS[flag]
        while targeted:
            low = targeted & -targeted
            targeted ^= low
            out += by_targets[low.bit_length() - 1 - FIRST_TARGETED][targets]
    if size >= BIG_HAND:  # many kinds to list (8 seats: 16 cards): a byte at a time
        listed(m, PLAYS[flag], out)
        return
    table = PLAYS_BY_CARD[flag]
    while m:
        low = m & -m
        m ^= low
        out += table[low.bit_length() - 1]
