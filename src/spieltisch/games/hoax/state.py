"""HOAX: the rules (spec: ``rules.md`` beside this file; § numbers quote hoax.md).

The whole turn is an explicit phase machine (``HoaxState.phase``, a ``Phase``): the
pipeline of §3 (S0 declare … S9 end) is a sequence of phases, and every identity
claim passes through the doubt sub-machine (DOUBT window, then VOTE; ``claims.py``)
before it takes effect. The phase table at the end of ``HoaxState`` says, per phase,
who acts, how their legal actions are found and applied, why an attempt is refused,
what opens and closes the phase and whether it is timed; ``to_act``, ``out_of_turn``,
``legal_actions``, ``apply``, ``judge`` and ``deadlines`` consult it
(``HoaxState.PHASES.markdown()`` prints it; ``rules.md`` shows it).

A window with nobody eligible is skipped; an open window closes when its deadline
(``CLOCK`` applies ``close``) passes without a reaction. Building a trio is a free
action of any player in the round at any time of a turn (out of turn, §3) and never
closes a window.

The other jobs live beside this module: the views (``views.py``, one ``HoaxViews`` per
game owns their caches), sampling for search (``sampling.py``) and positions
(``position.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from enum import IntEnum
from typing import TYPE_CHECKING, Any, ClassVar

from ...core.cards import Shuffler
from ...core.fields import Copy, StateFields
from ...core.game import (
    CLOCK,
    Check,
    ConfigError,
    Deadline,
    Event,
    Game,
    IllegalAction,
    Result,
    State,
    Told,
    action_arg,
    illegal,
    ranks_from_scores,
    seat_arg,
    word_arg,
)
from ...core.observation import Observer
from ...core.phases import PhaseTable, Rule, Who
from ...core.position import Fields
from ...i18n import N_
from . import sampling
from .cards import (
    ALL_IDENTITIES,
    BARON,
    CARD_CODES,
    CHIP_NAMES,
    CHIPS_PER_TYPE,
    CLAIM_OF_KIND,
    IDENTITY_NAMES,
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
    MAGICIAN,
    MONK,
    NUM_CARDS,
    NUM_IDENTITIES,
    SEATS_OF,
    TRADE_PAIRS,
    ActionTable,
    Kind,
    action_table,
)
from .claims import CLAIM_FOR, Claim, ClaimFor, claim_done, make_claim, open_doubt, vote
from .phases import CHIP_WINDOWS, PHASE, PHASE_NAMES, TRIO_PHASES, WINDOWS, Phase
from .views import HoaxViews, names

WIN_POINTS = 10
#: The kinds of action declared in S0 (§3: personal actions, buy, accuse).
DECLARED = (Kind.TAKEGOLD, Kind.TAX, Kind.PRESS, Kind.COLLECT, Kind.JWINE, Kind.JGRAIN,
            Kind.EARN, Kind.TRADE, Kind.ENCHANT, Kind.STEAL, Kind.HARVEST, Kind.BUY,
            Kind.ACCUSE)
#: The reaction each window phase takes (S5–S7), and the phase each reaction needs.
_KINDS = tuple(Kind)
_REACTION_PHASE = {K_ILLEGAL: Phase.ILLEGAL, K_FINE: Phase.FINE, K_FORGIVE: Phase.FORGIVE}



if TYPE_CHECKING:
    from ...narration import Context

#: Each phase as a refusal names it ("Ada may not act now (doubting the claim)").
_STEP_WORDS: dict[Phase, str] = {
    Phase.COVER: N_("covering identities"),
    Phase.CHIP: N_("taking starting chips"),
    Phase.DECLARE: N_("declaring an action"),
    Phase.DOUBT: N_("doubting the claim"),
    Phase.VOTE: N_("voting on the doubt"),
    Phase.PROTECT: N_("protecting as Magician"),
    Phase.GIVE: N_("giving chips for the collection"),
    Phase.SHOW: N_("showing identities"),
    Phase.ILLEGAL: N_("declaring the action illegal"),
    Phase.FINE: N_("fining the actor"),
    Phase.FORGIVE: N_("forgiving the actor"),
    Phase.SETTLE: N_("paying the fine"),
    Phase.PASS: N_("passing a chip of the fine on"),
    Phase.OVER: N_("the end of the game"),
}


def _step_arg(phase: Phase) -> Told:
    """A phase in a reason: its view name (``doubt``) to the engine, words to the reader."""
    return word_arg(_STEP_WORDS[phase], PHASE_NAMES[phase])


def _identity_arg(name: str) -> Told:
    """An identity in a reason: ``baron`` to the engine, the card's name to the reader."""
    def render(ctx: Context) -> str:
        from .narration import identity  # narration imports this module

        return identity(name, ctx)
    return Told(name, render)


class HoaxGame(Game):
    """A configured HOAX game: player count, options, action table and views."""

    card_codes = CARD_CODES

    def __init__(self, num_players: int, options: dict[str, Any]) -> None:
        super().__init__(num_players, options)
        self.first_player: int = options["first_player"]
        self.reaction_seconds: float = float(options["reaction_seconds"])
        if self.first_player >= num_players:
            raise ConfigError(f"option 'first_player' of hoax must be below the player count "
                              f"{num_players}, not {self.first_player}")
        self.table: ActionTable = action_table(num_players)
        #: Builds the views of this game's states and owns their caches.
        self.views = HoaxViews(self)

    @property
    def num_actions(self) -> int:
        return self.table.size

    def _new_state(self, rng: random.Random, stacked: list[list[int]]) -> HoaxState:
        """§2: a new game starts with the deal of round 1."""
        state = HoaxState.empty(self, Shuffler(rng, stacked))
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
        """An action from its text form (``ActionTable.parse``); a clear error if none."""
        if not isinstance(obj, str):
            raise IllegalAction(N_("an action is a string such as 'farmer harvest', not "
                                   "{value}"), None, None, {"value": repr(obj)})
        if not obj.strip():
            raise IllegalAction(N_("empty action"))
        action = self.table.parse(obj)
        if action is None:
            raise IllegalAction(
                N_("not an action: {value} (try 'farmer harvest', 'baron tax wine', "
                   "'thief steal 2 gold 2 1', 'accuse 3 monk', 'doubt', 'vote doubt', "
                   "'trio')"), None, None, {"value": repr(obj)})
        return action

    def action_kind(self, action: int) -> Kind:
        """The kind of ``action`` (the phase table lists the kinds each phase allows)."""
        return _KINDS[self.table.kind[action]]

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


def _nobody(state: HoaxState) -> tuple[int, ...]:
    return ()


def _nothing(state: HoaxState, seat: int) -> list[int]:
    return []


def _no_deadline(state: HoaxState) -> list[Deadline]:
    return []


def _nothing_applies(state: HoaxState, seat: int, action: int) -> list[Event]:
    raise AssertionError(f"nobody acts in phase {PHASE_NAMES[state.phase]}")


def _nothing_closes(state: HoaxState, ev: list[Event]) -> None:
    """Only a window closes (its deadline): elsewhere there is nothing to close."""


def _indexed(members: type[IntEnum], handlers: dict[Any, Callable[..., Any]],
             default: Callable[..., Any] | None = None) -> tuple[Callable[..., Any], ...]:
    """``handlers`` as a tuple indexed by the members of an IntEnum (values 0, 1, …);
    ``default`` for the members without one (without a default, each needs one)."""
    missing = [m.name for m in members if m not in handlers]
    if missing and default is None:
        raise TypeError(f"no handler for {', '.join(missing)}")
    return tuple(handlers.get(m, default) for m in members)  # type: ignore[misc]


class HoaxState(State[HoaxGame]):
    """One position of a HOAX game: every seat's identity, covers, chips and points,
    the round's log and the turn in progress."""

    #: Every field; a copy (``clone``, ``determinise``) shares values and copies lists.
    FIELDS = StateFields(
        tab=Copy.VALUE, n=Copy.VALUE,
        # the game
        tp=Copy.LIST, over=Copy.VALUE, winner=Copy.VALUE, round_no=Copy.VALUE,
        turns=Copy.VALUE, finals=Copy.VALUE,
        last_reveal=Copy.VALUE,  # replaced at each reveal, never changed in place
        # the round (§2)
        card=Copy.LIST, in_round=Copy.VALUE, covered=Copy.LIST, start_cover=Copy.LIST,
        doubt_cov=Copy.LIST, final_cov=Copy.LIST, shown=Copy.LIST, revealed=Copy.VALUE,
        known_is=Copy.LIST, known_not=Copy.LIST, loose=Copy.LIST, trios=Copy.LIST,
        bank=Copy.LIST, chip_pending=Copy.VALUE, in_final=Copy.VALUE, active=Copy.VALUE,
        phase=Copy.VALUE, log=Copy.LIST,
        # the turn (§3)
        act=Copy.VALUE, departing=Copy.VALUE, protected=Copy.VALUE,
        protect_tried=Copy.VALUE, reacted=Copy.VALUE, barons=Copy.VALUE, fine_t=Copy.LIST,
        forgive_t=Copy.LIST, give_pending=Copy.VALUE, show_q=Copy.VALUE, show_k=Copy.VALUE,
        pass_judge=Copy.VALUE, pass_type=Copy.VALUE, escrow=Copy.VALUE,
        win_mask=Copy.VALUE, window_since=Copy.VALUE,
        window_deadline=Copy.VALUE,  # immutable, rebuilt when the window changes
        # the claim under doubt (§5; ``claims.py``)
        claim=Copy.VALUE, opener=Copy.VALUE, votes_yes=Copy.VALUE, voted=Copy.VALUE,
        vote_pending=Copy.VALUE,
    )


    def _copy(self, shuffler: Shuffler) -> HoaxState:
        """A copy with ``shuffler`` as its chance (``FIELDS.copy_source``)."""
        s = HoaxState(self.game, shuffler)
        s.move_number = self.move_number
        s.opening = self.opening
        s.record_events = self.record_events
        s.tab = self.tab
        s.n = self.n
        s.tp = self.tp[:]
        s.over = self.over
        s.winner = self.winner
        s.round_no = self.round_no
        s.turns = self.turns
        s.finals = self.finals
        s.last_reveal = self.last_reveal
        s.card = self.card[:]
        s.in_round = self.in_round
        s.covered = self.covered[:]
        s.start_cover = self.start_cover[:]
        s.doubt_cov = self.doubt_cov[:]
        s.final_cov = self.final_cov[:]
        s.shown = self.shown[:]
        s.revealed = self.revealed
        s.known_is = self.known_is[:]
        s.known_not = self.known_not[:]
        s.loose = self.loose[:]
        s.trios = self.trios[:]
        s.bank = self.bank[:]
        s.chip_pending = self.chip_pending
        s.in_final = self.in_final
        s.active = self.active
        s.phase = self.phase
        s.log = self.log[:]
        s.act = self.act
        s.departing = self.departing
        s.protected = self.protected
        s.protect_tried = self.protect_tried
        s.reacted = self.reacted
        s.barons = self.barons
        s.fine_t = self.fine_t[:]
        s.forgive_t = self.forgive_t[:]
        s.give_pending = self.give_pending
        s.show_q = self.show_q
        s.show_k = self.show_k
        s.pass_judge = self.pass_judge
        s.pass_type = self.pass_type
        s.escrow = self.escrow
        s.win_mask = self.win_mask
        s.window_since = self.window_since
        s.window_deadline = self.window_deadline
        s.claim = self.claim
        s.opener = self.opener
        s.votes_yes = self.votes_yes
        s.voted = self.voted
        s.vote_pending = self.vote_pending
        return s

    def _empty_fields(self) -> None:
        """Every field of the game's own at its value before the deal (``empty``: a
        new table, which a deal or a position fills)."""
        n = self.game.num_players
        self.tab = self.game.table
        self.n = n
        self.tp = [0] * n         # throne points (§6)
        self.over = False
        self.winner: int | None = None
        self.round_no = 0
        self.turns = 0          # turns begun in the whole game
        self.finals = 0
        self.last_reveal: list[int] | None = None  # identities shown after the last final
        self._round_fields(-1)

    def _round_fields(self, starter: int) -> None:
        """The fields of a round (§2) at their values before the deal."""
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
        self.loose = [0] * (3 * n)    # loose[3*p+t]: p's loose chips of type t
        self.trios = [0] * n
        self.bank = [CHIPS_PER_TYPE] * 3
        self.chip_pending = (1 << n) - 1
        self.in_final = False
        self.active = starter
        self.phase = PHASE.COVER
        self.log: list[tuple[Any, ...]] = []
        self._turn_fields()

    def _turn_fields(self) -> None:
        """The fields of a turn (§3) at their values before the declaration."""
        n = self.n
        self.act = -1             # the declared action (S0)
        self.departing = False    # the actor lost an unjustified claim doubt (S1)
        self.protected = 0
        self.protect_tried = 0
        self.reacted = 0          # used their one Illegal / Fine / Forgive
        self.barons = 0           # standing illegal declarations
        self.fine_t = [-1] * n    # standing fines: the chip type per Judge
        self.forgive_t = [-1] * n
        self.give_pending = 0
        self.show_q = -1          # who shows the buyer (§3 BuyInfo) …
        self.show_k = 0           # … how many identities
        self.pass_judge = -1
        self.pass_type = -1
        self.escrow = 0           # the chip a Judge must pass on while choosing the Baron
        self.win_mask = 0         # who the open window admits
        self.window_since = 0
        self.window_deadline: Deadline | None = None
        self.claim: Claim | None = None
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
                            {s: {"identity": IDENTITY_NAMES[self.card[s] >> 1]}
                             for s in range(n)}))

    def _begin_turn(self, seat: int) -> None:
        """S0: ``seat``'s turn begins with its declaration."""
        self._turn_fields()
        self.active = seat
        self.phase = PHASE.DECLARE
        self.turns += 1

    # ======================================================================= who acts
    def to_act(self) -> Sequence[int]:
        out: Sequence[int] = self._SEATS[self.phase](self)
        return out

    def out_of_turn(self) -> Sequence[int]:
        out: Sequence[int] = self._WINDOW[self.phase](self)
        return out

    def phase_name(self) -> str:
        out: str = PHASE_NAMES[self.phase]
        return out

    def _covering(self) -> list[int]:
        """§2: the seats that have not chosen their cover."""
        return [s for s in range(self.n) if self.start_cover[s] < 0]

    def _taking_chips(self) -> tuple[int, ...]:
        """§2: the seats that have not taken their starting chip."""
        return SEATS_OF[self.chip_pending]

    def _the_active(self) -> tuple[int, ...]:
        return (self.active,)

    def _voters(self) -> tuple[int, ...]:
        """§5.2: the seats that have not voted yet."""
        return SEATS_OF[self.vote_pending]

    def _givers(self) -> tuple[int, ...]:
        """S3 Monk collect: the payers with a choice of chip who have not given."""
        return SEATS_OF[self.give_pending]

    def _the_shower(self) -> tuple[int, ...]:
        return (self.show_q,)

    def _the_judge(self) -> tuple[int, ...]:
        return (self.pass_judge,)

    def _trio_builders(self) -> tuple[int, ...]:
        """§3: seats in the round that can build a trio now (out of turn)."""
        return SEATS_OF[self._trio_mask()]

    def _reactors(self) -> tuple[int, ...]:
        """The seats the open window admits, and the trio builders (§3)."""
        return SEATS_OF[self._window_mask() | self._trio_mask()]

    def _trio_mask(self) -> int:
        """Seats in the round with one loose gold, wine and grain (§3 trio)."""
        m = 0
        lo = self.loose
        for s in SEATS_OF[self.in_round]:
            i = 3 * s
            if lo[i] and lo[i + 1] and lo[i + 2]:
                m |= 1 << s
        return m

    def _window_mask(self) -> int:
        """Who may react in the open window; nobody in a Fine or Forgive window when the
        actor holds no loose chip (§9.1: such a reaction would be void)."""
        ph = self.phase
        if ph in WINDOWS:
            if ph in CHIP_WINDOWS:
                i = 3 * self.active
                if not (self.loose[i] or self.loose[i + 1] or self.loose[i + 2]):
                    return 0
            return self.win_mask
        return 0

    def deadlines(self) -> list[Deadline]:
        out: list[Deadline] = self._DEADLINE[self.phase](self)
        return out

    def _window_deadline(self) -> list[Deadline]:
        """A reaction window closes after ``reaction_seconds`` without a reaction, or
        once every eligible seat has passed (the spec polls "until everyone passes")."""
        d = self.window_deadline
        if d is None or d.since != self.window_since:
            d = self.window_deadline = Deadline(
                CLOCK, self.tab.close, self.game.reaction_seconds, self.window_since,
                f"{PHASE_NAMES[self.phase]} window closes", passable=True)
        return [d]

    # ======================================================================= legality
    def _legal_actions(self, seat: int) -> list[int]:
        """The phase rule's legal actions of ``seat``, and a trio when it can build one."""
        ph = self.phase
        out: list[int] = self._LEGAL[ph](self, seat)
        if ph in TRIO_PHASES and self.in_round >> seat & 1:
            i = 3 * seat
            lo = self.loose
            if lo[i] and lo[i + 1] and lo[i + 2]:  # §3: a trio, at any time of a turn
                out = out + [self.tab.trio] if out else [self.tab.trio]
        return out

    def _legal_cover(self, seat: int) -> list[int]:
        """§2: cover any identity but one's own."""
        if self.start_cover[seat] >= 0:
            return []
        own = self.card[seat] >> 1
        return [self.tab.cover[x] for x in range(NUM_IDENTITIES) if x != own]

    def _legal_chip(self, seat: int) -> list[int]:
        """§2: take a starting chip of a type the bank still holds."""
        if not self.chip_pending >> seat & 1:
            return []
        return [self.tab.chip[t] for t in range(3) if self.bank[t]]

    def _legal_declare(self, seat: int) -> list[int]:
        """S0: the active seat declares an action."""
        return self._declare_actions(seat) if seat == self.active else []

    def _legal_vote(self, seat: int) -> list[int]:
        """§5.2: each voter votes Doubt or Trust."""
        if not self.vote_pending >> seat & 1:
            return []
        return [self.tab.vote_doubt, self.tab.vote_trust]

    def _legal_doubt(self, seat: int) -> list[int]:
        """§5.1: any other seat in the round may doubt the claim."""
        return [self.tab.doubt] if self._window_mask() >> seat & 1 else []

    def _legal_protect(self, seat: int) -> list[int]:
        """S2, §9.9: a target may protect as Magician."""
        return [self.tab.protect] if self._window_mask() >> seat & 1 else []

    def _legal_illegal(self, seat: int) -> list[int]:
        """S5: a seat may declare the action illegal as Baron."""
        return [self.tab.illegal] if self._window_mask() >> seat & 1 else []

    def _legal_fine(self, seat: int) -> list[int]:
        """S6: a Judge fines a chip type the actor holds loose (§9.1)."""
        return self._chip_reactions(seat, self.tab.fine)

    def _legal_forgive(self, seat: int) -> list[int]:
        """S7: a Monk forgives for a chip type the actor holds loose (§9.1)."""
        return self._chip_reactions(seat, self.tab.forgive)

    def _chip_reactions(self, seat: int, by_type: list[int]) -> list[int]:
        """A Fine or Forgive per chip type the actor holds loose (§9.1), for the window."""
        if not self._window_mask() >> seat & 1:
            return []
        i = 3 * self.active
        lo = self.loose
        return [by_type[t] for t in range(3) if lo[i + t]]

    def _legal_give(self, seat: int) -> list[int]:
        """S3 Monk collect: a payer with a choice gives one loose chip of any type."""
        if not self.give_pending >> seat & 1:
            return []
        i = 3 * seat
        return [self.tab.give[t] for t in range(3) if self.loose[i + t]]

    def _legal_show(self, seat: int) -> list[int]:
        """§3 BuyInfo: show exactly ``show_k`` identities one may still show as false."""
        if seat != self.show_q:
            return []
        allowed = self.showable(seat, self.active)
        tab = self.tab
        return [tab.show[m] for m in tab.show_masks_by_size[self.show_k] if m & allowed == m]

    def _legal_settle(self, seat: int) -> list[int]:
        """S8: pay one standing fine or forgiveness, or protect as Magician."""
        if seat != self.active:
            return []
        out = [self.tab.pay[s] for s in self._settle_options()]
        if not self.covered[seat] >> MAGICIAN & 1:
            out.append(self.tab.protect)
        return out

    def _legal_pass(self, seat: int) -> list[int]:
        """§7.9: the paid Judge passes one chip to a Baron of its choice."""
        if seat != self.pass_judge:
            return []
        return [self.tab.pass_to[b] for b in SEATS_OF[self._pass_barons()]]

    def _declare_actions(self, actor: int) -> list[int]:
        """S0: personal actions of every identity ``actor`` has not covered; general ones."""
        tab = self.tab
        n = self.n
        cov = self.covered[actor]
        lo = self.loose
        trios = self.trios
        others_mask = self.in_round & ~(1 << actor)
        others = SEATS_OF[others_mask]
        out = tab.simple_by_cover[cov][:]
        if not cov & 8:  # Merchant
            ia = 3 * actor
            for pair, (give, get) in enumerate(TRADE_PAIRS):
                have = lo[ia + give]
                if not have:
                    continue
                # m = 1 .. min(have, what the partner holds) chips
                m = self.bank[get]
                if m:
                    out.extend(tab.trade[n][pair][:have if have < m else m])
                for q in others:
                    m = lo[3 * q + get]
                    if m:
                        out.extend(tab.trade[q][pair][:have if have < m else m])
        if not cov & 16:  # Magician
            out.extend(tab.enchant_by_seats[others_mask])
        if not cov & 32:  # Thief
            for q in others:
                iq = 3 * q
                tq = trios[q]
                for t in range(3):
                    lq = lo[iq + t]
                    if not (lq or tq):
                        continue
                    st = tab.steal[q][t]
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
        if trios[actor]:
            # §3 BuyInfo: any k the buyer can pay; k is reduced on declaring (``_buy``),
            # so only a seat with nothing left to show (k would be 0) is not offered
            for q in others:
                if self.showable(q, actor):
                    out.extend(tab.buy[q][:trios[actor]])
        out.extend(tab.accuse_by_seats[others_mask])
        return out

    def showable(self, shower: int, buyer: int) -> int:
        """§3 BuyInfo: the identities ``shower`` may still show ``buyer`` as false (its
        own identity excluded), as a mask.

        The count never depends on the shower's hidden identity: the covers and earlier
        shows are all false identities, so exactly one more (the true one) is excluded.
        """
        sc = self.start_cover[shower]
        return ALL_IDENTITIES & ~(1 << (self.card[shower] >> 1)) \
            & ~(1 << sc if sc >= 0 else 0) & ~self.doubt_cov[shower] \
            & ~self.shown[shower * self.n + buyer]

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
        """§7.9: the Barons in the round a paid Judge may pass a chip to."""
        return self.barons & self.in_round & ~(1 << self.pass_judge)

    # ======================================================================= judging
    def _why_illegal(self, seat: int, action: int) -> Check:
        """Why an unlisted action is refused: the phase rule's reason (``why``)."""
        if self.tab.kind[action] == K_TRIO:
            return illegal(N_("a trio needs one loose gold, wine and grain"))
        why = self._WHY[self.phase]
        return why(self, seat, action) if why is not None else self._why_not_now(seat, action)

    def _why_not_now(self, seat: int, action: int) -> Check:
        """The reason when no rule of the phase names a better one."""
        phase = _step_arg(self.phase)
        if seat not in self.may_act():
            return illegal(N_("{seat} may not act now ({phase})"), seat=seat_arg(seat),
                           phase=phase)
        return illegal(N_("{action} is not legal now ({phase})"),
                       action=action_arg(self.game, action), phase=phase)

    def _why_cover(self, seat: int, action: int) -> Check:
        """§2: the cover is an identity that is not one's own."""
        if self.tab.kind[action] == K_COVER and self.card[seat] >> 1 == self.tab.p1[action]:
            return illegal(N_("you must cover an identity that is not your own"))
        return self._why_not_now(seat, action)

    def _why_declare(self, seat: int, action: int) -> Check:
        """S0: a buyer pays a trio per identity (§3 BuyInfo); nobody claims an identity
        they covered (§2, §5.4)."""
        if seat == self.active:
            tab = self.tab
            kind = tab.kind[action]
            if kind == K_BUY:
                shower, count = tab.p1[action], tab.p2[action]
                if count > self.trios[seat]:
                    return illegal(N_("buying {count} identities costs {count} trios; you "
                                      "have {trios}"), count=count, trios=self.trios[seat])
                if shower != seat and self.in_round >> shower & 1 \
                        and not self.showable(shower, seat):
                    return illegal(N_("{seat} has no identity left to show you"),
                                   seat=seat_arg(shower))
            claim = CLAIM_OF_KIND[kind]
            if claim >= 0 and self.covered[seat] >> claim & 1:
                return illegal(N_("you have covered the {identity} and may not claim it"),
                               identity=_identity_arg(IDENTITY_NAMES[claim]))
        return self._why_not_now(seat, action)

    def _why_reaction(self, seat: int, action: int) -> Check:
        """§4: one Illegal, Fine or Forgive per player and action, never to one's own."""
        want = _REACTION_PHASE.get(self.tab.kind[action])
        if want is not None:
            if seat == self.active:
                return illegal(N_("nobody may react with Illegal, Fine or Forgive to their "
                                  "own action"))
            if self.reacted >> seat & 1:
                return illegal(N_("each player makes at most one of Illegal, Fine or Forgive "
                                  "per action (a Baron who declared it illegal cannot be its "
                                  "Judge, §4)"))
            if want is not self.phase:
                return illegal(N_("{step} is not possible now (now: {phase})"),
                               step=_step_arg(want), phase=_step_arg(self.phase))
        return self._why_not_now(seat, action)

    # ======================================================================= applying
    def _apply(self, seat: int, action: int) -> list[Event]:
        """A trio (any time, §3) or a window's close (its deadline); else the phase rule's
        ``apply``."""
        kind = self.tab.kind[action]
        if kind == K_TRIO:
            ev: list[Event] = []
            self._build_trio(seat, ev)
            self._after_trio(seat, ev)
            return ev
        if kind == K_CLOSE:
            ev = [Event("close", None, {"window": PHASE_NAMES[self.phase]})]
            self._close_window(ev)
            return ev
        return self._APPLY[self.phase](self, seat, action)  # type: ignore[no-any-return]

    def _apply_cover(self, seat: int, action: int) -> list[Event]:
        """§2: a seat covers an identity; the last cover starts the chip phase."""
        x = self.tab.p1[action]
        self.start_cover[seat] = x
        self.covered[seat] |= 1 << x
        self.log.append(("cover", seat, x))
        if min(self.start_cover) >= 0:
            self.phase = PHASE.CHIP
        return [Event("cover", seat, {"identity": IDENTITY_NAMES[x]})]

    def _apply_chip(self, seat: int, action: int) -> list[Event]:
        """§2: a seat takes a starting chip; the last one starts the first turn."""
        t = self.tab.p1[action]
        self.chip_pending &= ~(1 << seat)
        self._gain(seat, t, 1)
        ev = [Event("take", seat, {"type": CHIP_NAMES[t]})]
        if not self.chip_pending:
            self._begin_turn(self.active)
            ev.append(Event("turn", self.active, {"turn": self.turns}))
        return ev

    def _apply_declare(self, seat: int, action: int) -> list[Event]:
        """S0: a personal action is a claim (→ doubt); buy and accuse act at once."""
        tab = self.tab
        kind = tab.kind[action]
        self.act = action
        self.log.append(("declare", seat, action))
        claim = CLAIM_OF_KIND[kind]
        ev = [Event("declare", seat, {"action": tab.text(action),
                                      "as": IDENTITY_NAMES[claim] if claim >= 0 else None})]
        if claim >= 0:
            make_claim(self, seat, CLAIM_FOR.ACTION, -1, ev)
        elif kind == K_BUY:
            self._buy(seat, tab.p1[action], tab.p2[action], ev)
        else:  # K_ACCUSE
            self._accuse(seat, tab.p1[action], tab.p2[action], ev)
        return ev

    def _apply_protect(self, seat: int, action: int) -> list[Event]:
        """S2: a target claims the Magician to protect itself (one try per turn)."""
        self.protect_tried |= 1 << seat
        self.log.append(("protect", seat))
        ev = [Event("protect", seat, {"as": "magician"})]
        make_claim(self, seat, CLAIM_FOR.PROTECT, -1, ev)
        return ev

    def _apply_illegal(self, seat: int, action: int) -> list[Event]:
        """S5: a seat claims the Baron to declare the action illegal."""
        self.reacted |= 1 << seat
        self.log.append(("illegal", seat))
        ev = [Event("illegal", seat, {"as": "baron"})]
        make_claim(self, seat, CLAIM_FOR.ILLEGAL, -1, ev)
        return ev

    def _apply_fine(self, seat: int, action: int) -> list[Event]:
        """S6: a seat claims the Judge to fine the actor a chip type."""
        self.reacted |= 1 << seat
        t = self.tab.p1[action]
        self.log.append(("fine", seat, t))
        ev = [Event("fine", seat, {"as": "judge", "type": CHIP_NAMES[t]})]
        make_claim(self, seat, CLAIM_FOR.FINE, t, ev)
        return ev

    def _apply_forgive(self, seat: int, action: int) -> list[Event]:
        """S7: a seat claims the Monk to forgive the actor for a chip."""
        self.reacted |= 1 << seat
        t = self.tab.p1[action]
        self.log.append(("forgive", seat, t))
        ev = [Event("forgive", seat, {"as": "monk", "type": CHIP_NAMES[t]})]
        make_claim(self, seat, CLAIM_FOR.FORGIVE, t, ev)
        return ev

    def _apply_give(self, seat: int, action: int) -> list[Event]:
        """S3 Monk collect: a payer gives the collector one chip of its choice."""
        t = self.tab.p1[action]
        self._move(seat, self.active, t, 1)
        self.give_pending &= ~(1 << seat)
        self.log.append(("give", seat, t))
        ev = [Event("give", seat, {"to": self.active, "type": CHIP_NAMES[t]})]
        if not self.give_pending:
            self._after_execute(ev)
        return ev

    def _apply_show(self, seat: int, action: int) -> list[Event]:
        """§3 BuyInfo: the seat asked shows the buyer false identities; in the final they
        are covered at once (§6)."""
        buyer = self.active
        mask = self.tab.p1[action]
        self.shown[seat * self.n + buyer] |= mask
        shown = names(mask)
        self.log.append(("show", seat, buyer, mask.bit_count()))
        if self.in_final:
            self.covered[seat] |= mask
            self.final_cov[seat] |= mask
            self.log.append(("final_cover", seat, mask))
            ev = [Event("show", seat, {"to": buyer, "count": mask.bit_count(),
                                       "covered": shown})]
        else:
            ev = [Event("show", seat, {"to": buyer, "count": mask.bit_count()},
                        {buyer: {"identities": shown}, seat: {"identities": shown}})]
        self._after_execute(ev)
        return ev

    def _apply_settle(self, seat: int, action: int) -> list[Event]:
        """S8: the convicted actor pays one standing fine or forgiveness, or claims the
        Magician to protect itself from the conviction."""
        if self.tab.kind[action] == K_PROTECT:
            self.log.append(("protect", seat))
            ev = [Event("protect", seat, {"as": "magician", "against": "conviction"})]
            make_claim(self, seat, CLAIM_FOR.SETTLE_PROTECT, -1, ev)
            return ev
        ev = []
        self._pay(self.tab.p1[action], ev)
        return ev

    def _apply_pass(self, seat: int, action: int) -> list[Event]:
        """§7.9: the Judge passes the chip set aside to the Baron of its choice."""
        baron = self.tab.p1[action]
        self.loose[3 * baron + self.pass_type] += self.escrow
        self.escrow = 0
        self.log.append(("pass", self.pass_judge, baron, self.pass_type))
        ev = [Event("pass", self.pass_judge, {"to": baron, "type": CHIP_NAMES[self.pass_type]})]
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
        """Up to k loose chips of type t go from src to dst (as many as src holds)."""
        lo = self.loose
        i = 3 * src + t
        if k > lo[i]:
            k = lo[i]
        lo[i] -= k
        lo[3 * dst + t] += k
        return k

    def _to_bank(self, p: int) -> None:
        """§7: a seat leaving the round returns its chips, trios broken, to the bank."""
        i = 3 * p
        tr = self.trios[p]
        for t in range(3):
            self.bank[t] += self.loose[i + t] + tr
            self.loose[i + t] = 0
        self.trios[p] = 0

    def _has_loose(self, p: int) -> bool:
        i = 3 * p
        return bool(self.loose[i] or self.loose[i + 1] or self.loose[i + 2])

    def _build_trio(self, p: int, ev: list[Event]) -> None:
        """§3: one loose gold, wine and grain become a trio."""
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
        elif ph is PHASE.SETTLE:
            if p == self.active and not self._settle_options():
                self.log.append(("settled", self.active, -1))
                self._end_turn(ev)
        elif ph is PHASE.GIVE:
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
            self.phase = PHASE.OVER
            ev.append(Event("game_over", p, {"winner": p, "throne_points": list(self.tp)}))
            return True
        return False

    def _leave(self, p: int, ev: list[Event], why: str, keep_chips: bool = False) -> None:
        """§7: p leaves the round (its chips to the bank unless the action still runs)."""
        self.in_round &= ~(1 << p)
        if not keep_chips:
            self._to_bank(p)
        self.log.append(("out", p, why))
        ev.append(Event("out", p, {"why": why}))

    # -- S0 general actions ----------------------------------------------------------
    def _buy(self, buyer: int, shower: int, asked: int, ev: list[Event]) -> None:
        """§3 BuyInfo: k is reduced to the identities the shower may still show the buyer
        before the buyer pays; it pays that many trios to the bank, the shower shows."""
        count = min(asked, self.showable(shower, buyer).bit_count())
        self.trios[buyer] -= count
        for t in range(3):
            self.bank[t] += count
        self.show_q, self.show_k = shower, count
        # public: the trios paid are public anyway, so the reduction is no secret
        ev.append(Event("buy", buyer, {"from": shower, "asked": asked, "count": count}))
        self.phase = PHASE.SHOW

    def _accuse(self, accuser: int, accused: int, x: int, ev: list[Event]) -> None:
        """§3 Accuse, §7.1: juist → the accused out, the accuser +1; fout → the accuser
        out, the accused +1 (cannot win)."""
        right = self.card[accused] >> 1 == x
        self.log.append(("answer", accused, x, right))
        ev.append(Event("answer", accused, {"accuser": accuser, "identity": IDENTITY_NAMES[x],
                                            "answer": "juist" if right else "fout"}))
        if right:
            self.known_is[accused] = x
            self._leave(accused, ev, "accused correctly")
            if self.in_final:
                self._end_final(accuser, accused, 4, False, ev)
                return
            if self._award(accuser, 1, ev, why="correct accusation"):
                return
            self._after_execute(ev)
        else:
            self.known_not[accused] |= 1 << x
            self._leave(accuser, ev, "wrong accusation")
            if self.in_final:
                self._end_final(accused, accuser, 3, True, ev)
                return
            if self._award(accused, 1, ev, can_win=False, why="refuted accusation"):
                return
            self._end_turn(ev)

    # -- after a claim (the doubt sub-machine hands back here, ``claims.py``) -----------
    def _open_window(self, phase: Phase, mask: int) -> None:
        """A reaction window opens for the seats of ``mask``; its deadline starts now."""
        self.phase = phase
        self.win_mask = mask
        self.window_since = self.move_number
        self.window_deadline = None

    def _after_action_claim(self, claim: Claim, stands: bool, ev: list[Event]) -> None:
        """S2 follows a claim for the action that stands; a void action ends the turn
        (§5.4)."""
        if stands:
            self._open_protect(ev)
        else:
            self._end_turn(ev)

    def _after_protect_claim(self, claim: Claim, stands: bool, ev: list[Event]) -> None:
        """S2: a protection that stands protects its claimant; others may still try."""
        if stands:
            self.protected |= 1 << claim.seat
        self._open_protect(ev)

    def _after_illegal_claim(self, claim: Claim, stands: bool, ev: list[Event]) -> None:
        """S5: an illegal declaration that stands makes its claimant a Baron of the turn."""
        if stands:
            self.barons |= 1 << claim.seat
        self._open_illegal(ev)

    def _after_fine_claim(self, claim: Claim, stands: bool, ev: list[Event]) -> None:
        """S6: a fine that stands is paid at S8."""
        if stands:
            self.fine_t[claim.seat] = claim.chip
        self._open_fine(ev)

    def _after_forgive_claim(self, claim: Claim, stands: bool, ev: list[Event]) -> None:
        """S7: a forgiveness that stands is paid at S8."""
        if stands:
            self.forgive_t[claim.seat] = claim.chip
        self._open_forgive(ev)

    def _after_settle_claim(self, claim: Claim, stands: bool, ev: list[Event]) -> None:
        """S8: a protection from the conviction that stands (or an actor out of the round)
        ends the turn unpaid; a void one leaves the actor to pay."""
        if stands or not self.in_round >> self.active & 1:
            self.log.append(("settled", self.active, -1))
            self._end_turn(ev)
        else:
            self._open_settle(ev)

    #: What follows a settled claim, by what it was made for (``ClaimFor``).
    _AFTER_CLAIM: ClassVar[tuple[Callable[[HoaxState, Claim, bool, list[Event]], None], ...]]

    # -- S2 protect, S3 execute ---------------------------------------------------
    def _targets(self) -> int:
        """§9.9: who may protect against the declared action."""
        tab = self.tab
        act = self.act
        kind = tab.kind[act]
        others = self.in_round & ~(1 << self.active)
        lo = self.loose
        if kind == K_TAX:
            t = tab.p1[act]
            return sum(1 << s for s in SEATS_OF[others] if lo[3 * s + t])
        if kind == K_COLLECT:
            return sum(1 << s for s in SEATS_OF[others]
                       if lo[3 * s] or lo[3 * s + 1] or lo[3 * s + 2])
        if kind == K_TRADE:
            q = tab.p1[act]
            return (1 << q) & others if q < self.n else 0
        if kind == K_ENCHANT:
            return (1 << tab.p1[act]) & others
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
        """S2: targets that have not tried yet and may claim the Magician may protect."""
        mask = self._targets() & ~self.protect_tried & self._uncovered(MAGICIAN)
        if mask:
            self._open_window(PHASE.PROTECT, mask)
        else:
            self._execute(ev)

    def _execute(self, ev: list[Event]) -> None:
        """S3: the effect, on targets that are not protected and still in the round."""
        tab = self.tab
        act = self.act
        kind = tab.kind[act]
        actor = self.active
        lo = self.loose
        victims = self.in_round & ~(1 << actor) & ~self.protected
        got = [0, 0, 0]
        if kind == K_TAKEGOLD:
            got[0] = self._gain(actor, 0, 2)
        elif kind == K_PRESS:
            got[1] = self._gain(actor, 1, 2)
        elif kind == K_JWINE:
            got[1] = self._gain(actor, 1, 1)
        elif kind == K_JGRAIN:
            got[2] = self._gain(actor, 2, 1)
        elif kind == K_EARN:
            got[0] = self._gain(actor, 0, 1)
        elif kind == K_HARVEST:
            got[2] = self._gain(actor, 2, 2)
        elif kind == K_TAX:
            t = tab.p1[act]
            for s in SEATS_OF[victims]:
                got[t] += self._move(s, actor, t, 1)
        elif kind == K_COLLECT:
            pending = 0
            for s in SEATS_OF[victims]:
                i = 3 * s
                types = [t for t in range(3) if lo[i + t]]
                if len(types) == 1:
                    got[types[0]] += self._move(s, actor, types[0], 1)
                    self.log.append(("give", s, types[0]))
                elif types:
                    pending |= 1 << s
            if pending:
                ev.append(Event("execute", actor, {"action": tab.text(act), "got": got}))
                self.give_pending = pending
                self.phase = PHASE.GIVE
                return
        elif kind == K_TRADE:
            partner, give, get, m = tab.p1[act], tab.p2[act], tab.p3[act], tab.p4[act]
            if partner == self.n:  # the bank
                m = min(m, lo[3 * actor + give], self.bank[get])
                lo[3 * actor + give] -= m
                self.bank[give] += m
                self._gain(actor, get, m)
            elif victims >> partner & 1:
                m = min(m, lo[3 * actor + give], lo[3 * partner + get])
                self._move(actor, partner, give, m)
                self._move(partner, actor, get, m)
            else:
                m = 0
            got[get] = m
        elif kind == K_ENCHANT:
            q = tab.p1[act]
            if victims >> q & 1:
                for t in range(3):
                    got[t] = self._move(q, actor, t, lo[3 * q + t])
        elif kind == K_STEAL:
            q, t = tab.p1[act], tab.p2[act]
            if self.in_round >> q & 1:  # §4: not protectable
                got[t] = self._steal(actor, q, t, tab.p3[act], tab.p4[act])
        ev.append(Event("execute", actor, {"action": tab.text(act), "got": got}))
        self.log.append(("execute", actor, act, tuple(got)))
        self._after_execute(ev)

    def _steal(self, thief: int, victim: int, t: int, count: int, from_trios: int) -> int:
        """§3 Thief: ``count`` chips of type t, ``from_trios`` of them out of trios (each
        breaks a trio whose other two chips become loose). Clamped to what the victim
        holds at execution [DECISION]."""
        lo = self.loose
        iv = 3 * victim
        loose_v, trios_v = lo[iv + t], self.trios[victim]
        want = min(count, loose_v + trios_v)
        broken = min(trios_v, max(from_trios, want - loose_v))
        lo[iv + t] -= want - broken
        self.trios[victim] -= broken
        for u in range(3):
            if u != t:
                lo[iv + u] += broken
        lo[3 * thief + t] += want
        return want

    def _after_execute(self, ev: list[Event]) -> None:
        """After S3: a departing actor's chips go to the bank and S5–S8 are skipped."""
        actor = self.active
        if self.departing:
            self.departing = False
            self._to_bank(actor)
            self._end_turn(ev)
        elif not self.in_round >> actor & 1:
            self._end_turn(ev)
        else:
            self._open_illegal(ev)

    # -- S5–S8 ---------------------------------------------------------------------
    def _open_illegal(self, ev: list[Event]) -> None:
        """S5: seats that may claim the Baron and have not reacted may declare it illegal."""
        if self.in_round >> self.active & 1:
            mask = self._uncovered(BARON) & ~(1 << self.active) & ~self.reacted
            if mask:
                self._open_window(PHASE.ILLEGAL, mask)
                return
        self._close_illegal(ev)

    def _close_illegal(self, ev: list[Event]) -> None:
        """S5 closes: a standing illegal declaration opens S6, else the turn ends."""
        if self.barons and self.in_round >> self.active & 1:
            self._open_fine(ev)
        else:
            self._end_turn(ev)

    def _open_fine(self, ev: list[Event]) -> None:
        """S6: would-be Judges may fine an actor that holds loose chips (§9.1)."""
        actor = self.active
        if self._has_loose(actor):
            mask = self._uncovered(JUDGE) & ~(1 << actor) & ~self.reacted
            if mask:
                self._open_window(PHASE.FINE, mask)
                return
        self._close_fine(ev)

    def _close_fine(self, ev: list[Event]) -> None:
        """S6 closes: a standing fine opens S7, else the turn ends."""
        if any(self.fine_t[s] >= 0 for s in SEATS_OF[self.in_round]):
            self._open_forgive(ev)
        else:
            self._end_turn(ev)

    def _open_forgive(self, ev: list[Event]) -> None:
        """S7: would-be Monks may forgive an actor that holds loose chips (§9.1)."""
        actor = self.active
        if self._has_loose(actor):
            mask = self._uncovered(MONK) & ~(1 << actor) & ~self.reacted
            if mask:
                self._open_window(PHASE.FORGIVE, mask)
                return
        self._open_settle(ev)

    def _open_settle(self, ev: list[Event]) -> None:
        """S8: the actor settles what it can pay; with nothing to pay the turn ends."""
        if self._settle_options():
            self.phase = PHASE.SETTLE
        else:
            self.log.append(("settled", self.active, -1))
            self._end_turn(ev)

    def _pay(self, payee: int, ev: list[Event]) -> None:
        """S8: the actor pays one standing fine (min(2, loose), §9.1) or forgiveness."""
        actor = self.active
        t = self.fine_t[payee]
        if t >= 0:
            amount = self._move(actor, payee, t, 2)
            self.log.append(("settled", actor, payee, t, amount))
            ev.append(Event("pay", actor, {"to": payee, "type": CHIP_NAMES[t],
                                           "count": amount, "for": "fine"}))
            if amount == 2:
                barons = self.barons & self.in_round & ~(1 << payee)
                if barons:
                    self.pass_judge, self.pass_type = payee, t
                    if barons & (barons - 1):
                        # several Barons: the Judge chooses (§7.9); the chip is set aside
                        self.loose[3 * payee + t] -= 1
                        self.escrow = 1
                        self.phase = PHASE.PASS
                        return
                    baron = SEATS_OF[barons][0]
                    self._move(payee, baron, t, 1)
                    self.log.append(("pass", payee, baron, t))
                    ev.append(Event("pass", payee, {"to": baron, "type": CHIP_NAMES[t]}))
        else:
            t = self.forgive_t[payee]
            self._move(actor, payee, t, 1)
            self.log.append(("settled", actor, payee, t, 1))
            ev.append(Event("pay", actor, {"to": payee, "type": CHIP_NAMES[t], "count": 1,
                                           "for": "forgiveness"}))
        self._end_turn(ev)

    def _close_window(self, ev: list[Event]) -> None:
        """The open window's deadline passed: the step goes on without a reaction."""
        self.win_mask = 0
        self._ON_CLOSE[self.phase](self, ev)

    def _doubt_closed(self, ev: list[Event]) -> None:
        """§5.1: nobody doubted: the claim stands."""
        claim_done(self, True, ev)

    # -- S9 end of turn, final, round end -------------------------------------------
    def _end_turn(self, ev: list[Event]) -> None:
        """S9: the next seat in the round begins; two left start the final (§6); one
        left wins it (§7.13, §9.5)."""
        if self.over:
            return
        n = self.n
        actor = self.active
        left = self.in_round.bit_count()
        if left <= 1:
            if left == 1:  # §7.13 / §9.5: the survivor counts as the final winner
                self._end_final(SEATS_OF[self.in_round][0], None, 3, False, ev)
            else:  # [DECISION] nobody left: no final points; the next seat starts
                self._reveal_and_restart((actor + 1) % n, ev)
            return
        if left == 2 and not self.in_final:
            self._start_final(ev)
        s = (actor + 1) % n
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
                                        "covered": {str(p): names(self.final_cov[p]),
                                                    str(q): names(self.final_cov[q])}}))

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
        """§6: every identity is revealed and a new round is dealt."""
        self.last_reveal = [c >> 1 for c in self.card]
        ev.append(Event("reveal", None, {"identities": [IDENTITY_NAMES[x]
                                                        for x in self.last_reveal]}))
        self._new_round(starter, ev)

    # ======================================================================= end
    def is_over(self) -> bool:
        return self.over

    def result(self) -> Result:
        """§6: throne points; the first to 10 wins."""
        tp = self.tp
        return Result(tuple(float(t) for t in tp), ranks_from_scores(tp), self.winner)

    def round_number(self) -> int:
        return self.round_no

    def standing(self) -> list[float]:
        return [float(x) for x in self.tp]

    def stats(self) -> dict[str, Any]:
        return {"rounds": self.round_no, "turns": self.turns, "finals": self.finals}

    def components(self) -> dict[str, int]:
        """§1: 60 chips (20 per type) and 14 identity cards, wherever they lie."""
        chips = sum(self.bank) + sum(self.loose) + 3 * sum(self.trios) + self.escrow
        dealt = [c for c in self.card if c >= 0]
        return {"chips": chips, "identity_cards": len(set(dealt)) + NUM_CARDS - len(dealt)}

    # ======================================================================= views, copies
    def _view(self, seat: int | None) -> dict[str, Any]:
        return self.game.views.view(self, seat)

    def _full_view(self) -> dict[str, Any]:
        return self.game.views.full_view(self)

    def _position(self) -> dict[str, Any]:
        """This state as a position's ``"state"`` object (``position.py``)."""
        from . import position

        return position.write(self)

    def determinise(self, seat: int, rng: random.Random) -> HoaxState:
        """A copy with what ``seat`` cannot see resampled (``sampling.py``)."""
        return sampling.determinise(self, seat, rng)

    # ======================================================================= the phases
    _SEATS: ClassVar[tuple[Callable[[HoaxState], Sequence[int]], ...]]
    _WINDOW: ClassVar[tuple[Callable[[HoaxState], Sequence[int]], ...]]
    _LEGAL: ClassVar[tuple[Callable[[HoaxState, int], list[int]], ...]]
    _APPLY: ClassVar[tuple[Callable[[HoaxState, int, int], list[Event]], ...]]
    _DEADLINE: ClassVar[tuple[Callable[[HoaxState], list[Deadline]], ...]]
    _WHY: ClassVar[tuple[Callable[[HoaxState, int, int], Check] | None, ...]]
    _ON_CLOSE: ClassVar[tuple[Callable[[HoaxState, list[Event]], None], ...]]


# The phase table and what the entry points index, set on the class once it exists (a
# compiled class's body cannot name its own methods).
HoaxState._AFTER_CLAIM = \
    _indexed(ClaimFor, {
        ClaimFor.ACTION: HoaxState._after_action_claim,
        ClaimFor.PROTECT: HoaxState._after_protect_claim,
        ClaimFor.ILLEGAL: HoaxState._after_illegal_claim,
        ClaimFor.FINE: HoaxState._after_fine_claim,
        ClaimFor.FORGIVE: HoaxState._after_forgive_claim,
        ClaimFor.SETTLE_PROTECT: HoaxState._after_settle_claim})

HoaxState.PHASES = PhaseTable(Phase, {
    Phase.COVER: Rule(
        Who.EVERY, (Kind.COVER,), seats=HoaxState._covering, legal=HoaxState._legal_cover,
        apply=HoaxState._apply_cover, why=HoaxState._why_cover,
        opens="§2: a round is dealt", closes="the last cover → chip"),
    Phase.CHIP: Rule(
        Who.EVERY, (Kind.CHIP,), seats=HoaxState._taking_chips, legal=HoaxState._legal_chip,
        apply=HoaxState._apply_chip,
        opens="§2: every seat has covered",
        closes="the last chip taken → declare (the starter's turn)"),
    Phase.DECLARE: Rule(
        Who.TURN | Who.WINDOW, (*DECLARED, Kind.TRIO), seats=HoaxState._the_active,
        window=HoaxState._trio_builders, legal=HoaxState._legal_declare,
        apply=HoaxState._apply_declare,
        why=HoaxState._why_declare,
        opens="S0: a turn begins",
        closes="a personal action → doubt; buy → show; accuse → answered at once "
               "(§7.1)"),
    Phase.DOUBT: Rule(
        Who.WINDOW, (Kind.DOUBT, Kind.TRIO, Kind.CLOSE), window=HoaxState._reactors,
        legal=HoaxState._legal_doubt, apply=open_doubt, deadline=HoaxState._window_deadline,
        opens="§5.1: an identity claim (S1)",
        closes="a doubt → vote (or the tally at once); the deadline → the claim "
               "stands"),
    Phase.VOTE: Rule(
        Who.EVERY | Who.WINDOW, (Kind.VOTE_DOUBT, Kind.VOTE_TRUST, Kind.TRIO),
        seats=HoaxState._voters, window=HoaxState._trio_builders, legal=HoaxState._legal_vote,
        apply=vote,
        opens="§5.2: a doubt is opened and others may vote",
        closes="the last vote → the tally (§5.3, §5.4)"),
    Phase.PROTECT: Rule(
        Who.WINDOW, (Kind.PROTECT, Kind.TRIO, Kind.CLOSE), window=HoaxState._reactors,
        legal=HoaxState._legal_protect, apply=HoaxState._apply_protect,
        deadline=HoaxState._window_deadline,
        opens="S2: a tax, collection, trade with a seat or enchantment stands (§9.9)",
        closes="a protection → its doubt; the deadline → execute (S3)"),
    Phase.GIVE: Rule(
        Who.EVERY | Who.WINDOW, (Kind.GIVE, Kind.TRIO), seats=HoaxState._givers,
        window=HoaxState._trio_builders, legal=HoaxState._legal_give, apply=HoaxState._apply_give,
        opens="S3: a collection from seats holding more than one chip type",
        closes="the last payer gave → illegal (S5)"),
    Phase.SHOW: Rule(
        Who.TURN | Who.WINDOW, (Kind.SHOW, Kind.TRIO), seats=HoaxState._the_shower,
        window=HoaxState._trio_builders, legal=HoaxState._legal_show, apply=HoaxState._apply_show,
        opens="§3 BuyInfo: a buy", closes="shown → illegal (S5)"),
    Phase.ILLEGAL: Rule(
        Who.WINDOW, (Kind.ILLEGAL, Kind.TRIO, Kind.CLOSE), window=HoaxState._reactors,
        legal=HoaxState._legal_illegal, apply=HoaxState._apply_illegal, why=HoaxState._why_reaction,
        deadline=HoaxState._window_deadline,
        opens="S5: the action was carried out; would-be Barons may react",
        closes="Illegal → its doubt; the deadline → fine if a Baron stands, else S9"),
    Phase.FINE: Rule(
        Who.WINDOW, (Kind.FINE, Kind.TRIO, Kind.CLOSE), window=HoaxState._reactors,
        legal=HoaxState._legal_fine, apply=HoaxState._apply_fine, why=HoaxState._why_reaction,
        deadline=HoaxState._window_deadline,
        opens="S6: an illegal declaration stands; would-be Judges may react",
        closes="Fine → its doubt; the deadline → forgive if a fine stands, else S9"),
    Phase.FORGIVE: Rule(
        Who.WINDOW, (Kind.FORGIVE, Kind.TRIO, Kind.CLOSE), window=HoaxState._reactors,
        legal=HoaxState._legal_forgive, apply=HoaxState._apply_forgive, why=HoaxState._why_reaction,
        deadline=HoaxState._window_deadline,
        opens="S7: a fine stands; would-be Monks may react",
        closes="Forgive → its doubt; the deadline → settle (S8)"),
    Phase.SETTLE: Rule(
        Who.TURN | Who.WINDOW, (Kind.PAY, Kind.PROTECT, Kind.TRIO), seats=HoaxState._the_active,
        window=HoaxState._trio_builders, legal=HoaxState._legal_settle,
        apply=HoaxState._apply_settle,
        opens="S8: a fine or forgiveness stands that the actor can pay",
        closes="paid → pass or the turn ends (S9); protect → its doubt"),
    Phase.PASS: Rule(
        Who.TURN | Who.WINDOW, (Kind.PASS, Kind.TRIO), seats=HoaxState._the_judge,
        window=HoaxState._trio_builders, legal=HoaxState._legal_pass, apply=HoaxState._apply_pass,
        opens="§7.9: a Judge was paid 2 and several Barons stand",
        closes="a Baron chosen → the turn ends (S9)"),
    Phase.OVER: Rule(Who.NOBODY, opens="§6: a seat reached 10 throne points",
                     closes="never"),
})
# The hot entry points index these (one per phase, from the table above).
HoaxState._SEATS = \
    HoaxState.PHASES.handlers("seats", _nobody)
HoaxState._WINDOW = \
    HoaxState.PHASES.handlers("window", _nobody)
HoaxState._LEGAL = \
    HoaxState.PHASES.handlers("legal", _nothing)
HoaxState._APPLY = \
    HoaxState.PHASES.handlers("apply", _nothing_applies)
HoaxState._DEADLINE = \
    HoaxState.PHASES.handlers("deadline", _no_deadline)
HoaxState._WHY = \
    tuple(rule.why for _phase, rule in HoaxState.PHASES)
#: What each window does when its deadline passes (the rule's ``closes``).
HoaxState._ON_CLOSE = _indexed(
    Phase, {Phase.DOUBT: HoaxState._doubt_closed, Phase.PROTECT: HoaxState._execute,
            Phase.ILLEGAL: HoaxState._close_illegal, Phase.FINE: HoaxState._close_fine,
            Phase.FORGIVE: HoaxState._open_settle}, _nothing_closes)


__all__ = ["WIN_POINTS", "HoaxGame", "HoaxState", "Phase"]
