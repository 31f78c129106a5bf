"""President's 54 cards and the precomputed action tables.

Card id = rank * 4 + suit for the 52 naturals (rank 0 = "3" … 12 = "2"; suits
C, D, H, S), 52 = JK1, 53 = JK2. A hand is a bitmask, so the cards of one rank
are one 4-bit nibble: ``(hand >> 4 * rank) & 15``.

Action ids (253 in all):
  0            pass
  1..195       play a set of naturals: 1 + rank * 15 + (suit_subset - 1)
  196, 197     play JK1 / JK2 alone
  198          play JK1 + JK2
  199..252     give one card (exchange): 199 + card id
"""

from __future__ import annotations

from typing import Final

from ...core.cards import code_lister

RANKS: Final = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
SUITS: Final = ("C", "D", "H", "S")
JOKER_RANK: Final = 13
JK1: Final = 52
JK2: Final = 53
NUM_CARDS: Final = 54
CARD_CODES: Final[tuple[str, ...]] = tuple(r + s for r in RANKS for s in SUITS) + ("JK1", "JK2")

PASS: Final = 0
FIRST_JOKER_ACTION: Final = 196
PLAY_JK1: Final = 196
PLAY_JK2: Final = 197
PLAY_JOKERS: Final = 198
FIRST_GIVE: Final = 199
NUM_ACTIONS: Final = FIRST_GIVE + NUM_CARDS


def rank_of(card: int) -> int:
    """The card's rank: 0 ("3") … 12 ("2"), 13 for a Joker (§1)."""
    return JOKER_RANK if card >= JK1 else card >> 2


# Per play action: the card mask, the rank (13 = Joker) and the number of cards.
PLAY_MASK: Final = [0] * NUM_ACTIONS
PLAY_RANK: Final = [-1] * NUM_ACTIONS
PLAY_SIZE: Final = [0] * NUM_ACTIONS
for _r in range(13):
    for _sub in range(1, 16):
        _a = 1 + _r * 15 + _sub - 1
        PLAY_MASK[_a] = _sub << (4 * _r)
        PLAY_RANK[_a] = _r
        PLAY_SIZE[_a] = _sub.bit_count()
for _a, _m in ((PLAY_JK1, 1 << JK1), (PLAY_JK2, 1 << JK2), (PLAY_JOKERS, (1 << JK1) | (1 << JK2))):
    PLAY_MASK[_a] = _m
    PLAY_RANK[_a] = JOKER_RANK
    PLAY_SIZE[_a] = _m.bit_count()

# SETS[rank][nibble][size]: play actions of exactly `size` cards of `rank` within `nibble`
# (size 0 = every size). Legal-move generation is a few table look-ups.
SETS: Final[list[list[list[list[int]]]]] = [
    [[[] for _ in range(5)] for _ in range(16)] for _ in range(13)
]
for _r in range(13):
    for _nib in range(16):
        for _sub in range(1, 16):
            if _sub & ~_nib:
                continue
            _a = 1 + _r * 15 + _sub - 1
            SETS[_r][_nib][0].append(_a)
            SETS[_r][_nib][_sub.bit_count()].append(_a)

# JOKER_SETS[jokers held as 2 bits][size]
JOKER_SETS: Final[list[list[list[int]]]] = [[[] for _ in range(5)] for _ in range(4)]
for _j in range(4):
    if _j & 1:
        JOKER_SETS[_j][1].append(PLAY_JK1)
    if _j & 2:
        JOKER_SETS[_j][1].append(PLAY_JK2)
    if _j == 3:
        JOKER_SETS[_j][2].append(PLAY_JOKERS)
    JOKER_SETS[_j][0] = JOKER_SETS[_j][1] + JOKER_SETS[_j][2]


def strength(rank: int, rev: bool) -> int:
    """The spec's ``strength(rank, rev)``: a Joker is always 99."""
    if rank == JOKER_RANK:
        return 99
    return 12 - rank if rev else rank


def best_rank(rev: bool) -> int:
    """The natural rank that can never be matched for a skip (2, or 3 in a revolution)."""
    return 0 if rev else 12


# BEATING[rev][top rank]: the natural ranks strictly stronger than top.
BEATING: Final = [[[r for r in range(13) if strength(r, rev) > strength(t, rev)] for t in range(14)]
                  for rev in (False, True)]


def code(card: int) -> str:
    """The card's code (``"10H"``, ``"JK1"``)."""
    return CARD_CODES[card]


#: _CODES8[k][byte]: the codes of the cards ``8k … 8k+7`` set in ``byte`` (for views).
#: The codes of the cards in a mask, lowest id first.
codes: Final = code_lister(CARD_CODES)


def play_action(mask: int) -> int | None:
    """The play action for a card mask, or None if it is not a set of one rank."""
    for a in range(1, FIRST_GIVE):
        if PLAY_MASK[a] == mask:
            return a
    return None


def highest_cards(hand: int, count: int) -> int:
    """The ``count`` highest cards in the normal order, Jokers on top (ties: higher suit)."""
    out = 0
    for card in range(NUM_CARDS - 1, -1, -1):
        if count == 0:
            break
        if hand >> card & 1:
            out |= 1 << card
            count -= 1
    return out
