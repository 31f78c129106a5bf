"""HOAX: the steps of a turn (§3 S0–S8) as the phase table's ``apply`` handlers and
what follows them: a declaration, the claims it starts (``claims.py`` hands back through
``after_*_claim``), protection (S2), the effect (S3, one small handler per kind of
action: ``EFFECTS``), and the Illegal / Fine / Forgive windows and the settling (S5–S8).
The end of a turn, a final and a round (S9, §6) stay with the state (``state.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from ...core.game import Event
from .cards import (
    BARON,
    CHIP_NAMES,
    CLAIM_OF_KIND,
    IDENTITY_NAMES,
    JUDGE,
    K_BUY,
    K_COLLECT,
    K_EARN,
    K_ENCHANT,
    K_HARVEST,
    K_JGRAIN,
    K_JWINE,
    K_PRESS,
    K_PROTECT,
    K_STEAL,
    K_TAKEGOLD,
    K_TAX,
    K_TRADE,
    MAGICIAN,
    MONK,
    SEATS_OF,
    Kind,
)
from .claims import Claim, ClaimFor, claim_done, make_claim
from .legal import settle_options
from .phases import Phase
from .views import names

if TYPE_CHECKING:
    from .state import HoaxState


# -- the phase table's apply handlers (S0–S8) ------------------------------------
def apply_cover(s: HoaxState, seat: int, action: int) -> list[Event]:
    """§2: a seat covers an identity; the last cover starts the chip phase."""
    x = s.tab.p1[action]
    s.start_cover[seat] = x
    s.covered[seat] |= 1 << x
    s.log.append(("cover", seat, x))
    if min(s.start_cover) >= 0:
        s.phase = Phase.CHIP
    return [Event("cover", seat, {"identity": IDENTITY_NAMES[x]})]


def apply_chip(s: HoaxState, seat: int, action: int) -> list[Event]:
    """§2: a seat takes a starting chip; the last one starts the first turn."""
    t = s.tab.p1[action]
    s.chip_pending &= ~(1 << seat)
    s._gain(seat, t, 1)
    ev = [Event("take", seat, {"type": CHIP_NAMES[t]})]
    if not s.chip_pending:
        s._begin_turn(s.active)
        ev.append(Event("turn", s.active, {"turn": s.turns}))
    return ev


def apply_declare(s: HoaxState, seat: int, action: int) -> list[Event]:
    """S0: a personal action is a claim (→ doubt); buy and accuse act at once."""
    tab = s.tab
    kind = tab.kind[action]
    s.act = action
    s.log.append(("declare", seat, action))
    claim = CLAIM_OF_KIND[kind]
    ev = [Event("declare", seat, {"action": tab.text(action),
                                  "as": IDENTITY_NAMES[claim] if claim >= 0 else None})
          ] if s.record_events else []  # (a search copy: nobody reads its events)
    if claim >= 0:
        make_claim(s, seat, ClaimFor.ACTION, -1, ev)
    elif kind == K_BUY:
        buy(s, seat, tab.p1[action], tab.p2[action], ev)
    else:  # K_ACCUSE
        accuse(s, seat, tab.p1[action], tab.p2[action], ev)
    return ev


def apply_protect(s: HoaxState, seat: int, action: int) -> list[Event]:
    """S2: a target claims the Magician to protect itself (one try per turn)."""
    s.protect_tried |= 1 << seat
    s.log.append(("protect", seat))
    ev = [Event("protect", seat, {"as": "magician"})]
    make_claim(s, seat, ClaimFor.PROTECT, -1, ev)
    return ev


def apply_illegal(s: HoaxState, seat: int, action: int) -> list[Event]:
    """S5: a seat claims the Baron to declare the action illegal."""
    s.reacted |= 1 << seat
    s.log.append(("illegal", seat))
    ev = [Event("illegal", seat, {"as": "baron"})]
    make_claim(s, seat, ClaimFor.ILLEGAL, -1, ev)
    return ev


def apply_fine(s: HoaxState, seat: int, action: int) -> list[Event]:
    """S6: a seat claims the Judge to fine the actor a chip type."""
    s.reacted |= 1 << seat
    t = s.tab.p1[action]
    s.log.append(("fine", seat, t))
    ev = [Event("fine", seat, {"as": "judge", "type": CHIP_NAMES[t]})]
    make_claim(s, seat, ClaimFor.FINE, t, ev)
    return ev


def apply_forgive(s: HoaxState, seat: int, action: int) -> list[Event]:
    """S7: a seat claims the Monk to forgive the actor for a chip."""
    s.reacted |= 1 << seat
    t = s.tab.p1[action]
    s.log.append(("forgive", seat, t))
    ev = [Event("forgive", seat, {"as": "monk", "type": CHIP_NAMES[t]})]
    make_claim(s, seat, ClaimFor.FORGIVE, t, ev)
    return ev


def apply_give(s: HoaxState, seat: int, action: int) -> list[Event]:
    """S3 Monk collect: a payer gives the collector one chip of its choice."""
    t = s.tab.p1[action]
    s._move(seat, s.active, t, 1)
    s.give_pending &= ~(1 << seat)
    s.log.append(("give", seat, t))
    ev = [Event("give", seat, {"to": s.active, "type": CHIP_NAMES[t]})]
    if not s.give_pending:
        after_execute(s, ev)
    return ev


def apply_show(s: HoaxState, seat: int, action: int) -> list[Event]:
    """§3 BuyInfo: the seat asked shows the buyer false identities; in the final they
    are covered at once (§6)."""
    buyer = s.active
    mask = s.tab.p1[action]
    s.shown[seat * s.n + buyer] |= mask
    shown = names(mask)
    s.log.append(("show", seat, buyer, mask.bit_count()))
    if s.in_final:
        s.covered[seat] |= mask
        s.final_cov[seat] |= mask
        s.log.append(("final_cover", seat, mask))
        ev = [Event("show", seat, {"to": buyer, "count": mask.bit_count(),
                                   "covered": shown})]
    else:
        ev = [Event("show", seat, {"to": buyer, "count": mask.bit_count()},
                    {buyer: {"identities": shown}, seat: {"identities": shown}})]
    after_execute(s, ev)
    return ev


def apply_settle(s: HoaxState, seat: int, action: int) -> list[Event]:
    """S8: the convicted actor pays one standing fine or forgiveness, or claims the
    Magician to protect itself from the conviction."""
    if s.tab.kind[action] == K_PROTECT:
        s.log.append(("protect", seat))
        ev = [Event("protect", seat, {"as": "magician", "against": "conviction"})]
        make_claim(s, seat, ClaimFor.SETTLE_PROTECT, -1, ev)
        return ev
    ev = []
    pay(s, s.tab.p1[action], ev)
    return ev


def apply_pass(s: HoaxState, seat: int, action: int) -> list[Event]:
    """§7.9: the Judge passes the chip set aside to the Baron of its choice."""
    baron = s.tab.p1[action]
    s.loose[3 * baron + s.pass_type] += s.escrow
    s.escrow = 0
    s.log.append(("pass", s.pass_judge, baron, s.pass_type))
    ev = [Event("pass", s.pass_judge, {"to": baron, "type": CHIP_NAMES[s.pass_type]})]
    s._end_turn(ev)
    return ev


# -- after a claim (the doubt sub-machine hands back here, ``claims.py``) --------------
def after_action_claim(s: HoaxState, claim: Claim, stands: bool, ev: list[Event]) -> None:
    """S2 follows a claim for the action that stands; a void action ends the turn
    (§5.4)."""
    if stands:
        open_protect(s, ev)
    else:
        s._end_turn(ev)


def after_protect_claim(s: HoaxState, claim: Claim, stands: bool, ev: list[Event]) -> None:
    """S2: a protection that stands protects its claimant; others may still try."""
    if stands:
        s.protected |= 1 << claim.seat
    open_protect(s, ev)


def after_illegal_claim(s: HoaxState, claim: Claim, stands: bool, ev: list[Event]) -> None:
    """S5: an illegal declaration that stands makes its claimant a Baron of the turn."""
    if stands:
        s.barons |= 1 << claim.seat
    open_illegal(s, ev)


def after_fine_claim(s: HoaxState, claim: Claim, stands: bool, ev: list[Event]) -> None:
    """S6: a fine that stands is paid at S8."""
    if stands:
        s.fine_t[claim.seat] = claim.chip
    open_fine(s, ev)


def after_forgive_claim(s: HoaxState, claim: Claim, stands: bool, ev: list[Event]) -> None:
    """S7: a forgiveness that stands is paid at S8."""
    if stands:
        s.forgive_t[claim.seat] = claim.chip
    open_forgive(s, ev)


def after_settle_claim(s: HoaxState, claim: Claim, stands: bool, ev: list[Event]) -> None:
    """S8: a protection from the conviction that stands (or an actor out of the round)
    ends the turn unpaid; a void one leaves the actor to pay."""
    if stands or not s.in_round >> s.active & 1:
        s.log.append(("settled", s.active, -1))
        s._end_turn(ev)
    else:
        open_settle(s, ev)


# -- S2 protect, S3 execute ---------------------------------------------------------
def targets(s: HoaxState) -> int:
    """§9.9: who may protect against the declared action."""
    tab = s.tab
    act = s.act
    kind = tab.kind[act]
    others = s.in_round & ~(1 << s.active)
    lo = s.loose
    if kind == K_TAX:
        t = tab.p1[act]
        return sum(1 << q for q in SEATS_OF[others] if lo[3 * q + t])
    if kind == K_COLLECT:
        return sum(1 << q for q in SEATS_OF[others]
                   if lo[3 * q] or lo[3 * q + 1] or lo[3 * q + 2])
    if kind == K_TRADE:
        q = tab.p1[act]
        return (1 << q) & others if q < s.n else 0
    if kind == K_ENCHANT:
        return (1 << tab.p1[act]) & others
    return 0


def uncovered(s: HoaxState, x: int) -> int:
    """Seats in the round that have not covered identity x (may claim it)."""
    cov = s.covered
    m = 0
    for q in SEATS_OF[s.in_round]:
        if not cov[q] >> x & 1:
            m |= 1 << q
    return m


def open_protect(s: HoaxState, ev: list[Event]) -> None:
    """S2: targets that have not tried yet and may claim the Magician may protect."""
    mask = targets(s) & ~s.protect_tried & uncovered(s, MAGICIAN)
    if mask:
        s._open_window(Phase.PROTECT, mask)
    else:
        execute(s, ev)


def execute(s: HoaxState, ev: list[Event]) -> None:
    """S3: the effect, on targets that are not protected and still in the round; a
    collection from seats with a choice of chip waits for them (GIVE)."""
    act = s.act
    actor = s.active
    got = [0, 0, 0]
    victims = s.in_round & ~(1 << actor) & ~s.protected
    done = EFFECTS[s.tab.kind[act]](s, actor, act, victims, got)
    if s.record_events:
        ev.append(Event("execute", actor, {"action": s.tab.text(act), "got": got}))
    if done:
        s.log.append(("execute", actor, act, tuple(got)))
        after_execute(s, ev)


#: An effect of S3: ``(state, actor, action, victims, got) -> done``; it adds the chips
#: the actor got per type to ``got``; False when it waits for the victims (GIVE).
Effect = Callable[["HoaxState", int, int, int, list[int]], bool]

#: The chips from the bank of each personal action that only takes (type, count).
_FROM_BANK: Final = {K_TAKEGOLD: (0, 2), K_PRESS: (1, 2), K_JWINE: (1, 1), K_JGRAIN: (2, 1),
                     K_EARN: (0, 1), K_HARVEST: (2, 2)}


def _take(s: HoaxState, actor: int, act: int, victims: int, got: list[int]) -> bool:
    """Baron 2 gold, Monk 2 wine, Judge 1 wine or grain, Merchant 1 gold, Farmer 2 grain:
    from the bank, as much as it holds (§1)."""
    t, count = _FROM_BANK[s.tab.kind[act]]
    got[t] = s._gain(actor, t, count)
    return True


def _tax(s: HoaxState, actor: int, act: int, victims: int, got: list[int]) -> bool:
    """Baron tax: one chip of the named type from every victim that holds one."""
    t = s.tab.p1[act]
    for q in SEATS_OF[victims]:
        got[t] += s._move(q, actor, t, 1)
    return True


def _collect(s: HoaxState, actor: int, act: int, victims: int, got: list[int]) -> bool:
    """Monk collect: one chip from every victim; a victim holding several types chooses
    (GIVE), one holding a single type gives it at once."""
    lo = s.loose
    pending = 0
    for q in SEATS_OF[victims]:
        i = 3 * q
        types = [t for t in range(3) if lo[i + t]]
        if len(types) == 1:
            got[types[0]] += s._move(q, actor, types[0], 1)
            s.log.append(("give", q, types[0]))
        elif types:
            pending |= 1 << q
    if pending:
        s.give_pending = pending
        s.phase = Phase.GIVE
        return False
    return True


def _trade(s: HoaxState, actor: int, act: int, victims: int, got: list[int]) -> bool:
    """Merchant trade: up to m chips one for one with the bank or a victim, as many as
    both sides still hold."""
    tab = s.tab
    lo = s.loose
    partner, give, get, m = tab.p1[act], tab.p2[act], tab.p3[act], tab.p4[act]
    if partner == s.n:  # the bank
        m = min(m, lo[3 * actor + give], s.bank[get])
        lo[3 * actor + give] -= m
        s.bank[give] += m
        s._gain(actor, get, m)
    elif victims >> partner & 1:
        m = min(m, lo[3 * actor + give], lo[3 * partner + get])
        s._move(actor, partner, give, m)
        s._move(partner, actor, get, m)
    else:
        m = 0
    got[get] = m
    return True


def _enchant(s: HoaxState, actor: int, act: int, victims: int, got: list[int]) -> bool:
    """Magician enchant: every loose chip of the victim."""
    q = s.tab.p1[act]
    if victims >> q & 1:
        lo = s.loose
        for t in range(3):
            got[t] = s._move(q, actor, t, lo[3 * q + t])
    return True


def _steal(s: HoaxState, actor: int, act: int, victims: int, got: list[int]) -> bool:
    """Thief steal: from a seat still in the round (§4: not protectable)."""
    tab = s.tab
    q, t = tab.p1[act], tab.p2[act]
    if s.in_round >> q & 1:
        got[t] = steal(s, actor, q, t, tab.p3[act], tab.p4[act])
    return True


def _no_effect(s: HoaxState, actor: int, act: int, victims: int, got: list[int]) -> bool:
    raise AssertionError(f"{s.tab.text(act)} is not a personal action (S3)")


#: The effect of each kind of action, indexed by kind (``Kind``); only personal actions
#: have one.
EFFECTS: Final[tuple[Effect, ...]] = tuple(
    {K_TAX: _tax, K_COLLECT: _collect, K_TRADE: _trade, K_ENCHANT: _enchant,
     K_STEAL: _steal, **dict.fromkeys(_FROM_BANK, _take)}.get(k.value, _no_effect)
    for k in Kind)


def steal(s: HoaxState, thief: int, victim: int, t: int, count: int, from_trios: int) -> int:
    """§3 Thief: ``count`` chips of type t, ``from_trios`` of them out of trios (each
    breaks a trio whose other two chips become loose). Clamped to what the victim
    holds at execution [DECISION]."""
    lo = s.loose
    iv = 3 * victim
    loose_v, trios_v = lo[iv + t], s.trios[victim]
    want = min(count, loose_v + trios_v)
    broken = min(trios_v, max(from_trios, want - loose_v))
    lo[iv + t] -= want - broken
    s.trios[victim] -= broken
    for u in range(3):
        if u != t:
            lo[iv + u] += broken
    lo[3 * thief + t] += want
    return want


# -- S5–S8 -----------------------------------------------------------------------------
def after_execute(s: HoaxState, ev: list[Event]) -> None:
    """After S3: a departing actor's chips go to the bank and S5–S8 are skipped."""
    actor = s.active
    if s.departing:
        s.departing = False
        s._to_bank(actor)
        s._end_turn(ev)
    elif not s.in_round >> actor & 1:
        s._end_turn(ev)
    else:
        open_illegal(s, ev)


def open_illegal(s: HoaxState, ev: list[Event]) -> None:
    """S5: seats that may claim the Baron and have not reacted may declare it illegal."""
    if s.in_round >> s.active & 1:
        mask = uncovered(s, BARON) & ~(1 << s.active) & ~s.reacted
        if mask:
            s._open_window(Phase.ILLEGAL, mask)
            return
    close_illegal(s, ev)


def close_illegal(s: HoaxState, ev: list[Event]) -> None:
    """S5 closes: a standing illegal declaration opens S6, else the turn ends."""
    if s.barons and s.in_round >> s.active & 1:
        open_fine(s, ev)
    else:
        s._end_turn(ev)


def open_fine(s: HoaxState, ev: list[Event]) -> None:
    """S6: would-be Judges may fine an actor that holds loose chips (§9.1)."""
    actor = s.active
    if s._has_loose(actor):
        mask = uncovered(s, JUDGE) & ~(1 << actor) & ~s.reacted
        if mask:
            s._open_window(Phase.FINE, mask)
            return
    close_fine(s, ev)


def close_fine(s: HoaxState, ev: list[Event]) -> None:
    """S6 closes: a standing fine opens S7, else the turn ends."""
    if any(s.fine_t[q] >= 0 for q in SEATS_OF[s.in_round]):
        open_forgive(s, ev)
    else:
        s._end_turn(ev)


def open_forgive(s: HoaxState, ev: list[Event]) -> None:
    """S7: would-be Monks may forgive an actor that holds loose chips (§9.1)."""
    actor = s.active
    if s._has_loose(actor):
        mask = uncovered(s, MONK) & ~(1 << actor) & ~s.reacted
        if mask:
            s._open_window(Phase.FORGIVE, mask)
            return
    open_settle(s, ev)


def open_settle(s: HoaxState, ev: list[Event]) -> None:
    """S8: the actor settles what it can pay; with nothing to pay the turn ends."""
    if settle_options(s):
        s.phase = Phase.SETTLE
    else:
        s.log.append(("settled", s.active, -1))
        s._end_turn(ev)


def pay(s: HoaxState, payee: int, ev: list[Event]) -> None:
    """S8: the actor pays one standing fine (min(2, loose), §9.1) or forgiveness."""
    actor = s.active
    t = s.fine_t[payee]
    if t >= 0:
        amount = s._move(actor, payee, t, 2)
        s.log.append(("settled", actor, payee, t, amount))
        ev.append(Event("pay", actor, {"to": payee, "type": CHIP_NAMES[t],
                                       "count": amount, "for": "fine"}))
        if amount == 2:
            barons = s.barons & s.in_round & ~(1 << payee)
            if barons:
                s.pass_judge, s.pass_type = payee, t
                if barons & (barons - 1):
                    # several Barons: the Judge chooses (§7.9); the chip is set aside
                    s.loose[3 * payee + t] -= 1
                    s.escrow = 1
                    s.phase = Phase.PASS
                    return
                baron = SEATS_OF[barons][0]
                s._move(payee, baron, t, 1)
                s.log.append(("pass", payee, baron, t))
                ev.append(Event("pass", payee, {"to": baron, "type": CHIP_NAMES[t]}))
    else:
        t = s.forgive_t[payee]
        s._move(actor, payee, t, 1)
        s.log.append(("settled", actor, payee, t, 1))
        ev.append(Event("pay", actor, {"to": payee, "type": CHIP_NAMES[t], "count": 1,
                                       "for": "forgiveness"}))
    s._end_turn(ev)


def doubt_closed(s: HoaxState, ev: list[Event]) -> None:
    """§5.1: nobody doubted: the claim stands."""
    claim_done(s, True, ev)


# -- S0 general actions -------------------------------------------------------------
def buy(s: HoaxState, buyer: int, shower: int, asked: int, ev: list[Event]) -> None:
    """§3 BuyInfo: k is reduced to the identities the shower may still show the buyer
    before the buyer pays; it pays that many trios to the bank, the shower shows."""
    count = min(asked, s.showable(shower, buyer).bit_count())
    s.trios[buyer] -= count
    for t in range(3):
        s.bank[t] += count
    s.show_q, s.show_k = shower, count
    # public: the trios paid are public anyway, so the reduction is no secret
    ev.append(Event("buy", buyer, {"from": shower, "asked": asked, "count": count}))
    s.phase = Phase.SHOW


def accuse(s: HoaxState, accuser: int, accused: int, x: int, ev: list[Event]) -> None:
    """§3 Accuse, §7.1: juist → the accused out, the accuser +1; fout → the accuser
    out, the accused +1 (cannot win)."""
    right = s.card[accused] >> 1 == x
    s.log.append(("answer", accused, x, right))
    ev.append(Event("answer", accused, {"accuser": accuser, "identity": IDENTITY_NAMES[x],
                                        "answer": "juist" if right else "fout"}))
    if right:
        s.known_is[accused] = x
        s._leave(accused, ev, "accused correctly")
        if s.in_final:
            s._end_final(accuser, accused, 4, False, ev)
            return
        if s._award(accuser, 1, ev, why="correct accusation"):
            return
        after_execute(s, ev)
    else:
        s.known_not[accused] |= 1 << x
        s._leave(accuser, ev, "wrong accusation")
        if s.in_final:
            s._end_final(accused, accuser, 3, True, ev)
            return
        if s._award(accused, 1, ev, can_win=False, why="refuted accusation"):
            return
        s._end_turn(ev)


__all__ = ["EFFECTS", "Effect", "accuse", "after_execute", "buy", "execute", "open_protect",
           "pay", "steal", "targets", "uncovered"]
