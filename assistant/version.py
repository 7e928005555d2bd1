"""The installed version, read once from the package metadata (pyproject.toml is its one source)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version


def _installed() -> str:
    try:
        return version("advisor")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"


VERSION = _installed()
