"""HOAX: the rules (spec: ``rules.md`` beside this file; § numbers quote hoax.md).

The whole turn is an explicit phase machine (``HoaxState.phase``, a ``Phase``): the
pipeline of §3 (S0 declare … S9 end) is a sequence of phases, and every identity
claim passes through the doubt sub-machine (DOUBT window, then VOTE; ``claims.py``)
before it takes effect. The phase table at the end of ``HoaxState`` says, per phase,
who acts, how their legal actions are found and applied, why an attempt is refused,
what opens and closes the phase and whether it is timed; the core's ``to_act``,
``out_of_turn``, ``legal_actions``, ``apply``, ``judge`` and ``deadlines`` consult it
(``HoaxState.PHASES.markdown()`` prints it; ``rules.md`` shows it). Its handlers live
by job: who may act and what they may do (``legal.py``), the steps of a turn and the
effect of each action (``turn.py``); this module keeps the state, its set-up per round
and turn, the chips, the points and the end of a turn, a final and a round.

A window with nobody eligible is skipped; an open window closes when its deadline
(``CLOCK`` applies ``close``) passes without a reaction. Building a trio is a free
action of any player in the round at any time of a turn (out of turn, §3) and never
closes a window. A window's seats are a mask (``win_mask``) set when it opens, and its
deadline is built once then (``_time_window``).

The other jobs live beside this module: the views (``views.py``, one ``HoaxViews`` per
game owns their caches), sampling for search (``sampling.py``) and positions
(``position.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from enum import IntEnum
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, Final

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
    illegal,
    ranks_from_scores,
)
from ...core.observation import Observer
from ...core.phases import PhaseTable, Rule, Who
from ...core.position import Fields
from ...i18n import N_
from . import sampling
from .cards import (
    ALL_IDENTITIES,
    CARD_CODES,
    CHIPS_PER_TYPE,
    IDENTITY_NAMES,
    K_CLOSE,
    K_TRIO,
    NUM_CARDS,
    SEATS_OF,
    ActionTable,
    Kind,
    action_table,
)
from .claims import Claim, ClaimFor, open_doubt, vote
from .legal import (
    legal_chip,
    legal_cover,
    legal_declare,
    legal_doubt,
    legal_fine,
    legal_forgive,
    legal_give,
    legal_illegal,
    legal_pass,
    legal_protect,
    legal_settle,
    legal_show,
    legal_vote,
    settle_options,
    why_cover,
    why_declare,
    why_not_now,
    why_reaction,
)
from .phases import CHIP_WINDOWS, PHASE_NAMES, WINDOWS, Phase
from .seen import Seen
from .turn import (
    after_action_claim,
    after_execute,
    after_fine_claim,
    after_forgive_claim,
    after_illegal_claim,
    after_protect_claim,
    after_settle_claim,
    apply_chip,
    apply_cover,
    apply_declare,
    apply_fine,
    apply_forgive,
    apply_give,
    apply_illegal,
    apply_pass,
    apply_protect,
    apply_settle,
    apply_show,
    close_fine,
    close_illegal,
    doubt_closed,
    execute,
    open_settle,
)
from .views import HoaxViews, names

if TYPE_CHECKING:
    from ...core.scoresheet import Builder
    from ...core.words import Narrator

WIN_POINTS: Final = 10
#: The kinds of action declared in S0 (§3: personal actions, buy, accuse).
DECLARED: Final = (Kind.TAKEGOLD, Kind.TAX, Kind.PRESS, Kind.COLLECT, Kind.JWINE, Kind.JGRAIN,
                   Kind.EARN, Kind.TRADE, Kind.ENCHANT, Kind.STEAL, Kind.HARVEST, Kind.BUY,
                   Kind.ACCUSE)
_KINDS: Final = tuple(Kind)
#: The reason of each window's deadline, by phase.
_CLOSES: Final = tuple(f"{name} window closes" for name in PHASE_NAMES)

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
        from .describe import describe

        return describe(self, action)

    def score_sheet_builder(self) -> Builder:
        """The score sheet round by round (``scores.py``)."""
        from .scores import score_sheet  # (it imports this module)

        return score_sheet

    def narrator_class(self) -> type[Narrator]:
        """HOAX's words (``narration.py``): events, action labels, the board."""
        from .narration import Narrator  # (it imports this module)

        return Narrator

    def bots(self) -> dict[str, type]:
        from .bot import HeuristicBot

        return {"heuristic": HeuristicBot}

    def observer_class(self) -> type[Observer]:
        """HOAX's own RL observation (``observation.py``)."""
        from .observation import HoaxObserver  # (it imports this module)

        return HoaxObserver


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
    #: The game's fields state their value before the deal (``empty``); the round's and
    #: the turn's are set by hand, anew at each round and turn (``_round_fields``).
    FIELDS = StateFields(
        tab=(Copy.VALUE, "", "self.game.table"), n=(Copy.VALUE, "", "n"),
        # the game
        tp=(Copy.LIST, "", "[0] * n"),  # throne points (§6)
        over=(Copy.VALUE, "", "False"),
        winner=(Copy.VALUE, "int | None", "None"),
        round_no=(Copy.VALUE, "", "0"),
        turns=(Copy.VALUE, "", "0"),  # turns begun in the whole game
        finals=(Copy.VALUE, "", "0"),
        # identities shown after the last final; replaced at each reveal, never changed
        last_reveal=(Copy.VALUE, "list[int] | None", "None"),
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
        window_deadlines=Copy.VALUE,  # replaced when a window opens, never changed
        # the claim under doubt (§5; ``claims.py``)
        claim=Copy.VALUE, opener=Copy.VALUE, votes_yes=Copy.VALUE, voted=Copy.VALUE,
        vote_pending=Copy.VALUE,
        by_hand="self._round_fields(-1)",
    )

    # -- generated from FIELDS (python -m spieltisch.core.generated --write): do not edit --
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
        s.window_deadlines = self.window_deadlines
        s.claim = self.claim
        s.opener = self.opener
        s.votes_yes = self.votes_yes
        s.voted = self.voted
        s.vote_pending = self.vote_pending
        return s

    def _empty_fields(self) -> None:
        """Every field at its value before the deal (``FIELDS.empty_source``)."""
        n = self.game.num_players
        self.tab = self.game.table
        self.n = n
        self.tp = [0] * n
        self.over = False
        self.winner: int | None = None
        self.round_no = 0
        self.turns = 0
        self.finals = 0
        self.last_reveal: list[int] | None = None
        self._round_fields(-1)
    # -- end generated --

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
        self.phase = Phase.COVER
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
        self.window_deadlines: list[Deadline] = []  # the open window's (read-only)
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
        self.phase = Phase.DECLARE
        self.turns += 1

    # ======================================================================= who acts
    # ``to_act``, ``out_of_turn`` and ``deadlines`` are the core's: the phase table's.
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

    def _window_deadline(self) -> list[Deadline]:
        """The open window's deadline (``_time_window``; callers do not mutate it)."""
        return self.window_deadlines

    def _time_window(self, since: int) -> None:
        """The open window's clock starts at move ``since``: it closes after
        ``reaction_seconds`` without a reaction, or once every eligible seat has passed
        (the spec polls "until everyone passes"). Built once per window."""
        self.window_since = since
        self.window_deadlines = [Deadline(
            CLOCK, self.tab.close, self.game.reaction_seconds, since,
            _CLOSES[self.phase], passable=True)]

    # ======================================================================= legality
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

    # ======================================================================= judging
    def _why_illegal(self, seat: int, action: int) -> Check:
        """Why an unlisted action is refused: the phase rule's reason (``why``)."""
        if self.tab.kind[action] == K_TRIO:
            return illegal(N_("a trio needs one loose gold, wine and grain"))
        table = self.PHASES
        assert table is not None
        why = table.why_of[self.phase]
        return why(self, seat, action) if why is not None else why_not_now(self, seat, action)

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
        elif ph is Phase.SETTLE:
            if p == self.active and not settle_options(self):
                self.log.append(("settled", self.active, -1))
                self._end_turn(ev)
        elif ph is Phase.GIVE:
            if self.give_pending >> p & 1 and not self._has_loose(p):
                self.give_pending &= ~(1 << p)
                if not self.give_pending:
                    after_execute(self, ev)

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
            self.phase = Phase.OVER
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

    # -- windows (the doubt sub-machine and the steps of ``turn.py`` open them) --------
    def _open_window(self, phase: Phase, mask: int) -> None:
        """A reaction window opens for the seats of ``mask``; its deadline starts now."""
        self.phase = phase
        self.win_mask = mask
        self._time_window(self.move_number)

    #: What follows a settled claim, by what it was made for (``ClaimFor``).
    _AFTER_CLAIM: ClassVar[tuple[Callable[[HoaxState, Claim, bool, list[Event]], None], ...]]

    def _close_window(self, ev: list[Event]) -> None:
        """The open window's deadline passed: the step goes on without a reaction."""
        self.win_mask = 0
        self._ON_CLOSE[self.phase](self, ev)

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

    def typed_view(self, seat: int) -> Seen:
        """The view's facts in the rules' numbers, for the bot (``seen.py``)."""
        return Seen(self, seat)

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
    #: What each window does when its deadline passes (the rule's ``closes``).
    _ON_CLOSE: ClassVar[tuple[Callable[[HoaxState, list[Event]], None], ...]]


# The phase table and what the entry points index, set on the class once it exists (a
# compiled class's body cannot name its own methods).
HoaxState._AFTER_CLAIM = \
    _indexed(ClaimFor, {
        ClaimFor.ACTION: after_action_claim,
        ClaimFor.PROTECT: after_protect_claim,
        ClaimFor.ILLEGAL: after_illegal_claim,
        ClaimFor.FINE: after_fine_claim,
        ClaimFor.FORGIVE: after_forgive_claim,
        ClaimFor.SETTLE_PROTECT: after_settle_claim})

Legal = Callable[[HoaxState, int], list[int]]
Apply = Callable[[HoaxState, int, int], list[Event]]


def or_trio(legal: Legal) -> Legal:
    """§3: a seat still in the round may build a trio at any time of a turn: the phase's
    ``legal`` actions, and the trio when the seat holds a loose gold, wine and grain. (A
    ``partial`` rather than a closure, so that a state still pickles.)"""
    return partial(_legal_or_trio, legal)


def _legal_or_trio(legal: Legal, state: HoaxState, seat: int) -> list[int]:
    out = legal(state, seat)
    if state.in_round >> seat & 1:
        i = 3 * seat
        lo = state.loose
        if lo[i] and lo[i + 1] and lo[i + 2]:
            out = out + [state.tab.trio] if out else [state.tab.trio]
    return out


def or_trio_or_close(apply: Apply) -> Apply:
    """A trio (any time, §3) or a window's close (its deadline, the clock's action);
    anything else is the phase's ``apply`` (a ``partial``, as ``or_trio``)."""
    return partial(_apply_or_trio_or_close, apply)


def _apply_or_trio_or_close(apply: Apply, state: HoaxState, seat: int, action: int
                            ) -> list[Event]:
    kind = state.tab.kind[action]
    if kind == K_TRIO:
        ev: list[Event] = []
        state._build_trio(seat, ev)
        state._after_trio(seat, ev)
        return ev
    if kind == K_CLOSE:
        ev = [Event("close", None, {"window": PHASE_NAMES[state.phase]})
              ] if state.record_events else []
        state._close_window(ev)
        return ev
    return apply(state, seat, action)


HoaxState.PHASES = PhaseTable(Phase, {
    Phase.COVER: Rule(
        Who.EVERY, (Kind.COVER,), seats=HoaxState._covering, legal=legal_cover,
        apply=apply_cover, why=why_cover,
        opens="§2: a round is dealt", closes="the last cover → chip"),
    Phase.CHIP: Rule(
        Who.EVERY, (Kind.CHIP,), seats=HoaxState._taking_chips, legal=legal_chip,
        apply=apply_chip,
        opens="§2: every seat has covered",
        closes="the last chip taken → declare (the starter's turn)"),
    Phase.DECLARE: Rule(
        Who.TURN | Who.WINDOW, (*DECLARED, Kind.TRIO), seats=HoaxState._the_active,
        window=HoaxState._trio_builders, legal=or_trio(legal_declare),
        apply=or_trio_or_close(apply_declare),
        why=why_declare,
        opens="S0: a turn begins",
        closes="a personal action → doubt; buy → show; accuse → answered at once "
               "(§7.1)"),
    Phase.DOUBT: Rule(
        Who.WINDOW, (Kind.DOUBT, Kind.TRIO, Kind.CLOSE), window=HoaxState._reactors,
        legal=or_trio(legal_doubt), apply=or_trio_or_close(open_doubt),
        deadline=HoaxState._window_deadline,
        opens="§5.1: an identity claim (S1)",
        closes="a doubt → vote (or the tally at once); the deadline → the claim "
               "stands"),
    Phase.VOTE: Rule(
        Who.EVERY | Who.WINDOW, (Kind.VOTE_DOUBT, Kind.VOTE_TRUST, Kind.TRIO),
        seats=HoaxState._voters, window=HoaxState._trio_builders, legal=or_trio(legal_vote),
        apply=or_trio_or_close(vote),
        opens="§5.2: a doubt is opened and others may vote",
        closes="the last vote → the tally (§5.3, §5.4)"),
    Phase.PROTECT: Rule(
        Who.WINDOW, (Kind.PROTECT, Kind.TRIO, Kind.CLOSE), window=HoaxState._reactors,
        legal=or_trio(legal_protect), apply=or_trio_or_close(apply_protect),
        deadline=HoaxState._window_deadline,
        opens="S2: a tax, collection, trade with a seat or enchantment stands (§9.9)",
        closes="a protection → its doubt; the deadline → execute (S3)"),
    Phase.GIVE: Rule(
        Who.EVERY | Who.WINDOW, (Kind.GIVE, Kind.TRIO), seats=HoaxState._givers,
        window=HoaxState._trio_builders, legal=or_trio(legal_give),
        apply=or_trio_or_close(apply_give),
        opens="S3: a collection from seats holding more than one chip type",
        closes="the last payer gave → illegal (S5)"),
    Phase.SHOW: Rule(
        Who.TURN | Who.WINDOW, (Kind.SHOW, Kind.TRIO), seats=HoaxState._the_shower,
        window=HoaxState._trio_builders, legal=or_trio(legal_show),
        apply=or_trio_or_close(apply_show),
        opens="§3 BuyInfo: a buy", closes="shown → illegal (S5)"),
    Phase.ILLEGAL: Rule(
        Who.WINDOW, (Kind.ILLEGAL, Kind.TRIO, Kind.CLOSE), window=HoaxState._reactors,
        legal=or_trio(legal_illegal), apply=or_trio_or_close(apply_illegal), why=why_reaction,
        deadline=HoaxState._window_deadline,
        opens="S5: the action was carried out; would-be Barons may react",
        closes="Illegal → its doubt; the deadline → fine if a Baron stands, else S9"),
    Phase.FINE: Rule(
        Who.WINDOW, (Kind.FINE, Kind.TRIO, Kind.CLOSE), window=HoaxState._reactors,
        legal=or_trio(legal_fine), apply=or_trio_or_close(apply_fine), why=why_reaction,
        deadline=HoaxState._window_deadline,
        opens="S6: an illegal declaration stands; would-be Judges may react",
        closes="Fine → its doubt; the deadline → forgive if a fine stands, else S9"),
    Phase.FORGIVE: Rule(
        Who.WINDOW, (Kind.FORGIVE, Kind.TRIO, Kind.CLOSE), window=HoaxState._reactors,
        legal=or_trio(legal_forgive), apply=or_trio_or_close(apply_forgive), why=why_reaction,
        deadline=HoaxState._window_deadline,
        opens="S7: a fine stands; would-be Monks may react",
        closes="Forgive → its doubt; the deadline → settle (S8)"),
    Phase.SETTLE: Rule(
        Who.TURN | Who.WINDOW, (Kind.PAY, Kind.PROTECT, Kind.TRIO), seats=HoaxState._the_active,
        window=HoaxState._trio_builders, legal=or_trio(legal_settle),
        apply=or_trio_or_close(apply_settle),
        opens="S8: a fine or forgiveness stands that the actor can pay",
        closes="paid → pass or the turn ends (S9); protect → its doubt"),
    Phase.PASS: Rule(
        Who.TURN | Who.WINDOW, (Kind.PASS, Kind.TRIO), seats=HoaxState._the_judge,
        window=HoaxState._trio_builders, legal=or_trio(legal_pass),
        apply=or_trio_or_close(apply_pass),
        opens="§7.9: a Judge was paid 2 and several Barons stand",
        closes="a Baron chosen → the turn ends (S9)"),
    Phase.OVER: Rule(Who.NOBODY, opens="§6: a seat reached 10 throne points",
                     closes="never"),
})
HoaxState._ON_CLOSE = _indexed(
    Phase, {Phase.DOUBT: doubt_closed, Phase.PROTECT: execute,
            Phase.ILLEGAL: close_illegal, Phase.FINE: close_fine,
            Phase.FORGIVE: open_settle}, _nothing_closes)


__all__ = ["WIN_POINTS", "HoaxGame", "HoaxState", "Phase"]
