"""What the lab knows about each game beyond the engine contract.

The engine tells who acts, what is legal, the result and the standing; a designer's
report also needs to know which cards a seat was dealt, who started, what the deal
was (to tell whether two variants were played on the same cards) and how long a
decision takes at a real table. Each game's answers live here, in one small profile.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..core.game import State
from ..games.hood_politix import cards as hood_cards
from ..games.pixmit import cards as pixmit_cards


class CardsWhen(Enum):
    """When the lab reads the cards it relates to winning."""

    DEALT = "dealt at the start"
    HELD_AT_END = "held at the end"


@dataclass(frozen=True)
class TimeModel:
    """A human's seconds per decision at the table: the lab's estimate of minutes.

    A *choice* is a decision with two or more legal moves, a *forced* one has a single
    legal move (still a card to put down or a word to say), a *reaction* is an
    out-of-turn action taken, and every round (deal, period) costs its set-up time.
    """

    choice: float
    forced: float
    reaction: float
    round_setup: float

    def minutes(self, choices: Any, forced: Any, reactions: Any, rounds: Any) -> Any:
        """Estimated minutes; works on numbers and on pandas columns alike."""
        return (choices * self.choice + forced * self.forced + reactions * self.reaction
                + rounds * self.round_setup) / 60.0

    def describe(self) -> str:
        return (f"{self.choice:g} s per decision with a choice, {self.forced:g} s per forced "
                f"move, {self.reaction:g} s per out-of-turn action, {self.round_setup:g} s "
                "to shuffle, deal and set up each round")


@dataclass(frozen=True)
class GameProfile:
    """The lab's per-game knowledge (see the module docstring)."""

    game: str
    #: the word for the game's rounds as ``State.round_number`` counts them, and for one
    round_word: str
    round_name: str
    time: TimeModel
    cards_when: CardsWhen
    #: what "cards" means in the card plot ("rank", "action card", "identity" …)
    card_word: str
    #: the card kinds of one seat (``cards_when`` says at which moment it is called)
    cards: Callable[[State, int], list[str]]
    #: the chance that made the opening position, as plain data (see ``deal_key``)
    deal: Callable[[State], Any]
    #: the seat that starts round 1; None: the single seat ``to_act`` names
    starter: Callable[[State], int] | None = None
    #: the display order of card kinds (kinds not listed come after, sorted)
    card_order: Sequence[str] = ()

    def starting_seat(self, state: State) -> int:
        """The seat that plays first in round 1 (position 1 in the seat plots)."""
        if self.starter is not None:
            return self.starter(state)
        seats = list(state.to_act())
        return seats[0] if len(seats) == 1 else 0

    def deal_key(self, state: State) -> str:
        """A short fingerprint of the opening deal: equal keys, equal cards."""
        data = json.dumps(self.deal(state), sort_keys=True, default=str)
        return hashlib.blake2b(data.encode(), digest_size=8).hexdigest()


# -- President ---------------------------------------------------------------------------
PRESIDENT_RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "Joker")


def _rank(code: str) -> str:
    """``"10H"`` → ``"10"``; both Jokers (``JK1``, ``JK2``) → ``"Joker"``."""
    return "Joker" if code.startswith("JK") else code[:-1]


def _president_cards(state: State, seat: int) -> list[str]:
    return sorted({_rank(c) for c in state.full_view()["hands"][seat]})


# -- Hockey ------------------------------------------------------------------------------
HOCKEY_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def _hockey_cards(state: State, seat: int) -> list[str]:
    return sorted({_rank(c) for c in state.full_view()["hands"][seat]})


# -- Pixmit ------------------------------------------------------------------------------
def _pixmit_cards(state: State, seat: int) -> list[str]:
    """Every card in the final hand and every scoring set its best layout uses."""
    hand = state.hands[seat]  # type: ignore[attr-defined]
    sets = {pixmit_cards.UNIT[u][1] for u in pixmit_cards.cached_layout(hand)[1]}
    return [f"card {code}" for code in pixmit_cards.card_codes(hand)] + \
        [f"scored: {pixmit_cards.UNIT_ENGLISH[k]}" for k in sorted(sets)]


PIXMIT_ORDER = tuple(f"scored: {pixmit_cards.UNIT_ENGLISH[k]}"
                     for k in pixmit_cards.UNIT_KINDS) + \
    tuple(f"card {code}" for code in pixmit_cards.CARD_CODES)


# -- Hood Politix ------------------------------------------------------------------------
HOOD_TYPES = dict(zip(hood_cards.TYPE_CODES, hood_cards.TYPE_NAMES, strict=True))


def _hood_cards(state: State, seat: int) -> list[str]:
    """The action cards (by type: Deuce, Busted …) of the opening hand."""
    return sorted({HOOD_TYPES[c[1:]] for c in state.full_view()["hands"][seat]
                   if c[1:] in HOOD_TYPES})


# -- HOAX --------------------------------------------------------------------------------
def _hoax_cards(state: State, seat: int) -> list[str]:
    """The identity dealt for round 1."""
    return [state.full_view()["identities"][seat]]


def _hoax_starter(state: State) -> int:
    """Every seat covers a card first (all act at once); the active player starts."""
    return int(state.full_view()["active"])


def _view_fields(*names: str) -> Callable[[State], Any]:
    def deal(state: State) -> Any:
        view = state.full_view()
        return [view.get(n) for n in names]

    return deal


# Seconds per decision: estimates of a practised table, stated in every report. Quick
# shedding games (President, Hockey, Hood Politix with its 3-second rule) take a few
# seconds a move; Pixmit's trades and HOAX's claims and doubts are talk.
PROFILES: dict[str, GameProfile] = {
    "president": GameProfile(
        game="president", round_word="rounds", round_name="round",
        time=TimeModel(choice=4, forced=1, reaction=1, round_setup=90),
        cards_when=CardsWhen.DEALT, card_word="rank", cards=_president_cards,
        deal=_view_fields("hands"), card_order=PRESIDENT_RANKS),
    "hockey": GameProfile(
        game="hockey", round_word="periods", round_name="period",
        time=TimeModel(choice=3, forced=1, reaction=1, round_setup=45),
        cards_when=CardsWhen.DEALT, card_word="rank (first hand)", cards=_hockey_cards,
        deal=_view_fields("hands", "stock_order", "dealer"), card_order=HOCKEY_RANKS),
    "pixmit": GameProfile(
        game="pixmit", round_word="rounds", round_name="round",
        time=TimeModel(choice=10, forced=2, reaction=2, round_setup=20),
        cards_when=CardsWhen.HELD_AT_END, card_word="card or set", cards=_pixmit_cards,
        deal=_view_fields("hands", "stack_top_first", "start_player"),
        card_order=PIXMIT_ORDER),
    "hood_politix": GameProfile(
        game="hood_politix", round_word="rounds", round_name="round",
        time=TimeModel(choice=3, forced=1, reaction=1, round_setup=60),
        cards_when=CardsWhen.DEALT, card_word="action card", cards=_hood_cards,
        deal=_view_fields("hands", "draw_order", "top", "dealer"),
        card_order=hood_cards.TYPE_NAMES),
    "hoax": GameProfile(
        game="hoax", round_word="rounds", round_name="round",
        time=TimeModel(choice=8, forced=1, reaction=3, round_setup=45),
        cards_when=CardsWhen.DEALT, card_word="identity", cards=_hoax_cards,
        deal=_view_fields("cards", "active"), starter=_hoax_starter,
        card_order=("baron", "monk", "judge", "merchant", "magician", "thief", "farmer")),
}


def _generic_cards(state: State, seat: int) -> list[str]:
    hand = state.view(seat).get("hand")
    return sorted(map(str, hand)) if isinstance(hand, list) else []


def profile_for(game: str) -> GameProfile:
    """The game's profile; a game without one gets generic answers (its view's hand)."""
    found = PROFILES.get(game)
    if found is None:
        return GameProfile(game, "rounds", "round", TimeModel(5, 1, 1, 60), CardsWhen.DEALT,
                           "card", _generic_cards,
                           lambda s: [s.view(p).get("hand") for p in range(s.num_players)])
    return found
