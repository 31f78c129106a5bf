"""Mudslide configured: the action space and the actions' text (``"play 7H"``)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from spieltisch.core.cards import Shuffler
from spieltisch.core.game import Game, IllegalAction, Json
from spieltisch.i18n import N_

from .cards import CODES, SYMBOLS
from .state import DRAW, NUM_ACTIONS, PASS, PLAY, Move, MudslideState, kind_of

if TYPE_CHECKING:
    from spieltisch.core.position import Fields
    from spieltisch.core.words import Narrator


class MudslideGame(Game):
    """Mudslide for 2–5 players: no heuristic bot, no observer of its own (both optional:
    the levels then play random, and RL encodes the view generically)."""

    card_codes = CODES

    def __init__(self, num_players: int, options: dict[str, Any]) -> None:
        super().__init__(num_players, options)
        self.first_player: int = options["first_player"]
        if self.first_player >= num_players:
            from spieltisch.core.game import ConfigError

            raise ConfigError(f"first_player {self.first_player} is no seat of "
                              f"{num_players} players")

    def _new_state(self, rng: random.Random, stacked: list[list[int]]) -> MudslideState:
        return MudslideState.deal_new(self, Shuffler(rng, stacked))

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    def action_to_json(self, action: int) -> Json:
        """``"give 7H"``, ``"play 7H"``, ``"draw"`` or ``"pass"``."""
        kind = kind_of(action)
        if kind is Move.GIVE:
            return f"give {CODES[action]}"
        if kind is Move.PLAY:
            return f"play {CODES[action - PLAY]}"
        return kind.value

    def action_from_json(self, obj: Json) -> int:
        words = obj.split() if isinstance(obj, str) else []
        if words in (["draw"], ["pass"]):
            return DRAW if words[0] == "draw" else PASS
        if len(words) == 2 and words[0] in ("give", "play") and words[1].upper() in CODES:
            card = CODES.index(words[1].upper())
            return card if words[0] == "give" else PLAY + card
        raise IllegalAction(N_("a Mudslide action is 'give 7H', 'play 7H', 'draw' or "
                               "'pass', not {value}"), params={"value": repr(obj)})

    def action_kind(self, action: int) -> Move:
        return kind_of(action)

    def describe_action(self, action: int) -> str:
        kind = kind_of(action)
        if kind is Move.GIVE:
            return f"give {SYMBOLS[action]}"
        if kind is Move.PLAY:
            return f"play {SYMBOLS[action - PLAY]}"
        return kind.value

    def _state_from_position(self, fields: Fields, shuffler: Shuffler) -> MudslideState:
        from .position import read

        return read(self, fields, shuffler)

    def narrator_class(self) -> type[Narrator]:
        """Mudslide's words (``narration.py``): events, action labels, the board."""
        from .narration import Narrator

        return Narrator
