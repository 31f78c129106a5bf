"""Pixmit's action space and text forms (a function of the player count only).

Action ids:
  0 call · 1 knowledge (Wissen) · 2 accept · 3 veto · 4 creation (Schöpfung) · 5 pass
  OFFER_BASE + target * 561 + subset     "offer 2 05 13"   (target seat, 1–2 cards)
  return_base + subset                   "return 05 13"    (cards given back on accept)
  messenger_base + card                  "messenger 05"    (2 players: card for the Bote)
  bottom_base + card                     "bottom 05"       (hand limit: card to stack bottom)
  claim_base + claim                     "claim DK" / "claim 07" / "claim none"
"""

from __future__ import annotations

from ...core.game import IllegalAction
from .cards import (
    CARD_CODES,
    CLAIM_TEXT,
    NUM_CARDS,
    NUM_CLAIMS,
    NUM_SUBSETS,
    SUBSET_CARDS,
    SUBSET_INDEX,
)

CALL, KNOWLEDGE, ACCEPT, VETO, CREATION, PASS = range(6)
SIMPLE: tuple[str, ...] = ("call", "knowledge", "accept", "veto", "creation", "pass")
OFFER_BASE = 6
_CODE_INDEX = {code: i for i, code in enumerate(CARD_CODES)}
_CLAIM_INDEX = {text.upper(): i for i, text in enumerate(CLAIM_TEXT)}


class ActionSpace:
    """Offsets of each action kind for ``n`` players."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.return_base = OFFER_BASE + n * NUM_SUBSETS
        self.messenger_base = self.return_base + NUM_SUBSETS
        self.bottom_base = self.messenger_base + NUM_CARDS
        self.claim_base = self.bottom_base + NUM_CARDS
        self.size = self.claim_base + NUM_CLAIMS
        #: Every claim action (pro mode offers them all).
        self.all_claims: list[int] = list(range(self.claim_base, self.size))

    def offer(self, target: int, subset: int) -> int:
        return OFFER_BASE + target * NUM_SUBSETS + subset

    def decode(self, action: int) -> tuple[str, int, int]:
        """``(kind, a, b)``: kind name plus target/subset, subset, card or claim."""
        if action < OFFER_BASE:
            return SIMPLE[action], 0, 0
        if action < self.return_base:
            t, s = divmod(action - OFFER_BASE, NUM_SUBSETS)
            return "offer", t, s
        if action < self.messenger_base:
            return "return", action - self.return_base, 0
        if action < self.bottom_base:
            return "messenger", action - self.messenger_base, 0
        if action < self.claim_base:
            return "bottom", action - self.bottom_base, 0
        return "claim", action - self.claim_base, 0

    def to_text(self, action: int) -> str:
        kind, a, b = self.decode(action)
        if kind == "offer":
            return f"offer {a} " + " ".join(CARD_CODES[x] for x in SUBSET_CARDS[b])
        if kind == "return":
            return "return " + " ".join(CARD_CODES[x] for x in SUBSET_CARDS[a])
        if kind in ("messenger", "bottom"):
            return f"{kind} {CARD_CODES[a]}"
        if kind == "claim":
            return f"claim {CLAIM_TEXT[a]}"
        return kind

    def from_text(self, obj: object) -> int:
        if not isinstance(obj, str) or not obj.strip():
            raise IllegalAction(f"a Pixmit action is text such as 'offer 1 05 13', not {obj!r}")
        words = obj.split()
        kind, args = words[0].lower(), words[1:]
        if kind in SIMPLE:
            if args:
                raise IllegalAction(f"'{kind}' takes no arguments: {obj!r}")
            return SIMPLE.index(kind)
        if kind == "claim":
            if len(args) != 1 or args[0].upper() not in _CLAIM_INDEX:
                raise IllegalAction(f"a claim names a group (TK, ZK, AK, FK, ASK, OK, PK, DK), "
                                    f"a card number 01..33 or 'none': {obj!r}")
            return self.claim_base + _CLAIM_INDEX[args[0].upper()]
        if kind == "offer":
            if not args or not args[0].isdigit() or int(args[0]) >= self.n:
                raise IllegalAction(f"an offer names a target seat 0..{self.n - 1} and "
                                    f"1 or 2 cards: {obj!r}")
            return self.offer(int(args[0]), self._subset(args[1:], obj))
        if kind == "return":
            return self.return_base + self._subset(args, obj)
        if kind in ("messenger", "bottom"):
            if len(args) != 1:
                raise IllegalAction(f"'{kind}' names one card: {obj!r}")
            base = self.messenger_base if kind == "messenger" else self.bottom_base
            return base + self._card(args[0], obj)
        raise IllegalAction(f"unknown Pixmit action {obj!r} (call, knowledge, offer, claim, "
                            f"accept, veto, creation, pass, return, messenger, bottom)")

    def _card(self, word: str, obj: object) -> int:
        code = word.zfill(2) if word.isdigit() else word
        if code not in _CODE_INDEX:
            raise IllegalAction(f"unknown card {word!r} in {obj!r} (cards are 01..33)")
        return _CODE_INDEX[code]

    def _subset(self, words: list[str], obj: object) -> int:
        if not 1 <= len(words) <= 2:
            raise IllegalAction(f"name 1 or 2 cards: {obj!r}")
        mask = 0
        for w in words:
            bit = 1 << self._card(w, obj)
            if mask & bit:
                raise IllegalAction(f"a card is named twice in {obj!r}")
            mask |= bit
        return SUBSET_INDEX[mask]
