"""HOAX: the rules (spec: ``rules.md`` beside this file; § numbers quote hoax.md).

The whole turn is an explicit phase machine (``self.phase``); the pipeline of §3
(S0 declare … S9 end) is a sequence of phases, and every identity claim passes
through the doubt sub-machine (DOUBT window, then VOTE) before it takes effect:

====================  =================================  ==========================
phase                 who                                closes / next
====================  =================================  ==========================
``cover``/``chip``    ``to_act``: seats still to choose   all chose → next
``declare`` (S0)      ``to_act``: the active player        → DOUBT (claim) / SHOW /…
``doubt`` (S1, …)     ``out_of_turn``: may open a doubt   clock → claim stands
``vote``              ``to_act``: every other voter       last vote → tally
``protect`` (S2)      ``out_of_turn``: affected targets   clock → execute (S3)
``give``              ``to_act``: collection payers       all gave → S5
``show``              ``to_act``: the shower              shown → S5
``illegal`` (S5)      ``out_of_turn``: would-be Barons    clock → FINE or end
``fine`` (S6)         ``out_of_turn``: would-be Judges    clock → FORGIVE or end
``forgive`` (S7)      ``out_of_turn``: would-be Monks     clock → SETTLE
``settle`` (S8)       ``to_act``: the convicted actor     paid/protected → end (S9)
``pass``              ``to_act``: the paid Judge          chose a Baron → end
====================  =================================  ==========================

A window with nobody eligible is skipped; an open window closes when its deadline
(``CLOCK`` applies ``close``) passes without a reaction. Building a trio is a free
action of any player at any time (out of turn) and never closes a window.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from ...core.cards import Shuffler
from ...core.game import CLOCK, ConfigError, Deadline, Event, Game, IllegalAction, Result, State
from ...core.observation import Observer
from .cards import (
    ALL_IDENTITIES,
    BARON,
    CARD_CODES,
    CHIP_NAMES,
    CHIPS_PER_TYPE,
    CLAIM_OF_KIND,
    IDENTITY_NAMES,
    IDENTITY_ORIGINAL,
    JUDGE,
    K_BUY,
    K_CLOSE,
    K_COLLECT,
    K_COVER,
    K_EARN,
    K_ENCHANT,
    K_FINE,
    K_FORGIVE,
    K_HARVEST,
    K_ILLEGAL,
    K_JGRAIN,
    K_JWINE,
    K_PRESS,
    K_PROTECT,
    K_STEAL,
    K_TAKEGOLD,
    K_TAX,
    K_TRADE,
    K_TRIO,
    K_VOTE_DOUBT,
    MAGICIAN,
    MONK,
    NUM_CARDS,
    NUM_IDENTITIES,
    REACTION_CLAIM,
    SEATS_OF,
    TRADE_PAIRS,
    ActionTable,
    action_table,
)

if TYPE_CHECKING:
    from ...core.position import Fields

WIN_POINTS = 10

# -- phases -------------------------------------------------------------------------
(P_COVER, P_CHIP, P_DECLARE, P_DOUBT, P_VOTE, P_PROTECT, P_GIVE, P_SHOW, P_ILLEGAL, P_FINE,
 P_FORGIVE, P_SETTLE, P_PASS, P_OVER) = range(14)
PHASE_NAMES = ("cover", "chip", "declare", "doubt", "vote", "protect", "give", "show",
               "illegal", "fine", "forgive", "settle", "pass", "over")
WINDOWS = frozenset((P_DOUBT, P_PROTECT, P_ILLEGAL, P_FINE, P_FORGIVE))

# -- what a claim was made for (the doubt sub-machine returns here) ------------------
C_ACTION, C_PROTECT, C_ILLEGAL, C_FINE, C_FORGIVE, C_SETTLE = range(6)
CLAIM_KIND_NAMES = ("action", "protect", "illegal", "fine", "forgive", "settle-protect")
CLAIM_IDENTITY = (-1, MAGICIAN, BARON, JUDGE, MONK, MAGICIAN)


def claims_in(entries: Iterable[tuple[Any, ...]],
              tab: ActionTable) -> Iterator[tuple[int, int]]:
    """``(seat, identity)`` for every public identity claim among round-log entries:
    a declared personal action, or a Protect / Illegal / Fine / Forgive reaction."""
    kind = tab.kind
    for e in entries:
        w = e[0]
        if w == "declare":
            x = CLAIM_OF_KIND[kind[e[2]]]
        elif w in REACTION_CLAIM:
            x = REACTION_CLAIM[w]
        else:
            continue
        if x >= 0:
            yield e[1], x


def _ident(card: int) -> int:
    return card >> 1



#: Identity names of every identity mask (views).
_NAMES: tuple[tuple[str, ...], ...] = tuple(
    tuple(IDENTITY_NAMES[x] for x in range(NUM_IDENTITIES) if m >> x & 1)
    for m in range(1 << NUM_IDENTITIES))
#: ``_player_view`` memo: the fields it reads -> the (read-only) dict of the view.
_PLAYER_VIEWS: dict[tuple[Any, ...], dict[str, Any]] = {}
#: Per player count, per seat: picks the seat's fields out of ``HoaxState._public_key``.
_SEAT_FIELDS: dict[int, list[itemgetter[tuple[Any, ...]]]] = {}
for _n in range(4, 9):
    # the seat of each position of the key: in_round, revealed and the face-up cards
    # (no seat's), tp, loose (3 per seat), then trios, covered, start_cover, doubt_cov,
    # known_is, known_not
    _owner = [-1, -1, -1, *range(_n), *(s for s in range(_n) for _t in range(3)),
              *(s for _f in range(6) for s in range(_n))]
    _SEAT_FIELDS[_n] = [itemgetter(*(i for i, o in enumerate(_owner) if o == s))
                        for s in range(_n)]
#: Seats of a mask as (shared, read-only) lists for views.
_SEAT_LISTS: tuple[list[int], ...] = tuple(list(m) for m in SEATS_OF)
#: Identity names of every identity mask as (shared, read-only) lists for views.
_NAME_LISTS: tuple[list[str], ...] = tuple(list(names) for names in _NAMES)
#: Chip counts (bank, a seat's loose chips) -> the (read-only) dict of the view.
_CHIP_VIEWS: dict[tuple[int, ...], dict[str, int]] = {}


def _chips_by_seat(types: list[int]) -> dict[str, str]:
    """Standing fines or forgivenesses (chip type per seat, -1 for none) for views."""
    return {str(s): CHIP_NAMES[t] for s, t in enumerate(types) if t >= 0}


def _chips_view(counts: list[int]) -> dict[str, int]:
    """``{"gold": …, "wine": …, "grain": …}``, one shared dict per content."""
    key = tuple(counts)
    out = _CHIP_VIEWS.get(key)
    if out is None:  # at most 21**3 contents
        out = _CHIP_VIEWS[key] = dict(zip(CHIP_NAMES, counts, strict=True))
    return out


class HoaxGame(Game):
    card_codes = CARD_CODES

    def __init__(self, num_players: int, options: dict[str, Any]) -> None:
        super().__init__(num_players, options)
        self.first_player: int = options["first_player"]
        self.reaction_seconds: float = float(options["reaction_seconds"])
        if self.first_player >= num_players:
            raise ConfigError(f"option 'first_player' of hoax must be below the player count "
                              f"{num_players}, not {self.first_player}")
        self.table: ActionTable = action_table(num_players)

    @property
    def num_actions(self) -> int:
        return self.table.size

    def _new_state(self, rng: random.Random, stacked: list[list[int]]) -> HoaxState:
        shuffler = Shuffler(rng, stacked)
        state = HoaxState(self, shuffler)
        events: list[Event] = []
        state._new_round(-1, events)
        state.opening = events
        return state

    def _state_from_position(self, fields: Fields, shuffler: Shuffler) -> HoaxState:
        """A state from a position's ``"state"`` object (``position.py``)."""
        from . import position

        return position.read(self, fields, shuffler)

    def action_to_json(self, action: int) -> str:
        return self.table.text(action)

    def action_from_json(self, obj: Any) -> int:
        if not isinstance(obj, str):
            raise IllegalAction(f"an action is a string such as 'farmer harvest', not {obj!r}")
        if not obj.strip():
            raise IllegalAction("empty action")
        a = self.table.parse(obj)
        if a is None:
            raise IllegalAction(
                f"not an action: {obj!r} (try 'farmer harvest', 'baron tax wine', "
                f"'thief steal 2 gold 2 1', 'accuse 3 monk', 'doubt', 'vote doubt', 'trio')")
        return a

    def describe_action(self, action: int) -> str:
        from .render import describe

        return describe(self, action)

    def render_view(self, view: dict[str, Any]) -> str:
        from .render import render

        return render(view)

    def bots(self) -> dict[str, type]:
        from .bot import HeuristicBot

        return {"heuristic": HeuristicBot}

    def observer_class(self) -> type[Observer]:
        """HOAX's own RL observation (``observation.py``)."""
        from .observation import HoaxObserver  # (it imports this module)

        return HoaxObserver


class HoaxState(State):
    game: HoaxGame

    def __init__(self, game: HoaxGame, shuffler: Shuffler) -> None:
        n = game.num_players
        self.game = game
        self.tab = game.table
        self.n = n
        self.shuffler = shuffler
        self.move_number = 0
        self.tp = [0] * n
        self.over = False
        self.winner: int | None = None
        self.round_no = 0
        self.turns = 0          # turns begun in the whole game
        self.finals = 0
        self.last_reveal: list[int] | None = None  # identities shown after the last final
        self._round_fields(-1)

    def _round_fields(self, starter: int) -> None:
        n = self.n
        self.card = [-1] * n
        self.in_round = (1 << n) - 1
        self.covered = [0] * n        # every identity p may not claim (all covers)
        self.start_cover = [-1] * n
        self.doubt_cov = [0] * n      # covered through a justified doubt
        self.final_cov = [0] * n      # covered at / during the final (shown to the opponent)
        self.shown = [0] * (n * n)    # shown[q*n+a]: identities q showed a as false
        self.revealed = 0             # seats whose card lies face up (unjustified doubt)
        self.known_is = [-1] * n      # proven by a "juist" answer
        self.known_not = [0] * n      # proven not by a "fout" answer
        self.loose = [0] * (3 * n)
        self.trios = [0] * n
        self.bank = [CHIPS_PER_TYPE] * 3
        self.chip_pending = (1 << n) - 1
        self.in_final = False
        self.active = starter
        self.phase = P_COVER
        self.log: list[tuple[Any, ...]] = []
        self._turn_fields()

    def _turn_fields(self) -> None:
        n = self.n
        self.act = -1             # the declared action (S0)
        self.departing = False    # the actor lost an unjustified claim doubt (S1)
        self.protected = 0
        self.protect_tried = 0
        self.reacted = 0          # used their one Illegal / Fine / Forgive
        self.barons = 0           # standing illegal declarations
        self.fine_t = [-1] * n
        self.forgive_t = [-1] * n
        self.give_pending = 0
        self.show_q = -1
        self.show_k = 0
        self.pass_judge = -1
        self.pass_type = -1
        self.escrow = 0           # the chip a Judge must pass on while choosing the Baron
        self.win_mask = 0
        self.window_since = 0
        self._deadline: Deadline | None = None
        # the claim under doubt
        self.c_seat = -1
        self.c_ident = -1
        self.c_kind = -1
        self.c_param = -1
        self.opener = -1
        self.votes_yes = 0
        self.voted = 0
        self.vote_pending = 0

    # ======================================================================= rounds
    def _new_round(self, starter: int, events: list[Event]) -> None:
        """§2: deal one identity each; covers and starting chips are the seats' choices."""
        n = self.n
        self.round_no += 1
        self._round_fields(starter)
        order = self.shuffler.shuffled(range(NUM_CARDS))
        self.card = list(order[:n])
        if starter < 0:  # round 1: random [DECISION] unless the option fixes it
            self.active = self.shuffler.seat(self.game.first_player, n)
        events.append(Event("deal", None, {"round": self.round_no, "starts": self.active},
                            {s: {"identity": IDENTITY_NAMES[_ident(self.card[s])]}
                             for s in range(n)}))

    def _begin_turn(self, seat: int) -> None:
        self._turn_fields()
        self.active = seat
        self.phase = P_DECLARE
        self.turns += 1

    # ======================================================================= who acts
    def to_act(self) -> list[int] | tuple[int, ...]:
        ph = self.phase
        if ph == P_DECLARE or ph == P_SETTLE:
            return (self.active,)
        if ph == P_VOTE:
            return SEATS_OF[self.vote_pending]
        if ph == P_COVER:
            return [s for s in range(self.n) if self.start_cover[s] < 0]
        if ph == P_CHIP:
            return SEATS_OF[self.chip_pending]
        if ph == P_GIVE:
            return SEATS_OF[self.give_pending]
        if ph == P_SHOW:
            return (self.show_q,)
        if ph == P_PASS:
            return (self.pass_judge,)
        return ()

    def _trio_mask(self) -> int:
        m = 0
        lo = self.loose
        for s in SEATS_OF[self.in_round]:
            i = 3 * s
            if lo[i] and lo[i + 1] and lo[i + 2]:
                m |= 1 << s
        return m

    def _window_mask(self) -> int:
        ph = self.phase
        if ph in WINDOWS:
            if ph == P_FINE or ph == P_FORGIVE:
                i = 3 * self.active
                if not (self.loose[i] or self.loose[i + 1] or self.loose[i + 2]):
                    return 0
            return self.win_mask
        return 0

    def out_of_turn(self) -> tuple[int, ...]:
        if self.phase >= P_OVER or self.phase <= P_CHIP:
            return ()
        return SEATS_OF[self._window_mask() | self._trio_mask()]

    def deadlines(self) -> list[Deadline]:
        if self.phase in WINDOWS:
            d = self._deadline
            if d is None or d.since != self.window_since:
                d = self._deadline = Deadline(
                    CLOCK, self.tab.close, self.game.reaction_seconds, self.window_since,
                    f"{PHASE_NAMES[self.phase]} window closes")
            return [d]
        return []

    # ======================================================================= legality
    def _legal_actions(self, seat: int) -> list[int]:
        ph = self.phase
        T = self.tab
        bit = 1 << seat
        out: list[int] = []
        if ph == P_OVER:
            return out
        if ph == P_DECLARE:
            if seat == self.active:
                out = self._declare_actions(seat)
        elif ph == P_VOTE:
            if self.vote_pending & bit:
                out = [T.vote_doubt, T.vote_trust]
        elif ph in WINDOWS:
            if self._window_mask() & bit:
                if ph == P_DOUBT:
                    out = [T.doubt]
                elif ph == P_PROTECT:
                    out = [T.protect]
                elif ph == P_ILLEGAL:
                    out = [T.illegal]
                else:
                    i = 3 * self.active
                    lo = self.loose
                    opts = T.fine if ph == P_FINE else T.forgive
                    out = [opts[t] for t in range(3) if lo[i + t]]
        elif ph == P_COVER:
            if self.start_cover[seat] < 0:
                own = _ident(self.card[seat])
                out = [T.cover[x] for x in range(NUM_IDENTITIES) if x != own]
        elif ph == P_CHIP:
            if self.chip_pending & bit:
                out = [T.chip[t] for t in range(3) if self.bank[t]]
        elif ph == P_GIVE:
            if self.give_pending & bit:
                i = 3 * seat
                out = [T.give[t] for t in range(3) if self.loose[i + t]]
        elif ph == P_SHOW:
            if seat == self.show_q:
                allowed = self._showable(seat, self.active)
                out = [T.show[m] for m in T.show_masks_by_size[self.show_k] if m & allowed == m]
        elif ph == P_SETTLE:
            if seat == self.active:
                out = [T.pay[s] for s in self._settle_options()]
                if not self.covered[seat] >> MAGICIAN & 1:
                    out.append(T.protect)
        elif ph == P_PASS:
            if seat == self.pass_judge:
                out = [T.pass_to[b] for b in SEATS_OF[self._pass_barons()]]
        if ph > P_CHIP and self.in_round & bit:
            i = 3 * seat
            lo = self.loose
            if lo[i] and lo[i + 1] and lo[i + 2]:
                out = out + [T.trio] if out else [T.trio]
        return out

    def _declare_actions(self, a: int) -> list[int]:
        """S0: personal actions of every identity ``a`` has not covered; general actions."""
        T = self.tab
        n = self.n
        cov = self.covered[a]
        lo = self.loose
        tr = self.trios
        others_mask = self.in_round & ~(1 << a)
        others = SEATS_OF[others_mask]
        out = T.simple_by_cover[cov][:]
        if not cov & 8:  # Merchant
            ia = 3 * a
            for pi, (t1, t2) in enumerate(TRADE_PAIRS):
                have = lo[ia + t1]
                if not have:
                    continue
                # m = 1 .. min(have, what the partner holds) chips
                m = self.bank[t2]
                if m:
                    out.extend(T.trade[n][pi][:have if have < m else m])
                for q in others:
                    m = lo[3 * q + t2]
                    if m:
                        out.extend(T.trade[q][pi][:have if have < m else m])
        if not cov & 16:  # Magician
            out.extend(T.enchant_by_seats[others_mask])
        if not cov & 32:  # Thief
            for q in others:
                iq = 3 * q
                tq = tr[q]
                for t in range(3):
                    lq = lo[iq + t]
                    if not (lq or tq):
                        continue
                    st = T.steal[q][t]
                    # variants (1,0) (1,1) (2,0) (2,1) (2,2): n <= loose + trios,
                    # k <= trios, n - k <= loose
                    if lq:
                        out.append(st[0])
                    if tq:
                        out.append(st[1])
                    if lq >= 2:
                        out.append(st[2])
                    if lq and tq:
                        out.append(st[3])
                    if tq >= 2:
                        out.append(st[4])
        if tr[a]:
            # §3 BuyInfo: any k the buyer can pay; k is reduced on declaring (``_buy``),
            # so only a seat with nothing left to show (k would be 0) is not offered
            for q in others:
                if self._showable(q, a):
                    out.extend(T.buy[q][:tr[a]])
        out.extend(T.accuse_by_seats[others_mask])
        return out

    def _showable(self, q: int, a: int) -> int:
        """§3 BuyInfo: identities q may still show a as false (q's own identity excluded).

        The count never depends on q's hidden identity: the covers and earlier shows
        are all false identities, so exactly one more (the true one) is excluded.
        """
        sc = self.start_cover[q]
        return ALL_IDENTITIES & ~(1 << _ident(self.card[q])) & ~(1 << sc if sc >= 0 else 0) \
            & ~self.doubt_cov[q] & ~self.shown[q * self.n + a]

    def _settle_options(self) -> list[int]:
        """S8: standing fines and forgivenesses of players still in the round that the
        actor can still pay (§9.1: a reaction naming a type the actor no longer holds
        loose is void)."""
        i = 3 * self.active
        lo = self.loose
        out = []
        for s in SEATS_OF[self.in_round]:
            t = self.fine_t[s]
            if t < 0:
                t = self.forgive_t[s]
            if t >= 0 and lo[i + t]:
                out.append(s)
        return out

    def _pass_barons(self) -> int:
        return self.barons & self.in_round & ~(1 << self.pass_judge)

    def why_illegal(self, seat: int, action: int) -> str:
        if self.over:
            return "the game is over"
        T = self.tab
        kind = T.kind[action]
        ph = self.phase
        if kind in (K_FINE, K_FORGIVE, K_ILLEGAL) and ph in (P_ILLEGAL, P_FINE, P_FORGIVE):
            if seat == self.active:
                return "nobody may react with Illegal, Fine or Forgive to their own action"
            if self.reacted >> seat & 1:
                return ("each player makes at most one of Illegal, Fine or Forgive per action "
                        "(a Baron who declared it illegal cannot be its Judge, §4)")
            want = {K_ILLEGAL: P_ILLEGAL, K_FINE: P_FINE, K_FORGIVE: P_FORGIVE}[kind]
            if want != ph:
                return f"the {PHASE_NAMES[want]} step is not open now (now: {PHASE_NAMES[ph]})"
        if kind == K_TRIO:
            return "a trio needs one loose gold, wine and grain"
        if kind == K_BUY and ph == P_DECLARE and seat == self.active:
            q, k = T.p1[action], T.p2[action]
            if k > self.trios[seat]:
                return f"buying {k} identities costs {k} trios; you have {self.trios[seat]}"
            if q != seat and self.in_round >> q & 1 and not self._showable(q, seat):
                return f"seat {q} has no identity left to show you (§3: k would be 0)"
        if kind == K_COVER and self.phase == P_COVER and seat < self.n \
                and _ident(self.card[seat]) == T.p1[action]:
            return "you must cover an identity that is not your own"
        claim = CLAIM_OF_KIND[kind]
        if ph == P_DECLARE and seat == self.active and claim >= 0 \
                and self.covered[seat] >> claim & 1:
            return f"you have covered the {IDENTITY_NAMES[claim]} and may not claim it"
        if seat not in self.may_act():
            return f"seat {seat} may not act now ({PHASE_NAMES[ph]})"
        return f"{self.game.describe_action(action)} is not legal now ({PHASE_NAMES[ph]})"

    # ======================================================================= applying
    def _apply(self, seat: int, action: int) -> list[Event]:
        T = self.tab
        kind = T.kind[action]
        ev: list[Event] = []
        if kind == K_TRIO:
            self._build_trio(seat, ev)
            self._after_trio(seat, ev)
            return ev
        if kind == K_CLOSE:
            ev.append(Event("close", None, {"window": PHASE_NAMES[self.phase]}))
            self._close_window(ev)
            return ev
        ph = self.phase
        if ph == P_DECLARE:
            self._declare(seat, action, ev)
        elif ph == P_VOTE:
            self._vote(seat, kind == K_VOTE_DOUBT, ev)
        elif ph == P_DOUBT:
            self._open_doubt(seat, ev)
        elif ph == P_PROTECT:
            self.protect_tried |= 1 << seat
            self.log.append(("protect", seat))
            ev.append(Event("protect", seat, {"as": "magician"}))
            self._claim(seat, C_PROTECT, -1, ev)
        elif ph == P_ILLEGAL:
            self.reacted |= 1 << seat
            self.log.append(("illegal", seat))
            ev.append(Event("illegal", seat, {"as": "baron"}))
            self._claim(seat, C_ILLEGAL, -1, ev)
        elif ph == P_FINE:
            self.reacted |= 1 << seat
            t = T.p1[action]
            self.log.append(("fine", seat, t))
            ev.append(Event("fine", seat, {"as": "judge", "type": CHIP_NAMES[t]}))
            self._claim(seat, C_FINE, t, ev)
        elif ph == P_FORGIVE:
            self.reacted |= 1 << seat
            t = T.p1[action]
            self.log.append(("forgive", seat, t))
            ev.append(Event("forgive", seat, {"as": "monk", "type": CHIP_NAMES[t]}))
            self._claim(seat, C_FORGIVE, t, ev)
        elif ph == P_COVER:
            x = T.p1[action]
            self.start_cover[seat] = x
            self.covered[seat] |= 1 << x
            self.log.append(("cover", seat, x))
            ev.append(Event("cover", seat, {"identity": IDENTITY_NAMES[x]}))
            if min(self.start_cover) >= 0:
                self.phase = P_CHIP
        elif ph == P_CHIP:
            t = T.p1[action]
            self.chip_pending &= ~(1 << seat)
            self._gain(seat, t, 1)
            ev.append(Event("take", seat, {"type": CHIP_NAMES[t]}))
            if not self.chip_pending:
                self._begin_turn(self.active)
                ev.append(Event("turn", self.active, {"turn": self.turns}))
        elif ph == P_GIVE:
            t = T.p1[action]
            self._move(seat, self.active, t, 1)
            self.give_pending &= ~(1 << seat)
            self.log.append(("give", seat, t))
            ev.append(Event("give", seat, {"to": self.active, "type": CHIP_NAMES[t]}))
            if not self.give_pending:
                self._after_execute(ev)
        elif ph == P_SHOW:
            self._show(seat, T.p1[action], ev)
        elif ph == P_SETTLE:
            if kind == K_PROTECT:
                self.log.append(("protect", seat))
                ev.append(Event("protect", seat, {"as": "magician", "against": "conviction"}))
                self._claim(seat, C_SETTLE, -1, ev)
            else:
                self._pay(T.p1[action], ev)
        elif ph == P_PASS:
            b = T.p1[action]
            self.loose[3 * b + self.pass_type] += self.escrow
            self.escrow = 0
            self.log.append(("pass", self.pass_judge, b, self.pass_type))
            ev.append(Event("pass", self.pass_judge, {"to": b, "type": CHIP_NAMES[self.pass_type]}))
            self._end_turn(ev)
        return ev

    # -- chips --------------------------------------------------------------------
    def _gain(self, p: int, t: int, k: int) -> int:
        """p takes up to k chips of type t from the bank (§1: the bank is finite)."""
        b = self.bank[t]
        if k > b:
            k = b
        self.bank[t] = b - k
        self.loose[3 * p + t] += k
        return k

    def _move(self, src: int, dst: int, t: int, k: int) -> int:
        lo = self.loose
        i = 3 * src + t
        if k > lo[i]:
            k = lo[i]
        lo[i] -= k
        lo[3 * dst + t] += k
        return k

    def _to_bank(self, p: int) -> None:
        i = 3 * p
        tr = self.trios[p]
        for t in range(3):
            self.bank[t] += self.loose[i + t] + tr
            self.loose[i + t] = 0
        self.trios[p] = 0

    def _build_trio(self, p: int, ev: list[Event]) -> None:
        i = 3 * p
        self.loose[i] -= 1
        self.loose[i + 1] -= 1
        self.loose[i + 2] -= 1
        self.trios[p] += 1
        ev.append(Event("trio", p, {"trios": self.trios[p]}))

    def _after_trio(self, p: int, ev: list[Event]) -> None:
        """A trio may leave a step with nothing left to do: close it (never stuck)."""
        ph = self.phase
        if ph in WINDOWS:
            if not self._window_mask():
                self._close_window(ev)
        elif ph == P_SETTLE:
            if p == self.active and not self._settle_options():
                self.log.append(("settled", self.active, -1))
                self._end_turn(ev)
        elif ph == P_GIVE:
            if self.give_pending >> p & 1 and not self._has_loose(p):
                self.give_pending &= ~(1 << p)
                if not self.give_pending:
                    self._after_execute(ev)

    # -- throne points -------------------------------------------------------------
    def _award(self, p: int, pts: int, ev: list[Event], can_win: bool = True,
               why: str = "") -> bool:
        """Add throne points; True when that ends the game (§6: first to 10 wins at once).

        Awards that cannot win (final loser, refuted accusation) are dropped when they
        would reach 10."""
        if not can_win and self.tp[p] + pts >= WIN_POINTS:
            ev.append(Event("points", p, {"points": 0, "why": why, "withheld": pts}))
            self.log.append(("points", p, 0, why))
            return False
        self.tp[p] += pts
        ev.append(Event("points", p, {"points": pts, "why": why, "total": self.tp[p]}))
        self.log.append(("points", p, pts, why))
        if self.tp[p] >= WIN_POINTS:
            self.over = True
            self.winner = p
            self.phase = P_OVER
            ev.append(Event("game_over", p, {"winner": p, "throne_points": list(self.tp)}))
            return True
        return False

    def _leave(self, p: int, ev: list[Event], why: str, keep_chips: bool = False) -> None:
        self.in_round &= ~(1 << p)
        if not keep_chips:
            self._to_bank(p)
        self.log.append(("out", p, why))
        ev.append(Event("out", p, {"why": why}))

    # -- S0 declare ----------------------------------------------------------------
    def _declare(self, a: int, action: int, ev: list[Event]) -> None:
        T = self.tab
        kind = T.kind[action]
        self.act = action
        self.log.append(("declare", a, action))
        claim = CLAIM_OF_KIND[kind]
        ev.append(Event("declare", a, {"action": T.text(action),
                                       "as": IDENTITY_NAMES[claim] if claim >= 0 else None}))
        if claim >= 0:
            self._claim(a, C_ACTION, -1, ev)
        elif kind == K_BUY:
            self._buy(a, T.p1[action], T.p2[action], ev)
        else:  # K_ACCUSE
            self._accuse(a, T.p1[action], T.p2[action], ev)

    def _buy(self, a: int, q: int, k: int, ev: list[Event]) -> None:
        """§3 BuyInfo: k is reduced to the identities q may still show a before a pays;
        a pays that many trios to the bank, and q must show that many."""
        count = min(k, self._showable(q, a).bit_count())
        self.trios[a] -= count
        for t in range(3):
            self.bank[t] += count
        self.show_q, self.show_k = q, count
        # public: the trios paid are public anyway, so the reduction is no secret
        ev.append(Event("buy", a, {"from": q, "asked": k, "count": count}))
        self.phase = P_SHOW

    def _accuse(self, a: int, q: int, x: int, ev: list[Event]) -> None:
        """§3 Accuse, §7.1: juist → q out, a +1; fout → a out, q +1 (cannot win)."""
        right = _ident(self.card[q]) == x
        self.log.append(("answer", q, x, right))
        ev.append(Event("answer", q, {"accuser": a, "identity": IDENTITY_NAMES[x],
                                      "answer": "juist" if right else "fout"}))
        if right:
            self.known_is[q] = x
            self._leave(q, ev, "accused correctly")
            if self.in_final:
                self._end_final(a, q, 4, False, ev)
                return
            if self._award(a, 1, ev, why="correct accusation"):
                return
            self._after_execute(ev)
        else:
            self.known_not[q] |= 1 << x
            self._leave(a, ev, "wrong accusation")
            if self.in_final:
                self._end_final(q, a, 3, True, ev)
                return
            if self._award(q, 1, ev, can_win=False, why="refuted accusation"):
                return
            self._end_turn(ev)

    def _show(self, q: int, mask: int, ev: list[Event]) -> None:
        a = self.active
        self.shown[q * self.n + a] |= mask
        names = [IDENTITY_NAMES[x] for x in range(NUM_IDENTITIES) if mask >> x & 1]
        self.log.append(("show", q, a, mask.bit_count()))
        if self.in_final:  # §6: information bought in the final is covered at once
            self.covered[q] |= mask
            self.final_cov[q] |= mask
            self.log.append(("final_cover", q, mask))
            ev.append(Event("show", q, {"to": a, "count": mask.bit_count(), "covered": names}))
        else:
            ev.append(Event("show", q, {"to": a, "count": mask.bit_count()},
                            {a: {"identities": names}, q: {"identities": names}}))
        self._after_execute(ev)

    # -- claims and the doubt sub-machine (§5) --------------------------------------
    def _claim(self, c: int, kind: int, param: int, ev: list[Event]) -> None:
        self.c_seat = c
        self.c_kind = kind
        self.c_param = param
        self.c_ident = CLAIM_IDENTITY[kind] if kind != C_ACTION else \
            CLAIM_OF_KIND[self.tab.kind[self.act]]
        self.opener = -1
        mask = self.in_round & ~(1 << c)
        if not mask:
            self._claim_done(True, ev)
            return
        self._open_window(P_DOUBT, mask)

    def _open_window(self, phase: int, mask: int) -> None:
        self.phase = phase
        self.win_mask = mask
        self.window_since = self.move_number
        self._deadline = None

    def _open_doubt(self, s: int, ev: list[Event]) -> None:
        """§5.1: opening a doubt counts as a Doubt vote (§9.7); in the final it is
        official at once."""
        self.opener = s
        self.log.append(("doubt", s, self.c_seat, self.c_ident))
        ev.append(Event("doubt", s, {"claimant": self.c_seat,
                                     "identity": IDENTITY_NAMES[self.c_ident]}))
        R = self.in_round.bit_count()
        need = (R + 1) // 2
        self.votes_yes = 1 << s
        self.voted = 1 << s
        pending = self.in_round & ~(1 << self.c_seat) & ~(1 << s)
        if self.in_final or need <= 1 or not pending:
            self._tally(ev)
            return
        self.vote_pending = pending
        self.phase = P_VOTE

    def _vote(self, s: int, doubt: bool, ev: list[Event]) -> None:
        b = 1 << s
        self.voted |= b
        if doubt:
            self.votes_yes |= b
        self.vote_pending &= ~b
        ev.append(Event("vote", s, {}, {s: {"vote": "doubt" if doubt else "trust"}}))
        if not self.vote_pending:
            self._tally(ev)

    def _tally(self, ev: list[Event]) -> None:
        R = self.in_round.bit_count()
        need = (R + 1) // 2
        yes = self.votes_yes.bit_count()
        official = self.in_final or yes >= need
        c, x = self.c_seat, self.c_ident
        if not official:
            self.log.append(("vote", c, x, self.votes_yes, False, None))
            ev.append(Event("vote_result", None, {"claimant": c, "identity": IDENTITY_NAMES[x],
                                                  "doubters": list(SEATS_OF[self.votes_yes]),
                                                  "official": False}))
            self._claim_done(True, ev)
            return
        justified = _ident(self.card[c]) != x
        self.log.append(("vote", c, x, self.votes_yes, True, justified))
        ev.append(Event("vote_result", None, {"claimant": c, "identity": IDENTITY_NAMES[x],
                                              "doubters": list(SEATS_OF[self.votes_yes]),
                                              "official": True, "justified": justified}))
        if justified:
            # §5.4: c covers x for the rest of the round; the claim is void.
            self.covered[c] |= 1 << x
            self.doubt_cov[c] |= 1 << x
            self._claim_done(False, ev)
            return
        if self.in_final:
            # §6: an unjustified doubt makes the doubter lose the final at once.
            self._end_final(c, self.opener, 3, False, ev)
            return
        # §5.4 unjustified: face up, out with +3, chips to the bank, the claim is carried out.
        self.revealed |= 1 << c
        action_claim = self.c_kind == C_ACTION
        self._leave(c, ev, "unjustified doubt", keep_chips=action_claim)
        if action_claim:
            self.departing = True  # the action executes first (§8 scenario 4)
        if self._award(c, 3, ev, why="unjustified doubt"):
            return
        self._claim_done(True, ev)

    def _claim_done(self, stands: bool, ev: list[Event]) -> None:
        kind, c = self.c_kind, self.c_seat
        self.c_seat = self.c_kind = self.c_ident = self.opener = -1
        self.votes_yes = self.voted = self.vote_pending = 0
        if kind == C_ACTION:
            if stands:
                self._open_protect(ev)
            else:
                self._end_turn(ev)
        elif kind == C_PROTECT:
            if stands:
                self.protected |= 1 << c
            self._open_protect(ev)
        elif kind == C_ILLEGAL:
            if stands:
                self.barons |= 1 << c
            self._open_illegal(ev)
        elif kind == C_FINE:
            if stands:
                self.fine_t[c] = self.c_param
            self._open_fine(ev)
        elif kind == C_FORGIVE:
            if stands:
                self.forgive_t[c] = self.c_param
            self._open_forgive(ev)
        else:  # C_SETTLE
            if stands or not self.in_round >> self.active & 1:
                self.log.append(("settled", self.active, -1))
                self._end_turn(ev)
            else:
                self._open_settle(ev)

    # -- S2 protect, S3 execute ---------------------------------------------------
    def _targets(self) -> int:
        """§9.9: who may protect against the declared action."""
        T = self.tab
        a = self.act
        kind = T.kind[a]
        A = self.active
        others = self.in_round & ~(1 << A)
        lo = self.loose
        if kind == K_TAX:
            t = T.p1[a]
            return sum(1 << s for s in SEATS_OF[others] if lo[3 * s + t])
        if kind == K_COLLECT:
            return sum(1 << s for s in SEATS_OF[others]
                       if lo[3 * s] or lo[3 * s + 1] or lo[3 * s + 2])
        if kind == K_TRADE:
            q = T.p1[a]
            return (1 << q) & others if q < self.n else 0
        if kind == K_ENCHANT:
            return (1 << T.p1[a]) & others
        return 0

    def _uncovered(self, x: int) -> int:
        """Seats in the round that have not covered identity x (may claim it)."""
        cov = self.covered
        m = 0
        for s in SEATS_OF[self.in_round]:
            if not cov[s] >> x & 1:
                m |= 1 << s
        return m

    def _open_protect(self, ev: list[Event]) -> None:
        mask = self._targets() & ~self.protect_tried & self._uncovered(MAGICIAN)
        if mask:
            self._open_window(P_PROTECT, mask)
        else:
            self._execute(ev)

    def _execute(self, ev: list[Event]) -> None:
        """S3: the effect, on targets that are not protected and still in the round."""
        T = self.tab
        a = self.act
        kind = T.kind[a]
        A = self.active
        lo = self.loose
        victims = self.in_round & ~(1 << A) & ~self.protected
        got = [0, 0, 0]
        if kind == K_TAKEGOLD:
            got[0] = self._gain(A, 0, 2)
        elif kind == K_PRESS:
            got[1] = self._gain(A, 1, 2)
        elif kind == K_JWINE:
            got[1] = self._gain(A, 1, 1)
        elif kind == K_JGRAIN:
            got[2] = self._gain(A, 2, 1)
        elif kind == K_EARN:
            got[0] = self._gain(A, 0, 1)
        elif kind == K_HARVEST:
            got[2] = self._gain(A, 2, 2)
        elif kind == K_TAX:
            t = T.p1[a]
            for s in SEATS_OF[victims]:
                got[t] += self._move(s, A, t, 1)
        elif kind == K_COLLECT:
            pending = 0
            for s in SEATS_OF[victims]:
                i = 3 * s
                types = [t for t in range(3) if lo[i + t]]
                if len(types) == 1:
                    got[types[0]] += self._move(s, A, types[0], 1)
                    self.log.append(("give", s, types[0]))
                elif types:
                    pending |= 1 << s
            if pending:
                ev.append(Event("execute", A, {"action": T.text(a), "got": got}))
                self.give_pending = pending
                self.phase = P_GIVE
                return
        elif kind == K_TRADE:
            q, t1, t2, m = T.p1[a], T.p2[a], T.p3[a], T.p4[a]
            if q == self.n:
                m = min(m, lo[3 * A + t1], self.bank[t2])
                lo[3 * A + t1] -= m
                self.bank[t1] += m
                self._gain(A, t2, m)
            elif victims >> q & 1:
                m = min(m, lo[3 * A + t1], lo[3 * q + t2])
                self._move(A, q, t1, m)
                self._move(q, A, t2, m)
            else:
                m = 0
            got[t2] = m
        elif kind == K_ENCHANT:
            q = T.p1[a]
            if victims >> q & 1:
                for t in range(3):
                    got[t] = self._move(q, A, t, lo[3 * q + t])
        elif kind == K_STEAL:
            q, t, nn, k = T.p1[a], T.p2[a], T.p3[a], T.p4[a]
            if self.in_round >> q & 1:  # §4: not protectable
                got[t] = self._steal(A, q, t, nn, k)
        ev.append(Event("execute", A, {"action": T.text(a), "got": got}))
        self.log.append(("execute", A, a, tuple(got)))
        self._after_execute(ev)

    def _steal(self, A: int, q: int, t: int, nn: int, k: int) -> int:
        """§3 Thief: n chips of type t, k of them out of trios (each breaks a trio whose
        other two chips become loose). Clamped to what q holds at execution [DECISION]."""
        lo = self.loose
        iq = 3 * q
        loose_q, tr = lo[iq + t], self.trios[q]
        want = min(nn, loose_q + tr)
        from_trios = min(tr, max(k, want - loose_q))
        from_loose = want - from_trios
        lo[iq + t] -= from_loose
        self.trios[q] -= from_trios
        for u in range(3):
            if u != t:
                lo[iq + u] += from_trios
        lo[3 * A + t] += want
        return want

    def _after_execute(self, ev: list[Event]) -> None:
        """After S3: a departing actor's chips go to the bank and S5–S8 are skipped."""
        A = self.active
        if self.departing:
            self.departing = False
            self._to_bank(A)
            self._end_turn(ev)
        elif not self.in_round >> A & 1:
            self._end_turn(ev)
        else:
            self._open_illegal(ev)

    # -- S5–S8 ---------------------------------------------------------------------
    def _open_illegal(self, ev: list[Event]) -> None:
        if self.in_round >> self.active & 1:
            mask = self._uncovered(BARON) & ~(1 << self.active) & ~self.reacted
            if mask:
                self._open_window(P_ILLEGAL, mask)
                return
        self._close_illegal(ev)

    def _close_illegal(self, ev: list[Event]) -> None:
        if self.barons and self.in_round >> self.active & 1:
            self._open_fine(ev)
        else:
            self._end_turn(ev)

    def _has_loose(self, p: int) -> bool:
        i = 3 * p
        return bool(self.loose[i] or self.loose[i + 1] or self.loose[i + 2])

    def _open_fine(self, ev: list[Event]) -> None:
        A = self.active
        if self._has_loose(A):
            mask = self._uncovered(JUDGE) & ~(1 << A) & ~self.reacted
            if mask:
                self._open_window(P_FINE, mask)
                return
        self._close_fine(ev)

    def _close_fine(self, ev: list[Event]) -> None:
        if any(self.fine_t[s] >= 0 for s in SEATS_OF[self.in_round]):
            self._open_forgive(ev)
        else:
            self._end_turn(ev)

    def _open_forgive(self, ev: list[Event]) -> None:
        A = self.active
        if self._has_loose(A):
            mask = self._uncovered(MONK) & ~(1 << A) & ~self.reacted
            if mask:
                self._open_window(P_FORGIVE, mask)
                return
        self._open_settle(ev)

    def _open_settle(self, ev: list[Event]) -> None:
        if self._settle_options():
            self.phase = P_SETTLE
        else:
            self.log.append(("settled", self.active, -1))
            self._end_turn(ev)

    def _pay(self, r: int, ev: list[Event]) -> None:
        """S8: the actor pays one standing fine (min(2, loose), §9.1) or forgiveness."""
        A = self.active
        t = self.fine_t[r]
        if t >= 0:
            amount = self._move(A, r, t, 2)
            self.log.append(("settled", A, r, t, amount))
            ev.append(Event("pay", A, {"to": r, "type": CHIP_NAMES[t], "count": amount,
                                       "for": "fine"}))
            if amount == 2:
                barons = self.barons & self.in_round & ~(1 << r)
                if barons:
                    self.pass_judge, self.pass_type = r, t
                    if barons & (barons - 1):
                        # several Barons: the Judge chooses (§7.9); the chip is set aside
                        self.loose[3 * r + t] -= 1
                        self.escrow = 1
                        self.phase = P_PASS
                        return
                    b = SEATS_OF[barons][0]
                    self._move(r, b, t, 1)
                    self.log.append(("pass", r, b, t))
                    ev.append(Event("pass", r, {"to": b, "type": CHIP_NAMES[t]}))
        else:
            t = self.forgive_t[r]
            self._move(A, r, t, 1)
            self.log.append(("settled", A, r, t, 1))
            ev.append(Event("pay", A, {"to": r, "type": CHIP_NAMES[t], "count": 1,
                                       "for": "forgiveness"}))
        self._end_turn(ev)

    def _close_window(self, ev: list[Event]) -> None:
        ph = self.phase
        self.win_mask = 0
        if ph == P_DOUBT:
            self._claim_done(True, ev)
        elif ph == P_PROTECT:
            self._execute(ev)
        elif ph == P_ILLEGAL:
            self._close_illegal(ev)
        elif ph == P_FINE:
            self._close_fine(ev)
        elif ph == P_FORGIVE:
            self._open_settle(ev)

    # -- S9 end of turn, final, round end -------------------------------------------
    def _end_turn(self, ev: list[Event]) -> None:
        if self.over:
            return
        n = self.n
        A = self.active
        R = self.in_round.bit_count()
        if R <= 1:
            if R == 1:  # §7.13 / §9.5: the survivor counts as the final winner
                self._end_final(SEATS_OF[self.in_round][0], None, 3, False, ev)
            else:  # [DECISION] nobody left: no final points; the next seat starts
                self._reveal_and_restart((A + 1) % n, ev)
            return
        if R == 2 and not self.in_final:
            self._start_final(ev)
        s = (A + 1) % n
        while not self.in_round >> s & 1:
            s = (s + 1) % n
        self._begin_turn(s)
        ev.append(Event("turn", s, {"turn": self.turns}))

    def _start_final(self, ev: list[Event]) -> None:
        """§6: each finalist covers every identity they have shown to the other."""
        self.in_final = True
        self.finals += 1
        p, q = SEATS_OF[self.in_round]
        n = self.n
        for x, y in ((p, q), (q, p)):
            m = self.shown[x * n + y]
            self.covered[x] |= m
            self.final_cov[x] |= m
            self.log.append(("final_cover", x, m))
        self.log.append(("final", p, q))
        ev.append(Event("final", None, {"finalists": [p, q],
                                        "covered": {str(p): self._names(self.final_cov[p]),
                                                    str(q): self._names(self.final_cov[q])}}))

    @staticmethod
    def _names(mask: int) -> list[str]:
        return list(_NAMES[mask])

    def _end_final(self, winner: int, loser: int | None, pts: int, refute: bool,
                   ev: list[Event]) -> None:
        """§6, §9.4: the winner's points as one sum (may win), then the loser's +1 and a
        refute bonus (both cannot win); reveal; new round started by the winner."""
        ev.append(Event("final_won", winner, {"loser": loser}))
        if self._award(winner, pts, ev, why="final won"):
            return
        if loser is not None:
            self._award(loser, 1, ev, can_win=False, why="final lost")
        if refute:
            self._award(winner, 1, ev, can_win=False, why="refuted accusation")
        self._reveal_and_restart(winner, ev)

    def _reveal_and_restart(self, starter: int, ev: list[Event]) -> None:
        self.last_reveal = [_ident(c) for c in self.card]
        ev.append(Event("reveal", None, {"identities": [IDENTITY_NAMES[x]
                                                        for x in self.last_reveal]}))
        self._new_round(starter, ev)

    # ======================================================================= end
    def is_over(self) -> bool:
        return self.over

    def result(self) -> Result:
        tp = self.tp
        ranks = tuple(1 + sum(1 for o in tp if o > t) for t in tp)
        return Result(tuple(float(t) for t in tp), ranks, self.winner)

    def round_number(self) -> int:
        return self.round_no

    def standing(self) -> list[float]:
        return [float(x) for x in self.tp]

    def stats(self) -> dict[str, Any]:
        return {"rounds": self.round_no, "turns": self.turns, "finals": self.finals}

    def components(self) -> dict[str, int]:
        chips = sum(self.bank) + sum(self.loose) + 3 * sum(self.trios) + self.escrow
        dealt = [c for c in self.card if c >= 0]
        return {"chips": chips, "identity_cards": len(set(dealt)) + NUM_CARDS - len(dealt)}

    # ======================================================================= views
    def _public_key(self) -> tuple[Any, ...]:
        """Every field the seats' public records read, flat (``_SEAT_FIELDS`` picks one
        seat's); only face-up cards are read."""
        return (self.in_round, self.revealed, tuple(self.card) if self.revealed else None,
                *self.tp, *self.loose, *self.trios, *self.covered, *self.start_cover,
                *self.doubt_cov, *self.known_is, *self.known_not)

    def _player_view(self, s: int, fields: tuple[Any, ...]) -> dict[str, Any]:
        """Memoised on the fields it reads (``fields``: its part of ``_public_key``;
        its bits of ``in_round`` and ``revealed``): equal inputs give the same dict."""
        key = (fields, self.in_round >> s & 1, self.card[s] if self.revealed >> s & 1 else None)
        out = _PLAYER_VIEWS.get(key)
        if out is None:
            if len(_PLAYER_VIEWS) > 50_000:
                _PLAYER_VIEWS.clear()
            out = _PLAYER_VIEWS[key] = self._build_player_view(s)
        return out

    def _build_player_view(self, s: int) -> dict[str, Any]:
        i = 3 * s
        out: dict[str, Any] = {
            "in_round": bool(self.in_round >> s & 1),
            "throne_points": self.tp[s],
            "loose": _chips_view(self.loose[i:i + 3]),
            "trios": self.trios[s],
            "covered": _NAME_LISTS[self.covered[s]],
            "start_cover": IDENTITY_NAMES[self.start_cover[s]] if self.start_cover[s] >= 0
            else None,
            "doubt_covered": _NAME_LISTS[self.doubt_cov[s]],
        }
        if self.revealed >> s & 1:
            out["revealed"] = IDENTITY_NAMES[_ident(self.card[s])]
        if self.known_is[s] >= 0:
            out["proven"] = IDENTITY_NAMES[self.known_is[s]]
        if self.known_not[s]:
            out["proven_not"] = _NAME_LISTS[self.known_not[s]]
        return out

    def _log_view(self) -> list[Any]:
        """The log as JSON. A round's log only grows and its entries are tuples, so
        converted entries are kept (per log list: a new round, and a clone, have their
        own) and shared, read-only, by successive views; only new entries are converted.
        While the log does not grow, successive views share the same list too."""
        cache = self.__dict__.get("_log_cache")
        if cache is None or cache[0] is not self.log:
            cache = self._log_cache = [self.log, [], []]
        done = cache[1]
        if len(done) < len(self.log):
            done.extend(self._convert_log(self.log[len(done):]))
            cache[2] = done[:]  # ``done`` keeps growing: views get a copy
        return cache[2]  # type: ignore[no-any-return]

    def _convert_log(self, entries: list[tuple[Any, ...]]) -> list[Any]:
        T = self.tab
        out: list[Any] = []
        for e in entries:
            k = e[0]
            if k == "declare":
                out.append([k, e[1], T.text(e[2])])
            elif k == "execute":
                out.append([k, e[1], T.text(e[2]), list(e[3])])
            elif k == "vote":
                out.append([k, e[1], IDENTITY_NAMES[e[2]], list(SEATS_OF[e[3]]), e[4], e[5]])
            elif k == "cover":
                out.append([k, e[1], IDENTITY_NAMES[e[2]]])
            elif k == "doubt":
                out.append([k, e[1], e[2], IDENTITY_NAMES[e[3]]])
            elif k == "answer":
                out.append([k, e[1], IDENTITY_NAMES[e[2]], "juist" if e[3] else "fout"])
            elif k == "final_cover":
                out.append([k, e[1], self._names(e[2])])
            else:
                out.append([x if not isinstance(x, tuple) else list(x) for x in e])
        return out

    def view(self, seat: int | None) -> dict[str, Any]:
        # Parts that did not change since the last view of this state are the same
        # (read-only) objects: rebuilding them costs more than checking their inputs.
        v: dict[str, Any] = {
            "seat": seat,
            "players": self.n,
            "round": self.round_no,
            "turn": self.turns,
            "phase": PHASE_NAMES[self.phase],
            "active": self.active,
            "to_act": list(self.to_act()),
            "in_final": self.in_final,
            "bank": _chips_view(self.bank),
            "seats": self._seats_view(),
            "pending": self._pending_view(seat),
            "log": self._log_view(),
            "last_reveal": self._reveal_view(),
            "over": self.over,
            "winner": self.winner,
        }
        if seat is not None:
            x = _ident(self.card[seat])
            v["identity"] = IDENTITY_NAMES[x]
            v["identity_original"] = IDENTITY_ORIGINAL[x]
            v["shown_to_me"], v["shown_by_me"] = self._shown_view(seat)
        return v

    def _seats_view(self) -> list[dict[str, Any]]:
        """The public records of all seats: the same list while none of them changed,
        else a new list that keeps the records of the seats that did not change."""
        key = self._public_key()
        cache = self.__dict__.get("_seats_cache")
        if cache is not None and cache[0] == key:
            return cache[2]  # type: ignore[no-any-return]
        n = self.n
        mine = [f(key) for f in _SEAT_FIELDS[n]]
        if cache is None:
            seats = [self._player_view(s, mine[s]) for s in range(n)]
        else:
            old_key, old_mine, old = cache
            bits = (key[0] ^ old_key[0]) | (key[1] ^ old_key[1])  # out / face up
            if key[2] != old_key[2]:  # other cards: those face up are read again
                bits |= key[1]
            seats = [self._player_view(s, mine[s])
                     if bits >> s & 1 or mine[s] != old_mine[s] else old[s] for s in range(n)]
        self._seats_cache = (key, mine, seats)
        return seats

    def _reveal_view(self) -> list[str] | None:
        """The last final's reveal; ``last_reveal`` is replaced, never changed in place."""
        lr = self.last_reveal
        if lr is None:
            return None
        cache = self.__dict__.get("_reveal_cache")
        if cache is None or cache[0] is not lr:
            cache = self._reveal_cache = (lr, [IDENTITY_NAMES[x] for x in lr] if lr else None)
        return cache[1]  # type: ignore[no-any-return]

    def _shown_view(self, seat: int) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        """(shown to ``seat``, shown by ``seat``) per other seat, built once per content
        of ``shown`` (it changes only when information is bought)."""
        cache = self.__dict__.get("_shown_cache")
        if cache is None or cache[0] != self.shown:
            cache = self._shown_cache = (self.shown[:], [None] * self.n)
        got = cache[1][seat]
        if got is None:
            n = self.n
            sh = self.shown
            got = cache[1][seat] = (
                {str(q): self._names(sh[q * n + seat]) for q in range(n) if sh[q * n + seat]},
                {str(a): self._names(sh[seat * n + a]) for a in range(n) if sh[seat * n + a]})
        return got  # type: ignore[no-any-return]

    def _pending_view(self, seat: int | None) -> dict[str, Any]:
        """The turn in progress. Built once per content of the fields it reads; only
        ``my_vote`` depends on the seat."""
        window = self._window_mask()
        key = (self.act, self.protected, self.barons, self.reacted, self.departing, window,
               self.c_seat, self.c_ident, self.c_kind, self.opener, self.phase, self.active,
               self.show_q, self.show_k, self.give_pending, self.pass_judge, self.pass_type,
               *self.fine_t, *self.forgive_t)
        cache = self.__dict__.get("_pending_cache")
        if cache is not None and cache[0] == key:
            p = cache[1]
        else:
            p = self._build_pending_view(window)
            self._pending_cache = (key, p)
        if seat is not None and self.c_seat >= 0 and self.voted >> seat & 1:
            # votes run only in the vote phase, whose pending view ends with the claim
            p = {**p, "my_vote": "doubt" if self.votes_yes >> seat & 1 else "trust"}
        return p  # type: ignore[no-any-return]

    def _build_pending_view(self, window: int) -> dict[str, Any]:
        T = self.tab
        p: dict[str, Any] = {
            "action": T.text(self.act) if self.act >= 0 else None,
            "protected": _SEAT_LISTS[self.protected],
            "barons": _SEAT_LISTS[self.barons],
            "fines": _chips_by_seat(self.fine_t) if max(self.fine_t) >= 0 else {},
            "forgivenesses": _chips_by_seat(self.forgive_t) if max(self.forgive_t) >= 0
            else {},
            "reacted": _SEAT_LISTS[self.reacted],
            "departing": self.departing,
            "window": _SEAT_LISTS[window],
        }
        if self.c_seat >= 0:
            p["claim"] = {"seat": self.c_seat, "identity": IDENTITY_NAMES[self.c_ident],
                          "for": CLAIM_KIND_NAMES[self.c_kind], "opener": self.opener}
        if self.phase == P_SHOW:
            p["show"] = {"by": self.show_q, "to": self.active, "count": self.show_k}
        if self.phase == P_GIVE:
            p["giving"] = _SEAT_LISTS[self.give_pending]
        if self.phase == P_PASS:
            p["pass"] = {"judge": self.pass_judge, "type": CHIP_NAMES[self.pass_type]}
        return p

    def full_view(self) -> dict[str, Any]:
        v = self.view(None)
        n = self.n
        v["cards"] = [CARD_CODES[c] if c >= 0 else None for c in self.card]
        v["identities"] = [IDENTITY_NAMES[_ident(c)] if c >= 0 else None for c in self.card]
        v["shown"] = {f"{q}>{a}": self._names(self.shown[q * n + a])
                      for q in range(n) for a in range(n) if self.shown[q * n + a]}
        v["votes"] = {"voted": list(SEATS_OF[self.voted]),
                      "doubt": list(SEATS_OF[self.votes_yes])}
        v["move_number"] = self.move_number
        return v

    def _position(self) -> dict[str, Any]:
        """This state as a position's ``"state"`` object (``position.py``)."""
        from . import position

        return position.write(self)

    # ======================================================================= copies
    def clone(self) -> HoaxState:
        return self._copy(self.shuffler.copy())

    def _copy(self, shuffler: Shuffler) -> HoaxState:
        """A copy with ``shuffler`` as its chance (determinise passes a fresh one)."""
        s = object.__new__(HoaxState)
        d = self.__dict__.copy()
        d.pop("_legal_cache", None)
        for cache in ("_log_cache", "_seats_cache", "_reveal_cache", "_shown_cache",
                      "_pending_cache"):
            d.pop(cache, None)
        for key in ("tp", "card", "covered", "start_cover", "doubt_cov", "final_cov", "shown",
                    "known_is", "known_not", "loose", "trios", "bank", "log", "fine_t",
                    "forgive_t"):
            d[key] = d[key][:]
        if self.last_reveal is not None:
            d["last_reveal"] = self.last_reveal[:]
        d["shuffler"] = shuffler
        s.__dict__ = d
        return s

    def _claim_weights(self) -> dict[int, list[float]]:
        """Per seat that made claims this round: a sampling weight per identity,
        ``CLAIM_WEIGHT`` per claim of it (a repeat: its square root). Public only: the
        declared personal actions and the Protect / Illegal / Fine / Forgive reactions
        in the round's log. A claim disproved by a doubt is already a hard constraint."""
        counts: dict[int, list[int]] = {}
        for p, x in claims_in(self.log, self.tab):
            counts.setdefault(p, [0] * NUM_IDENTITIES)[x] += 1
        root = CLAIM_WEIGHT ** 0.5
        return {p: [CLAIM_WEIGHT * root ** (c - 1) if c else 1.0 for c in cs]
                for p, cs in counts.items()}

    def determinise(self, seat: int, rng: random.Random) -> HoaxState:
        """Resample what ``seat`` cannot see, respecting all it knows:

        * identities of others: not their covers (start, doubt, final), not what they
          showed ``seat`` as false, not what a "fout" answer refuted; equal to what a
          "juist" answer proved; face-up cards as they are; two copies of each;
          weighted by the round's public claims (``_claim_weights``): a seat that
          claimed an identity is that identity more often than one that did not;
        * what others showed each other (only the count is public), consistent with
          the resampled identities;
        * how the others voted in a vote still running (who voted is public).
        """
        s = self._copy(self.shuffler.reseeded(rng))
        n = self.n
        known = {seat} | {p for p in range(n) if self.revealed >> p & 1}
        cards = self.card
        fixed: dict[int, int] = {p: cards[p] for p in known if cards[p] >= 0}
        unknown = [p for p in range(n) if p not in fixed and cards[p] >= 0]
        # seats whose identity is proven (but card face down): identity fixed, copy free
        pool = [c for c in range(NUM_CARDS) if c not in fixed.values()]
        allowed = {}
        for p in unknown:
            if self.known_is[p] >= 0:
                allowed[p] = 1 << self.known_is[p]
            else:
                allowed[p] = ALL_IDENTITIES & ~self.covered[p] & ~self.known_not[p] \
                    & ~self.shown[p * n + seat]
        assignment = _sample_cards(unknown, allowed, pool, rng, self._claim_weights())
        for p, c in assignment.items():
            s.card[p] = c
        # what others showed each other, consistent with the new identities
        for q in range(n):
            if q == seat or cards[q] < 0:
                continue
            for a in range(n):
                if a == seat or a == q:
                    continue
                k = self.shown[q * n + a].bit_count()
                if not k:
                    continue
                if self.in_final and self.in_round >> q & 1 and self.in_round >> a & 1:
                    continue  # public: covered as final covers
                sc = self.start_cover[q]
                base = ALL_IDENTITIES & ~(1 << _ident(s.card[q])) \
                    & ~(1 << sc if sc >= 0 else 0)
                free = base & ~self.doubt_cov[q]
                # §3 BuyInfo: shows may repeat doubt covers (shown before the doubt): as few
                # as fit, and as many as leave q the show_k it owes this turn's buyer
                owed = self.show_k if self.phase == P_SHOW and q == self.show_q \
                    and a == self.active else 0
                again = max(0, k + owed - free.bit_count())
                ids = [x for x in range(NUM_IDENTITIES) if free >> x & 1]
                m = sum(1 << x for x in rng.sample(ids, k - again))
                if again:
                    covs = [x for x in range(NUM_IDENTITIES) if self.doubt_cov[q] >> x & 1]
                    m |= sum(1 << x for x in rng.sample(covs, again))
                s.shown[q * n + a] = m
        # votes cast by others in a running vote
        if self.phase == P_VOTE:
            yes = self.votes_yes & ((1 << seat) | (1 << self.opener))
            for p in SEATS_OF[self.voted & ~(1 << seat) & ~(1 << self.opener)]:
                if rng.random() < 0.5:
                    yes |= 1 << p
            s.votes_yes = yes
        return s


#: How much one public claim of identity X multiplies the chance that a determinisation
#: gives the claimant X (a repeat counts half as much, in log terms, as a bluffer repeats
#: a story too). [DECISION] 4: the heuristic bot's own model puts a claim at 5 (1-b)/b for
#: a bluff rate b of 30 %, about 12; a sample must stay open to bluffs by every kind of
#: opponent (random play claims uniformly), so the search assumes a third of that.
CLAIM_WEIGHT = 4.0


def _sample_cards(seats: list[int], allowed: dict[int, int], pool: list[int],
                  rng: random.Random,
                  weights: dict[int, list[float]] | None = None) -> dict[int, int]:
    """A random assignment of pool cards to seats with each card's identity allowed.

    With ``weights`` (per seat, per identity: claims made), seats in random order each
    draw a card with probability proportional to its identity's weight among the cards
    still allowed. Otherwise, and when that runs into a dead end, rejection sampling
    over random deals (uniform over consistent deals), then a randomised depth-first
    search if the constraints are tight. A consistent assignment always exists (the
    true one)."""
    if not seats:
        return {}
    if weights:
        for _ in range(20):
            order = seats[:]
            rng.shuffle(order)
            left = list(pool)
            acc: dict[int, int] = {}
            for p in order:
                w = weights.get(p)
                cands = [c for c in left if allowed[p] >> (c >> 1) & 1]
                if not cands:
                    break
                c = rng.choices(cands, [w[c >> 1] for c in cands])[0] if w else \
                    rng.choice(cands)
                acc[p] = c
                left.remove(c)
            else:
                return acc
    for _ in range(40):
        deal = rng.sample(pool, len(seats))
        if all(allowed[p] >> (c >> 1) & 1 for p, c in zip(seats, deal, strict=True)):
            return dict(zip(seats, deal, strict=True))
    order = sorted(seats, key=lambda p: allowed[p].bit_count())

    def dfs(i: int, left: list[int], acc: dict[int, int]) -> dict[int, int] | None:
        if i == len(order):
            return acc
        p = order[i]
        cands = [c for c in left if allowed[p] >> (c >> 1) & 1]
        rng.shuffle(cands)
        for c in cands:
            acc[p] = c
            rest = [d for d in left if d != c]
            got = dfs(i + 1, rest, acc)
            if got is not None:
                return got
        acc.pop(p, None)
        return None

    res = dfs(0, list(pool), {})
    if res is None:
        raise AssertionError("no consistent deal: the knowledge constraints contradict")
    return res
