"""Suite-wide test order."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The Ray tests run last: a Ray driver leaves its threads and signal handlers in the
    test process, and no later test should meet them."""
    items.sort(key=lambda item: item.path.name == "test_ray.py")
