"""Pixmit's own RL observation: what ``PixmitState.view(seat)`` shows, as float slots.

Written straight from the state (``core.observation``); it carries the view's
information in a fixed layout that depends only on the player count n. Seats are
absolute (0..n-1), as in the view; "XX" below runs over the 33 card codes 01..33.

Layout (in this order; ``#`` marks numeric slots, with their scale):

- Public, changing only when cards move or become known: ``mode=pro|beginner``;
  ``start_player=P``; ``round=1..3``; ``hand_size.seatP`` # (/6, the hand limit; 7
  while discarding or after the hunt); ``stack_size`` # (/33); ``holder_21=P|stack``;
  ``knowledge_used.seatP``, ``creation_used.seatP``; ``reveal.knowledge.seatP.move``,
  ``reveal.creation.seatP.move`` # ((move+1)/(27n+1): a turn takes at most 9 moves):
  the view's ``reveals`` (set, seat and move; their order is that of the moves; the
  cards are those of the set).
- The seat's own: ``hand=XX``; ``score`` # (/150, an Elite: the largest unit);
  ``known.seatP=XX``: another hand's cards whose place the seat knows; ``known.stack=XX``
  and ``known.stack_depth=XX`` # ((stack_from_top+1)/33): stack cards whose position it
  knows.
- The turn: ``active=P`` (also the offer's "from"); ``phase=turn|claim|...|over``;
  ``to_act=P`` (nobody: all 0); ``may_call``; ``offer_target=P``: the target the
  active seat has chosen but not yet offered to (only that seat sees it; it cannot
  call then); ``offer``: an offer is shown;
  ``offer.to=P``; ``offer.k=1|2``; ``offer.claim[0|1]=none|TK|...|DK|01..33``;
  ``offer.cards=XX`` (only the offerer sees them).
- ``vetoes.seatP`` # (/3(n-1): a seat is offered to at most once per other seat's
  turn); ``log[-i].*`` for i = 1..8 (``log[-1]`` is the latest; older ones stay 0 while
  the log is shorter): ``kind=K`` (13 kinds), ``seat=P``, ``target=P`` (a swap's or
  offer's "target", a messenger's "to"), ``k=1|2``, ``round=2|3``, ``conditions=C`` (a
  call's). A hunt entry's card is in ``final.hunt`` (the hunt ends the game at once).
  The view shows 12 entries; the last 8 are kept, as in every observer.
- At the end (phase over) the view's ``final``: ``final.score.seatP`` # (/150),
  ``final.rank.seatP=1..n``, ``final.winner=P|none``, ``final.caller=P|none``,
  ``final.call=joker_set|natural_set|elite``, ``final.annihilation_effect``,
  ``final.hunt.seatP=XX``. The final hands are the seat's hand and its ``known``
  (everything is known at the end); their layouts follow from the hands.

The header (observing seat, required/optional) is added by ``rl.encoding.StateEncoder``;
the player count and the game name are the layout itself.

Speed: the first two parts change only with ``cards_version`` and the vetoes and log
only with the log's length, so the observer keeps copies of those slots (for the state
it last wrote: the same ``hands`` and ``log`` lists) and copies them back while they
hold; new log entries shift the kept ones down by a block each. The copies live on the
observer, not on the state: RL data stays out of the rules objects. Only the turn's
slots are written at every step; card sets are walked bit by bit (a hand holds a few of
the 33 cards).
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Any

from ...core.observation import Observer
from . import cards as C
from .terms import HAND_LIMIT, OFFER_OPEN, OVER, ROUNDS, TURN, Phase

if TYPE_CHECKING:
    from .game import PixmitGame
    from .state import PixmitState

_TOP_POINTS = 150.0
_MOVES_PER_TURN = 9  # Wissen, target, offer, 2 claims, veto, pass, Bote, bottom
_LOG = 8
#: The seats of each mask of seats (Wissen and Schöpfung used), ascending.
_SEATS: tuple[tuple[int, ...], ...] = tuple(
    tuple(p for p in range(4) if mask >> p & 1) for mask in range(16))
_LOG_KINDS = ("offer", "accept", "veto", "swap", "veto_draw", "creation", "messenger",
              "bottom", "knowledge", "round", "call", "hunt", "silent_end")
#: The integer fields of each kind of log entry (a call's conditions are a list; a hunt's
#: card is in ``final.hunt``).
_LOG_FIELDS: dict[str, tuple[str, ...]] = {
    "offer": ("seat", "target", "k"), "swap": ("seat", "target", "k"),
    "veto_draw": ("seat", "k"), "messenger": ("seat", "to"), "round": ("round",),
    "silent_end": (), **{kind: ("seat",) for kind in (
        "accept", "veto", "creation", "bottom", "knowledge", "call", "hunt")}}


class PixmitObserver(Observer):
    """The slots of the module docstring for one player count."""

    def __init__(self, game: PixmitGame) -> None:
        super().__init__(game)
        n = game.num_players
        seats = range(n)
        cards = C.CARD_CODES
        # -- the public part that changes only when cards move or become known ----------
        self.public_start = len(self.labels)
        self.mode = self.slots("mode", ("pro", "beginner")) + game.beginner
        self.start = self.slots("start_player", seats)
        self.round = self.slots("round", range(1, ROUNDS + 1)) - 1  # + round
        self.hand_size = self.per_seat("hand_size", numeric=True)
        self.stack_size = self.slot("stack_size", numeric=True)
        self.holder21 = self.slots("holder_21", [*seats, "stack"])
        self.knowledge_used = self.per_seat("knowledge_used")
        self.creation_used = self.per_seat("creation_used")
        #: First slot of each revealed set's per-seat move numbers, by set name.
        self.reveal = {kind: self.per_seat(f"reveal.{name}", ".move", numeric=True)
                       for kind, name in ((C.K_KNOWLEDGE, "knowledge"),
                                          (C.K_CREATION, "creation"))}
        self.move_scale = 1.0 / (_MOVES_PER_TURN * ROUNDS * n + 1)
        self.public_end = len(self.labels)
        # -- the seat's own cards and what it knows (also with the cards) ----------------
        self.hand = self.slots("hand", cards)
        self.score = self.slot("score", numeric=True)
        self.known_hand = [self.slots(f"known.seat{p}", cards) for p in seats]
        self.known_stack = self.slots("known.stack", cards)
        self.known_depth = self.slots("known.stack_depth", cards, numeric=True)
        self.private_end = len(self.labels)
        # -- the turn: written at every step --------------------------------------------
        self.active = self.slots("active", seats)
        self.phase = self.slots("phase", [p.label for p in Phase])
        self.to_act = self.slots("to_act", seats)
        self.may_call = self.slot("may_call")
        self.offer_target = self.slots("offer_target", seats)
        self.offer = self.slot("offer")
        self.offer_to = self.slots("offer.to", seats)
        self.offer_k = self.slots("offer.k", (1, 2)) - 1  # + k
        self.offer_claims = [self.slots(f"offer.claim[{i}]", C.CLAIM_TEXT) for i in range(2)]
        self.offer_cards = self.slots("offer.cards", cards)
        # -- what changes only with the log: the vetoes (one per "veto" entry), the log --
        self.vetoes = self.per_seat("vetoes", numeric=True)
        self.veto_scale = 1.0 / (ROUNDS * (n - 1))
        # log[-i] for i = 1..8, one block each; per kind, the kind's slot and the (key,
        # offset) of each integer field, relative to the block: a field's slot is
        # offset + value (offsets absorb the first values of k and round).
        self.log_start = len(self.labels)
        for i in range(1, _LOG + 1):
            label = f"log[-{i}]"
            kind = self.slots(f"{label}.kind", _LOG_KINDS) - self.log_start
            seat = self.slots(f"{label}.seat", seats) - self.log_start
            target = self.slots(f"{label}.target", seats) - self.log_start
            k = self.slots(f"{label}.k", (1, 2)) - 1 - self.log_start
            rnd = self.slots(f"{label}.round", (2, 3)) - 2 - self.log_start
            conditions = self.slots(f"{label}.conditions", C.CALL_CONDITIONS) - self.log_start
            if i == 1:
                self.log_block = len(self.labels) - self.log_start
                fields = {"seat": seat, "target": target, "to": target, "k": k, "round": rnd}
                self.log_kind = {
                    name: (kind + j, tuple((key, fields[key]) for key in _LOG_FIELDS[name]))
                    for j, name in enumerate(_LOG_KINDS)}
                self.log_condition = {c: conditions + j
                                      for j, c in enumerate(C.CALL_CONDITIONS)}
        self.log_end = len(self.labels)
        # -- the end ---------------------------------------------------------------------
        self.condition_index = {c: i for i, c in enumerate(C.CALL_CONDITIONS)}
        self.final_score = self.per_seat("final.score", numeric=True)
        self.final_rank = [self.slots(f"final.rank.seat{p}", range(1, n + 1)) - 1
                           for p in seats]  # + rank
        self.final_winner = self.slots("final.winner", [*seats, "none"])
        self.final_caller = self.slots("final.caller", [*seats, "none"])
        self.final_call = self.slots("final.call", C.CALL_CONDITIONS)
        self.final_annihilation = self.slot("final.annihilation_effect")
        self.final_hunt = [self.slots(f"final.hunt.seat{p}", cards) for p in seats]
        # -- what ``write`` keeps between calls (see "Speed") ------------------------------
        #: The ``hands`` list and ``cards_version`` the kept card blocks belong to, and
        #: the blocks: the public one under -1, each seat's own under its seat.
        self._cards_of: tuple[list[int], int] | None = None
        self._card_blocks: dict[int, array[float]] = {}
        #: The ``log`` list and its length that the kept vetoes-and-log block shows.
        self._log_of: tuple[list[dict[str, Any]], int] | None = None
        self._kept_log = array("f")

    def per_seat(self, label: str, suffix: str = "", numeric: bool = False) -> int:
        """Slots ``label.seatP<suffix>`` for every seat P; returns the first one's index."""
        first = len(self.labels)
        for p in range(self.game.num_players):
            self.slot(f"{label}.seat{p}{suffix}", numeric)
        return first

    def write(self, state: PixmitState, seat: int, D: array[float]) -> None:  # type: ignore[override]
        # Two parts are kept as copies of their slots, written once:
        # - the public and the seat's card slots while ``cards_version`` (which counts
        #   every change of hands, stack and ``known``, as for the view's own cache)
        #   stays; the kept hands list (alive while kept) tells this state from clones
        #   and determinisations, which get lists of their own;
        # - the vetoes and log slots per log length: the log only grows, so while it is
        #   the same list the kept block is right up to the entries added since.
        hands = state.hands
        kept = self._cards_of
        if kept is None or kept[0] is not hands or kept[1] != state.cards_version:
            self._cards_of = (hands, state.cards_version)
            self._card_blocks = {}
        blocks = self._card_blocks
        block = blocks.get(-1)
        if block is None:
            self._write_public(state, D)
            blocks[-1] = D[self.public_start:self.public_end]
        else:
            D[self.public_start:self.public_end] = block
        block = blocks.get(seat)
        if block is None:
            self._write_private(state, seat, D)
            blocks[seat] = D[self.public_end:self.private_end]
        else:
            D[self.public_end:self.private_end] = block
        # the turn
        phase = state.phase
        D[self.active + state.active] = 1.0
        D[self.phase + phase] = 1.0
        for p in state.to_act():
            D[self.to_act + p] = 1.0
        if phase is TURN:
            if state.target < 0:
                if state.fresh:
                    D[self.may_call] = 1.0
            elif seat == state.active:
                # the chosen target, private until the cards follow (as in the view)
                D[self.offer_target + state.target] = 1.0
            elif state.fresh:
                D[self.may_call] = 1.0
        # the offer, as the view shows it (from phase claim until the turn ends)
        if phase in OFFER_OPEN and state.offer_cards:
            D[self.offer] = 1.0
            D[self.offer_to + state.target] = 1.0
            D[self.offer_k + len(state.offer_cards)] = 1.0
            for i, claim in enumerate(state.claims):
                D[self.offer_claims[i] + claim] = 1.0
            if seat == state.active:
                base = self.offer_cards
                for x in state.offer_cards:
                    D[base + x] = 1.0
        # the vetoes and the last 8 log entries, latest first; new entries shift the
        # kept ones down by a block each
        log = state.log
        size = len(log)
        kept_log = self._log_of
        same = kept_log is not None and kept_log[0] is log
        grown = size - kept_log[1] if same else _LOG  # type: ignore[index]
        if same and grown == 0:
            D[self.vetoes:self.log_end] = self._kept_log
        else:
            start = self.log_start
            block_size = self.log_block
            if same and 0 < grown < _LOG:
                # the vetoes stay but for the seats of new "veto" entries
                block = self._kept_log
                old = start - self.vetoes
                D[self.vetoes:start] = block[:old]
                D[start + grown * block_size:self.log_end] = \
                    block[old:old + (_LOG - grown) * block_size]
                for entry in log[:-grown - 1:-1]:
                    self._write_entry(entry, start, D)
                    start += block_size
                    if entry["kind"] == "veto":
                        t = entry["seat"]
                        D[self.vetoes + t] = state.vetoes[t] * self.veto_scale
            else:
                for entry in log[:-_LOG - 1:-1]:
                    self._write_entry(entry, start, D)
                    start += block_size
                base = self.vetoes
                for p, v in enumerate(state.vetoes):
                    if v:
                        D[base + p] = v * self.veto_scale
            self._log_of = (log, size)
            self._kept_log = D[self.vetoes:self.log_end]
        if phase is OVER:
            self._write_final(state, D)

    def _write_public(self, state: PixmitState, D: array[float]) -> None:
        """The public slots that change only with ``cards_version``."""
        hands = state.hands
        n = len(hands)
        D[self.mode] = 1.0
        D[self.start + state.start] = 1.0
        D[self.round + state.round] = 1.0
        base = self.hand_size
        for p in range(n):
            D[base + p] = hands[p].bit_count() / HAND_LIMIT
        D[self.stack_size] = len(state.stack) / C.NUM_CARDS
        holder = state.holder21
        D[self.holder21 + (holder if holder >= 0 else n)] = 1.0
        for p in _SEATS[state.used_knowledge]:
            D[self.knowledge_used + p] = 1.0
        for p in _SEATS[state.used_creation]:
            D[self.creation_used + p] = 1.0
        for r in state.reveals:
            D[self.reveal[r["set"]] + r["seat"]] = (r["move"] + 1) * self.move_scale

    def _write_private(self, state: PixmitState, seat: int, D: array[float]) -> None:
        """The seat's hand, score and the places it knows (as ``PixmitState._private``
        and ``_known_places``: other hands, then the stack)."""
        # card sets are few bits: walk them (slot = base - 1 + bit_length of the bit)
        hands = state.hands
        hand = hands[seat]
        base = self.hand - 1
        m = hand
        while m:
            low = m & -m
            D[base + low.bit_length()] = 1.0
            m ^= low
        D[self.score] = C.score(hand) / _TOP_POINTS
        mine = state.known[seat]
        held = 0
        for p, h in enumerate(hands):
            held |= h
            if p != seat and h & mine:
                base = self.known_hand[p] - 1
                m = h & mine
                while m:
                    low = m & -m
                    D[base + low.bit_length()] = 1.0
                    m ^= low
        m = mine & ~held  # every card not in a hand is in the stack
        if m:
            flag, depth = self.known_stack, self.known_depth
            stack = state.stack
            top = len(stack)
            while m:
                low = m & -m
                x = low.bit_length() - 1
                D[flag + x] = 1.0
                D[depth + x] = (top - stack.index(x)) / C.NUM_CARDS  # (from top + 1) / 33
                m ^= low

    def _write_entry(self, entry: dict[str, Any], base: int, D: array[float]) -> None:
        """One log entry's slots, in the block starting at ``base``."""
        kind = entry["kind"]
        slot, fields = self.log_kind[kind]
        D[base + slot] = 1.0
        for key, offset in fields:
            D[base + offset + entry[key]] = 1.0
        if kind == "call":
            for c in entry["conditions"]:
                D[base + self.log_condition[c]] = 1.0

    def _write_final(self, state: PixmitState, D: array[float]) -> None:
        """The view's ``final`` (once per game and seat: no need to be quick)."""
        n = len(state.hands)
        result = state.result()
        for p in range(n):
            D[self.final_score + p] = result.scores[p] / _TOP_POINTS
            D[self.final_rank[p] + result.ranks[p]] = 1.0
        D[self.final_winner + (n if result.winner is None else result.winner)] = 1.0
        D[self.final_caller + (state.caller if state.caller >= 0 else n)] = 1.0
        for c in state.call_conds:
            D[self.final_call + self.condition_index[c]] = 1.0
        if state.annihilation_effect():
            D[self.final_annihilation] = 1.0
        for p, x in state.hunt:
            D[self.final_hunt[p] + x] = 1.0


__all__ = ["PixmitObserver"]
