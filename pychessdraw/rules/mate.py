"""Checkmate (FIDE 5.1.1) and stalemate (5.2.1): the side to move has no legal
move, in check or not."""

from __future__ import annotations

import chess


def has_legal_move(board: chess.Board) -> bool:
    # Stops at the first legal move: cheap in all but the rarest positions.
    return any(board.generate_legal_moves())


def is_checkmate(board: chess.Board) -> bool:
    return board.is_check() and not has_legal_move(board)


def is_stalemate(board: chess.Board) -> bool:
    return not board.is_check() and not has_legal_move(board)
