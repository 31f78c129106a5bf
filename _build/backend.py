"""The build backend: setuptools, asking for mypy (whose mypyc compiles the rules) only
when ``SPIELTISCH_COMPILE=1`` asks for the compiled build (``setup.py``,
``docs/performance.md``); the default install needs nothing more than setuptools."""

from __future__ import annotations

import os

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 (every hook not redefined here)

#: The compiler of the compiled build (mypy's mypyc), with the version the code is checked by.
MYPYC = ["mypy>=1.15"]


def _compiling() -> bool:
    return os.environ.get("SPIELTISCH_COMPILE", "") not in ("", "0")


def get_requires_for_build_wheel(config_settings: dict[str, str] | None = None) -> list[str]:
    extra = MYPYC if _compiling() else []
    return [*_setuptools.get_requires_for_build_wheel(config_settings), *extra]


def get_requires_for_build_editable(config_settings: dict[str, str] | None = None
                                    ) -> list[str]:
    extra = MYPYC if _compiling() else []
    return [*_setuptools.get_requires_for_build_editable(config_settings), *extra]
