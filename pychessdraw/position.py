"""The position key of FIDE 9.2.2: what makes two positions "the same".

Same player to move, same pieces of the same kind and colour on the same
squares, and the same possible moves for both players. So castling rights
count (they are lost only once the king or rook has moved, not while castling
is merely impossible for a moment), and an en passant right counts only when
an en passant capture is actually legal: a pseudo-legal one that would expose
the king does not. Promoted pieces are pieces of their new kind.
"""

from __future__ import annotations

from typing import Hashable

import chess

Key = Hashable
CASTLING = 9  # index of the castling rights in a key


def position_key(board: chess.Board) -> Key:
    """Return a hashable key equal for exactly the FIDE-same positions."""
    ep = board.ep_square
    if ep is not None and not board.has_legal_en_passant():
        ep = None
    castling = board.clean_castling_rights() if board.castling_rights else 0
    return (
        board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
        board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK],
        board.turn, castling, ep,
    )
