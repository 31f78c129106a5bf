"""spieltisch: rule engines, bots, simulation and play for five card games."""

# imported with the package: it hands the core its catalogs (core/words.py, use_catalogs)
from . import i18n  # noqa: F401
from .core import load_position, new_game

__version__ = "0.1.0"


def compiled() -> bool:
    """Whether the rules run compiled (the opt-in mypyc build, ``docs/performance.md``):
    the core's module is then a C extension, not Python source."""
    from .core import game

    return not game.__file__.endswith(".py")


def build() -> str:
    """Which build runs, for ``--version`` and the server's start-up line."""
    return "compiled (mypyc)" if compiled() else "pure Python"


__all__ = ["build", "compiled", "load_position", "new_game"]
