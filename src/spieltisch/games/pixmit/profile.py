"""Pixmit in the lab (``lab.profiles``): the final hand and the sets it scored."""

from __future__ import annotations

from typing import Any

from ...core.game import State
from ...lab.profiles import ALWAYS, CardsWhen, GameProfile, TimeModel, view_fields
from . import cards as pixmit_cards


def _cards(state: State[Any], seat: int) -> list[str]:
    """Every card in the final hand and every scoring set its best layout uses."""
    hand = state.hands[seat]  # type: ignore[attr-defined]
    sets = {pixmit_cards.UNIT[u][1] for u in pixmit_cards.cached_layout(hand)[1]}
    return [_name(code) for code in pixmit_cards.card_codes(hand)] + \
        [f"scored: {pixmit_cards.UNIT_ENGLISH[k]}" for k in sorted(sets)]


def _name(code: str) -> str:
    """A card by its number and its own name: ``21 Die Zerstörerin``."""
    return f"{code} {pixmit_cards.NAMES[int(code) - 1]}"


#: The scoring sets first, then the cards.
ORDER = tuple(f"scored: {pixmit_cards.UNIT_ENGLISH[k]}" for k in pixmit_cards.UNIT_KINDS) + \
    tuple(_name(code) for code in pixmit_cards.CARD_CODES)

#: Trades are talk: ten seconds a choice.
PROFILE = GameProfile(
    game="pixmit", round_word="rounds", round_name="round",
    time=TimeModel(choice=10, forced=2, reaction=2, round_setup=20),
    cards_when=CardsWhen.HELD_AT_END, card_word="card or set", cards=_cards,
    deal=view_fields("hands", "stack_top_first", "start_player"), card_order=ORDER,
    signals={"mode": ALWAYS, "start_player": ALWAYS}, outcome_prefix="scored: ",
    showcase=("--variant", "pro", "--variant", "beginner:mode=beginner"))
