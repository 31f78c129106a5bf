"""Pixmit's 33 cards, their groups, the scoring units and the exact scorer.

Card id = printed number − 1 (ids 0..32, codes ``"01"``..``"33"``); a hand is a
bitmask of ids. ``c(21)`` turns a printed number into an id, ``m(3, 20, 25)`` a
list of numbers into a mask.

Scoring (spec §4) is an exact maximisation over every way to split a hand into
disjoint scoring units. ``UNIT`` maps the mask of every unit that can matter to
its ``(points, kind)``; ``best_layout`` searches the packings of those units
inside a hand (memoised by mask); ``score`` and ``cached_layout`` run the same
search with one memo shared by every hand (sub-masks recur across hands).

Units left out of ``UNIT`` because they can never raise the maximum (proved in
rules.md and checked exhaustively by ``benchmarks/pixmit_scorer.py``): a
Trostpreis of k ≥ 3 cards is beaten by a 3er-Satz of three of them plus
Trostpreis/3er on the rest (k=3: 30 > 15; 4: 30 > 20; 5: a 5-card set ≥ 45 > 25;
6: 60 > 30; 7: 60 > 35).

Action ids (see ``ActionSpace``): fixed offsets, one table per action kind.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Final

from ...core.cards import code_lister

NUM_CARDS: Final = 33
CARD_CODES: Final[tuple[str, ...]] = tuple(f"{i + 1:02d}" for i in range(NUM_CARDS))
#: The card ids of a mask, ascending (table lookups 8 cards at a time: legal actions
#: list the subsets of a hand at every turn).
card_ids: Final[Callable[[int], list[int]]] = code_lister(range(NUM_CARDS))  # type: ignore[arg-type,assignment]
#: The card codes of a mask, lowest id first (a fresh list).
card_codes: Final[Callable[[int], list[str]]] = code_lister(CARD_CODES)


def c(number: int) -> int:
    """Card id of printed number ``number`` (1..33)."""
    return number - 1


def m(*numbers: int) -> int:
    """Mask of the cards with these printed numbers."""
    out = 0
    for n in numbers:
        out |= 1 << (n - 1)
    return out


NAMES: Final[tuple[str, ...]] = (
    "Die Dämonin", "Die Eclipse", "Die Mond-Priesterin (Schriftrolle)", "Die Harfe",
    "Die Eiserne Fackel", "Der rollende Narr", "Der Wolfsmensch", "Das Mondgesicht",
    "Die Zwillinge", "Shavok – Bird of Prey", "Das Skelett / Der Tod",
    "Der sterbende Mond / Planet", "Der Mann", "Romeo & Juliet", "Das All sehende Auge",
    "Die Tänzerin", "Die geflügelte Maske", "Der reinkarnierte Mann", "Das Auge von V'Ger",
    "Die Feuer-Priesterin", "Die Zerstörerin", "Die Medusa", "Die gehörnte Kriegerin",
    "Die Sirene", "Die Sonne", "Die Sonnenuhr", "Der Berserker", "Die Kriegerin (Schärpe)",
    "Shapouin (Die falsche Tür)", "Der Feuer-Priester", "Der Schamane",
    "Die Träne der Propheten", "Der Dolch",
)

# -- groups (§1) --------------------------------------------------------------------
GROUPS: Final[tuple[str, ...]] = ("TK", "ZK", "AK", "FK", "ASK", "OK", "PK", "DK")
GROUP_NAMES: Final[dict[str, str]] = {
    "TK": "Tier", "ZK": "Zwilling", "AK": "Auge", "FK": "Feuer", "ASK": "Astronomie",
    "OK": "Objekt", "PK": "Person", "DK": "Dämon",
}
TK: Final = 0
ZK: Final = 1
AK: Final = 2
FK: Final = 3
ASK: Final = 4
OK: Final = 5
PK: Final = 6
DK: Final = 7
JOKER_21: Final = c(21)
JOKER_32: Final = c(32)
JOKERS: Final = m(21, 32)

#: Cards printed in each group (card 21 only in ZK, 32 in AK, FK, ASK).
LISTED: Final[tuple[int, ...]] = (
    m(7, 10),
    m(9, 21),
    m(15, 19, 32),
    m(5, 20, 30, 32),
    m(2, 8, 12, 25, 32),
    m(4, 6, 17, 26, 29, 33),
    m(3, 13, 14, 16, 18, 31),
    m(1, 11, 22, 23, 24, 27, 28),
)
#: Members of each group: the listed cards plus the universal joker 21.
MEMBERS: Final[tuple[int, ...]] = tuple(g | (1 << JOKER_21) for g in LISTED)

# -- named sets ------------------------------------------------------------------------
CREATION: Final[int] = m(3, 20, 25)      # Schöpfung
KNOWLEDGE: Final[int] = m(15, 19, 26)    # Wissen
ANNIHILATION: Final[int] = m(11, 21, 33)  # Vernichtung
ELITE: Final[int] = m(7, 9, 10, 21)

# -- unit kinds ------------------------------------------------------------------------
CONSOLATION: Final = "Trostpreis"
TRIPLE: Final = "3er-Satz"
K_CREATION: Final = "Schöpfung"
K_KNOWLEDGE: Final = "Wissen"
K_ANNIHILATION: Final = "Vernichtung"
PERSONS: Final = "Personen-Satz"
HELL: Final = "Höllen-Satz"
ARTEFACT: Final = "Artefakt-Satz"
GODS: Final = "Götter-Satz"
COSMOS: Final = "Kosmos-Satz"
BEASTS: Final = "Bestien-Satz"
K_ELITE: Final = "Elite"
UNIT_KINDS: Final[tuple[str, ...]] = (
    CONSOLATION, TRIPLE, K_CREATION, K_KNOWLEDGE, K_ANNIHILATION, PERSONS, HELL, ARTEFACT,
    GODS, COSMOS, BEASTS, K_ELITE,
)
#: English names of the units (rules.md, describe texts).
UNIT_ENGLISH: Final[dict[str, str]] = {
    CONSOLATION: "consolation prize", TRIPLE: "set of three", K_CREATION: "Creation",
    K_KNOWLEDGE: "Knowledge", K_ANNIHILATION: "Annihilation", PERSONS: "persons' set",
    HELL: "hell set", ARTEFACT: "artefact set", GODS: "gods' set", COSMOS: "cosmos set",
    BEASTS: "beasts' set", K_ELITE: "Elite",
}
PURITY_BONUS: Final = 30
FIVE_SET_BASE: Final[dict[str, int]] = {
    PERSONS: 45, HELL: 60, ARTEFACT: 70, GODS: 85, COSMOS: 100, BEASTS: 120,
}
FIVE_SET_KINDS: Final = frozenset(FIVE_SET_BASE)


def _build_units() -> dict[int, tuple[int, str]]:
    """Every scoring unit of §4 as ``{card mask: (points, kind)}``, the best kind where a
    mask qualifies for several."""
    units: dict[int, tuple[int, str]] = {}

    def put(mask: int, value: int, kind: str) -> None:
        """Keep ``mask`` as a unit worth ``value``, unless it is already worth more."""
        old = units.get(mask)
        if old is None or value > old[0]:
            units[mask] = (value, kind)

    def ids(mask: int) -> list[int]:
        return [i for i in range(NUM_CARDS) if mask >> i & 1]

    for g in range(8):
        members = ids(MEMBERS[g])
        for pair in combinations(members, 2):
            put((1 << pair[0]) | (1 << pair[1]), 10, CONSOLATION)
        for tri in combinations(members, 3):
            put(sum(1 << x for x in tri), 30, TRIPLE)
    put(CREATION, 40, K_CREATION)
    put(KNOWLEDGE, 50, K_KNOWLEDGE)
    put(ANNIHILATION, 50, K_ANNIHILATION)
    put(ELITE, 150, K_ELITE)

    def five(mask: int, kind: str) -> None:
        """A 5-card set, +30 Reinheits-Bonus without 21 or 32 (§4)."""
        bonus = PURITY_BONUS if not mask & JOKERS else 0
        put(mask, FIVE_SET_BASE[kind] + bonus, kind)

    for g, kind in ((PK, PERSONS), (DK, HELL), (OK, ARTEFACT), (ASK, COSMOS)):
        for five_cards in combinations(ids(MEMBERS[g]), 5):
            five(sum(1 << x for x in five_cards), kind)
    fire = ids(MEMBERS[FK])
    for three in combinations(fire, 3):
        base = sum(1 << x for x in three)
        others = [x for x in range(NUM_CARDS) if not base >> x & 1]
        for two in combinations(others, 2):
            five(base | (1 << two[0]) | (1 << two[1]), GODS)
    for beasts in combinations(ids(MEMBERS[TK]), 2):
        for eyes in combinations(ids(MEMBERS[AK]), 3):
            if set(beasts) & set(eyes):
                continue
            five(sum(1 << x for x in beasts + eyes), BEASTS)
    return units


#: Every scoring unit that can matter: mask -> (points, kind).
UNIT: Final[dict[int, tuple[int, str]]] = _build_units()
#: Masks of every 5-card set (any kind): the Joker-Satz call looks here.
FIVE_SETS: Final[frozenset[int]] = frozenset(u for u, (_, k) in UNIT.items() if k in FIVE_SET_KINDS)
#: Cards that belong to some unit at all (every card does; kept for clarity).
_SPECIAL_TRIPLES: Final = (CREATION, KNOWLEDGE, ANNIHILATION)


# -- the exact scorer ---------------------------------------------------------------------
def best_layout(hand: int) -> tuple[int, list[int]]:
    """The best score of ``hand`` and one assignment of units achieving it.

    Exact: a memoised search over every packing of disjoint units inside the hand
    (spec §4: ``f(M) = max(f(M − {m}), max_S value(S) + f(M − S))`` with m the lowest
    card; units that can never raise the maximum are left out of ``UNIT``).
    """
    units: list[tuple[int, int]] = []
    get = UNIT.get
    sub = hand
    while sub:
        u = get(sub)
        if u is not None:
            units.append((sub, u[0]))
        sub = (sub - 1) & hand
    if not units:
        return 0, []
    useful = 0
    for unit_mask, _ in units:
        useful |= unit_mask
    memo: dict[int, tuple[int, int]] = {0: (0, 0)}

    def f(mask: int) -> int:
        """§4 "Best score (exact)": the recursion over the lowest card of ``mask``."""
        hit = memo.get(mask)
        if hit is not None:
            return hit[0]
        low = mask & -mask
        best = f(mask ^ low)
        choice = 0
        for u, v in units:
            if u & low and u & mask == u:
                val = v + f(mask ^ u)
                if val > best:
                    best = val
                    choice = u
        memo[mask] = (best, choice)
        return best

    total = f(useful)
    layout: list[int] = []
    mask = useful
    while mask:
        _, choice = memo[mask]
        if choice:
            layout.append(choice)
            mask ^= choice
        else:
            mask ^= mask & -mask
    return total, layout


#: ``mask -> (f(mask), unit)`` for every mask met so far (bounded): the unit holding the
#: mask's lowest card that a best layout of ``mask`` takes (0: that card stays unused).
#: Both depend on the mask alone, and the search below asks only about sub-masks, so
#: hands share the entries of their smaller parts. ``tests/test_scoring.py`` checks
#: that it gives exactly ``best_layout``'s scores and layouts.
_BEST: Final[dict[int, tuple[int, int]]] = {0: (0, 0)}
_CACHE_LIMIT: Final = 200_000


def _partners() -> list[int]:
    """Per card, the cards it shares a unit with (Götter-Sätze aside: any two cards
    complete them)."""
    out = [0] * NUM_CARDS
    for u, (_, kind) in UNIT.items():
        if kind != GODS:
            for x in range(NUM_CARDS):
                if u >> x & 1:
                    out[x] |= u & ~(1 << x)
    return out


#: The cards each card shares a unit with, Götter-Sätze aside: a Götter-Satz takes any
#: two cards beside three FK members, so only a mask with three FK members needs them.
_PARTNERS: Final[list[int]] = _partners()
_FIRE: Final = MEMBERS[FK]


def _best(mask: int) -> tuple[int, int]:
    """``best_layout``'s recursion with the memo shared by all hands."""
    hit = _BEST.get(mask)
    if hit is not None:
        return hit
    low = mask & -mask
    rest = mask ^ low
    best = _best(rest)[0]  # the lowest card left unused
    choice = 0
    get = UNIT.get
    others = rest if (mask & _FIRE).bit_count() >= 3 else \
        rest & _PARTNERS[low.bit_length() - 1]
    sub = others
    while sub:  # every unit with the lowest card (2+ cards), highest mask first
        unit = sub | low
        found = get(unit)
        if found is not None:
            value = found[0] + _best(mask ^ unit)[0]
            if value > best:
                best = value
                choice = unit
        sub = (sub - 1) & others
    if len(_BEST) >= _CACHE_LIMIT:
        _BEST.clear()
        _BEST[0] = (0, 0)
    hit = _BEST[mask] = (best, choice)
    return hit


def score(hand: int) -> int:
    """``f(hand)``, the best score of a hand (memoised by mask)."""
    return _best(hand)[0]


def cached_layout(hand: int) -> tuple[int, tuple[int, ...]]:
    """``best_layout(hand)`` from the shared memo: the best score and its units."""
    layout: list[int] = []
    mask = hand
    while mask:
        choice = _best(mask)[1]
        if choice:
            layout.append(choice)
            mask ^= choice
        else:
            mask ^= mask & -mask
    return _best(hand)[0], tuple(layout)


def annihilation_counts(hand: int) -> bool:
    """Vernichtung is in an optimal assignment: ``50 + f(hand − V) = f(hand)`` (§4)."""
    return hand & ANNIHILATION == ANNIHILATION and \
        50 + score(hand & ~ANNIHILATION) == score(hand)


def has_set(hand: int) -> bool:
    """A 3er, special set, 5-card set or Elite (hunt eligibility; §3 HUNT).

    Every 5-card set and Elite contains a 3er (Götter: 3 FK members; Bestien: 3 AK
    members; Elite: 07, 10, 21 are TK members), so three members of one group or
    a special triple decide it.
    """
    for g in MEMBERS:
        if (hand & g).bit_count() >= 3:
            return True
    return any(hand & s == s for s in _SPECIAL_TRIPLES)


# -- calls (§3 step 1) ----------------------------------------------------------------
CALL_JOKER: Final = "joker_set"
CALL_NATURAL: Final = "natural_set"
CALL_ELITE: Final = "elite"
CALL_CONDITIONS: Final[tuple[str, ...]] = (CALL_JOKER, CALL_NATURAL, CALL_ELITE)
_NATURAL_GROUPS: Final = (LISTED[OK], LISTED[PK], LISTED[DK])


def call_conditions(hand: int) -> list[str]:
    """Which of the three call conditions ``hand`` meets (empty: no call)."""
    out: list[str] = []
    if hand & JOKERS and hand.bit_count() >= 5:
        if _joker_five(hand):
            out.append(CALL_JOKER)
    if hand.bit_count() == 6 and any(hand & ~g == 0 for g in _NATURAL_GROUPS):
        out.append(CALL_NATURAL)
    if hand & ELITE == ELITE:
        out.append(CALL_ELITE)
    return out


def may_call(hand: int) -> bool:
    """§3.1 CALL: Elite, a natural set (6 cards of OK, PK or DK) or a Joker-Satz."""
    if hand & ELITE == ELITE:
        return True
    size = hand.bit_count()
    if size == 6 and any(hand & ~g == 0 for g in _NATURAL_GROUPS):
        return True
    return bool(hand & JOKERS) and size >= 5 and _joker_five(hand)


def _joker_five(hand: int) -> bool:
    """Some 5 cards of ``hand`` form a 5-card set that includes 21 or 32."""
    cards = card_ids(hand)
    if len(cards) < 5:
        return False
    for left_out in combinations(cards, len(cards) - 5):  # the cards not in the five
        mask = hand
        for x in left_out:
            mask ^= 1 << x
        if mask & JOKERS and mask in FIVE_SETS:
            return True
    return False


# -- claims (announcements about offered cards) --------------------------------------
#: Claim index 0 = no claim, 1..8 = a group, 9..41 = a card number.
NUM_CLAIMS: Final = 1 + len(GROUPS) + NUM_CARDS
CLAIM_TEXT: Final[tuple[str, ...]] = ("none",) + GROUPS + CARD_CODES


def truthful_claims(card: int) -> list[int]:
    """Claims that are true of ``card``: its groups or its number (21: any group)."""
    out = [1 + g for g in range(8) if MEMBERS[g] >> card & 1]
    out.append(1 + len(GROUPS) + card)
    return out


TRUTHFUL: Final[tuple[tuple[int, ...], ...]] = tuple(tuple(truthful_claims(x))
                                                     for x in range(NUM_CARDS))


def claim_is_true(claim: int, card: int) -> bool:
    return claim in TRUTHFUL[card]


# -- card subsets of size 1 or 2 (offers, returns) -----------------------------------------
#: Subset index -> mask: 0..32 single cards, then every pair (a < b).
SUBSETS: Final[list[int]] = [1 << x for x in range(NUM_CARDS)] + [
    (1 << a) | (1 << b) for a, b in combinations(range(NUM_CARDS), 2)
]
NUM_SUBSETS: Final = len(SUBSETS)  # 561
SUBSET_INDEX: Final[dict[int, int]] = {mask: i for i, mask in enumerate(SUBSETS)}
#: Subset index of each pair ``(a, b)`` with ``a < b``.
PAIR_OF: Final[dict[tuple[int, int], int]] = {}
for _i, _mask in enumerate(SUBSETS):
    if _mask.bit_count() == 2:
        PAIR_OF[(_mask & -_mask).bit_length() - 1, _mask.bit_length() - 1] = _i
SUBSET_CARDS: Final[list[tuple[int, ...]]] = [
    tuple(x for x in range(NUM_CARDS) if mask >> x & 1) for mask in SUBSETS
]


def subsets_of(hand: int, k: int) -> list[int]:
    """Subset indices of the k-card subsets (k = 1 or 2) of ``hand``."""
    cards = card_ids(hand)  # a single card's subset index is its id
    return cards if k == 1 else pairs_of(cards)


def pairs_of(cards: list[int]) -> list[int]:
    """Subset indices of the pairs of ``cards`` (ascending ids), lowest pair first."""
    return list(map(PAIR_OF.__getitem__, combinations(cards, 2)))


def layout_text(hand: int) -> list[dict[str, object]]:
    """The Auslegung of ``hand`` as JSON: kind, cards, points."""
    _, layout = cached_layout(hand)
    return [{"unit": UNIT[u][1], "cards": card_codes(u), "points": UNIT[u][0]} for u in layout]
