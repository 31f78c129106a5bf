"""Issue 34: the table page stays light, and the docs show it. Everything the browser
client loads — its JavaScript and CSS, the vendored Markdown library and every game's
module (``client.js`` in its package) included — is at most 250 KiB uncompressed; the
page shell loads nothing from another site."""

from __future__ import annotations

import re
from pathlib import Path

import spieltisch.server

STATIC = Path(spieltisch.server.__file__).parent / "static"
BUDGET = 250 * 1024


def client_files() -> list[Path]:
    from spieltisch.core.registry import client_module, game_names

    games = [client_module(g) for g in game_names()]
    return sorted(p for p in STATIC.rglob("*") if p.suffix in {".js", ".css"}) \
        + [p for p in games if p is not None]


def test_the_client_weighs_at_most_250_kib() -> None:
    files = client_files()
    names = {p.name for p in files}
    # the parts every table page loads are among what is counted
    assert {"app.js", "table.js", "style.css", "marked.esm.js", "cards.js"} <= names
    total = sum(p.stat().st_size for p in files)
    assert total <= BUDGET, f"{total} bytes > {BUDGET}: " + ", ".join(
        f"{p.parent.name}/{p.name} {p.stat().st_size}" for p in files)


def test_the_page_loads_nothing_from_elsewhere() -> None:
    shell = (STATIC / "index.html").read_text(encoding="utf-8")
    sources = re.findall(r"""(?:src|href)=["']([^"']+)""", shell)
    assert sources, "the shell loads its script and style"
    assert [s for s in sources if re.match(r"(?:https?:)?//", s)] == []
    for p in client_files():
        text = p.read_text(encoding="utf-8")
        assert not re.search(r"""import[^'"]*['"](?:https?:)?//""", text), p.name


def test_every_game_is_shown_in_the_docs() -> None:
    """docs/client.md's gallery shows each game whose pictures are in docs/img at laptop
    and phone size, from PNGs that exist (scripts/screenshots.py GAME takes them), and
    names only registered games; the README's pictures exist too. A game just dropped
    in has no pictures yet, which fails nothing: the gallery is the docs' choice."""
    from spieltisch.core.registry import game_names

    root = Path(__file__).resolve().parents[1]
    client = (root / "docs" / "client.md").read_text(encoding="utf-8")
    readme = (root / "README.md").read_text(encoding="utf-8")
    shown = set(re.findall(r"img/table-([a-z_0-9]+)-(?:desktop|phone)\.png", client))
    taken = {p.name.split("-")[1] for p in (root / "docs" / "img").glob("table-*-*.png")}
    assert len(shown) >= 5 and shown == taken and shown <= set(game_names())
    for game in shown:
        for kind in ("desktop", "phone"):
            name = f"img/table-{game}-{kind}.png"
            assert name in client, name
            png = root / "docs" / name
            assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", png
    pictures = re.findall(r"""(?:\]\(|src=")(docs/img/[^)"]+)""", readme)
    assert pictures
    assert [p for p in pictures if not (root / p).exists()] == []
