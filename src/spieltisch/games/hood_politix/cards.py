"""Hood Politix's 128 cards and the precomputed action tables.

Cards come in 72 *kinds* (a colour and a number 1–10 or an action type). Kinds with
two copies (numbers, Deuce, Busted, Payback, 5-0) get two physical card ids; the
copies are interchangeable, so actions name kinds and the engine removes the
lowest-id copy held. Physical ids run kind by kind, copies adjacent.

Kind ids: numbers ``colour * 10 + value - 1`` (0..39); actions
``40 + type * 4 + colour`` (40..71). Colours G, O, P, Y (Green, Orange, Purple,
Yellow). For a *bunt* card the colour is its centre colour.

Kind codes: ``G7``, ``Y10``; action types DU (Deuce), BU (Busted), PB (Payback),
50 (5-0), IY (In Yo Face), PS (Pimp Slap), DL (Deal), SN (Snitch): ``GDU``,
``Y50``, ``OIY``. Physical codes add ``a``/``b`` for the two copies (``G7a``).

Action ids (fixed for every player count; seats go up to 7):
  play      kind [target] [mic]   non-target kinds: 2 ids (mic flag); Deal/Snitch 16
  throw     kind [mic]            (throw-in; any kind may be attempted, only an identical
                                  number card is a legal one: §5.1)
  draw, accept, mic check, politix, end politix, release, pass
  reveal    kind                  (Snitch: show one of the target's cards)
  take      kind                  (Snitch exchange, step 1: the target's card to take)
  give      kind                  (Snitch exchange, step 2: my card in return)
  accuse    seat fault            (mic-check, mic-drop, timeout)
  expire    move-timer / respekt / politix   (clock actions)
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum
from typing import Any, Final

COLOURS: Final = ("G", "O", "P", "Y")
COLOUR_NAMES: Final = ("Green", "Orange", "Purple", "Yellow")
MAX_SEATS: Final = 8

# Action types (order fixes kind ids).
DEUCE: Final = 0
BUSTED: Final = 1
PAYBACK: Final = 2
FIVEO: Final = 3
IYF: Final = 4
SLAP: Final = 5
DEAL: Final = 6
SNITCH: Final = 7
TYPE_CODES: Final = ("DU", "BU", "PB", "50", "IY", "PS", "DL", "SN")
TYPE_NAMES: Final = ("Deuce", "Busted", "Payback", "5-0", "In Yo Face", "Pimp Slap", "Deal",
                     "Snitch")
TYPE_COPIES: Final = (2, 2, 2, 2, 1, 1, 1, 1)
BUNT_TYPES: Final = (FIVEO, IYF, SLAP, DEAL, SNITCH)

NUM_KINDS: Final = 72
NUMBER_KINDS: Final = 40


def kind_type(kind: int) -> int:
    """-1 for a number card, else the action type."""
    return -1 if kind < NUMBER_KINDS else (kind - NUMBER_KINDS) >> 2


def kind_colour(kind: int) -> int:
    return kind // 10 if kind < NUMBER_KINDS else (kind - NUMBER_KINDS) & 3


def kind_value(kind: int) -> int:
    """1..10 for a number card, 0 for an action card."""
    return kind % 10 + 1 if kind < NUMBER_KINDS else 0


def action_kind(typ: int, colour: int) -> int:
    return NUMBER_KINDS + typ * 4 + colour


KIND_TYPE: Final = tuple(kind_type(k) for k in range(NUM_KINDS))
KIND_COLOUR: Final = tuple(kind_colour(k) for k in range(NUM_KINDS))
KIND_VALUE: Final = tuple(kind_value(k) for k in range(NUM_KINDS))
KIND_BUNT: Final = tuple(KIND_TYPE[k] in BUNT_TYPES for k in range(NUM_KINDS))
KIND_COPIES: Final = tuple(2 if k < NUMBER_KINDS else TYPE_COPIES[KIND_TYPE[k]]
                           for k in range(NUM_KINDS))
KIND_CODES: Final = tuple(
    (COLOURS[KIND_COLOUR[k]] + (str(KIND_VALUE[k]) if k < NUMBER_KINDS
                                else TYPE_CODES[KIND_TYPE[k]]))
    for k in range(NUM_KINDS))
KIND_NAMES: Final = tuple(
    COLOUR_NAMES[KIND_COLOUR[k]] + " " + (str(KIND_VALUE[k]) if k < NUMBER_KINDS
                                          else TYPE_NAMES[KIND_TYPE[k]])
    for k in range(NUM_KINDS))
KIND_INDEX: Final = {c.upper(): k for k, c in enumerate(KIND_CODES)}

# Physical cards.
KIND_OF: Final[list[int]] = []
CARD_CODES_L: Final[list[str]] = []
KIND_MASK: Final = [0] * NUM_KINDS  # the physical ids of each kind
for _k in range(NUM_KINDS):
    for _copy in range(KIND_COPIES[_k]):
        KIND_MASK[_k] |= 1 << len(KIND_OF)
        CARD_CODES_L.append(KIND_CODES[_k] + ("ab"[_copy] if KIND_COPIES[_k] == 2 else ""))
        KIND_OF.append(_k)
NUM_CARDS: Final = len(KIND_OF)
assert NUM_CARDS == 128
CARD_CODES: Final[tuple[str, ...]] = tuple(CARD_CODES_L)
ALL_CARDS: Final = (1 << NUM_CARDS) - 1
KIND_OF_T: Final = tuple(KIND_OF)
CARD_TYPE: Final = tuple(KIND_TYPE[k] for k in KIND_OF)
CARD_KIND_CODES: Final = tuple(KIND_CODES[k] for k in KIND_OF)  # a card's kind code ("G7")
CARD_COLOUR: Final = tuple(KIND_COLOUR[k] for k in KIND_OF)
CARD_BIT: Final = tuple(1 << c for c in range(NUM_CARDS))  # a card's mask, without a shift
#: The lower physical id of each kind (the second copy, if any, is the next id).
KIND_FIRST: Final = tuple((m & -m).bit_length() - 1 for m in KIND_MASK)
NUMBER_MASK: Final = sum(1 << c for c, k in enumerate(KIND_OF) if k < NUMBER_KINDS)
ACTION_MASK: Final = ALL_CARDS & ~NUMBER_MASK
BUNT_MASK: Final = sum(1 << c for c, k in enumerate(KIND_OF) if KIND_BUNT[k])
TYPE_MASK: Final = [0] * 8
COLOUR_MASK: Final = [0] * 4  # normal-matching by colour (bunt cards included by centre colour)
VALUE_MASK: Final = [0] * 11
for _c, _k in enumerate(KIND_OF):
    _b = 1 << _c
    if _k < NUMBER_KINDS:
        VALUE_MASK[KIND_VALUE[_k]] |= _b
    else:
        TYPE_MASK[KIND_TYPE[_k]] |= _b
    COLOUR_MASK[KIND_COLOUR[_k]] |= _b

# MATCH[top kind * 4 + active colour]: physical cards playable on it (§3 Matching).
MATCH: Final = [0] * (NUM_KINDS * 4)
for _t in range(NUM_KINDS):
    for _col in range(4):
        m = BUNT_MASK | COLOUR_MASK[_col]
        if _t < NUMBER_KINDS:
            m |= VALUE_MASK[KIND_VALUE[_t]]
        else:
            m |= TYPE_MASK[KIND_TYPE[_t]]
        MATCH[_t * 4 + _col] = m

# -- actions -----------------------------------------------------------------------


class ActionType(IntEnum):
    """The kinds of action (the ``actions`` of each rule of the phase table)."""

    PLAY = 0
    THROW = 1
    DRAW = 2
    ACCEPT = 3
    MIC = 4
    POLITIX = 5
    END_POLITIX = 6
    RELEASE = 7
    PASS = 8
    REVEAL = 9
    TAKE = 10
    GIVE = 11
    ACCUSE = 12
    EXPIRE = 13


# Hot-path aliases (a global is cheaper to read than ``ActionType.PLAY``).
A_PLAY: Final = ActionType.PLAY
A_THROW: Final = ActionType.THROW
A_DRAW: Final = ActionType.DRAW
A_ACCEPT: Final = ActionType.ACCEPT
A_MIC: Final = ActionType.MIC
A_POLITIX: Final = ActionType.POLITIX
A_END_POLITIX: Final = ActionType.END_POLITIX
A_RELEASE: Final = ActionType.RELEASE
A_PASS: Final = ActionType.PASS
A_REVEAL: Final = ActionType.REVEAL
A_TAKE: Final = ActionType.TAKE
A_GIVE: Final = ActionType.GIVE
A_ACCUSE: Final = ActionType.ACCUSE
A_EXPIRE: Final = ActionType.EXPIRE

F_MIC_CHECK: Final = 0
F_MIC_DROP: Final = 1
F_TIMEOUT: Final = 2
FAULT_CODES: Final = ("mic-check", "mic-drop", "timeout")
FAULT_NAMES: Final = ("missed Mic Check", "missed Mic Drop", "too slow (3-second rule)")
T_MOVE: Final = 0
T_RESPEKT: Final = 1
T_POLITIX: Final = 2
TIMER_CODES: Final = ("move-timer", "respekt", "politix")

ATYPE: Final[list[int]] = []
AKIND: Final[list[int]] = []  # kind (play/throw/reveal/take/give), fault (accuse)
AARG: Final[list[int]] = []   # target seat (play; -1 none), seat (accuse), timer (expire)
AFLAG: Final[list[int]] = []  # mic flag (play/throw)


def _add(typ: int, kind: int = -1, arg: int = -1, flag: int = 0) -> int:
    ATYPE.append(typ)
    AKIND.append(kind)
    AARG.append(arg)
    AFLAG.append(flag)
    return len(ATYPE) - 1


# PLAY_ID[kind][target + 1][flag]
PLAY_ID: Final[list[list[list[int]]]] = [[[-1, -1] for _ in range(MAX_SEATS + 1)]
                                         for _ in range(NUM_KINDS)]
for _k in range(NUM_KINDS):
    if KIND_TYPE[_k] in (DEAL, SNITCH):
        for _t in range(MAX_SEATS):
            for _f in (0, 1):
                PLAY_ID[_k][_t + 1][_f] = _add(A_PLAY, _k, _t, _f)
    else:
        for _f in (0, 1):
            PLAY_ID[_k][0][_f] = _add(A_PLAY, _k, -1, _f)
# Every kind, not only numbers: throwing in an action card is a fault to attempt (§3, §5.1).
THROW_ID: Final = [[_add(A_THROW, _k, -1, _f) for _f in (0, 1)] for _k in range(NUM_KINDS)]
DRAW: Final = _add(A_DRAW)
ACCEPT: Final = _add(A_ACCEPT)
MIC: Final = _add(A_MIC)
POLITIX: Final = _add(A_POLITIX)
END_POLITIX: Final = _add(A_END_POLITIX)
RELEASE: Final = _add(A_RELEASE)
PASS: Final = _add(A_PASS)
REVEAL_ID: Final = [_add(A_REVEAL, _k) for _k in range(NUM_KINDS)]
# The Snitch exchange is two steps (take theirs, then give mine): 2 x 72 ids, not 72 x 72.
TAKE_ID: Final = [_add(A_TAKE, _k) for _k in range(NUM_KINDS)]
GIVE_ID: Final = [_add(A_GIVE, _k) for _k in range(NUM_KINDS)]
ACCUSE_ID: Final = [[_add(A_ACCUSE, _f, _s) for _f in range(3)] for _s in range(MAX_SEATS)]
EXPIRE_ID: Final = [_add(A_EXPIRE, -1, _t) for _t in range(3)]
NUM_ACTIONS: Final = len(ATYPE)
# A flagged play or throw-in directly follows its unflagged twin (``action - 1``).
assert all(AFLAG[a] == 0 or (AFLAG[a - 1] == 0 and ATYPE[a - 1] == ATYPE[a]
                             and AKIND[a - 1] == AKIND[a] and AARG[a - 1] == AARG[a])
           for a in range(NUM_ACTIONS))

# Tuples are a little faster to index than lists.
ATYPE_T: Final = tuple(ATYPE)
AKIND_T: Final = tuple(AKIND)
AARG_T: Final = tuple(AARG)
AFLAG_T: Final = tuple(AFLAG)


def kinds_of(mask: int) -> list[int]:
    """The distinct kinds in a card mask, ascending."""
    out: list[int] = listed(one_per_kind(mask), _KIND_BYTES, [])
    return out


# -- lists from masks, a byte at a time ---------------------------------------------------
# A hand of 16 cards (8 seats) spans all 16 bytes of a mask: reading the mask as bytes
# (``int.to_bytes``, once) and looking each byte up costs less than 16 big-integer
# shifts, or a step per card.
#: Up to this many cards ``listed`` takes them one by one (the break-even, measured).
FEW_CARDS: Final = 4
#: From this many cards in a hand its plays are listed a byte at a time (``legal.plays``):
#: the hand's size is known there, where counting the playable cards would cost a call.
BIG_HAND: Final = 12
#: ``table[i][b]``: a value per card of byte ``b`` at byte ``i`` of a mask.
ByteTable = tuple[tuple[tuple[Any, ...], ...], ...]


def by_byte(values: Callable[[int], tuple[Any, ...]]) -> ByteTable:
    """``table[i][b]``: the ``values`` of each card ``8i … 8i+7`` set in byte ``b``, in
    the order of the cards."""
    return tuple(tuple(tuple(v for j in range(8) if b >> j & 1 for v in values(8 * i + j))
                       for b in range(256)) for i in range(NUM_CARDS // 8))


def listed(mask: int, table: ByteTable, out: list[Any]) -> list[Any]:
    """``out`` with the values ``table`` gives the cards of ``mask`` added, lowest id
    first."""
    if mask.bit_count() <= FEW_CARDS:  # a card at a time: fewer steps than 16 bytes
        while mask:
            low = mask & -mask
            c = low.bit_length() - 1
            out += table[c >> 3][1 << (c & 7)]
            mask ^= low
        return out
    i = 0
    for b in mask.to_bytes(16, "little"):
        if b:
            out += table[i][b]
        i += 1
    return out


_CODE_BYTES: Final = by_byte(lambda c: (CARD_KIND_CODES[c],))


def codes(mask: int) -> list[str]:
    """Kind codes of the cards in a mask (a duplicate appears twice), lowest id first."""
    out: list[str] = listed(mask, _CODE_BYTES, [])
    return out


def first_of_kind(mask: int, kind: int) -> int:
    """The lowest physical id of ``kind`` in ``mask`` (-1 if none)."""
    m = mask & KIND_MASK[kind]
    return (m & -m).bit_length() - 1 if m else -1


# Fast play listing: two-copy kinds sit at even/odd id pairs below ``FIRST_SINGLE``, so
# ``((m | m >> 1) & PAIR_FIRST) | (m & SINGLES)`` keeps one bit per kind.
FIRST_SINGLE: Final = min(i for i, k in enumerate(KIND_OF) if KIND_COPIES[k] == 1)
assert all(KIND_COPIES[KIND_OF[i]] == 2 for i in range(FIRST_SINGLE))
assert FIRST_SINGLE % 2 == 0
PAIR_FIRST: Final = sum(1 << i for i in range(0, FIRST_SINGLE, 2))
SINGLES: Final = ALL_CARDS & ~((1 << FIRST_SINGLE) - 1)


def one_per_kind(mask: int) -> int:
    """The card mask with one bit per kind held (the lower id of a pair)."""
    return ((mask | (mask >> 1)) & PAIR_FIRST) | (mask & SINGLES)


TARGETED: Final = sum(1 << c for c, k in enumerate(KIND_OF) if KIND_TYPE[k] in (DEAL, SNITCH))
# PLAYS_BY_CARD[flag][card]: the play actions (no target) of the card's kind.
PLAYS_BY_CARD: Final = (
    tuple((PLAY_ID[k][0][0],) for k in KIND_OF),
    tuple((PLAY_ID[k][0][0], PLAY_ID[k][0][1]) for k in KIND_OF),
)
#: PLAYS[flag]: ``PLAYS_BY_CARD`` by byte, for ``listed`` (on a ``one_per_kind`` mask).
PLAYS: Final = (by_byte(PLAYS_BY_CARD[0].__getitem__), by_byte(PLAYS_BY_CARD[1].__getitem__))
#: The Deal and Snitch cards are the last ids (single copies), from ``FIRST_TARGETED``.
FIRST_TARGETED: Final = TARGETED.bit_length() - TARGETED.bit_count()
assert TARGETED == ALL_CARDS & ~((1 << FIRST_TARGETED) - 1)


def _targeted_plays(card: int, targets: int, flag: int) -> tuple[int, ...]:
    """The plays of Deal or Snitch ``card`` at each seat in ``targets``, ascending (with
    ``flag``: each play, then its flagged twin)."""
    ids = PLAY_ID[KIND_OF[card]]
    return tuple(ids[t + 1][f] for t in range(MAX_SEATS) if targets >> t & 1
                 for f in range(flag + 1))


#: TARGETED_PLAYS[flag][card - FIRST_TARGETED][targets]: ``_targeted_plays`` for every
#: mask of targets, so listing them is one lookup however many seats there are.
TARGETED_PLAYS: Final = tuple(
    tuple(tuple(_targeted_plays(c, ts, flag) for ts in range(1 << MAX_SEATS))
          for c in range(FIRST_TARGETED, NUM_CARDS))
    for flag in (0, 1))


# Per kind held (on a ``one_per_kind`` mask): the kinds, and the Snitch's reveal, take and
# give actions, so a Snitch on a hand of 16 lists its actions a byte at a time.
_KIND_BYTES: Final = by_byte(lambda c: (KIND_OF_T[c],))
REVEALS: Final = by_byte(lambda c: (REVEAL_ID[KIND_OF_T[c]],))
TAKES: Final = by_byte(lambda c: (TAKE_ID[KIND_OF_T[c]],))
GIVES: Final = by_byte(lambda c: (GIVE_ID[KIND_OF_T[c]],))
