"""HOAX components and the precomputed action tables.

Identity cards: 14 ids, card ``c`` shows identity ``c // 2`` (two copies of each of
the 7 identities). Chip types: 0 gold, 1 wine, 2 grain.

Every action is an integer; ``ActionTable(n)`` (cached per player count) holds the
decoding arrays (``kind``, ``p1``..``p4``) and the encoding lookups used to build
legal-action lists quickly.
"""

from __future__ import annotations

from enum import IntEnum
from functools import cache
from typing import Final

# -- identities ---------------------------------------------------------------------
BARON: Final = 0
MONK: Final = 1
JUDGE: Final = 2
MERCHANT: Final = 3
MAGICIAN: Final = 4
THIEF: Final = 5
FARMER: Final = 6
NUM_IDENTITIES: Final = 7
ALL_IDENTITIES: Final = (1 << NUM_IDENTITIES) - 1
IDENTITY_NAMES: Final = ("baron", "monk", "judge", "merchant", "magician", "thief", "farmer")
#: The Dutch names of the source text, shown beside the English ones.
IDENTITY_ORIGINAL: Final = ("baron", "monnik", "rechter", "handelaar", "magiër", "dief", "boer")
IDENTITY_CODES: Final = ("BAR", "MON", "JUD", "MER", "MAG", "THI", "FAR")

NUM_CARDS: Final = 14
CARD_CODES: Final[tuple[str, ...]] = tuple(f"{IDENTITY_CODES[c // 2]}{c % 2 + 1}"
                                           for c in range(NUM_CARDS))

# -- chips --------------------------------------------------------------------------
GOLD: Final = 0
WINE: Final = 1
GRAIN: Final = 2
CHIP_NAMES: Final = ("gold", "wine", "grain")
CHIP_ORIGINAL: Final = ("goud", "wijn", "graan")
CHIP_LETTERS: Final = ("G", "W", "R")
CHIPS_PER_TYPE: Final = 20
TRADE_MAX: Final = CHIPS_PER_TYPE  # nobody can hold more loose chips of one type

#: Ordered (give, get) pairs of different chip types for a trade.
TRADE_PAIRS: Final = tuple((a, b) for a in range(3) for b in range(3) if a != b)
#: Thief variants (n, k): n chips, k of them out of trios.
STEAL_VARIANTS: Final = ((1, 0), (1, 1), (2, 0), (2, 1), (2, 2))
#: A count as the Thief's variants tell it apart: 0, 1, or 2 for two or more (any count of
#: one seat's chips or trios).
UP_TO_2: Final[tuple[int, ...]] = (0, 1) + (2,) * (3 * CHIPS_PER_TYPE)

# -- action kinds -------------------------------------------------------------------
class Kind(IntEnum):
    """Every kind of action, by its value in ``ActionTable.kind`` (the phase table lists
    the kinds each phase allows)."""

    COVER = 0       # §2 cover an identity
    CHIP = 1        # §2 take a starting chip
    TAKEGOLD = 2    # Baron: 2 gold
    TAX = 3         # Baron: 1 chip of a type from every other seat
    PRESS = 4       # Monk: 2 wine
    COLLECT = 5     # Monk: 1 chip from every other seat
    JWINE = 6       # Judge: 1 wine
    JGRAIN = 7      # Judge: 1 grain
    EARN = 8        # Merchant: 1 gold
    TRADE = 9       # Merchant: trade with a seat or the bank
    ENCHANT = 10    # Magician: every loose chip of a seat
    STEAL = 11      # Thief
    HARVEST = 12    # Farmer: 2 grain
    BUY = 13        # §3 BuyInfo
    ACCUSE = 14     # §3 Accuse
    SHOW = 15       # §3 BuyInfo: show false identities
    DOUBT = 16      # §5.1
    VOTE_DOUBT = 17  # §5.2
    VOTE_TRUST = 18
    PROTECT = 19    # S2 / S8 as Magician
    ILLEGAL = 20    # S5 as Baron
    FINE = 21       # S6 as Judge
    FORGIVE = 22    # S7 as Monk
    PAY = 23        # S8
    PASS = 24       # §7.9
    GIVE = 25       # S3 Monk collect
    TRIO = 26       # §3 build a trio
    CLOSE = 27      # a window's deadline passes (``CLOCK``)


# The kinds as plain ints for the hot paths (comparing an int with an IntEnum member is
# slower); the same names, checked below.
K_COVER: Final = 0
K_CHIP: Final = 1
K_TAKEGOLD: Final = 2
K_TAX: Final = 3
K_PRESS: Final = 4
K_COLLECT: Final = 5
K_JWINE: Final = 6
K_JGRAIN: Final = 7
K_EARN: Final = 8
K_TRADE: Final = 9
K_ENCHANT: Final = 10
K_STEAL: Final = 11
K_HARVEST: Final = 12
K_BUY: Final = 13
K_ACCUSE: Final = 14
K_SHOW: Final = 15
K_DOUBT: Final = 16
K_VOTE_DOUBT: Final = 17
K_VOTE_TRUST: Final = 18
K_PROTECT: Final = 19
K_ILLEGAL: Final = 20
K_FINE: Final = 21
K_FORGIVE: Final = 22
K_PAY: Final = 23
K_PASS: Final = 24
K_GIVE: Final = 25
K_TRIO: Final = 26
K_CLOSE: Final = 27
assert all(globals()[f"K_{k.name}"] == k.value for k in Kind)

#: The identity a personal action claims (-1: not a personal action).
CLAIM_OF_KIND: Final = [-1] * len(Kind)
for _k, _x in ((K_TAKEGOLD, BARON), (K_TAX, BARON), (K_PRESS, MONK), (K_COLLECT, MONK),
               (K_JWINE, JUDGE), (K_JGRAIN, JUDGE), (K_EARN, MERCHANT), (K_TRADE, MERCHANT),
               (K_ENCHANT, MAGICIAN), (K_STEAL, THIEF), (K_HARVEST, FARMER)):
    CLAIM_OF_KIND[_k] = _x

#: The identity each reaction of the log claims (as entry word, in state and view alike).
REACTION_CLAIM: Final = {"protect": MAGICIAN, "illegal": BARON, "fine": JUDGE, "forgive": MONK}

MAX_SHOW: Final = 5  # 7 identities minus the own one minus the round-start cover


def popcount7(mask: int) -> int:
    return mask.bit_count()


class ActionTable:
    """All actions of an n-player game, decoded into flat arrays."""

    def __init__(self, n: int) -> None:
        self.n = n
        kind: list[int] = []
        p1: list[int] = []
        p2: list[int] = []
        p3: list[int] = []
        p4: list[int] = []

        def add(k: int, a: int = -1, b: int = -1, c: int = -1, d: int = -1) -> int:
            kind.append(k)
            p1.append(a)
            p2.append(b)
            p3.append(c)
            p4.append(d)
            return len(kind) - 1

        self.cover = [add(K_COVER, x) for x in range(NUM_IDENTITIES)]
        self.chip = [add(K_CHIP, t) for t in range(3)]
        self.takegold = add(K_TAKEGOLD)
        self.tax = [add(K_TAX, t) for t in range(3)]
        self.press = add(K_PRESS)
        self.collect = add(K_COLLECT)
        self.jwine = add(K_JWINE)
        self.jgrain = add(K_JGRAIN)
        self.earn = add(K_EARN)
        self.harvest = add(K_HARVEST)
        # trade[partner][pair] -> list of ids for m = 1..TRADE_MAX; partner n is the bank
        trade = [[[add(K_TRADE, partner, t1, t2, m) for m in range(1, TRADE_MAX + 1)]
                  for (t1, t2) in TRADE_PAIRS] for partner in range(n + 1)]
        #: ``trade_upto[partner][pair][m]``: the trades of 1..m chips (listed by a prefix)
        self.trade_upto = [[[ids[:m] for m in range(TRADE_MAX + 1)] for ids in by_pair]
                           for by_pair in trade]
        self.enchant = [add(K_ENCHANT, q) for q in range(n)]
        self.steal = [[[add(K_STEAL, q, t, nn, k) for (nn, k) in STEAL_VARIANTS]
                       for t in range(3)] for q in range(n)]
        self.buy = [[add(K_BUY, q, k) for k in range(1, MAX_SHOW + 1)] for q in range(n)]
        self.accuse = [[add(K_ACCUSE, q, x) for x in range(NUM_IDENTITIES)] for q in range(n)]
        self.show = [add(K_SHOW, m) for m in range(1 << NUM_IDENTITIES)]
        self.doubt = add(K_DOUBT)
        self.vote_doubt = add(K_VOTE_DOUBT)
        self.vote_trust = add(K_VOTE_TRUST)
        self.protect = add(K_PROTECT)
        self.illegal = add(K_ILLEGAL)
        self.fine = [add(K_FINE, t) for t in range(3)]
        self.forgive = [add(K_FORGIVE, t) for t in range(3)]
        self.pay = [add(K_PAY, s) for s in range(n)]
        self.pass_to = [add(K_PASS, s) for s in range(n)]
        self.give = [add(K_GIVE, t) for t in range(3)]
        self.trio = add(K_TRIO)
        self.close = add(K_CLOSE)
        # identity-only actions by covered mask (Baron, Monk, Judge, Merchant-earn, Farmer)
        fixed = {0: [self.takegold, *self.tax], 1: [self.press, self.collect],
                 2: [self.jwine, self.jgrain], 3: [self.earn], 6: [self.harvest]}
        self.simple_by_cover = [[a for x, acts in fixed.items() if not cov >> x & 1
                                 for a in acts] for cov in range(1 << NUM_IDENTITIES)]
        self.accuse_by_seats = [[a for q in range(n) if m >> q & 1 for a in self.accuse[q]]
                                for m in range(1 << n)]
        self.enchant_by_seats = [[self.enchant[q] for q in range(n) if m >> q & 1]
                                 for m in range(1 << n)]
        #: Every steal from seat q for what q holds: ``steal_by_holding[q][code]`` with
        #: code = 27 * gold + 9 * wine + 3 * grain + trios, each as ``UP_TO_2`` counts it.
        self.steal_by_holding = [[self._steals(q, code) for code in range(81)]
                                 for q in range(n)]
        self.kind = kind
        self.p1 = p1
        self.p2 = p2
        self.p3 = p3
        self.p4 = p4
        self.size = len(kind)
        #: The identity each action claims (-1: none): ``CLAIM_OF_KIND`` of its kind.
        self.claim = [CLAIM_OF_KIND[k] for k in kind]
        #: Show actions grouped by size: show_by_size[k] = ids of k-identity masks.
        self.show_masks_by_size = [[m for m in range(1 << NUM_IDENTITIES) if m.bit_count() == k]
                                   for k in range(NUM_IDENTITIES + 1)]
        self._text: list[str] = [self._to_text(a) for a in range(self.size)]
        self._parse = {t: a for a, t in enumerate(self._text)}

    def _steals(self, q: int, code: int) -> list[int]:
        """§3 Thief: the steals from q that what q holds allows (``steal_by_holding``):
        per chip type, the variants (count, from trios) (1,0) (1,1) (2,0) (2,1) (2,2)
        with count <= loose + trios, from trios <= trios, count - from trios <= loose."""
        loose = (code // 27, code // 9 % 3, code // 3 % 3)
        trios = code % 3
        return [self.steal[q][t][v] for t in range(3)
                for v, (count, from_trios) in enumerate(STEAL_VARIANTS)
                if from_trios <= trios and count - from_trios <= loose[t]]

    # -- text forms ---------------------------------------------------------------
    def _to_text(self, a: int) -> str:
        k, x, y, z, w = self.kind[a], self.p1[a], self.p2[a], self.p3[a], self.p4[a]
        ch = CHIP_NAMES
        if k == K_COVER:
            return f"cover {IDENTITY_NAMES[x]}"
        if k == K_CHIP:
            return f"take {ch[x]}"
        simple = {K_TAKEGOLD: "baron takegold", K_PRESS: "monk press", K_COLLECT: "monk collect",
                  K_JWINE: "judge wine", K_JGRAIN: "judge grain", K_EARN: "merchant earn",
                  K_HARVEST: "farmer harvest", K_DOUBT: "doubt", K_VOTE_DOUBT: "vote doubt",
                  K_VOTE_TRUST: "vote trust", K_PROTECT: "protect", K_ILLEGAL: "illegal",
                  K_TRIO: "trio", K_CLOSE: "close"}
        if k in simple:
            return simple[k]
        if k == K_TAX:
            return f"baron tax {ch[x]}"
        if k == K_TRADE:
            partner = "bank" if x == self.n else str(x)
            return f"merchant trade {partner} {ch[y]} {ch[z]} {w}"
        if k == K_ENCHANT:
            return f"magician enchant {x}"
        if k == K_STEAL:
            return f"thief steal {x} {ch[y]} {z} {w}"
        if k == K_BUY:
            return f"buy {x} {y}"
        if k == K_ACCUSE:
            return f"accuse {x} {IDENTITY_NAMES[y]}"
        if k == K_SHOW:
            names = [IDENTITY_NAMES[i] for i in range(NUM_IDENTITIES) if x >> i & 1]
            return "show " + " ".join(names) if names else "show"
        if k == K_FINE:
            return f"fine {ch[x]}"
        if k == K_FORGIVE:
            return f"forgive {ch[x]}"
        if k == K_PAY:
            return f"pay {x}"
        if k == K_PASS:
            return f"pass {x}"
        if k == K_GIVE:
            return f"give {ch[x]}"
        raise AssertionError(k)

    def text(self, a: int) -> str:
        return self._text[a]

    def parse(self, text: str) -> int | None:
        """The id of a text form; identities in ``show`` may come in any order."""
        norm = " ".join(text.lower().split())
        a = self._parse.get(norm)
        if a is None and norm.startswith("show "):
            words = norm.split()[1:]
            if all(w in IDENTITY_NAMES for w in words) and len(set(words)) == len(words):
                return self.show[sum(1 << IDENTITY_NAMES.index(w) for w in words)]
        return a


@cache
def action_table(n: int) -> ActionTable:
    return ActionTable(n)


#: Seats of a mask (masks up to 8 seats), as tuples.
SEATS_OF: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(s for s in range(8) if m >> s & 1) for m in range(256))

for _n in range(4, 9):
    action_table(_n)
