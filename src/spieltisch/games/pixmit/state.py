"""Pixmit's rules: the deal, three rounds of offers, the call, the hunt and scoring.

Section numbers (§) refer to ``shared/rules/pixmit.md``; ``rules.md`` beside this
file restates them with every decision taken.

Knowledge model (for views and ``determinise``): ``known[seat]`` is the mask of
cards whose exact place (which hand, or which stack position) that seat knows.
Drawing keeps what observers knew of the stack position and adds the drawer; a
swap tells both partners what moved and makes everyone else lose track of the two
hands; a 3–4-player veto makes everyone but the offerer lose track of the
offerer's hand; a reveal (Wissen, Schöpfung) and card 21 in a hand are public.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, ClassVar, Final

from ...core.cards import Shuffler
from ...core.cards import cards_of as _cards
from ...core.fields import Copy, StateFields
from ...core.game import (
    Check,
    Event,
    Result,
    State,
    Told,
    action_arg,
    illegal,
    ranks_from_scores,
    seat_arg,
    seats_arg,
    word_arg,
)
from ...core.phases import PhaseTable, Rule, Who
from ...i18n import N_
from . import actions as A
from . import cards as C
from .actions import Move
from .sampling import determinise
from .terms import (
    CLAIM,
    CREATION,
    DISCARD,
    HAND_LIMIT,
    MESSENGER,
    OVER,
    RESPONSE,
    RETURN,
    TURN,
    Phase,
)
from .views import PixmitViews

if TYPE_CHECKING:
    from .game import PixmitGame

BIT21: Final = 1 << C.JOKER_21
#: A mask's card codes, lowest id first (a fresh list).
_codes: Final = C.card_codes
#: The two commonest kinds of field (``PixmitState.FIELDS``), short.
V: Final = Copy.VALUE
L: Final = Copy.LIST



#: Each phase as a refusal names it ("waiting for Ada: the answer to the offer").
_PHASE_WORDS: Final[dict[Phase, str]] = {
    Phase.TURN: N_("the active player's turn"),
    Phase.CLAIM: N_("announcing the offered cards"),
    Phase.RESPONSE: N_("the answer to the offer"),
    Phase.CREATION: N_("Schöpfung or letting the veto stand"),
    Phase.RETURN: N_("giving cards back"),
    Phase.MESSENGER: N_("the Blinder Bote"),
    Phase.DISCARD: N_("putting cards under the stack"),
    Phase.OVER: N_("the end of the game"),
}


def _phase_arg(phase: Phase) -> Told:
    """A phase in a reason: its label (``claim``) to the engine, words to the reader."""
    return word_arg(_PHASE_WORDS[phase], phase.label)


class PixmitState(State["PixmitGame"]):
    """One position of a Pixmit game: hands, stack and what each seat knows, the round
    and turn, the offer in progress, vetoes and reveals, and the end (call and hunt)."""

    #: The phase table (set below the class): every state of this class has one.
    PHASES: ClassVar[PhaseTable[Phase]]

    #: Every field: how a copy treats it (``clone``, ``determinise``), its type where the
    #: value does not say it, and its value before the deal (``empty``).
    FIELDS = StateFields(
        all_seats=(V, "", "(1 << n) - 1"),
        # the cards and what each seat knows of them (§2, §3.8)
        hands=(L, "list[int]", "[0] * n"),
        # the face-down stack, top card LAST (draw = pop, bottom = insert at 0)
        stack=(L, "list[int]", "[]"),
        known=(L, "list[int]", "[0] * n"),
        holder21=(V, "", "-1"),  # seat holding card 21 (-1: in the stack); kept by ``_fix21``
        # Counts changes of hands, stack and ``known`` (``_fix21`` follows every card
        # move; reveals and the end count too): a view's private part is rebuilt only then.
        cards_version=(V, "", "0"),
        # the round and the turn (§3)
        start=(V, "", "0"), round=(V, "", "1"), turn_index=(V, "", "0"), active=(V, "", "0"),
        phase=(V, "", "TURN"), fresh=(V, "", "True"),
        # the offer's target; in phase turn, a chosen target not yet public (-1: none)
        target=(V, "", "-1"),
        offer=(V, "", "0"), offer_cards=(V, "tuple[int, ...]", "()"),
        claims=(L, "list[int]", "[]"), vetoes=(L, "list[int]", "[0] * n"),
        used_knowledge=(V, "", "0"), used_creation=(V, "", "0"),
        log=(L, "list[dict[str, Any]]", "[]"),  # entries are never changed once written
        reveals=(L, "list[dict[str, Any]]", "[]"),
        # the end (§3.1 CALL, HUNT)
        caller=(V, "", "-1"), call_conds=(L, "list[str]", "[]"),
        hunt=(L, "list[tuple[int, int]]", "[]"), hunt_eligible=(L, "list[int]", "[]"),
        _result=Copy.CACHE, _views=Copy.CACHE,
    )
    #: The result once over (``result``), and the views' caches (``views.py``).
    _result: Result | None = None
    _views: PixmitViews | None = None

    # -- setup (§2) ---------------------------------------------------------------------
    # -- generated from FIELDS (python -m spieltisch.core.generated --write): do not edit --
    def _copy(self, shuffler: Shuffler) -> PixmitState:
        """A copy with ``shuffler`` as its chance (``FIELDS.copy_source``)."""
        s = PixmitState(self.game, shuffler)
        s.move_number = self.move_number
        s.opening = self.opening
        s.record_events = self.record_events
        s.all_seats = self.all_seats
        s.hands = self.hands[:]
        s.stack = self.stack[:]
        s.known = self.known[:]
        s.holder21 = self.holder21
        s.cards_version = self.cards_version
        s.start = self.start
        s.round = self.round
        s.turn_index = self.turn_index
        s.active = self.active
        s.phase = self.phase
        s.fresh = self.fresh
        s.target = self.target
        s.offer = self.offer
        s.offer_cards = self.offer_cards
        s.claims = self.claims[:]
        s.vetoes = self.vetoes[:]
        s.used_knowledge = self.used_knowledge
        s.used_creation = self.used_creation
        s.log = self.log[:]
        s.reveals = self.reveals[:]
        s.caller = self.caller
        s.call_conds = self.call_conds[:]
        s.hunt = self.hunt[:]
        s.hunt_eligible = self.hunt_eligible[:]
        return s

    def _empty_fields(self) -> None:
        """Every field at its value before the deal (``FIELDS.empty_source``)."""
        n = self.game.num_players
        self.all_seats = (1 << n) - 1
        self.hands: list[int] = [0] * n
        self.stack: list[int] = []
        self.known: list[int] = [0] * n
        self.holder21 = -1
        self.cards_version = 0
        self.start = 0
        self.round = 1
        self.turn_index = 0
        self.active = 0
        self.phase = TURN
        self.fresh = True
        self.target = -1
        self.offer = 0
        self.offer_cards: tuple[int, ...] = ()
        self.claims: list[int] = []
        self.vetoes: list[int] = [0] * n
        self.used_knowledge = 0
        self.used_creation = 0
        self.log: list[dict[str, Any]] = []
        self.reveals: list[dict[str, Any]] = []
        self.caller = -1
        self.call_conds: list[str] = []
        self.hunt: list[tuple[int, int]] = []
        self.hunt_eligible: list[int] = []
    # -- end generated --

    @classmethod
    def deal(cls, game: PixmitGame, shuffler: Shuffler) -> PixmitState:
        """§2: shuffle, pick the start player, deal 2 cards each from S clockwise."""
        s = cls.empty(game, shuffler)
        n = game.num_players
        order = shuffler.shuffled(game.deck_cards)  # 33 cards, or a research deck
        s.start = shuffler.seat(game.start_player, n)
        pos = 0
        for i in range(n):
            p = (s.start + i) % n
            for _ in range(2):
                card = order[pos]
                pos += 1
                s.hands[p] |= 1 << card
        s.known = s.hands[:]
        s.stack = order[pos:][::-1]
        s._fix21()
        s._begin_turn()
        return s

    def _position(self) -> dict[str, Any]:
        """This state's ``"state"`` object of a position (``position.py``)."""
        from .position import write  # (it imports this module)

        return write(self)

    # -- who acts: the phase table (``PHASES``) ------------------------------------------
    def _begin_turn(self) -> None:
        """§3: the turn of the next player from S clockwise, nothing offered yet."""
        n = self.game.num_players
        self.active = (self.start + self.turn_index) % n
        self.fresh = True
        self.target = -1
        self.offer = 0
        self.offer_cards = ()
        self.claims = []
        self.phase = TURN

    def _the_active(self) -> tuple[int, ...]:
        """The active seat A (§3 "Turn of player A")."""
        return (self.active,)

    def _the_target(self) -> tuple[int, ...]:
        """The offer's target T (§3.4, §3.6)."""
        return (self.target,)

    # -- why an action is not legal ------------------------------------------------------
    def _waiting(self, seat: int) -> Check | None:
        """Only the seat the phase waits for acts: the reason when it is not ``seat``."""
        waiting = self.to_act()
        if seat in waiting:
            return None
        return illegal(N_("{seat} may not act now (waiting for {waiting}: {phase})"),
                       seat=seat_arg(seat), waiting=seats_arg(waiting),
                       phase=_phase_arg(self.phase))

    def _why_not(self, seat: int, action: int) -> Check:
        """The reasons every phase shares: not this seat's turn; a call after the start
        of the turn or without a call condition (§3.1); else not legal in this phase."""
        wrong = self._waiting(seat)
        if wrong is not None:
            return wrong
        if action == A.CALL:
            if not self.fresh:
                return illegal(N_("a call is only possible at the very start of the turn"))
            return illegal(N_("the hand meets no call condition (Joker-Satz, natural set, "
                              "Elite)"))
        return illegal(N_("{action} is not legal now (phase: {phase})"),
                       action=action_arg(self.game, action, self.game.action_to_json(action)),
                       phase=_phase_arg(self.phase))

    # -- phase TURN (§3.1–§3.3) ----------------------------------------------------------
    def _turn_actions(self, seat: int) -> list[int]:
        """§3.1 CALL (start of turn, a call condition met), §3.2 WISSEN (unused, 15, 19
        and 26 held), §3.3 OFFER: first the target (another seat holding cards), then
        1–2 cards, at most as many as the target holds."""
        active = self.active
        if seat != active:
            return []
        space = self.game.space
        hand = self.hands[active]
        target = self.target
        if target >= 0:
            # the target is chosen (final, like a card laid down): only its offers
            subsets = C.card_ids(hand)  # a single card's subset index is its id
            if self.hands[target].bit_count() >= 2:  # k ≤ |hand(T)|: pairs need 2 cards
                subsets = subsets + C.pairs_of(subsets)
            base = space.offer_base
            return [base + s for s in subsets]
        out: list[int] = []
        if self.fresh and C.may_call(hand):
            out.append(A.CALL)
        if not self.used_knowledge >> active & 1 and hand & C.KNOWLEDGE == C.KNOWLEDGE:
            out.append(A.KNOWLEDGE)
        if hand:
            out += [A.TARGET_BASE + p for p in range(self.game.num_players)
                    if p != active and self.hands[p]]
        return out

    def _turn(self, seat: int, action: int) -> list[Event]:
        """A call, Wissen, the offer's target (private: no event, no log entry, see
        ``rules.md``) or the offer's cards."""
        if action == A.CALL:
            return self._call()
        if action == A.KNOWLEDGE:
            return self._knowledge()
        if action < self.game.space.offer_base:
            self.target = action - A.TARGET_BASE
            return []
        return self._offer(action)

    def _why_not_turn(self, seat: int, action: int) -> Check:
        """§3.3: the target first, another seat holding cards; then cards of the own
        hand, at most as many as the target holds."""
        wrong = self._waiting(seat)
        if wrong is not None:
            return wrong
        space = self.game.space
        text = action_arg(self.game, action, space.to_text(action))
        kind = space.decode(action)[0]
        if self.target >= 0:
            if kind == Move.OFFER.value:
                if C.SUBSETS[action - space.offer_base] & ~self.hands[self.active]:
                    return illegal(N_("{action}: offer cards of your own hand"), action=text)
                return illegal(N_("{action}: {target} holds {count} card(s), offer at "
                                  "most as many"), action=text, target=seat_arg(self.target),
                               count=self.hands[self.target].bit_count())
            return illegal(N_("{action}: the target ({target}) is chosen, now 'offer' "
                              "the cards"), action=text, target=seat_arg(self.target))
        if kind == Move.OFFER.value:
            return illegal(N_("{action}: choose the target first ('target T'), then offer "
                              "the cards"), action=text)
        if kind == Move.TARGET.value:
            return illegal(N_("{action}: a target must be another seat holding cards"),
                           action=text)
        return self._why_not(seat, action)

    # -- phase CLAIM (§3.3) --------------------------------------------------------------
    def _claims_of(self, seat: int) -> list[int]:
        """§3.3: beginner mode, a true announcement about the next offered card; pro
        mode, any announcement or none."""
        if seat != self.active:
            return []
        space = self.game.space
        if self.game.beginner:
            base = space.claim_base
            return [base + x for x in C.TRUTHFUL[self.offer_cards[len(self.claims)]]]
        return space.all_claims

    def _claim(self, seat: int, action: int) -> list[Event]:
        """§3.3: one announcement; after the last one the target responds."""
        claim = action - self.game.space.claim_base
        self.claims.append(claim)
        events = [Event("claim", seat, {"card_index": len(self.claims) - 1,
                                        "claim": C.CLAIM_TEXT[claim]})]
        if len(self.claims) == len(self.offer_cards):
            self.phase = RESPONSE
        return events

    def _why_not_claim(self, seat: int, action: int) -> Check:
        """§3.3: beginner mode allows only true announcements."""
        wrong = self._waiting(seat)
        if wrong is not None:
            return wrong
        if self.game.space.decode(action)[0] == Move.CLAIM.value:
            return illegal(N_("{action}: beginner mode allows only true announcements"),
                           action=action_arg(self.game, action,
                                             self.game.action_to_json(action)))
        return self._why_not(seat, action)

    # -- phase RESPONSE (§3.4) -----------------------------------------------------------
    def _responses(self, seat: int) -> list[int]:
        """§3.4: accept or veto; with 2 players a veto needs 2 cards in T's hand."""
        if seat != self.target:
            return []
        if self.game.num_players == 2 and self.hands[self.target].bit_count() < 2:
            return [A.ACCEPT]
        return [A.ACCEPT, A.VETO]

    def _respond(self, seat: int, action: int) -> list[Event]:
        """§3.4 ACCEPT (T gives back as many cards next) or VETO."""
        if action == A.ACCEPT:
            self.log.append({"kind": "accept", "seat": seat})
            self.phase = RETURN
            return [Event("accept", seat)]
        return self._veto()

    def _why_not_respond(self, seat: int, action: int) -> Check:
        """§3.4: with 2 players a veto needs at least 2 cards in hand."""
        wrong = self._waiting(seat)
        if wrong is not None:
            return wrong
        if action == A.VETO:
            return illegal(N_("with 2 players a veto needs at least 2 cards in hand"))
        return self._why_not(seat, action)

    # -- phase CREATION (§3.5) -----------------------------------------------------------
    def _creation_choices(self, seat: int) -> list[int]:
        """§3.5: reveal Schöpfung, or let the veto stand."""
        if seat != self.active:
            return []
        return [A.CREATION, A.PASS]

    def _create_or_pass(self, seat: int, action: int) -> list[Event]:
        """§3.5 SCHÖPFUNG overrules the veto; a pass resolves it (§3.6)."""
        if action == A.CREATION:
            return self._creation()
        return self._resolve_veto([Event("pass", seat)])

    # -- phase RETURN (§3.4 ACCEPT) ------------------------------------------------------
    def _returns(self, seat: int) -> list[int]:
        """§3.4: T gives back k cards of its pre-trade hand, without seeing the offer."""
        if seat != self.target:
            return []
        base = self.game.space.return_base
        return [base + s for s in C.subsets_of(self.hands[self.target], len(self.offer_cards))]

    def _give_back(self, seat: int, action: int) -> list[Event]:
        """§3.4: the swap."""
        return self._swap(C.SUBSETS[action - self.game.space.return_base])

    # -- phase MESSENGER (§3.6, 2 players) -----------------------------------------------
    def _messenger_cards(self, seat: int) -> list[int]:
        """§3.6: any card of T's hand goes to the Blinder Bote."""
        if seat != self.target:
            return []
        base = self.game.space.messenger_base
        return [base + x for x in _cards(self.hands[self.target])]

    def _send(self, seat: int, action: int) -> list[Event]:
        """§3.6: T's card goes to A."""
        return self._messenger(action - self.game.space.messenger_base)

    # -- phase DISCARD (§3.7) ------------------------------------------------------------
    def _discards(self, seat: int) -> list[int]:
        """§3.7: any card of A's hand goes under the stack."""
        if seat != self.active:
            return []
        base = self.game.space.bottom_base
        return [base + x for x in _cards(self.hands[self.active])]

    def _bottom(self, seat: int, action: int) -> list[Event]:
        """§3.7: one card under the stack."""
        return self._discard(action - self.game.space.bottom_base)

    # -- the rules of each step (§3) -----------------------------------------------------
    def _call(self) -> list[Event]:
        """§3.1 CALL: the game ends at once; if A holds 21, the HUNT follows."""
        active = self.active
        n = self.game.num_players
        self.caller = active
        self.call_conds = C.call_conditions(self.hands[active])
        self.log.append({"kind": "call", "seat": active, "conditions": self.call_conds})
        events = [Event("call", active, {"conditions": self.call_conds,
                                         "hand": _codes(self.hands[active])})]
        if self.hands[active] & BIT21:
            # HUNT: eligibility is fixed at the call; clockwise from the caller's left.
            eligible = [(active + i) % n for i in range(1, n)
                        if not C.has_set(self.hands[(active + i) % n])]
            self.hunt_eligible = eligible
            for p in eligible:
                if not self.hands[active] & BIT21 or not self.hands[active]:
                    break
                card = self.shuffler.shuffled(_cards(self.hands[active]))[0]
                self.hands[active] &= ~(1 << card)
                self.hands[p] |= 1 << card
                self.hunt.append((p, card))
                self.log.append({"kind": "hunt", "seat": p, "card": C.CARD_CODES[card]})
                events.append(Event("hunt", p, {"from": active, "card": C.CARD_CODES[card]}))
            self._fix21()  # 21 itself may have been drawn
        self._end_game()
        return events

    def _knowledge(self) -> list[Event]:
        """§3.2 WISSEN: reveal 15, 19, 26; privately see the top 2 stack cards."""
        active = self.active
        self.used_knowledge |= 1 << active
        self.fresh = False
        self.known = [mask | C.KNOWLEDGE for mask in self.known]
        self.cards_version += 1
        seen = self.stack[-2:][::-1]
        for x in seen:
            self.known[active] |= 1 << x
        self.reveals.append({"seat": active, "set": C.K_KNOWLEDGE, "cards": _codes(C.KNOWLEDGE),
                             "move": self.move_number})
        self.log.append({"kind": "knowledge", "seat": active})
        return [Event("knowledge", active, {"cards": _codes(C.KNOWLEDGE)},
                      {active: {"top": [C.CARD_CODES[x] for x in seen]}})]

    def _offer(self, action: int) -> list[Event]:
        """§3.3 OFFER: target T ≠ A (chosen just before), 1–2 face-down cards; then the
        announcements."""
        target = self.target
        subset = action - self.game.space.offer_base
        self.fresh = False
        self.offer = C.SUBSETS[subset]
        self.offer_cards = C.SUBSET_CARDS[subset]
        self.claims = []
        count = len(self.offer_cards)
        self.log.append({"kind": "offer", "seat": self.active, "target": target, "k": count})
        self.phase = CLAIM
        return [Event("offer", self.active, {"target": target, "k": count},
                      {self.active: {"cards": _codes(self.offer)}})]

    def _veto(self) -> list[Event]:
        """§3.4 VETO: counts for the tie-break; Schöpfung may overrule it (§3.5)."""
        target, active = self.target, self.active
        self.vetoes[target] += 1
        self.log.append({"kind": "veto", "seat": target})
        events = [Event("veto", target, {"vetoes": self.vetoes[target]})]
        if not self.used_creation >> active & 1 and self.hands[active] & C.CREATION == C.CREATION:
            self.phase = CREATION
            return events
        return self._resolve_veto(events)

    def _creation(self) -> list[Event]:
        """§3.5 SCHÖPFUNG: reveal 03, 20, 25; the veto is ignored and ACCEPT follows."""
        active = self.active
        self.used_creation |= 1 << active
        self.known = [mask | C.CREATION for mask in self.known]
        self.cards_version += 1
        self.reveals.append({"seat": active, "set": C.K_CREATION, "cards": _codes(C.CREATION),
                             "move": self.move_number})
        self.log.append({"kind": "creation", "seat": active})
        self.phase = RETURN
        return [Event("creation", active, {"cards": _codes(C.CREATION)})]

    def _resolve_veto(self, events: list[Event]) -> list[Event]:
        """§3.6: 3–4 players draw k and put C under; 2 players use the Blinder Bote."""
        active = self.active
        if self.game.num_players == 2:
            self.phase = MESSENGER
            return events
        count = len(self.offer_cards)
        before = self.hands[active]
        drawn = []
        for _ in range(count):
            card = self.stack.pop()
            drawn.append(card)
            self.hands[active] |= 1 << card
        for x in self.offer_cards:
            # the last card listed ends up as the very bottom card (§8.5)
            self.hands[active] &= ~(1 << x)
            self.stack.insert(0, x)
        known = self.known
        for p in range(self.game.num_players):
            if p != active:
                known[p] &= ~before
        for x in drawn:
            known[active] |= 1 << x
        self._fix21()
        self.log.append({"kind": "veto_draw", "seat": active, "k": count})
        events.append(Event("veto_draw", active, {"k": count},
                            {active: {"drawn": [C.CARD_CODES[x] for x in drawn],
                                      "to_bottom": [C.CARD_CODES[x] for x in self.offer_cards]}}))
        return self._end_turn(events)

    def _swap(self, given: int) -> list[Event]:
        """§3.4 ACCEPT: swap C and R face down."""
        active, target = self.active, self.target
        offer = self.offer
        self.hands[active] = (self.hands[active] & ~offer) | given
        self.hands[target] = (self.hands[target] & ~given) | offer
        known = self.known
        both = self.hands[active] | self.hands[target]
        for p in range(self.game.num_players):
            if p != active and p != target:
                known[p] &= ~both
        known[active] |= self.hands[active] | offer
        known[target] |= self.hands[target] | given
        self._fix21()
        count = len(self.offer_cards)
        self.log.append({"kind": "swap", "seat": active, "target": target, "k": count})
        return self._end_turn([Event("swap", target, {"with": active, "k": count},
                                     {active: {"received": _codes(given), "gave": _codes(offer)},
                                      target: {"received": _codes(offer), "gave": _codes(given)}})])

    def _messenger(self, card: int) -> list[Event]:
        """§3.6, 2 players: T's chosen card goes via the Bote to A; A keeps C."""
        active, target = self.active, self.target
        self.hands[target] &= ~(1 << card)
        self.hands[active] |= 1 << card
        self.known[active] |= 1 << card
        self.known[target] |= 1 << card
        self._fix21()
        self.log.append({"kind": "messenger", "seat": target, "to": active})
        seen = {"card": C.CARD_CODES[card]}
        events = [Event("messenger", target, {"to": active}, {active: seen, target: seen})]
        if self.hands[active].bit_count() > HAND_LIMIT:
            self.phase = DISCARD
            return events
        return self._end_turn(events)

    def _discard(self, card: int) -> list[Event]:
        """§3.7 hand limit 6: the excess goes under the stack, card by card."""
        active = self.active
        self.hands[active] &= ~(1 << card)
        self.stack.insert(0, card)
        lost = self.hands[active] | (1 << card)
        for p in range(self.game.num_players):
            if p != active:
                self.known[p] &= ~lost
        self._fix21()
        self.log.append({"kind": "bottom", "seat": active})
        events = [Event("bottom", active, {}, {active: {"card": C.CARD_CODES[card]}})]
        if self.hands[active].bit_count() > HAND_LIMIT:
            return events
        return self._end_turn(events)

    def _fix21(self) -> None:
        """§3.8: the holder of 21 is public (in the stack: only that it is there).

        Called after every card move, so it also counts the change for the views."""
        self.cards_version += 1
        self.holder21 = self._holder21()
        if self.holder21 >= 0:
            self.known = [mask | BIT21 for mask in self.known]

    def _holder21(self) -> int:
        """The seat holding card 21, or -1 when it lies in the stack."""
        for p, h in enumerate(self.hands):
            if h & BIT21:
                return p
        return -1

    def _end_turn(self, events: list[Event]) -> list[Event]:
        """Next turn; after the last turn of a round the draws (§3 step 1) or the silent end
        (§3 step 3)."""
        n = self.game.num_players
        self.turn_index += 1
        if self.turn_index == n:
            if self.round == self.game.rounds:  # three, or a research variant's
                self.log.append({"kind": "silent_end"})
                events.append(Event("silent_end", None))
                self._end_game()
                return events
            self.round += 1
            self.turn_index = 0
            draws = []
            for i in range(n):
                p = (self.start + i) % n
                count = min(2, HAND_LIMIT - self.hands[p].bit_count())
                got = []
                for _ in range(max(count, 0)):
                    card = self.stack.pop()
                    got.append(card)
                    self.hands[p] |= 1 << card
                    self.known[p] |= 1 << card
                draws.append((p, got))
            self._fix21()
            self.log.append({"kind": "round", "round": self.round})
            events.append(Event("round", None, {"round": self.round,
                                                "draws": [[p, len(g)] for p, g in draws]},
                                {p: {"drawn": [C.CARD_CODES[x] for x in g]} for p, g in draws}))
        self._begin_turn()
        return events

    def _end_game(self) -> None:
        """§5: the game ends; every card's place becomes known (the hands are shown)."""
        self.offer = 0
        self.offer_cards = ()
        self.claims = []
        self.target = -1
        self.known = [sum(1 << x for x in self.game.deck_cards)] * self.game.num_players
        self.cards_version += 1
        self.phase = OVER

    # -- end and scoring (§4) -------------------------------------------------------------
    def is_over(self) -> bool:
        """§5: a call, or the silent end after round 3."""
        return self.phase is OVER

    def final_scores(self) -> list[int]:
        """§4 final scoring: each hand's best score; Vernichtung −5 on a caller's hand."""
        scores = [C.score(h) for h in self.hands]
        if self.caller >= 0 and C.annihilation_counts(self.hands[self.caller]):
            scores = [s if p == self.caller else s - 5 for p, s in enumerate(scores)]
        return scores

    def round_number(self) -> int:
        """The round (§3: 1..3)."""
        return self.round

    def standing(self) -> list[float]:
        """The §4 score each hand would get if the game ended now."""
        return [float(s) for s in self.final_scores()]

    def annihilation_effect(self) -> bool:
        """§4 final scoring 2: the caller's hand has Vernichtung in an optimal assignment."""
        return self.caller >= 0 and C.annihilation_counts(self.hands[self.caller])

    def result(self) -> Result:
        """§4: the highest score wins; on a tie fewer vetoes; if still tied the win is
        shared (no single winner)."""
        if self._result is None:
            scores = self.final_scores()
            # the score first, then fewer vetoes
            ranks = ranks_from_scores([(s, -self.vetoes[p]) for p, s in enumerate(scores)])
            best = [p for p, r in enumerate(ranks) if r == 1]
            self._result = Result(tuple(float(s) for s in scores), ranks,
                                  best[0] if len(best) == 1 else None)
        return self._result

    def stats(self) -> dict[str, Any]:
        """How the game ended, the hunt, vetoes, scoring units and reveals used."""
        units: dict[str, int] = {}
        for h in self.hands:
            for u in C.cached_layout(h)[1]:
                kind = C.UNIT[u][1]
                units[kind] = units.get(kind, 0) + 1
        return {
            "rounds": self.round,
            "end": "call" if self.caller >= 0 else "silent",
            "caller": self.caller,
            "call_conditions": list(self.call_conds),
            "hunt_draws": len(self.hunt),
            "hunt_took_21": any(card == C.JOKER_21 for _, card in self.hunt),
            "annihilation_effect": self.annihilation_effect(),
            "vetoes": sum(self.vetoes),
            "units": units,
            "knowledge_used": self.used_knowledge.bit_count(),
            "creation_used": self.used_creation.bit_count(),
        }

    def components(self) -> dict[str, int]:
        """The 33 cards: in the hands or the stack (§1)."""
        return {"cards": sum(h.bit_count() for h in self.hands) + len(self.stack)}

    # -- information (``views.py``) ------------------------------------------------------
    def _views_of(self) -> PixmitViews:
        """This state's views and their caches (made on the first view)."""
        views = self._views
        if views is None:
            views = self._views = PixmitViews()
        return views

    def _view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` sees (``views.py``)."""
        return self._views_of().view(self, seat)

    def _full_view(self) -> dict[str, Any]:
        """Everything (``views.py``)."""
        return self._views_of().full_view(self)

    def determinise(self, seat: int, rng: random.Random) -> PixmitState:
        """Every card whose place ``seat`` does not know, resampled (``sampling.py``)."""
        return determinise(self, seat, rng)


# The phase table, set on the class once it exists (a compiled class's body cannot name
# its own methods).
PixmitState.PHASES = PhaseTable(Phase, {
    Phase.TURN: Rule(
        Who.TURN, actions=(Move.CALL, Move.KNOWLEDGE, Move.TARGET, Move.OFFER),
        seats=PixmitState._the_active, legal=PixmitState._turn_actions, apply=PixmitState._turn,
        why=PixmitState._why_not_turn,
        opens="§3: a turn begins (after the PixmitState.deal, a turn or a round's draws)",
        closes="a call → over; the offer's cards → claim"),
    Phase.CLAIM: Rule(
        Who.TURN, actions=(Move.CLAIM,), seats=PixmitState._the_active,
        legal=PixmitState._claims_of,
        apply=PixmitState._claim, why=PixmitState._why_not_claim,
        opens="§3.3: the offer's cards are laid down",
        closes="the last card's announcement → response"),
    Phase.RESPONSE: Rule(
        Who.TURN, actions=(Move.ACCEPT, Move.VETO), seats=PixmitState._the_target,
        legal=PixmitState._responses,
        apply=PixmitState._respond, why=PixmitState._why_not_respond,
        opens="§3.3: every card is announced",
        closes="accept → return; veto → creation (A holds Schöpfung), messenger (2 "
               "players) or the draws (§3.6)"),
    Phase.CREATION: Rule(
        Who.TURN, actions=(Move.CREATION, Move.PASS), seats=PixmitState._the_active,
        legal=PixmitState._creation_choices, apply=PixmitState._create_or_pass,
        why=PixmitState._why_not,
        opens="§3.5: a veto, A holds 03, 20, 25 unused",
        closes="Schöpfung → return; pass → the veto is resolved (§3.6)"),
    Phase.RETURN: Rule(
        Who.TURN, actions=(Move.RETURN,), seats=PixmitState._the_target, legal=PixmitState._returns,
        apply=PixmitState._give_back, why=PixmitState._why_not,
        opens="§3.4: accepted (or Schöpfung, §3.5)",
        closes="the swap → the next turn"),
    Phase.MESSENGER: Rule(
        Who.TURN, actions=(Move.MESSENGER,), seats=PixmitState._the_target,
        legal=PixmitState._messenger_cards,
        apply=PixmitState._send, why=PixmitState._why_not,
        opens="§3.6: a veto stands with 2 players",
        closes="the card → discard (A holds 7) or the next turn"),
    Phase.DISCARD: Rule(
        Who.TURN, actions=(Move.BOTTOM,), seats=PixmitState._the_active,
        legal=PixmitState._discards,
        apply=PixmitState._bottom, why=PixmitState._why_not,
        opens="§3.7: A holds more than 6 cards",
        closes="back to 6 cards → the next turn"),
    Phase.OVER: Rule(Who.NOBODY, opens="§5: a call, or the silent end after round 3",
                     closes="never"),
})
