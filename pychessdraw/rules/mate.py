"""Checkmate (FIDE 5.1.1) and stalemate (5.2.1): the side to move has no legal
move, in check or not. The game asks :func:`has_legal_move` once per position
and tells the two apart by ``board.is_check()``."""

from __future__ import annotations

import chess


def has_legal_move(board: chess.Board) -> bool:
    # Stops at the first legal move: cheap in all but the rarest positions.
    return any(board.generate_legal_moves())


def is_mating_move(board: chess.Board, move: chess.Move) -> bool:
    """Whether legal ``move`` checkmates. A mating move is never offered as
    an intended move for a draw claim: the mate ends the game first."""
    if not board.gives_check(move):
        return False
    board.push(move)
    try:
        return not has_legal_move(board)
    finally:
        board.pop()
