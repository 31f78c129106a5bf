"""Issue 34: the table page stays light, and the docs show it. Everything a table page
loads — the modules ``app.js`` imports (statically, all the way down: the vendored
Markdown library included), the CSS and the game's own module (``client.js`` in its
package, with what it imports) — is at most 250 KiB uncompressed, for every game. The
pages a table never shows (lobby, replay, history, profile) load when first opened
(``import()`` in app.js) and are not part of it. The page shell loads nothing from
another site."""

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


#: A static import of a module: ``import … from './x.js'`` or ``import '/static/x.js'``
#: (never ``import('…')``, which loads when called).
STATIC_IMPORT = re.compile(r"""^import\s(?:[^'"();]*?\sfrom\s)?['"]([^'"]+)['"]""", re.M)


def loaded_with(module: Path) -> set[Path]:
    """``module`` and every module it imports statically, all the way down."""
    seen: set[Path] = set()
    todo = [module]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for target in STATIC_IMPORT.findall(path.read_text(encoding="utf-8")):
            found = STATIC / target.removeprefix("/static/") if target.startswith("/static/") \
                else (path.parent / target).resolve()
            assert found.is_file(), f"{path.name} imports {target}, which is not there"
            todo.append(found)
    return seen


def table_page(game: str) -> set[Path]:
    """What a table page of ``game`` loads: the shell's script and style, and the game's
    module where it has one."""
    from spieltisch.core.registry import client_module

    files = loaded_with(STATIC / "app.js") | {STATIC / "style.css"}
    module = client_module(game)
    return files | loaded_with(module) if module is not None else files


def test_a_table_page_weighs_at_most_250_kib() -> None:
    from spieltisch.core.registry import game_names

    lazy = {"lobby.js", "replay.js", "history.js", "profile.js"}
    for game in game_names():
        files = table_page(game)
        names = {p.name for p in files}
        # the parts every table page loads are among what is counted, the others not
        assert {"app.js", "table.js", "style.css", "marked.esm.js", "cards.js", "chat.js",
                "account.js"} <= names and not lazy & names, sorted(names)
        total = sum(p.stat().st_size for p in files)
        assert total <= BUDGET, f"{game}: {total} bytes > {BUDGET}: " + ", ".join(
            f"{p.parent.name}/{p.name} {p.stat().st_size}" for p in sorted(files))


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
