# SPDX-License-Identifier: GPL-3.0-or-later
"""The walk's board: python-chess's, with a shorter push for a piece's move.

``Board.push`` is the walk's largest single cost.  Where no castling right
is left (nearly every position the dives meet), a move by a knight, bishop,
rook, queen or a king's single step, capture or not, changes only the men's
bitboards, the turn and the counters: ``WalkBoard.push`` makes it so itself
and leaves every other move (a pawn's, castling, a promotion, a null move)
to python-chess.  The state is python-chess's own, to the bit, and so is
the undo stack: ``pop`` is python-chess's.  The search alone: on 1,500
real-game questions 4.0% fewer instructions (``benchmarks/README.md``).

Limits: it reads python-chess's private undo entry (``_BoardState``), so a
python-chess that changes it breaks this module's test first.
"""

from __future__ import annotations

import chess

SQUARES = chess.BB_SQUARES
# What ``Board.pop`` restores: the entry python-chess's own push makes.
_BoardState = chess._BoardState  # noqa: SLF001


class WalkBoard(chess.Board):
    """A ``chess.Board`` whose ``push`` is shorter for the common moves."""

    @classmethod
    def of(cls, board: chess.Board) -> WalkBoard:
        """A copy of ``board`` without its move stack, as a ``WalkBoard``."""
        copy = cls(None, chess960=board.chess960)
        copy.pawns, copy.knights, copy.bishops = board.pawns, board.knights, board.bishops
        copy.rooks, copy.queens, copy.kings = board.rooks, board.queens, board.kings
        copy.occupied_co[chess.WHITE] = board.occupied_co[chess.WHITE]
        copy.occupied_co[chess.BLACK] = board.occupied_co[chess.BLACK]
        copy.occupied, copy.promoted = board.occupied, board.promoted
        copy.turn, copy.castling_rights, copy.ep_square = board.turn, board.castling_rights, board.ep_square
        copy.halfmove_clock, copy.fullmove_number = board.halfmove_clock, board.fullmove_number
        return copy

    def push(self, move: chess.Move) -> None:
        """``Board.push``: python-chess's own, but for a piece's move where no
        castling right is left (``tests/test_walkboard.py`` compares the two
        on random games, Chess960 included).  Like it, no legality test."""
        fr, to = move.from_square, move.to_square
        from_bb = SQUARES[fr]
        if (
            self.castling_rights
            or move.promotion
            or move.drop
            or fr == to
            or self.pawns & from_bb
            or (self.kings & from_bb and chess.square_distance(fr, to) > 1)
        ):
            super().push(move)
            return
        self._stack.append(_BoardState(self))
        self.move_stack.append(move)
        self.ep_square = None
        turn = self.turn
        if not turn:
            self.fullmove_number += 1
        to_bb = SQUARES[to]
        if self.occupied & to_bb:
            self.halfmove_clock = 0
            keep = ~to_bb
            self.pawns &= keep
            self.knights &= keep
            self.bishops &= keep
            self.rooks &= keep
            self.queens &= keep
            self.kings &= keep
            self.promoted &= keep
            self.occupied_co[not turn] &= keep
        else:
            self.halfmove_clock += 1
        path = from_bb | to_bb
        if self.knights & from_bb:
            self.knights ^= path
        elif self.bishops & from_bb:
            self.bishops ^= path
        elif self.rooks & from_bb:
            self.rooks ^= path
        elif self.queens & from_bb:
            self.queens ^= path
        else:
            self.kings ^= path
        if self.promoted & from_bb:
            self.promoted ^= path
        self.occupied_co[turn] ^= path
        self.occupied = self.occupied_co[chess.WHITE] | self.occupied_co[chess.BLACK]
        self.turn = not turn
