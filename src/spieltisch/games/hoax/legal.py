"""HOAX: what each seat may do now (legal actions) and why an attempt is refused.

The phase table (``state.py``) names these as its ``legal`` and ``why`` handlers: each
takes the state and a seat and answers for the current phase only (nothing for a seat
that may not act in it). The declarations of S0 are built here too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ...core.game import Check, Told, action_arg, illegal, seat_arg, word_arg
from ...i18n import N_
from .cards import (
    CLAIM_OF_KIND,
    IDENTITY_NAMES,
    K_BUY,
    K_COVER,
    K_FINE,
    K_FORGIVE,
    K_ILLEGAL,
    MAGICIAN,
    NUM_IDENTITIES,
    SEATS_OF,
    TRADE_PAIRS,
    UP_TO_2,
)
from .phases import PHASE_NAMES, Phase

if TYPE_CHECKING:
    from ...narration import Context
    from .state import HoaxState

#: The reaction each window phase takes (S5–S7), and the phase each reaction needs.
_REACTION_PHASE: Final = {K_ILLEGAL: Phase.ILLEGAL, K_FINE: Phase.FINE, K_FORGIVE: Phase.FORGIVE}

#: Each phase as a refusal names it ("Ada may not act now (doubting the claim)").
_STEP_WORDS: Final[dict[Phase, str]] = {
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


# -- legal actions per phase (the phase table's ``legal``) ---------------------------
def legal_cover(s: HoaxState, seat: int) -> list[int]:
    """§2: cover any identity but one's own."""
    if s.start_cover[seat] >= 0:
        return []
    own = s.card[seat] >> 1
    return [s.tab.cover[x] for x in range(NUM_IDENTITIES) if x != own]


def legal_chip(s: HoaxState, seat: int) -> list[int]:
    """§2: take a starting chip of a type the bank still holds."""
    if not s.chip_pending >> seat & 1:
        return []
    return [s.tab.chip[t] for t in range(3) if s.bank[t]]


def legal_declare(s: HoaxState, seat: int) -> list[int]:
    """S0: the active seat declares an action."""
    return declare_actions(s, seat) if seat == s.active else []


def legal_vote(s: HoaxState, seat: int) -> list[int]:
    """§5.2: each voter votes Doubt or Trust."""
    if not s.vote_pending >> seat & 1:
        return []
    return [s.tab.vote_doubt, s.tab.vote_trust]


def legal_doubt(s: HoaxState, seat: int) -> list[int]:
    """§5.1: any other seat in the round may doubt the claim."""
    return [s.tab.doubt] if s._window_mask() >> seat & 1 else []


def legal_protect(s: HoaxState, seat: int) -> list[int]:
    """S2, §9.9: a target may protect as Magician."""
    return [s.tab.protect] if s._window_mask() >> seat & 1 else []


def legal_illegal(s: HoaxState, seat: int) -> list[int]:
    """S5: a seat may declare the action illegal as Baron."""
    return [s.tab.illegal] if s._window_mask() >> seat & 1 else []


def legal_fine(s: HoaxState, seat: int) -> list[int]:
    """S6: a Judge fines a chip type the actor holds loose (§9.1)."""
    return chip_reactions(s, seat, s.tab.fine)


def legal_forgive(s: HoaxState, seat: int) -> list[int]:
    """S7: a Monk forgives for a chip type the actor holds loose (§9.1)."""
    return chip_reactions(s, seat, s.tab.forgive)


def chip_reactions(s: HoaxState, seat: int, by_type: list[int]) -> list[int]:
    """A Fine or Forgive per chip type the actor holds loose (§9.1), for the window."""
    if not s._window_mask() >> seat & 1:
        return []
    i = 3 * s.active
    lo = s.loose
    return [by_type[t] for t in range(3) if lo[i + t]]


def legal_give(s: HoaxState, seat: int) -> list[int]:
    """S3 Monk collect: a payer with a choice gives one loose chip of any type."""
    if not s.give_pending >> seat & 1:
        return []
    i = 3 * seat
    return [s.tab.give[t] for t in range(3) if s.loose[i + t]]


def legal_show(s: HoaxState, seat: int) -> list[int]:
    """§3 BuyInfo: show exactly ``show_k`` identities one may still show as false."""
    if seat != s.show_q:
        return []
    allowed = s.showable(seat, s.active)
    tab = s.tab
    return [tab.show[m] for m in tab.show_masks_by_size[s.show_k] if m & allowed == m]


def legal_settle(s: HoaxState, seat: int) -> list[int]:
    """S8: pay one standing fine or forgiveness, or protect as Magician."""
    if seat != s.active:
        return []
    out = [s.tab.pay[q] for q in settle_options(s)]
    if not s.covered[seat] >> MAGICIAN & 1:
        out.append(s.tab.protect)
    return out


def legal_pass(s: HoaxState, seat: int) -> list[int]:
    """§7.9: the paid Judge passes one chip to a Baron of its choice."""
    if seat != s.pass_judge:
        return []
    return [s.tab.pass_to[b] for b in SEATS_OF[pass_barons(s)]]


def declare_actions(s: HoaxState, actor: int) -> list[int]:
    """S0: personal actions of every identity ``actor`` has not covered; general ones."""
    tab = s.tab
    n = s.n
    cov = s.covered[actor]
    lo = s.loose
    trios = s.trios
    others_mask = s.in_round & ~(1 << actor)
    others = SEATS_OF[others_mask]
    out = tab.simple_by_cover[cov][:]
    if not cov & 8:  # Merchant
        ia = 3 * actor
        upto = tab.trade_upto
        for pair, (give, get) in enumerate(TRADE_PAIRS):
            have = lo[ia + give]
            if not have:
                continue
            # m = 1 .. min(have, what the partner holds) chips
            m = s.bank[get]
            if m:
                out += upto[n][pair][have if have < m else m]
            for q in others:
                m = lo[3 * q + get]
                if m:
                    out += upto[q][pair][have if have < m else m]
    if not cov & 16:  # Magician
        out.extend(tab.enchant_by_seats[others_mask])
    if not cov & 32:  # Thief: what each other seat holds picks its steals
        steals = tab.steal_by_holding
        c = UP_TO_2
        for q in others:
            iq = 3 * q
            out.extend(steals[q][27 * c[lo[iq]] + 9 * c[lo[iq + 1]] + 3 * c[lo[iq + 2]]
                                 + c[trios[q]]])
    if trios[actor]:
        # §3 BuyInfo: any k the buyer can pay; k is reduced on declaring (``_buy``),
        # so only a seat with nothing left to show (k would be 0) is not offered
        for q in others:
            if s.showable(q, actor):
                out.extend(tab.buy[q][:trios[actor]])
    out.extend(tab.accuse_by_seats[others_mask])
    return out


def settle_options(s: HoaxState) -> list[int]:
    """S8: standing fines and forgivenesses of players still in the round that the
    actor can still pay (§9.1: a reaction naming a type the actor no longer holds
    loose is void)."""
    i = 3 * s.active
    lo = s.loose
    out = []
    for q in SEATS_OF[s.in_round]:
        t = s.fine_t[q]
        if t < 0:
            t = s.forgive_t[q]
        if t >= 0 and lo[i + t]:
            out.append(q)
    return out


def pass_barons(s: HoaxState) -> int:
    """§7.9: the Barons in the round a paid Judge may pass a chip to."""
    return s.barons & s.in_round & ~(1 << s.pass_judge)


# -- why an attempt is refused (the phase table's ``why``) --------------------------
def why_not_now(s: HoaxState, seat: int, action: int) -> Check:
    """The reason when no rule of the phase names a better one."""
    phase = _step_arg(s.phase)
    if seat not in s.may_act():
        return illegal(N_("{seat} may not act now ({phase})"), seat=seat_arg(seat),
                       phase=phase)
    return illegal(N_("{action} is not legal now ({phase})"),
                   action=action_arg(s.game, action), phase=phase)


def why_cover(s: HoaxState, seat: int, action: int) -> Check:
    """§2: the cover is an identity that is not one's own."""
    if s.tab.kind[action] == K_COVER and s.card[seat] >> 1 == s.tab.p1[action]:
        return illegal(N_("you must cover an identity that is not your own"))
    return why_not_now(s, seat, action)


def why_declare(s: HoaxState, seat: int, action: int) -> Check:
    """S0: a buyer pays a trio per identity (§3 BuyInfo); nobody claims an identity
    they covered (§2, §5.4)."""
    if seat == s.active:
        tab = s.tab
        kind = tab.kind[action]
        if kind == K_BUY:
            shower, count = tab.p1[action], tab.p2[action]
            if count > s.trios[seat]:
                return illegal(N_("buying {count} identities costs {count} trios; you "
                                  "have {trios}"), count=count, trios=s.trios[seat])
            if shower != seat and s.in_round >> shower & 1 \
                    and not s.showable(shower, seat):
                return illegal(N_("{seat} has no identity left to show you"),
                               seat=seat_arg(shower))
        claim = CLAIM_OF_KIND[kind]
        if claim >= 0 and s.covered[seat] >> claim & 1:
            return illegal(N_("you have covered the {identity} and may not claim it"),
                           identity=_identity_arg(IDENTITY_NAMES[claim]))
    return why_not_now(s, seat, action)


def why_reaction(s: HoaxState, seat: int, action: int) -> Check:
    """§4: one Illegal, Fine or Forgive per player and action, never to one's own."""
    want = _REACTION_PHASE.get(s.tab.kind[action])
    if want is not None:
        if seat == s.active:
            return illegal(N_("nobody may react with Illegal, Fine or Forgive to their "
                              "own action"))
        if s.reacted >> seat & 1:
            return illegal(N_("each player makes at most one of Illegal, Fine or Forgive "
                              "per action (a Baron who declared it illegal cannot be its "
                              "Judge, §4)"))
        if want is not s.phase:
            return illegal(N_("{step} is not possible now (now: {phase})"),
                           step=_step_arg(want), phase=_step_arg(s.phase))
    return why_not_now(s, seat, action)


__all__ = ["declare_actions", "pass_barons", "settle_options", "why_not_now"]
