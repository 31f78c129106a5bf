"""President told in words: events, actions and the terminal board (rules: ``rules.md``).

Cards are shown as the UI shows them: rank + suit symbol (``10♥``, ``Q♠``) and the
Jokers as ``Joker 1`` / ``Joker 2``. The rank letters (J, Q, K, A) stay the same in
every language; the guides explain them. Roles are words and are translated.

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
from .cards import FIRST_GIVE, NUM_ACTIONS, PASS, PLAY_MASK, codes
from .state import Phase, role_names

_SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


class Role(Enum):
    """The roles a round's finishing order gives (§4), with their English names."""

    PRESIDENT = "president"
    PRIME_MINISTER = "prime_minister"
    CITIZEN = "citizen"
    PEASANT = "peasant"
    BEGGAR = "beggar"


#: Each role's name, marked for translation (German and Dutch from the original rules).
ROLE_WORDS: dict[Role, str] = {
    Role.PRESIDENT: N_("President"),
    Role.PRIME_MINISTER: N_("Prime Minister"),
    Role.CITIZEN: N_("Citizen"),
    Role.PEASANT: N_("Peasant"),
    Role.BEGGAR: N_("Beggar"),
}

#: The game's phases as words (board header).
PHASE_WORDS: dict[str, str] = {
    Phase.PLAY.name.lower(): N_("playing"),
    Phase.EXCHANGE.name.lower(): N_("card exchange"),
    Phase.OVER.name.lower(): N_("game over"),
}


def card_name(code: str) -> str:
    """A card as the UI shows it: ``10H`` → ``10♥``, ``JK1`` → ``Joker 1``."""
    if code.startswith("JK"):
        return f"Joker {code[2:]}"
    return code[:-1] + _SUIT_SYMBOLS[code[-1]]


def card_list(cards: Sequence[str]) -> str:
    """Cards in a sentence: ``10♥, 10♠``."""
    return ", ".join(card_name(c) for c in cards)


def card_set(cards: Sequence[str]) -> str:
    """One play's cards, read as one unit: ``10♥ 10♠``."""
    return " ".join(card_name(c) for c in cards)


def signed(points: float) -> str:
    """A change of points: ``+5``, ``0``, ``-15``."""
    value = int(points)
    return f"{value:+d}" if value else "0"


def role_word(role: str, ctx: Context) -> str:
    return ctx.tr.gettext(ROLE_WORDS[Role(role)])


class Narrator(BaseNarrator):
    """President's sentences, action labels and board."""

    # -- events ----------------------------------------------------------------------
    def tell(self, event: Mapping[str, Any], ctx: Context) -> str:
        kind = event.get("kind")
        seat = event.get("seat")
        tr = ctx.tr
        if kind == "deal":
            return self._deal(event, ctx)
        if kind == "exchange":
            if "cards" in event:  # the giver and the receiver see the cards
                return tr.format(N_("{player} gives {cards} to {receiver}."),
                                 player=ctx.name(seat), cards=card_list(event["cards"]),
                                 receiver=ctx.name(event["to"]))
            return tr.nformat("{player} gives {n} card to {receiver}.",
                              "{player} gives {n} cards to {receiver}.", event["count"],
                              player=ctx.name(seat), receiver=ctx.name(event["to"]))
        if kind == "play":
            template = N_("{player} plays {cards} on the same rank.") if event.get("matched") \
                else N_("{player} plays {cards}.")
            return tr.format(template, player=ctx.name(seat), cards=card_set(event["cards"]))
        if kind == "pass":
            return tr.format(N_("{player} passes."), player=ctx.name(seat))
        if kind == "skipped":
            return tr.format(N_("{player} is skipped."), player=ctx.name(seat))
        if kind == "revolution":
            if event["rev"]:
                return tr.format(N_("Revolution! {player} played four of a kind: "
                                    "3 is now the highest rank and 2 the lowest."),
                                 player=ctx.name(seat))
            return tr.format(N_("Counter-revolution! {player} played four of a kind: "
                                "the normal order is back, 2 high and 3 low."),
                             player=ctx.name(seat))
        if kind == "out":
            return tr.format(N_("{player} has no cards left and finishes in place {place}."),
                             player=ctx.name(seat), place=event["place"])
        if kind == "pile_end":
            return tr.format(N_("The pile is closed; {player} leads the next one."),
                             player=ctx.name(event["leader"]))
        if kind == "round_end":
            return self._round_end(event, ctx)
        if kind == "game_end":
            return self._game_end(event, ctx)
        return super().tell(event, ctx)

    def _deal(self, event: Mapping[str, Any], ctx: Context) -> str:
        leader = ctx.name(event["leader"])
        if "hand" in event and ctx.reader is not None:  # only the owner's copy has it
            return ctx.tr.format(
                N_("Round {round} is dealt and {leader} leads; {player} holds {cards}."),
                round=event["round"], leader=leader, player=ctx.name(ctx.reader),
                cards=card_list(event["hand"]))
        return ctx.tr.format(N_("Round {round} is dealt and {leader} leads."),
                             round=event["round"], leader=leader)

    def _round_end(self, event: Mapping[str, Any], ctx: Context) -> str:
        """The finishing order with the roles it earns, the points and the new scores."""
        order: list[int] = event["order"]
        roles = role_names(len(order))
        ranking = ", ".join(
            ctx.tr.format(N_("{role} {player} ({change}, now {points})"),
                          role=role_word(roles[place], ctx), player=ctx.name(s),
                          change=signed(event["deltas"][s]), points=event["scores"][s])
            for place, s in enumerate(order))
        if event.get("beggar_cards"):
            return ctx.tr.format(
                N_("Round {round} is over: {ranking}; {player} was left holding {cards}."),
                round=event["round"], ranking=ranking, player=ctx.name(order[-1]),
                cards=card_list(event["beggar_cards"]))
        return ctx.tr.format(N_("Round {round} is over: {ranking}."),
                             round=event["round"], ranking=ranking)

    def _game_end(self, event: Mapping[str, Any], ctx: Context) -> str:
        scores: list[float] = event["scores"]
        by_rank = sorted(range(len(scores)), key=lambda s: event["ranks"][s])
        others = ", ".join(f"{ctx.name(s)} {int(scores[s])}" for s in by_rank[1:])
        winner = event["winner"]
        return ctx.tr.format(N_("Game over: {player} wins with {points} points "
                                "(then {others})."),
                             player=ctx.name(winner), points=int(scores[winner]), others=others)

    # -- actions -----------------------------------------------------------------------
    def action(self, action: int, ctx: Context) -> str:
        if action == PASS:
            return ctx.tr.gettext(N_("Pass"))
        if FIRST_GIVE <= action < NUM_ACTIONS:
            code = self.game.card_codes[action - FIRST_GIVE]
            return ctx.tr.format(N_("Give {card}"), card=card_name(code))
        return ctx.tr.format(N_("Play {cards}"), cards=card_set(codes(PLAY_MASK[action])))

    # -- board -------------------------------------------------------------------------
    def board(self, view: Mapping[str, Any], ctx: Context) -> str:
        tr = ctx.tr
        me = view.get("seat")

        def who(s: int) -> str:
            name = ctx.name(s)
            return tr.format(N_("{player} (you)"), player=name) if s == me else name

        phase = tr.gettext(PHASE_WORDS[view["phase"]])
        lines = [tr.format(N_("President — round {round}, {phase}"), round=view["round"],
                           phase=phase)]
        lines.append(tr.gettext(N_("Revolution: 3 is the highest rank, 2 the lowest.")
                                if view["revolution"]
                                else N_("Normal order: 2 is the highest rank, 3 the lowest.")))
        pile = view["pile"]
        finished: list[int] = view["finished"]
        for s, (points, size) in enumerate(zip(view["scores"], view["hand_sizes"], strict=True)):
            # scores move in steps of 5 from 50, so "points" never needs a singular
            line = tr.nformat("{player}: {n} card, {points} points",
                              "{player}: {n} cards, {points} points", size,
                              player=who(s), points=points)
            tags = []
            role = view["roles"].get(str(s))
            if role:
                tags.append(role_word(role, ctx))
            if s in finished:
                tags.append(tr.format(N_("out in place {place}"), place=finished.index(s) + 1))
            if s in pile["passed"]:
                tags.append(tr.gettext(N_("passed")))
            lines.append("  " + line + (" — " + ", ".join(tags) if tags else ""))
        to_act: list[int] = view["to_act"]
        if view["phase"] == Phase.PLAY.name.lower():
            if pile["size"]:
                lines.append(tr.nformat("Pile: {cards} by {player} — single cards",
                                        "Pile: {cards} by {player} — sets of {n}",
                                        pile["size"], cards=card_set(pile["top"]),
                                        player=who(pile["owner"])))
            else:
                lines.append(tr.gettext(N_("Pile: empty (any set may be led)")))
            lines.append(tr.format(N_("To play: {player}"), player=who(to_act[0])))
        elif view["phase"] == Phase.EXCHANGE.name.lower():
            for step in view["exchange"]:
                lines.append(tr.nformat("Exchange: {player} gives {n} card to {receiver}",
                                        "Exchange: {player} gives {n} cards to {receiver}",
                                        step["count"], player=who(step["from"]),
                                        receiver=who(step["to"])))
            lines.append(tr.format(N_("To give a card: {player}"), player=who(to_act[0])))
        else:
            lines.append(tr.gettext(N_("The game is over.")))
        if me is not None:
            lines.append(tr.format(N_("Your hand: {cards}"), cards=card_set(view["hand"]))
                         if view["hand"] else tr.gettext(N_("Your hand: no cards")))
            if view.get("received"):
                lines.append(tr.format(N_("Received this round: {cards}"),
                                       cards=card_set(view["received"])))
            for receiver, cards in sorted(view.get("gave", {}).items()):
                lines.append(tr.format(N_("Given to {player} this round: {cards}"),
                                       player=who(int(receiver)), cards=card_set(cards)))
        return "\n".join(lines)
