# SPDX-License-Identifier: GPL-3.0-or-later
"""Check a claimed helpmate line: the proof behind every ``True`` verdict.

Two ways, with python-chess's own tests of legality and mate: replay a line
from a position (``verify_line``), or unwind a board on which the line was
just played (``verify_played``: no move is played again, and it is as
strict, since ``Board.pop`` restores exactly the position each move was
played from)."""

from __future__ import annotations

from collections.abc import Sequence

import chess


def verify_line(board: chess.Board, color: chess.Color, line: Sequence[chess.Move]) -> bool:
    """True iff ``line`` is legal from ``board`` and ends with ``color`` mating.

    Each move is tested as ``Board.is_legal`` tests it, in two halves:
    pseudo-legal before it is played (python-chess generates castling only
    when the king is not in check and crosses no attacked square), and the
    mover's king not attacked once it is played, which costs half of
    ``is_into_check`` on the unplayed move."""
    b = board.copy(stack=False)
    for move in line:
        if not b.is_pseudo_legal(move):
            return False
        b.push(move)
        if b.was_into_check():
            return False
    return b.is_checkmate() and b.turn != color


def verify_played(board: chess.Board, color: chess.Color, count: int, *, mated: bool = False) -> bool:
    """True iff ``board`` is mate by ``color`` and each of the last ``count``
    moves pushed on it was legal where it was played, by the same two tests
    as ``verify_line``.  ``mated``: the caller has just seen
    ``Board.is_checkmate`` hold on this very position (a mate-in-one probe
    pushes its move and asks), so it is not asked again.

    ``board`` is unwound by ``count`` moves, whatever the answer."""
    ok = board.turn != color and (mated or board.is_checkmate())
    for _ in range(count):
        ok = ok and not board.was_into_check()
        move = board.pop()
        ok = ok and board.is_pseudo_legal(move)
    return ok
