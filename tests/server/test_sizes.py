"""Issue 36: the server's modules stay readable alone, as the games' do (tests/test_core.py)."""

import ast
from pathlib import Path

import spieltisch.server

SERVER = Path(spieltisch.server.__file__).parent


def test_no_server_module_is_too_big_to_read() -> None:
    """No module in ``spieltisch.server`` over 900 lines, no class over 60 methods: a
    class that grows gets parts by job (``TableRuntime``: docs/server.md, "The table's
    parts")."""
    too_big = []
    for path in sorted(SERVER.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if len(text.splitlines()) > 900:
            too_big.append(f"{path.name}: {len(text.splitlines())} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                methods = sum(isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
                              for n in node.body)
                if methods > 60:
                    too_big.append(f"{path.name}: {node.name} has {methods} methods")
    assert too_big == []
