# SPDX-License-Identifier: GPL-3.0-or-later
"""The walk's board: python-chess's, with a shorter push for most moves.

``Board.push`` is the walk's largest single cost.  A move that neither
promotes, castles nor takes en passant (a pawn's step or capture, a
piece's move, a king's single step) changes only the men's bitboards, the
turn, the counters, the en passant square and, where a castling right is
left, the rights of the squares it leaves or enters (or of its king's
side): ``WalkBoard.push`` makes it so itself and leaves every other move
(castling, a promotion, en passant, a null move) to python-chess.  The
state is python-chess's own, to the bit, and so is the undo stack: ``pop``
is python-chess's.  On 1,500 real-game questions, the search alone: 6.0%
fewer instructions, and 1.4% fewer again once the moves where castling
rights are left were taken here too (with ``shorten``'s lines played on
it; ``benchmarks/README.md``).

Limits: it reads python-chess's private undo entry (``_BoardState``), so a
python-chess that changes it breaks this module's test first.
"""

from __future__ import annotations

import chess

from .distances import DISTANCE
from .legal import SQUARES

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
        """``Board.push``: python-chess's own, but for a move that neither
        promotes, castles nor takes en passant (``tests/test_walkboard.py``
        compares the two on random games, Chess960 included).  Like it, no
        legality test."""
        fr, to = move.from_square, move.to_square
        from_bb, to_bb = SQUARES[fr], SQUARES[to]
        rights = self.castling_rights
        if (
            move.promotion
            or move.drop
            or fr == to
            or to == self.ep_square  # en passant (no other move goes there)
            or (self.kings & from_bb and DISTANCE[fr][to] > 1)
            # castling in Chess960's encoding (the king onto its rook), or a king taken
            or (rights and to_bb & (self.occupied_co[self.turn] | self.kings))
        ):
            super().push(move)
            return
        self._stack.append(_BoardState(self))
        turn = self.turn
        if rights:
            # python-chess's: the rights cleaned first, then those of the
            # squares left or entered, and all of a king's side when it moves
            rights = self.clean_castling_rights() & ~(from_bb | to_bb)
            if self.kings & from_bb and not self.promoted & from_bb:
                rights &= ~(chess.BB_RANK_1 if turn == chess.WHITE else chess.BB_RANK_8)
            self.castling_rights = rights
        self.move_stack.append(move)
        pawn = self.pawns & from_bb
        # python-chess's: a double step sets the square passed, a capture possible or not
        self.ep_square = None if not pawn or to - fr not in (16, -16) else (fr + to) // 2
        if not turn:
            self.fullmove_number += 1
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
            self.halfmove_clock = 0 if pawn else self.halfmove_clock + 1
        path = from_bb | to_bb
        if pawn:
            self.pawns ^= path
        elif self.knights & from_bb:
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
