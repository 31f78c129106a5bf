"""Project-wide test settings: tests marked ``slow`` run only with ``pytest -m slow``; with
``SPIELTISCH_EXPECT_COMPILED=1`` (scripts/test.sh's run on the compiled build) the tests
refuse to run on anything but the compiled build."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    import os

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
