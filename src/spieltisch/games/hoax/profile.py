"""HOAX in the lab (``lab.profiles``): the identity dealt for round 1."""

from __future__ import annotations

from typing import Any

from ...core.game import State
from ...lab.profiles import ALWAYS, CardsWhen, GameProfile, Signal, TimeModel, view_fields


def _cards(state: State[Any], seat: int) -> list[str]:
    """The identity dealt for round 1."""
    return [state.full_view()["identities"][seat]]


def _starter(state: State[Any]) -> int:
    """Every seat covers a card first (all act at once); the active player starts."""
    return int(state.full_view()["active"])


#: Claims and doubts are talk: eight seconds a choice, three a reaction.
PROFILE = GameProfile(
    game="hoax", round_word="rounds", round_name="round",
    time=TimeModel(choice=8, forced=1, reaction=3, round_setup=45),
    cards_when=CardsWhen.DEALT, card_word="identity", cards=_cards,
    deal=view_fields("cards", "active"), starter=_starter,
    card_order=("baron", "monk", "judge", "merchant", "magician", "thief", "farmer"),
    # a reaction window closes by its clock
    signals={"first_player": ALWAYS, "reaction_seconds": Signal(("timers",))},
    showcase=("--variant", "base", "--variant", "first0:first_player=0"))
