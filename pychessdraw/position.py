"""The position key of FIDE 9.2.2: what makes two positions "the same".

Same player to move, same pieces of the same kind and colour on the same
squares, and the same possible moves for both players. So castling rights
count (they are lost only once the king or rook has moved, not while castling
is merely impossible for a moment), and an en passant right counts only when
an en passant capture is actually legal: a pseudo-legal one that would expose
the king does not. Promoted pieces are pieces of their new kind.

This is the key of the draw rules (repetition). The dead-position search has
its own key (:mod:`pychessdraw.deadposition.keys`) with other semantics on
purpose: it keeps the raw en passant square and castling rights (merging
fewer positions is harmless there) and can be computed for a move without
playing it, which the search needs for speed. The two must not be mixed.
"""

from __future__ import annotations

from typing import NamedTuple

import chess


class PositionKey(NamedTuple):
    """The FIDE-relevant facts of a position, as bitboards (hashable)."""

    pawns: int
    knights: int
    bishops: int
    rooks: int
    queens: int
    kings: int
    white: int  #: squares occupied by White
    black: int  #: squares occupied by Black
    turn: chess.Color
    castling: int  #: castling rights that still exist (``Board.clean_castling_rights``)
    ep_square: int | None  #: only when an en passant capture is legal now

    @property
    def occupied(self) -> int:
        return self.white | self.black


_new = tuple.__new__  # a NamedTuple's own __new__ is a Python call; the key is built every ply


def position_key(board: chess.Board) -> PositionKey:
    """Return a key equal for exactly the FIDE-same positions."""
    ep = board.ep_square
    if ep is not None and not board.has_legal_en_passant():
        ep = None
    castling = board.clean_castling_rights() if board.castling_rights else 0
    return _new(
        PositionKey,
        (
            board.pawns,
            board.knights,
            board.bishops,
            board.rooks,
            board.queens,
            board.kings,
            board.occupied_co[chess.WHITE],
            board.occupied_co[chess.BLACK],
            board.turn,
            castling,
            ep,
        ),
    )
