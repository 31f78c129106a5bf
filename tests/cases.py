"""The player counts the generic suites play each game at, as pytest parameters.

Each game plays at its fewest, its default and its most players. The most, when it is
above the default, carries the ``volume`` mark: its games are the longest, and
``scripts/test.sh`` runs volume tests once, on the compiled build, without coverage.
"""

from __future__ import annotations

import pytest

from spieltisch.core import game_names, get_spec

volume = pytest.mark.volume


def player_cases() -> list[object]:
    """``(name, n)`` for every game at its fewest, default and most players."""
    cases = []
    for name in game_names():
        spec = get_spec(name)
        for n in sorted({spec.min_players, spec.default_players, spec.max_players}):
            marks = [volume] if n > spec.default_players else []
            cases.append(pytest.param(name, n, id=f"{name}-{n}p", marks=marks))
    return cases
