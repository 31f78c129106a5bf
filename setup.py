"""The optional compiled build (issue 27, docs/performance.md).

``pip install .`` installs pure Python, the reference. With ``SPIELTISCH_COMPILE=1`` the
rules (the core, every game's state, cards and views, the search bot's loop) are
compiled to C extensions with mypyc from the same source; everything else stays Python.
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

#: The modules the compiled build compiles (paths under src/); the rest stays Python.
COMPILED = [
    "spieltisch/core/fields.py",
    "spieltisch/core/phases.py",
    "spieltisch/core/cards.py",
    "spieltisch/core/game.py",
    *(f"spieltisch/games/{game}/{module}.py"
      for game, modules in {
          "hockey": ("cards", "game", "state"),
          "president": ("cards", "game", "state", "sampling"),
          "pixmit": ("actions", "cards", "game", "state", "sampling", "views", "terms"),
          "hoax": ("cards", "claims", "phases", "state", "sampling", "views"),
          "hood_politix": ("cards", "terms", "judging", "game", "state", "sampling",
                           "views"),
      }.items() for module in modules),
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

    root = Path(__file__).parent
    return mypycify(["--config-file", str(root / "_build" / "mypyc.ini"),
                     *(str(root / "src" / m) for m in COMPILED)],
                    opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"))


setup(ext_modules=ext_modules(), cmdclass={"build_ext": ParallelBuildExt})
