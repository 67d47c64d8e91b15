# SPDX-License-Identifier: GPL-3.0-or-later
"""Check a claimed helpmate line: the proof behind every ``True`` verdict.

Two ways, with python-chess's own tests of legality and mate: replay a line
from a position (``verify_line``), or unwind a board on which the line was
just played (``verify_played``: no move is played again, and it is as
strict, since ``Board.pop`` restores exactly the position each move was
played from).  The pseudo-legality of a piece's move or a pawn's plain
step or capture is read from python-chess's attack tables by its own rules
(``pseudo_legal``, tested against ``Board.is_pseudo_legal`` on every move
of random positions): its generic test cost a replay three times the pops."""

from __future__ import annotations

from collections.abc import Sequence

import chess


def verify_line(board: chess.Board, color: chess.Color, line: Sequence[chess.Move]) -> bool:
    """True iff ``line`` is legal from ``board`` and ends with ``color`` mating.

    Each move is tested as ``Board.is_legal`` tests it, in two halves:
    pseudo-legal before it is played (``pseudo_legal``: python-chess
    generates castling only when the king is not in check and crosses no
    attacked square), and the
    mover's king not attacked once it is played, which costs half of
    ``is_into_check`` on the unplayed move."""
    b = board.copy(stack=False)
    for move in line:
        if not pseudo_legal(b, move):
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
        ok = ok and pseudo_legal(board, move)
    return ok


def pseudo_legal(board: chess.Board, move: chess.Move) -> bool:
    """``board.is_pseudo_legal(move)``, the common moves answered first,
    by the same rules: a non-pawn man of the side to move onto a square its
    ``attacks_mask`` holds and no man of its own stands on (python-chess
    answers the same after its castling test, which a king's step never
    needs); a pawn's single step onto an empty square, or its capture of a
    man of the other side, short of the last rank.  Any other move (a
    castling, a double step, en passant, a promotion, a move that fails
    these tests) is python-chess's to answer."""
    fr, to = move.from_square, move.to_square
    fr_bb, to_bb = chess.BB_SQUARES[fr], chess.BB_SQUARES[to]
    turn = board.turn
    mine = board.occupied_co[turn]
    if fr_bb & mine and not (move.promotion or move.drop or to_bb & mine):
        if not fr_bb & board.pawns:
            if board.attacks_mask(fr) & to_bb:
                return True
        elif not to_bb & chess.BB_BACKRANKS:
            if to_bb & board.occupied_co[not turn]:
                if chess.BB_PAWN_ATTACKS[turn][fr] & to_bb:
                    return True
            elif to == fr + (8 if turn == chess.WHITE else -8) and not to_bb & board.occupied:
                return True
    return board.is_pseudo_legal(move)
