# SPDX-License-Identifier: GPL-3.0-or-later
"""The legal moves of the walk, in its order, tested for legality once per position.

The walk's orders (``ordering.staged_moves`` and ``dive_moves``) yield
pseudo-legal moves.  Testing each with ``Board.is_into_check`` recomputes the
king, its checkers and its pinned pieces for every move; measured on
real-game positions, almost half the moves the dive tried were illegal (most
of them while the side to move was in check).  Here the checkers and pins
are computed once: in check, a move must be one of python-chess's own legal
evasions; otherwise a pseudo-legal move is legal unless it is a king step
onto an attacked square, a pinned piece leaving its line, or an en passant
capture that exposes the king (left to ``is_into_check``).  The same tests
as python-chess's legal move generator, through its public API only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import chess


Order = Callable[[chess.Board, chess.Color], Iterator[chess.Move]]


def legal_moves(board: chess.Board, winner: chess.Color, order: Order,
                checkers: int | None = None) -> Iterator[chess.Move]:
    """The legal moves among ``order(board, winner)``'s, in its order.

    ``board`` must stay at this position while the iterator is advanced;
    ``checkers``, if the caller has them, saves computing them again."""
    legal = legality(board, checkers)
    if legal is None:  # in check: python-chess's own evasions, few
        evasions = set(board.generate_legal_moves())
        return (move for move in order(board, winner) if move in evasions)
    return (move for move in order(board, winner) if legal(move))


def legality(board: chess.Board, checkers: int | None = None) -> Callable[[chess.Move], bool] | None:
    """A test of the pseudo-legal moves of ``board`` (as it stands now), or
    None when the side to move is in check (then use python-chess's evasions).
    ``checkers``: ``board.checkers_mask()``, if the caller has it."""
    us = board.turn
    king = board.king(us)
    if king is None:
        return lambda move: True  # no king: nothing is illegal
    them = not us
    if board.attackers_mask(them, king) if checkers is None else checkers:
        return None
    pins = -1  # computed at the first move that is not the king's
    ep = board.ep_square

    def legal(move: chess.Move) -> bool:
        nonlocal pins
        fr = move.from_square
        if fr == king:
            # generated castling is already legal (python-chess tests the path)
            return board.is_castling(move) or not board.is_attacked_by(them, move.to_square)
        if move.to_square == ep and board.is_en_passant(move):
            return not board.is_into_check(move)
        if pins < 0:
            pins = pinned(board, us, king)
        return not pins & chess.BB_SQUARES[fr] or bool(chess.ray(fr, move.to_square) & chess.BB_SQUARES[king])

    return legal


def pinned(board: chess.Board, color: chess.Color, king: chess.Square) -> int:
    """``color``'s pieces that alone stand between its king and an enemy slider."""
    return lone_blockers(board, king, not color) & board.occupied_co[color]


def lone_blockers(board: chess.Board, square: chess.Square, color: chess.Color) -> int:
    """Pieces of either colour that alone stand between ``square`` and a slider
    of ``color`` aiming at it (pinned pieces, or pieces that unmask a check)."""
    theirs = board.occupied_co[color]
    straight = (board.rooks | board.queens) & theirs
    diagonal = (board.bishops | board.queens) & theirs
    snipers = ((chess.BB_RANK_ATTACKS[square][0] | chess.BB_FILE_ATTACKS[square][0]) & straight
               | chess.BB_DIAG_ATTACKS[square][0] & diagonal)
    blockers = 0
    for sniper in chess.scan_forward(snipers):
        between = chess.between(square, sniper) & board.occupied
        if between and not between & (between - 1):
            blockers |= between
    return blockers
