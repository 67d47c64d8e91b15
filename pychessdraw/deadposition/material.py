# SPDX-License-Identifier: GPL-3.0-or-later
"""Material-only proofs that a side can never checkmate.

Every rule here is a theorem about *all* positions with the given material,
so it stays true after any capture (material only shrinks) and needs no
search.  Pawns can promote, so a rule applies only when the pawns that could
change the argument are absent.

Limits: only the classic cases are covered (bare king; bishops of one square
colour; a lone bishop against rooks and queens; a lone knight).  Everything else returns ``None`` (no proof).
"""

from __future__ import annotations

import chess

_DARK = chess.BB_DARK_SQUARES
_LIGHT = chess.BB_LIGHT_SQUARES


def material_cannot_mate(board: chess.BaseBoard, color: chess.Color) -> str | None:
    """Return a reason if ``color``'s material can never deliver mate, else None."""
    us = board.occupied_co[color]
    them = board.occupied_co[not color]
    ours = us & ~board.kings
    if not ours:
        return "bare king"
    if ours & board.pawns:
        return None  # a pawn may promote to anything
    theirs = them & ~board.kings
    if theirs & board.pawns:
        return None  # their pawns can block, or promote into blockers

    bishops = ours & board.bishops
    if bishops == ours:
        # All mating force is bishops.  If they share one square colour they
        # only ever attack that colour; the king's orthogonal neighbours are of
        # the other colour and our king can cover at most one pattern of them,
        # so the other side must supply blockers standing on the other colour.
        # Note the other side's rooks and queens DO count as blockers
        # (8/8/8/8/8/2b1k1b1/8/3RKR2 w is mate by two dark bishops).
        if not (bishops & _LIGHT):
            other = _LIGHT
        elif not (bishops & _DARK):
            other = _DARK
        else:
            return None
        blockers = theirs & (board.knights | board.rooks | board.queens | (board.bishops & other))
        if not blockers:
            return "only bishops of one colour, nothing to block the other colour"
        if chess.popcount(bishops) == 1 and not (blockers & ~(board.rooks | board.queens)):
            # A single bishop against rooks and queens (and bishops of its
            # colour): of the king's two orthogonal neighbours next to the
            # first square d of the checking diagonal (both of the other
            # colour), our king covers at most one, so a rook or queen stands
            # on the other.  Standing orthogonally next to its king it cannot
            # be pinned by a bishop, and it can always step onto d, capturing
            # or blocking.  Only a double check could prevent that, and that
            # needs a second checking piece.  (Brute-forced for K+B v K+Q and
            # K+B v K+R: no checkmate exists.)
            return "a lone bishop cannot mate against rooks and queens: they always parry"
        return None

    if ours & board.knights == ours and chess.popcount(ours) == 1:
        # A lone knight mates only with the help of an enemy blocker that does
        # not attack the knight's checking squares; queens always do.
        if not (theirs & (board.knights | board.bishops | board.rooks)):
            return "lone knight with nothing to block"
    return None


def needs_blockers(board: chess.BaseBoard, color: chess.Color) -> bool:
    """Can ``color`` mate only with the other side's help as blockers?  True
    for a lone knight, or bishops all of one square colour, with no pawn,
    rook or queen: such material never mates a bare king."""
    ours = board.occupied_co[color] & ~board.kings
    if not ours or ours & (board.pawns | board.rooks | board.queens):
        return False
    knights = ours & board.knights
    if knights:
        return knights == ours and not knights & (knights - 1)
    return not (ours & _DARK and ours & _LIGHT)
