"""HOAX's own RL observation: ``view(seat)`` as fixed float slots, written from the state.

Same information as the view (``HoaxState.view``), another form. Seats are absolute
(0..n-1) as in the view; ``X`` below runs over the 7 identities, ``T`` over the chip
types gold, wine, grain. Numbers are scaled by a natural maximum (marked *num*).

Public part (the same for every seat):

====================================  =====================================================
``phase=P``                           one-hot over the 14 phases
``active=s``, ``to_act=s``            the active seat; the seats the game waits for
``in_final``, ``over``, ``winner=s``  flags; the winner once the game is over
``round``, ``turn``                   *num*: round / 10, turns begun in the game / 100
``bank=T``                            *num*: chips in the bank / 20
``seat{s}.in_round``                  still in this round (the ``seat{s}.`` slots come
                                      field after field: all seats' ``in_round``, …)
``seat{s}.throne_points``             *num*: TP / 10
``seat{s}.loose=T``, ``.trios``       *num*: loose chips / 20, trios / 20
``seat{s}.covered=X``                 every cover (start, doubt, final)
``seat{s}.start_cover=X``             the round-start cover
``seat{s}.doubt_covered=X``           covered by a justified doubt
``seat{s}.revealed=X``                the card turned face up (unjustified doubt)
``seat{s}.proven=X``                  proven by a "juist" answer
``seat{s}.proven_not=X``              refuted by a "fout" answer
``seat{s}.last_reveal=X``             the seat's identity in the last final's reveal
``pending.action.*``                  the declared action (action block, below)
``pending.protected=s`` …             ``protected``, ``barons``, ``reacted``, ``window``
``pending.fines.seat{s}=T``           standing fines (``forgivenesses`` alike)
``pending.departing``                 the actor lost an unjustified doubt of the action
``pending.claim.seat=s`` …            the claim under doubt: ``seat``, ``identity=X``,
                                      ``for=`` (action, protect, …), ``opener=s``
``pending.show.by=s``, ``.count``     phase show: who shows the active seat, *num* k / 5
``pending.pass.type=T``               phase pass: the chip the Judge passes on
``log.length``                        *num*: entries in the round's log / 64
``log[-k].*`` (k = 1..8)              the last 8 log entries (log block, below)
``claims.seat{s}=X``                  *num*: public claims of X by s this round / 5
                                      (declared actions and Protect / Illegal / Fine /
                                      Forgive reactions: all in the view's log)
====================================  =====================================================

Not repeated because other slots hold them: ``pending.giving`` (= ``to_act`` in phase
give), ``pending.pass.judge`` (= ``to_act`` in phase pass), ``pending.show.to``
(= ``active``), ``players`` (the configuration), ``identity_original`` (= identity).

Private part (the observing seat's own): ``identity=X``; ``shown_to_me.seat{q}=X`` (what
q showed me as false) and ``shown_by_me.seat{a}=X``; ``my_vote=doubt|trust`` (my vote in
the running vote).

Action block (``declare`` entries, ``execute`` entries, the pending action):
``kind=`` one-hot over the 13 declarable kinds; ``target=s|bank``; ``type=T`` (tax,
trade give, steal); ``get=T`` (trade); ``identity=X`` (accuse); *num* ``count`` (trade
n / 20, steal n / 2, buy k / 5) and ``from_trios`` (steal k / 2).

Log block (one entry): ``kind=`` one-hot over the 18 entry kinds; ``seat=s`` (the
entry's subject: declarer, doubter, claimant of a vote, payer, …); ``other=s`` (the
doubted claimant, the payee, the seat shown to, the Baron passed to, the other
finalist); ``seats=s`` (a vote's doubters); ``identity=X``; ``identities=X`` (final
covers); ``type=T``; flags ``right`` ("juist"), ``official``, ``justified``; *num*
``count`` (points / 4, chips paid / 2, identities shown / 5); *num* ``got=T`` (what an
executed action brought / 20); ``why=`` (why points were given or a seat left); the
action block.

Speed (a write is a few µs; the view and its generic encoding cost several times
more): the seats' region is kept and only the fields that changed since the last write
are rebuilt (one action changes one or two); the log's region is kept for the round's
log (append-only, one list per round and state): new entries shift the older ones
down, each entry's slots are memoised; everything else is set from precomputed offsets.
The caches compare values (or hold the very log list), so any state may be written
in any order: a fresh observer writes the same (tested).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from itertools import compress
from operator import ne
from typing import Any

from ...core.observation import Observer
from .cards import (
    CHIP_NAMES,
    CHIPS_PER_TYPE,
    IDENTITY_NAMES,
    K_ACCUSE,
    K_BUY,
    K_COLLECT,
    K_EARN,
    K_ENCHANT,
    K_HARVEST,
    K_JGRAIN,
    K_JWINE,
    K_PRESS,
    K_STEAL,
    K_TAKEGOLD,
    K_TAX,
    K_TRADE,
    MAX_SHOW,
    NUM_IDENTITIES,
    SEATS_OF,
)
from .claims import CLAIM_FOR_NAMES, claims_in
from .phases import PHASE_NAMES, Phase
from .state import HoaxGame, HoaxState

#: Bound once: reading a member off an Enum class costs a lookup per write (3.11).
_SHOW, _PASS = Phase.SHOW, Phase.PASS

#: The kinds a seat can declare in S0, in the action block's order (their text forms).
DECLARE_KINDS = (K_TAKEGOLD, K_TAX, K_PRESS, K_COLLECT, K_JWINE, K_JGRAIN, K_EARN, K_TRADE,
                 K_ENCHANT, K_STEAL, K_HARVEST, K_BUY, K_ACCUSE)
DECLARE_NAMES = ("baron takegold", "baron tax", "monk press", "monk collect", "judge wine",
                 "judge grain", "merchant earn", "merchant trade", "magician enchant",
                 "thief steal", "farmer harvest", "buy", "accuse")
#: Every kind of log entry (``HoaxState.log``; the view's log shows the same entries).
LOG_KINDS = ("declare", "execute", "doubt", "vote", "protect", "illegal", "fine", "forgive",
             "give", "show", "answer", "out", "points", "settled", "pass", "cover",
             "final_cover", "final")
#: Why points were given (``points`` entries) or a seat left the round (``out``).
WHYS = ("correct accusation", "refuted accusation", "unjustified doubt", "final won",
        "final lost", "accused correctly", "wrong accusation")
LOG_SLOTS = 8
#: Scales of the numeric slots (a natural maximum each).
TP_SCALE = 0.1
CHIP_SCALE = 1.0 / CHIPS_PER_TYPE
ROUND_SCALE = 0.1
TURN_SCALE = 0.01
LOG_LENGTH_SCALE = 1.0 / 64
CLAIM_SCALE = 0.2
POINTS_SCALE = 0.25

#: Identity masks: the set bits, and the 7 slot values as an array (one slice copy).
_BITS7: tuple[tuple[int, ...], ...] = tuple(
    tuple(x for x in range(NUM_IDENTITIES) if m >> x & 1) for m in range(1 << NUM_IDENTITIES))
_ROW7: tuple[array[float], ...] = tuple(
    array("f", [float(m >> x & 1) for x in range(NUM_IDENTITIES)])
    for m in range(1 << NUM_IDENTITIES))

#: The same as bytes, and a one-hot row per identity (index -1, the last: no identity).
_ROW7B: tuple[bytes, ...] = tuple(row.tobytes() for row in _ROW7)
_ONE7B: tuple[bytes, ...] = (*(_ROW7B[1 << x] for x in range(NUM_IDENTITIES)), _ROW7B[0])

#: The seats' public records, field after field (each for seats 0..n-1): name, the
#: names of its slots (None: a single slot), numeric, and the form of the value it is
#: written from (``_seat_field``): a seat mask, per-seat numbers with their scale,
#: per-seat identity masks, per-seat identities (-1: none).
SEAT_FIELDS: tuple[tuple[str, tuple[str, ...] | None, bool, str], ...] = (
    ("in_round", None, False, "seats"), ("throne_points", None, True, "tp"),
    ("loose", CHIP_NAMES, True, "chips"), ("trios", None, True, "chips"),
    ("covered", IDENTITY_NAMES, False, "masks"),
    ("start_cover", IDENTITY_NAMES, False, "identities"),
    ("doubt_covered", IDENTITY_NAMES, False, "masks"),
    ("revealed", IDENTITY_NAMES, False, "identities"),
    ("proven", IDENTITY_NAMES, False, "identities"),
    ("proven_not", IDENTITY_NAMES, False, "masks"),
    ("last_reveal", IDENTITY_NAMES, False, "identities"))

_SEAT_FIELD_INDEX = range(len(SEAT_FIELDS))

Pairs = tuple[tuple[int, float], ...]


class HoaxObserver(Observer):
    """The observation of one configured HOAX game (see the module docstring)."""

    def __init__(self, game: HoaxGame) -> None:
        super().__init__(game)
        n = game.num_players
        self.n = n
        seats = [f"seat{s}" for s in range(n)]
        ids = IDENTITY_NAMES
        # -- public part ----------------------------------------------------------
        self.phase = self.slots("phase", PHASE_NAMES)
        self.active = self.slots("active", range(n))
        self.to_act = self.slots("to_act", range(n))
        self.in_final = self.slot("in_final")
        self.over = self.slot("over")
        self.winner = self.slots("winner", range(n))
        self.round = self.slot("round", numeric=True)
        self.turn = self.slot("turn", numeric=True)
        self.bank = self.slots("bank", CHIP_NAMES, numeric=True)
        # the seats' public records, field-major: a field that did not change since
        # the last write keeps its slots (see ``_write_seats``)
        self.seats_start = self.size
        self.seat_spans: list[tuple[int, int]] = []  # (offset in the region, width)
        for field, names, numeric, _form in SEAT_FIELDS:
            first = self.size
            for name in seats:
                if names is None:
                    self.slot(f"{name}.{field}", numeric)
                else:
                    self.slots(f"{name}.{field}", names, numeric)
            self.seat_spans.append((first - self.seats_start, self.size - first))
        self.seats_end = self.size
        # the turn in progress
        self.pending_action = self._action_block("pending.action")
        self.protected = self.slots("pending.protected", range(n))
        self.barons = self.slots("pending.barons", range(n))
        self.fines = self._per_seat("pending.fines", CHIP_NAMES)
        self.forgivenesses = self._per_seat("pending.forgivenesses", CHIP_NAMES)
        self.reacted = self.slots("pending.reacted", range(n))
        self.departing = self.slot("pending.departing")
        self.window = self.slots("pending.window", range(n))
        self.claim_seat = self.slots("pending.claim.seat", range(n))
        self.claim_identity = self.slots("pending.claim.identity", ids)
        self.claim_for = self.slots("pending.claim.for", CLAIM_FOR_NAMES)
        self.claim_opener = self.slots("pending.claim.opener", range(n))
        self.show_by = self.slots("pending.show.by", range(n))
        self.show_count = self.slot("pending.show.count", numeric=True)
        self.pass_type = self.slots("pending.pass.type", CHIP_NAMES)
        # the round's log: its length, the last entries, the claims made in it
        self.log_start = self.slot("log.length", numeric=True)
        self.log_first = self._log_block("log[-1]")
        for k in range(2, LOG_SLOTS + 1):
            self._log_block(f"log[-{k}]")
        self.log_entry_size = (self.size - self.log_first) // LOG_SLOTS
        self.claims = self._per_seat("claims", ids, numeric=True)
        self.public_size = self.log_end = self.size
        #: the single offsets ``_write_public`` uses, in one tuple (one load)
        self._offsets = (
            self.phase, self.active, self.to_act, self.in_final, self.over, self.winner,
            self.round, self.turn, self.bank, self.pending_action, self.protected,
            self.barons, self.reacted, self.window, self.fines, self.forgivenesses,
            self.departing, self.claim_seat, self.claim_identity, self.claim_for,
            self.claim_opener, self.show_by, self.show_count, self.pass_type)
        # -- private part -----------------------------------------------------------
        self.identity = self.slots("identity", ids)
        self.shown_to_me = self._per_seat("shown_to_me", ids)
        self.shown_by_me = self._per_seat("shown_by_me", ids)
        self.my_vote = self.slots("my_vote", ("doubt", "trust"))

        # -- tables: every action's and (lazily) every log entry's slots ------------
        tab = game.table
        self.action_pairs: list[Pairs] = [self._action_pairs(a) for a in range(tab.size)]
        self.table = tab
        self._entry_slots: dict[tuple[Any, ...], array[float]] = {}
        self.forget()

    def forget(self) -> None:
        """Drop the caches (see the module docstring): the next write builds all."""
        #: the seats' region and the field values it was written from
        self._seats = array("f", bytes(4 * (self.seats_end - self.seats_start)))
        self._seats_from: list[Any] = [None] * len(SEAT_FIELDS)
        #: the log's region (length, entries, claims) for ``_log`` (a state's round log,
        #: append-only) at length ``_log_len``, and the claim counts in it
        self._log: list[tuple[Any, ...]] | None = None
        self._log_len = 0
        self._log_slots = array("f")
        self._claim_counts = [0] * (self.n * NUM_IDENTITIES)
        self._no_types = [-1] * self.n

    # ================================================================ layout helpers
    def _per_seat(self, label: str, names: Sequence[object], numeric: bool = False) -> int:
        """``label.seat{s}=name`` for every seat and name, seat after seat; the first."""
        first = self.size
        for s in range(self.n):
            self.slots(f"{label}.seat{s}", names, numeric)
        return first

    def _block(self, label: str, fields: Sequence[tuple[str, Sequence[object] | None, bool]]
               ) -> tuple[int, dict[str, int]]:
        """Slots ``label.field`` (or ``label.field=name``); the first, and each field's
        offset from it."""
        first = self.size
        offsets = {}
        for field, names, numeric in fields:
            offsets[field] = self.size - first
            if names is None:
                self.slot(f"{label}.{field}", numeric)
            else:
                self.slots(f"{label}.{field}", names, numeric)
        return first, offsets

    def _action_block(self, label: str) -> int:
        first, self.action_at = self._block(label, (
            ("kind", DECLARE_NAMES, False), ("target", [*range(self.n), "bank"], False),
            ("type", CHIP_NAMES, False), ("get", CHIP_NAMES, False),
            ("identity", IDENTITY_NAMES, False), ("count", None, True),
            ("from_trios", None, True)))
        return first

    def _log_block(self, label: str) -> int:
        seats = range(self.n)
        first, self.log_at = self._block(label, (
            ("kind", LOG_KINDS, False), ("seat", seats, False), ("other", seats, False),
            ("seats", seats, False), ("identity", IDENTITY_NAMES, False),
            ("identities", IDENTITY_NAMES, False), ("type", CHIP_NAMES, False),
            ("right", None, False), ("official", None, False), ("justified", None, False),
            ("count", None, True), ("got", CHIP_NAMES, True), ("why", WHYS, False)))
        self.log_at["action"] = self._action_block(f"{label}.action") - first
        return first

    def _action_pairs(self, a: int) -> Pairs:
        """(slot offset in the action block, value) for action ``a``; () if it cannot be
        declared."""
        tab = self.game.table  # type: ignore[attr-defined]
        k = tab.kind[a]
        if k not in DECLARE_KINDS:
            return ()
        at = self.action_at
        target, typ, get, ident = at["target"], at["type"], at["get"], at["identity"]
        count, from_trios = at["count"], at["from_trios"]
        x, y, z, w = tab.p1[a], tab.p2[a], tab.p3[a], tab.p4[a]
        out = [(at["kind"] + DECLARE_KINDS.index(k), 1.0)]
        if k == K_TAX:
            out.append((typ + x, 1.0))
        elif k == K_TRADE:  # partner x (n: the bank), give y, get z, w chips
            out += [(target + x, 1.0), (typ + y, 1.0), (get + z, 1.0), (count, w * CHIP_SCALE)]
        elif k == K_ENCHANT:
            out.append((target + x, 1.0))
        elif k == K_STEAL:  # from x, type y, z chips, w of them out of trios
            out += [(target + x, 1.0), (typ + y, 1.0), (count, z / 2), (from_trios, w / 2)]
        elif k == K_BUY:  # from x, y identities
            out += [(target + x, 1.0), (count, y / MAX_SHOW)]
        elif k == K_ACCUSE:  # x is identity y
            out += [(target + x, 1.0), (ident + y, 1.0)]
        return tuple(out)

    def entry_slots(self, e: tuple[Any, ...]) -> array[float]:
        """The slots of a log block for entry ``e`` (memoised: entries recur)."""
        got = self._entry_slots.get(e)
        if got is None:
            got = array("f", bytes(4 * self.log_entry_size))
            for i, v in self.entry_pairs(e):
                got[i] = v
            if len(self._entry_slots) > 20_000:
                self._entry_slots.clear()
            self._entry_slots[e] = got
        return got

    def entry_pairs(self, e: tuple[Any, ...]) -> Pairs:
        """(slot offset in a log block, value) for log entry ``e``."""
        at = self.log_at
        other, seats, ident, idents = at["other"], at["seats"], at["identity"], at["identities"]
        typ, right, official, justified = at["type"], at["right"], at["official"], at["justified"]
        count, got_t, why = at["count"], at["got"], at["why"]
        k = e[0]
        out = [(at["kind"] + LOG_KINDS.index(k), 1.0), (at["seat"] + e[1], 1.0)]
        if k in ("declare", "execute"):
            out += [(at["action"] + i, v) for i, v in self.action_pairs[e[2]]]
            if k == "execute":
                out += [(got_t + t, c * CHIP_SCALE) for t, c in enumerate(e[3]) if c]
        elif k == "doubt":  # doubter, claimant, identity
            out += [(other + e[2], 1.0), (ident + e[3], 1.0)]
        elif k == "vote":  # claimant, identity, doubters, official, justified (or None)
            out += [(ident + e[2], 1.0), *((seats + s, 1.0) for s in SEATS_OF[e[3]])]
            if e[4]:
                out.append((official, 1.0))
            if e[5]:
                out.append((justified, 1.0))
        elif k in ("fine", "forgive", "give"):
            out.append((typ + e[2], 1.0))
        elif k == "show":  # shower, shown to, how many
            out += [(other + e[2], 1.0), (count, e[3] / MAX_SHOW)]
        elif k == "answer":  # accused, identity, juist
            out.append((ident + e[2], 1.0))
            if e[3]:
                out.append((right, 1.0))
        elif k == "out":
            out.append((why + WHYS.index(e[2]), 1.0))
        elif k == "points":  # seat, points, why
            out += [(count, e[2] * POINTS_SCALE), (why + WHYS.index(e[3]), 1.0)]
        elif k == "settled":  # payer, and unless nothing was paid: payee, type, chips
            if len(e) > 3:
                out += [(other + e[2], 1.0), (typ + e[3], 1.0), (count, e[4] / 2)]
        elif k == "pass":  # Judge, Baron, type
            out += [(other + e[2], 1.0), (typ + e[3], 1.0)]
        elif k == "cover":
            out.append((ident + e[2], 1.0))
        elif k == "final_cover":
            out += [(idents + x, 1.0) for x in _BITS7[e[2]]]
        elif k == "final":
            out.append((other + e[2], 1.0))
        elif k not in ("protect", "illegal"):
            raise AssertionError(f"unknown log entry {e!r}")
        return tuple(out)

    # ================================================================ writing
    def write(self, state: HoaxState, seat: int, D: array[float]) -> None:  # type: ignore[override]
        self._write_public(state, D)
        # -- the seat's own: identity, what it was shown and showed, its vote
        D[self.identity + (state.card[seat] >> 1)] = 1.0
        sh = state.shown
        if any(sh):  # information was bought this round
            n = self.n
            for q, m in enumerate(sh[seat::n]):  # what q showed me
                if m:
                    b = self.shown_to_me + 7 * q
                    D[b:b + NUM_IDENTITIES] = _ROW7[m]
            for a, m in enumerate(sh[seat * n:seat * n + n]):  # what I showed a
                if m:
                    b = self.shown_by_me + 7 * a
                    D[b:b + NUM_IDENTITIES] = _ROW7[m]
        if state.voted >> seat & 1 and state.claim is not None:
            D[self.my_vote + (0 if state.votes_yes >> seat & 1 else 1)] = 1.0

    def _write_public(self, state: HoaxState, D: array[float]) -> None:
        (phase, active, to_act, in_final, over, winner, round_, turn, bank, action, protected,
         barons, reacted, window, fines, forgivenesses, departing, claim_seat, claim_identity,
         claim_for, claim_opener, show_by, show_count, pass_type) = self._offsets
        ph = state.phase
        D[phase + ph] = 1.0
        if state.active >= 0:
            D[active + state.active] = 1.0
        for s in state.to_act():
            D[to_act + s] = 1.0
        if state.in_final:
            D[in_final] = 1.0
        if state.over:
            D[over] = 1.0
            if state.winner is not None:
                D[winner + state.winner] = 1.0
        D[round_] = state.round_no * ROUND_SCALE
        D[turn] = state.turns * TURN_SCALE
        chips = state.bank
        D[bank] = chips[0] * CHIP_SCALE
        D[bank + 1] = chips[1] * CHIP_SCALE
        D[bank + 2] = chips[2] * CHIP_SCALE
        self._write_seats(state, D)

        # -- the turn in progress
        act = state.act
        if act >= 0:
            for i, v in self.action_pairs[act]:
                D[action + i] = v
        m = state.protected
        if m:
            for s in SEATS_OF[m]:
                D[protected + s] = 1.0
        m = state.barons
        if m:
            for s in SEATS_OF[m]:
                D[barons + s] = 1.0
        m = state.reacted
        if m:
            for s in SEATS_OF[m]:
                D[reacted + s] = 1.0
        m = state._window_mask()
        if m:
            for s in SEATS_OF[m]:
                D[window + s] = 1.0
        types = state.fine_t
        if types != self._no_types:
            for s, t in enumerate(types):
                if t >= 0:
                    D[fines + 3 * s + t] = 1.0
        types = state.forgive_t
        if types != self._no_types:
            for s, t in enumerate(types):
                if t >= 0:
                    D[forgivenesses + 3 * s + t] = 1.0
        if state.departing:
            D[departing] = 1.0
        claim = state.claim
        if claim is not None:
            D[claim_seat + claim.seat] = 1.0
            D[claim_identity + claim.identity] = 1.0
            D[claim_for + claim.kind] = 1.0
            if state.opener >= 0:
                D[claim_opener + state.opener] = 1.0
        if ph is _SHOW:
            D[show_by + state.show_q] = 1.0
            D[show_count] = state.show_k / MAX_SHOW
        elif ph is _PASS:
            D[pass_type + state.pass_type] = 1.0
        self._write_log(state.log, D)

    def _write_seats(self, state: HoaxState, D: array[float]) -> None:
        """The seats' records. Most actions change one or two of their fields (chips,
        covers, …): only those are rebuilt, the region is copied as a whole."""
        rev = state.revealed
        now = [state.in_round, state.tp, state.loose, state.trios, state.covered,
               state.start_cover, state.doubt_cov,
               [c >> 1 if rev >> s & 1 else -1 for s, c in enumerate(state.card)] if rev
               else None,
               state.known_is, state.known_not, state.last_reveal]
        before = self._seats_from
        region = self._seats
        if now != before:  # (one C-level comparison when nothing changed)
            for f in compress(_SEAT_FIELD_INDEX, list(map(ne, now, before))):
                v = now[f]
                o, w = self.seat_spans[f]
                region[o:o + w] = self._seat_field(f, v, w)
                before[f] = v.copy() if isinstance(v, list) else v
        D[self.seats_start:self.seats_end] = region

    def _seat_field(self, f: int, v: Any, width: int) -> array[float]:
        """The slots of seat field ``f`` (``SEAT_FIELDS``) for its value ``v``."""
        form = SEAT_FIELDS[f][3]
        if v is None:  # nothing revealed (yet)
            return array("f", bytes(4 * width))
        if form == "seats":
            return array("f", [float(v >> s & 1) for s in range(self.n)])
        if form == "tp":
            return array("f", [x * TP_SCALE for x in v])
        if form == "chips":
            return array("f", [x * CHIP_SCALE for x in v])
        if form == "masks":
            return array("f", b"".join([_ROW7B[m] for m in v]))
        return array("f", b"".join([_ONE7B[x] for x in v]))  # identities, -1 for none

    def _write_log(self, log: list[tuple[Any, ...]], D: array[float]) -> None:
        """The log's region. A state's round log only grows (a new round starts a new
        list): new entries push the older ones down; claims are counted once."""
        start, end = self.log_start, self.log_end
        size = len(log)
        if log is self._log and size >= self._log_len:
            new = size - self._log_len
            if not new:
                D[start:end] = self._log_slots
                return
            region = self._log_slots
        else:  # another list: a new round, or another state
            new = size
            region = self._log_slots = array("f", bytes(4 * (end - start)))
            self._claim_counts = [0] * len(self._claim_counts)
        self._log, self._log_len = log, size
        # claims of identities by seat
        counts = self._claim_counts
        claims = self.claims - start
        for p, x in claims_in(log[size - new:], self.table):
            i = p * NUM_IDENTITIES + x
            counts[i] += 1
            region[claims + i] = counts[i] * CLAIM_SCALE
        region[0] = size * LOG_LENGTH_SCALE
        # the last entries: log[-1] first
        E = self.log_entry_size
        first = self.log_first - start
        k = min(new, LOG_SLOTS)
        if k < LOG_SLOTS:
            region[first + k * E:first + LOG_SLOTS * E] = region[first:first + (LOG_SLOTS - k) * E]
        entry_slots = self.entry_slots
        for j in range(k):
            b = first + j * E
            region[b:b + E] = entry_slots(log[size - 1 - j])
        D[start:end] = region


__all__ = ["HoaxObserver"]
