"""spieltisch: rule engines, bots, simulation and play for five card games."""

from .core import new_game

__version__ = "0.1.0"
__all__ = ["new_game"]
