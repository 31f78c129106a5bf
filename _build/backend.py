"""The build backend: setuptools, asking for mypy (whose mypyc compiles the rules) only
when ``SPIELTISCH_COMPILE=1`` asks for the compiled build (``setup.py``,
``docs/performance.md``); the default install needs nothing more than setuptools."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 (every hook not redefined here)

#: The compiler of the compiled build (mypy's mypyc), with the version the code is checked by.
MYPYC = ["mypy>=1.15"]


def _compiling() -> bool:
    return os.environ.get("SPIELTISCH_COMPILE", "") not in ("", "0")


# setuptools answers these two by running setup.py, which imports mypyc when compiling:
# before the build environment has it. The project has no setup_requires, so when
# compiling the answer is mypy alone, without running setup.py (the build-system table
# already brought setuptools and wheel).
def get_requires_for_build_wheel(config_settings: dict[str, str] | None = None) -> list[str]:
    if _compiling():
        return list(MYPYC)
    return _setuptools.get_requires_for_build_wheel(config_settings)


def get_requires_for_build_editable(config_settings: dict[str, str] | None = None
                                    ) -> list[str]:
    if _compiling():
        return list(MYPYC)
    return _setuptools.get_requires_for_build_editable(config_settings)


@contextlib.contextmanager
def _pure() -> Iterator[None]:
    """``SPIELTISCH_COMPILE`` set aside: setup.py then runs without mypyc (whose work is
    a minute) where the answer is the same either way."""
    saved = os.environ.pop("SPIELTISCH_COMPILE", None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ["SPIELTISCH_COMPILE"] = saved


# the metadata and the source distribution are the same for both builds: only the wheel
# compiles (pip asks for the metadata first, which would otherwise compile everything twice)
def prepare_metadata_for_build_wheel(metadata_directory: str,
                                     config_settings: dict[str, str] | None = None) -> str:
    with _pure():
        return _setuptools.prepare_metadata_for_build_wheel(metadata_directory,
                                                            config_settings)


def prepare_metadata_for_build_editable(metadata_directory: str,
                                        config_settings: dict[str, str] | None = None) -> str:
    with _pure():
        return _setuptools.prepare_metadata_for_build_editable(metadata_directory,
                                                               config_settings)


def get_requires_for_build_sdist(config_settings: dict[str, str] | None = None) -> list[str]:
    with _pure():
        return _setuptools.get_requires_for_build_sdist(config_settings)


def build_sdist(sdist_directory: str, config_settings: dict[str, str] | None = None) -> str:
    with _pure():
        return _setuptools.build_sdist(sdist_directory, config_settings)
