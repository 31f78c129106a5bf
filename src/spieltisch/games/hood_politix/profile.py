"""Hood Politix in the lab (``lab.profiles``): the action cards of the opening hand."""

from __future__ import annotations

from typing import Any

from ...core.game import State
from ...lab.profiles import ALWAYS, CardsWhen, GameProfile, Signal, TimeModel, view_fields
from . import cards as hood_cards

#: An action card's type code (``DU``) and its name (Deuce).
TYPES = dict(zip(hood_cards.TYPE_CODES, hood_cards.TYPE_NAMES, strict=True))


def _cards(state: State[Any], seat: int) -> list[str]:
    """The action cards (by type: Deuce, Busted …) of the opening hand."""
    return sorted({TYPES[c[1:]] for c in state.full_view()["hands"][seat] if c[1:] in TYPES})


#: A quick shedding game with its 3-second rule: a few seconds a move.
PROFILE = GameProfile(
    game="hood_politix", round_word="rounds", round_name="round",
    time=TimeModel(choice=3, forced=1, reaction=1, round_setup=60),
    cards_when=CardsWhen.DEALT, card_word="action card", cards=_cards,
    deal=view_fields("hands", "draw_order", "top", "dealer"),
    card_order=hood_cards.TYPE_NAMES,
    # upper bounds, not the limit reached (no counter records that): a timer option may
    # be at work where any timer runs out (act:expire counts all three), a Politix or
    # Respekt limit where a seat calls Politix or a Respekt pause starts. They only
    # decide which option of a variant is named "never in play"; "not tested" comes from
    # the games' fingerprints (docs/lab.md, "Variant comparison")
    signals={"hand_size": ALWAYS, "first_dealer": ALWAYS,
             "move_seconds": Signal(("act:expire",)),
             "respekt_seconds": Signal(("stat:respekt",)),
             "politix_seconds": Signal(("stat:politix",)),
             "politix_calls": Signal(("stat:politix",))},
    showcase=("--variant", "base", "--variant", "long:min_rounds=5"))
