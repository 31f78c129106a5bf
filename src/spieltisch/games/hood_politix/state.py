"""Hood Politix: the rules (spec: ``rules.md`` beside this file, sections quoted as §).

A *round* is one deal, played until one player still holds cards; points are
places (1st = 1 … last = N); after at least ``min_rounds`` rounds the unique
lowest total wins.

The state machine has one seat the game waits for (``due``) in a *phase*
(TURN, STACK, SLAP, DEAL, SNITCH, and MICDROP_WAIT at the end of a round), an
optional *pause* (Politix or Respekt) and the out-of-turn windows: throw-ins,
Mic Check, Politix calls and accusations, which cost no decisions: nobody passes.

Attempts are judged three ways (``check``): LEGAL (also a bluff Mic Check, which
changes nothing, §5.4); FAULTY — a wrong card, a move out of turn, a late or wrong
throw-in (an action card too), drawing with a playable card, a false accusation —
which the rules punish with 2 cards, the card going back (§3); and ILLEGAL (no such
card in your hand, nonsense targets, anything during a pause but accusations and
ending it, §9.5, a repeat accusation of a fault on record, §9.4), which is rejected
with no penalty. Anyone may accuse, also a finished player (§5.2).

Time (§5.3, §5.5, §5.6) is a set of deadlines the state declares; the clock
applies ``expire …`` actions. A timeout claim is valid only once the move timer
has expired. During a pause the move timer is frozen (``frozen_timers``) and comes
back unchanged when the pause ends; the runner resumes it with the time it had left.
"""

from __future__ import annotations

import random
from typing import Any

from ...core.cards import SEATS_OF, Shuffler, cards_of, deal_masks
from ...core.game import (
    CLOCK,
    LEGAL,
    Check,
    ConfigError,
    Deadline,
    Event,
    Game,
    IllegalAction,
    Result,
    State,
    Verdict,
)
from ...core.observation import Observer
from ...core.position import Fields
from . import cards as C
from .cards import (
    A_ACCEPT,
    A_ACCUSE,
    A_DRAW,
    A_END_POLITIX,
    A_EXPIRE,
    A_GIVE,
    A_MIC,
    A_PASS,
    A_PLAY,
    A_POLITIX,
    A_RELEASE,
    A_REVEAL,
    A_TAKE,
    A_THROW,
    AARG_T,
    ACCEPT,
    ACCUSE_ID,
    AFLAG_T,
    AKIND_T,
    ATYPE_T,
    BUSTED,
    CARD_KIND_CODES,
    CARD_TYPE,
    DEAL,
    DEUCE,
    DRAW,
    END_POLITIX,
    EXPIRE_ID,
    F_MIC_CHECK,
    F_MIC_DROP,
    F_TIMEOUT,
    FIVEO,
    GIVE_ID,
    IYF,
    KIND_CODES,
    KIND_COLOUR,
    KIND_MASK,
    KIND_NAMES,
    KIND_OF_T,
    KIND_TYPE,
    MATCH,
    MIC,
    NUM_ACTIONS,
    NUM_CARDS,
    NUMBER_KINDS,
    PAIR_FIRST,
    PASS,
    PAYBACK,
    PLAY_ID,
    PLAYS_BY_CARD,
    POLITIX,
    RELEASE,
    REVEAL_ID,
    SINGLES,
    SLAP,
    SNITCH,
    T_MOVE,
    T_POLITIX,
    T_RESPEKT,
    TAKE_ID,
    TARGETED,
    THROW_ID,
    TYPE_MASK,
    codes,
    first_of_kind,
    kinds_of,
)

# Seat status (§3).
IN, FINISHED, PENDING = 0, 1, 2
STATUS_NAMES = ("in", "finished", "pending")
# Phases: who the game waits for and what they may do (§3 table).
TURN, STACK, SLAP_R, DEAL_R, SNITCH_R, MICDROP_WAIT, OVER = range(7)
PHASE_NAMES = ("turn", "stack", "slap", "deal", "snitch", "mic_drop_window", "over")
# Pauses (§5.5, §5.6).
NO_PAUSE, P_POLITIX, P_RESPEKT = 0, 1, 2
PAUSE_NAMES = (None, "politix", "respekt")
#: A Mic Check with nothing to announce, or a ``mic`` flag with more than 2 cards.
_BLUFF = Check(Verdict.LEGAL, "a bluff: permitted, and it changes nothing (§5.4)")

FIVEO_MASK = TYPE_MASK[FIVEO]
DEUCE_MASK = TYPE_MASK[DEUCE]
IYF_MASK = TYPE_MASK[IYF]
PAYBACK_MASK = TYPE_MASK[PAYBACK]
PENALTY = 2
SLAP_DRAW = 3
RESPEKT_AT = 5
#: What a ``mic`` flag says with 1, 2 or more cards in the hand before the card (§5.4):
#: with more than 2 it is a permitted bluff that changes nothing.
_MIC_SAID = ("", "drop", "check", "bluff")


class HoodPolitixGame(Game):
    card_codes = C.CARD_CODES
    view_card_codes = C.KIND_CODES

    def __init__(self, num_players: int, options: dict[str, Any]) -> None:
        super().__init__(num_players, options)
        self.hand_size: int = options["hand_size"]
        self.min_rounds: int = options["min_rounds"]
        self.move_seconds: float = options["move_seconds"]
        self.respekt_seconds: float = options["respekt_seconds"]
        self.politix_seconds: float = options["politix_seconds"]
        self.politix_calls: int = options["politix_calls"]
        self.first_dealer: int = options["first_dealer"]
        if self.first_dealer >= num_players:
            raise ConfigError(f"option 'first_dealer' of hood_politix must be below the "
                              f"player count {num_players}, not {self.first_dealer}")
        if num_players * self.hand_size + 1 > NUM_CARDS:
            raise ConfigError("not enough cards for these hands")

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    def _new_state(self, rng: random.Random, stacked: list[list[int]]) -> HoodPolitixState:
        return HoodPolitixState.deal_first(self, Shuffler(rng, stacked))

    def parse_deck(self, deck: Any) -> list[list[int]]:
        """Stacked orders may use kind codes (``G7`` twice means both copies) or physical
        codes (``G7a``, ``G7b``)."""
        if not isinstance(deck, (list, tuple)) or not deck:
            raise ConfigError("a stacked deck must be a non-empty list of card codes")
        orders = deck if isinstance(deck[0], (list, tuple)) else [deck]
        out = []
        for order in orders:
            used = 0
            ids = []
            for c in order:
                if isinstance(c, int):
                    card = c
                elif isinstance(c, str) and c.upper() in C.KIND_INDEX:
                    card = first_of_kind(C.ALL_CARDS & ~used, C.KIND_INDEX[c.upper()])
                    if card < 0:
                        raise ConfigError(f"stacked deck names {c} more often than it exists")
                elif isinstance(c, str):
                    card = self.card_id(c)
                else:
                    raise ConfigError("a stacked deck holds card codes such as 'G7' or 'Y50'")
                used |= 1 << card
                ids.append(card)
            out.append(ids)
        return out

    # -- action forms --------------------------------------------------------------
    def action_to_json(self, action: int) -> str:
        if not 0 <= action < NUM_ACTIONS:
            raise IllegalAction(f"action {action} is outside the action space")
        typ, kind, arg, flag = ATYPE_T[action], AKIND_T[action], AARG_T[action], \
            AFLAG_T[action]
        if typ == A_PLAY or typ == A_THROW:
            text = ("play " if typ == A_PLAY else "throw ") + KIND_CODES[kind]
            if arg >= 0:
                text += f" {arg}"
            return text + (" mic" if flag else "")
        if typ in _SNITCH_VERBS:
            return _SNITCH_VERBS[typ] + " " + KIND_CODES[kind]
        if typ == A_ACCUSE:
            return f"accuse {arg} {C.FAULT_CODES[kind]}"
        if typ == A_EXPIRE:
            return "expire " + C.TIMER_CODES[arg]
        return _SIMPLE_TEXT[typ]

    def action_from_json(self, obj: Any) -> int:
        if not isinstance(obj, str):
            raise IllegalAction(f"an action is a string such as 'play G7', not {obj!r}")
        words = obj.strip().lower().split()
        if not words:
            raise IllegalAction("empty action")
        text = " ".join(words)
        if text in _SIMPLE_ACTIONS:
            return _SIMPLE_ACTIONS[text]
        verb, args = words[0], words[1:]
        if verb == "exchange":
            raise IllegalAction("the Snitch exchange is two actions: 'take PIY' (the card "
                                "of theirs you take), then 'give G1' (yours in return)")
        if verb in ("play", "throw", "reveal", "take", "give") and args:
            kind = _kind(args[0])
            if verb in _SNITCH_IDS and len(args) == 1:
                return _SNITCH_IDS[verb][kind]
            if verb in ("play", "throw"):
                rest = args[1:]
                flag = 0
                if rest and rest[-1] in _MIC_WORDS:
                    flag = 1
                    rest = rest[:-1]
                targeted = KIND_TYPE[kind] in (DEAL, SNITCH)
                if verb == "throw":  # any card may be tried; a wrong one is a fault
                    if rest:
                        raise IllegalAction(f"unexpected {' '.join(rest)!r} after the card")
                    return THROW_ID[kind][flag]
                if targeted:
                    if len(rest) != 1 or not rest[0].isdigit() or \
                            int(rest[0]) >= C.MAX_SEATS:
                        raise IllegalAction(
                            f"a {C.TYPE_NAMES[KIND_TYPE[kind]]} names a target seat: "
                            f"'play {KIND_CODES[kind]} 2'")
                    return PLAY_ID[kind][int(rest[0]) + 1][flag]
                if rest:
                    raise IllegalAction(f"unexpected {' '.join(rest)!r} after the card")
                return PLAY_ID[kind][0][flag]
        if verb == "accuse" and len(args) == 2:
            if not args[0].isdigit() or int(args[0]) >= C.MAX_SEATS:
                raise IllegalAction(f"accuse names a seat, not {args[0]!r}")
            fault = _FAULT_WORDS.get(args[1])
            if fault is None:
                raise IllegalAction(f"unknown fault {args[1]!r} "
                                    "(mic-check, mic-drop or timeout)")
            return ACCUSE_ID[int(args[0])][fault]
        if verb in ("timeout", "claim") and len(args) == 1 and args[0].isdigit() \
                and int(args[0]) < C.MAX_SEATS:
            return ACCUSE_ID[int(args[0])][F_TIMEOUT]
        if verb == "expire" and len(args) == 1 and args[0] in C.TIMER_CODES:
            return EXPIRE_ID[C.TIMER_CODES.index(args[0])]
        raise IllegalAction(
            f"not an action: {obj!r} (try 'play G7', 'play GDL 2 mic', 'throw G7', 'draw', "
            "'accept', 'mic check', 'accuse 2 mic-drop', 'politix')")

    def describe_action(self, action: int) -> str:
        typ, kind, arg, flag = ATYPE_T[action], AKIND_T[action], AARG_T[action], \
            AFLAG_T[action]
        if typ == A_PLAY or typ == A_THROW:
            text = ("play " if typ == A_PLAY else "throw in ") + KIND_NAMES[kind]
            if arg >= 0:
                text += f" on seat {arg}"
            return text + (" — Mic!" if flag else "")
        if typ == A_REVEAL:
            return "reveal their " + KIND_NAMES[kind]
        if typ == A_TAKE:
            return f"take their {KIND_NAMES[kind]} (then give one of yours)"
        if typ == A_GIVE:
            return f"give your {KIND_NAMES[kind]} in exchange"
        if typ == A_ACCUSE:
            return f"accuse seat {arg}: {C.FAULT_NAMES[kind]}"
        if typ == A_EXPIRE:
            return f"time is up ({C.TIMER_CODES[arg]})"
        return _SIMPLE_DESCRIPTION[typ]

    def _state_from_position(self, fields: Fields, shuffler: Shuffler) -> HoodPolitixState:
        """The ``"state"`` object of a position (``position.py``)."""
        from .position import read

        return read(self, fields, shuffler)

    def render_view(self, view: dict[str, Any]) -> str:
        from .render import render

        return render(view)

    def bots(self) -> dict[str, type]:
        from .bot import HeuristicBot

        return {"heuristic": HeuristicBot}

    def observer_class(self) -> type[Observer]:
        """Hood Politix's own RL observation (``observation.py``)."""
        from .observation import HoodPolitixObserver  # (it imports this module)

        return HoodPolitixObserver


def _kind(word: str) -> int:
    k = C.KIND_INDEX.get(word.upper())
    if k is None:
        raise IllegalAction(f"unknown card {word!r} (cards look like G7, Y10, GDU, O50, PIY, "
                            "YPS, GDL, OSN)")
    return k


_SNITCH_VERBS = {A_REVEAL: "reveal", A_TAKE: "take", A_GIVE: "give"}
_SNITCH_IDS = {"reveal": REVEAL_ID, "take": TAKE_ID, "give": GIVE_ID}
_SIMPLE_TEXT = {A_DRAW: "draw", A_ACCEPT: "accept", A_MIC: "mic check", A_POLITIX: "politix",
                A_END_POLITIX: "end politix", A_RELEASE: "release", A_PASS: "pass"}
_SIMPLE_DESCRIPTION = {A_DRAW: "draw a card", A_ACCEPT: "accept the penalty",
                       A_MIC: "announce Mic Check!", A_POLITIX: "call Politix (pause)",
                       A_END_POLITIX: "end the Politix pause", A_RELEASE: "release (Respekt)",
                       A_PASS: "let the Mic Drop pass"}
_SIMPLE_ACTIONS = {"draw": DRAW, "accept": ACCEPT, "mic check": MIC, "mic": MIC,
                   "miccheck": MIC, "politix": POLITIX, "end politix": END_POLITIX,
                   "release": RELEASE, "respekt": RELEASE, "pass": PASS}
_MIC_WORDS = ("mic", "miccheck", "micdrop", "check", "drop", "!")
_FAULT_WORDS = {"mic-check": F_MIC_CHECK, "miccheck": F_MIC_CHECK, "check": F_MIC_CHECK,
                "mic-drop": F_MIC_DROP, "micdrop": F_MIC_DROP, "drop": F_MIC_DROP,
                "timeout": F_TIMEOUT, "slow": F_TIMEOUT}


class HoodPolitixState(State):
    game: HoodPolitixGame

    def __init__(self, game: HoodPolitixGame, shuffler: Shuffler) -> None:
        n = game.num_players
        self.game = game
        self.n = n
        self.shuffler = shuffler
        self.move_number = 0
        self.scores = [0] * n
        self.round = 0
        self.dealer = 0
        self.hands = [0] * n
        self.status = [IN] * n
        # Seat sets as masks (bit s for seat s; ``out_of_turn`` reads them in every search
        # step): seats still in the round (IN or PENDING, not FINISHED), and seats with a
        # Politix call left. ``_set_status`` keeps the first in step with ``status``.
        self.in_round = (1 << n) - 1
        self.callers = 0
        self.direction = 1
        self.draw: list[int] = []  # top card last
        self.buried = 0            # bottom cards of the draw pile everyone saw (§2.4)
        # Top cards of the draw pile in no particular order: only a determinisation
        # leaves them so (see ``determinise``); each draw then takes a random one of them.
        self.unordered = 0
        self.discard: list[int] = []  # top card last
        self.top = 0               # top kind
        self.colour = 0            # active colour
        self.phase = TURN
        self.due = 0
        self.stack = 0             # pending draw amount (STACK)
        self.stack_iyf = False
        self.pending = -1          # seat whose last card was a Deuce/IYF (§4)
        self.by = -1               # slapper, Deal player or Snitch player
        self.target = -1           # Deal / Snitch target
        # The kind the Snitch player chose to take (``take``), until they ``give``; -1 none.
        # Private: only their view shows it (the pair is one move for everyone else).
        self.snitch_take = -1
        self.finish_order: list[int] = []
        self.pause = NO_PAUSE
        self.pause_seat = -1
        self.pause_since = 0
        self.timer_since = 0
        self.expired = False
        self.mic_duty = -1         # may still announce Mic Check (§5.4)
        self.mic_open = 0          # seats with an open MISSED_MIC_CHECK
        self.drop_seat = -1        # open MISSED_MIC_DROP
        self.penalised = 0         # (seat * 3 + fault) bits penalised since the last move
        self.saved = (TURN, 0)     # phase and due seat behind MICDROP_WAIT
        self.wait_seat = -1
        self.politix_left = [0] * n
        self.seen = [0] * n        # cards each seat knows in others' hands
        self.public = 0            # cards everyone knows in a hand (revealed)
        self.seen_any = 0
        self.counts = [0, 0, 0, 0, 0]  # faults, throw-ins, accusations, politix, respekt

    # -- setup (§2) -------------------------------------------------------------------
    @classmethod
    def deal_first(cls, game: HoodPolitixGame, shuffler: Shuffler) -> HoodPolitixState:
        s = cls(game, shuffler)
        dealer = shuffler.seat(game.first_dealer, game.num_players)
        opening: list[Event] = []
        s._start_round(dealer, opening)
        s.opening = opening
        return s

    def _start_round(self, dealer: int, events: list[Event]) -> None:
        """§2: H cards per set, sets chosen clockwise from the dealer's left; the start
        card is turned, action cards are buried (at the bottom of the draw pile)."""
        n = self.n
        h = self.game.hand_size
        self.round += 1
        self.dealer = dealer
        deck = self.shuffler.shuffled(range(NUM_CARDS))
        hands = [0] * n
        for i in range(n):
            seat = (dealer + 1 + i) % n
            m = 0
            for c in deck[i * h:(i + 1) * h]:
                m |= 1 << c
            hands[seat] = m
        rest = deck[n * h:]
        idx = 0
        while CARD_TYPE[rest[idx]] >= 0:
            idx += 1
        start = rest[idx]
        buried = rest[:idx]
        self.draw = buried[::-1] + rest[idx + 1:][::-1]
        self.buried = len(buried)
        self.unordered = 0
        self.discard = [start]
        self.top = KIND_OF_T[start]
        self.colour = KIND_COLOUR[self.top]
        self.hands = hands
        self.status = [IN] * n
        self.in_round = (1 << n) - 1
        self.direction = 1
        self.phase = TURN
        self.due = (dealer + 1) % n
        self.stack = 0
        self.stack_iyf = False
        self.pending = -1
        self.by = self.target = self.snitch_take = -1
        self.finish_order = []
        self.pause = NO_PAUSE
        self.pause_seat = -1
        self.mic_duty = -1
        self.mic_open = 0
        self.drop_seat = -1
        self.penalised = 0
        self.wait_seat = -1
        self.politix_left = [self.game.politix_calls] * n
        self.callers = (1 << n) - 1 if self.game.politix_calls else 0
        self.seen = [0] * n
        self.public = 0
        self.seen_any = 0
        self._restart_timer()
        events.append(Event("deal", None, {
            "round": self.round, "dealer": dealer, "start": KIND_CODES[self.top],
            "buried": codes(sum(1 << c for c in buried))},
            {s: {"hand": codes(hands[s])} for s in range(n)}))

    # -- helpers -------------------------------------------------------------------------
    def _next(self, p: int) -> int:
        """``next(p)``: the next seat in the direction that is IN or PENDING_FINISH."""
        n, d, st = self.n, self.direction, self.status
        s = (p + d) % n
        while st[s] == FINISHED and s != p:
            s = (s + d) % n
        return s

    def _restart_timer(self) -> None:
        self.timer_since = self.move_number
        self.expired = False

    def _begin_move(self) -> None:
        """A play, draw or throw-in begins: a Mic Check not yet announced becomes an open
        fault (§5.4), the Mic Drop window closes (§7.11). Penalised faults stay on record
        (§9.4): a seat's record of a fault ends only when it can commit that fault anew."""
        if self.mic_duty >= 0:
            self.mic_open |= 1 << self.mic_duty
            self.mic_duty = -1
        self.drop_seat = -1

    def _draw(self, seat: int, k: int, events: list[Event], reason: str) -> int:
        """Draw ``k`` cards; an empty pile is refilled from the discards (top card stays);
        draws beyond all cards lapse (§3)."""
        draw = self.draw
        got = 0
        mask = 0
        ids: list[int] = []  # for the event (cheaper than listing the mask's codes)
        unordered = self.unordered
        random = self.shuffler.rng.random
        while got < k:
            if not draw:
                if len(self.discard) <= 1:
                    break
                top = self.discard.pop()
                order = self.shuffler.shuffled(self.discard)
                self.discard = [top]
                draw = self.draw = order[::-1]
                self.buried = 0
                events.append(Event("reshuffle", None, {"cards": len(order)}))
            if unordered:
                # The top ``unordered`` cards were never shuffled: take a random one of
                # them, as the top of a shuffled pile would be (``random() * k`` is
                # uniform enough and cheaper than ``randrange``).
                j = len(draw) - 1 - int(random() * unordered)
                draw[j], draw[-1] = draw[-1], draw[j]
                unordered -= 1
            c = draw.pop()
            mask |= 1 << c
            ids.append(c)
            got += 1
        self.unordered = unordered
        if got:
            self.hands[seat] |= mask
            self.mic_open &= ~(1 << seat)
            if self.mic_duty == seat:
                self.mic_duty = -1
            if len(draw) < self.buried:
                self.buried = len(draw)
            if self.phase == SNITCH_R and seat == self.target:
                # The Snitch player is looking at this hand (§9.10): they see these too.
                self.seen[self.by] |= mask
                self.seen_any |= mask
        if self.record_events:
            if got > 1:
                ids.sort()  # lowest id first, as ``codes`` lists a hand
            events.append(Event("draw", seat, {"count": got, "reason": reason},
                                {seat: {"cards": [CARD_KIND_CODES[c] for c in ids]}}))
        return got

    def _take(self, seat: int, kind: int) -> int:
        """Remove one card of ``kind`` from the hand onto the discard pile."""
        m = self.hands[seat] & KIND_MASK[kind]
        b = m & -m
        self.hands[seat] ^= b
        c = b.bit_length() - 1
        self.discard.append(c)
        self.mic_open &= ~(1 << seat)
        if self.seen_any & b:
            keep = ~b
            self.seen = [x & keep for x in self.seen]
            self.public &= ~b
            self.seen_any &= ~b
        return c

    def _set_status(self, seat: int, status: int) -> None:
        self.status[seat] = status
        if status == FINISHED:
            self.in_round &= ~(1 << seat)
        else:
            self.in_round |= 1 << seat

    def _finish(self, seat: int, events: list[Event]) -> None:
        self._set_status(seat, FINISHED)
        self.finish_order.append(seat)
        if self.record_events:
            events.append(Event("finish", seat, {"place": len(self.finish_order)}))

    def _swap_hands(self, a: int, b: int, events: list[Event]) -> None:
        """Deal (§4): whole hands change places; each now knows the other's hand."""
        hands = self.hands
        if hands[a].bit_count() != hands[b].bit_count():
            self.mic_open &= ~((1 << a) | (1 << b))
            if self.mic_duty in (a, b):
                self.mic_duty = -1
        hands[a], hands[b] = hands[b], hands[a]
        self.seen[a] |= hands[b]
        self.seen[b] |= hands[a]
        self.seen_any |= hands[a] | hands[b]
        if self.record_events:
            events.append(Event("swap", a, {"with": b}, {a: {"hand": codes(hands[a])},
                                                         b: {"hand": codes(hands[b])}}))

    def _after_move(self, events: list[Event]) -> None:
        """Round end (§6), or the One-on-One Mic Drop window first (§9.7)."""
        if self.in_round.bit_count() > 1:
            return
        if self.drop_seat >= 0 and self.status[self.drop_seat] == FINISHED:
            self.saved = (self.phase, self.due)
            self.phase = MICDROP_WAIT
            self.wait_seat = next(s for s in range(self.n) if self.status[s] != FINISHED)
            self.due = self.wait_seat
            return
        self._end_round(events)

    def _end_round(self, events: list[Event]) -> None:
        """Places as points; the loser deals next; ≥ min_rounds and a unique lowest total
        ends the game (§6)."""
        loser = next(s for s in range(self.n) if self.status[s] != FINISHED)
        order = self.finish_order + [loser]
        points = [0] * self.n
        for place, s in enumerate(order):
            points[s] = place + 1
            self.scores[s] += place + 1
        events.append(Event("round_end", None, {"round": self.round, "order": order,
                                                "points": points,
                                                "scores": list(self.scores)}))
        self.finish_order = order
        low = min(self.scores)
        if self.round >= self.game.min_rounds and self.scores.count(low) == 1:
            self.phase = OVER
            self.pause = NO_PAUSE
            events.append(Event("game_end", None, self.result().to_json()))
            return
        self._start_round(loser, events)

    # -- who acts -----------------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        if self.phase == OVER:
            return ()
        if self.pause:
            return (self.pause_seat,)
        return (self.due,)

    def out_of_turn(self) -> tuple[int, ...]:
        """Seats with an optional action now: throw-in, Mic Check, Politix (seats still in
        the round), accusation (any seat, also a finished one: §5.2)."""
        phase = self.phase
        if phase == OVER:
            return ()
        if self.pause:  # only accusations, by anyone but the seat the pause waits for
            return SEATS_OF[self._accusers(timeout=False) & ~(1 << self.pause_seat)]
        if phase == MICDROP_WAIT:  # the seat left is due; finished seats may accuse
            return SEATS_OF[self._accusers(timeout=False) & ~(1 << self.due)]
        may = self.callers
        if self.mic_duty >= 0:
            may |= 1 << self.mic_duty
        top = self.top
        if phase == TURN and top < NUMBER_KINDS:  # who could throw in
            throw = KIND_MASK[top]
            for s, hand in enumerate(self.hands):
                if hand & throw:
                    may |= 1 << s
        may &= self.in_round
        if self.mic_open or self.drop_seat >= 0 or self.expired:
            may |= self._accusers(timeout=self.expired)
        return SEATS_OF[may & ~(1 << self.due)]

    def _accusers(self, timeout: bool) -> int:
        """The seats that have someone to accuse (§5.2), as a mask: anyone but the offender
        of an open missed Mic Check or Mic Drop, and with ``timeout`` (an expired move
        timer, no pause) anyone but the slow due seat. ``_accusations`` lists the actions."""
        everyone = (1 << self.n) - 1
        m = 0
        mic = self.mic_open
        if mic:  # nobody accuses themself: one offender is left out, two or more are not
            m = everyone if mic & (mic - 1) else everyone & ~mic
        if self.drop_seat >= 0:
            m |= everyone & ~(1 << self.drop_seat)
        if timeout:
            m |= everyone & ~(1 << self.due)
        return m

    def _accusations(self, seat: int, out: list[int]) -> None:
        m = self.mic_open & ~(1 << seat)
        while m:
            low = m & -m
            out.append(ACCUSE_ID[low.bit_length() - 1][F_MIC_CHECK])
            m ^= low
        d = self.drop_seat
        if d >= 0 and d != seat:
            out.append(ACCUSE_ID[d][F_MIC_DROP])
        if self.expired and self.due != seat and not self.pause and self.phase != MICDROP_WAIT:
            out.append(ACCUSE_ID[self.due][F_TIMEOUT])

    def _legal_actions(self, seat: int) -> list[int]:
        phase = self.phase
        if phase == OVER:
            return []
        out: list[int] = []
        if self.status[seat] == FINISHED:
            if phase == SNITCH_R and seat == self.due and not self.pause:
                # A Snitch played as the last card is still resolved (§4: reveal only).
                out = [REVEAL_ID[k] for k in kinds_of(self.hands[self.target])]
            if self.mic_open or self.drop_seat >= 0 or self.expired:
                self._accusations(seat, out)  # a finished player may accuse (§5.2)
            return out
        if self.pause:
            if seat == self.pause_seat:
                out.append(END_POLITIX if self.pause == P_POLITIX else RELEASE)
            self._accusations(seat, out)
            return out
        if phase == MICDROP_WAIT:
            if seat == self.wait_seat:
                out.append(PASS)
                self._accusations(seat, out)
            return out
        hand = self.hands[seat]
        small = hand.bit_count() <= 2
        if seat == self.due:
            if phase == TURN:
                playable = hand & MATCH[self.top * 4 + self.colour]
                if playable:
                    self._plays(seat, playable, small, out)
                if not out:
                    out.append(DRAW)
            elif phase == STACK:
                m = IYF_MASK | FIVEO_MASK | (PAYBACK_MASK & MATCH[self.top * 4 + self.colour])
                if not self.stack_iyf:
                    m |= DEUCE_MASK
                self._plays(seat, hand & m, small, out)
                out.append(ACCEPT)
            elif phase == SLAP_R:
                self._plays(seat, hand & (FIVEO_MASK | (
                    PAYBACK_MASK & MATCH[self.top * 4 + self.colour])), small, out)
                out.append(ACCEPT)
            elif phase == DEAL_R:
                self._plays(seat, hand & FIVEO_MASK, small, out)
                out.append(ACCEPT)
            elif self.snitch_take >= 0:  # SNITCH_R, exchange half done: give a card
                for m in kinds_of(hand):
                    out.append(GIVE_ID[m])
            else:  # SNITCH_R: reveal one of theirs, or take one (to give one of yours)
                theirs = kinds_of(self.hands[self.target])
                for k in theirs:
                    out.append(REVEAL_ID[k])
                if hand:
                    for k in theirs:
                        out.append(TAKE_ID[k])
        top = self.top
        if phase == TURN and top < NUMBER_KINDS and hand & KIND_MASK[top]:
            out.append(THROW_ID[top][0])
            if small:
                out.append(THROW_ID[top][1])
        if self.mic_duty == seat:
            out.append(MIC)
        if self.politix_left[seat]:
            out.append(POLITIX)
        if self.mic_open or self.drop_seat >= 0 or self.expired:
            self._accusations(seat, out)
        return out

    def _plays(self, seat: int, playable: int, flag: bool, out: list[int]) -> None:
        """The play actions of the cards in ``playable`` (one per kind; Deal and Snitch
        once per target still IN; the Mic flag only with the last two cards)."""
        m = ((playable | (playable >> 1)) & PAIR_FIRST) | (playable & SINGLES)
        targeted = m & TARGETED
        if targeted:
            m ^= targeted
            st = self.status
            while targeted:
                low = targeted & -targeted
                targeted ^= low
                ids = PLAY_ID[KIND_OF_T[low.bit_length() - 1]]
                for t in range(self.n):
                    if t != seat and st[t] == IN:
                        out.append(ids[t + 1][0])
                        if flag:
                            out.append(ids[t + 1][1])
        table = PLAYS_BY_CARD[flag]
        while m:
            low = m & -m
            m ^= low
            out += table[low.bit_length() - 1]

    # -- judging attempts (§3 invalid attempts, §5.2 accusations, §9.4, §9.5) ---------
    def check(self, seat: int, action: int) -> Check:
        if not (0 <= seat < self.n) or not (0 <= action < NUM_ACTIONS):
            return Check(Verdict.ILLEGAL, "no such seat or action")
        if action in self.legal_actions(seat):
            return LEGAL
        return self._judge(seat, action)

    def _judge(self, seat: int, action: int) -> Check:
        def illegal(reason: str) -> Check:
            return Check(Verdict.ILLEGAL, reason)

        def faulty(reason: str) -> Check:
            return Check(Verdict.FAULTY, reason)

        if self.phase == OVER:
            return illegal("the game is over")
        typ, kind, arg, flag = ATYPE_T[action], AKIND_T[action], AARG_T[action], \
            AFLAG_T[action]
        if typ == A_EXPIRE:
            return illegal("only the clock lets time run out")
        if typ == A_ACCUSE:  # by anyone, also a finished player (§5.2)
            if arg >= self.n:
                return illegal(f"there is no seat {arg}")
            if arg == seat:
                return illegal("you cannot accuse yourself")
            if self.penalised >> (arg * 3 + kind) & 1:
                return illegal("that fault has already been penalised (ignored)")
            if kind == F_TIMEOUT and self.pause:
                return illegal("the game is paused: no move timer runs (§9.5)")
            return faulty(f"Judas! seat {arg} has no open fault '{C.FAULT_NAMES[kind]}'")
        if self.status[seat] == FINISHED and not (self.phase == SNITCH_R and seat == self.due):
            return illegal("you have finished this round; wait for the next one")
        if self.pause:
            who = self.pause_seat
            if typ == A_END_POLITIX and self.pause == P_POLITIX:
                return illegal(f"only seat {who}, who called Politix, may end the pause")
            if typ == A_RELEASE and self.pause == P_RESPEKT:
                return illegal(f"only seat {who} may release the Respekt pause")
            return illegal(f"the game is paused ({PAUSE_NAMES[self.pause]}): only "
                           "accusations until it ends")
        if typ == A_END_POLITIX:
            return illegal("there is no Politix pause")
        if typ == A_RELEASE:
            return illegal("there is no Respekt pause")
        if typ == A_POLITIX:
            if self.phase == MICDROP_WAIT:
                return illegal("the round is ending")
            return illegal("you have no Politix call left this round")
        if self.phase == MICDROP_WAIT:
            if typ == A_PASS:
                return illegal(f"only seat {self.wait_seat} lets the Mic Drop pass")
            return illegal("the round is ending: accuse the missed Mic Drop or pass")
        if typ == A_PASS:
            return illegal("there is no Mic Drop window to let pass")
        if typ == A_MIC:
            return _BLUFF  # nothing to announce: a permitted bluff (§5.4)
        if typ == A_REVEAL or typ == A_TAKE or typ == A_GIVE:
            if self.phase != SNITCH_R or seat != self.due:
                return illegal("there is no Snitch of yours to resolve")
            taken = self.snitch_take
            if taken >= 0:
                if typ != A_GIVE:
                    return illegal(f"you are taking their {KIND_CODES[taken]}: give one "
                                   "of your cards for it ('give G1')")
                return illegal(f"you hold no {KIND_CODES[kind]}")
            if typ == A_GIVE:
                return illegal("take one of their cards first ('take G1'), then give "
                               "one of yours")
            if not self.hands[self.target] & KIND_MASK[kind]:
                return illegal(f"seat {self.target} holds no {KIND_CODES[kind]}")
            if typ == A_TAKE:
                return illegal("you have no card to give in exchange: reveal one of theirs")
            return illegal("not possible")
        hand = self.hands[seat]
        due = self.due
        if typ == A_PLAY or typ == A_THROW:
            if not hand & KIND_MASK[kind]:
                return illegal(f"you do not hold {KIND_CODES[kind]}")
            if flag and hand.bit_count() > 2 and action - 1 in self.legal_actions(seat):
                return _BLUFF  # the card without the flag is legal: the flag is a bluff
            if typ == A_THROW:
                if kind >= NUMBER_KINDS:
                    return faulty("only number cards can be thrown in")
                return faulty(f"too late or not identical: the top card is "
                              f"{KIND_CODES[self.top]}")
            if arg >= 0 and (arg >= self.n or arg == seat or self.status[arg] != IN):
                return illegal(f"seat {arg} cannot be targeted (another player still in)")
            if seat != due:
                return faulty(f"out of turn: seat {due} is to act")
            return faulty(self._why_wrong(kind))
        if typ == A_DRAW:
            if seat != due:
                return faulty(f"out of turn: seat {due} is to act")
            if self.phase == TURN:
                return faulty("you hold a playable card")
            return faulty("wrong response: " + self._response_hint())
        if typ == A_ACCEPT:
            if seat != due:
                return faulty(f"out of turn: seat {due} is to act")
            return faulty("nothing to accept")
        return illegal("not possible now")

    def _why_wrong(self, kind: int) -> str:
        phase = self.phase
        if phase == TURN:
            return (f"{KIND_CODES[kind]} does not match {KIND_CODES[self.top]} "
                    f"(colour {C.COLOURS[self.colour]})")
        if phase == SNITCH_R:
            return "resolve your Snitch first (" + self._snitch_hint() + ")"
        if phase == STACK and KIND_TYPE[kind] == DEUCE and self.stack_iyf:
            return "a Deuce cannot go on a stack with In Yo Face"
        return "wrong response: " + self._response_hint()

    def _response_hint(self) -> str:
        phase = self.phase
        if phase == STACK:
            return ("answer the stack with " + ("" if self.stack_iyf else "Deuce, ")
                    + "In Yo Face, 5-0, a matching Payback, or accept")
        if phase == SLAP_R:
            return "answer the Pimp Slap with a matching Payback, 5-0, or accept"
        if phase == DEAL_R:
            return "block the Deal with 5-0, or accept"
        return "resolve your Snitch (" + self._snitch_hint() + ")"

    def _snitch_hint(self) -> str:
        if self.snitch_take >= 0:
            return f"give one of your cards for their {KIND_CODES[self.snitch_take]}"
        return "reveal one of their cards, or take one and give one of yours"

    def why_illegal(self, seat: int, action: int) -> str:
        return self.check(seat, action).reason or "legal"

    def _apply_fault(self, seat: int, action: int, reason: str) -> list[Event]:
        """§3: the card goes back and the offender draws 2; §5.2: a false accuser too. A
        finished Judas holds cards again, so it is back in the round (as after §5.4)."""
        events = [Event("fault", seat, {"action": self.game.action_to_json(action),
                                        "reason": reason})]
        self.counts[0] += 1
        got = self._draw(seat, PENALTY, events, "fault")
        if got and self.status[seat] == FINISHED:
            self._unfinish(seat, events)
        return events

    def _unfinish(self, seat: int, events: list[Event]) -> None:
        """A finished seat holds cards again: IN, its place given up; a One-on-One Mic Drop
        window that was waiting to end the round gives way to the game going on."""
        self.finish_order.remove(seat)
        self._set_status(seat, IN)
        events.append(Event("rejoin", seat))
        if self.phase == MICDROP_WAIT:
            self.phase, self.due = self.saved
            self.wait_seat = -1
            self._restart_timer()

    # -- applying -----------------------------------------------------------------------
    def _apply(self, seat: int, action: int) -> list[Event]:
        typ = ATYPE_T[action]
        events: list[Event] = []
        if typ == A_PLAY:
            self._play(seat, AKIND_T[action], AARG_T[action], AFLAG_T[action], events)
        elif typ == A_ACCEPT:
            self._accept(seat, events)
        elif typ == A_DRAW:
            self._begin_move()
            self._draw(seat, 1, events, "turn")
            self.due = self._next(seat)
            self._restart_timer()
        elif typ == A_THROW:
            self._throw(seat, AKIND_T[action], AFLAG_T[action], events)
        elif typ == A_ACCUSE:
            self._accuse(seat, AARG_T[action], AKIND_T[action], events)
        elif typ == A_MIC:
            if self.mic_duty == seat:
                self.mic_duty = -1
                if self.record_events:
                    events.append(Event("mic_check", seat))
            else:  # a bluff (§5.4): permitted, and it changes nothing
                events.append(Event("mic_check", seat, {"bluff": True}))
        elif typ == A_POLITIX:
            self.politix_left[seat] -= 1
            if not self.politix_left[seat]:
                self.callers &= ~(1 << seat)
            self.pause = P_POLITIX
            self.pause_seat = seat
            self.pause_since = self.move_number
            self.counts[3] += 1
            if self.record_events:
                events.append(Event("politix", seat))
        elif typ == A_END_POLITIX or typ == A_RELEASE:
            self.pause = NO_PAUSE  # the frozen move timer resumes (§5.3)
            if self.record_events:
                events.append(Event("pause_end", seat))
        elif typ == A_TAKE:
            # Half an exchange: no move yet (no event, timer running, phase unchanged).
            self.snitch_take = AKIND_T[action]
        elif typ == A_REVEAL:
            self._resolve_snitch(seat, AKIND_T[action], -1, events)
        elif typ == A_GIVE:
            self._resolve_snitch(seat, self.snitch_take, AKIND_T[action], events)
        elif typ == A_PASS:
            events.append(Event("mic_drop_passed", seat))
            self._end_round(events)
        else:  # A_EXPIRE
            self._expire(AARG_T[action], events)
        return events

    def _play(self, seat: int, kind: int, target: int, flag: int, events: list[Event]) -> None:
        """§4 card effects; ``seat`` is due, the play is legal in the current phase."""
        self._begin_move()
        phase = self.phase
        before = self.hands[seat].bit_count()
        self._take(seat, kind)
        self.top = kind
        self.colour = KIND_COLOUR[kind]
        typ = KIND_TYPE[kind]
        if self.record_events:
            ev: dict[str, Any] = {"card": KIND_CODES[kind]}
            if target >= 0:
                ev["target"] = target
            if flag:
                ev["mic"] = _MIC_SAID[min(before, 3)]
            events.append(Event("play", seat, ev))
        nxt = self._next
        # A pending finish is settled by the first answer to the stack (§4 last card).
        if phase == STACK and self.pending >= 0:
            p = self.pending
            self.pending = -1
            if typ == PAYBACK:
                self._set_status(p, IN)
                events.append(Event("rejoin", p))
            else:
                self._finish(p, events)
                if self.in_round.bit_count() <= 1:  # the One-on-One is decided by this answer
                    self._end_round(events)
                    return
        if before == 2:
            self.penalised &= ~(1 << (seat * 3 + F_MIC_CHECK))  # a new Mic Check moment
            if not flag:
                self.mic_duty = seat
        elif before == 1:
            self.penalised &= ~(1 << (seat * 3 + F_MIC_DROP))  # a new last card
            if not flag:
                self.drop_seat = seat
            if typ == DEUCE or typ == IYF:
                self._set_status(seat, PENDING)
                self.pending = seat
                events.append(Event("pending_finish", seat))
            else:
                self._finish(seat, events)
        if typ < 0:  # a number card
            self.phase = TURN
            self.due = nxt(seat)
        elif typ == DEUCE or typ == IYF:
            if phase != STACK:
                self.stack = 0
                self.stack_iyf = False
            self.stack += 2 if typ == DEUCE else 5
            self.stack_iyf = self.stack_iyf or typ == IYF
            self.phase = STACK
            self.due = nxt(seat)
        elif typ == PAYBACK:
            self.direction = -self.direction
            if phase == SLAP_R:
                self._slap_draws((self.by, seat), events, slapper_too=True)
                slapper = self.by
                self.phase = TURN
                self.due = slapper if self.status[slapper] == IN else nxt(slapper)
            else:  # a plain reversal, or the stack goes on in the new direction
                self.due = nxt(seat)
        elif typ == FIVEO:
            if phase == SLAP_R:
                self._slap_draws((self.by, seat), events, slapper_too=False)
            elif phase == STACK:
                self.stack = 0
                self.stack_iyf = False
            elif phase == DEAL_R:
                events.append(Event("deal_blocked", seat, {"by": self.by}))
            self.phase = TURN
            self.due = nxt(seat)
        elif typ == BUSTED:
            skipped = nxt(seat)
            if self.record_events:
                events.append(Event("skipped", skipped))
            self.phase = TURN
            self.due = nxt(skipped)
        elif typ == SLAP:
            self.phase = SLAP_R
            self.by = seat
            self.due = nxt(seat)
        elif typ == DEAL:
            self.phase = TURN
            if before == 1:
                self.due = nxt(seat)
            elif target == nxt(seat):
                self.phase = DEAL_R
                self.by = seat
                self.due = target
            else:
                self._swap_hands(seat, target, events)
                self.due = nxt(seat)
        else:  # SNITCH
            self.phase = TURN
            if self.hands[target]:
                self.phase = SNITCH_R
                self.by = seat
                self.target = target
                self.due = seat
                look = self.hands[target]
                self.seen[seat] |= look
                self.seen_any |= look
                if self.record_events:
                    events.append(Event("snitch_look", seat, {"target": target},
                                        {seat: {"hand": codes(look)}}))
            else:
                self.due = nxt(seat)
        self._restart_timer()
        self._after_move(events)

    def _slap_draws(self, spared: tuple[int, int], events: list[Event],
                    slapper_too: bool) -> None:
        """§4 Pimp Slap: who draws 3; finished and pending players never draw (§9.8)."""
        slapper, answerer = spared
        n, st = self.n, self.status
        for i in range(1, n + 1):
            s = (slapper + i * self.direction) % n
            if st[s] != IN or s == answerer or (s == slapper and not slapper_too):
                continue
            self._draw(s, SLAP_DRAW, events, "pimp slap")

    def _accept(self, seat: int, events: list[Event]) -> None:
        self._begin_move()
        phase = self.phase
        if self.record_events:
            events.append(Event("accept", seat, {"phase": PHASE_NAMES[phase]}))
        self.phase = TURN
        if phase == STACK:
            if self.pending >= 0:
                p = self.pending
                self.pending = -1
                self._finish(p, events)
                if self.in_round.bit_count() <= 1:
                    self._end_round(events)
                    return
            amount = self.stack
            self.stack = 0
            self.stack_iyf = False
            got = self._draw(seat, amount, events, "stack")
            self.due = self._next(seat)
            if got >= RESPEKT_AT and self.in_round.bit_count() > 1:
                self.pause = P_RESPEKT
                self.pause_seat = seat
                self.pause_since = self.move_number
                self.counts[4] += 1
                events.append(Event("respekt", seat))
        elif phase == SLAP_R:
            self._slap_draws((self.by, -1), events, slapper_too=False)
            self.due = seat
        else:  # DEAL_R: the hands change places, then the target takes a turn (§9.2)
            self._swap_hands(self.by, seat, events)
            self.due = seat
        self._restart_timer()
        self._after_move(events)

    def _throw(self, seat: int, kind: int, flag: int, events: list[Event]) -> None:
        """§5.1: an identical number card out of turn; the turn order stays."""
        self._begin_move()
        before = self.hands[seat].bit_count()
        self._take(seat, kind)
        self.counts[1] += 1
        if self.record_events:
            ev: dict[str, Any] = {"card": KIND_CODES[kind]}
            if flag:
                ev["mic"] = _MIC_SAID[min(before, 3)]
            events.append(Event("throw_in", seat, ev))
        if before == 2:
            self.penalised &= ~(1 << (seat * 3 + F_MIC_CHECK))
            if not flag:
                self.mic_duty = seat
        elif before == 1:
            self.penalised &= ~(1 << (seat * 3 + F_MIC_DROP))
            if not flag:
                self.drop_seat = seat
            self._finish(seat, events)
            if self.due == seat:
                self.due = self._next(seat)
        self._restart_timer()
        self._after_move(events)

    def _resolve_snitch(self, seat: int, kind: int, mine: int, events: list[Event]) -> None:
        """§4 Snitch: reveal the target's ``kind`` to all (``mine`` -1), or swap it for
        the Snitch player's ``mine`` (the ``give`` after a ``take``)."""
        self._begin_move()
        self.snitch_take = -1
        t = self.target
        x = first_of_kind(self.hands[t], kind)
        bx = 1 << x
        if mine < 0:
            self.public |= bx
            self.seen_any |= bx
            events.append(Event("reveal", seat, {"target": t, "card": KIND_CODES[kind]}))
        else:
            y = first_of_kind(self.hands[seat], mine)
            by = 1 << y
            hands = self.hands
            hands[t] = hands[t] ^ bx | by
            hands[seat] = hands[seat] ^ by | bx
            both = hands[t] | hands[seat]
            # Third parties no longer know where the cards of these two hands are.
            self.seen[t] |= self.public & hands[seat] | bx
            self.seen[seat] |= hands[t] | self.public & hands[seat]
            for s in range(self.n):
                if s != t and s != seat:
                    self.seen[s] &= ~both
            self.public &= ~both
            self.seen_any |= hands[t] | bx
            seen = {"took": KIND_CODES[kind], "gave": KIND_CODES[mine]}
            events.append(Event("exchange", seat, {"target": t}, {seat: seen, t: seen}))
        self.phase = TURN
        self.due = self._next(seat)
        self._restart_timer()
        self._after_move(events)

    def _accuse(self, seat: int, accused: int, fault: int, events: list[Event]) -> None:
        """§5.2: a valid accusation (only those are legal) costs the accused 2 cards."""
        self.counts[2] += 1
        self.penalised |= 1 << (accused * 3 + fault)
        events.append(Event("accuse", seat, {"accused": accused,
                                             "fault": C.FAULT_CODES[fault], "valid": True}))
        if fault == F_MIC_DROP:
            # Back in the round with 2 cards, no place given (§5.4).
            self.drop_seat = -1
            if self.status[accused] == FINISHED:
                self._unfinish(accused, events)
            elif self.status[accused] == PENDING:  # a last Deuce or In Yo Face
                self.pending = -1
                self._set_status(accused, IN)
                events.append(Event("rejoin", accused))
        self._draw(accused, PENALTY, events, C.FAULT_CODES[fault])
        if fault == F_TIMEOUT:
            self._restart_timer()

    def _expire(self, timer: int, events: list[Event]) -> None:
        events.append(Event("expire", CLOCK, {"timer": C.TIMER_CODES[timer]}))
        if timer == T_MOVE:
            if self.phase == MICDROP_WAIT:
                self._end_round(events)
            else:
                self.expired = True
                # A new timeout: an earlier penalised one of this seat is off the record.
                self.penalised &= ~(1 << (self.due * 3 + F_TIMEOUT))
        elif timer == T_RESPEKT:
            # §5.6: 2 more cards, no new Respekt; play resumes (the move timer too, §5.3).
            seat = self.pause_seat
            self.pause = NO_PAUSE
            self._draw(seat, PENALTY, events, "respekt")
        else:  # T_POLITIX: the frozen move timer resumes (§5.3)
            self.pause = NO_PAUSE

    def deadlines(self) -> tuple[Deadline, ...]:
        """The pause's timer during a pause, else the move timer unless it expired."""
        if self.phase == OVER:
            return ()
        g = self.game
        if self.pause == P_POLITIX:
            return (Deadline(CLOCK, EXPIRE_ID[T_POLITIX], g.politix_seconds, self.pause_since,
                             "the Politix pause ends"),)
        if self.pause == P_RESPEKT:
            return (Deadline(CLOCK, EXPIRE_ID[T_RESPEKT], g.respekt_seconds, self.pause_since,
                             f"seat {self.pause_seat} draws 2 more unless released"),)
        return self._move_timer()

    def frozen_timers(self) -> tuple[Deadline, ...]:
        """§5.3: the move timer is frozen during a pause; it comes back in ``deadlines``
        with the same ``since`` when the pause ends, and runs on from where it stopped."""
        if not self.pause or self.phase == OVER:
            return ()
        return self._move_timer()

    def _move_timer(self) -> tuple[Deadline, ...]:
        g = self.game
        if self.expired or g.move_seconds <= 0:
            return ()
        reason = ("the Mic Drop window closes" if self.phase == MICDROP_WAIT
                  else f"seat {self.due} is too slow")
        return (Deadline(CLOCK, EXPIRE_ID[T_MOVE], g.move_seconds, self.timer_since, reason),)

    # -- end --------------------------------------------------------------------------
    def is_over(self) -> bool:
        return self.phase == OVER

    def result(self) -> Result:
        """Lowest total wins (§6); equal totals share a rank."""
        sc = self.scores
        ranks = tuple(1 + sum(1 for o in sc if o < s) for s in sc)
        low = min(sc)
        winner = sc.index(low) if sc.count(low) == 1 else None
        return Result(tuple(float(x) for x in sc), ranks, winner)

    def round_number(self) -> int:
        return self.round

    def standing(self) -> list[float]:
        """Fewer points are better (places are points)."""
        return [-float(x) for x in self.scores]

    def estimate(self) -> list[float]:
        """``standing`` minus each seat's expected place this round (§6: points = place),
        centred on the mean place (a shift common to all seats changes no decision).

        Finished seats keep their place; the others are expected to finish in the order
        of the cards they hold, fewest first (every card must go, one per move, and
        penalties only add cards). Equal hand sizes share the places they span, so at
        the start of a round (equal hands) the estimate is the standing.
        """
        n = self.n
        out = [-float(x) for x in self.scores]
        if self.phase == OVER:
            return out
        mean = (n + 1) / 2
        done = self.finish_order
        for place, s in enumerate(done, 1):
            out[s] -= place - mean
        sizes = sorted((self.hands[s].bit_count(), s) for s in range(n)
                       if self.status[s] != FINISHED)
        place = len(done) + 1
        i = 0
        while i < len(sizes):  # a run of equal sizes shares its places
            j = i
            while j < len(sizes) and sizes[j][0] == sizes[i][0]:
                j += 1
            share = place + (i + j - 1) / 2 - mean  # mean of places place+i .. place+j-1
            for _, s in sizes[i:j]:
                out[s] -= share
            i = j
        return out

    def stats(self) -> dict[str, Any]:
        c = self.counts
        return {"rounds": self.round, "faults": c[0], "throw_ins": c[1], "accusations": c[2],
                "politix": c[3], "respekt": c[4]}

    def components(self) -> dict[str, int]:
        held = 0
        total = len(self.draw) + len(self.discard)
        for h in self.hands:
            held |= h
            total += h.bit_count()
        for c in self.draw:
            held |= 1 << c
        for c in self.discard:
            held |= 1 << c
        return {"cards": total, "distinct": held.bit_count()}

    # -- information ------------------------------------------------------------------
    def _public_view(self) -> dict[str, Any]:
        n = self.n
        phase = self.phase
        v: dict[str, Any] = {
            "game": "hood_politix",
            "round": self.round,
            "min_rounds": self.game.min_rounds,
            "dealer": self.dealer,
            "phase": PHASE_NAMES[phase],
            "pause": None if not self.pause else {"kind": PAUSE_NAMES[self.pause],
                                                   "seat": self.pause_seat},
            "to_act": list(self.to_act()),
            "due": self.due if phase != OVER else None,
            "scores": list(self.scores),
            "hand_sizes": [h.bit_count() for h in self.hands],
            "status": [STATUS_NAMES[s] for s in self.status],
            "finish_order": list(self.finish_order),
            "direction": "clockwise" if self.direction == 1 else "counter-clockwise",
            "top": KIND_CODES[self.top],
            "colour": C.COLOURS[self.colour],
            "draw_pile": len(self.draw),
            "discard_pile": len(self.discard),
            "buried": codes(sum(1 << c for c in self.draw[:self.buried])),
            "stack": ({"amount": self.stack, "in_yo_face": self.stack_iyf, "target": self.due}
                      if phase == STACK else None),
            "pending_finish": self.pending if self.pending >= 0 else None,
            "slap_by": self.by if phase == SLAP_R else None,
            "deal": {"by": self.by, "target": self.due} if phase == DEAL_R else None,
            "snitch": {"by": self.by, "target": self.target} if phase == SNITCH_R else None,
            "mic_check_due": self.mic_duty if self.mic_duty >= 0 else None,
            "open_faults": self._open_faults(),
            "timer_expired": self.expired,
            "politix_left": list(self.politix_left),
            "revealed": {str(s): codes(self.hands[s] & self.public) for s in range(n)
                         if self.hands[s] & self.public},
        }
        if phase == MICDROP_WAIT:
            v["mic_drop_window"] = {"finisher": self.drop_seat, "remaining": self.wait_seat}
        return v

    def _open_faults(self) -> list[dict[str, Any]]:
        out = [{"seat": s, "fault": "mic-check"} for s in range(self.n)
               if self.mic_open >> s & 1]
        if self.drop_seat >= 0:
            out.append({"seat": self.drop_seat, "fault": "mic-drop"})
        if self.expired and not self.pause and self.phase not in (MICDROP_WAIT, OVER):
            out.append({"seat": self.due, "fault": "timeout"})
        return out

    def view(self, seat: int | None) -> dict[str, Any]:
        v = self._public_view()
        if seat is not None:
            v["seat"] = seat
            v["hand"] = codes(self.hands[seat])
            known = self.seen[seat]
            v["known"] = {str(s): codes(self.hands[s] & known) for s in range(self.n)
                          if s != seat and self.hands[s] & known}
            if self.phase == SNITCH_R and seat == self.by:
                v["snitch_look"] = codes(self.hands[self.target])
                take = self.snitch_take
                v["snitch_take"] = KIND_CODES[take] if take >= 0 else None
        return v

    def full_view(self) -> dict[str, Any]:
        v = self._public_view()
        v["hands"] = [codes(h) for h in self.hands]
        v["draw_order"] = [C.CARD_CODES[c] for c in reversed(self.draw)]
        v["discard"] = [C.CARD_CODES[c] for c in self.discard]
        v["seen"] = [C.CARD_CODES[c] for m in self.seen for c in cards_of(m)]
        v["move_number"] = self.move_number
        v["timer_since"] = self.timer_since
        v["pause_since"] = self.pause_since
        v["counts"] = list(self.counts)
        return v

    def determinise(self, seat: int, rng: random.Random) -> HoodPolitixState:
        """Redeal what ``seat`` cannot see: other hands (keeping sizes and the cards it
        knows there — revealed, seen by Snitch or Deal) and the draw pile's order
        (keeping the buried bottom cards).

        Only the redealt hand cards are drawn here (a partial Fisher-Yates shuffle of
        the unseen cards); the rest of the draw pile stays *unordered* and each draw
        takes a random one of its cards (``_draw``). Both are uniform, like a full
        shuffle, but a short search rollout draws a few cards, not ~100.
        """
        s = self._copy(self.shuffler.reseeded(rng))
        n = self.n
        if seat != self.by:
            # Only the Snitch player knows of a pending take (their view alone shows it);
            # anyone else sees a Snitch not yet resolved, and a redealt target may not
            # even hold that kind. The Snitch player knows the target's whole hand, so
            # their own samples keep it, and the take with it.
            s.snitch_take = -1
        know = self.seen[seat] | self.public
        hands = [0] * n
        pool = 0
        need = [0] * n
        for p in range(n):
            h = self.hands[p]
            if p == seat:
                hands[p] = h
                continue
            hands[p] = h & know
            pool |= h & ~know
            need[p] = (h & ~know).bit_count()
        buried = self.buried
        cards = cards_of(pool) + self.draw[buried:]
        dealt = deal_masks(cards, need, rng)
        s.hands = [h | d for h, d in zip(hands, dealt, strict=True)]
        k = sum(need)
        s.draw = self.draw[:buried] + cards[k:]
        s.unordered = len(cards) - k
        return s

    def clone(self) -> HoodPolitixState:
        return self._copy(self.shuffler.copy())

    def _position(self) -> dict[str, Any]:
        """This state's ``"state"`` object of a position (``position.py``)."""
        from .position import write

        return write(self)

    def _copy(self, shuffler: Shuffler) -> HoodPolitixState:
        """A copy with ``shuffler`` (a determinisation replaces the generator, so
        copying it first would be wasted: that copy is most of a clone's cost)."""
        s = HoodPolitixState.__new__(HoodPolitixState)
        d = self.__dict__.copy()
        d.pop("_legal_cache", None)
        s.__dict__ = d
        s.shuffler = shuffler
        s.scores = self.scores[:]
        s.hands = self.hands[:]
        s.status = self.status[:]
        s.draw = self.draw[:]
        s.discard = self.discard[:]
        s.finish_order = self.finish_order[:]
        s.politix_left = self.politix_left[:]
        s.seen = self.seen[:]
        s.counts = self.counts[:]
        return s


__all__ = ["HoodPolitixGame", "HoodPolitixState", "IN", "FINISHED", "PENDING"]
