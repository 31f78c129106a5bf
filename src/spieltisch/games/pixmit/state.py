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
from typing import TYPE_CHECKING, Any

from ...bots.base import Bot
from ...core.cards import Shuffler
from ...core.cards import cards_of as _cards
from ...core.game import ConfigError, Event, Game, Result, State
from . import actions as A
from . import cards as C
from .actions import ActionSpace
from .observation import PixmitObserver

if TYPE_CHECKING:
    from ...core.position import Fields

TURN, CLAIM, RESPONSE, CREATION, RETURN, MESSENGER, DISCARD, OVER = range(8)
PHASES = ("turn", "claim", "response", "creation", "return", "messenger", "discard", "over")
HAND_LIMIT = 6
ROUNDS = 3
BIT21 = 1 << C.JOKER_21


#: A mask's card codes, lowest id first (a fresh list).
_codes = C.card_codes

# Read-only pieces shared by every view (docs/engine.md: a returned view is never
# mutated, so views may share sub-objects; identical objects are also the cheapest for
# consumers that compare views, like the RL encoder). Indexed by player count / seat.
MAX_PLAYERS = 4
#: ``to_act`` by ``_actors`` (nobody, or one seat).
_TO_ACT: dict[tuple[int, ...], list[int]] = {(): [], **{(p,): [p] for p in range(MAX_PLAYERS)}}
#: ``knowledge_used`` / ``creation_used`` by player count and mask of seats.
_FLAGS: list[list[list[bool]]] = [
    [[bool(mask >> p & 1) for p in range(n)] for mask in range(1 << n)]
    for n in range(MAX_PLAYERS + 1)]
#: Entries of ``known``: card x in seat p's hand, and card x at a stack position.
_SEEN_IN_HAND: list[list[dict[str, Any]]] = [
    [{"card": code, "seat": p} for code in C.CARD_CODES] for p in range(MAX_PLAYERS)]
_SEEN_IN_STACK: list[list[dict[str, Any]]] = [
    [{"card": code, "stack_from_top": i} for code in C.CARD_CODES] for i in range(C.NUM_CARDS)]


class PixmitGame(Game):
    """Pixmit configured with a player count (2–4) and the mode."""

    card_codes = C.CARD_CODES

    def __init__(self, num_players: int, options: dict[str, Any]) -> None:
        super().__init__(num_players, options)
        self.mode: str = options["mode"]
        self.beginner = self.mode == "beginner"
        self.start_player: int = options["start_player"]
        if self.start_player >= num_players:
            raise ConfigError(f"option 'start_player' of pixmit must be below the player "
                              f"count {num_players}, not {self.start_player}")
        self.space = ActionSpace(num_players)

    @property
    def num_actions(self) -> int:
        return self.space.size

    def _new_state(self, rng: random.Random, stacked: list[list[int]]) -> PixmitState:
        return PixmitState.deal(self, Shuffler(rng, stacked))

    def _state_from_position(self, fields: Fields, shuffler: Shuffler) -> PixmitState:
        """A state from a position's ``"state"`` object (``position.py``)."""
        from .position import read

        return read(self, fields, shuffler)

    def action_to_json(self, action: int) -> str:
        return self.space.to_text(action)

    def action_from_json(self, obj: Any) -> int:
        return self.space.from_text(obj)

    def describe_action(self, action: int) -> str:
        kind, a, b = self.space.decode(action)
        named = lambda cards: ", ".join(f"{C.CARD_CODES[x]} {C.NAMES[x]}" for x in cards)  # noqa: E731
        if kind == "call":
            return "Pixmit! (call: the game ends now)"
        if kind == "knowledge":
            return "Wissen: reveal 15, 19, 26 and look at the top two stack cards"
        if kind == "accept":
            return "accept the offer (then give back as many cards, blind)"
        if kind == "veto":
            return "veto the offer"
        if kind == "creation":
            return "Schöpfung: reveal 03, 20, 25 and overrule the veto"
        if kind == "pass":
            return "let the veto stand"
        if kind == "target":
            return f"choose seat {a} as the target of your offer (then the cards)"
        if kind == "offer":
            return f"offer face down: {named(C.SUBSET_CARDS[a])}"
        if kind == "return":
            return f"give back: {named(C.SUBSET_CARDS[a])}"
        if kind == "messenger":
            return f"Blinder Bote: give {named([a])}"
        if kind == "bottom":
            return f"put {named([a])} under the stack (hand limit 6)"
        text = C.CLAIM_TEXT[a]
        if a == 0:
            return "announce nothing about this card"
        if a <= len(C.GROUPS):
            return f"announce: group {text} ({C.GROUP_NAMES[text]})"
        return f"announce: card {text} ({C.NAMES[a - 1 - len(C.GROUPS)]})"

    def render_view(self, view: dict[str, Any]) -> str:
        from .render import render

        return render(view)

    def bots(self) -> dict[str, type[Bot]]:
        from .bot import HeuristicBot

        return {"heuristic": HeuristicBot}

    def observer_class(self) -> type[PixmitObserver]:
        """Pixmit's own RL observation (``observation.py``)."""
        return PixmitObserver


class PixmitState(State):
    game: PixmitGame

    # -- setup (§2) ---------------------------------------------------------------------
    def __init__(self, game: PixmitGame, shuffler: Shuffler) -> None:
        self.game = game
        self.shuffler = shuffler
        self.move_number = 0
        n = game.num_players
        self.all_seats = (1 << n) - 1
        self.hands: list[int] = [0] * n
        #: The face-down stack, top card LAST (draw = pop, bottom = insert at 0).
        self.stack: list[int] = []
        self.known: list[int] = [0] * n
        self.start = 0
        self.round = 1
        self.turn_index = 0
        self.active = 0
        self.phase = TURN
        self.fresh = True
        #: The offer's target; in phase turn, a chosen target not yet public (-1: none).
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
        #: Seat holding card 21 (-1: in the stack); kept by ``_fix21``.
        self.holder21 = -1
        #: Counts changes of hands, stack and ``known`` (``_fix21`` follows every card
        #: move; reveals and the end count too): a view's private part is rebuilt only then.
        self.cards_version = 0
        self.call_conds: list[str] = []
        self.hunt: list[tuple[int, int]] = []
        self.hunt_eligible: list[int] = []
        self._actors: tuple[int, ...] = ()
        self._result: Result | None = None

    @classmethod
    def deal(cls, game: PixmitGame, shuffler: Shuffler) -> PixmitState:
        """§2: shuffle, pick the start player, deal 2 cards each from S clockwise."""
        s = cls(game, shuffler)
        n = game.num_players
        order = shuffler.shuffled(range(C.NUM_CARDS))
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

    def clone(self) -> PixmitState:
        s = PixmitState.__new__(PixmitState)
        s.__dict__.update(self.__dict__)
        s.__dict__.pop("_legal_cache", None)
        s.__dict__.pop("_final_cache", None)
        s.__dict__.pop("_private_cache", None)
        s.shuffler = self.shuffler.copy()
        s.hands = self.hands[:]
        s.stack = self.stack[:]
        s.known = self.known[:]
        s.claims = self.claims[:]
        s.vetoes = self.vetoes[:]
        s.log = self.log[:]
        s.reveals = self.reveals[:]
        s.call_conds = self.call_conds[:]
        s.hunt = self.hunt[:]
        s.hunt_eligible = self.hunt_eligible[:]
        return s

    def _position(self) -> dict[str, Any]:
        """This state's ``"state"`` object of a position (``position.py``)."""
        from .position import write

        return write(self)

    # -- who acts -------------------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        return self._actors

    def _set_phase(self, phase: int) -> None:
        self.phase = phase
        if phase in (RESPONSE, RETURN, MESSENGER):
            self._actors = (self.target,)
        elif phase == OVER:
            self._actors = ()
        else:
            self._actors = (self.active,)

    def _begin_turn(self) -> None:
        n = self.game.num_players
        self.active = (self.start + self.turn_index) % n
        self.fresh = True
        self.target = -1
        self.offer = 0
        self.offer_cards = ()
        self.claims = []
        self._set_phase(TURN)

    # -- legal actions ------------------------------------------------------------------
    def _legal_actions(self, seat: int) -> list[int]:
        if seat not in self._actors:
            return []
        phase = self.phase
        space = self.game.space
        if phase == TURN:
            a = self.active
            hand = self.hands[a]
            t = self.target
            if t >= 0:
                # the target is chosen (final, like a card laid down): only its offers
                base = space.offer_base
                subsets = C.card_ids(hand)  # a single card's subset index is its id
                if self.hands[t].bit_count() >= 2:  # k ≤ |hand(T)|: pairs need 2 cards
                    subsets = subsets + C.pairs_of(subsets)
                return [base + s for s in subsets]
            out: list[int] = []
            if self.fresh and C.may_call(hand):
                out.append(A.CALL)
            if not self.used_knowledge >> a & 1 and hand & C.KNOWLEDGE == C.KNOWLEDGE:
                out.append(A.KNOWLEDGE)
            if hand:
                out += [A.TARGET_BASE + p for p in range(self.game.num_players)
                        if p != a and self.hands[p]]
            return out
        if phase == CLAIM:
            if self.game.beginner:
                base = space.claim_base
                return [base + x for x in C.TRUTHFUL[self.offer_cards[len(self.claims)]]]
            return space.all_claims
        if phase == RESPONSE:
            if self.game.num_players == 2 and self.hands[self.target].bit_count() < 2:
                return [A.ACCEPT]
            return [A.ACCEPT, A.VETO]
        if phase == CREATION:
            return [A.CREATION, A.PASS]
        if phase == RETURN:
            base = space.return_base
            return [base + s for s in C.subsets_of(self.hands[self.target], len(self.offer_cards))]
        if phase == MESSENGER:
            base = space.messenger_base
            return [base + x for x in _cards(self.hands[self.target])]
        if phase == DISCARD:
            base = space.bottom_base
            return [base + x for x in _cards(self.hands[self.active])]
        return []

    def why_illegal(self, seat: int, action: int) -> str:
        if self.is_over():
            return "the game is over"
        if seat not in self._actors:
            who = ", ".join(map(str, self._actors))
            return f"seat {seat} may not act now (waiting for seat {who}: {PHASES[self.phase]})"
        text = self.game.action_to_json(action)
        kind = self.game.space.decode(action)[0]
        if self.phase == TURN and self.target >= 0:
            if kind == "offer":
                if C.SUBSETS[action - self.game.space.offer_base] & ~self.hands[self.active]:
                    return f"{text}: offer cards of your own hand"
                return (f"{text}: seat {self.target} holds "
                        f"{self.hands[self.target].bit_count()} card(s), offer at most as many")
            return f"{text}: the target (seat {self.target}) is chosen, now 'offer' the cards"
        if kind == "offer" and self.phase == TURN:
            return f"{text}: choose the target first ('target T'), then offer the cards"
        if kind == "target" and self.phase == TURN:
            return f"{text}: a target must be another seat holding cards"
        if kind == "call":
            if not self.fresh:
                return "a call is only possible at the very start of the turn"
            return "the hand meets no call condition (Joker-Satz, natural set, Elite)"
        if kind == "veto" and self.phase == RESPONSE:
            return "with 2 players a veto needs at least 2 cards in hand"
        if kind == "claim" and self.phase == CLAIM:
            return f"{text}: beginner mode allows only true announcements"
        return f"{text} is not legal now (phase: {PHASES[self.phase]})"

    # -- applying actions ----------------------------------------------------------------
    def _apply(self, seat: int, action: int) -> list[Event]:
        phase = self.phase
        if phase == TURN:
            if action == A.CALL:
                return self._call()
            if action == A.KNOWLEDGE:
                return self._knowledge()
            if action < self.game.space.offer_base:
                # private until the cards follow: no event, no log entry (rules.md)
                self.target = action - A.TARGET_BASE
                return []
            return self._offer(action)
        if phase == CLAIM:
            claim = action - self.game.space.claim_base
            self.claims.append(claim)
            ev = [Event("claim", seat, {"card_index": len(self.claims) - 1,
                                        "claim": C.CLAIM_TEXT[claim]})]
            if len(self.claims) == len(self.offer_cards):
                self._set_phase(RESPONSE)
            return ev
        if phase == RESPONSE:
            if action == A.ACCEPT:
                self.log.append({"kind": "accept", "seat": seat})
                self._set_phase(RETURN)
                return [Event("accept", seat)]
            return self._veto()
        if phase == CREATION:
            if action == A.CREATION:
                return self._creation()
            return self._resolve_veto([Event("pass", seat)])
        if phase == RETURN:
            return self._swap(C.SUBSETS[action - self.game.space.return_base])
        if phase == MESSENGER:
            return self._messenger(action - self.game.space.messenger_base)
        return self._discard(action - self.game.space.bottom_base)

    def _call(self) -> list[Event]:
        """§3.1 CALL: the game ends at once; if A holds 21, the HUNT follows."""
        a = self.active
        n = self.game.num_players
        self.caller = a
        self.call_conds = C.call_conditions(self.hands[a])
        self.log.append({"kind": "call", "seat": a, "conditions": self.call_conds})
        events = [Event("call", a, {"conditions": self.call_conds,
                                    "hand": _codes(self.hands[a])})]
        if self.hands[a] & BIT21:
            # HUNT: eligibility is fixed at the call; clockwise from the caller's left.
            eligible = [(a + i) % n for i in range(1, n)
                        if not C.has_set(self.hands[(a + i) % n])]
            self.hunt_eligible = eligible
            for p in eligible:
                if not self.hands[a] & BIT21 or not self.hands[a]:
                    break
                card = self.shuffler.shuffled(_cards(self.hands[a]))[0]
                self.hands[a] &= ~(1 << card)
                self.hands[p] |= 1 << card
                self.hunt.append((p, card))
                self.log.append({"kind": "hunt", "seat": p, "card": C.CARD_CODES[card]})
                events.append(Event("hunt", p, {"from": a, "card": C.CARD_CODES[card]}))
            self._fix21()  # 21 itself may have been drawn
        self._end_game()
        return events

    def _knowledge(self) -> list[Event]:
        """§3.2 WISSEN: reveal 15, 19, 26; privately see the top 2 stack cards."""
        a = self.active
        self.used_knowledge |= 1 << a
        self.fresh = False
        self.known = [k | C.KNOWLEDGE for k in self.known]
        self.cards_version += 1
        seen = self.stack[-2:][::-1]
        for x in seen:
            self.known[a] |= 1 << x
        self.reveals.append({"seat": a, "set": C.K_KNOWLEDGE, "cards": _codes(C.KNOWLEDGE),
                             "move": self.move_number})
        self.log.append({"kind": "knowledge", "seat": a})
        return [Event("knowledge", a, {"cards": _codes(C.KNOWLEDGE)},
                      {a: {"top": [C.CARD_CODES[x] for x in seen]}})]

    def _offer(self, action: int) -> list[Event]:
        """§3.3 OFFER: target T ≠ A (chosen just before), 1–2 face-down cards; then the
        announcements."""
        t = self.target
        s = action - self.game.space.offer_base
        self.fresh = False
        self.offer = C.SUBSETS[s]
        self.offer_cards = C.SUBSET_CARDS[s]
        self.claims = []
        k = len(self.offer_cards)
        self.log.append({"kind": "offer", "seat": self.active, "target": t, "k": k})
        self._set_phase(CLAIM)
        return [Event("offer", self.active, {"target": t, "k": k},
                      {self.active: {"cards": _codes(self.offer)}})]

    def _veto(self) -> list[Event]:
        """§3.4 VETO: counts for the tie-break; Schöpfung may overrule it (§3.5)."""
        t, a = self.target, self.active
        self.vetoes[t] += 1
        self.log.append({"kind": "veto", "seat": t})
        events = [Event("veto", t, {"vetoes": self.vetoes[t]})]
        if not self.used_creation >> a & 1 and self.hands[a] & C.CREATION == C.CREATION:
            self._set_phase(CREATION)
            return events
        return self._resolve_veto(events)

    def _creation(self) -> list[Event]:
        """§3.5 SCHÖPFUNG: reveal 03, 20, 25; the veto is ignored and ACCEPT follows."""
        a = self.active
        self.used_creation |= 1 << a
        self.known = [k | C.CREATION for k in self.known]
        self.cards_version += 1
        self.reveals.append({"seat": a, "set": C.K_CREATION, "cards": _codes(C.CREATION),
                             "move": self.move_number})
        self.log.append({"kind": "creation", "seat": a})
        self._set_phase(RETURN)
        return [Event("creation", a, {"cards": _codes(C.CREATION)})]

    def _resolve_veto(self, events: list[Event]) -> list[Event]:
        """§3.6: 3–4 players draw k and put C under; 2 players use the Blinder Bote."""
        a = self.active
        if self.game.num_players == 2:
            self._set_phase(MESSENGER)
            return events
        k = len(self.offer_cards)
        before = self.hands[a]
        drawn = []
        for _ in range(k):
            card = self.stack.pop()
            drawn.append(card)
            self.hands[a] |= 1 << card
        for x in self.offer_cards:
            # the last card listed ends up as the very bottom card (§8.5)
            self.hands[a] &= ~(1 << x)
            self.stack.insert(0, x)
        known = self.known
        for p in range(self.game.num_players):
            if p != a:
                known[p] &= ~before
        for x in drawn:
            known[a] |= 1 << x
        self._fix21()
        self.log.append({"kind": "veto_draw", "seat": a, "k": k})
        events.append(Event("veto_draw", a, {"k": k},
                            {a: {"drawn": [C.CARD_CODES[x] for x in drawn],
                                 "to_bottom": [C.CARD_CODES[x] for x in self.offer_cards]}}))
        return self._end_turn(events)

    def _swap(self, given: int) -> list[Event]:
        """§3.4 ACCEPT: swap C and R face down."""
        a, t = self.active, self.target
        offer = self.offer
        self.hands[a] = (self.hands[a] & ~offer) | given
        self.hands[t] = (self.hands[t] & ~given) | offer
        known = self.known
        both = self.hands[a] | self.hands[t]
        for p in range(self.game.num_players):
            if p != a and p != t:
                known[p] &= ~both
        known[a] |= self.hands[a] | offer
        known[t] |= self.hands[t] | given
        self._fix21()
        self.log.append({"kind": "swap", "seat": a, "target": t, "k": len(self.offer_cards)})
        return self._end_turn([Event("swap", t, {"with": a, "k": len(self.offer_cards)},
                                     {a: {"received": _codes(given), "gave": _codes(offer)},
                                      t: {"received": _codes(offer), "gave": _codes(given)}})])

    def _messenger(self, card: int) -> list[Event]:
        """§3.6, 2 players: T's chosen card goes via the Bote to A; A keeps C."""
        a, t = self.active, self.target
        self.hands[t] &= ~(1 << card)
        self.hands[a] |= 1 << card
        self.known[a] |= 1 << card
        self.known[t] |= 1 << card
        self._fix21()
        self.log.append({"kind": "messenger", "seat": t, "to": a})
        events = [Event("messenger", t, {"to": a},
                        {a: {"card": C.CARD_CODES[card]}, t: {"card": C.CARD_CODES[card]}})]
        if self.hands[a].bit_count() > HAND_LIMIT:
            self._set_phase(DISCARD)
            return events
        return self._end_turn(events)

    def _discard(self, card: int) -> list[Event]:
        """§3.7 hand limit 6: the excess goes under the stack, card by card."""
        a = self.active
        self.hands[a] &= ~(1 << card)
        self.stack.insert(0, card)
        lost = self.hands[a] | (1 << card)
        for p in range(self.game.num_players):
            if p != a:
                self.known[p] &= ~lost
        self._fix21()
        self.log.append({"kind": "bottom", "seat": a})
        events = [Event("bottom", a, {}, {a: {"card": C.CARD_CODES[card]}})]
        if self.hands[a].bit_count() > HAND_LIMIT:
            return events
        return self._end_turn(events)

    def _fix21(self) -> None:
        """§3.8: the holder of 21 is public (in the stack: only that it is there).

        Called after every card move, so it also counts the change for the views."""
        self.cards_version += 1
        self.holder21 = self._holder21()
        if self.holder21 >= 0:
            self.known = [k | BIT21 for k in self.known]

    def _holder21(self) -> int:
        for p, h in enumerate(self.hands):
            if h & BIT21:
                return p
        return -1

    def _end_turn(self, events: list[Event]) -> list[Event]:
        """Next turn; after the last turn of a round the draws (§3.1) or the silent end."""
        n = self.game.num_players
        self.turn_index += 1
        if self.turn_index == n:
            if self.round == ROUNDS:
                self.log.append({"kind": "silent_end"})
                events.append(Event("silent_end", None))
                self._end_game()
                return events
            self.round += 1
            self.turn_index = 0
            draws = []
            for i in range(n):
                p = (self.start + i) % n
                k = min(2, HAND_LIMIT - self.hands[p].bit_count())
                got = []
                for _ in range(max(k, 0)):
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
        self.offer = 0
        self.offer_cards = ()
        self.claims = []
        self.target = -1
        self.known = [(1 << C.NUM_CARDS) - 1] * self.game.num_players
        self.cards_version += 1
        self._set_phase(OVER)

    # -- end and scoring (§4) -------------------------------------------------------------
    def is_over(self) -> bool:
        return self.phase == OVER

    def final_scores(self) -> list[int]:
        """§4 final scoring: each hand's best score; Vernichtung −5 on a caller's hand."""
        scores = [C.score(h) for h in self.hands]
        if self.caller >= 0 and C.annihilation_counts(self.hands[self.caller]):
            scores = [s if p == self.caller else s - 5 for p, s in enumerate(scores)]
        return scores

    def round_number(self) -> int:
        return self.round

    def standing(self) -> list[float]:
        """The §4 score each hand would get if the game ended now."""
        return [float(s) for s in self.final_scores()]

    def annihilation_effect(self) -> bool:
        return self.caller >= 0 and C.annihilation_counts(self.hands[self.caller])

    def result(self) -> Result:
        if self._result is None:
            scores = self.final_scores()
            keys = [(-s, self.vetoes[p]) for p, s in enumerate(scores)]
            ranks = tuple(1 + sum(1 for k in keys if k < mine) for mine in keys)
            best = [p for p, r in enumerate(ranks) if r == 1]
            self._result = Result(tuple(float(s) for s in scores), ranks,
                                  best[0] if len(best) == 1 else None)
        return self._result

    def stats(self) -> dict[str, Any]:
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
        return {"cards": sum(h.bit_count() for h in self.hands) + len(self.stack)}

    # -- information ------------------------------------------------------------------------
    def _common(self) -> dict[str, Any]:
        n = self.game.num_players
        holder = self.holder21
        offer = None
        if self.phase in (CLAIM, RESPONSE, CREATION, RETURN, MESSENGER, DISCARD) and \
                self.offer_cards:
            offer = {"from": self.active, "to": self.target, "k": len(self.offer_cards),
                     "claims": [C.CLAIM_TEXT[x] for x in self.claims]}
        return {
            "game": "pixmit",
            "players": n,
            "mode": self.game.mode,
            "round": self.round,
            "start_player": self.start,
            "active": self.active,
            "phase": PHASES[self.phase],
            "to_act": _TO_ACT[self._actors],
            "may_call": self.phase == TURN and self.fresh,
            "hand_sizes": list(map(int.bit_count, self.hands)),
            "stack_size": len(self.stack),
            "holder_21": holder if holder >= 0 else "stack",
            "vetoes": list(self.vetoes),
            "knowledge_used": _FLAGS[n][self.used_knowledge],
            "creation_used": _FLAGS[n][self.used_creation],
            "reveals": list(self.reveals),
            "offer": offer,
            "log": self.log[-12:],
        }

    def _final(self) -> dict[str, Any]:
        """The end-of-game summary, the same for every seat: built once per state (kept
        by owner id and move number; shared, read-only, by the views)."""
        cache = self.__dict__.get("_final_cache")
        if cache is not None and cache[0] == id(self) and cache[1] == self.move_number:
            return cache[2]  # type: ignore[no-any-return]
        final = self._build_final()
        self._final_cache = (id(self), self.move_number, final)
        return final

    def _build_final(self) -> dict[str, Any]:
        return {
            "hands": [_codes(h) for h in self.hands],
            "layouts": [C.layout_text(h) for h in self.hands],
            "scores": self.final_scores(),
            "caller": self.caller,
            "call_conditions": list(self.call_conds),
            "hunt": [[p, C.CARD_CODES[x]] for p, x in self.hunt],
            "annihilation_effect": self.annihilation_effect(),
            "result": self.result().to_json(),
        }

    def view(self, seat: int | None) -> dict[str, Any]:
        out = self._common()
        out["seat"] = seat
        if self.phase == OVER:
            out["final"] = self._final()
        if seat is None:
            return out
        out["hand"], out["score"], known = self._private(seat)
        if seat == self.active:
            if out["offer"] is not None:
                out["offer"]["cards"] = [C.CARD_CODES[x] for x in self.offer_cards]
            elif self.phase == TURN and self.target >= 0:
                # the chosen target is the active seat's secret until the cards follow
                out["offer_target"] = self.target
                out["may_call"] = False
        out["known"] = known
        return out

    def _private(self, seat: int) -> tuple[list[str], int, list[dict[str, Any]]]:
        """The seat's hand, its score and the places it knows, shared read-only by its
        views until cards move or become known (kept by owner id and ``cards_version``)."""
        cache = self.__dict__.get("_private_cache")
        if cache is None or cache[0] != id(self) or cache[1] != self.cards_version:
            cache = self._private_cache = (id(self), self.cards_version, {})
        got = cache[2].get(seat)
        if got is None:
            hand = self.hands[seat]
            got = cache[2][seat] = (_codes(hand), C.score(hand), self._known_places(seat))
        return got

    def _known_places(self, seat: int) -> list[dict[str, Any]]:
        """The cards of other hands, then of the stack (bottom first), whose place
        ``seat`` knows (``known[seat]``); the entries are shared read-only dicts."""
        mine = self.known[seat]
        out: list[dict[str, Any]] = []
        held = 0
        for p, h in enumerate(self.hands):
            held |= h
            if p != seat and h & mine:
                seen = _SEEN_IN_HAND[p]
                out += [seen[x] for x in C.card_ids(h & mine)]
        if mine & ~held:  # every card not in a hand is in the stack
            top = len(self.stack) - 1
            out += [_SEEN_IN_STACK[top - i][x] for i, x in enumerate(self.stack) if mine >> x & 1]
        return out

    def full_view(self) -> dict[str, Any]:
        out = self._common()
        out["hands"] = [_codes(h) for h in self.hands]
        out["stack_top_first"] = [C.CARD_CODES[x] for x in reversed(self.stack)]
        out["offer_cards"] = [C.CARD_CODES[x] for x in self.offer_cards]
        if self.phase == TURN and self.target >= 0:
            out["offer_target"] = self.target
        out["known"] = list(self.known)
        out["move_number"] = self.move_number
        out["hunt"] = [[p, C.CARD_CODES[x]] for p, x in self.hunt]
        out["hunt_eligible"] = list(self.hunt_eligible)
        if self.phase == OVER:
            out["final"] = self._final()
        return out

    def determinise(self, seat: int, rng: random.Random) -> PixmitState:
        """Resample every card whose place ``seat`` does not know.

        Kept: the seat's hand, every card it knows the place of (``known``), hand
        sizes, the stack size, card 21's public place (a hand, or somewhere in the
        stack), which cards are on offer to the extent the seat knows them, and in
        beginner mode the announcements made about cards still on offer. A chosen
        target not yet offered to stays only in the active seat's own samples (nobody
        else sees it; without it, the active seat's options are those of the turn's
        start, as far as the others know: ``fresh`` is unchanged by the choice).
        """
        s = self.clone()
        s.shuffler = self.shuffler.reseeded(rng)
        if self.phase == OVER:
            return s
        if self.phase == TURN and seat != self.active:
            s.target = -1
        mine = self.known[seat]
        # slots: ("h", p, offered?) for hands, ("s", index) for the stack
        slots: list[tuple[str, int, int]] = []
        pool: list[int] = []
        for p, h in enumerate(self.hands):
            for x in _cards(h & ~mine):
                offered = 1 if (p == self.active and self.offer >> x & 1) else 0
                slots.append(("h", p, offered))
                pool.append(x)
        for i, x in enumerate(self.stack):
            if not mine >> x & 1:
                slots.append(("s", i, 0))
                pool.append(x)
        if not pool:
            return s
        old_cards = list(pool)
        assignment = self._sample(slots, old_cards, rng)
        hands = self.hands[:]
        for (kind, idx, _), old in zip(slots, old_cards, strict=True):
            if kind == "h":
                hands[idx] &= ~(1 << old)
        # what other seats knew moves with the slot: a card's knowledge bits follow it
        hidden = sum(1 << x for x in old_cards)
        new_known = [k & ~hidden for k in self.known]
        remap: dict[int, int] = {}
        for (kind, idx, _), old, new in zip(slots, old_cards, assignment, strict=True):
            remap[old] = new
            for p, k in enumerate(self.known):
                if k >> old & 1:
                    new_known[p] |= 1 << new
            if kind == "h":
                hands[idx] |= 1 << new
            else:
                s.stack[idx] = new
        s.hands = hands
        s.known = new_known
        if self.offer_cards:
            s.offer_cards = tuple(remap.get(x, x) for x in self.offer_cards)
            s.offer = sum(1 << x for x in s.offer_cards)
        return s

    def _sample(self, slots: list[tuple[str, int, int]], cards: list[int],
                rng: random.Random) -> list[int]:
        """A random assignment of ``cards`` to ``slots`` honouring the public constraints.

        Card 21 among hidden cards is in the stack (in a hand it is public): it goes to a
        random hidden stack slot. In beginner mode, a hidden card on offer gets a card
        its announcement is true of (number claims first).
        """
        claimed: list[tuple[int, int]] = []
        if self.game.beginner and self.claims:
            by_card = {x: self.claims[i] for i, x in enumerate(self.offer_cards)
                       if i < len(self.claims)}
            claimed = [(j, by_card[x]) for j, x in enumerate(cards)
                       if x in by_card and slots[j][2]]
            claimed.sort(key=lambda jc: -jc[1])
        stack_slots = [j for j, sl in enumerate(slots) if sl[0] == "s"]
        for _ in range(50):
            pool = cards[:]
            rng.shuffle(pool)
            out: list[int] = [-1] * len(cards)
            if C.JOKER_21 in pool:
                out[rng.choice(stack_slots)] = C.JOKER_21
                pool.remove(C.JOKER_21)
            ok = True
            for j, claim in claimed:
                choices = [y for y in pool if claim in C.TRUTHFUL[y]]
                if not choices or out[j] >= 0:
                    ok = False
                    break
                y = rng.choice(choices)
                out[j] = y
                pool.remove(y)
            if not ok:
                continue
            it = iter(pool)
            return [y if y >= 0 else next(it) for y in out]
        return cards[:]
