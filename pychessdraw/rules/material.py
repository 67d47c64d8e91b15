"""Dead positions recognisable from material alone (FIDE 5.2.2, 6.9).

``cannot_mate(board, color)`` answers the flag-fall question of FIDE 6.9 by
material: True only when no series of legal moves can let ``color`` mate,
whatever the position of the pieces. It is sound: it never says "cannot mate"
where a mate exists. It differs from python-chess's
``has_insufficient_material`` (and lichess's rule), which overlook that the
defender's own rooks and queens can block its king, so that bishops of one
colour mate, as in ``8/8/8/8/8/2b1k1b1/8/3RKR2 w - -``.

Limits: material only. A position whose pieces can never reach the king
(locked pawns) is left to the dead-position search.
"""

from __future__ import annotations

import chess


def cannot_mate(board: chess.Board, color: chess.Color) -> bool:
    ours = board.occupied_co[color]
    theirs = board.occupied_co[not color]
    if ours & (board.pawns | board.rooks | board.queens):
        return False
    knights = ours & board.knights
    bishops = ours & board.bishops
    if not knights and not bishops:
        return True  # a bare king never gives check
    if knights:
        # A lone knight mates only against a king boxed in by its own pieces;
        # queens cannot serve: one next to the king always attacks the knight's
        # square or is itself the only blocker of the only flight square.
        lone = chess.popcount(ours) == 2
        return lone and not (theirs & ~board.kings & ~board.queens)
    # Only bishops. If all bishops on the board share one square colour, the
    # mated king needs flight squares of the other colour blocked, and only
    # the defender's pawns, knights, rooks or queens can stand there.
    all_bishops = board.bishops
    one_colour = not (all_bishops & chess.BB_DARK_SQUARES) or not (all_bishops & chess.BB_LIGHT_SQUARES)
    blockers = theirs & (board.pawns | board.knights | board.rooks | board.queens)
    return one_colour and not blockers


def is_insufficient_material(board: chess.Board) -> bool:
    """Dead by material: neither side can ever mate (automatic draw)."""
    return cannot_mate(board, chess.WHITE) and cannot_mate(board, chess.BLACK)
