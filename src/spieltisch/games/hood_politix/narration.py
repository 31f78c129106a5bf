"""Hood Politix in words: every event as one sentence, actions as menu labels and the
terminal's board, in the reader's language (issue 18).

Cards are named as the table shows them: a colour word (translated) and the number or
the action card's original name, which stays the same in every language ("Green 7",
"Grün Deuce", "Paars Pimp Slap"). Only the event, the view, the seat names and the
static card tables are read, so nothing here can leak a hidden card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ... import narration
from ...core.game import IllegalAction
from ...i18n import N_
from . import cards as C
from .terms import Fault

Event = Mapping[str, Any]
Context = narration.Context

#: The four colours, as the cards' first letter (G, O, P, Y) orders them.
COLOUR_WORDS = (N_("Green"), N_("Orange"), N_("Purple"), N_("Yellow"))


# -- cards ---------------------------------------------------------------------------
def card_kind(code: str) -> int | None:
    """The kind of a kind code (``G7``) or a physical code (``G7a``); None if unknown."""
    key = code.upper()
    if key not in C.KIND_INDEX and key[-1:] in ("A", "B"):
        key = key[:-1]
    return C.KIND_INDEX.get(key)


def card_name(code: str, ctx: Context) -> str:
    """"Green 7", "Grün Deuce": the colour in the reader's language, the original name."""
    kind = card_kind(code)
    if kind is None:
        return code
    colour = ctx.tr.gettext(COLOUR_WORDS[C.KIND_COLOUR[kind]])
    typ = C.KIND_TYPE[kind]
    what = str(C.KIND_VALUE[kind]) if typ < 0 else C.TYPE_NAMES[typ]
    return f"{colour} {what}"


def _sort_key(code: str) -> tuple[int, int, int]:
    """By colour, numbers before action cards, then by value or action type."""
    kind = card_kind(code)
    if kind is None:
        return (9, 9, 0)
    typ = C.KIND_TYPE[kind]
    return (C.KIND_COLOUR[kind], 0 if typ < 0 else 1, C.KIND_VALUE[kind] if typ < 0 else typ)


def card_list(codes: Iterable[str], ctx: Context, sort: bool = False) -> str:
    """Cards joined with commas ("Green 7, Orange Deuce"), sorted for a hand."""
    items = sorted(codes, key=_sort_key) if sort else list(codes)
    return ", ".join(card_name(c, ctx) for c in items)


# -- faults and accusations -----------------------------------------------------------
#: What a player may be accused of (§5.2), by the fault's code, as "of …" in a sentence.
FAULT_WORDS = {
    "mic-check": N_("a missed Mic Check"),
    "mic-drop": N_("a missed Mic Drop"),
    "timeout": N_("taking too long ({seconds}-second rule)"),
}


#: An accusation of a fault this narrator does not know (a newer rule set).
SOME_FAULT = N_("a fault")


def fault_words(code: object, ctx: Context, move_seconds: float) -> str:
    """"a missed Mic Check": the fault ``code`` in the reader's language; the timeout
    names the table's seconds for the rule's ``move_seconds`` (9 at the relaxed pace)."""
    return ctx.tr.format(FAULT_WORDS.get(str(code), SOME_FAULT),
                         seconds=ctx.seconds(move_seconds))


def fault_kind(event: Event) -> Fault | None:
    """Why an attempt was a fault: the ``why`` the rules put in the ``fault`` event
    (``terms.Fault``); None when it names none this narrator knows."""
    try:
        return Fault(event.get("why"))
    except ValueError:
        return None


# -- the narrator -------------------------------------------------------------------
class Narrator(narration.Narrator):
    """Hood Politix's sentences, menu labels and board."""

    def tell(self, event: Event, ctx: Context) -> str:
        teller = _TELLERS.get(str(event.get("kind", "")))
        if teller is None:
            return super().tell(event, ctx)
        return teller(self, event, ctx)

    # -- events ---------------------------------------------------------------------
    def _deal(self, ev: Event, ctx: Context) -> str:
        tr = ctx.tr
        args = {"round": ev.get("round", 0), "dealer": ctx.name(ev.get("dealer")),
                "start": card_name(str(ev.get("start", "")), ctx)}
        buried = ev.get("buried") or []
        hand = ev.get("hand")
        n = len(buried)
        if hand is not None:
            args.update(player=ctx.name(ctx.reader), hand=card_list(hand, ctx, sort=True))
            if buried:
                return tr.nformat("Round {round}: {dealer} deals; {buried} goes under the "
                                  "draw pile and the start card is {start}; {player} gets "
                                  "{hand}.",
                                  "Round {round}: {dealer} deals; {buried} go under the "
                                  "draw pile and the start card is {start}; {player} gets "
                                  "{hand}.", n, buried=card_list(buried, ctx), **args)
            return tr.format(N_("Round {round}: {dealer} deals and the start card is {start}; "
                                "{player} gets {hand}."), **args)
        if buried:
            return tr.nformat("Round {round}: {dealer} deals; {buried} goes under the draw "
                              "pile and the start card is {start}.",
                              "Round {round}: {dealer} deals; {buried} go under the draw "
                              "pile and the start card is {start}.", n,
                              buried=card_list(buried, ctx), **args)
        return tr.format(N_("Round {round}: {dealer} deals and the start card is {start}."),
                         **args)

    def _play(self, ev: Event, ctx: Context) -> str:
        """A card played, with what was said with it ("mic": check, drop or a bluff)."""
        args = {"player": ctx.name(ev.get("seat")), "card": card_name(str(ev["card"]), ctx)}
        said = ev.get("mic") if ev.get("mic") in _PLAY_SAYS else None
        if ev.get("target") is not None:
            return ctx.tr.format(_PLAY_ON_SAYS[said], target=ctx.name(ev["target"]), **args)
        return ctx.tr.format(_PLAY_SAYS[said], **args)

    def _throw_in(self, ev: Event, ctx: Context) -> str:
        args = {"player": ctx.name(ev.get("seat")), "card": card_name(str(ev["card"]), ctx)}
        said = ev.get("mic") if ev.get("mic") in _THROW_SAYS else None
        return ctx.tr.format(_THROW_SAYS[said], **args)

    def _mic_check(self, ev: Event, ctx: Context) -> str:
        if ev.get("bluff"):
            return ctx.tr.format(N_("{player} announces Mic Check — a bluff."),
                                 player=ctx.name(ev.get("seat")))
        return ctx.tr.format(N_("{player} announces: Mic Check!"),
                             player=ctx.name(ev.get("seat")))

    def _draw(self, ev: Event, ctx: Context) -> str:
        """Drawn cards by name for their owner, a count for everyone else."""
        tr = ctx.tr
        player = ctx.name(ev.get("seat"))
        n = int(ev.get("count", 0))
        if n == 0:
            return tr.format(N_("{player} draws nothing: there are no cards left."),
                             player=player)
        reason = str(ev.get("reason", ""))
        shown = ev.get("cards")
        if shown:
            cards = card_list(shown, ctx)
            if reason == "stack":
                return tr.format(N_("{player} draws {cards} for the stack."),
                                 player=player, cards=cards)
            if reason == "pimp slap":
                return tr.format(N_("{player} draws {cards} from the Pimp Slap."),
                                 player=player, cards=cards)
            if reason == "respekt":
                return tr.format(N_("{player} did not release in time and draws {cards}."),
                                 player=player, cards=cards)
            if reason in _PENALTIES:
                return tr.nformat("{player} draws the penalty card {cards}.",
                                  "{player} draws the penalty cards {cards}.", n,
                                  player=player, cards=cards)
            return tr.format(N_("{player} draws {cards}."), player=player, cards=cards)
        if reason == "stack":
            return tr.nformat("{player} draws {n} card for the stack.",
                              "{player} draws {n} cards for the stack.", n,
                              player=player)
        if reason == "pimp slap":
            return tr.nformat("{player} draws {n} card from the Pimp Slap.",
                              "{player} draws {n} cards from the Pimp Slap.", n,
                              player=player)
        if reason == "respekt":
            return tr.nformat("{player} did not release in time and draws {n} card.",
                              "{player} did not release in time and draws {n} cards.", n,
                              player=player)
        if reason in _PENALTIES:
            return tr.nformat("{player} draws {n} penalty card.",
                              "{player} draws {n} penalty cards.", n, player=player)
        return tr.nformat("{player} draws {n} card.", "{player} draws {n} cards.", n,
                          player=player)

    def _accept(self, ev: Event, ctx: Context) -> str:
        player = ctx.name(ev.get("seat"))
        phase = ev.get("phase")
        if phase == "stack":
            return ctx.tr.format(N_("{player} accepts the stack."), player=player)
        if phase == "slap":
            return ctx.tr.format(N_("{player} accepts the Pimp Slap."), player=player)
        if phase == "deal":
            return ctx.tr.format(N_("{player} accepts the Deal."), player=player)
        return ctx.tr.format(N_("{player} accepts."), player=player)

    def _swap(self, ev: Event, ctx: Context) -> str:
        args = {"player": ctx.name(ev.get("seat")), "other": ctx.name(ev.get("with"))}
        hand = ev.get("hand")
        if hand is not None:
            return ctx.tr.format(N_("{player} and {other} swap hands; {reader} now holds "
                                    "{cards}."), reader=ctx.name(ctx.reader),
                                 cards=card_list(hand, ctx, sort=True) or "—", **args)
        return ctx.tr.format(N_("{player} and {other} swap hands."), **args)

    def _snitch_look(self, ev: Event, ctx: Context) -> str:
        args = {"player": ctx.name(ev.get("seat")), "target": ctx.name(ev.get("target"))}
        hand = ev.get("hand")
        if hand is not None:
            return ctx.tr.format(N_("{player} snitches and looks at {target}'s hand: {cards}."),
                                 cards=card_list(hand, ctx, sort=True), **args)
        return ctx.tr.format(N_("{player} snitches and looks at {target}'s hand."), **args)

    def _reveal(self, ev: Event, ctx: Context) -> str:
        return ctx.tr.format(N_("{player} reveals {target}'s {card} to everyone."),
                             player=ctx.name(ev.get("seat")), target=ctx.name(ev.get("target")),
                             card=card_name(str(ev.get("card", "")), ctx))

    def _exchange(self, ev: Event, ctx: Context) -> str:
        args = {"player": ctx.name(ev.get("seat")), "target": ctx.name(ev.get("target"))}
        if "took" in ev and "gave" in ev:
            return ctx.tr.format(N_("{player} takes {took} from {target} and gives {gave} "
                                    "in return."), took=card_name(str(ev["took"]), ctx),
                                 gave=card_name(str(ev["gave"]), ctx), **args)
        return ctx.tr.format(N_("{player} exchanges a card with {target}."), **args)

    def _move_seconds(self) -> float:
        """The rule's seconds of the 3-second rule (option ``move_seconds``)."""
        return float(getattr(self.game, "move_seconds", 3.0))

    def _accuse(self, ev: Event, ctx: Context) -> str:
        args = {"player": ctx.name(ev.get("seat")), "accused": ctx.name(ev.get("accused")),
                "fault": fault_words(ev.get("fault"), ctx, self._move_seconds())}
        if ev.get("valid", True):
            return ctx.tr.format(N_("{player} accuses {accused} of {fault} — rightly."), **args)
        return ctx.tr.format(N_("{player} accuses {accused} of {fault} — wrongly: Judas!"),
                             **args)

    def _fault(self, ev: Event, ctx: Context) -> str:
        """§3: a faulty attempt, told by what was tried and why it was wrong."""
        tr = ctx.tr
        player = ctx.name(ev.get("seat"))
        try:
            action = self.game.action_from_json(str(ev.get("action", "")))
        except IllegalAction:
            return tr.format(N_("{player} makes a wrong move — a fault."), player=player)
        typ, kind, arg = C.ATYPE_T[action], C.AKIND_T[action], C.AARG_T[action]
        why = fault_kind(ev)
        if typ == C.A_ACCUSE:
            return tr.format(N_("{player} accuses {accused} of {fault} — wrongly: Judas!"),
                             player=player, accused=ctx.name(arg),
                             fault=fault_words(C.FAULT_CODES[kind], ctx,
                                               self._move_seconds()))
        if typ == C.A_THROW:
            card = card_name(C.KIND_CODES[kind], ctx)
            if why is Fault.NOT_A_NUMBER:
                return tr.format(N_("{player} tries to throw in {card}, but only number cards "
                                    "can be thrown in — a fault: the card goes back."),
                                 player=player, card=card)
            return tr.format(N_("{player} throws in {card} too late or not identical — a "
                                "fault: the card goes back."), player=player, card=card)
        if typ == C.A_PLAY:
            card = card_name(C.KIND_CODES[kind], ctx)
            if why is Fault.OUT_OF_TURN:
                return tr.format(N_("{player} plays {card} out of turn — a fault: the card "
                                    "goes back."), player=player, card=card)
            if why is Fault.NO_MATCH:
                return tr.format(N_("{player} plays {card}, which does not match — a fault: "
                                    "the card goes back."), player=player, card=card)
            return tr.format(N_("{player} answers with {card}, which is not allowed here — a "
                                "fault: the card goes back."), player=player, card=card)
        if typ == C.A_DRAW:
            if why is Fault.OUT_OF_TURN:
                return tr.format(N_("{player} draws out of turn — a fault."), player=player)
            if why is Fault.PLAYABLE:
                return tr.format(N_("{player} wants to draw while holding a playable card — "
                                    "a fault."), player=player)
            return tr.format(N_("{player} wants to draw instead of answering — a fault."),
                             player=player)
        if typ == C.A_ACCEPT:
            if why is Fault.OUT_OF_TURN:
                return tr.format(N_("{player} accepts out of turn — a fault."), player=player)
            return tr.format(N_("{player} accepts, but there is nothing to accept — a "
                                "fault."), player=player)
        return tr.format(N_("{player} makes a wrong move — a fault."), player=player)

    def _round_end(self, ev: Event, ctx: Context) -> str:
        tr = ctx.tr
        order = list(ev.get("order") or [])
        places = ", ".join(tr.format(N_("{place}. {player}"), place=i + 1, player=ctx.name(s))
                           for i, s in enumerate(order))
        loser = ctx.name(order[-1]) if order else ctx.name(None)
        return tr.format(N_("Round {round} is over — places: {places}; {loser} loses the "
                            "round; totals: {totals}."), round=ev.get("round", 0),
                         places=places, loser=loser, totals=_totals(ev.get("scores"), ctx))

    def _game_end(self, ev: Event, ctx: Context) -> str:
        tr = ctx.tr
        scores = list(ev.get("scores") or [])
        winner = ev.get("winner")
        totals = _totals(scores, ctx)
        if winner is None or not 0 <= winner < len(scores):
            return tr.format(N_("The game is over without a single winner; totals: "
                                "{totals}."), totals=totals)
        n = int(scores[winner])
        return tr.nformat("The game is over: {player} wins with {n} point; totals: "
                          "{totals}.",
                          "The game is over: {player} wins with {n} points; totals: "
                          "{totals}.", n, player=ctx.name(winner), totals=totals)

    def _expire(self, ev: Event, ctx: Context) -> str:
        timer = ev.get("timer")
        if timer == "respekt":
            return ctx.tr.gettext(N_("The Respekt time is up."))
        if timer == "politix":
            return ctx.tr.gettext(N_("The Politix pause has run out; play goes on."))
        return ctx.tr.gettext(N_("The move timer has run out."))

    # -- actions --------------------------------------------------------------------
    def action(self, action: int, ctx: Context) -> str:
        tr = ctx.tr
        typ, kind, arg, flag = C.ATYPE_T[action], C.AKIND_T[action], C.AARG_T[action], \
            C.AFLAG_T[action]
        # the card of a play, throw-in or Snitch step (an accusation's ``kind`` is its fault)
        card = card_name(C.KIND_CODES[kind], ctx) if typ in _CARD_ACTIONS else ""
        if typ == C.A_PLAY:
            if arg >= 0:
                if flag:
                    return tr.format(N_("Play {card} on {target}, calling “Mic!”"), card=card,
                                     target=ctx.name(arg))
                return tr.format(N_("Play {card} on {target}"), card=card, target=ctx.name(arg))
            if flag:
                return tr.format(N_("Play {card}, calling “Mic!”"), card=card)
            return tr.format(N_("Play {card}"), card=card)
        if typ == C.A_THROW:
            if flag:
                return tr.format(N_("Throw in {card}, calling “Mic!”"), card=card)
            return tr.format(N_("Throw in {card}"), card=card)
        if typ == C.A_REVEAL:
            return tr.format(N_("Reveal their {card} to everyone"), card=card)
        if typ == C.A_TAKE:
            return tr.format(N_("Take their {card} (then give one of yours)"), card=card)
        if typ == C.A_GIVE:
            return tr.format(N_("Give your {card} in exchange"), card=card)
        if typ == C.A_ACCUSE:
            return tr.format(N_("Accuse {player} of {fault}"), player=ctx.name(arg),
                             fault=fault_words(C.FAULT_CODES[kind], ctx,
                                               self._move_seconds()))
        if typ == C.A_EXPIRE:
            return tr.gettext(_TIMER_LABELS[arg])
        return tr.gettext(_SIMPLE_LABELS[typ])

    # -- the board ------------------------------------------------------------------
    def board(self, view: Mapping[str, Any], ctx: Context) -> str:
        tr = ctx.tr
        me = view.get("seat")
        lines = [tr.format(N_("Round {round} (at least {rounds}) — dealer: {dealer} — play "
                              "goes {direction}."), round=view["round"],
                           rounds=view["min_rounds"], dealer=ctx.name(view["dealer"]),
                           direction=tr.gettext(N_("clockwise") if view["direction"] ==
                                                "clockwise" else N_("counter-clockwise")))]
        lines += [self._seat_line(view, s, ctx) for s in range(len(view["hand_sizes"]))]
        lines.append(tr.format(N_("Top card: {card} — active colour: {colour}."),
                               card=card_name(view["top"], ctx),
                               colour=tr.gettext(COLOUR_WORDS[C.COLOURS.index(view["colour"])])))
        lines.append(tr.nformat("Draw pile: {n} card.", "Draw pile: {n} cards.",
                                view["draw_pile"]) + " "
                     + tr.nformat("Discard pile: {n} card.", "Discard pile: {n} cards.",
                                  view["discard_pile"]))
        if view.get("buried"):
            lines.append(tr.format(N_("Under the draw pile (seen by all): {cards}."),
                                   cards=card_list(view["buried"], ctx)))
        lines.append(self._situation(view, ctx))
        lines += self._notes(view, ctx)
        if me is not None:
            lines += self._private(view, me, ctx)
        return "\n".join(lines)

    def _seat_line(self, view: Mapping[str, Any], s: int, ctx: Context) -> str:
        tr = ctx.tr
        tags: list[str] = []
        if s == view.get("seat"):
            tags.append(tr.gettext(N_("you")))
        if s == view["dealer"]:
            tags.append(tr.gettext(N_("dealer")))
        status = view["status"][s]
        if status == "finished":
            if s in view["finish_order"]:
                tags.append(tr.format(N_("out, place {place}"),
                                      place=view["finish_order"].index(s) + 1))
            else:
                tags.append(tr.gettext(N_("out")))
        elif status == "pending":
            tags.append(tr.gettext(N_("out unless paid back")))
        elif s in view["finish_order"]:  # the round's loser, once the game is over
            tags.append(tr.format(N_("place {place}"), place=view["finish_order"].index(s) + 1))
        left = view.get("politix_left", [0] * (s + 1))[s]
        if left and status != "finished":
            tags.append(tr.nformat("{n} Politix call left", "{n} Politix calls left",
                                   left))
        if s in view["to_act"]:
            tags.append(tr.gettext(N_("to act")))
        line = tr.format(N_("{player}: {cards}, {points}"), player=ctx.name(s),
                         cards=tr.nformat("{n} card", "{n} cards",
                                          view["hand_sizes"][s]),
                         points=tr.nformat("{n} point", "{n} points", view["scores"][s]))
        return "  " + line + ("" if not tags else " — " + ", ".join(tags))

    def _situation(self, view: Mapping[str, Any], ctx: Context) -> str:
        """Who the game waits for and what they may do (the phase in words)."""
        tr = ctx.tr
        pause = view.get("pause")
        if pause:
            who = ctx.name(pause["seat"])
            if pause["kind"] == "politix":
                return tr.format(N_("Paused: {player} called Politix; only {player} ends the "
                                    "pause (accusations still count)."), player=who)
            return tr.format(N_("Paused for Respekt: {player} drew 5 or more cards and "
                                "releases the game when ready."), player=who)
        phase = view["phase"]
        due = view.get("due")
        player = ctx.name(due)
        if phase == "over":
            return tr.gettext(N_("The game is over."))
        if phase == "stack" and view.get("stack"):
            st = view["stack"]
            if st["in_yo_face"]:
                return tr.format(N_("Stack of {n} cards on {player}: answer with In Yo Face, "
                                    "5-0 or a matching Payback (no Deuce on In Yo Face) — "
                                    "or accept."), n=st["amount"], player=ctx.name(st["target"]))
            return tr.format(N_("Stack of {n} cards on {player}: answer with Deuce, In Yo "
                                "Face, 5-0 or a matching Payback — or accept."),
                             n=st["amount"], player=ctx.name(st["target"]))
        if phase == "slap":
            return tr.format(N_("Pimp Slap by {by}: {player} answers with a matching Payback "
                                "or 5-0 — or accepts."), by=ctx.name(view.get("slap_by")),
                             player=player)
        if phase == "deal" and view.get("deal"):
            return tr.format(N_("Deal by {by} on {player}: {player} blocks it with 5-0 or "
                                "accepts."), by=ctx.name(view["deal"]["by"]), player=player)
        if phase == "snitch" and view.get("snitch"):
            return tr.format(N_("Snitch by {player} on {target}: {player} reveals one of "
                                "their cards or exchanges one."), player=player,
                             target=ctx.name(view["snitch"]["target"]))
        if phase == "mic_drop_window" and view.get("mic_drop_window"):
            w = view["mic_drop_window"]
            return tr.format(N_("{finisher} went out without Mic Drop: {player} may accuse "
                                "or let it pass."), finisher=ctx.name(w["finisher"]),
                             player=ctx.name(w["remaining"]))
        return tr.format(N_("{player} is to play."), player=player)

    def _notes(self, view: Mapping[str, Any], ctx: Context) -> list[str]:
        """Pending finishes, Mic Check duties, open faults and revealed cards."""
        tr = ctx.tr
        out: list[str] = []
        if view["phase"] == "over":
            return out
        if view.get("pending_finish") is not None:
            out.append(tr.format(N_("{player} played the last card on a stack: out unless "
                                    "the answer is a Payback."),
                                 player=ctx.name(view["pending_finish"])))
        if view.get("mic_check_due") is not None:
            out.append(tr.format(N_("{player} has one card left and may still announce Mic "
                                    "Check."), player=ctx.name(view["mic_check_due"])))
        for f in view.get("open_faults") or []:
            template = _OPEN_FAULTS.get(f["fault"])
            if template is not None:
                out.append(tr.format(template, player=ctx.name(f["seat"]),
                                     seconds=ctx.seconds(self._move_seconds())))
        for s, cards in sorted((view.get("revealed") or {}).items()):
            out.append(tr.format(N_("Revealed in {player}'s hand: {cards}."),
                                 player=ctx.name(int(s)), cards=card_list(cards, ctx, True)))
        return out

    def _private(self, view: Mapping[str, Any], me: int, ctx: Context) -> list[str]:
        """What only the reader sees: known cards, the Snitch look, the hand."""
        tr = ctx.tr
        out: list[str] = []
        for s, cards in sorted((view.get("known") or {}).items()):
            out.append(tr.format(N_("You know {player} holds: {cards}."),
                                 player=ctx.name(int(s)), cards=card_list(cards, ctx, True)))
        snitch = view.get("snitch")
        if view.get("snitch_look") and snitch:
            out.append(tr.format(N_("{player}'s hand (your Snitch look): {cards}."),
                                 player=ctx.name(snitch["target"]),
                                 cards=card_list(view["snitch_look"], ctx, True)))
        if view.get("snitch_take") and snitch:
            out.append(tr.format(N_("You take {player}'s {card}: now give one of your cards."),
                                 player=ctx.name(snitch["target"]),
                                 card=card_name(view["snitch_take"], ctx)))
        hand: Sequence[str] = view.get("hand") or []
        if hand:
            out.append(tr.nformat("Your hand ({n} card): {cards}",
                                  "Your hand ({n} cards): {cards}", len(hand),
                                  cards=card_list(hand, ctx, sort=True)))
        else:
            out.append(tr.gettext(N_("Your hand is empty.")))
        return out


# -- tables -------------------------------------------------------------------------
#: A play, a targeted play and a throw-in, by what was said with the card (§5.4).
_PLAY_SAYS = {
    None: N_("{player} plays {card}."),
    "check": N_("{player} plays {card} — Mic Check!"),
    "drop": N_("{player} plays {card} — Mic Drop!"),
    "bluff": N_("{player} plays {card} — Mic! (a bluff)"),
}
_PLAY_ON_SAYS = {
    None: N_("{player} plays {card} on {target}."),
    "check": N_("{player} plays {card} on {target} — Mic Check!"),
    "drop": N_("{player} plays {card} on {target} — Mic Drop!"),
    "bluff": N_("{player} plays {card} on {target} — Mic! (a bluff)"),
}
_THROW_SAYS = {
    None: N_("{player} throws in {card}."),
    "check": N_("{player} throws in {card} — Mic Check!"),
    "drop": N_("{player} throws in {card} — Mic Drop!"),
    "bluff": N_("{player} throws in {card} — Mic! (a bluff)"),
}
_PENALTIES = ("fault", "mic-check", "mic-drop", "timeout")

_CARD_ACTIONS = (C.A_PLAY, C.A_THROW, C.A_REVEAL, C.A_TAKE, C.A_GIVE)
_SIMPLE_LABELS: dict[int, str] = {
    C.A_DRAW: N_("Draw a card"),
    C.A_ACCEPT: N_("Accept the penalty"),
    C.A_MIC: N_("Announce Mic Check!"),
    C.A_POLITIX: N_("Call Politix (pause)"),
    C.A_END_POLITIX: N_("End the Politix pause"),
    C.A_RELEASE: N_("Release the game (Respekt)"),
    C.A_PASS: N_("Let the missed Mic Drop pass"),
}
_TIMER_LABELS = (N_("Let the move timer run out"), N_("Let the Respekt time run out"),
                 N_("Let the Politix pause run out"))
_OPEN_FAULTS = {
    "mic-check": N_("{player} missed the Mic Check and may be accused."),
    "mic-drop": N_("{player} went out without Mic Drop and may be accused."),
    "timeout": N_("{player} is taking too long and may be accused ({seconds}-second rule)."),
}


def _totals(scores: Sequence[Any] | None, ctx: Context) -> str:
    """"Anna 3 points, Ben 5 points"."""
    return ", ".join(ctx.tr.nformat("{player} {n} point", "{player} {n} points",
                                    int(p), player=ctx.name(s))
                     for s, p in enumerate(scores or []))


def _one(template: str) -> Callable[[Narrator, Event, Context], str]:
    """A teller for events whose sentence names only the acting player."""
    def tell(self: Narrator, ev: Event, ctx: Context) -> str:
        return ctx.tr.format(template, player=ctx.name(ev.get("seat")))
    return tell


def _finish(self: Narrator, ev: Event, ctx: Context) -> str:
    return ctx.tr.format(N_("{player} is out of the Hood: place {place}."),
                         player=ctx.name(ev.get("seat")), place=ev.get("place", 0))


def _reshuffle(self: Narrator, ev: Event, ctx: Context) -> str:
    return ctx.tr.nformat("The discard pile is shuffled into a new draw pile ({n} card).",
                          "The discard pile is shuffled into a new draw pile ({n} cards).",
                          int(ev.get("cards", 0)))


def _deal_blocked(self: Narrator, ev: Event, ctx: Context) -> str:
    return ctx.tr.format(N_("{player} blocks {by}'s Deal with a 5-0."),
                         player=ctx.name(ev.get("seat")), by=ctx.name(ev.get("by")))


#: Every event kind Hood Politix emits, and who tells it.
_TELLERS: dict[str, Callable[[Narrator, Event, Context], str]] = {
    "deal": Narrator._deal,
    "play": Narrator._play,
    "throw_in": Narrator._throw_in,
    "draw": Narrator._draw,
    "accept": Narrator._accept,
    "swap": Narrator._swap,
    "snitch_look": Narrator._snitch_look,
    "reveal": Narrator._reveal,
    "exchange": Narrator._exchange,
    "accuse": Narrator._accuse,
    "fault": Narrator._fault,
    "round_end": Narrator._round_end,
    "game_end": Narrator._game_end,
    "expire": Narrator._expire,
    "mic_check": Narrator._mic_check,
    "finish": _finish,
    "reshuffle": _reshuffle,
    "deal_blocked": _deal_blocked,
    "skipped": _one(N_("{player} is Busted and sits out this turn.")),
    "pending_finish": _one(N_("{player} played the last card on a stack: out unless the "
                              "answer is a Payback.")),
    "rejoin": _one(N_("{player} is back in the round.")),
    "politix": _one(N_("{player} calls Politix: the game pauses until {player} ends it.")),
    "pause_end": _one(N_("{player} ends the pause; play goes on.")),
    "respekt": _one(N_("Respekt: {player} drew 5 or more cards; the game waits until "
                       "{player} releases it.")),
    "mic_drop_passed": _one(N_("{player} lets the missed Mic Drop pass.")),
}
