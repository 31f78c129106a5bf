"""Mudslide told in words: events, action labels and the terminal board. Cards show as
rank + suit symbol (``10♥``) in every language."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spieltisch.i18n import N_
from spieltisch.narration import Context
from spieltisch.narration import Narrator as BaseNarrator

from .cards import CODES, SYMBOLS
from .state import PLAY, Move, kind_of

_SYMBOL_OF = dict(zip(CODES, SYMBOLS, strict=True))


def card_name(code: str) -> str:
    """``10H`` → ``10♥``."""
    return _SYMBOL_OF[code]


class Narrator(BaseNarrator):
    """Mudslide's sentences, action labels and board."""

    def tell(self, event: Mapping[str, Any], ctx: Context) -> str:
        kind, seat, tr = event.get("kind"), event.get("seat"), ctx.tr
        if kind == "deal":
            if "hand" in event:  # the seat's own cards (§2)
                return tr.format(N_("The cards are dealt, you hold {cards}; {card} is turned "
                                    "up and {player} starts."),
                                 cards=" ".join(card_name(c) for c in event["hand"]),
                                 card=card_name(event["top"]), player=ctx.name(seat))
            return tr.format(N_("The cards are dealt; {card} is turned up and {player} "
                                "starts."), card=card_name(event["top"]),
                             player=ctx.name(seat))
        if kind == "give":
            if "card" in event:
                return tr.format(N_("{player} chooses {card} to pass."),
                                 player=ctx.name(seat), card=card_name(event["card"]))
            return tr.format(N_("{player} chooses a card to pass."), player=ctx.name(seat))
        if kind == "passed":
            if "card" in event:
                return tr.format(N_("The cards go left; you get {card}."),
                                 card=card_name(event["card"]))
            return tr.gettext(N_("The cards go left."))
        if kind == "play":
            return tr.format(N_("{player} plays {card}."), player=ctx.name(seat),
                             card=card_name(event["card"]))
        if kind == "draw":
            if "card" in event:
                return tr.format(N_("{player} draws {card}."), player=ctx.name(seat),
                                 card=card_name(event["card"]))
            return tr.format(N_("{player} draws a card."), player=ctx.name(seat))
        if kind == "pass":
            return tr.format(N_("{player} passes."), player=ctx.name(seat))
        if kind == "blocked":
            return tr.gettext(N_("Nobody can play: the slide is over."))
        if kind == "out":
            return tr.format(N_("{player} plays their last card!"), player=ctx.name(seat))
        if kind == "last_call":
            return tr.gettext(N_("Last call: one more matching card each, or pass."))
        if kind == "game_over":
            if event["winner"] is None:
                return tr.gettext(N_("Game over: the first place is shared."))
            return tr.format(N_("Game over: {player} wins."), player=ctx.name(event["winner"]))
        return super().tell(event, ctx)

    def action(self, action: int, ctx: Context) -> str:
        kind, tr = kind_of(action), ctx.tr
        if kind is Move.GIVE:
            return tr.format(N_("Pass {card}"), card=SYMBOLS[action])
        if kind is Move.PLAY:
            return tr.format(N_("Play {card}"), card=SYMBOLS[action - PLAY])
        return tr.gettext(N_("Draw") if kind is Move.DRAW else N_("Pass"))

    def board(self, view: Mapping[str, Any], ctx: Context) -> str:
        tr = ctx.tr
        lines = [tr.format(N_("Mudslide — top card {card}, stock {n}"),
                           card=card_name(view["top"]), n=view["stock"]),
                 tr.format(N_("Cards in hand: {counts}"), counts=", ".join(
                     f"{ctx.name(s)} {k}" for s, k in enumerate(view["hand_counts"])))]
        if view.get("hand") is not None:
            lines.append(tr.format(N_("Your hand: {cards}"),
                                   cards=" ".join(card_name(c) for c in view["hand"])))
        return "\n".join(lines)
