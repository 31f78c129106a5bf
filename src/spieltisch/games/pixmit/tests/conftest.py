"""Pixmit's exhaustive checks run only when asked for: ``pytest -m slow``."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="exhaustive check: run with -m slow")
    for item in items:
        if "pixmit" in str(item.path) and item.get_closest_marker("slow"):
            item.add_marker(skip)
