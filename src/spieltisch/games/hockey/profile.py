"""Hockey in the lab (``lab.profiles``): the ranks of each seat's first hand."""

from __future__ import annotations

from typing import Any

from ...core.game import State
from ...lab.profiles import ALWAYS, CardsWhen, GameProfile, TimeModel, view_fields

#: The ranks in the card plot's order.
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def _cards(state: State[Any], seat: int) -> list[str]:
    return sorted({c[:-1] for c in state.full_view()["hands"][seat]})


#: A quick game of single cards: a few seconds a move.
PROFILE = GameProfile(
    game="hockey", round_word="periods", round_name="period",
    time=TimeModel(choice=3, forced=1, reaction=1, round_setup=45),
    cards_when=CardsWhen.DEALT, card_word="rank (first hand)", cards=_cards,
    deal=view_fields("hands", "stock_order", "dealer"), card_order=RANKS,
    signals={"first_dealer": ALWAYS},
    showcase=("--variant", "base", "--variant", "dealer0:first_dealer=0"))
