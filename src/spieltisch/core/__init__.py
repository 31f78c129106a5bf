"""The engine core: knows no game. See ``game.py`` for the contract."""

from .cards import Shuffler, bit, cards_of, iter_cards, lowest, mask_of
from .fields import Copy, StateFields
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
    faulty,
    illegal,
    ranks_from_scores,
    translate_reason,
)
from .options import Option
from .phases import PhaseTable, Rule, Who
from .registry import game_names, get_spec, load_position, new_game

__all__ = [
    "CLOCK", "LEGAL", "Check", "ConfigError", "Copy", "Deadline", "Event", "Game", "GameSpec",
    "IllegalAction", "Option", "PhaseTable", "Result", "Rule", "Shuffler", "SpieltischError",
    "State", "StateFields", "Verdict", "Who", "bit", "cards_of", "faulty", "game_names",
    "get_spec", "illegal", "iter_cards", "load_position", "lowest", "mask_of", "new_game",
    "ranks_from_scores", "translate_reason",
]
