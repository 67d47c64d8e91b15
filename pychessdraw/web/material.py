"""The material difference the player bars show, as chess sites show it:
the side ahead gets "+3" (pawn 1, knight and bishop 3, rook 5, queen 9), and
each side the pieces it is up by, piece type by piece type ("captured"
pieces net of the other side's, so a promotion shows as a queen up).

Limits: a count of the pieces on the board, not an evaluation; the kings
are never counted. Facts of one position, the one shown.
"""

from __future__ import annotations

import chess

from ..contract import ByColor
from .contract import MaterialView

VALUES: dict[chess.PieceType, int] = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
# the order chess sites list captured pieces in: the smallest first
ORDER = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)


def material(board: chess.Board) -> ByColor[MaterialView]:
    """Each side's lead on the board: "+3" for the side ahead ("" for the
    other and for both when level), and the pieces (as the opponent's
    figurine symbols) it has more of than the opponent."""
    extra: dict[chess.Color, list[str]] = {chess.WHITE: [], chess.BLACK: []}
    score = 0
    for kind in ORDER:
        n = len(board.pieces(kind, chess.WHITE)) - len(board.pieces(kind, chess.BLACK))
        score += n * VALUES[kind]
        ahead = chess.WHITE if n > 0 else chess.BLACK
        # the pieces the opponent misses: shown in the opponent's colour, as taken
        extra[ahead] += [chess.Piece(kind, not ahead).unicode_symbol()] * abs(n)

    def view(color: chess.Color) -> MaterialView:
        lead = score if color == chess.WHITE else -score
        return {"advantage": f"+{lead}" if lead > 0 else "", "value": lead, "captured": "".join(extra[color])}

    return {"white": view(chess.WHITE), "black": view(chess.BLACK)}
