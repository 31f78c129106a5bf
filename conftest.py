"""Project-wide test settings: tests marked ``slow`` run only with ``pytest -m slow``; with
``SPIELTISCH_EXPECT_COMPILED=1`` (scripts/test.sh's run on the compiled build) the tests
refuse to run on anything but the compiled build."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

#: The suite's example game (``tests/example_game``, the worked example of
#: ``docs/engine.md``) joins the registry for every test and every process a test starts
#: (``SPIELTISCH_GAMES``, ``core/registry.py``): the one place that registers it.
EXAMPLE_GAME = Path(__file__).parent / "tests" / "example_game"
os.environ["SPIELTISCH_GAMES"] = os.pathsep.join(
    [p for p in os.environ.get("SPIELTISCH_GAMES", "").split(os.pathsep)
     if p and Path(p).resolve() != EXAMPLE_GAME.resolve()] + [str(EXAMPLE_GAME)])


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get("SPIELTISCH_EXPECT_COMPILED"):
        import spieltisch

        if not spieltisch.compiled():
            raise pytest.UsageError(f"expected the compiled build, but {spieltisch.__file__} "
                                    "runs pure Python (set PYTHONPATH=build/compiled)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="long check: run with -m slow")
    for item in items:
        if item.get_closest_marker("slow"):
            item.add_marker(skip)
