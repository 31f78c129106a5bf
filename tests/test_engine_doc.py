"""``docs/engine.md`` is current: its table of what a game must provide and what is
optional names every field of ``GameSpec`` (each optional one has a default), every
Python block runs or is an excerpt of the source as it is, and the phase table it prints
is Hockey's."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from spieltisch.core.game import GameSpec
from spieltisch.games.hockey.state import HockeyState

DOC = Path(__file__).resolve().parents[1] / "docs" / "engine.md"


def contract_table() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("## What a game provides, what is optional")
    return text[start:text.index("\n## ", start + 1)]


def test_the_table_names_every_spec_field_and_optional_ones_have_defaults():
    table = contract_table()
    named = set(re.findall(r"`(\w+)`", table))
    fields = {f.name: f for f in dataclasses.fields(GameSpec)}
    assert set(fields) <= named, f"not in the table: {sorted(set(fields) - named)}"
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 4 and cells[1].startswith("optional"):
            for name in re.findall(r"`(\w+)`", cells[0]):
                if name in fields:
                    field = fields[name]
                    assert field.default is not dataclasses.MISSING \
                        or field.default_factory is not dataclasses.MISSING, name


def python_blocks() -> list[pytest.ParameterSet]:
    """Each ```python block of the page, by the line it starts on."""
    text = DOC.read_text(encoding="utf-8")
    return [pytest.param(m.group(1), id=f"line-{text.count(chr(10), 0, m.start()) + 1}")
            for m in re.finditer(r"^```python\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)]


def code_line(line: str) -> str:
    """A line without its indentation and comment (``  # …``; a comment line is empty)."""
    code = re.sub(r"\s{2,}#.*$", "", line).strip()
    return "" if code.startswith("#") else code


@pytest.mark.parametrize("block", python_blocks())
def test_each_code_block_runs_or_is_its_source(block: str):
    """A block runs as it stands (the suite registers the example game); an excerpt, a
    block starting ``# excerpt of <path>``, is the source: each of its lines but comments
    and those marked ``...`` is a line of that file."""
    first = block.splitlines()[0]
    excerpt = re.fullmatch(r"# excerpt of (\S+)", first)
    if excerpt is None:
        exec(compile(block, str(DOC), "exec"), {"__name__": "engine_md"})
        return
    source = (DOC.parents[1] / excerpt.group(1)).read_text(encoding="utf-8")
    lines = {code_line(line) for line in source.splitlines()}
    missing = [line for line in map(code_line, block.splitlines()[1:])
               if line and "..." not in line and line not in lines]
    assert missing == [], f"not in {excerpt.group(1)}"


def test_the_printed_phase_table_is_what_the_table_prints():
    text = DOC.read_text(encoding="utf-8")
    start = text.index("`HockeyState.PHASES.markdown()` prints the table:")
    shown = re.search(r"^\|.*?(?=\n\n)", text[start:], re.MULTILINE | re.DOTALL)
    table = HockeyState.PHASES
    assert shown is not None and table is not None
    assert shown.group(0) == table.markdown()
