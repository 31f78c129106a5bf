"""President: the rules (spec: ``rules.md`` beside this file, sections quoted as §).

A *round* is one deal, played until one player still holds cards. A *pile* is one
trick. Plays are sets of one rank (1–4 cards); two Jokers are a pair; Jokers are
never wild; a pass is permanent for the pile; four of a kind toggles the revolution.
"""

from __future__ import annotations

import random
from operator import getitem
from typing import TYPE_CHECKING, Any

from ...core.cards import Shuffler, cards_of, deal_masks
from ...core.game import Event, Game, IllegalAction, Result, State
from ...core.observation import Observer
from . import cards as C
from .cards import (
    BEATING,
    FIRST_GIVE,
    JK1,
    JOKER_RANK,
    JOKER_SETS,
    NUM_ACTIONS,
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

if TYPE_CHECKING:
    from ...core.position import Fields

START_POINTS = 50
PLAY, EXCHANGE, OVER = "play", "exchange", "over"
#: Codes of each play action's cards (event text without a per-play lookup; hot in search).
_PLAY_CODES = [tuple(codes(m)) for m in PLAY_MASK]
#: ``estimate``: a set's weight in the plays a hand still needs, by rank and revolution:
#: 1 for a middle rank, 2.5 for the weakest, −0.5 for the strongest (and the Jokers).
_LOAD_WEIGHT = [[2.5 - C.strength(r, rev) / 4 for r in range(13)] for rev in (False, True)]
_JOKER_LOAD = -0.5
#: The same summed over the ranks present in each byte of a hand (two ranks a byte).
_LOAD_BY_BYTE = [[[sum(w[r] for r in (2 * k, 2 * k + 1) if r < 13 and b >> (4 * (r - 2 * k)) & 15)
                   for b in range(256)] for k in range(7)] for w in _LOAD_WEIGHT]
ROLE_NAMES = {"president": "Präsident", "prime_minister": "Premierminister",
              "citizen": "Bürger", "peasant": "Bauer", "beggar": "Bettler"}


def role_points(num_players: int) -> list[int]:
    """Points by finishing position (§4): +5, 0, −5 per Citizen, −10, −15."""
    return [5, 0] + [-5] * (num_players - 4) + [-10, -15]


def role_names(num_players: int) -> list[str]:
    return ["president", "prime_minister"] + ["citizen"] * (num_players - 4) + [
        "peasant", "beggar"]


def exchange_steps(order: list[int]) -> list[list[int]]:
    """The exchange the previous round's finishing ``order`` gives (§2.4), as steps
    [giver, receiver, count, automatic]: Beggar → President 2 (automatic), President →
    Beggar 2, Peasant → Prime Minister 1 (automatic), Prime Minister → Peasant 1."""
    president, pm, peasant, beggar = order[0], order[1], order[-2], order[-1]
    return [[beggar, president, 2, 1], [president, beggar, 2, 0],
            [peasant, pm, 1, 1], [pm, peasant, 1, 0]]


class PresidentGame(Game):
    card_codes = C.CARD_CODES

    def __init__(self, num_players: int, options: dict[str, Any]) -> None:
        super().__init__(num_players, options)
        self.skip_rule: bool = options["skip_rule"]
        self.first_leader: int = options["first_leader"]
        if self.first_leader >= num_players:
            from ...core.game import ConfigError

            raise ConfigError(f"option 'first_leader' of president must be below the player "
                              f"count {num_players}, not {self.first_leader}")

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    def _new_state(self, rng: random.Random, stacked: list[list[int]]) -> PresidentState:
        return PresidentState.deal_first(self, Shuffler(rng, stacked))

    # -- action forms: "pass", "play 10H 10S", "play JK1", "give QS" ------------
    def action_to_json(self, action: int) -> str:
        if action == PASS:
            return "pass"
        if action >= FIRST_GIVE:
            return "give " + C.CARD_CODES[action - FIRST_GIVE]
        return "play " + " ".join(codes(PLAY_MASK[action]))

    def action_from_json(self, obj: Any) -> int:
        if not isinstance(obj, str):
            raise IllegalAction(f"an action is a string such as 'play 10H 10S', not {obj!r}")
        words = obj.strip().split()
        if not words:
            raise IllegalAction("empty action")
        verb, args = words[0].lower(), [w.upper() for w in words[1:]]
        if verb == "pass" and not args:
            return PASS
        for a in args:
            if a not in self._card_index():
                raise IllegalAction(f"unknown card {a!r} (cards look like 10H, QS, JK1)")
        ids = [self._card_index()[a] for a in args]
        if verb == "give" and len(ids) == 1:
            return FIRST_GIVE + ids[0]
        if verb == "play" and ids:
            if len(set(ids)) != len(ids):
                raise IllegalAction("a card is named twice")
            action = C.play_action(sum(1 << c for c in ids))
            if action is None:
                raise IllegalAction(
                    "a play is 1–4 cards of one rank (Jokers only with Jokers): "
                    + " ".join(args))
            return action
        raise IllegalAction(f"not an action: {obj!r} (try 'play 7H 7S', 'pass', 'give QS')")

    def _state_from_position(self, fields: Fields, shuffler: Shuffler) -> PresidentState:
        """A state from a position's ``"state"`` object (``position.py``)."""
        from .position import read  # (it imports this module)

        return read(self, fields, shuffler)

    def render_view(self, view: dict[str, Any]) -> str:
        from .render import render

        return render(view)

    def bots(self) -> dict[str, type]:
        from .bot import HeuristicBot

        return {"heuristic": HeuristicBot}

    def observer_class(self) -> type[Observer]:
        """President's own RL observation (``observation.py``)."""
        from .observation import PresidentObserver  # (it imports this module)

        return PresidentObserver


class PresidentState(State):
    game: PresidentGame

    def __init__(self, game: PresidentGame, shuffler: Shuffler) -> None:
        n = game.num_players
        self.game = game
        self.shuffler = shuffler
        self.move_number = 0
        self.hands = [0] * n
        self.scores = [START_POINTS] * n
        self.round = 0
        self.phase = PLAY
        self.rev = False
        # The pile: size n (0 = empty, the leader leads), top rank and cards, owner, passes.
        self.pile_size = 0
        self.top_rank = -1
        self.top_cards = 0
        self.owner = -1
        self.passed = 0  # bitmask of seats
        self.to_move = 0
        self.finished: list[int] = []
        self.last_order: list[int] = []  # previous round's finishing order (roles)
        # Exchange: pending (giver, receiver, count) steps; `gave[s][r]` cards s gave r
        # (or saw taken from them) this round, for that seat's view and determinisation.
        self.exchange: list[list[int]] = []
        self.gave: list[dict[int, int]] = [{} for _ in range(n)]
        self.received = [0] * n
        # Seat -> (auto-giver, weakest rank given): the giver holds no higher card then.
        self.ceiling: list[tuple[int, int] | None] = [None] * n
        self.played = 0  # cards played this round (public)

    # -- setup (§2) -----------------------------------------------------------------
    @classmethod
    def deal_first(cls, game: PresidentGame, shuffler: Shuffler) -> PresidentState:
        s = cls(game, shuffler)
        leader = shuffler.seat(game.first_leader, game.num_players)
        opening: list[Event] = []
        s._start_round(leader, opening)
        s.opening = opening
        return s

    def _start_round(self, leader: int, events: list[Event]) -> None:
        """Deal one at a time clockwise from the leader; then exchange (round 2 on)."""
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
        self.hands[giver] &= ~cards
        self.hands[receiver] |= cards
        self.gave[giver][receiver] = self.gave[giver].get(receiver, 0) | cards
        self.received[receiver] |= cards
        seen = {"cards": codes(cards)}
        events.append(Event("exchange", giver, {"to": receiver, "count": cards.bit_count()},
                            {giver: seen, receiver: seen}))

    def _new_pile(self, leader: int) -> None:
        self.pile_size = 0
        self.top_rank = -1
        self.top_cards = 0
        self.owner = -1
        self.passed = 0
        self.to_move = leader

    # -- who acts ----------------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        if self.phase == PLAY:
            return (self.to_move,)
        if self.phase == EXCHANGE:
            return (self.exchange[0][0],)
        return ()

    def _legal_actions(self, seat: int) -> list[int]:
        if self.phase == PLAY:
            if seat != self.to_move:
                return []
            return self._plays(self.hands[seat])
        if self.phase == EXCHANGE and seat == self.exchange[0][0]:
            return [FIRST_GIVE + c for c in cards_of(self.hands[seat])]
        return []

    def _plays(self, hand: int) -> list[int]:
        """§3: any set when leading; trump, beat or match when following."""
        jokers = (hand >> JK1) & 3
        n = self.pile_size
        if n == 0:  # LEAD: passing is not allowed
            out: list[int] = []
            for r in range(13):
                nib = (hand >> (r << 2)) & 15
                if nib:
                    out += SETS[r][nib][0]
            return out + JOKER_SETS[jokers][0]
        out = [PASS]
        top = self.top_rank
        if top == JOKER_RANK:  # a Joker on top can never be beaten
            return out
        for r in BEATING[self.rev][top]:
            nib = (hand >> (r << 2)) & 15
            if nib:
                out += SETS[r][nib][n]
        if self.game.skip_rule and top != best_rank(self.rev):
            nib = (hand >> (top << 2)) & 15
            if nib:
                out += SETS[top][nib][n]
        if jokers:
            out += JOKER_SETS[jokers][1]  # trump: a single Joker beats any set
            if n == 2 and jokers == 3:
                out += JOKER_SETS[3][2]
        return out

    def why_illegal(self, seat: int, action: int) -> str:
        if self.phase == OVER:
            return "the game is over"
        if seat not in self.to_act():
            return f"it is seat {self.to_act()[0]}'s turn, not seat {seat}'s"
        if self.phase == EXCHANGE:
            if action < FIRST_GIVE:
                return "during the exchange you give a card ('give QS')"
            return f"you do not hold {C.CARD_CODES[action - FIRST_GIVE]}"
        if action >= FIRST_GIVE:
            return "there is no exchange now"
        if action == PASS:
            return "the leader must play; passing is not allowed when leading"
        mask = PLAY_MASK[action]
        if mask & ~self.hands[seat]:
            return f"you do not hold {' '.join(codes(mask & ~self.hands[seat]))}"
        if self.pile_size == 0:
            return "not a legal lead"
        if self.top_rank == JOKER_RANK:
            return "a Joker on top can never be beaten"
        size, rank = PLAY_SIZE[action], PLAY_RANK[action]
        if rank != JOKER_RANK and size != self.pile_size:
            return f"the pile is played in sets of {self.pile_size}, not {size}"
        if rank == JOKER_RANK and size == 2 and self.pile_size != 2:
            return f"the pile is played in sets of {self.pile_size}, not 2"
        if rank == self.top_rank:
            if not self.game.skip_rule:
                return "a play must be strictly higher (the same rank needs the skip rule)"
            return "the best rank cannot be matched"
        return "not higher than the top of the pile" + (" (revolution)" if self.rev else "")

    # -- applying (§3, §4, §5) -------------------------------------------------------
    def _apply(self, seat: int, action: int) -> list[Event]:
        events: list[Event] = []
        if self.phase == EXCHANGE:
            giver, receiver, count, _ = self.exchange[0]
            self._move_cards(giver, receiver, 1 << (action - FIRST_GIVE), events)
            if count == 1:
                self.exchange.pop(0)
                self._run_automatic_gives(events)
            else:
                self.exchange[0][2] = count - 1
            return events
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
        return self.phase == OVER

    def result(self) -> Result:
        """Most points wins; ties go to the better place in the final round (§5)."""
        place = {s: i for i, s in enumerate(self.last_order)}
        order = sorted(range(self.num_players), key=lambda s: (-self.scores[s], place[s]))
        ranks = [0] * self.num_players
        for i, s in enumerate(order):
            ranks[s] = i + 1
        return Result(tuple(float(x) for x in self.scores), tuple(ranks), order[0])

    def stats(self) -> dict[str, Any]:
        return {"rounds": self.round}

    def round_number(self) -> int:
        return self.round

    def standing(self) -> list[float]:
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
        if self.phase == OVER:
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
        held = 0
        total = 0
        for h in self.hands:
            held |= h
            total += h.bit_count()
        out = held | self.played
        return {"cards": total + self.played.bit_count(), "distinct": out.bit_count()}

    def _position(self) -> dict[str, Any]:
        from .position import write  # (it imports this module)

        return write(self)

    # -- information --------------------------------------------------------------------
    def _public(self) -> dict[str, Any]:
        n = self.num_players
        roles = role_names(n)
        return {
            "game": "president",
            "round": self.round,
            "phase": self.phase,
            "scores": list(self.scores),
            "hand_sizes": [h.bit_count() for h in self.hands],
            "to_act": list(self.to_act()),
            "revolution": self.rev,
            "pile": {"size": self.pile_size, "top": codes(self.top_cards), "owner": self.owner,
                     "passed": [s for s in range(n) if self.passed >> s & 1]},
            "finished": list(self.finished),
            "roles": {str(s): roles[i] for i, s in enumerate(self.last_order)},
            "exchange": [{"from": g, "to": r, "count": k} for g, r, k, _ in self.exchange],
            "played": codes(self.played),
        }

    def view(self, seat: int | None) -> dict[str, Any]:
        v = self._public()
        if seat is not None:
            v["seat"] = seat
            v["hand"] = codes(self.hands[seat])
            v["received"] = codes(self.received[seat])
            v["gave"] = {str(r): codes(m) for r, m in self.gave[seat].items()}
        return v

    def full_view(self) -> dict[str, Any]:
        v = self._public()
        v["hands"] = [codes(h) for h in self.hands]
        v["gave"] = [{str(r): codes(m) for r, m in g.items()} for g in self.gave]
        return v

    def determinise(self, seat: int, rng: random.Random) -> PresidentState:
        """Redeal the cards ``seat`` cannot see, keeping hand sizes and what it knows.

        It knows its own hand, the cards it gave (still held by the receiver unless
        played), and, when it received an automatic give, that the giver holds no card
        above the weakest rank given (ranks compare in the normal order, Jokers on top).
        """
        s = self._copy(self.shuffler.reseeded(rng))
        n = self.num_players
        fixed = [0] * n
        fixed[seat] = self.hands[seat]
        for receiver, cards in self.gave[seat].items():
            fixed[receiver] |= cards & self.hands[receiver]
        known = 0
        for f in fixed:
            known |= f
        pool_mask = 0
        for h in self.hands:
            pool_mask |= h
        pool_mask &= ~known
        need = [self.hands[p].bit_count() - fixed[p].bit_count() for p in range(n)]
        hands = list(fixed)
        ceiling = self.ceiling[seat]
        if ceiling is not None and ceiling[0] != seat and need[ceiling[0]]:
            giver, top = ceiling
            # the cards of rank <= top: four ids per rank, the Jokers (rank 13) last
            allowed = pool_mask & ((1 << 4 * (top + 1)) - 1)
            got = deal_masks(cards_of(allowed), [need[giver]], rng)[0]
            hands[giver] |= got
            pool_mask &= ~got
            need[giver] = 0
        dealt = deal_masks(cards_of(pool_mask), need, rng)
        s.hands = [h | d for h, d in zip(hands, dealt, strict=True)]
        return s

    def clone(self) -> PresidentState:
        return self._copy(self.shuffler.copy())

    def _copy(self, shuffler: Shuffler) -> PresidentState:
        """A copy with ``shuffler`` (a determinisation replaces the generator, so
        copying it first would be wasted: that copy is most of a clone's cost)."""
        s = PresidentState.__new__(PresidentState)
        s.__dict__.update(self.__dict__)
        s.__dict__.pop("_legal_cache", None)
        s.shuffler = shuffler
        s.hands = self.hands[:]
        s.scores = self.scores[:]
        s.finished = self.finished[:]
        s.last_order = self.last_order[:]
        s.exchange = [e[:] for e in self.exchange]
        s.gave = [dict(g) for g in self.gave]
        s.received = self.received[:]
        s.ceiling = self.ceiling[:]
        return s


# Re-exported for tests and bots.
__all__ = ["PLAY_JK1", "PLAY_JK2", "PresidentGame", "PresidentState", "role_points"]
