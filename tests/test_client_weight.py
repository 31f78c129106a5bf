"""Issue 34: the table page stays light. Everything the browser client loads — its
JavaScript and CSS, the vendored Markdown library included — is at most 250 KiB
uncompressed; the page shell loads nothing from another site."""

from __future__ import annotations

import re
from pathlib import Path

import spieltisch.server

STATIC = Path(spieltisch.server.__file__).parent / "static"
BUDGET = 250 * 1024


def client_files() -> list[Path]:
    return sorted(p for p in STATIC.rglob("*") if p.suffix in {".js", ".css"})


def test_the_client_weighs_at_most_250_kib() -> None:
    files = client_files()
    names = {p.name for p in files}
    # the parts every table page loads are among what is counted
    assert {"app.js", "table.js", "style.css", "marked.esm.js", "cards.js"} <= names
    total = sum(p.stat().st_size for p in files)
    assert total <= BUDGET, f"{total} bytes > {BUDGET}: " + ", ".join(
        f"{p.relative_to(STATIC)} {p.stat().st_size}" for p in files)


def test_the_page_loads_nothing_from_elsewhere() -> None:
    shell = (STATIC / "index.html").read_text(encoding="utf-8")
    sources = re.findall(r"""(?:src|href)=["']([^"']+)""", shell)
    assert sources, "the shell loads its script and style"
    assert [s for s in sources if re.match(r"(?:https?:)?//", s)] == []
    for p in client_files():
        text = p.read_text(encoding="utf-8")
        assert not re.search(r"""import[^'"]*['"](?:https?:)?//""", text), p.name
