"""HOAX told in words: events, action labels and the terminal board (rules: ``rules.md``).

HOAX's source text is Dutch, so an identity keeps its original (Dutch) name in every
language: English and German show their own word with the original beside it
("Monk (monnik)", "Mönch (monnik)"), Dutch shows the original alone. The answers to an
accusation, "juist" (right) and "fout" (wrong), stay Dutch too. Chips (gold, wine,
grain) and all other words are translated.

A narrator reads only the event (already what its reader may see), the seat names,
the translator and the static action table: it cannot leak a secret.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any

from ...i18n import N_
from ...narration import Context
from ...narration import Narrator as BaseNarrator
from .cards import (
    CHIP_NAMES,
    CLAIM_OF_KIND,
    IDENTITY_NAMES,
    K_ACCUSE,
    K_BUY,
    K_CHIP,
    K_CLOSE,
    K_COLLECT,
    K_COVER,
    K_DOUBT,
    K_EARN,
    K_ENCHANT,
    K_FINE,
    K_FORGIVE,
    K_GIVE,
    K_HARVEST,
    K_ILLEGAL,
    K_JGRAIN,
    K_JWINE,
    K_PASS,
    K_PAY,
    K_PRESS,
    K_PROTECT,
    K_SHOW,
    K_STEAL,
    K_TAKEGOLD,
    K_TAX,
    K_TRADE,
    K_TRIO,
    K_VOTE_DOUBT,
    K_VOTE_TRUST,
    NUM_IDENTITIES,
    ActionTable,
)
from .phases import Phase, phase_named

if TYPE_CHECKING:
    from .state import HoaxGame

#: Each identity as the UI names it: the reader's word and the original Dutch name.
IDENTITY_WORDS: dict[str, str] = {
    "baron": N_("Baron"),
    "monk": N_("Monk (monnik)"),
    "judge": N_("Judge (rechter)"),
    "merchant": N_("Merchant (handelaar)"),
    "magician": N_("Magician (magiër)"),
    "thief": N_("Thief (dief)"),
    "farmer": N_("Farmer (boer)"),
}

#: The three kinds of supply chips.
CHIP_WORDS: dict[str, str] = {"gold": N_("gold"), "wine": N_("wine"), "grain": N_("grain")}


#: What the board says about each step; ``{player}`` is the player whose turn it is.
PHASE_WORDS: dict[Phase, str] = {
    Phase.COVER: N_("Everyone covers one identity that is not their own."),
    Phase.CHIP: N_("Everyone takes one starting chip from the bank."),
    Phase.DECLARE: N_("{player} declares an action."),
    Phase.DOUBT: N_("Anyone may doubt the claim."),
    Phase.VOTE: N_("Everyone votes on the doubt."),
    Phase.PROTECT: N_("The players the action affects may protect themselves."),
    Phase.GIVE: N_("The collection: the players choose which chip they give."),
    Phase.SHOW: N_("False identities are being shown for the information bought."),
    Phase.ILLEGAL: N_("Anyone may declare the action of {player} illegal."),
    Phase.FINE: N_("{player} may be sentenced to a fine."),
    Phase.FORGIVE: N_("{player} may be forgiven."),
    Phase.SETTLE: N_("{player} pays one fine or forgiveness."),
    Phase.PASS: N_("The paid judge passes one chip of the fine on."),
    Phase.OVER: N_("The game is over."),
}

#: A reaction window that closes without (further) reactions.
CLOSE_WORDS: dict[Phase, str] = {
    Phase.DOUBT: N_("Nobody doubts: the claim stands."),
    Phase.PROTECT: N_("Nobody else protects themselves: the action is carried out."),
    Phase.ILLEGAL: N_("Nobody else declares the action illegal."),
    Phase.FINE: N_("Nobody else imposes a fine."),
    Phase.FORGIVE: N_("Nobody else offers forgiveness."),
}


class Reason(Enum):
    """Why throne points are awarded (``points`` events, §6, §7.1)."""

    CORRECT_ACCUSATION = "correct accusation"
    REFUTED_ACCUSATION = "refuted accusation"
    UNJUSTIFIED_DOUBT = "unjustified doubt"
    FINAL_WON = "final won"
    FINAL_LOST = "final lost"


REASON_WORDS: dict[Reason, str] = {
    Reason.CORRECT_ACCUSATION: N_("a correct accusation"),
    Reason.REFUTED_ACCUSATION: N_("refuting an accusation"),
    Reason.UNJUSTIFIED_DOUBT: N_("an unjustified doubt"),
    Reason.FINAL_WON: N_("winning the final"),
    Reason.FINAL_LOST: N_("losing the final"),
}


class Exit(Enum):
    """Why a player leaves the round (``out`` events)."""

    ACCUSED = "accused correctly"
    WRONG_ACCUSATION = "wrong accusation"
    UNJUSTIFIED_DOUBT = "unjustified doubt"


EXIT_WORDS: dict[Exit, str] = {
    Exit.ACCUSED: N_("{player} is unmasked and out of this round; all their chips go back "
                     "to the bank."),
    Exit.WRONG_ACCUSATION: N_("{player} accused wrongly and is out of this round; all their "
                              "chips go back to the bank."),
    Exit.UNJUSTIFIED_DOUBT: N_("{player} turns the identity card face up and is out of this "
                               "round."),
}

#: What a claim under doubt was made for (``view["pending"]["claim"]["for"]``).
CLAIM_PURPOSE_WORDS: dict[str, str] = {
    "action": N_("for the action"),
    "protect": N_("to protect themselves"),
    "illegal": N_("to declare the action illegal"),
    "fine": N_("to impose a fine"),
    "forgive": N_("to offer forgiveness"),
    "settle-protect": N_("to protect themselves against the conviction"),
}


# -- words -----------------------------------------------------------------------------
def identity(name: str, ctx: Context) -> str:
    """An identity as the UI names it (``Monk (monnik)``, ``Mönch (monnik)``, ``monnik``)."""
    return ctx.tr.gettext(IDENTITY_WORDS[name])


def identities(names: Sequence[str], ctx: Context) -> str:
    """Several identities in a sentence, in the cards' order (Baron first)."""
    ordered = sorted(names, key=IDENTITY_NAMES.index)
    return ", ".join(identity(x, ctx) for x in ordered)


def chip(name: str, ctx: Context) -> str:
    """A kind of chip in the reader's language (``grain``, ``Korn``, ``graan``)."""
    return ctx.tr.gettext(CHIP_WORDS[name])


def chips(counts: Sequence[int], ctx: Context) -> str:
    """A number of chips per type (gold, wine, grain order): ``2 gold, 1 grain``;
    ``""`` for none."""
    return ", ".join(f"{n} {chip(CHIP_NAMES[t], ctx)}" for t, n in enumerate(counts) if n)


def all_chips(counts: Mapping[str, int], ctx: Context) -> str:
    """Every chip type with its count, zeros too: ``1 gold, 0 wine, 2 grain``."""
    return ", ".join(f"{counts[t]} {chip(t, ctx)}" for t in CHIP_NAMES)


def players(seats: Sequence[int], ctx: Context) -> str:
    """Seats by name: ``Anna, Carl``."""
    return ", ".join(ctx.name(int(s)) for s in seats)


def _mask_names(mask: int) -> list[str]:
    """The identities of a bit mask (bit x: identity x), in the cards' order."""
    return [IDENTITY_NAMES[x] for x in range(NUM_IDENTITIES) if mask >> x & 1]


class Narrator(BaseNarrator):
    """HOAX's sentences, action labels and board."""

    @property
    def table(self) -> ActionTable:
        """The game's action table (static data: what each action number means)."""
        game: HoaxGame = self.game  # type: ignore[assignment]
        return game.table

    # -- events ----------------------------------------------------------------------
    def tell(self, event: Mapping[str, Any], ctx: Context) -> str:
        """Each event kind has its ``_tell_<kind>`` method, called with the actor's name."""
        kind = event.get("kind")
        teller = getattr(self, f"_tell_{kind}", None)
        if teller is None:
            return super().tell(event, ctx)
        try:
            text: str = teller(event, ctx, ctx.name(event.get("seat")))
        except (KeyError, ValueError):  # a field or value this narrator does not know yet
            return super().tell(event, ctx)
        return text

    def _tell_deal(self, e: Mapping[str, Any], ctx: Context, _who: str) -> str:
        starter = ctx.name(e["starts"])
        if "identity" in e:  # only the reader's own card
            return ctx.tr.format(N_("Round {round}: the identities are dealt and {starter} "
                                    "begins; {player} receives the identity {identity}."),
                                 round=e["round"], starter=starter, player=ctx.name(ctx.reader),
                                 identity=identity(e["identity"], ctx))
        return ctx.tr.format(N_("Round {round}: the identities are dealt and {starter} "
                                "begins."), round=e["round"], starter=starter)

    def _tell_cover(self, e: Mapping[str, Any], ctx: Context, who: str) -> str:
        return ctx.tr.format(N_("{player} covers the identity {identity}."),
                             player=who, identity=identity(e["identity"], ctx))

    def _tell_take(self, e: Mapping[str, Any], ctx: Context, who: str) -> str:
        return ctx.tr.format(N_("{player} takes 1 {chip} from the bank as a starting chip."),
                             player=who, chip=chip(e["type"], ctx))

    def _tell_turn(self, e: Mapping[str, Any], ctx: Context, who: str) -> str:
        return ctx.tr.format(N_("Turn {turn}: {player} is to act."), turn=e["turn"],
                             player=who)

    def _tell_declare(self, e: Mapping[str, Any], ctx: Context, who: str) -> str:
        action = self.table.parse(str(e["action"]))
        if action is None:
            return super().tell(e, ctx)
        return self.declaration(action, who, ctx)

    def _tell_doubt(self, e: Mapping[str, Any], ctx: Context, who: str) -> str:
        return ctx.tr.format(N_("{player} doubts that {claimant} is the {identity}."),
                             player=who, claimant=ctx.name(e["claimant"]),
                             identity=identity(e["identity"], ctx))

    def _tell_vote(self, e: Mapping[str, Any], ctx: Context, who: str) -> str:
        vote = e.get("vote")  # only the voter sees the vote before the tally
        if vote == "doubt":
            return ctx.tr.format(N_("{player} votes: doubt."), player=who)
        if vote == "trust":
            return ctx.tr.format(N_("{player} votes: no doubt."), player=who)
        return ctx.tr.format(N_("{player} has voted."), player=who)

    def _tell_vote_result(self, e: Mapping[str, Any], ctx: Context, _who: str) -> str:
        args = {"claimant": ctx.name(e["claimant"]), "identity": identity(e["identity"], ctx),
                "doubters": players(e["doubters"], ctx)}
        if not e["official"]:
            return ctx.tr.nformat(
                "Only {n} player doubts ({doubters}): the doubt is not official and "
                "{claimant} goes on as the {identity}.",
                "Only {n} players doubt ({doubters}): the doubt is not official and "
                "{claimant} goes on as the {identity}.", len(e["doubters"]), **args)
        if e.get("justified"):
            return ctx.tr.format(N_("Doubted by {doubters}: the doubt is official and "
                                    "justified, {claimant} is not the {identity}; the claim "
                                    "is void and {claimant} covers that identity."), **args)
        return ctx.tr.format(N_("Doubted by {doubters}: the doubt is official but "
                                "unjustified, {claimant} really is the {identity}."), **args)

    def _tell_answer(self, e: Mapping[str, Any], ctx: Context, who: str) -> str:
        args = {"player": who, "accuser": ctx.name(e["accuser"]),
                "identity": identity(e["identity"], ctx)}
        if e["answer"] == "juist":
            return ctx.tr.format(N_("{player} answers \u201cjuist\u201d: {accuser} is right, "
                                    "{player} is the {identity}."), **args)
        return ctx.tr.format(N_("{player} answers \u201cfout\u201d: {accuser} is wrong, "
                                "{player} is not the {identity}."), **args)

    def _tell_out(self, e: Mapping[str, Any], ctx: Context, who: str) -> str:
        try:
            template = EXIT_WORDS[Exit(e["why"])]
        except ValueError:
            template = N_("{player} is out of this round.")
        return ctx.tr.format(template, player=who)

    def _tell_points(self, e: Mapping[str, Any], ctx: Context, who: str) -> str:
        reason = ctx.tr.gettext(REASON_WORDS[Reason(e["why"])])
        if "withheld" in e:
            return ctx.tr.nformat(
                "{player} gets no throne point for {reason}: it would be the tenth, and "
                "such a point cannot win the game.",
                "{player} gets no throne points for {reason}: those {n} points would reach "
                "ten, and such points cannot win the game.", e["withheld"], player=who,
                reason=reason)
        return ctx.tr.nformat("{player} gets {n} throne point for {reason} ({total} in all).",
                              "{player} gets {n} throne points for {reason} ({total} in all).",
                              e["points"], player=who, reason=reason, total=e["total"])

    def _tell_execute(self, e: Mapping[str, Any], ctx: Context, who: str) -> str:
        got = [int(x) for x in e["got"]]
        action = self.table.parse(str(e["action"]))
        T = self.table
        if action is not None and T.kind[action] == K_TRADE and any(got):
            give = [0, 0, 0]
            give[T.p2[action]] = sum(got)
            return ctx.tr.format(N_("{player} carries out the trade and gives {give} for "
                                    "{get}."), player=who, give=chips(give, ctx),
                                 get=chips(got, ctx))
        if any(got):
            return ctx.tr.format(N_("{player} carries out the action and receives {chips}."),
                                 player=who, chips=chips(got, ctx))
        return ctx.tr.format(N_("{player} carries out the action but receives nothing."),
                             player=who)

    def _tell_buy(self, e: Mapping[str, Any], ctx: Context, who: str) -> str:
        """§3 BuyInfo: the trios paid, fewer than asked when the seat asked has fewer
        identities left to show."""
        args = {"player": who, "target": ctx.name(e["from"])}
        if e["count"] < e["asked"]:
            return ctx.tr.nformat(
                "{target} has only {n} identity left to show, so {player} pays only {n} trio.",
                "{target} has only {n} identities left to show, so {player} pays only {n} "
                "trios.", e["count"], **args)
        return ctx.tr.nformat(
            "{player} pays {n} trio to the bank; {target} must show {n} false identity.",
            "{player} pays {n} trios to the bank; {target} must show {n} false identities.",
            e["count"], **args)

    def _tell_give(self, e: Mapping[str, Any], ctx: Context, who: str) -> str:
        return ctx.tr.format(N_("{player} gives {receiver} 1 {chip} for the collection."),
                             player=who, receiver=ctx.name(e["to"]), chip=chip(e["type"], ctx))

    def _tell_show(self, e: Mapping[str, Any], ctx: Context, who: str) -> str:
        args = {"player": who, "receiver": ctx.name(e["to"])}
        n = int(e["count"])
        if "covered" in e:  # in the final the shown identities are covered in public
            return ctx.tr.nformat(
                "{player} shows {receiver} {n} false identity, covered at once in the final: "
                "{identities}.",
                "{player} shows {receiver} {n} false identities, covered at once in the final: "
                "{identities}.", n, identities=identities(e["covered"], ctx), **args)
        if "identities" in e:  # only the buyer and the shower see which ones
            return ctx.tr.nformat(
                "{player} secretly shows {receiver} {n} false identity: {identities}.",
                "{player} secretly shows {receiver} {n} false identities: {identities}.", n,
                identities=identities(e["identities"], ctx), **args)
        return ctx.tr.nformat("{player} secretly shows {receiver} {n} false identity.",
                              "{player} secretly shows {receiver} {n} false identities.", n,
                              **args)

    def _tell_protect(self, e: Mapping[str, Any], ctx: Context, who: str) -> str:
        args = {"player": who, "identity": identity(e["as"], ctx)}
        if e.get("against") == "conviction":
            return ctx.tr.format(N_("{player} claims to be the {identity} and protects "
                                    "themselves against the conviction."), **args)
        return ctx.tr.format(N_("{player} claims to be the {identity} and protects themselves "
                                "against the action."), **args)

    def _tell_illegal(self, e: Mapping[str, Any], ctx: Context, who: str) -> str:
        return ctx.tr.format(N_("{player} claims to be the {identity} and declares the action "
                                "illegal."), player=who, identity=identity(e["as"], ctx))

    def _tell_fine(self, e: Mapping[str, Any], ctx: Context, who: str) -> str:
        return ctx.tr.format(N_("{player} claims to be the {identity} and sentences the "
                                "active player to a fine of up to 2 {chip}."),
                             player=who, identity=identity(e["as"], ctx),
                             chip=chip(e["type"], ctx))

    def _tell_forgive(self, e: Mapping[str, Any], ctx: Context, who: str) -> str:
        return ctx.tr.format(N_("{player} claims to be the {identity} and forgives the "
                                "active player for 1 {chip}."),
                             player=who, identity=identity(e["as"], ctx),
                             chip=chip(e["type"], ctx))

    def _tell_pay(self, e: Mapping[str, Any], ctx: Context, who: str) -> str:
        paid = [0, 0, 0]
        paid[CHIP_NAMES.index(e["type"])] = int(e["count"])
        args = {"player": who, "receiver": ctx.name(e["to"]), "chips": chips(paid, ctx)}
        if e["for"] == "fine":
            return ctx.tr.format(N_("{player} pays the fine of {chips} to {receiver}."), **args)
        return ctx.tr.format(N_("{player} pays {chips} to {receiver} for the forgiveness."),
                             **args)

    def _tell_pass(self, e: Mapping[str, Any], ctx: Context, who: str) -> str:
        return ctx.tr.format(N_("{player} passes 1 {chip} of the fine on to {receiver}, who "
                                "declared the action illegal."),
                             player=who, receiver=ctx.name(e["to"]), chip=chip(e["type"], ctx))

    def _tell_trio(self, e: Mapping[str, Any], ctx: Context, who: str) -> str:
        return ctx.tr.nformat("{player} builds a trio and now has {n} trio.",
                              "{player} builds a trio and now has {n} trios.", e["trios"],
                              player=who)

    def _tell_close(self, e: Mapping[str, Any], ctx: Context, _who: str) -> str:
        return ctx.tr.gettext(CLOSE_WORDS[phase_named(e["window"])])

    def _tell_final(self, e: Mapping[str, Any], ctx: Context, _who: str) -> str:
        first, second = e["finalists"]
        covers = [ctx.tr.format(N_("{player} covers {identities}"), player=ctx.name(s),
                                identities=identities(e["covered"][str(s)], ctx))
                  for s in (first, second) if e["covered"][str(s)]]
        args = {"first": ctx.name(first), "second": ctx.name(second)}
        if covers:
            return ctx.tr.format(N_("Final between {first} and {second}; {covers}."),
                                 covers="; ".join(covers), **args)
        return ctx.tr.format(N_("Final between {first} and {second}."), **args)

    def _tell_final_won(self, e: Mapping[str, Any], ctx: Context, who: str) -> str:
        if e.get("loser") is None:
            return ctx.tr.format(N_("{player} is the last one left in the round and counts as "
                                    "the winner of the final."), player=who)
        return ctx.tr.format(N_("{player} wins the final against {loser}."), player=who,
                             loser=ctx.name(e["loser"]))

    def _tell_reveal(self, e: Mapping[str, Any], ctx: Context, _who: str) -> str:
        cards = ", ".join(ctx.tr.format(N_("{player}: {identities}"), player=ctx.name(s),
                                        identities=identity(x, ctx))
                          for s, x in enumerate(e["identities"]) if x)
        return ctx.tr.format(N_("All identity cards are revealed: {cards}."), cards=cards)

    def _tell_game_over(self, e: Mapping[str, Any], ctx: Context, who: str) -> str:
        points = list(e["throne_points"])
        scores = ", ".join(f"{ctx.name(s)} {tp}" for s, tp in enumerate(points))
        return ctx.tr.format(N_("{player} reaches {points} throne points and is crowned King "
                                "of HOAX (scores: {scores})."),
                             player=who, points=points[e["winner"]], scores=scores)

    # -- a declared action, told -------------------------------------------------------
    def declaration(self, action: int, who: str, ctx: Context) -> str:
        """The sentence of ``who`` declaring ``action`` (S0): a claim, a purchase or an
        accusation."""
        T = self.table
        k, x, y, z, w = T.kind[action], T.p1[action], T.p2[action], T.p3[action], T.p4[action]
        tr = ctx.tr
        if k == K_BUY:
            return tr.nformat("{player} buys information about {target} with {n} trio.",
                              "{player} buys information about {target} with {n} trios.",
                              y, player=who, target=ctx.name(x))
        if k == K_ACCUSE:
            return tr.format(N_("{player} accuses {target} of being the {identity}."),
                             player=who, target=ctx.name(x),
                             identity=identity(IDENTITY_NAMES[y], ctx))
        args = {"player": who, "identity": self._claimed(action, ctx)}
        fixed = {
            K_TAKEGOLD: N_("{player} claims to be the {identity} and takes 2 gold from the "
                           "treasury."),
            K_PRESS: N_("{player} claims to be the {identity} and presses 2 barrels of wine."),
            K_COLLECT: N_("{player} claims to be the {identity} and holds a collection."),
            K_JWINE: N_("{player} claims to be the {identity} and fetches a barrel of wine "
                        "from the cellar."),
            K_JGRAIN: N_("{player} claims to be the {identity} and receives a sack of grain "
                         "as rent."),
            K_EARN: N_("{player} claims to be the {identity} and earns a sack of gold."),
            K_HARVEST: N_("{player} claims to be the {identity} and harvests 2 sacks of "
                          "grain."),
        }
        if k in fixed:
            return tr.format(fixed[k], **args)
        if k == K_TAX:
            return tr.format(N_("{player} claims to be the {identity} and levies a tax on "
                                "{chip}."), chip=chip(CHIP_NAMES[x], ctx), **args)
        if k == K_TRADE:
            give, get = self._trade_chips(action, ctx)
            if x == self.game.num_players:
                return tr.format(N_("{player} claims to be the {identity} and trades {give} "
                                    "for {get} with the bank."), give=give, get=get, **args)
            return tr.format(N_("{player} claims to be the {identity} and trades {give} for "
                                "{get} with {partner}."), give=give, get=get,
                             partner=ctx.name(x), **args)
        if k == K_ENCHANT:
            return tr.format(N_("{player} claims to be the {identity} and enchants {target}."),
                             target=ctx.name(x), **args)
        if k == K_STEAL:
            stolen = chips([z if t == y else 0 for t in range(3)], ctx)
            if w:
                return tr.nformat(
                    "{player} claims to be the {identity} and steals {chips} from {target}, "
                    "breaking {n} trio.",
                    "{player} claims to be the {identity} and steals {chips} from {target}, "
                    "breaking {n} trios.", w, chips=stolen, target=ctx.name(x), **args)
            return tr.format(N_("{player} claims to be the {identity} and steals {chips} from "
                                "{target}."), chips=stolen, target=ctx.name(x), **args)
        return self.action(action, ctx)  # not a declaration (not reached from events)

    def _claimed(self, action: int, ctx: Context) -> str:
        return identity(IDENTITY_NAMES[CLAIM_OF_KIND[self.table.kind[action]]], ctx)

    def _trade_chips(self, action: int, ctx: Context) -> tuple[str, str]:
        """A trade's two sides: ``2 gold`` given, ``2 wine`` received."""
        T = self.table
        give, get = [0, 0, 0], [0, 0, 0]
        give[T.p2[action]] = get[T.p3[action]] = T.p4[action]
        return chips(give, ctx), chips(get, ctx)

    # -- actions as menu entries ---------------------------------------------------------
    def action(self, action: int, ctx: Context) -> str:
        T = self.table
        k, x, y, z, w = T.kind[action], T.p1[action], T.p2[action], T.p3[action], T.p4[action]
        tr = ctx.tr
        simple = {
            K_DOUBT: N_("Doubt the claim"),
            K_VOTE_DOUBT: N_("Vote: doubt"),
            K_VOTE_TRUST: N_("Vote: no doubt"),
            K_TRIO: N_("Build a trio (1 gold, 1 wine, 1 grain)"),
            K_CLOSE: N_("End the time for reactions"),
        }
        if k in simple:
            return tr.gettext(simple[k])
        if k == K_COVER:
            return tr.format(N_("Cover {identity}"), identity=identity(IDENTITY_NAMES[x], ctx))
        if k == K_CHIP:
            return tr.format(N_("Take 1 {chip} as your starting chip"),
                             chip=chip(CHIP_NAMES[x], ctx))
        if k == K_BUY:
            return tr.nformat("Buy information about {target} with {n} trio",
                              "Buy information about {target} with {n} trios", y,
                              target=ctx.name(x))
        if k == K_ACCUSE:
            return tr.format(N_("Accuse {target} of being the {identity}"), target=ctx.name(x),
                             identity=identity(IDENTITY_NAMES[y], ctx))
        if k == K_SHOW:
            if not x:
                return tr.gettext(N_("Show nothing"))
            return tr.format(N_("Show as false: {identities}"),
                             identities=identities(_mask_names(x), ctx))
        if k == K_PAY:
            return tr.format(N_("Pay {target} (fine or forgiveness)"), target=ctx.name(x))
        if k == K_PASS:
            return tr.format(N_("Pass 1 chip of the fine on to {target}"), target=ctx.name(x))
        if k == K_GIVE:
            return tr.format(N_("Give 1 {chip}"), chip=chip(CHIP_NAMES[x], ctx))
        reactions = {
            K_PROTECT: ("magician", N_("As {identity}: protect yourself")),
            K_ILLEGAL: ("baron", N_("As {identity}: declare the action illegal")),
            K_FINE: ("judge", N_("As {identity}: fine the active player in {chip}")),
            K_FORGIVE: ("monk", N_("As {identity}: forgive the active player for 1 {chip}")),
        }
        if k in reactions:
            who, template = reactions[k]
            chip_word = chip(CHIP_NAMES[x], ctx) if x >= 0 else ""
            return tr.format(template, identity=identity(who, ctx), chip=chip_word)
        return self._personal_label(action, k, x, y, z, w, ctx)

    def _personal_label(self, action: int, k: int, x: int, y: int, z: int, w: int,
                        ctx: Context) -> str:
        """A personal action's menu entry: ``As Baron: take 2 gold from the treasury``."""
        tr = ctx.tr
        args = {"identity": self._claimed(action, ctx)}
        fixed = {
            K_TAKEGOLD: N_("As {identity}: take 2 gold from the treasury"),
            K_PRESS: N_("As {identity}: press 2 barrels of wine"),
            K_COLLECT: N_("As {identity}: hold a collection"),
            K_JWINE: N_("As {identity}: fetch a barrel of wine from the cellar"),
            K_JGRAIN: N_("As {identity}: receive a sack of grain as rent"),
            K_EARN: N_("As {identity}: earn a sack of gold"),
            K_HARVEST: N_("As {identity}: harvest 2 sacks of grain"),
        }
        if k in fixed:
            return tr.format(fixed[k], **args)
        if k == K_TAX:
            return tr.format(N_("As {identity}: levy a tax on {chip}"),
                             chip=chip(CHIP_NAMES[x], ctx), **args)
        if k == K_TRADE:
            give, get = self._trade_chips(action, ctx)
            if x == self.game.num_players:
                return tr.format(N_("As {identity}: trade {give} for {get} with the bank"),
                                 give=give, get=get, **args)
            return tr.format(N_("As {identity}: trade {give} for {get} with {partner}"),
                             give=give, get=get, partner=ctx.name(x), **args)
        if k == K_ENCHANT:
            return tr.format(N_("As {identity}: enchant {target}"), target=ctx.name(x), **args)
        # K_STEAL, the last kind
        stolen = chips([z if t == y else 0 for t in range(3)], ctx)
        if w:
            return tr.nformat("As {identity}: steal {chips} from {target}, breaking {n} trio",
                              "As {identity}: steal {chips} from {target}, breaking {n} trios",
                              w, chips=stolen, target=ctx.name(x), **args)
        return tr.format(N_("As {identity}: steal {chips} from {target}"), chips=stolen,
                         target=ctx.name(x), **args)

    # -- the board -----------------------------------------------------------------------
    def board(self, view: Mapping[str, Any], ctx: Context) -> str:
        tr = ctx.tr
        me = view.get("seat")
        lines = [tr.format(N_("HOAX, round {round}, turn {turn} (the final)") if view["in_final"]
                           else N_("HOAX, round {round}, turn {turn}"),
                           round=view["round"], turn=view["turn"])]
        if view["over"] and view.get("winner") is not None:
            lines.append(tr.format(N_("Game over: {player} is King of HOAX."),
                                   player=ctx.name(view["winner"])))
        else:
            lines.append(tr.format(PHASE_WORDS[phase_named(view["phase"])],
                                   player=ctx.name(view["active"])))
            if view["to_act"]:
                lines.append(tr.format(N_("To act: {players}."),
                                       players=players(view["to_act"], ctx)))
        lines.append(tr.format(N_("Bank: {chips}."), chips=all_chips(view["bank"], ctx)))
        lines.append(tr.gettext(N_("Players:")))
        window = view["pending"]["window"]
        for s, p in enumerate(view["seats"]):
            lines.append("  " + self._seat_line(s, p, s == me, s in view["to_act"],
                                                s in window, ctx))
        lines.extend(self._pending_lines(view, ctx))
        lines.extend(self._knowledge_lines(view, ctx))
        return "\n".join(lines)

    def _seat_line(self, s: int, p: Mapping[str, Any], mine: bool, to_act: bool,
                   may_react: bool, ctx: Context) -> str:
        tr = ctx.tr
        name = tr.format(N_("{player} (you)"), player=ctx.name(s)) if mine else ctx.name(s)
        parts = [tr.nformat("{n} throne point", "{n} throne points", p["throne_points"]),
                 all_chips(p["loose"], ctx),
                 tr.nformat("{n} trio", "{n} trios", p["trios"])]
        if p["covered"]:
            parts.append(tr.format(N_("covered: {identities}"),
                                   identities=identities(p["covered"], ctx)))
        if not p["in_round"]:
            parts.append(tr.gettext(N_("out of this round")))
        if "revealed" in p:
            parts.append(tr.format(N_("card face up: {identity}"),
                                   identity=identity(p["revealed"], ctx)))
        if "proven" in p:
            parts.append(tr.format(N_("proven by \u201cjuist\u201d: {identity}"),
                                   identity=identity(p["proven"], ctx)))
        if p.get("proven_not"):
            parts.append(tr.format(N_("refuted by \u201cfout\u201d: {identities}"),
                                   identities=identities(p["proven_not"], ctx)))
        if to_act:
            parts.append(tr.gettext(N_("to act")))
        elif may_react:
            parts.append(tr.gettext(N_("may react")))
        return f"{name}: " + "; ".join(parts)

    def _pending_lines(self, view: Mapping[str, Any], ctx: Context) -> list[str]:
        """The turn in progress: the action, a claim under doubt, the reactions."""
        tr = ctx.tr
        pend = view["pending"]
        active = ctx.name(view["active"])
        out: list[str] = []
        if pend["action"]:
            action = self.table.parse(pend["action"])
            if action is not None:
                out.append(tr.format(N_("Current action: {action}"),
                                     action=self.declaration(action, active, ctx)))
        else:
            declared = [e for e in view["log"] if e and e[0] == "declare"]
            action = self.table.parse(declared[-1][2]) if declared else None
            if action is not None:
                out.append(tr.format(N_("Last action: {action}"), action=self.declaration(
                    action, ctx.name(declared[-1][1]), ctx)))
        claim = pend.get("claim")
        if claim:
            out.append(tr.format(N_("Claim open to doubt: {player} as {identity}, {purpose}."),
                                 player=ctx.name(claim["seat"]),
                                 identity=identity(claim["identity"], ctx),
                                 purpose=tr.gettext(CLAIM_PURPOSE_WORDS[claim["for"]])))
            if claim["opener"] >= 0:
                out.append(tr.format(N_("{player} opened the doubt."),
                                     player=ctx.name(claim["opener"])))
        if "my_vote" in pend:
            out.append(tr.gettext(N_("Your vote: doubt.") if pend["my_vote"] == "doubt"
                                  else N_("Your vote: no doubt.")))
        if pend["protected"]:
            out.append(tr.format(N_("Protected: {players}."),
                                 players=players(pend["protected"], ctx)))
        if pend["barons"]:
            out.append(tr.format(N_("Declared illegal by: {players}."),
                                 players=players(pend["barons"], ctx)))
        if pend["fines"]:
            out.append(tr.format(N_("Fines: {fines}."), fines=self._by_seat(pend["fines"], ctx)))
        if pend["forgivenesses"]:
            out.append(tr.format(N_("Forgiveness offered: {offers}."),
                                 offers=self._by_seat(pend["forgivenesses"], ctx)))
        if pend["departing"]:
            out.append(tr.format(N_("{player} leaves the round after this action."),
                                 player=active))
        if "show" in pend:
            show = pend["show"]
            out.append(tr.nformat("{player} must show {receiver} {n} false identity.",
                                  "{player} must show {receiver} {n} false identities.",
                                  show["count"], player=ctx.name(show["by"]),
                                  receiver=ctx.name(show["to"])))
        if pend.get("giving"):
            out.append(tr.format(N_("Choosing a chip to give: {players}."),
                                 players=players(pend["giving"], ctx)))
        if "pass" in pend:
            out.append(tr.format(N_("{player} chooses who receives 1 {chip} of the fine."),
                                 player=ctx.name(pend["pass"]["judge"]),
                                 chip=chip(pend["pass"]["type"], ctx)))
        if pend["window"]:
            out.append(tr.format(N_("May react now: {players}."),
                                 players=players(pend["window"], ctx)))
        return out

    @staticmethod
    def _by_seat(types: Mapping[str, str], ctx: Context) -> str:
        """Standing fines or forgivenesses: ``Ben (wine), Carl (gold)``."""
        return ", ".join(f"{ctx.name(int(s))} ({chip(t, ctx)})" for s, t in types.items())

    def _knowledge_lines(self, view: Mapping[str, Any], ctx: Context) -> list[str]:
        """What the reader knows: their identity, what was shown, the last reveal."""
        tr = ctx.tr
        out: list[str] = []
        if "identity" in view:
            out.append(tr.format(N_("Your identity: {identity}."),
                                 identity=identity(view["identity"], ctx)))
        for key, template in (("shown_to_me", N_("Shown to you as false: {shown}.")),
                              ("shown_by_me", N_("You showed as false: {shown}."))):
            shown = view.get(key)
            if shown:
                out.append(tr.format(template, shown="; ".join(
                    tr.format(N_("{player}: {identities}"), player=ctx.name(int(q)),
                              identities=identities(xs, ctx)) for q, xs in shown.items())))
        if view.get("last_reveal"):
            out.append(tr.format(N_("Identities of the last round: {cards}."), cards=", ".join(
                tr.format(N_("{player}: {identities}"), player=ctx.name(s),
                          identities=identity(x, ctx))
                for s, x in enumerate(view["last_reveal"]) if x)))
        return out
