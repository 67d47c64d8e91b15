"""Dead positions recognisable from material alone (FIDE 5.2.2, 6.9).

``cannot_mate(board, color)`` answers the flag-fall question of FIDE 6.9 by
material: True only when no series of legal moves can let ``color`` mate,
whatever the position of the pieces. The theorems themselves live in one
place, :func:`pychessdraw.deadposition.material.material_cannot_mate`,
which the dead-position search uses too; this module asks it.

It is sound: it never says "cannot mate" where a mate exists. It differs
from python-chess's ``has_insufficient_material`` (and lichess's rule) in
both directions. It knows less where the defender is in double check on a
board set up so (``8/8/8/8/8/2b1k1b1/8/3RKR2 w - -`` is mate by two bishops
of one colour): there it proves nothing. It knows more against rooks and
queens: bishops of one colour never mate a king defended only by rooks and
queens (one of them always parries a single check, and no move makes a
double check), so K+B v K+R is a flag-fall draw.

Limits: material only. A position whose pieces can never reach the king
(locked pawns) is left to the dead-position search.
"""

from __future__ import annotations

import chess

from ..deadposition.material import material_cannot_mate


def cannot_mate(board: chess.Board, color: chess.Color) -> bool:
    """True when ``color``'s material can never deliver mate (a proof)."""
    return material_cannot_mate(board, color) is not None


def is_insufficient_material(board: chess.Board) -> bool:
    """Dead by material: neither side can ever mate (automatic draw)."""
    return cannot_mate(board, chess.WHITE) and cannot_mate(board, chess.BLACK)
