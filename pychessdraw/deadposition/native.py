# SPDX-License-Identifier: GPL-3.0-or-later
"""The compiled search, where it is installed (``pychessdraw-native``).

``native/`` builds an optional package, ``pychessdraw_native``: this
package's search modules and a copy of python-chess's core compiled together
by mypyc, from the very same sources (``make native``; it needs a C
compiler).  Measured on the real-game questions of ``bench_cha.py``: about
twice as fast, with the same answers, nodes and lines for the same node
budget (under a time budget it gets further and may decide more).  Pure
Python stays the package: Pyodide never has the compiled one, and the
public functions here fall back to ``solver``'s wherever it is missing.

It is used only when it was built from these sources (``source_hash``: a
stale build after an edit is left alone, with a warning), for a plain
``chess.Board``, and not where ``PYCHESSDRAW_PURE`` is set.  Its lines are
checked as the pure search checks them, by python-chess's own code (there
compiled); the tests hold the two searches to the same verdicts.
"""

from __future__ import annotations

import importlib
import os
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

import chess

from . import solver
from .verdict import Verdict

PURE_VARIABLE = "PYCHESSDRAW_PURE"
HERE = Path(__file__).resolve().parent
# Written by the build itself, not compiled: this loader and the package's front page.
NOT_COMPILED = ("__init__.py", "native.py")


def compiled_sources(folder: Path = HERE) -> list[Path]:
    """The modules of the search that the native build compiles."""
    return sorted(path for path in folder.glob("*.py") if path.name not in NOT_COMPILED)


def source_hash(folder: Path = HERE) -> str:
    """A digest of ``compiled_sources``: the build records it, the loader compares."""
    import hashlib  # only where the compiled search is installed (not in the page)

    digest = hashlib.sha256()
    for path in compiled_sources(folder):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:20]


def load() -> ModuleType | None:
    """``pychessdraw_native`` if it is installed, fresh and wanted, else None."""
    if os.environ.get(PURE_VARIABLE):
        return None
    try:
        module = importlib.import_module("pychessdraw_native")  # optional, built by native/
    except ImportError:
        return None
    if getattr(module, "SOURCE_HASH", None) != source_hash():
        warnings.warn(
            "pychessdraw-native was built from other sources than this pychessdraw's search: "
            "the pure search runs instead (`make native` rebuilds it)",
            RuntimeWarning,
            stacklevel=2,
        )
        return None
    return module


NATIVE = load()


def to_native(board: chess.Board, module: ModuleType) -> Any:
    """The compiled copy of python-chess's board for ``board``'s position
    (its pieces, side to move, castling rights, raw en passant square and
    counters; not its move stack, which the search never reads)."""
    copy = module.chess.Board(None, chess960=board.chess960)
    copy.pawns, copy.knights, copy.bishops = board.pawns, board.knights, board.bishops
    copy.rooks, copy.queens, copy.kings = board.rooks, board.queens, board.kings
    copy.promoted = board.promoted
    copy.occupied_co[chess.WHITE] = board.occupied_co[chess.WHITE]
    copy.occupied_co[chess.BLACK] = board.occupied_co[chess.BLACK]
    copy.occupied = board.occupied
    copy.turn, copy.castling_rights, copy.ep_square = board.turn, board.castling_rights, board.ep_square
    copy.halfmove_clock, copy.fullmove_number = board.halfmove_clock, board.fullmove_number
    return copy


def _usable(board: chess.Board) -> ModuleType | None:
    """The compiled search, if it may answer for ``board``."""
    return NATIVE if NATIVE is not None and type(board) is chess.Board else None


def can_checkmate(
    board: chess.Board, color: chess.Color, *, nodes: int = 20_000, seconds: float | None = None
) -> Verdict:
    """``solver.can_checkmate``, by the compiled search where it may answer."""
    module = _usable(board)
    if module is None:
        return solver.can_checkmate(board, color, nodes=nodes, seconds=seconds)
    verdict = module.can_checkmate(to_native(board, module), color, nodes=nodes, seconds=seconds)
    line = verdict.line
    moves = None if line is None else tuple(chess.Move(m.from_square, m.to_square, m.promotion) for m in line)
    return Verdict(verdict.winnable, moves, verdict.nodes, verdict.reason)


def is_dead(board: chess.Board, *, nodes: int = 20_000, seconds: float | None = None) -> bool | None:
    """``solver.is_dead``, by the compiled search where it may answer."""
    module = _usable(board)
    if module is None:
        return solver.is_dead(board, nodes=nodes, seconds=seconds)
    dead: bool | None = module.is_dead(to_native(board, module), nodes=nodes, seconds=seconds)
    return dead
