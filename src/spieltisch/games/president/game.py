"""President configured: the options, the action space and the actions' text.

The rules live in ``state.py``; this module says what the actions are (``cards.py``
numbers them: pass, play a set, give a card) and how they are written (``"pass"``,
``"play 10H 10S"``, ``"play JK1"``, ``"give QS"``).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ...core.cards import Shuffler
from ...core.game import ConfigError, Game, IllegalAction
from ...i18n import N_
from . import cards as C
from .cards import FIRST_GIVE, NUM_ACTIONS, PASS, PLAY_MASK, codes
from .state import Move, PresidentState

if TYPE_CHECKING:
    from ...bots.base import Bot
    from ...core.observation import Observer
    from ...core.position import Fields
    from ...core.scoresheet import Builder
    from ...core.words import Narrator


class PresidentGame(Game):
    """President for 4–8 players (§1), with the skip rule on or off."""

    card_codes = C.CARD_CODES

    def __init__(self, num_players: int, options: dict[str, Any]) -> None:
        super().__init__(num_players, options)
        #: §3 [option]: a set of the top's rank may be played and skips the next seat.
        self.skip_rule: bool = options["skip_rule"]
        #: The seat that leads round 1, or -1 for a random one (§2.2).
        self.first_leader: int = options["first_leader"]
        if self.first_leader >= num_players:
            raise ConfigError(f"option 'first_leader' of president must be below the player "
                              f"count {num_players}, not {self.first_leader}")

    @property
    def num_actions(self) -> int:
        """Pass, every set of one rank, the Jokers, and one give per card (``cards.py``)."""
        return NUM_ACTIONS

    def _new_state(self, rng: random.Random, stacked: list[list[int]]) -> PresidentState:
        """§2: a new game, its chance from ``rng`` after the ``stacked`` orders."""
        return PresidentState.deal_first(self, Shuffler(rng, stacked))

    def action_to_json(self, action: int) -> str:
        """``"pass"``, ``"play 10H 10S"``, ``"play JK1"`` or ``"give QS"``."""
        if action == PASS:
            return "pass"
        if action >= FIRST_GIVE:
            return "give " + C.CARD_CODES[action - FIRST_GIVE]
        return "play " + " ".join(codes(PLAY_MASK[action]))

    def action_kind(self, action: int) -> Move:
        """Pass, a play of a set, or a give (§3, §2.4)."""
        if action == PASS:
            return Move.PASS
        return Move.GIVE if action >= FIRST_GIVE else Move.PLAY_SET

    def action_from_json(self, obj: Any) -> int:
        """The action a text names; ``IllegalAction`` says what is wrong with it."""
        if not isinstance(obj, str):
            raise IllegalAction(N_("an action is a string such as 'play 10H 10S', not {value}"),
                                params={"value": repr(obj)})
        words = obj.strip().split()
        if not words:
            raise IllegalAction(N_("empty action"))
        verb, args = words[0].lower(), [w.upper() for w in words[1:]]
        if verb == "pass" and not args:
            return PASS
        for a in args:
            if a not in self._card_index():
                raise IllegalAction(N_("unknown card {value} (cards look like 10H, QS, JK1)"),
                                    params={"value": repr(a)})
        ids = [self._card_index()[a] for a in args]
        if verb == "give" and len(ids) == 1:
            return FIRST_GIVE + ids[0]
        if verb == "play" and ids:
            if len(set(ids)) != len(ids):
                raise IllegalAction(N_("a card is named twice"))
            action = C.play_action(sum(1 << c for c in ids))
            if action is None:
                raise IllegalAction(
                    N_("a play is 1–4 cards of one rank (Jokers only with Jokers): {cards}"),
                    params={"cards": " ".join(args)})
            return action
        raise IllegalAction(N_("not an action: {value} (try 'play 7H 7S', 'pass', 'give QS')"),
                            params={"value": repr(obj)})

    def _state_from_position(self, fields: Fields, shuffler: Shuffler) -> PresidentState:
        """A state from a position's ``"state"`` object (``position.py``)."""
        from .position import read  # (it imports state.py, which this module imports)

        return read(self, fields, shuffler)

    def score_sheet_builder(self) -> Builder:
        """The score sheet round by round (``scores.py``)."""
        from .scores import score_sheet  # (it imports this module)

        return score_sheet

    def narrator_class(self) -> type[Narrator]:
        """President's words (``narration.py``): events, action labels, the board."""
        from .narration import Narrator

        return Narrator

    def bots(self) -> dict[str, type[Bot]]:
        """President's own bot (``bot.py``)."""
        from .bot import HeuristicBot

        return {"heuristic": HeuristicBot}

    def observer_class(self) -> type[Observer]:
        """President's own RL observation (``observation.py``)."""
        from .observation import PresidentObserver

        return PresidentObserver


__all__ = ["PresidentGame"]
