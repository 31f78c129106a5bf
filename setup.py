"""The optional compiled build (issue 27, docs/performance.md).

``pip install .`` installs pure Python, the reference. With ``SPIELTISCH_COMPILE=1`` the
rules (the core, every game's state, cards and views, the search bot's loop) are
compiled to C extensions with mypyc from the same source; everything else stays Python.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).parent


def package_compiled(package: Path) -> list[str]:
    """The modules a game package lists in its ``COMPILED`` (``games/<g>/__init__.py``),
    read as text: setup.py runs before the package is installed and must not import it."""
    tree = ast.parse((package / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and \
                any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets):
            return [f"{package.relative_to(ROOT / 'src').as_posix()}/{m}.py"
                    for m in ast.literal_eval(node.value)]
    return []


#: The modules the compiled build compiles (paths under src/): the core's, each game's
#: own list (its package's ``COMPILED``), the search bot's; the rest stays Python.
COMPILED = [
    "spieltisch/core/fields.py",
    "spieltisch/core/phases.py",
    "spieltisch/core/cards.py",
    "spieltisch/core/game.py",
    *(module for package in sorted((ROOT / "src" / "spieltisch" / "games").iterdir())
      if (package / "__init__.py").is_file() for module in package_compiled(package)),
    "spieltisch/bots/base.py",
    "spieltisch/bots/ismcts.py",
]

class ParallelBuildExt(build_ext):
    """Compiles the extensions on every core, always anew: the C files are the same at
    every ``MYPYC_OPT_LEVEL``, so objects left in build/ by another level would be reused."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1
        self.force = True


def ext_modules() -> list:
    """The compiled modules with ``SPIELTISCH_COMPILE=1``, none by default. The C
    compiler's optimisation comes from ``MYPYC_OPT_LEVEL`` (default 3; the test command
    builds with 0, which compiles twice as fast and runs the same code)."""
    if os.environ.get("SPIELTISCH_COMPILE", "") in ("", "0"):
        return []
    from mypyc.build import mypycify

    return mypycify(["--config-file", str(ROOT / "_build" / "mypyc.ini"),
                     *(str(ROOT / "src" / m) for m in COMPILED)],
                    opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"))


setup(ext_modules=ext_modules(), cmdclass={"build_ext": ParallelBuildExt})
