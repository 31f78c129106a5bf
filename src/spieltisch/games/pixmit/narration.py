"""Pixmit in words: every event as one sentence, every action as a menu label and the
terminal's board, in the reader's language (issue 18).

Cards are named as the UI shows them, number and original German name ("21 Die
Zerstörerin"). The named sets and rule words of the original text (Wissen, Schöpfung,
Vernichtung, Elite, Blinder Bote, Auslegung) keep their German names in every language;
the group abbreviations (TK, DK, …) are shown with their meaning ("DK (demon)").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from typing import Any

from ...i18n import N_
from ...narration import Context
from ...narration import Narrator as BaseNarrator
from . import actions as A
from . import cards as C

_NAME = dict(zip(C.CARD_CODES, C.NAMES, strict=True))
_ID = {code: i for i, code in enumerate(C.CARD_CODES)}


class Kind(StrEnum):
    """Every event kind ``state.py`` emits."""

    CALL = "call"
    HUNT = "hunt"
    KNOWLEDGE = "knowledge"
    OFFER = "offer"
    CLAIM = "claim"
    ACCEPT = "accept"
    VETO = "veto"
    CREATION = "creation"
    PASS = "pass"
    VETO_DRAW = "veto_draw"
    SWAP = "swap"
    MESSENGER = "messenger"
    BOTTOM = "bottom"
    ROUND = "round"
    SILENT_END = "silent_end"


#: The eight groups: the original abbreviation and its meaning.
GROUP_LABELS: dict[str, str] = {
    "TK": N_("TK (beast)"), "ZK": N_("ZK (twin)"), "AK": N_("AK (eye)"),
    "FK": N_("FK (fire)"), "ASK": N_("ASK (astronomy)"), "OK": N_("OK (object)"),
    "PK": N_("PK (person)"), "DK": N_("DK (demon)"),
}
#: The scoring units of the Auslegung: the original name and its meaning.
UNIT_LABELS: dict[str, str] = {
    C.CONSOLATION: N_("Trostpreis (consolation pair)"),
    C.TRIPLE: N_("3er-Satz (set of three)"),
    C.K_CREATION: N_("Schöpfung"),
    C.K_KNOWLEDGE: N_("Wissen"),
    C.K_ANNIHILATION: N_("Vernichtung"),
    C.PERSONS: N_("Personen-Satz (persons' set)"),
    C.HELL: N_("Höllen-Satz (hell set)"),
    C.ARTEFACT: N_("Artefakt-Satz (artefact set)"),
    C.GODS: N_("Götter-Satz (gods' set)"),
    C.COSMOS: N_("Kosmos-Satz (cosmos set)"),
    C.BEASTS: N_("Bestien-Satz (beasts' set)"),
    C.K_ELITE: N_("Elite"),
}
#: The three conditions that allow a call.
CALL_LABELS: dict[str, str] = {
    C.CALL_JOKER: N_("Joker-Satz"),
    C.CALL_NATURAL: N_("natural set"),
    C.CALL_ELITE: N_("Elite"),
}
#: Whose move it is, by phase; ``{player}`` is the seat to act.
PHASE_TEXT: dict[str, str] = {
    "turn": N_("{player} is on turn: call Pixmit, use Wissen or make an offer."),
    "claim": N_("{player} announces the offered cards."),
    "response": N_("{player} accepts or vetoes the offer."),
    "creation": N_("{player} may overrule the veto with Schöpfung."),
    "return": N_("{player} gives back as many cards, unseen."),
    "messenger": N_("{player} gives a card to the Blinder Bote."),
    "discard": N_("{player} puts cards under the stack (hand limit 6)."),
}
MODE_TEXT: dict[str, str] = {
    "pro": N_("pro mode: announcements may be bluffs"),
    "beginner": N_("beginner mode: announcements are true"),
}
#: How many recent moves the board recalls.
RECENT_MOVES = 3


# -- cards --------------------------------------------------------------------------------
def card(code: str) -> str:
    """A card as the UI names it: number and original name ("07 Der Wolfsmensch")."""
    return f"{code} {_NAME[code]}"


def cards(codes: Sequence[str]) -> str:
    """Several cards, joined with commas, in the order given."""
    return ", ".join(card(code) for code in codes)


def card_groups(code: str, ctx: Context) -> str:
    """The groups a card is listed in, with their meaning; the jokers say so."""
    x = _ID[code]
    labels = [ctx.tr.gettext(GROUP_LABELS[g]) for i, g in enumerate(C.GROUPS)
              if C.LISTED[i] >> x & 1]
    if x == C.JOKER_21:
        labels.append(ctx.tr.gettext(N_("universal joker")))
    elif x == C.JOKER_32:
        labels.append(ctx.tr.gettext(N_("joker")))
    return ", ".join(labels)


def claim_text(claim: str, ctx: Context) -> str:
    """An announcement's content: a group with its meaning, or a card."""
    if claim in GROUP_LABELS:
        return ctx.tr.gettext(GROUP_LABELS[claim])
    return card(claim)


def claim_is_true(claim: str, code: str) -> bool:
    """Whether an announcement is true of a card (its number, or a group it belongs to)."""
    return C.claim_is_true(C.CLAIM_TEXT.index(claim), _ID[code])


class Narrator(BaseNarrator):
    """Tells Pixmit's events, labels its actions and draws its board."""

    # -- events -------------------------------------------------------------------------
    def tell(self, event: Mapping[str, Any], ctx: Context) -> str:
        try:
            kind = Kind(str(event.get("kind")))
        except ValueError:  # a kind this narrator does not know yet: the core's words
            return super().tell(event, ctx)
        return _TELLERS[kind](self, event, ctx)

    def _call(self, ev: Mapping[str, Any], ctx: Context) -> str:
        player = ctx.name(ev["seat"])
        conditions = ", ".join(ctx.tr.gettext(CALL_LABELS[c]) for c in ev["conditions"])
        hand = ev.get("hand")
        if hand is None:  # a log entry: the hand is not recorded there
            return ctx.tr.format(N_("{player} calls Pixmit ({conditions}) and ends the game."),
                                 player=player, conditions=conditions)
        if "21" in hand:
            return ctx.tr.format(
                N_("{player} calls Pixmit ({conditions}) and ends the game, showing {cards} "
                   "— whoever holds no set now hunts for card 21."),
                player=player, conditions=conditions, cards=cards(hand))
        return ctx.tr.format(
            N_("{player} calls Pixmit ({conditions}) and ends the game, showing {cards}."),
            player=player, conditions=conditions, cards=cards(hand))

    def _hunt(self, ev: Mapping[str, Any], ctx: Context) -> str:
        args = {"player": ctx.name(ev["seat"]), "caller": ctx.name(ev.get("from")),
                "card": card(ev["card"])}
        if ev["card"] == "21":
            return ctx.tr.format(N_("{player} draws {card} from {caller} and ends the hunt."),
                                 **args)
        return ctx.tr.format(N_("{player} draws {card} from {caller} in the hunt."), **args)

    def _knowledge(self, ev: Mapping[str, Any], ctx: Context) -> str:
        player = ctx.name(ev["seat"])
        shown = cards(ev.get("cards") or C.card_codes(C.KNOWLEDGE))
        if "top" in ev:  # only the player who looks sees the top cards
            return ctx.tr.format(
                N_("{player} reveals Wissen ({cards}) and looks at the top cards of the "
                   "stack: {top}."), player=player, cards=shown, top=cards(ev["top"]))
        return ctx.tr.format(
            N_("{player} reveals Wissen ({cards}) and looks at the top two cards of the stack."),
            player=player, cards=shown)

    def _offer(self, ev: Mapping[str, Any], ctx: Context) -> str:
        args = {"player": ctx.name(ev["seat"]), "target": ctx.name(ev["target"])}
        if "cards" in ev:  # the offerer's own view
            return ctx.tr.nformat("{player} offers {target} {n} card face down: {cards}.",
                                  "{player} offers {target} {n} cards face down: {cards}.",
                                  ev["k"], cards=cards(ev["cards"]), **args)
        return ctx.tr.nformat("{player} offers {target} {n} card face down.",
                              "{player} offers {target} {n} cards face down.",
                              ev["k"], **args)

    def _claim(self, ev: Mapping[str, Any], ctx: Context) -> str:
        args = {"player": ctx.name(ev["seat"]), "number": ev["card_index"] + 1}
        if ev["claim"] == "none":
            return ctx.tr.format(N_("{player} says nothing about offered card {number}."),
                                 **args)
        return ctx.tr.format(N_("{player} announces offered card {number} as {claim}."),
                             claim=claim_text(ev["claim"], ctx), **args)

    def _accept(self, ev: Mapping[str, Any], ctx: Context) -> str:
        return ctx.tr.format(N_("{player} accepts the offer."), player=ctx.name(ev["seat"]))

    def _veto(self, ev: Mapping[str, Any], ctx: Context) -> str:
        player = ctx.name(ev["seat"])
        if "vetoes" not in ev:  # a log entry
            return ctx.tr.format(N_("{player} vetoes the offer."), player=player)
        return ctx.tr.nformat("{player} vetoes the offer ({n} veto so far).",
                              "{player} vetoes the offer ({n} vetoes so far).",
                              ev["vetoes"], player=player)

    def _creation(self, ev: Mapping[str, Any], ctx: Context) -> str:
        return ctx.tr.format(
            N_("{player} reveals Schöpfung ({cards}) and overrules the veto: the trade goes "
               "ahead."), player=ctx.name(ev["seat"]),
            cards=cards(ev.get("cards") or C.card_codes(C.CREATION)))

    def _pass(self, ev: Mapping[str, Any], ctx: Context) -> str:
        return ctx.tr.format(N_("{player} lets the veto stand."), player=ctx.name(ev["seat"]))

    def _veto_draw(self, ev: Mapping[str, Any], ctx: Context) -> str:
        player = ctx.name(ev["seat"])
        if "drawn" in ev:  # the offerer's own view
            return ctx.tr.format(
                N_("{player} draws {drawn} from the stack and puts {offered} under it."),
                player=player, drawn=cards(ev["drawn"]), offered=cards(ev["to_bottom"]))
        return ctx.tr.nformat(
            "{player} draws {n} card from the stack and puts the offered card under it.",
            "{player} draws {n} cards from the stack and puts the offered cards under it.",
            ev["k"], player=player)

    def _swap(self, ev: Mapping[str, Any], ctx: Context) -> str:
        # the event's seat is the target T, who gives back; "with" is the offerer
        target, offerer = ev["seat"], ev["with"]
        args = {"player": ctx.name(target), "partner": ctx.name(offerer)}
        if "gave" in ev and ctx.reader in (target, offerer):
            # "gave"/"received" are the reader's own: turn them into T's and the offerer's
            mine_is_target = ctx.reader == target
            returned = ev["gave"] if mine_is_target else ev["received"]
            offered = ev["received"] if mine_is_target else ev["gave"]
            return ctx.tr.format(
                N_("{player} gives {partner} {returned} in exchange for {offered}."),
                returned=cards(returned), offered=cards(offered), **args)
        return ctx.tr.nformat("{player} and {partner} swap {n} card face down.",
                              "{player} and {partner} swap {n} cards face down.",
                              ev["k"], **args)

    def _messenger(self, ev: Mapping[str, Any], ctx: Context) -> str:
        args = {"player": ctx.name(ev["seat"]), "partner": ctx.name(ev["to"])}
        if "card" in ev:  # the giver and the receiver see the card
            return ctx.tr.format(N_("{player} gives {partner} {card} through the Blinder Bote."),
                                 card=card(ev["card"]), **args)
        return ctx.tr.format(
            N_("{player} gives {partner} a card face down through the Blinder Bote."), **args)

    def _bottom(self, ev: Mapping[str, Any], ctx: Context) -> str:
        player = ctx.name(ev["seat"])
        if "card" in ev:
            return ctx.tr.format(N_("{player} puts {card} under the stack (hand limit 6)."),
                                 player=player, card=card(ev["card"]))
        return ctx.tr.format(N_("{player} puts a card under the stack (hand limit 6)."),
                             player=player)

    def _round(self, ev: Mapping[str, Any], ctx: Context) -> str:
        draws = ev.get("draws")
        if draws is None:  # a log entry
            return ctx.tr.format(
                N_("Round {round} begins: everyone draws up to 2 cards (hand limit 6)."),
                round=ev["round"])
        parts = []
        for seat, n in draws:
            player = ctx.name(seat)
            if n == 0:
                parts.append(ctx.tr.format(N_("{player} draws nothing"), player=player))
            elif seat == ctx.reader and "drawn" in ev:
                parts.append(ctx.tr.format(N_("{player} draws {cards}"), player=player,
                                           cards=cards(ev["drawn"])))
            else:
                parts.append(ctx.tr.nformat("{player} draws {n} card",
                                            "{player} draws {n} cards", n, player=player))
        return ctx.tr.format(N_("Round {round} begins: {draws}."), round=ev["round"],
                             draws="; ".join(parts))

    def _silent_end(self, ev: Mapping[str, Any], ctx: Context) -> str:
        return ctx.tr.gettext(
            N_("The third round is over without a call (Stilles Ende): the hands are scored."))

    # -- actions --------------------------------------------------------------------------
    def action(self, action: int, ctx: Context) -> str:
        kind, a, _ = self.game.space.decode(action)  # type: ignore[attr-defined]
        if kind in _SIMPLE_ACTIONS:
            return ctx.tr.gettext(_SIMPLE_ACTIONS[kind])
        if kind == "target":
            return ctx.tr.format(N_("Make an offer to {player}"), player=ctx.name(a))
        if kind == "offer":
            return ctx.tr.format(N_("Offer {cards} face down"),
                                 cards=cards(C.card_codes(C.SUBSETS[a])))
        if kind == "return":
            return ctx.tr.format(N_("Give back {cards}"), cards=cards(C.card_codes(C.SUBSETS[a])))
        if kind == "messenger":
            return ctx.tr.format(N_("Give {card} to the Blinder Bote"), card=card(C.CARD_CODES[a]))
        if kind == "bottom":
            return ctx.tr.format(N_("Put {card} under the stack"), card=card(C.CARD_CODES[a]))
        claim = C.CLAIM_TEXT[a]
        if claim == "none":
            return ctx.tr.gettext(N_("Announce nothing"))
        return ctx.tr.format(N_("Announce {claim}"), claim=claim_text(claim, ctx))

    # -- the board ------------------------------------------------------------------------
    def board(self, view: Mapping[str, Any], ctx: Context) -> str:
        tr = ctx.tr
        lines = [tr.format(N_("Pixmit · {mode} · round {round} of 3"),
                           mode=tr.gettext(MODE_TEXT[view["mode"]]), round=view["round"])]
        lines += self._seat_lines(view, ctx)
        lines.append(tr.nformat("Stack: {n} card.", "Stack: {n} cards.",
                                view["stack_size"]))
        holder = view["holder_21"]
        if holder == "stack":
            lines.append(tr.format(N_("{card} is in the stack."), card=card("21")))
        else:
            lines.append(tr.format(N_("{card} is held by {player}."), card=card("21"),
                                   player=ctx.name(holder)))
        for reveal in view["reveals"]:
            template = N_("{player} revealed Wissen: {cards}.") \
                if reveal["set"] == C.K_KNOWLEDGE else N_("{player} revealed Schöpfung: {cards}.")
            lines.append(tr.format(template, player=ctx.name(reveal["seat"]),
                                   cards=cards(reveal["cards"])))
        recent = view["log"][-RECENT_MOVES:]
        if recent:
            lines.append(tr.gettext(N_("Last moves:")))
            caller = view["final"]["caller"] if view.get("final") else None
            lines += ["  " + self.tell(_as_event(entry, caller), ctx) for entry in recent]
        if view.get("final"):
            lines += self._final_lines(view["final"], ctx)
            return "\n".join(lines)
        if view["to_act"]:
            phase = view["phase"]
            template = PHASE_TEXT[phase] if phase != "turn" or view["may_call"] \
                else N_("{player} is on turn and makes an offer.")
            lines.append(tr.format(template, player=ctx.name(view["to_act"][0])))
        if "offer_target" in view:  # the offerer's private choice, before the cards
            lines.append(tr.format(N_("Your offer goes to {player}: now choose the card or "
                                      "cards."), player=ctx.name(view["offer_target"])))
        if view["offer"]:
            lines += self._offer_lines(view["offer"], ctx)
        if "hand" in view:
            lines += self._hand_lines(view, ctx)
        return "\n".join(lines)

    def _seat_lines(self, view: Mapping[str, Any], ctx: Context) -> list[str]:
        tr = ctx.tr
        out = []
        for p, size in enumerate(view["hand_sizes"]):
            details = [tr.nformat("{n} card", "{n} cards", size),
                       tr.nformat("{n} veto", "{n} vetoes", view["vetoes"][p])]
            if p == view.get("seat"):
                details.append(tr.gettext(N_("you")))
            if p == view["start_player"]:
                details.append(tr.gettext(N_("start player")))
            if p == view["holder_21"]:
                details.append(tr.format(N_("holds {card}"), card=card("21")))
            if view["knowledge_used"][p]:
                details.append(tr.gettext(N_("Wissen used")))
            if view["creation_used"][p]:
                details.append(tr.gettext(N_("Schöpfung used")))
            out.append(tr.format(N_("{player}: {details}"), player=ctx.name(p),
                                 details=", ".join(details)))
        return out

    def _offer_lines(self, offer: Mapping[str, Any], ctx: Context) -> list[str]:
        tr = ctx.tr
        claims = offer["claims"]
        announced = ", ".join(tr.gettext(N_("nothing")) if c == "none" else claim_text(c, ctx)
                              for c in claims) or tr.gettext(N_("nothing yet"))
        out = [tr.nformat("Offer: {player} to {target}, {n} card face down; announced: {claims}.",
                          "Offer: {player} to {target}, {n} cards face down; announced: {claims}.",
                          offer["k"], player=ctx.name(offer["from"]),
                          target=ctx.name(offer["to"]), claims=announced)]
        if "cards" in offer:  # the offerer sees its own cards and which claims are bluffs
            parts = []
            for i, code in enumerate(offer["cards"]):
                if i >= len(claims):
                    parts.append(tr.format(N_("{card}, not announced yet"), card=card(code)))
                elif claims[i] == "none":
                    parts.append(tr.format(N_("{card}, nothing announced"), card=card(code)))
                elif claim_is_true(claims[i], code):
                    parts.append(tr.format(N_("{card}, truly announced as {claim}"),
                                           card=card(code), claim=claim_text(claims[i], ctx)))
                else:
                    parts.append(tr.format(N_("{card}, announced as {claim} (a bluff)"),
                                           card=card(code), claim=claim_text(claims[i], ctx)))
            out.append(tr.format(N_("Your offered cards: {cards}."), cards="; ".join(parts)))
        return out

    def _hand_lines(self, view: Mapping[str, Any], ctx: Context) -> list[str]:
        tr = ctx.tr
        hand = sorted(view["hand"])
        out = [tr.format(N_("Your hand (best score now {score}):"), score=view["score"])]
        out += [f"  {card(code)} · {card_groups(code, ctx)}" for code in hand]
        mask = sum(1 << _ID[code] for code in hand)
        out.append(tr.format(N_("Your best layout now: {units}."),
                             units=_units(C.layout_text(mask), ctx)))
        # other hands first, then the stack from the top down
        known = sorted(view.get("known", []),
                       key=lambda k: (0, k["seat"]) if "seat" in k else (1, k["stack_from_top"]))
        if known:
            out.append(tr.gettext(N_("You know where these cards are:")))
        for k in known:
            if "seat" in k:
                out.append("  " + tr.format(N_("{card} is held by {player}."),
                                            card=card(k["card"]), player=ctx.name(k["seat"])))
            else:
                out.append("  " + tr.format(
                    N_("{card} is in the stack, position {position} from the top."),
                    card=card(k["card"]), position=k["stack_from_top"] + 1))
        return out

    def _final_lines(self, final: Mapping[str, Any], ctx: Context) -> list[str]:
        tr = ctx.tr
        out = [tr.gettext(N_("Final scoring:"))]
        for p, (hand, layout, score) in enumerate(
                zip(final["hands"], final["layouts"], final["scores"], strict=True)):
            out.append(tr.nformat("{player}: {n} point, holding {cards}",
                                  "{player}: {n} points, holding {cards}", score,
                                  player=ctx.name(p), cards=cards(sorted(hand))))
            out.append("    " + _units(layout, ctx))
        if final["caller"] >= 0:
            out.append(tr.format(N_("{player} called Pixmit ({conditions})."),
                                 player=ctx.name(final["caller"]),
                                 conditions=", ".join(tr.gettext(CALL_LABELS[c])
                                                      for c in final["call_conditions"])))
        else:
            out.append(tr.gettext(N_("Nobody called Pixmit: the game ended after round 3.")))
        if final["hunt"]:
            draws = ", ".join(tr.format(N_("{player} drew {card}"), player=ctx.name(p),
                                        card=card(code)) for p, code in final["hunt"])
            out.append(tr.format(N_("Hunt: {draws}."), draws=draws))
        if final["annihilation_effect"]:
            out.append(tr.format(N_("Vernichtung: every opponent of {player} loses 5 points."),
                                 player=ctx.name(final["caller"])))
        result = final["result"]
        scores = final["scores"]
        if result["winner"] is not None:
            if scores.count(scores[result["winner"]]) > 1:  # the tie-break decided (§4)
                template = N_("Winner: {player} (fewer vetoes on equal points).")
            else:
                template = N_("Winner: {player}.")
            out.append(tr.format(template, player=ctx.name(result["winner"])))
        else:
            best = [ctx.name(p) for p, rank in enumerate(result["ranks"]) if rank == 1]
            out.append(tr.format(N_("Shared win: {players}."), players=", ".join(best)))
        return out


def _units(layout: Sequence[Mapping[str, Any]], ctx: Context) -> str:
    """An Auslegung in words: each unit's name, cards and points."""
    if not layout:
        return ctx.tr.gettext(N_("no scoring unit"))
    return "; ".join(ctx.tr.nformat("{unit}: {cards} ({n} point)",
                                    "{unit}: {cards} ({n} points)", unit["points"],
                                    unit=ctx.tr.gettext(UNIT_LABELS[unit["unit"]]),
                                    cards=" ".join(unit["cards"]))
                     for unit in layout)


def _as_event(entry: Mapping[str, Any], caller: int | None) -> dict[str, Any]:
    """A public log entry in the shape of the event it records (what the log lacks is
    left out, and the narrator says less)."""
    out = dict(entry)
    out.setdefault("seat", None)
    if entry["kind"] == Kind.SWAP:  # logged by the offerer, told by the target
        out["seat"], out["with"] = entry["target"], entry["seat"]
    elif entry["kind"] == Kind.HUNT:
        out["from"] = caller
    return out


_SIMPLE_ACTIONS: dict[str, str] = {
    A.SIMPLE[A.CALL]: N_("Call Pixmit (the game ends)"),
    A.SIMPLE[A.KNOWLEDGE]: N_("Use Wissen: reveal 15, 19, 26 and look at the top two stack "
                              "cards"),
    A.SIMPLE[A.ACCEPT]: N_("Accept the offer (then give back as many cards, unseen)"),
    A.SIMPLE[A.VETO]: N_("Veto the offer"),
    A.SIMPLE[A.CREATION]: N_("Use Schöpfung: reveal 03, 20, 25 and overrule the veto"),
    A.SIMPLE[A.PASS]: N_("Let the veto stand"),
}
_TELLERS: dict[Kind, Callable[[Narrator, Mapping[str, Any], Context], str]] = {
    Kind.CALL: Narrator._call,
    Kind.HUNT: Narrator._hunt,
    Kind.KNOWLEDGE: Narrator._knowledge,
    Kind.OFFER: Narrator._offer,
    Kind.CLAIM: Narrator._claim,
    Kind.ACCEPT: Narrator._accept,
    Kind.VETO: Narrator._veto,
    Kind.CREATION: Narrator._creation,
    Kind.PASS: Narrator._pass,
    Kind.VETO_DRAW: Narrator._veto_draw,
    Kind.SWAP: Narrator._swap,
    Kind.MESSENGER: Narrator._messenger,
    Kind.BOTTOM: Narrator._bottom,
    Kind.ROUND: Narrator._round,
    Kind.SILENT_END: Narrator._silent_end,
}
