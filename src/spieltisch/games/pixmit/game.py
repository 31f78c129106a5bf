"""Pixmit configured: player count and mode, the action space and the actions' text.

The rules live in ``state.py``; ``actions.py`` numbers the actions and writes them.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ...core.cards import Shuffler
from ...core.game import ConfigError, Game
from . import cards as C
from .actions import ActionSpace, Move
from .observation import PixmitObserver
from .state import PixmitState
from .terms import ROUNDS

if TYPE_CHECKING:
    from ...bots.base import Bot
    from ...core.position import Fields
    from ...core.scoresheet import Builder
    from ...core.words import Narrator


class PixmitGame(Game):
    """Pixmit configured with a player count (2–4) and the mode (§2)."""

    card_codes = C.CARD_CODES

    def __init__(self, num_players: int, options: dict[str, Any]) -> None:
        super().__init__(num_players, options)
        #: ``pro`` (lying allowed) or ``beginner`` (true announcements only, §3.3).
        self.mode: str = options["mode"]
        self.beginner = self.mode == "beginner"
        #: The start player S, or -1 for a random one (§2).
        self.start_player: int = options["start_player"]
        if self.start_player >= num_players:
            raise ConfigError(f"option 'start_player' of pixmit must be below the player "
                              f"count {num_players}, not {self.start_player}")
        self.space = ActionSpace(num_players)
        #: The cards the deal shuffles and the rounds played: all 33 and three, or the
        #: research variant's (``research``).
        self.deck_cards: tuple[int, ...] = tuple(range(C.NUM_CARDS))
        self.rounds = ROUNDS

    def research(self, codes: tuple[int, ...], rounds: int) -> PixmitGame:
        """This game as a research variant (rules.md, "Research variant"): only the
        cards printed ``codes`` (01–33), ``rounds`` rounds. Not a rule option: only the
        research configuration (this package's ``research.py``, played by
        ``spieltisch.openspiel.research``) sets it."""
        if not (2 * self.num_players <= len(codes) and 1 <= rounds <= ROUNDS):
            raise ConfigError(f"a research deck needs {2 * self.num_players} cards or more "
                              f"and 1..{ROUNDS} rounds, not {len(codes)} and {rounds}")
        self.deck_cards = tuple(sorted(C.c(n) for n in codes))
        self.rounds = rounds
        return self

    @property
    def num_actions(self) -> int:
        """The size of the action space (``actions.py``): 1,238–1,240."""
        return self.space.size

    def _new_state(self, rng: random.Random, stacked: list[list[int]]) -> PixmitState:
        """§2: a new game, its chance from ``rng`` after the ``stacked`` orders."""
        return PixmitState.deal(self, Shuffler(rng, stacked))

    def _state_from_position(self, fields: Fields, shuffler: Shuffler) -> PixmitState:
        """A state from a position's ``"state"`` object (``position.py``)."""
        from .position import read  # (it imports state.py, which this module imports)

        return read(self, fields, shuffler)

    def action_to_json(self, action: int) -> str:
        """The stable text (``"offer 05 13"``, ``actions.py``)."""
        return self.space.to_text(action)

    def action_from_json(self, obj: Any) -> int:
        """The action a text names (``actions.py``)."""
        return self.space.from_text(obj)

    def action_kind(self, action: int) -> Move:
        """The kind its text starts with (``actions.py``)."""
        return Move(self.space.decode(action)[0])

    def describe_action(self, action: int) -> str:
        """The terminal's words for an action, cards with their names."""
        kind, arg, _ = self.space.decode(action)
        if kind == "call":
            return "Pixmit! (call: the game ends now)"
        if kind == "knowledge":
            return "Wissen: reveal 15, 19, 26 and look at the top two stack cards"
        if kind == "accept":
            return "accept the offer (then give back as many cards, blind)"
        if kind == "veto":
            return "veto the offer"
        if kind == "creation":
            return "Schöpfung: reveal 03, 20, 25 and overrule the veto"
        if kind == "pass":
            return "let the veto stand"
        if kind == "target":
            return f"choose seat {arg} as the target of your offer (then the cards)"
        if kind == "offer":
            return f"offer face down: {_named(C.SUBSET_CARDS[arg])}"
        if kind == "return":
            return f"give back: {_named(C.SUBSET_CARDS[arg])}"
        if kind == "messenger":
            return f"Blinder Bote: give {_named([arg])}"
        if kind == "bottom":
            return f"put {_named([arg])} under the stack (hand limit 6)"
        text = C.CLAIM_TEXT[arg]
        if arg == 0:
            return "announce nothing about this card"
        if arg <= len(C.GROUPS):
            return f"announce: group {text} ({C.GROUP_NAMES[text]})"
        return f"announce: card {text} ({C.NAMES[arg - 1 - len(C.GROUPS)]})"

    def score_sheet_builder(self) -> Builder:
        """The score sheet round by round (``scores.py``)."""
        from .scores import score_sheet  # (it imports this module)

        return score_sheet

    def narrator_class(self) -> type[Narrator]:
        """Pixmit's words (``narration.py``): events, action labels, the board."""
        from .narration import Narrator

        return Narrator

    def bots(self) -> dict[str, type[Bot]]:
        """Pixmit's own bot (``bot.py``)."""
        from .bot import HeuristicBot

        return {"heuristic": HeuristicBot}

    def observer_class(self) -> type[PixmitObserver]:
        """Pixmit's own RL observation (``observation.py``)."""
        return PixmitObserver


def _named(cards: list[int] | tuple[int, ...]) -> str:
    """Cards with their names: ``"05 Die Eiserne Fackel, 13 Der Mann"``."""
    return ", ".join(f"{C.CARD_CODES[x]} {C.NAMES[x]}" for x in cards)


__all__ = ["PixmitGame"]
