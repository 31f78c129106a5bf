"""A game's own numeric observation of one seat (for RL), beside its JSON view.

The RL layer can encode any game's JSON view generically (``spieltisch.rl.encoding``
discovers a layout from sample views). A game may instead provide an ``Observer``: a
fixed layout of float slots written straight from the state, as OpenSpiel's games give
their observation tensors. That skips building the view and encoding it, which is most
of an RL step's cost, and lets the game choose a faithful layout (a set of known cards
as one slot per card and seat rather than the tail of a list).

The contract is the view's: an observer shows a seat what its ``view(seat)`` shows and
nothing more. The RL tests resample what the seat cannot see (``determinise``) and
check that its observation does not change.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game, State


class Observer(ABC):
    """The slots of one configured game's observation and how to fill them.

    Subclasses lay out their slots in ``__init__`` with ``slot`` and ``slots`` (every
    slot gets a label; numeric slots may hold values outside [0, 1]) and implement
    ``write``. The layout must depend only on the game's configuration.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.labels: list[str] = []
        #: Slots holding numbers (counts, scores: may be negative or above 1).
        self.numeric: list[int] = []

    @property
    def size(self) -> int:
        return len(self.labels)

    def slot(self, label: str, numeric: bool = False) -> int:
        """A new slot; returns its index."""
        self.labels.append(label)
        if numeric:
            self.numeric.append(len(self.labels) - 1)
        return len(self.labels) - 1

    def slots(self, label: str, names: Sequence[object], numeric: bool = False) -> int:
        """Consecutive slots ``label=name`` for each name (one-hot or per-item counts);
        returns the first one's index."""
        first = len(self.labels)
        for name in names:
            self.slot(f"{label}={name}", numeric)
        return first

    def observe(self, state: State[Any], seat: int) -> array[float]:
        """``seat``'s observation of ``state`` in a fresh array (``write`` into zeros)."""
        D = array("f", bytes(4 * self.size))
        self.write(state, seat, D)
        return D

    def named(self, D: Sequence[float], prefix: str = "") -> dict[str, float]:
        """The set slots whose label starts with ``prefix``, by the rest of the label
        (for tests and for reading an observation)."""
        return {label[len(prefix):]: D[i] for i, label in enumerate(self.labels)
                if label.startswith(prefix) and D[i]}

    @abstractmethod
    def write(self, state: State[Any], seat: int, D: array[float]) -> None:
        """Set the slots of what ``seat`` sees now in ``D`` (all zero on entry, at least
        ``size`` long; slots not written stay 0)."""


__all__ = ["Observer"]
