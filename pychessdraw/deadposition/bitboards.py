# SPDX-License-Identifier: GPL-3.0-or-later
"""Small set-of-squares helpers on python-chess integer bitboards."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import chess

ALL: Final = chess.BB_ALL
_NOT_A: Final = ~chess.BB_FILE_A & ALL
_NOT_H: Final = ~chess.BB_FILE_H & ALL
_NOT_AB: Final = ~(chess.BB_FILE_A | chess.BB_FILE_B) & ALL
_NOT_GH: Final = ~(chess.BB_FILE_G | chess.BB_FILE_H) & ALL
# Where python-chess lets a double step end (both ranks: a pawn on its first
# rank steps twice onto the third).
DOUBLE_STEP_ENDS: Final = {
    chess.WHITE: chess.BB_RANK_3 | chess.BB_RANK_4,
    chess.BLACK: chess.BB_RANK_6 | chess.BB_RANK_5,
}


def orth_step(b: int) -> int:
    """Squares one rook step away from any square of ``b``."""
    return (((b << 8) | (b >> 8)) & ALL) | ((b << 1) & _NOT_A) | ((b >> 1) & _NOT_H)


def diag_step(b: int) -> int:
    """Squares one bishop step away from any square of ``b``."""
    return (((b << 9) | (b >> 7)) & _NOT_A) | (((b << 7) | (b >> 9)) & _NOT_H)


def king_step(b: int) -> int:
    """Squares one king step away from any square of ``b``."""
    return orth_step(b) | diag_step(b)


def knight_step(b: int) -> int:
    """Squares one knight jump away from any square of ``b``."""
    return (
        (((b << 17) | (b >> 15)) & _NOT_A)
        | (((b << 15) | (b >> 17)) & _NOT_H)
        | (((b << 10) | (b >> 6)) & _NOT_AB)
        | (((b << 6) | (b >> 10)) & _NOT_GH)
    ) & ALL


def pawn_attacks(b: int, color: chess.Color) -> int:
    """Squares attacked by pawns of ``color`` standing on ``b``."""
    if color == chess.WHITE:
        return (((b << 9) & _NOT_A) | ((b << 7) & _NOT_H)) & ALL
    return ((b >> 7) & _NOT_A) | ((b >> 9) & _NOT_H)


def pawn_push(b: int, color: chess.Color) -> int:
    """Squares one pawn step forward from ``b``."""
    return ((b << 8) & ALL) if color == chess.WHITE else (b >> 8)


def flood(start: int, step: Callable[[int], int], allowed: int) -> int:
    """All squares reachable from ``start`` by repeated ``step`` inside ``allowed``."""
    reach = start
    while True:
        grown = reach | (step(reach) & allowed)
        if grown == reach:
            return reach
        reach = grown
