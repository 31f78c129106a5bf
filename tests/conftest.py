"""Suite-wide test marks and order."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

#: Tests that run one at a time (scripts/test.sh runs the rest beside them on every core,
#: at the lowest priority): they start servers, browsers, terminals or a Ray cluster, and
#: some measure time.
SERIAL_DIRS = {"server", "browser"}
SERIAL_FILES = {"test_ray.py", "test_realtime_terminal.py", "test_fresh_machine.py"}
#: Server tests that measure no time and share nothing (own database file or table
#: prefix, a free port): they run on every core with the rest.
PARALLEL_SERVER_FILES = {"test_long_games.py", "test_migrate.py", "test_store.py",
                         "test_texts.py", "test_http_fuzz.py", "test_fuzz.py",
                         "test_games.py", "test_people.py", "test_serve.py",
                         "test_accounts.py", "test_chat.py", "test_ratings.py",
                         "test_meeting.py", "test_passkeys.py", "test_cluster_relay.py"}
#: Serial tests that measure no time but spend it waiting (for an install, Ray, cluster
#: nodes and their failovers): scripts/test.sh runs them first among the serial tests
#: (mark ``waits``).
#: A single test of another file joins them by its own mark ``waits`` (a server whose
#: generous time limit a busy machine cannot reach, a browser that waits out a clock, bots
#: at a human pace).
WAITING_FILES = {"test_fresh_machine.py", "test_ray.py", "test_cluster.py",
                 "test_cluster_faults.py", "test_crash.py", "test_lifecycle.py"}

#: Tests that play many games in the pure build, checking engine code that lighter tests
#: reach too: scripts/test.sh runs them on every core without coverage, which makes engine
#: code about 2.7 times slower (mark ``heavy``; a single test of another file joins them
#: by its own mark). Coverage does not measure a game's ``test_invariants.py`` either
#: (pyproject.toml).
HEAVY_FILES = {"test_invariants.py", "test_search_fairness.py"}


@pytest.hookimpl(tryfirst=True)  # before ``-m`` selects by marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the serial tests; the Ray tests run last: a Ray driver leaves its threads and
    signal handlers in the test process, and no later test should meet them."""
    for item in items:
        if item.path.name in HEAVY_FILES:
            item.add_marker(pytest.mark.heavy)
        if item.path.name in PARALLEL_SERVER_FILES and item.path.parent.name == "server":
            continue
        if item.path.parent.name in SERIAL_DIRS or item.path.name in SERIAL_FILES:
            item.add_marker(pytest.mark.serial)
            if item.path.name in WAITING_FILES:
                item.add_marker(pytest.mark.waits)
        elif item.get_closest_marker("waits"):
            item.add_marker(pytest.mark.serial)
    items.sort(key=lambda item: item.path.name == "test_ray.py")


@pytest.fixture(autouse=True, scope="session")
def cheap_password_hashing() -> Iterator[None]:
    """Account passwords hashed with argon2's cheapest profile in the tests' own processes
    (a server's RFC 9106 hash costs 0.2 s of CPU: test_accounts checks that it is the
    default)."""
    from argon2 import profiles

    from spieltisch.server import accounts

    accounts.HASHING = profiles.CHEAPEST
    yield
    accounts.HASHING = None
