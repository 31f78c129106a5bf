"""spieltisch: rule engines, bots, simulation and play for five card games."""

from .core import load_position, new_game

__version__ = "0.1.0"
__all__ = ["load_position", "new_game"]
