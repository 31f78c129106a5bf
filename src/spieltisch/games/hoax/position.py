"""HOAX positions (issue 19): the ``"state"`` object of a position, written and read.

Cards are named by code (``"FAR1"``), identities and chip types by name, phases by
name (``"declare"``, ``"vote"`` …), seats by number. ``"seats"`` holds one record per
seat (its card, throne points, covers, proofs, chips, what it showed to whom),
``"turn"`` the turn in progress, ``"log"`` the round's log. Not written, because they
follow from the rest: the bank (the chips no seat holds), ``covered`` (the union of a
seat's covers), who still takes a starting chip, the winner, and in phase ``show`` who
shows how many. ``docs/positions.md`` describes every field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core.cards import Shuffler
from ...core.game import ConfigError
from ...core.position import Fields, check_distinct, check_int
from .cards import (
    BARON,
    CARD_CODES,
    CHIP_NAMES,
    CHIPS_PER_TYPE,
    CLAIM_OF_KIND,
    IDENTITY_NAMES,
    JUDGE,
    K_BUY,
    K_COLLECT,
    K_ENCHANT,
    K_TAX,
    K_TRADE,
    MAGICIAN,
    MONK,
    NUM_IDENTITIES,
    SEATS_OF,
)
from .claims import CLAIM_FOR_NAMES, CLAIMED_IDENTITY, Claim, ClaimFor
from .legal import pass_barons, settle_options
from .observation import DECLARE_KINDS, WHYS
from .phases import CLAIM_PHASES, PHASE_NAMES, SETUP, WINDOWS, Phase
from .state import WIN_POINTS, HoaxGame, HoaxState
from .turn import targets, uncovered

#: How the core names the object this module reads.
WHERE = "position.state"
#: Actions whose targets get a protect window (§9.9; a trade only with a seat).
PROTECTABLE = frozenset((K_TAX, K_COLLECT, K_TRADE, K_ENCHANT))


# ======================================================================= writing
def write(s: HoaxState) -> dict[str, Any]:
    """The ``"state"`` object of ``s``'s position."""
    return {
        "round": s.round_no,
        "turns": s.turns,
        "finals": s.finals,
        "phase": PHASE_NAMES[s.phase],
        "active": s.active,
        "final": s.in_final,
        "last_reveal": _names_of(s.last_reveal),
        "seats": [_write_seat(s, p) for p in range(s.n)],
        "turn": _write_turn(s),
        "log": [_write_entry(s, e) for e in s.log],
    }


def _write_seat(s: HoaxState, p: int) -> dict[str, Any]:
    n = s.n
    i = 3 * p
    return {
        "card": CARD_CODES[s.card[p]],
        "throne_points": s.tp[p],
        "in_round": bool(s.in_round >> p & 1),
        "revealed": bool(s.revealed >> p & 1),
        "start_cover": _name(s.start_cover[p]),
        "doubt_covered": _names(s.doubt_cov[p]),
        "final_covered": _names(s.final_cov[p]),
        "proven": _name(s.known_is[p]),
        "proven_not": _names(s.known_not[p]),
        "loose": dict(zip(CHIP_NAMES, s.loose[i:i + 3], strict=True)),
        "trios": s.trios[p],
        "shown_to": {str(a): _names(s.shown[p * n + a]) for a in range(n)
                     if s.shown[p * n + a]},
    }


def _write_turn(s: HoaxState) -> dict[str, Any]:
    window = s.phase in WINDOWS
    claim = None
    if s.claim is not None:
        claim = {"seat": s.claim.seat, "for": CLAIM_FOR_NAMES[s.claim.kind],
                 "type": _chip(s.claim.chip), "opener": s.opener if s.opener >= 0 else None,
                 "voted": _seats_of(s.voted), "doubt": _seats_of(s.votes_yes),
                 "pending": _seats_of(s.vote_pending)}
    return {
        "action": s.tab.text(s.act) if s.act >= 0 else None,
        "departing": s.departing,
        "protected": _seats_of(s.protected),
        "protect_tried": _seats_of(s.protect_tried),
        "reacted": _seats_of(s.reacted),
        "barons": _seats_of(s.barons),
        "fines": [_chip(t) for t in s.fine_t],
        "forgivenesses": [_chip(t) for t in s.forgive_t],
        "giving": _seats_of(s.give_pending),
        # outside a window these keep stale values nobody reads
        "window": _seats_of(s.win_mask) if window else [],
        "window_since": s.window_since if window else None,
        "claim": claim,
        "pass": {"judge": s.pass_judge, "type": CHIP_NAMES[s.pass_type]}
        if s.phase == Phase.PASS else None,
    }


def _write_entry(s: HoaxState, e: tuple[Any, ...]) -> list[Any]:
    """A log entry with names for numbers (``LOG_FIELDS`` gives each field's form)."""
    kind = e[0]
    if kind == "settled" and e[2] < 0:  # nothing was paid
        return [kind, e[1]]
    forms = LOG_FIELDS["settled_paid" if kind == "settled" else kind]
    return [kind, *(WRITE_FIELD[form](s, v) for form, v in zip(forms, e[1:], strict=True))]


def _name(x: int) -> str | None:
    return IDENTITY_NAMES[x] if x >= 0 else None


def _names(mask: int) -> list[str]:
    return [IDENTITY_NAMES[x] for x in range(NUM_IDENTITIES) if mask >> x & 1]


def _names_of(xs: list[int] | None) -> list[str] | None:
    return None if xs is None else [IDENTITY_NAMES[x] for x in xs]


def _chip(t: int) -> str | None:
    return CHIP_NAMES[t] if t >= 0 else None


def _seats_of(mask: int) -> list[int]:
    return list(SEATS_OF[mask])


# ======================================================================= reading
def read(game: HoaxGame, f: Fields, shuffler: Shuffler) -> HoaxState:
    """The state a position's ``"state"`` object describes, checked whole."""
    n = game.num_players
    s = HoaxState.empty(game, shuffler)  # every field at its "nothing yet" value
    s.round_no = f.int("round", 1, default=1)
    s.turns = f.int("turns", 0, default=0)
    s.finals = f.int("finals", 0, default=0)
    s.phase = Phase(PHASE_NAMES.index(f.str("phase", PHASE_NAMES)))
    s.active = f.int("active", 0, n - 1)
    s.in_final = f.bool("final", default=False)
    s.last_reveal = f.optional("last_reveal", lambda k: _identities(f, k, n))
    for p, seat in enumerate(f.subs("seats", n)):
        _read_seat(s, p, seat)
    check_distinct({f"{WHERE}.seats[{p}].card": [s.card[p]] for p in range(n)}, game,
                   complete=False)
    _check_seats(s)
    _derive(s)
    _read_turn(s, f.sub("turn", {}))
    s.log = [_read_entry(s, e, f"{WHERE}.log[{i}]")
             for i, e in enumerate(f.list("log", default=[]))]
    _derive_bank(s)
    _check_phase(s)
    return s


def _read_seat(s: HoaxState, p: int, f: Fields) -> None:
    n = s.n
    s.card[p] = _card(f)
    s.tp[p] = f.int("throne_points", 0, default=0)
    if not f.bool("in_round", default=True):
        s.in_round &= ~(1 << p)
    if f.bool("revealed", default=False):
        s.revealed |= 1 << p
    s.start_cover[p] = _optional_identity(f, "start_cover")
    s.doubt_cov[p] = _mask(_identities(f, "doubt_covered", default=[]))
    s.final_cov[p] = _mask(_identities(f, "final_covered", default=[]))
    s.known_is[p] = _optional_identity(f, "proven")
    s.known_not[p] = _mask(_identities(f, "proven_not", default=[]))
    loose = f.sub("loose", {})
    for t, name in enumerate(CHIP_NAMES):
        s.loose[3 * p + t] = loose.int(name, 0, default=0)
    loose.done()
    s.trios[p] = f.int("trios", 0, default=0)
    shown = f.sub("shown_to", {})
    for key in list(shown.data):
        if not key.isdigit() or not 0 <= int(key) < n or int(key) == p:
            raise ConfigError(f"{shown.path(key)}: {key!r} is not another seat's number "
                              f"(0 to {n - 1})")
        s.shown[p * n + int(key)] = _mask(_identities(shown, key))
    shown.done()
    f.done()


def _card(f: Fields) -> int:
    """The seat's identity card by code (``"BAR1"``)."""
    code = f.str("card")
    if code not in CARD_CODES:
        raise ConfigError(f"{f.path('card')}: there is no card {code!r} in hoax (two of each "
                          f"identity: BAR1 BAR2 MON1 … FAR2)")
    return CARD_CODES.index(code)


def _check_seats(s: HoaxState) -> None:
    """Each record agrees with the seat's own identity: covers, shows and proofs are of
    false identities, and a seat whose identity is known has left the round."""
    n = s.n
    for p in range(n):
        own = s.card[p] >> 1
        where = f"{WHERE}.seats[{p}]"
        name = IDENTITY_NAMES[own]
        sc = s.start_cover[p]
        if (s.doubt_cov[p] | s.final_cov[p] | (1 << sc if sc >= 0 else 0)) >> own & 1:
            raise ConfigError(f"{where} covers its own identity ({name})")
        for a in range(n):
            m = s.shown[p * n + a]
            if m >> own & 1:
                raise ConfigError(f"{where}.shown_to[{a}] names its own identity ({name}): "
                                  f"only false identities are shown")
            if sc >= 0 and m >> sc & 1:
                raise ConfigError(f"{where}.shown_to[{a}] names its round-start cover "
                                  f"({IDENTITY_NAMES[sc]}), which is never shown")
        if s.known_not[p] >> own & 1:
            raise ConfigError(f"{where}.proven_not names its own identity ({name})")
        if s.known_is[p] >= 0 and s.known_is[p] != own:
            raise ConfigError(f"{where}.proven is the {IDENTITY_NAMES[s.known_is[p]]}, but "
                              f"its card is the {name}")
        if (s.revealed >> p & 1 or s.known_is[p] >= 0) and s.in_round >> p & 1:
            raise ConfigError(f"{where}: a seat whose identity was revealed or proven has "
                              f"left the round (in_round must be false)")


def _derive(s: HoaxState) -> None:
    """The fields a position does not write: covers, pending chips, the end."""
    n = s.n
    for p in range(n):
        sc = s.start_cover[p]
        s.covered[p] = s.doubt_cov[p] | s.final_cov[p] | (1 << sc if sc >= 0 else 0)
    # nobody loses a chip before the first turn: a seat without one still takes it
    s.chip_pending = 0
    if s.phase in SETUP:
        s.chip_pending = sum(1 << p for p in range(n) if not _holds(s, p))
    s.over = s.phase == Phase.OVER
    winners = [p for p in range(n) if s.tp[p] >= WIN_POINTS]
    if s.over:
        if len(winners) != 1:
            raise ConfigError(f"phase over needs exactly one seat with {WIN_POINTS} throne "
                              f"points or more, not {len(winners)}")
        s.winner = winners[0]
    elif winners:
        raise ConfigError(f"seat {winners[0]} has {s.tp[winners[0]]} throne points: the game "
                          f"ends at {WIN_POINTS} (§6), so the phase must be over")


def _derive_bank(s: HoaxState) -> None:
    """The bank holds every chip no seat holds (nor the Judge's chip set aside)."""
    for t, name in enumerate(CHIP_NAMES):
        held = sum(s.loose[3 * p + t] + s.trios[p] for p in range(s.n))
        held += s.escrow if s.pass_type == t else 0
        if held > CHIPS_PER_TYPE:
            raise ConfigError(f"the seats hold {held} {name} (loose and in trios), but there "
                              f"are only {CHIPS_PER_TYPE}")
        s.bank[t] = CHIPS_PER_TYPE - held


def _read_turn(s: HoaxState, f: Fields) -> None:
    n = s.n
    T = s.tab
    text = f.optional("action", f.str)
    if text is not None:
        s.act = _declared(s, text, f.path("action"))
    s.departing = f.bool("departing", default=False)
    s.protected = _seats(f, "protected", n)
    s.protect_tried = _seats(f, "protect_tried", n)
    s.reacted = _seats(f, "reacted", n)
    s.barons = _seats(f, "barons", n)
    s.fine_t = _chips(f, "fines", n)
    s.forgive_t = _chips(f, "forgivenesses", n)
    s.give_pending = _seats(f, "giving", n)
    claim = f.optional("claim", f.sub)
    if claim is not None:
        _read_claim(s, claim)
    window = f.optional("window", lambda k: _seats(f, k, n))
    since = f.optional("window_since", lambda k: f.int(k, 0))
    if s.phase in WINDOWS:
        s.win_mask = _window_default(s) if window is None else window
        s._time_window(since or 0)
    elif window or since is not None:
        raise ConfigError(f"{f.path('window')}: only a reaction window (doubt, protect, "
                          f"illegal, fine, forgive) has one, not phase {PHASE_NAMES[s.phase]}")
    judge = f.optional("pass", f.sub)
    if (judge is None) != (s.phase != Phase.PASS):
        raise ConfigError(f"{f.path('pass')}: phase pass, and only it, names the Judge and "
                          f"the chip type passed on to a Baron")
    if judge is not None:
        s.pass_judge = judge.int("judge", 0, n - 1)
        s.pass_type = CHIP_NAMES.index(judge.str("type", CHIP_NAMES))
        s.escrow = 1  # the Judge's second chip, set aside while the Judge chooses
        judge.done()
    if s.phase == Phase.SHOW and s.act >= 0 and T.kind[s.act] == K_BUY:
        s.show_q = T.p1[s.act]
        s.show_k = min(T.p2[s.act], s.showable(s.show_q, s.active).bit_count())
    f.done()


def _read_claim(s: HoaxState, f: Fields) -> None:
    """The claim under doubt; the votes default to the opener's Doubt (§9.7)."""
    n = s.n
    seat = f.int("seat", 0, n - 1)
    kind = ClaimFor(CLAIM_FOR_NAMES.index(f.str("for", CLAIM_FOR_NAMES)))
    t = f.optional("type", lambda k: f.str(k, CHIP_NAMES))
    opener = f.optional("opener", lambda k: f.int(k, 0, n - 1))
    s.opener = -1 if opener is None else opener
    if kind == ClaimFor.ACTION:
        if s.act < 0 or CLAIM_OF_KIND[s.tab.kind[s.act]] < 0 or seat != s.active:
            raise ConfigError(f"{f.path('for')}: a claim for the action is the active "
                              f"seat's, of a declared personal action")
        identity = CLAIM_OF_KIND[s.tab.kind[s.act]]
    else:
        identity = CLAIMED_IDENTITY[kind]
    s.claim = Claim(seat, identity, kind, -1 if t is None else CHIP_NAMES.index(t))
    if (t is None) != (kind not in (ClaimFor.FINE, ClaimFor.FORGIVE)):
        raise ConfigError(f"{f.path('type')}: a fine or a forgiveness names its chip type, "
                          f"no other claim does")
    if kind == ClaimFor.SETTLE_PROTECT and seat != s.active:
        raise ConfigError(f"{f.path('seat')}: only the convicted actor protects at "
                          f"settlement")
    opened = 0 if s.opener < 0 else 1 << s.opener
    s.voted = _seats(f, "voted", n, default=opened)
    s.votes_yes = _seats(f, "doubt", n, default=opened)
    rest = s.in_round & ~(1 << seat) & ~s.voted
    s.vote_pending = _seats(f, "pending", n, default=rest if s.phase == Phase.VOTE else 0)
    f.done()


def _window_default(s: HoaxState) -> int:
    """Who the window admits when a position does not say: whom the game would admit
    if it opened the window now."""
    ph = s.phase
    if ph == Phase.DOUBT:
        return s.in_round & ~(1 << s.claim.seat) if s.claim is not None else 0
    if ph == Phase.PROTECT:
        return targets(s) & ~s.protect_tried & uncovered(s, MAGICIAN) if s.act >= 0 else 0
    claim = {Phase.ILLEGAL: BARON, Phase.FINE: JUDGE, Phase.FORGIVE: MONK}[ph]
    return uncovered(s, claim) & ~(1 << s.active) & ~s.reacted


# -- the phase against the rest -------------------------------------------------------
def _check_phase(s: HoaxState) -> None:
    """The phase agrees with the rest: a live phase never gets stuck or reads nonsense."""
    ph, n = s.phase, s.n
    name = PHASE_NAMES[ph]
    R = s.in_round.bit_count()
    for p in range(n):
        if not s.in_round >> p & 1 and _holds(s, p) and not (p == s.active and s.departing):
            raise ConfigError(f"{WHERE}.seats[{p}] has left the round but holds chips (they "
                              f"go to the bank)")
    if s.in_final and R != 2 and ph != Phase.OVER:
        raise ConfigError(f"{WHERE}.final: the final is played by two seats, but {R} are in "
                          f"the round")
    if s.claim is not None and ph not in CLAIM_PHASES and ph != Phase.OVER:
        raise ConfigError(f"{WHERE}.turn.claim: a claim is under doubt only in phases doubt "
                          f"and vote, not {name}")
    if ph in SETUP:
        _check_setup(s)
    elif ph != Phase.OVER:
        _check_turn(s)


def _check_setup(s: HoaxState) -> None:
    """Phases cover and chip begin a round: every seat in it, no chips but the chosen."""
    name = PHASE_NAMES[s.phase]
    if s.in_round != (1 << s.n) - 1 or s.in_final or s.act >= 0:
        raise ConfigError(f"phase {name} begins a round: every seat is in it, nothing is "
                          f"declared and there is no final")
    for p in range(s.n):
        chips = sum(s.loose[3 * p:3 * p + 3]) + 3 * s.trios[p]
        if s.phase == Phase.COVER and chips:
            raise ConfigError(f"{WHERE}.seats[{p}] holds chips in phase cover: the starting "
                              f"chips are taken after the covers")
        if s.phase == Phase.CHIP and chips > 1:
            raise ConfigError(f"{WHERE}.seats[{p}] holds {chips} chips in phase chip: each "
                              f"seat takes one")
        if s.phase == Phase.CHIP and s.start_cover[p] < 0:
            raise ConfigError(f"{WHERE}.seats[{p}].start_cover is null in phase chip: the "
                              f"covers come first")
    if s.phase == Phase.COVER and min(s.start_cover) >= 0:
        raise ConfigError("phase cover needs a seat that has not covered yet "
                          "(start_cover null)")
    if s.phase == Phase.CHIP and not s.chip_pending:
        raise ConfigError("phase chip needs a seat that has not taken its chip yet")


def _check_turn(s: HoaxState) -> None:
    """The phases of a turn (S0–S8): what each needs to go on."""
    ph, A, n, T = s.phase, s.active, s.n, s.tab
    name = PHASE_NAMES[ph]
    missing = [p for p in range(n) if s.start_cover[p] < 0]
    if missing:
        raise ConfigError(f"{WHERE}.seats[{missing[0]}].start_cover is null, but the covers "
                          f"are chosen before phase {name}")
    if ph == Phase.DECLARE:
        if s.act >= 0:
            raise ConfigError(f"{WHERE}.turn.action: nothing is declared yet in phase declare")
        if s.in_round.bit_count() < 2:
            raise ConfigError("phase declare needs at least two seats in the round")
    elif s.act < 0:
        raise ConfigError(f"{WHERE}.turn.action is missing: phase {name} follows a declared "
                          f"action")
    inside = bool(s.in_round >> A & 1)
    if s.departing:
        if inside or ph not in (Phase.PROTECT, Phase.GIVE, Phase.DOUBT, Phase.VOTE):
            raise ConfigError(f"{WHERE}.turn.departing: only an actor who has left the round "
                              f"by an unjustified doubt departs, while the action still runs "
                              f"(phases protect, give, doubt and vote)")
    elif not inside:
        raise ConfigError(f"seat {A} is active in phase {name} but not in the round")
    if ph in CLAIM_PHASES:
        _check_claim(s)
    kind = T.kind[s.act]
    if ph == Phase.PROTECT and (kind not in PROTECTABLE or kind == K_TRADE and T.p1[s.act] == n):
        raise ConfigError(f"phase protect follows a tax, collection, trade with a seat or "
                          f"enchantment, not {T.text(s.act)!r}")
    if ph == Phase.GIVE:
        if kind != K_COLLECT:
            raise ConfigError(f"phase give follows 'monk collect', not {T.text(s.act)!r}")
        if not s.give_pending:
            raise ConfigError(f"{WHERE}.turn.giving is empty: phase give waits for a seat")
        for p in SEATS_OF[s.give_pending]:
            if not s.in_round >> p & 1 or not sum(s.loose[3 * p:3 * p + 3]):
                raise ConfigError(f"{WHERE}.turn.giving: seat {p} must be in the round and "
                                  f"hold a loose chip to give")
    if ph == Phase.SHOW:
        if kind != K_BUY:
            raise ConfigError(f"phase show follows a 'buy', not {T.text(s.act)!r}")
        q = s.show_q
        if q == A or not s.in_round >> q & 1 or s.show_k < 1:
            raise ConfigError(f"phase show: seat {q} must be another seat in the round with "
                              f"an identity left to show seat {A}")
    if ph == Phase.FINE and not s.barons:
        raise ConfigError(f"phase fine needs a standing illegal declaration "
                          f"({WHERE}.turn.barons)")
    if ph == Phase.FORGIVE and max(s.fine_t) < 0:
        raise ConfigError(f"phase forgive needs a standing fine ({WHERE}.turn.fines)")
    if ph == Phase.SETTLE and not settle_options(s):
        raise ConfigError("phase settle needs a standing fine or forgiveness the actor can "
                          "still pay")
    if ph == Phase.PASS:
        j = s.pass_judge
        if not s.in_round >> j & 1 or s.fine_t[j] != s.pass_type or not pass_barons(s):
            raise ConfigError(f"phase pass: seat {j} must be a Judge in the round with a "
                              f"standing {CHIP_NAMES[s.pass_type]} fine, and a Baron other "
                              f"than the Judge must stand in the round")


def _check_claim(s: HoaxState) -> None:
    where = f"{WHERE}.turn.claim"
    if s.claim is None:
        raise ConfigError(f"{where} is missing: phase {PHASE_NAMES[s.phase]} doubts a claim")
    c, identity = s.claim.seat, s.claim.identity
    if not s.in_round >> c & 1:
        raise ConfigError(f"{where}.seat: seat {c} is not in the round")
    if s.covered[c] >> identity & 1:
        raise ConfigError(f"{where}: seat {c} claims the {IDENTITY_NAMES[identity]}, which "
                          f"it has covered")
    if s.phase == Phase.DOUBT:
        if s.opener >= 0 or s.voted or s.vote_pending:
            raise ConfigError(f"{where}: in phase doubt nobody has opened a doubt yet "
                              f"(opener null, no votes)")
        return
    voters = s.in_round & ~(1 << c)
    o = s.opener
    if o < 0 or not voters >> o & 1 or not s.votes_yes >> o & 1:
        raise ConfigError(f"{where}.opener: phase vote needs the seat that opened the doubt "
                          f"(another seat in the round; its vote is a Doubt)")
    if s.votes_yes & ~s.voted or s.voted & ~voters or not s.vote_pending \
            or s.vote_pending & (s.voted | ~voters):
        raise ConfigError(f"{where}: the voters are the other seats in the round: 'doubt' "
                          f"among 'voted', 'pending' the rest (not empty)")


def _holds(s: HoaxState, p: int) -> bool:
    return bool(sum(s.loose[3 * p:3 * p + 3]) or s.trios[p])


# -- small readers -------------------------------------------------------------------
def _declared(s: HoaxState, text: Any, where: str) -> int:
    """An action a player declares in S0, from its text."""
    a = s.tab.parse(text) if isinstance(text, str) else None
    if a is None or s.tab.kind[a] not in DECLARE_KINDS:
        raise ConfigError(f"{where}: {text!r} is not an action a player declares (such as "
                          f"'farmer harvest' or 'buy 2 1')")
    return a


def _optional_identity(f: Fields, key: str) -> int:
    """An identity by name, -1 for null."""
    x = f.optional(key, lambda k: f.str(k, IDENTITY_NAMES))
    return -1 if x is None else IDENTITY_NAMES.index(x)


def _identities(f: Fields, key: str, length: int | None = None,
                default: Any = None) -> list[int]:
    values = f.list(key, length) if default is None else f.list(key, length, default)
    return [_identity(v, f"{f.path(key)}[{i}]") for i, v in enumerate(values)]


def _identity(v: Any, where: str) -> int:
    if v not in IDENTITY_NAMES:
        raise ConfigError(f"{where} must be one of {', '.join(IDENTITY_NAMES)}, not {v!r}")
    return IDENTITY_NAMES.index(v)


def _mask(xs: list[int]) -> int:
    m = 0
    for x in xs:
        m |= 1 << x
    return m


def _seats(f: Fields, key: str, n: int, default: int = 0) -> int:
    """A list of distinct seat numbers as a mask (``default`` when it is missing)."""
    if not f.has(key):
        f.raw(key, None)  # (read: not an unknown field)
        return default
    m = 0
    for i, p in enumerate(f.ints(key, lo=0, hi=n - 1)):
        if m >> p & 1:
            raise ConfigError(f"{f.path(key)}[{i}]: seat {p} is named twice")
        m |= 1 << p
    return m


def _chips(f: Fields, key: str, n: int) -> list[int]:
    """One chip type (or null) per seat."""
    values = f.list(key, n, default=[None] * n)
    for i, v in enumerate(values):
        if v is not None and v not in CHIP_NAMES:
            raise ConfigError(f"{f.path(key)}[{i}] must be null or one of "
                              f"{', '.join(CHIP_NAMES)}, not {v!r}")
    return [-1 if v is None else CHIP_NAMES.index(v) for v in values]


# ======================================================================= the log
#: The fields of each kind of log entry after its kind (a paid ``settled`` has four).
LOG_FIELDS: dict[str, tuple[str, ...]] = {
    "declare": ("seat", "action"),
    "execute": ("seat", "action", "got"),
    "doubt": ("seat", "seat", "identity"),
    "vote": ("seat", "identity", "seats", "bool", "justified"),
    "protect": ("seat",),
    "illegal": ("seat",),
    "fine": ("seat", "chip"),
    "forgive": ("seat", "chip"),
    "give": ("seat", "chip"),
    "show": ("seat", "seat", "count"),
    "answer": ("seat", "identity", "answer"),
    "out": ("seat", "why"),
    "points": ("seat", "count", "why"),
    "settled": ("seat",),
    "settled_paid": ("seat", "seat", "chip", "count"),
    "pass": ("seat", "seat", "chip"),
    "cover": ("seat", "identity"),
    "final_cover": ("seat", "identities"),
    "final": ("seat", "seat"),
}
ANSWERS = ("fout", "juist")

WRITE_FIELD: dict[str, Callable[[HoaxState, Any], Any]] = {
    "seat": lambda s, v: v,
    "count": lambda s, v: v,
    "bool": lambda s, v: v,
    "justified": lambda s, v: v,
    "why": lambda s, v: v,
    "action": lambda s, v: s.tab.text(v),
    "got": lambda s, v: list(v),
    "identity": lambda s, v: IDENTITY_NAMES[v],
    "identities": lambda s, v: _names(v),
    "seats": lambda s, v: _seats_of(v),
    "chip": lambda s, v: CHIP_NAMES[v],
    "answer": lambda s, v: ANSWERS[v],
}


def _read_entry(s: HoaxState, e: Any, where: str) -> tuple[Any, ...]:
    """A log entry as the state keeps it (the inverse of ``_write_entry``)."""
    kinds = [k for k in LOG_FIELDS if k != "settled_paid"]
    if not isinstance(e, list) or not e or e[0] not in kinds:
        raise ConfigError(f"{where} must be a list that starts with one of {', '.join(kinds)}")
    kind = e[0]
    forms = LOG_FIELDS["settled_paid" if kind == "settled" and len(e) > 2 else kind]
    if len(e) != len(forms) + 1:
        raise ConfigError(f"{where}: a {kind} entry has {len(forms)} fields after its kind, "
                          f"not {len(e) - 1}")
    out = [kind, *(_read_field(s, form, v, f"{where}[{i + 1}]")
                   for i, (form, v) in enumerate(zip(forms, e[1:], strict=True)))]
    if kind == "settled" and len(e) == 2:
        out.append(-1)  # nothing was paid
    return tuple(out)


def _read_field(s: HoaxState, form: str, v: Any, where: str) -> Any:
    if form == "seat":
        return check_int(v, where, 0, s.n - 1)
    if form == "count":
        return check_int(v, where, 0)
    if form in ("bool", "justified"):
        if not isinstance(v, bool) and not (form == "justified" and v is None):
            raise ConfigError(f"{where} must be true or false"
                              f"{' or null' if form == 'justified' else ''}, not {v!r}")
        return v
    if form == "why":
        if v not in WHYS:
            raise ConfigError(f"{where} must be one of {', '.join(WHYS)}, not {v!r}")
        return v
    if form == "action":
        return _declared(s, v, where)
    if form == "got":
        if not isinstance(v, list) or len(v) != 3:
            raise ConfigError(f"{where} must list the gold, wine and grain gained")
        return tuple(check_int(x, f"{where}[{t}]", 0) for t, x in enumerate(v))
    if form == "identity":
        return _identity(v, where)
    if form == "identities":
        if not isinstance(v, list):
            raise ConfigError(f"{where} must be a list of identities")
        return _mask([_identity(x, f"{where}[{i}]") for i, x in enumerate(v)])
    if form in ("chip", "answer"):
        names = CHIP_NAMES if form == "chip" else ANSWERS
        if v not in names:
            raise ConfigError(f"{where} must be one of {', '.join(names)}, not {v!r}")
        return names.index(v) if form == "chip" else v == "juist"
    if not isinstance(v, list):  # "seats"
        raise ConfigError(f"{where} must be a list of seats")
    return _mask([check_int(p, f"{where}[{i}]", 0, s.n - 1) for i, p in enumerate(v)])
