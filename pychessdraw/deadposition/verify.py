# SPDX-License-Identifier: GPL-3.0-or-later
"""Replay a claimed helpmate line: the proof behind every ``True`` verdict."""

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
