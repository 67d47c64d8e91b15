# SPDX-License-Identifier: GPL-3.0-or-later
"""Check a claimed helpmate line: the proof behind every ``True`` verdict.

Two ways, with python-chess's own tests of legality and mate: replay a line
from a position (``verify_line``), or unwind a board on which the line was
just played (``verify_played``: no move is played again, and it is as
strict, since ``Board.pop`` restores exactly the position each move was
played from).  The pseudo-legality of a piece's move or a pawn's step or
capture (promotions too) is read from python-chess's attack tables by its
own rules (``pseudo_legal``, tested against ``Board.is_pseudo_legal`` on
every move of random positions): its generic test cost a replay three
times the pops."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import chess

from .bitboards import DOUBLE_STEP_ENDS
from .legal import SQUARES


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
        if was_into_check(b):
            return False
    return b.is_checkmate() and b.turn != color


def verify_played(board: chess.Board, color: chess.Color, count: int) -> bool:
    """True iff ``board`` is mate by ``color`` and each of the last ``count``
    moves pushed on it was legal where it was played, by the same two tests
    as ``verify_line`` (the mate by ``Board.is_checkmate``, whoever found it).

    ``board`` is unwound by ``count`` moves, whatever the answer."""
    ok = board.turn != color and board.is_checkmate()
    pop = board.pop
    for _ in range(count):
        ok = ok and not was_into_check(board)
        move = pop()
        ok = ok and pseudo_legal(board, move)
    return ok


def was_into_check(board: chess.Board) -> bool:
    """``board.was_into_check()``: is the king of the side that just moved
    attacked?  Its king found and its attackers asked here, one call."""
    king = board.kings & board.occupied_co[not board.turn] & ~board.promoted  # ``board.king(not board.turn)``
    return bool(king) and bool(board.attackers_mask(board.turn, king.bit_length() - 1))


def pseudo_legal(board: chess.Board, move: chess.Move) -> bool:
    """``board.is_pseudo_legal(move)``, the common moves answered first,
    by the same rules: a non-pawn man of the side to move onto a square its
    ``attacks_mask`` holds and no man of its own stands on (python-chess
    answers the same after its castling test, which a king's step never
    needs); a pawn's single or double step onto empty squares, or its
    capture of a man of the other side, with a promotion to a queen, rook,
    bishop or knight exactly where it reaches the last rank (a double step
    ends on the third or fourth rank from its side, as python-chess
    generates it).  Any other move (a castling, en passant, a move that
    fails these tests) is python-chess's to answer."""
    fr, to = move.from_square, move.to_square
    fr_bb, to_bb = SQUARES[fr], SQUARES[to]
    turn = board.turn
    mine = board.occupied_co[turn]
    if not fr_bb & mine or move.drop or to_bb & mine:
        return board.is_pseudo_legal(move)
    if not fr_bb & board.pawns:
        if not move.promotion and board.attacks_mask(fr) & to_bb:
            return True
    elif move.promotion in _PROMOTIONS if to_bb & chess.BB_BACKRANKS else not move.promotion:
        if to_bb & board.occupied_co[not turn]:
            if chess.BB_PAWN_ATTACKS[turn][fr] & to_bb:
                return True
        elif not to_bb & board.occupied:
            step = 8 if turn == chess.WHITE else -8
            if to == fr + step:
                return True
            if to == fr + 2 * step and not SQUARES[fr + step] & board.occupied and to_bb & DOUBLE_STEP_ENDS[turn]:
                return True
    return board.is_pseudo_legal(move)


_PROMOTIONS: Final = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)
