"""What each seat may see of a HOAX state: the view (``State.view``) and the full view.

One ``HoaxViews`` per configured game (``HoaxGame.views``) owns every cache and memo
the views use, as an observer owns its buffers: a view is built from the state's
fields alone, and parts whose inputs did not change since the last view are the very
same (read-only) objects, because rebuilding them costs more than comparing their
inputs (not the turn in progress, ``pending``, whose inputs change with nearly every
move). The caches compare values (or hold the very list they were built from), so
views of any states of the game, in any order, are right; the states keep no caches.
The seats of one state share the public part of their views (``_public``): a state
changes only through ``apply``, which advances its ``move_number``.
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING, Any, Final

from .cards import (
    CARD_CODES,
    CHIP_NAMES,
    IDENTITY_NAMES,
    IDENTITY_ORIGINAL,
    NUM_IDENTITIES,
    SEATS_OF,
)
from .claims import CLAIM_FOR_NAMES
from .phases import Phase

if TYPE_CHECKING:
    from .state import HoaxGame, HoaxState

#: The per-seat fields of the state that the seats' public records read, each with the
#: number of entries per seat; the record memo's keys and ``public_key`` come from it.
RECORD_FIELDS: Final[tuple[tuple[str, int], ...]] = (
    ("tp", 1), ("loose", 3), ("trios", 1), ("covered", 1), ("start_cover", 1),
    ("doubt_cov", 1), ("known_is", 1), ("known_not", 1))
#: Entries of ``public_key`` before the per-seat fields: in_round, revealed, face-up cards.
_SHARED: Final = 3

#: Identity names of every identity mask.
_NAMES: Final[tuple[tuple[str, ...], ...]] = tuple(
    tuple(IDENTITY_NAMES[x] for x in range(NUM_IDENTITIES) if m >> x & 1)
    for m in range(1 << NUM_IDENTITIES))
#: Seats of a mask as (shared, read-only) lists.
_SEAT_LISTS: Final[tuple[list[int], ...]] = tuple(list(m) for m in SEATS_OF)
#: Identity names of every identity mask as (shared, read-only) lists.
_NAME_LISTS: Final[tuple[list[str], ...]] = tuple(list(names) for names in _NAMES)
#: Memo sizes: past them a memo starts again (a long game cannot grow it without end).
_MAX_RECORDS: Final = 50_000


def public_key(s: HoaxState) -> tuple[Any, ...]:
    """Every field the seats' public records read, flat: in_round, revealed, the cards
    while one lies face up (only those are read), then the fields of ``RECORD_FIELDS``
    in its order (``test_views`` holds the two to each other)."""
    return (s.in_round, s.revealed, tuple(s.card) if s.revealed else None,
            *s.tp, *s.loose, *s.trios, *s.covered, *s.start_cover, *s.doubt_cov,
            *s.known_is, *s.known_not)


def seat_pickers(n: int) -> list[itemgetter[tuple[Any, ...]]]:
    """Per seat: picks the seat's entries out of ``public_key`` (``RECORD_FIELDS``)."""
    owner = [-1] * _SHARED + [s for _name, width in RECORD_FIELDS
                              for s in range(n) for _ in range(width)]
    return [itemgetter(*(i for i, o in enumerate(owner) if o == s)) for s in range(n)]


def names(mask: int) -> list[str]:
    """The identity names of a mask, as a new list."""
    return list(_NAMES[mask])


def _chips_by_seat(types: list[int]) -> dict[str, str]:
    """Standing fines or forgivenesses (chip type per seat, -1 for none)."""
    return {str(s): CHIP_NAMES[t] for s, t in enumerate(types) if t >= 0}


class HoaxViews:
    """The views of one configured game's states, with their caches and memos."""

    def __init__(self, game: HoaxGame) -> None:
        self.n = game.num_players
        self.table = game.table
        self._pickers = seat_pickers(self.n)
        #: a seat's record memo: the entries it reads -> the (read-only) record
        self._records: dict[tuple[Any, ...], dict[str, Any]] = {}
        #: chip counts (bank, a seat's loose chips) -> the (read-only) dict
        self._chips: dict[tuple[int, ...], dict[str, int]] = {}
        #: the last view's parts and what they were built from
        self._seats: tuple[tuple[Any, ...], list[Any], list[dict[str, Any]]] | None = None
        self._log: list[Any] = [None, [], []]
        self._reveal: tuple[list[int] | None, list[str] | None] = (None, None)
        self._shown: tuple[list[int], list[Any]] | None = None
        #: the last state viewed, at which move, and the fields every seat's view shares
        self._last: tuple[HoaxState, int, dict[str, Any]] | None = None

    # ======================================================================= views
    def view(self, s: HoaxState, seat: int | None) -> dict[str, Any]:
        """HOAX's fields of ``seat``'s view (the core adds the shared ones)."""
        v = self._public(s).copy()
        if seat is not None and s.claim is not None and s.voted >> seat & 1:
            # votes run only in the vote phase, whose pending view ends with the claim
            v["pending"] = {**v["pending"],
                            "my_vote": "doubt" if s.votes_yes >> seat & 1 else "trust"}
        if seat is not None:
            x = s.card[seat] >> 1
            v["identity"] = IDENTITY_NAMES[x]
            v["identity_original"] = IDENTITY_ORIGINAL[x]
            v["shown_to_me"], v["shown_by_me"] = self._shown_view(s, seat)
        return v

    def full_view(self, s: HoaxState) -> dict[str, Any]:
        """Everything: the spectator's view, every card, what everyone showed, the votes."""
        v = self.view(s, None)
        n = self.n
        v["cards"] = [CARD_CODES[c] if c >= 0 else None for c in s.card]
        v["identities"] = [IDENTITY_NAMES[c >> 1] if c >= 0 else None for c in s.card]
        v["shown"] = {f"{q}>{a}": names(s.shown[q * n + a])
                      for q in range(n) for a in range(n) if s.shown[q * n + a]}
        v["votes"] = {"voted": list(SEATS_OF[s.voted]), "doubt": list(SEATS_OF[s.votes_yes])}
        return v

    def _public(self, s: HoaxState) -> dict[str, Any]:
        """The fields every seat's view shares (read-only: views copy the dict). Asked
        for one state again before it moved on (every seat of a window asks), the same
        dict: a state changes only through ``apply``, which advances ``move_number``."""
        last = self._last
        if last is not None and last[0] is s and last[1] == s.move_number:
            return last[2]
        public: dict[str, Any] = {
            "players": self.n,
            "round": s.round_no,
            "turn": s.turns,
            "active": s.active,
            "in_final": s.in_final,
            "bank": self._chips_view(s.bank),
            "seats": self._seats_view(s),
            # (built anew: its fields change with nearly every move)
            "pending": self._pending_view(s),
            "log": self._log_view(s),
            "last_reveal": self._reveal_view(s),
        }
        self._last = (s, s.move_number, public)  # one assignment: a reader sees all or none
        return public

    # ======================================================================= parts
    def _chips_view(self, counts: list[int]) -> dict[str, int]:
        """``{"gold": …, "wine": …, "grain": …}``, one shared dict per content."""
        key = tuple(counts)
        out = self._chips.get(key)
        if out is None:  # at most 21**3 contents
            out = self._chips[key] = dict(zip(CHIP_NAMES, counts, strict=True))
        return out

    def _seats_view(self, s: HoaxState) -> list[dict[str, Any]]:
        """The public records of all seats: the same list while none of them changed,
        else a new list that keeps the records of the seats that did not change."""
        key = public_key(s)
        cache = self._seats
        if cache is not None and cache[0] == key:
            return cache[2]
        mine = [pick(key) for pick in self._pickers]
        if cache is None:
            seats = [self._record(s, p, mine[p]) for p in range(self.n)]
        else:
            old_key, old_mine, old = cache
            changed = (key[0] ^ old_key[0]) | (key[1] ^ old_key[1])  # out / face up
            if key[2] != old_key[2]:  # other cards: those face up are read again
                changed |= key[1]
            seats = [self._record(s, p, mine[p])
                     if changed >> p & 1 or mine[p] != old_mine[p] else old[p]
                     for p in range(self.n)]
        self._seats = (key, mine, seats)
        return seats

    def _record(self, s: HoaxState, p: int, entries: tuple[Any, ...]) -> dict[str, Any]:
        """Seat ``p``'s public record, memoised on what it reads (``entries``, its part of
        ``public_key``, and its bits of ``in_round`` and ``revealed``)."""
        key = (entries, s.in_round >> p & 1, s.card[p] if s.revealed >> p & 1 else None)
        out = self._records.get(key)
        if out is None:
            if len(self._records) > _MAX_RECORDS:
                self._records.clear()
            out = self._records[key] = self._build_record(s, p)
        return out

    def _build_record(self, s: HoaxState, p: int) -> dict[str, Any]:
        """Seat ``p``'s public record: chips, points, covers, proofs (§2, §5.4, §7.1)."""
        i = 3 * p
        out: dict[str, Any] = {
            "in_round": bool(s.in_round >> p & 1),
            "throne_points": s.tp[p],
            "loose": self._chips_view(s.loose[i:i + 3]),
            "trios": s.trios[p],
            "covered": _NAME_LISTS[s.covered[p]],
            "start_cover": IDENTITY_NAMES[s.start_cover[p]] if s.start_cover[p] >= 0
            else None,
            "doubt_covered": _NAME_LISTS[s.doubt_cov[p]],
        }
        if s.revealed >> p & 1:
            out["revealed"] = IDENTITY_NAMES[s.card[p] >> 1]
        if s.known_is[p] >= 0:
            out["proven"] = IDENTITY_NAMES[s.known_is[p]]
        if s.known_not[p]:
            out["proven_not"] = _NAME_LISTS[s.known_not[p]]
        return out

    def _log_view(self, s: HoaxState) -> list[Any]:
        """The round's log as JSON. A round's log only grows and its entries are tuples,
        so converted entries are kept (for the log list: a new round, and a copy of the
        state, have their own) and only new ones converted; while the log does not grow,
        successive views share the same list. A copy of a state (a search's
        determinisation) shares its log's entries: those of the common beginning are
        not converted again."""
        cache = self._log
        log = s.log
        if cache[0] is not log:
            source, converted = cache[0], cache[1]
            same = 0
            if source is not None:
                end = min(len(converted), len(log))
                while same < end and log[same] is source[same]:
                    same += 1
            cache = self._log = [log, converted[:same], None]
        done = cache[1]
        if len(done) < len(log) or cache[2] is None:
            done.extend(self._convert_log(log[len(done):]))
            cache[2] = done[:]  # ``done`` keeps growing: views get a copy
        return cache[2]  # type: ignore[no-any-return]

    def _convert_log(self, entries: list[tuple[Any, ...]]) -> list[Any]:
        """Log entries with names for the numbers (actions, identities, answers)."""
        text = self.table.text
        out: list[Any] = []
        for e in entries:
            k = e[0]
            if k == "declare":
                out.append([k, e[1], text(e[2])])
            elif k == "execute":
                out.append([k, e[1], text(e[2]), list(e[3])])
            elif k == "vote":
                out.append([k, e[1], IDENTITY_NAMES[e[2]], list(SEATS_OF[e[3]]), e[4], e[5]])
            elif k == "cover":
                out.append([k, e[1], IDENTITY_NAMES[e[2]]])
            elif k == "doubt":
                out.append([k, e[1], e[2], IDENTITY_NAMES[e[3]]])
            elif k == "answer":
                out.append([k, e[1], IDENTITY_NAMES[e[2]], "juist" if e[3] else "fout"])
            elif k == "final_cover":
                out.append([k, e[1], names(e[2])])
            else:
                out.append([x if not isinstance(x, tuple) else list(x) for x in e])
        return out

    def _reveal_view(self, s: HoaxState) -> list[str] | None:
        """The last final's reveal (§6); ``last_reveal`` is replaced, never changed."""
        lr = s.last_reveal
        if lr is None:
            return None
        if self._reveal[0] is not lr:
            self._reveal = (lr, [IDENTITY_NAMES[x] for x in lr] if lr else None)
        return self._reveal[1]

    def _shown_view(self, s: HoaxState, seat: int
                    ) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        """(shown to ``seat``, shown by ``seat``) per other seat (§3 BuyInfo), built once
        per content of ``shown`` (it changes only when information is bought)."""
        cache = self._shown
        if cache is None or cache[0] != s.shown:
            cache = self._shown = (s.shown[:], [None] * self.n)
        got = cache[1][seat]
        if got is None:
            n = self.n
            sh = s.shown
            got = cache[1][seat] = (
                {str(q): names(sh[q * n + seat]) for q in range(n) if sh[q * n + seat]},
                {str(a): names(sh[seat * n + a]) for a in range(n) if sh[seat * n + a]})
        return got  # type: ignore[no-any-return]

    def _pending_view(self, s: HoaxState) -> dict[str, Any]:
        """The declared action, the reactions standing (S2–S8), the claim under doubt
        (§5) and what the phase waits for."""
        window = s._window_mask()
        p: dict[str, Any] = {
            "action": self.table.text(s.act) if s.act >= 0 else None,
            "protected": _SEAT_LISTS[s.protected],
            "barons": _SEAT_LISTS[s.barons],
            "fines": _chips_by_seat(s.fine_t) if max(s.fine_t) >= 0 else {},
            "forgivenesses": _chips_by_seat(s.forgive_t) if max(s.forgive_t) >= 0 else {},
            "reacted": _SEAT_LISTS[s.reacted],
            "departing": s.departing,
            "window": _SEAT_LISTS[window],
        }
        claim = s.claim
        if claim is not None:
            p["claim"] = {"seat": claim.seat, "identity": IDENTITY_NAMES[claim.identity],
                          "for": CLAIM_FOR_NAMES[claim.kind], "opener": s.opener}
        phase = s.phase
        if phase is Phase.SHOW:
            p["show"] = {"by": s.show_q, "to": s.active, "count": s.show_k}
        elif phase is Phase.GIVE:
            p["giving"] = _SEAT_LISTS[s.give_pending]
        elif phase is Phase.PASS:
            p["pass"] = {"judge": s.pass_judge, "type": CHIP_NAMES[s.pass_type]}
        return p


__all__ = ["RECORD_FIELDS", "HoaxViews", "names", "public_key", "seat_pickers"]
