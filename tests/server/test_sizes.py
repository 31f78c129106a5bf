"""Issue 36: the server's modules stay readable alone, as the games' do (tests/test_core.py)."""

from pathlib import Path

import spieltisch.server
from spieltisch.testing import too_big

SERVER = Path(spieltisch.server.__file__).parent


def test_no_server_module_is_too_big_to_read() -> None:
    """No module in ``spieltisch.server`` over 900 lines, no class over 60 methods: a
    class that grows gets parts by job (``TableRuntime``: docs/server.md, "The table's
    parts")."""
    assert too_big(sorted(SERVER.rglob("*.py"))) == []
