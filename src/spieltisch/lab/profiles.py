"""What the lab knows about each game beyond the engine contract.

The engine tells who acts, what is legal, the result and the standing; a designer's
report also needs to know which cards a seat was dealt, who started, what the deal
was (to tell whether two variants were played on the same cards) and how long a
decision takes at a real table. Each game answers in one small profile in its package
(``GameSpec.lab_profile``, e.g. ``games/hockey/profile.py``); this module holds the
profile's types and the generic answers for a game without one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..core.game import ConfigError, State
from ..core.registry import get_spec


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
class Signal:
    """What shows a rule option at work in a game: it shapes every game (``always``:
    the deal, the hand size, who starts), or one of ``columns`` of the lab's games table
    (``act:politix``, ``stat:respekt``, ``timers``) is above 0 where its rule fired."""

    columns: tuple[str, ...] = ()
    always: bool = False


#: an option that shapes every game
ALWAYS = Signal(always=True)


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
    #: per rule option, what shows it at work (``Signal``); an option not named is known
    #: to be at work only where the games differ from the baseline's move for move
    signals: Mapping[str, Signal] = field(default_factory=dict)
    #: card kinds starting with this are part of the outcome (Pixmit's scored sets: the
    #: definition of winning), shown but never named as "what decides the most"
    outcome_prefix: str = ""
    #: a small lab that shows a rule at work: the command's arguments that compare the
    #: standard rules with one variant (``--variant``, ``--players``); the lab's tests run
    #: it for every game. Empty: the first rule option at another value (``showcase``).
    showcase: tuple[str, ...] = ()

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


def view_fields(*names: str) -> Callable[[State], Any]:
    """A ``deal`` that reads ``names`` from the full view at the start (the hands, the
    order of the stock, who deals)."""
    def deal(state: State) -> Any:
        view = state.full_view()
        return [view.get(n) for n in names]

    return deal


def _generic_cards(state: State, seat: int) -> list[str]:
    hand = state.view(seat).get("hand")
    return sorted(map(str, hand)) if isinstance(hand, list) else []


def showcase(game: str) -> list[str]:
    """The game's ``GameProfile.showcase``; without one, the standard rules against its
    first rule option at another value the option allows."""
    found = profile_for(game).showcase
    if found:
        return list(found)
    for option in get_spec(game).options:
        given = (not option.default,) if option.kind is bool else (
            *(option.choices or ()), option.minimum, (option.minimum or 0) + 1)
        for value in given:
            if value is None or value == option.default:
                continue
            text = str(value).lower() if isinstance(value, bool) else f"{value:g}" \
                if isinstance(value, float) else str(value)
            try:
                option.parse(game, text)
            except ConfigError:
                continue
            return ["--variant", "base", "--variant", f"other:{option.name}={text}"]
    return ["--variant", "base", "--variant", "again"]


def profile_for(game: str) -> GameProfile:
    """The game's profile (``GameSpec.lab_profile``); a game without one gets generic
    answers (its view's hand, five seconds a choice)."""
    load = get_spec(game).lab_profile
    if load is None:
        return GameProfile(game, "rounds", "round", TimeModel(5, 1, 1, 60), CardsWhen.DEALT,
                           "card", _generic_cards,
                           lambda s: [s.view(p).get("hand") for p in range(s.num_players)])
    found = load()
    if not isinstance(found, GameProfile) or found.game != game:
        raise TypeError(f"{game}'s lab_profile gives {found!r}, not its GameProfile")
    return found
