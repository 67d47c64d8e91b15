"""The previous release, importable beside the current code, for benchmarks
that compare both on the same positions in the same process.

``load()`` extracts ``pychessdraw/`` at ``PREVIOUS`` (the commit before the
audit work) from this repository's git history into a temporary directory
as the package ``pychessdraw_previous`` (all its imports are relative) and
imports it. Nothing is copied into the repository.
"""

from __future__ import annotations

import importlib
import io
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
PREVIOUS = "6331737"
NAME = "pychessdraw_previous"


def load(module: str = "", commit: str = PREVIOUS) -> ModuleType:
    """``pychessdraw_previous[.module]`` from ``commit``."""
    if NAME not in sys.modules:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", commit, "pychessdraw"], capture_output=True, check=True
        ).stdout
        folder = Path(tempfile.mkdtemp(prefix="pychessdraw-previous-"))
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(folder, filter="data")
        (folder / "pychessdraw").rename(folder / NAME)
        sys.path.insert(0, str(folder))
    return importlib.import_module(f"{NAME}.{module}" if module else NAME)
