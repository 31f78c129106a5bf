"""President: the rules (spec: ``rules.md`` beside this file, sections quoted as §).

A *round* is one deal, played until one player still holds cards. A *pile* is one
trick. Plays are sets of one rank (1–4 cards); two Jokers are a pair; Jokers are
never wild; a pass is permanent for the pile; four of a kind toggles the revolution.
"""

from __future__ import annotations

import random
from enum import Enum, IntEnum
from operator import getitem
from typing import TYPE_CHECKING, Any, Final

from ...core.cards import Shuffler, cards_of, lowest
from ...core.fields import Copy, StateFields
from ...core.game import (
    Check,
    Event,
    Result,
    State,
    Told,
    illegal,
    ranks_from_scores,
    seat_arg,
)
from ...core.phases import PhaseTable, Rule, Who
from ...i18n import N_
from . import cards as C
from .cards import (
    BEATING,
    FIRST_GIVE,
    JK1,
    JOKER_RANK,
    JOKER_SETS,
    NUM_CARDS,
    PASS,
    PLAY_JK1,
    PLAY_JK2,
    PLAY_MASK,
    PLAY_RANK,
    PLAY_SIZE,
    SETS,
    best_rank,
    codes,
)
from .sampling import determinise

if TYPE_CHECKING:
    from .game import PresidentGame

START_POINTS: Final = 50
#: The kinds of field (``PresidentState.FIELDS``), short.
V: Final = Copy.VALUE
L: Final = Copy.LIST
N: Final = Copy.NESTED


def _cards_arg(text: str) -> Told:
    """Cards in a reason: their codes to the engine, ``10♥, 10♠`` to the reader."""
    def render(_ctx: object) -> str:
        from .narration import card_list  # narration imports this module

        return card_list(text.split())
    return Told(text, render)


class Phase(IntEnum):
    """Where a game stands: the exchange before play (§2.4), play (§3), the end (§5)."""

    PLAY = 0      # the seat to move leads, follows or passes (§3)
    EXCHANGE = 1  # the President and the Prime Minister choose cards to give (§2.4)
    OVER = 2      # a seat has 0 points or fewer after a round (§5)

    @property
    def label(self) -> str:
        """The phase's name in views and positions (``"exchange"``)."""
        return self.name.lower()


#: Aliases for the hot paths (a global is read faster than an Enum attribute).
PLAY: Final = Phase.PLAY
EXCHANGE: Final = Phase.EXCHANGE
OVER: Final = Phase.OVER


class Move(Enum):
    """The kinds of action (``cards.py`` numbers them)."""

    PLAY_SET = "play"  # a set of one rank, or one or two Jokers (§3)
    PASS = "pass"      # when following (§3)
    GIVE = "give"      # one card of the exchange (§2.4)


#: Codes of each play action's cards (event text without a per-play lookup; hot in search).
_PLAY_CODES: Final = [tuple(codes(m)) for m in PLAY_MASK]
#: ``estimate``: a set's weight in the plays a hand still needs, by rank and revolution:
#: 1 for a middle rank, 2.5 for the weakest, −0.5 for the strongest (and the Jokers).
_LOAD_WEIGHT: Final = [[2.5 - C.strength(r, rev) / 4 for r in range(13)] for rev in (False, True)]
_JOKER_LOAD: Final = -0.5
#: The same summed over the ranks present in each byte of a hand (two ranks a byte).
_LOAD_BY_BYTE: Final = [
    [[sum(w[r] for r in (2 * k, 2 * k + 1) if r < 13 and b >> (4 * (r - 2 * k)) & 15)
      for b in range(256)] for k in range(7)] for w in _LOAD_WEIGHT]
ROLE_NAMES: Final = {"president": "Präsident", "prime_minister": "Premierminister",
                     "citizen": "Bürger", "peasant": "Bauer", "beggar": "Bettler"}


def role_points(num_players: int) -> list[int]:
    """Points by finishing position (§4): +5, 0, −5 per Citizen, −10, −15."""
    return [5, 0] + [-5] * (num_players - 4) + [-10, -15]


def role_names(num_players: int) -> list[str]:
    """Roles by finishing position (§4): President, Prime Minister, Citizens, Peasant,
    Beggar."""
    return ["president", "prime_minister"] + ["citizen"] * (num_players - 4) + [
        "peasant", "beggar"]


def exchange_steps(order: list[int]) -> list[list[int]]:
    """The exchange the previous round's finishing ``order`` gives (§2.4), as steps
    [giver, receiver, count, automatic]: Beggar → President 2 (automatic), President →
    Beggar 2, Peasant → Prime Minister 1 (automatic), Prime Minister → Peasant 1."""
    president, pm, peasant, beggar = order[0], order[1], order[-2], order[-1]
    return [[beggar, president, 2, 1], [president, beggar, 2, 0],
            [peasant, pm, 1, 1], [pm, peasant, 1, 0]]


class PresidentState(State["PresidentGame"]):
    """One position of a President game: hands and scores, the pile, the exchange."""

    #: Every field: how a copy treats it (``clone``, ``determinise``), its type where the
    #: value does not say it, and its value before the deal (``empty``).
    FIELDS = StateFields(
        hands=(L, "", "[0] * n"), scores=(L, "", "[START_POINTS] * n"), round=(V, "", "0"),
        phase=(V, "", "PLAY"),
        rev=(V, "", "False"),  # the revolution: rank order reversed (§3)
        # the pile (§3): size n (0 = empty, the leader leads), top rank and cards, owner,
        # passes (a bitmask of seats)
        pile_size=(V, "", "0"), top_rank=(V, "", "-1"), top_cards=(V, "", "0"),
        owner=(V, "", "-1"), passed=(V, "", "0"), to_move=(V, "", "0"),
        finished=(L, "list[int]", "[]"),
        # roles and the exchange (§2.4, §4)
        last_order=(L, "list[int]", "[]"),  # previous round's finishing order (roles)
        # Exchange: pending (giver, receiver, count) steps; `gave[s][r]` cards s gave r
        # (or saw taken from them) this round, for that seat's view and determinisation.
        exchange=(N, "list[list[int]]", "[]"),
        gave=(N, "list[dict[int, int]]", "[{} for _ in range(n)]"),
        received=(L, "", "[0] * n"),
        # Seat -> (auto-giver, weakest rank given): the giver holds no higher card then.
        ceiling=(L, "list[tuple[int, int] | None]", "[None] * n"),
        played=(V, "", "0"),  # cards played this round (public)
    )

    # -- generated from FIELDS (python -m spieltisch.core.generated --write): do not edit --
    def _copy(self, shuffler: Shuffler) -> PresidentState:
        """A copy with ``shuffler`` as its chance (``FIELDS.copy_source``)."""
        s = PresidentState(self.game, shuffler)
        s.move_number = self.move_number
        s.opening = self.opening
        s.record_events = self.record_events
        s.hands = self.hands[:]
        s.scores = self.scores[:]
        s.round = self.round
        s.phase = self.phase
        s.rev = self.rev
        s.pile_size = self.pile_size
        s.top_rank = self.top_rank
        s.top_cards = self.top_cards
        s.owner = self.owner
        s.passed = self.passed
        s.to_move = self.to_move
        s.finished = self.finished[:]
        s.last_order = self.last_order[:]
        s.exchange = [y.copy() for y in self.exchange]
        s.gave = [y.copy() for y in self.gave]
        s.received = self.received[:]
        s.ceiling = self.ceiling[:]
        s.played = self.played
        return s

    def _empty_fields(self) -> None:
        """Every field at its value before the deal (``FIELDS.empty_source``)."""
        n = self.game.num_players
        self.hands = [0] * n
        self.scores = [START_POINTS] * n
        self.round = 0
        self.phase = PLAY
        self.rev = False
        self.pile_size = 0
        self.top_rank = -1
        self.top_cards = 0
        self.owner = -1
        self.passed = 0
        self.to_move = 0
        self.finished: list[int] = []
        self.last_order: list[int] = []
        self.exchange: list[list[int]] = []
        self.gave: list[dict[int, int]] = [{} for _ in range(n)]
        self.received = [0] * n
        self.ceiling: list[tuple[int, int] | None] = [None] * n
        self.played = 0
    # -- end generated --

    # -- setup (§2) -----------------------------------------------------------------
    @classmethod
    def deal_first(cls, game: PresidentGame, shuffler: Shuffler) -> PresidentState:
        """§2.1: round 1's leader is random (or the option's); then round 1 is dealt."""
        s = cls.empty(game, shuffler)
        leader = shuffler.seat(game.first_leader, game.num_players)
        opening: list[Event] = []
        s._start_round(leader, opening)
        s.opening = opening
        return s

    def _start_round(self, leader: int, events: list[Event]) -> None:
        """§2: deal one at a time clockwise from the leader; then exchange (round 2 on)."""
        n = self.num_players
        self.round += 1
        self.rev = False
        self.finished = []
        self.played = 0
        self.gave = [{} for _ in range(n)]
        self.received = [0] * n
        self.ceiling = [None] * n
        order = self.shuffler.shuffled(range(NUM_CARDS))
        hands = [0] * n
        for k, card in enumerate(order):
            hands[(leader + k) % n] |= 1 << card
        self.hands = hands
        self._new_pile(leader)
        events.append(Event("deal", None, {"round": self.round, "leader": leader,
                                           "hand_sizes": [h.bit_count() for h in hands]},
                            {s: {"hand": codes(hands[s])} for s in range(n)}))
        if self.last_order:
            self.phase = EXCHANGE
            self.exchange = exchange_steps(self.last_order)
            self._run_automatic_gives(events)
        else:
            self.phase = PLAY

    def _run_automatic_gives(self, events: list[Event]) -> None:
        """The Beggar and the Peasant hand over their highest cards: no decision (§2.4)."""
        while self.exchange and self.exchange[0][3]:
            giver, receiver, count, _ = self.exchange.pop(0)
            cards = C.highest_cards(self.hands[giver], count)
            weakest = min(C.rank_of(c) for c in cards_of(cards))
            self.ceiling[receiver] = (giver, weakest)
            self._move_cards(giver, receiver, cards, events)
        if not self.exchange:
            self.phase = PLAY

    def _move_cards(self, giver: int, receiver: int, cards: int, events: list[Event]) -> None:
        """§2.4: ``giver`` hands ``cards`` to ``receiver``; both see them."""
        self.hands[giver] &= ~cards
        self.hands[receiver] |= cards
        self.gave[giver][receiver] = self.gave[giver].get(receiver, 0) | cards
        self.received[receiver] |= cards
        seen = {"cards": codes(cards)}
        events.append(Event("exchange", giver, {"to": receiver, "count": cards.bit_count()},
                            {giver: seen, receiver: seen}))

    def _new_pile(self, leader: int) -> None:
        """§3: an empty pile that ``leader`` leads."""
        self.pile_size = 0
        self.top_rank = -1
        self.top_cards = 0
        self.owner = -1
        self.passed = 0
        self.to_move = leader

    # -- who acts: the phase table (``PHASES``) ------------------------------------------
    def _not_your_turn(self, seat: int) -> Check | None:
        """One seat acts at a time (§2.4, §3): the reason when it is not ``seat``."""
        turn = self.to_act()[0]
        if seat != turn:
            return illegal(N_("it is {turn}'s turn, not {seat}'s"),
                           turn=seat_arg(turn), seat=seat_arg(seat))
        return None

    # -- phase EXCHANGE (§2.4) -------------------------------------------------------------
    def _giver(self) -> tuple[int, ...]:
        """§2.4: the President, then the Prime Minister (the automatic gives run at once)."""
        return (self.exchange[0][0],)

    def _gives_of(self, seat: int) -> list[int]:
        """§2.4: the giver gives "any" card of its hand, one action per card."""
        if seat != self.exchange[0][0]:
            return []
        return [FIRST_GIVE + c for c in cards_of(self.hands[seat])]

    def _give(self, seat: int, action: int) -> list[Event]:
        """§2.4: one card to the receiver; the last of the step runs the next automatic
        give, and the last give of the exchange starts play."""
        events: list[Event] = []
        giver, receiver, count, _ = self.exchange[0]
        self._move_cards(giver, receiver, 1 << (action - FIRST_GIVE), events)
        if count == 1:
            self.exchange.pop(0)
            self._run_automatic_gives(events)
        else:
            self.exchange[0][2] = count - 1
        return events

    def _why_not_give(self, seat: int, action: int) -> Check:
        """§2.4: the giver gives a card of its own hand; nobody plays yet."""
        wrong = self._not_your_turn(seat)
        if wrong is not None:
            return wrong
        if action < FIRST_GIVE:
            hand = self.hands[seat]  # the example is a card of one's own: none hidden
            return illegal(N_("during the exchange you give a card ('give {card}')"),
                           card=C.CARD_CODES[lowest(hand)] if hand else "QS")
        return illegal(N_("you do not hold {cards}"),
                       cards=_cards_arg(C.CARD_CODES[action - FIRST_GIVE]))

    # -- phase PLAY (§3) ------------------------------------------------------------------
    def _mover(self) -> tuple[int, ...]:
        """§3: ``toMove``."""
        return (self.to_move,)

    def _plays_of(self, seat: int) -> list[int]:
        """§3: the plays of the seat to move (``_plays``)."""
        if seat != self.to_move:
            return []
        return self._plays(self.hands[seat])

    def _plays(self, hand: int) -> list[int]:
        """§3: any set when leading; trump, beat or match when following."""
        jokers = (hand >> JK1) & 3
        size = self.pile_size
        if size == 0:  # LEAD: passing is not allowed
            out: list[int] = []
            for r in range(13):
                nibble = (hand >> (r << 2)) & 15
                if nibble:
                    out += SETS[r][nibble][0]
            return out + JOKER_SETS[jokers][0]
        out = [PASS]
        top = self.top_rank
        if top == JOKER_RANK:  # a Joker on top can never be beaten
            return out
        for r in BEATING[self.rev][top]:
            nibble = (hand >> (r << 2)) & 15
            if nibble:
                out += SETS[r][nibble][size]
        if self.game.skip_rule and top != best_rank(self.rev):
            nibble = (hand >> (top << 2)) & 15
            if nibble:
                out += SETS[top][nibble][size]
        if jokers:
            out += JOKER_SETS[jokers][1]  # trump: a single Joker beats any set
            if size == 2 and jokers == 3:
                out += JOKER_SETS[3][2]
        return out

    def _play(self, seat: int, action: int) -> list[Event]:
        """§3 "After a play by X" and "After a pass by X", then who moves next."""
        events: list[Event] = []
        if action == PASS:
            self.passed |= 1 << seat
            if self.record_events:
                events.append(Event("pass", seat))
            self._next(seat, matched=False, events=events)
            return events
        mask = PLAY_MASK[action]
        rank = PLAY_RANK[action]
        matched = self.pile_size != 0 and rank == self.top_rank
        self.hands[seat] ^= mask
        self.played |= mask
        if self.pile_size == 0:
            self.pile_size = PLAY_SIZE[action]
        self.top_rank = rank
        self.top_cards = mask
        self.owner = seat
        if self.record_events:
            events.append(Event("play", seat, {"cards": list(_PLAY_CODES[action]),
                                               "matched": matched}))
        if PLAY_SIZE[action] == 4:
            self.rev = not self.rev
            events.append(Event("revolution", seat, {"rev": self.rev}))
        if not self.hands[seat]:
            self.finished.append(seat)
            events.append(Event("out", seat, {"place": len(self.finished)}))
            if len(self.finished) == self.game.num_players - 1:
                self._end_round(events)
                return events
        self._next(seat, matched, events)
        return events

    def _why_not_play(self, seat: int, action: int) -> Check:
        """§3: why a play or pass of the seat to move is not legal (LEAD, FOLLOW)."""
        wrong = self._not_your_turn(seat)
        if wrong is not None:
            return wrong
        if action >= FIRST_GIVE:
            return illegal(N_("there is no exchange now"))
        if action == PASS:
            return illegal(N_("the leader must play; passing is not allowed when leading"))
        mask = PLAY_MASK[action]
        missing = mask & ~self.hands[seat]
        if missing:
            return illegal(N_("you do not hold {cards}"),
                           cards=_cards_arg(" ".join(codes(missing))))
        if self.pile_size == 0:
            return illegal(N_("not a legal lead"))
        if self.top_rank == JOKER_RANK:
            return illegal(N_("a Joker on top can never be beaten"))
        size, rank = PLAY_SIZE[action], PLAY_RANK[action]
        if (rank != JOKER_RANK and size != self.pile_size) or \
                (rank == JOKER_RANK and size == 2 and self.pile_size != 2):
            return illegal(N_("the pile is played in sets of {size}, not {played}"),
                           size=self.pile_size, played=size)
        if rank == self.top_rank:
            if not self.game.skip_rule:
                return illegal(N_("a play must be strictly higher (the same rank needs the "
                                  "skip rule)"))
            return illegal(N_("the best rank cannot be matched"))
        if self.rev:
            return illegal(N_("not higher than the top of the pile (revolution)"))
        return illegal(N_("not higher than the top of the pile"))

    def _next(self, actor: int, matched: bool, events: list[Event]) -> None:
        """Who moves next: the first eligible seat clockwise; a Match skips one (§3)."""
        n = self.game.num_players
        hands, passed, owner = self.hands, self.passed, self.owner
        skip = matched
        seat = actor
        for _ in range(n - 1):
            seat = seat + 1 if seat + 1 < n else 0
            if seat == owner or not hands[seat] or passed >> seat & 1:
                continue
            if skip:
                skip = False
                if self.record_events:
                    events.append(Event("skipped", seat))
                continue
            self.to_move = seat
            return
        # Nobody left to answer: the pile ends; its owner (or the next seat with cards) leads.
        leader = owner
        while not hands[leader]:
            leader = (leader + 1) % n
        if self.record_events:
            events.append(Event("pile_end", None, {"leader": leader}))
        self._new_pile(leader)

    def _end_round(self, events: list[Event]) -> None:
        """Roles and points by finishing position; the game ends at ≤ 0 points (§4, §5)."""
        n = self.num_players
        beggar = next(s for s in range(n) if self.hands[s])
        order = self.finished + [beggar]
        deltas = [0] * n
        for place, s in enumerate(order):
            deltas[s] = role_points(n)[place]
            self.scores[s] += deltas[s]
        self.last_order = order
        events.append(Event("round_end", None, {
            "round": self.round, "order": order, "deltas": deltas, "scores": list(self.scores),
            "beggar_cards": codes(self.hands[beggar])}))
        if min(self.scores) <= 0:
            self.phase = OVER
            events.append(Event("game_end", None, self.result().to_json()))
            return
        self._start_round(beggar, events)

    # -- end --------------------------------------------------------------------------
    def is_over(self) -> bool:
        """§5: a seat has 0 points or fewer after a round."""
        return self.phase is OVER

    def result(self) -> Result:
        """Most points wins; ties go to the better place in the final round (§5)."""
        place = {s: i for i, s in enumerate(self.last_order)}
        # points first, then the earlier place (no two seats share one)
        ranks = ranks_from_scores([(points, -place[s]) for s, points in enumerate(self.scores)])
        return Result(tuple(float(x) for x in self.scores), ranks, ranks.index(1))

    def stats(self) -> dict[str, Any]:
        """Rounds played."""
        return {"rounds": self.round}

    def round_number(self) -> int:
        """The round (§2: one deal)."""
        return self.round

    def standing(self) -> list[float]:
        """Points so far (§4)."""
        return [float(x) for x in self.scores]

    def estimate(self) -> list[float]:
        """Scores plus the points of each seat's expected place this round (§4), centred
        on the mean points of a round (a shift common to all seats changes no decision).

        Seats already out keep their place. The others are expected to finish in the
        order of their *load*: one play per rank held (a set goes out in one play, the
        Jokers count as one set), weighted by strength (§3; ``strength``, so a
        revolution turns the weights round): a weak set is hard to get rid of (2.5),
        the strongest ones win piles and give their owner the lead, an asset (−0.5).
        These weights ordered seats by their round's points best (75% of pairs, against
        70% for 1.5..0.5 and 61% for cards held) in heuristic-bot games. Equal loads
        share the points of the places they span.
        """
        n = self.num_players
        points = role_points(n)
        mean = sum(points) / n
        out = [float(x) for x in self.scores]
        if self.phase is OVER:
            return out
        for place, s in enumerate(self.finished):
            out[s] += points[place] - mean
        table = _LOAD_BY_BYTE[self.rev]
        loads = []
        for s in range(n):
            hand = self.hands[s]
            if hand and s not in self.finished:
                # ranks 2k and 2k+1 are the hand's k-th byte (the weights are quarters:
                # sums are exact in any order)
                load = sum(map(getitem, table, hand.to_bytes(7, "little")),
                           _JOKER_LOAD if hand >> JK1 else 0.0)
                loads.append((load, s))
        loads.sort()
        place = len(self.finished)
        i = 0
        while i < len(loads):  # a run of equal loads shares its places' points
            j = i
            while j < len(loads) and loads[j][0] == loads[i][0]:
                j += 1
            share = sum(points[place + i:place + j]) / (j - i) - mean
            for _, s in loads[i:j]:
                out[s] += share
            i = j
        return out

    def components(self) -> dict[str, int]:
        """The 54 cards, each once: in a hand or played this round (§1)."""
        held = 0
        total = 0
        for h in self.hands:
            held |= h
            total += h.bit_count()
        out = held | self.played
        return {"cards": total + self.played.bit_count(), "distinct": out.bit_count()}

    def _position(self) -> dict[str, Any]:
        """The ``"state"`` object of this state's position (``position.py``)."""
        from .position import write  # (it imports this module)

        return write(self)

    # -- information --------------------------------------------------------------------
    def _public(self) -> dict[str, Any]:
        """What every seat sees: scores, hand sizes, the pile, roles, the exchange's steps."""
        n = self.num_players
        roles = role_names(n)
        return {
            "game": "president",
            "round": self.round,
            "scores": list(self.scores),
            "hand_sizes": [h.bit_count() for h in self.hands],
            "revolution": self.rev,
            "pile": {"size": self.pile_size, "top": codes(self.top_cards), "owner": self.owner,
                     "passed": [s for s in range(n) if self.passed >> s & 1]},
            "finished": list(self.finished),
            "roles": {str(s): roles[i] for i, s in enumerate(self.last_order)},
            "exchange": [{"from": giver, "to": receiver, "count": count}
                         for giver, receiver, count, _ in self.exchange],
            "played": codes(self.played),
        }

    def _view(self, seat: int | None) -> dict[str, Any]:
        """Also the seat's hand and what it gave and received in the exchange."""
        v = self._public()
        if seat is not None:
            v["hand"] = codes(self.hands[seat])
            v["received"] = codes(self.received[seat])
            v["gave"] = {str(r): codes(m) for r, m in self.gave[seat].items()}
        return v

    def _full_view(self) -> dict[str, Any]:
        """Also every hand and every give."""
        v = self._public()
        v["hands"] = [codes(h) for h in self.hands]
        v["gave"] = [{str(r): codes(m) for r, m in g.items()} for g in self.gave]
        return v

    def determinise(self, seat: int, rng: random.Random) -> PresidentState:
        """The cards ``seat`` cannot see, dealt anew (``sampling.py``)."""
        return determinise(self, seat, rng)


# The phase table, set on the class once it exists (a compiled class's body cannot name
# its own methods).
PresidentState.PHASES = PhaseTable(Phase, {
    Phase.EXCHANGE: Rule(
        Who.TURN, actions=(Move.GIVE,), seats=PresidentState._giver,
        legal=PresidentState._gives_of, apply=PresidentState._give,
        why=PresidentState._why_not_give, opens="§2.4: a round from round 2 on is dealt",
        closes="the Prime Minister's give → play, the Beggar leads"),
    Phase.PLAY: Rule(
        Who.TURN, actions=(Move.PLAY_SET, Move.PASS), seats=PresidentState._mover,
        legal=PresidentState._plays_of,
        apply=PresidentState._play, why=PresidentState._why_not_play,
        opens="§2.5: round 1 is dealt, or the exchange is done",
        closes="§5: one seat still holds cards → the next round's exchange, or over"),
    Phase.OVER: Rule(Who.NOBODY, opens="§5: a seat has 0 points or fewer",
                     closes="never"),
})
# Re-exported for tests and bots.
__all__ = ["EXCHANGE", "OVER", "PLAY", "PLAY_JK1", "PLAY_JK2", "Move", "Phase", "PresidentState",
           "role_points"]
