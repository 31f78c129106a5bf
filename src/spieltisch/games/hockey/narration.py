"""Hockey told in words: events, actions and the terminal board (rules: ``rules.md``).

Cards are shown as the UI shows them, rank + suit symbol (``10♥``, ``J♠``); the rank
letters stay the same in every language and the guides explain them.

Plural templates are passed to ``nformat`` as plain literals, not wrapped in ``N_``:
only then does the extractor file them as one singular/plural entry (wrapped, they
become two unrelated texts and the translation is never found).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any

from ...i18n import N_
from ...narration import Context
from ...narration import Narrator as BaseNarrator
from .cards import CODES, REGULAR_PERIODS, SYMBOLS

_SYMBOL_OF = dict(zip(CODES, SYMBOLS, strict=True))
#: How many of the latest pile cards the board shows.
PILE_SHOWN = 8


class Outcome(Enum):
    """What a play did (§4), as the ``play`` event's ``outcome`` names it."""

    JACK = "breakaway (Jack)"
    BREAKAWAY = "breakaway"
    GOAL = "goal"
    LOST = "breakaway lost"
    NONE = "none"


#: One sentence per outcome of a play.
PLAY_SENTENCES: dict[Outcome, str] = {
    Outcome.JACK: N_("{player} plays {card}, a Jack, and makes a breakaway."),
    Outcome.BREAKAWAY: N_("{player} plays {card} on the same rank and makes a breakaway."),
    Outcome.GOAL: N_("{player} plays {card} on the same rank and scores a goal!"),
    Outcome.LOST: N_("{player} plays {card} and loses the breakaway."),
    Outcome.NONE: N_("{player} plays {card}."),
}


def card_name(code: str) -> str:
    """A card as the UI shows it: ``10H`` → ``10♥``."""
    return _SYMBOL_OF[code]


def card_row(cards: Sequence[str]) -> str:
    """Cards side by side, as on the table: ``A♣ 7♥ J♠``."""
    return " ".join(card_name(c) for c in cards)


class Narrator(BaseNarrator):
    """Hockey's sentences, action labels and board."""

    # -- events ----------------------------------------------------------------------
    def tell(self, event: Mapping[str, Any], ctx: Context) -> str:
        kind = event.get("kind")
        seat = event.get("seat")
        tr = ctx.tr
        if kind == "play":
            return tr.format(PLAY_SENTENCES[Outcome(event["outcome"])], player=ctx.name(seat),
                             card=card_name(event["card"]))
        if kind == "deal":
            return self._deal(event, ctx)
        if kind == "period":
            if event["overtime"]:
                return tr.format(N_("Overtime period {period} begins, {player} deals: "
                                    "the first goal wins."),
                                 period=event["period"], player=ctx.name(event["dealer"]))
            return tr.format(N_("Period {period} begins, {player} deals."),
                             period=event["period"], player=ctx.name(event["dealer"]))
        if kind == "period_over":
            return tr.format(N_("Period {period} is over; goals: {score}."),
                             period=event["period"], score=self._score(event["goals"], ctx))
        if kind == "game_over":
            goals = event["goals"]
            winner = event["winner"]
            return tr.format(N_("Game over: {player} wins {goals} to {against}."),
                             player=ctx.name(winner), goals=goals[winner],
                             against=goals[1 - winner])
        return super().tell(event, ctx)

    def _deal(self, event: Mapping[str, Any], ctx: Context) -> str:
        """A new deal; its owner also reads the cards it got (only its copy has them)."""
        dealer = ctx.name(event["seat"])
        n = event["cards_each"]
        if "hand" in event and ctx.reader is not None:
            return ctx.tr.nformat(
                "{player} deals {n} card each (deal {deal}); {owner} gets {cards}.",
                "{player} deals {n} cards each (deal {deal}); {owner} gets {cards}.",
                n, player=dealer, deal=event["deal"], owner=ctx.name(ctx.reader),
                cards=", ".join(card_name(c) for c in event["hand"]))
        return ctx.tr.nformat("{player} deals {n} card each (deal {deal}).",
                              "{player} deals {n} cards each (deal {deal}).", n,
                              player=dealer, deal=event["deal"])

    @staticmethod
    def _score(goals: Sequence[int], ctx: Context) -> str:
        """Both players' goals: ``Anna 1, Ben 0``."""
        return ", ".join(f"{ctx.name(s)} {g}" for s, g in enumerate(goals))

    # -- actions -----------------------------------------------------------------------
    def action(self, action: int, ctx: Context) -> str:
        return ctx.tr.format(N_("Play {card}"), card=SYMBOLS[action])

    # -- board -------------------------------------------------------------------------
    def board(self, view: Mapping[str, Any], ctx: Context) -> str:
        tr = ctx.tr
        me = view.get("seat")

        def who(s: int) -> str:
            name = ctx.name(s)
            return tr.format(N_("{player} (you)"), player=name) if s == me else name

        if view["overtime"]:
            header = tr.format(N_("Hockey — overtime period {period}, deal {deal} of {deals}, "
                                  "dealer: {player}"),
                               period=view["period"], deal=view["deal"],
                               deals=view["deals_in_period"], player=who(view["dealer"]))
        else:
            header = tr.format(N_("Hockey — period {period} of {periods}, deal {deal} of "
                                  "{deals}, dealer: {player}"),
                               period=view["period"], periods=REGULAR_PERIODS,
                               deal=view["deal"], deals=view["deals_in_period"],
                               player=who(view["dealer"]))
        lines = [header, tr.format(N_("Goals: {score}"), score=", ".join(
            f"{who(s)} {g}" for s, g in enumerate(view["goals"])))]
        holder = view["breakaway"]
        if holder is None:
            lines.append(tr.gettext(N_("Breakaway: nobody")))
        else:
            lines.append(tr.format(N_("Breakaway: {player} (the same rank on the next turn "
                                      "scores)"), player=who(holder)))
        pile: list[str] = view["pile"]
        if pile:
            shown = card_row(pile[-PILE_SHOWN:])
            lines.append(tr.nformat("Pile ({n} card): {cards} — top card {top}",
                                    "Pile ({n} cards): {cards} — top card {top}", len(pile),
                                    cards=("… " if len(pile) > PILE_SHOWN else "") + shown,
                                    top=card_name(view["top"])))
        else:
            lines.append(tr.gettext(N_("Pile: empty")))
        lines.append(tr.nformat("Still to deal: {n} card", "Still to deal: {n} cards",
                                view["stock"]))
        lines.append(tr.format(N_("Cards in hand: {counts}"), counts=", ".join(
            f"{who(s)} {k}" for s, k in enumerate(view["hand_counts"]))))
        if me is not None:
            hand: list[str] = view["hand"]
            lines.append(tr.format(N_("Your hand: {cards}"), cards=card_row(hand)) if hand
                         else tr.gettext(N_("Your hand: no cards")))
        if view.get("winner") is not None:
            lines.append(tr.format(N_("Game over: {player} won."), player=who(view["winner"])))
        elif view.get("to_act"):
            lines.append(tr.format(N_("To play: {player}"), player=who(view["to_act"][0])))
        return "\n".join(lines)

