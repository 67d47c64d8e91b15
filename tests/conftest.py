"""Shared fixtures. Data from ../shared (beside the checkout) is read in
place, never copied; tests that need it skip with a clear message without it."""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from types import ModuleType

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"

# The suite tests the pure search, the one the page runs, wherever the
# compiled one is installed too; tests/test_native.py holds the compiled one
# to the same verdicts.  Set before any test imports pychessdraw.
os.environ.setdefault("PYCHESSDRAW_PURE", "1")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--full",
        action="store_true",
        default=False,
        help="run corpus and random-game tests on everything, not a sample",
    )


@pytest.fixture(scope="session")
def full(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--full") or os.environ.get("PYCHESSDRAW_FULL"))


def shared_file(*parts: str) -> Path:
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(
            f"{path} not found: this test needs the project's shared data in ../shared "
            "beside the checkout (it is not part of the public repository)"
        )
    return path


@pytest.fixture(scope="session")
def shared():
    """``shared("corpus", "tcec-dev.pgn")``: a path in ../shared, or a skip."""
    return shared_file


@pytest.fixture(scope="session")
def compiled() -> ModuleType:
    """``pychessdraw_native``, loaded as pychessdraw would without
    ``PYCHESSDRAW_PURE``, or a skip saying why it is not there."""
    from pychessdraw.deadposition import native

    try:
        module = importlib.import_module("pychessdraw_native")
    except ImportError:
        pytest.skip("pychessdraw-native is not installed: `make native` builds it (it needs a C compiler)")
    if getattr(module, "SOURCE_HASH", None) != native.source_hash():
        pytest.skip("pychessdraw-native was built from other sources: `make native` rebuilds it")
    return module
