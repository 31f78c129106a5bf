"""Hockey configured: the option, the action space and the actions' text (``"play 7H"``).

The rules themselves live in ``state.py``; this module only says what an action is
(a card id: action ``c`` is "play card ``c``", §3) and how it is written.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Final

from ...core.cards import Shuffler
from ...core.game import ConfigError, Game, IllegalAction, Json
from ...i18n import N_
from .cards import CODES, FULL_DECK, NUM_CARDS, RESEARCH_ORDER, SYMBOLS
from .state import HockeyState, Move

if TYPE_CHECKING:
    from ...bots.base import Bot
    from ...core.observation import Observer
    from ...core.position import Fields
    from ...core.scoresheet import Builder
    from ...core.words import Narrator

#: Suit symbols a player may type instead of letters (``10♥`` for ``10H``).
_SUIT_LETTERS: Final = (("♣", "C"), ("♦", "D"), ("♥", "H"), ("♠", "S"))


class HockeyGame(Game):
    """Hockey for exactly two players; actions are card ids (``"play 7H"``)."""

    card_codes = CODES

    def __init__(self, num_players: int, options: dict[str, Any]) -> None:
        super().__init__(num_players, options)
        #: Seat that deals period 1, or -1 for a random choice (§2).
        self.first_dealer: int = options["first_dealer"]
        #: The cards a period shuffles: the 52, or the research deck (``research``).
        self.deck_cards: tuple[int, ...] = FULL_DECK
        #: The research variant's one deal (cards each), or () for the real game.
        self.research_deals: tuple[int, ...] = ()

    def research(self, deck: int, hand: int) -> HockeyGame:
        """This game as the research variant (rules.md, "Research variant"): the first
        ``deck`` cards of ``RESEARCH_ORDER``, one period of one deal of ``hand`` cards
        each, equal goals a draw. Not a rule option: only the research configuration
        (this package's ``research.py``, played by ``spieltisch.openspiel.research``) sets
        it."""
        if not (hand >= 1 and 2 * hand <= deck <= len(RESEARCH_ORDER)):
            raise ConfigError(f"a research deal of {hand} cards each needs a deck of "
                              f"{2 * hand}..{len(RESEARCH_ORDER)} cards, not {deck}")
        self.deck_cards = RESEARCH_ORDER[:deck]
        self.research_deals = (hand,)
        return self

    def _new_state(self, rng: random.Random, stacked: list[list[int]]) -> HockeyState:
        """§2: a new game, its chance from ``rng`` after the ``stacked`` orders."""
        return HockeyState.deal_new(self, Shuffler(rng, stacked))

    @property
    def num_actions(self) -> int:
        """One action per card (§3: a play is one card from the hand)."""
        return NUM_CARDS

    def action_to_json(self, action: int) -> Json:
        """``"play 7H"``."""
        return f"play {CODES[action]}"

    def action_from_json(self, obj: Json) -> int:
        """``"play 7H"``, ``"7H"`` or ``"play 7♥"``; ``IllegalAction`` names what is wrong."""
        if not isinstance(obj, str):
            raise IllegalAction(N_("a Hockey action is text such as 'play 7H', not {value}"),
                                params={"value": repr(obj)})
        words = obj.split()
        if len(words) == 2 and words[0].lower() == "play":
            words = words[1:]
        if len(words) != 1:
            raise IllegalAction(N_("a Hockey action is 'play <card>' (e.g. 'play 7H'), not "
                                   "{value}"), params={"value": repr(obj)})
        code = words[0].upper()
        for symbol, letter in _SUIT_LETTERS:
            code = code.replace(symbol, letter)
        try:
            return self._card_index()[code]
        except KeyError:
            raise IllegalAction(N_("unknown card {value} (cards are written like 10H, JS, AC)"),
                                params={"value": repr(words[0])}) from None

    def action_kind(self, action: int) -> Move:
        """Every action plays a card (§3)."""
        return Move.PLAY_CARD

    def describe_action(self, action: int) -> str:
        """``"play 7♥"`` (the terminal's form)."""
        return f"play {SYMBOLS[action]}"

    def _state_from_position(self, fields: Fields, shuffler: Shuffler) -> HockeyState:
        """A state from a position's ``"state"`` object (``position.py``)."""
        from .position import read  # (it imports state.py, which this module imports)

        return read(self, fields, shuffler)

    def score_sheet_builder(self) -> Builder:
        """The score sheet round by round (``scores.py``)."""
        from .scores import score_sheet  # (it imports this module)

        return score_sheet

    def narrator_class(self) -> type[Narrator]:
        """Hockey's words (``narration.py``): events, action labels, the board."""
        from .narration import Narrator

        return Narrator

    def bots(self) -> dict[str, type[Bot]]:
        """Hockey's own bot (``bot.py``)."""
        from .bot import HeuristicBot

        return {"heuristic": HeuristicBot}

    def observer_class(self) -> type[Observer]:
        """Hockey's own RL observation (``observation.py``)."""
        from .observation import HockeyObserver

        return HockeyObserver


__all__ = ["HockeyGame"]
