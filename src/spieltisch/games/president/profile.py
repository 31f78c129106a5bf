"""President in the lab (``lab.profiles``): the ranks each seat was dealt."""

from __future__ import annotations

from typing import Any

from ...core.game import State
from ...lab.profiles import ALWAYS, CardsWhen, GameProfile, TimeModel, view_fields

#: The ranks from lowest to highest (§2), the card plot's order.
RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "Joker")


def _rank(code: str) -> str:
    """``"10H"`` → ``"10"``; both Jokers (``JK1``, ``JK2``) → ``"Joker"``."""
    return "Joker" if code.startswith("JK") else code[:-1]


def _cards(state: State[Any], seat: int) -> list[str]:
    return sorted({_rank(c) for c in state.full_view()["hands"][seat]})


#: A quick shedding game: a few seconds a move.
PROFILE = GameProfile(
    game="president", round_word="rounds", round_name="round",
    time=TimeModel(choice=4, forced=1, reaction=1, round_setup=90),
    cards_when=CardsWhen.DEALT, card_word="rank", cards=_cards,
    deal=view_fields("hands"), card_order=RANKS,
    # skip_rule leaves no count of its own: the lab sees it where the games differ
    signals={"first_leader": ALWAYS},
    showcase=("--players", "4,6", "--variant", "base", "--variant", "skip:skip_rule=on"))
