# SPDX-License-Identifier: GPL-3.0-or-later
"""Replay a claimed helpmate line: the proof behind every ``True`` verdict."""

from __future__ import annotations

from collections.abc import Sequence

import chess


def verify_line(board: chess.Board, color: chess.Color, line: Sequence[chess.Move]) -> bool:
    """True iff ``line`` is legal from ``board`` and ends with ``color`` mating."""
    b = board.copy(stack=False)
    for move in line:
        if not b.is_legal(move):
            return False
        b.push(move)
    return b.is_checkmate() and b.turn != color
