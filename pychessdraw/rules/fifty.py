"""The fifty-move rule (FIDE 9.3, a claim) and the seventy-five-move rule
(9.6.2, automatic). Counted in plies by the halfmove clock: 100 plies without a
pawn move or a capture for the claim, 150 for the automatic draw. A mate on
the 150th ply stands: the caller checks mate first."""

from __future__ import annotations

import chess

from .mate import is_mating_move

CLAIM_PLIES = 100
AUTOMATIC_PLIES = 150


def can_claim_now(halfmove_clock: int) -> bool:
    return halfmove_clock >= CLAIM_PLIES


def is_seventyfive_moves(halfmove_clock: int) -> bool:
    return halfmove_clock >= AUTOMATIC_PLIES


def intended_moves(board: chess.Board) -> list[chess.Move]:
    """Legal moves after which a fifty-move claim is correct (FIDE 9.3.1).

    Only meaningful one ply short of the limit: with the clock at 99 every
    move that is neither a pawn move nor a capture completes the fifty moves,
    except a move that checkmates: checkmate ends the game first (FIDE
    5.1.1), so it is no draw claim. A stalemating move stays (a draw either
    way). Returns nothing when the claim is already possible without a move.
    """
    if board.halfmove_clock != CLAIM_PLIES - 1:
        return []
    return [m for m in board.generate_legal_moves() if not board.is_zeroing(m) and not is_mating_move(board, m)]
