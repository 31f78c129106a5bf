"""The engine core: knows no game. See ``game.py`` for the contract."""

from .cards import Shuffler, bit, cards_of, iter_cards, lowest, mask_of
from .game import (
    CLOCK,
    LEGAL,
    Check,
    ConfigError,
    Deadline,
    Event,
    Game,
    GameSpec,
    IllegalAction,
    Result,
    SpieltischError,
    State,
    Verdict,
)
from .options import Option
from .registry import game_names, get_spec, load_position, new_game

__all__ = [
    "CLOCK", "LEGAL", "Check", "ConfigError", "Deadline", "Event", "Game", "GameSpec",
    "IllegalAction", "Option", "Result", "Shuffler", "SpieltischError", "State", "Verdict",
    "bit", "cards_of", "game_names", "get_spec", "iter_cards", "load_position", "lowest",
    "mask_of", "new_game",
]
