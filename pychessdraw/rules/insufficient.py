"""Dead positions recognisable from material alone (FIDE 5.2.2, 6.9).

``cannot_mate(board, color)`` answers the flag-fall question of FIDE 6.9 by
material: True only when no series of legal moves can let ``color`` mate,
whatever the position of the pieces. The theorems themselves live in one
place, :func:`pychessdraw.deadposition.material.material_cannot_mate`,
which the dead-position search uses too; this module asks it.

It is sound: it never says "cannot mate" where a mate exists. It differs
from python-chess's ``has_insufficient_material`` (and lichess's rule),
which overlook that the defender's own rooks and queens can block its king,
so that two bishops of one colour mate, as in ``8/8/8/8/8/2b1k1b1/8/3RKR2 w - -``.
It knows more in one case: a lone bishop never mates against rooks and
queens (they always parry the check), so K+B v K+R is a flag-fall draw.

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
