"""Pixmit's action space and text forms (a function of the player count only).

Action ids:
  0 call · 1 knowledge (Wissen) · 2 accept · 3 veto · 4 creation (Schöpfung) · 5 pass
  TARGET_BASE + target                   "target 2"        (an offer's target seat, private)
  offer_base + subset                    "offer 05 13"     (then the 1–2 cards, to that target)
  return_base + subset                   "return 05 13"    (cards given back on accept)
  messenger_base + card                  "messenger 05"    (2 players: card for the Bote)
  bottom_base + card                     "bottom 05"       (hand limit: card to stack bottom)
  claim_base + claim                     "claim DK" / "claim 07" / "claim none"

Size 6 + n + 561 + 561 + 33 + 33 + 42: 1,238 / 1,239 / 1,240 for 2 / 3 / 4 players.
"""

from __future__ import annotations

from enum import Enum
from typing import Final

from ...core.game import IllegalAction
from ...i18n import N_
from .cards import (
    CARD_CODES,
    CLAIM_TEXT,
    NUM_CARDS,
    NUM_CLAIMS,
    NUM_SUBSETS,
    SUBSET_CARDS,
    SUBSET_INDEX,
)


class Move(Enum):
    """The kinds of action, by the verb of their text (``ActionSpace.decode``'s kind)."""

    CALL = "call"            # §3.1 CALL
    KNOWLEDGE = "knowledge"  # §3.2 WISSEN
    TARGET = "target"        # §3.3 OFFER: the target (private until the cards follow)
    OFFER = "offer"          # §3.3 OFFER: the face-down cards
    CLAIM = "claim"          # §3.3 an announcement about one offered card
    ACCEPT = "accept"        # §3.4 ACCEPT
    VETO = "veto"            # §3.4 VETO
    CREATION = "creation"    # §3.5 SCHÖPFUNG
    PASS = "pass"            # §3.5 let the veto stand
    RETURN = "return"        # §3.4 ACCEPT: the cards given back, blind
    MESSENGER = "messenger"  # §3.6 Blinder Bote (2 players)
    BOTTOM = "bottom"        # §3.7 hand limit: a card under the stack


CALL: Final = 0
KNOWLEDGE: Final = 1
ACCEPT: Final = 2
VETO: Final = 3
CREATION: Final = 4
PASS: Final = 5
SIMPLE: Final[tuple[str, ...]] = ("call", "knowledge", "accept", "veto", "creation", "pass")
#: An offer is two actions, the target then the cards (rules.md [DECISION] "An offer is
#: two actions"): n + 561 ids instead of n x 561.
TARGET_BASE: Final = 6
_CODE_INDEX: Final = {code: i for i, code in enumerate(CARD_CODES)}
_CLAIM_INDEX: Final = {text.upper(): i for i, text in enumerate(CLAIM_TEXT)}


class ActionSpace:
    """Offsets of each action kind for ``n`` players."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.offer_base = TARGET_BASE + n
        self.return_base = self.offer_base + NUM_SUBSETS
        self.messenger_base = self.return_base + NUM_SUBSETS
        self.bottom_base = self.messenger_base + NUM_CARDS
        self.claim_base = self.bottom_base + NUM_CARDS
        self.size = self.claim_base + NUM_CLAIMS
        #: Every claim action (pro mode offers them all).
        self.all_claims: list[int] = list(range(self.claim_base, self.size))

    def target(self, seat: int) -> int:
        """The action "target ``seat``"."""
        return TARGET_BASE + seat

    def offer(self, subset: int) -> int:
        """The action "offer" of the cards of ``subset`` (``cards.SUBSETS``)."""
        return self.offer_base + subset

    def decode(self, action: int) -> tuple[str, int, int]:
        """``(kind, a, 0)``: kind name plus target seat, subset, card or claim."""
        if action < TARGET_BASE:
            return SIMPLE[action], 0, 0
        if action < self.offer_base:
            return "target", action - TARGET_BASE, 0
        if action < self.return_base:
            return "offer", action - self.offer_base, 0
        if action < self.messenger_base:
            return "return", action - self.return_base, 0
        if action < self.bottom_base:
            return "messenger", action - self.messenger_base, 0
        if action < self.claim_base:
            return "bottom", action - self.bottom_base, 0
        return "claim", action - self.claim_base, 0

    def to_text(self, action: int) -> str:
        """The stable text of ``action`` (``"offer 05 13"``)."""
        kind, a, _ = self.decode(action)
        if kind == "target":
            return f"target {a}"
        if kind in ("offer", "return"):
            return f"{kind} " + " ".join(CARD_CODES[x] for x in SUBSET_CARDS[a])
        if kind in ("messenger", "bottom"):
            return f"{kind} {CARD_CODES[a]}"
        if kind == "claim":
            return f"claim {CLAIM_TEXT[a]}"
        return kind

    def from_text(self, obj: object) -> int:
        """The action a text names; ``IllegalAction`` says what is wrong with it."""
        if not isinstance(obj, str) or not obj.strip():
            raise IllegalAction(N_("a Pixmit action is text such as 'offer 05 13', not {value}"),
                                params={"value": repr(obj)})
        words = obj.split()
        kind, args = words[0].lower(), words[1:]
        if kind in SIMPLE:
            if args:
                raise IllegalAction(N_("'{kind}' takes no arguments: {value}"),
                                    params={"kind": kind, "value": repr(obj)})
            return SIMPLE.index(kind)
        if kind == "claim":
            if len(args) != 1 or args[0].upper() not in _CLAIM_INDEX:
                raise IllegalAction(N_("a claim names a group (TK, ZK, AK, FK, ASK, OK, PK, DK), "
                                       "a card number 01..33 or 'none': {value}"),
                                    params={"value": repr(obj)})
            return self.claim_base + _CLAIM_INDEX[args[0].upper()]
        if kind == "target":
            if len(args) != 1 or not args[0].isdigit() or int(args[0]) >= self.n:
                raise IllegalAction(N_("'target' takes one number from 0 to {last}: {value}"),
                                    params={"last": self.n - 1, "value": repr(obj)})
            return self.target(int(args[0]))
        if kind == "offer":
            if len(args) >= 2 and len(args[0]) == 1 and args[0].isdigit():
                # the old one-action form "offer T c1 [c2]" (stored replays): a seat is one
                # digit, a card two, so it cannot be read as cards by mistake
                raise IllegalAction(N_("an offer is two actions now: 'target {seat}', then "
                                       "'offer {cards}' (cards as two digits): {value}"),
                                    params={"seat": args[0], "cards": " ".join(args[1:]),
                                            "value": repr(obj)})
            return self.offer(self._subset(args, obj))
        if kind == "return":
            return self.return_base + self._subset(args, obj)
        if kind in ("messenger", "bottom"):
            if len(args) != 1:
                raise IllegalAction(N_("'{kind}' names one card: {value}"),
                                    params={"kind": kind, "value": repr(obj)})
            base = self.messenger_base if kind == "messenger" else self.bottom_base
            return base + self._card(args[0], obj)
        raise IllegalAction(N_("unknown Pixmit action {value} (call, knowledge, target, offer, "
                               "claim, accept, veto, creation, pass, return, messenger, "
                               "bottom)"), params={"value": repr(obj)})

    def _card(self, word: str, obj: object) -> int:
        """The card a word names (``"5"`` or ``"05"``)."""
        code = word.zfill(2) if word.isdigit() else word
        if code not in _CODE_INDEX:
            raise IllegalAction(N_("unknown card {card} in {value} (cards are 01..33)"),
                                params={"card": repr(word), "value": repr(obj)})
        return _CODE_INDEX[code]

    def _subset(self, words: list[str], obj: object) -> int:
        """The subset index of 1 or 2 named cards."""
        if not 1 <= len(words) <= 2:
            raise IllegalAction(N_("name 1 or 2 cards: {value}"), params={"value": repr(obj)})
        mask = 0
        for w in words:
            bit = 1 << self._card(w, obj)
            if mask & bit:
                raise IllegalAction(N_("a card is named twice in {value}"),
                                    params={"value": repr(obj)})
            mask |= bit
        return SUBSET_INDEX[mask]
