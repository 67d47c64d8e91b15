# SPDX-License-Identifier: GPL-3.0-or-later
"""Material-only proofs that a side can never checkmate.

Every rule here is a theorem about *all* positions with the given material
(one of them also asks that the defender is not in double check now), so it
stays true after any capture (material only shrinks) and needs no search.
Pawns can promote, so a rule applies only when the pawns that could change
the argument are absent.

Limits: only the classic cases are covered (bare king; bishops of one square
colour with nothing to block; a lone bishop against rooks and queens; bishops
of one colour against a single rook or queen, or against rooks and queens
when the defender is not in double check; a lone knight).  Everything
else returns ``None`` (no proof).

Small material, decided by material alone.  Without pawns and with at most
three men besides the kings, the material of a side that is to mate falls
in one of two classes, and ``tests/test_deadposition_small.py`` checks
every one of the 164 materials (each colour of each bishop) for it:

- it cannot mate, by the theorems here: a bare king; a lone knight against
  nothing or queens only (K+N v K, K+N v K+Q, K+N v K+Q+Q); bishops of one
  colour against nothing of the other colour, a single rook or queen, or
  (a lone bishop) rooks and queens (K+B v K, K+B v K+B of the same colour,
  K+B v K+R, K+B+B of one colour v K+R, ...);
- or it can, and a checkmate with exactly that material exists with the
  defender's king in a corner (``patterns.PATTERNS``, each one checked a
  mate by python-chess): K+N v K+N, K+N v K+B, K+N v K+R (the knight mates
  with the defender's own man on the corner's last flight), K+B v K+B of
  the other colour, K+B v K+N, K+N+N v K, K+B+N v K, K+B+B of both colours
  v K, and every material with a rook or a queen.

So the material proves "cannot" or names a mate pattern, and the
position alone decides whether that mate is reached: a position may be
forced away from it (a single legal reply that captures, a stalemate on the
board), which the pipeline settles before (``solver``); a pattern is then
reached by the directed search (``directed``), whose line python-chess
replays, and where it is not within its budget the general search decides.
Pawns can promote: a pawn of the mating side is planned as a queen, the
other side's as any piece it may become.

With pawns, at most five men, no material theorem is claimed (a pawn
may promote to any piece, under-promote to the blocker a knight's mate
needs, or stand as a blocker itself): K+N v K+P and K+B v K+P can mate
(the pawn promotes into the blocker, or blocks on its own file), but a
position may still be forced away from every mate (a stalemate, a single
legal reply that takes the last pawn).  There "can" comes with a line (the walk
towards a pattern, the dives, the deepening search), and "cannot" only
from the exhaustive walk over every reachable position, or the
reachability proof over pawns locked head-on, each sound on its own
(``solver``).  En passant and castling rights change no class above:
the classes are of material, and neither move adds a man; a bishops-only
side has no rook to castle with.  ``tests/test_deadposition_small.py``
decides random positions of at most five men (10,000 of them in the
full suite) and compares every answer with CHA's.
"""

from __future__ import annotations

from typing import Final

import chess

_DARK: Final = chess.BB_DARK_SQUARES
_LIGHT: Final = chess.BB_LIGHT_SQUARES


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
        return _bishops_cannot_mate(board, color, bishops, theirs)

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


def _bishops_cannot_mate(
    board: chess.BaseBoard, color: chess.Color, bishops: chess.Bitboard, theirs: chess.Bitboard
) -> str | None:
    """The theorems for a side whose only men are bishops (no pawn on either
    side: the caller has checked).

    If the bishops do not all stand on one square colour, None (no proof).
    Say they are all dark.  Then they attack only dark squares, and a king in
    check stands on a dark square k.  Its orthogonal neighbours (4 inside the
    board, 3 on an edge, 2 in a corner) are light: no bishop attacks them, and
    the only other attacker, our king, stands two or more files or ranks
    away from k, so it touches at most one of them (from two files away it
    reaches only the neighbour on that side; from a diagonal distance of two,
    none).  A light neighbour that our king does not touch is a flight unless
    one of the defender's own men stands on it (ours cannot: our bishops are
    dark, our king may not stand next to the other).  So a mate needs, on
    light squares next to the king, at least 3 of the defender's men inside
    the board, 2 on an edge, 1 in a corner.

    - Nothing of the defender's can stand on a light square (a bare king, or
      only dark bishops): no mate ever.
    - Exactly one man of the defender's can, and it is a rook or a queen:
      only a corner mate is left, with that man on the corner's one flight
      our king does not touch (a2 for a king on a1, say).  The check then
      comes along the long diagonal (b2 is its first square, the checker
      itself or an empty square in the line; two checks along one line are
      impossible).  The rook or queen steps orthogonally from a2 to b2,
      taking or blocking.  It cannot be pinned: a2-a1 is not a diagonal and
      we have no rook or queen.  So every check is parried: no mate ever.
    - A single bishop against rooks and queens (any number): of the two
      light neighbours next to the first square d of the checking diagonal,
      our king touches at most one, so a rook or queen stands on the other;
      standing orthogonally next to its king it cannot be pinned by a bishop
      and steps onto d, taking or blocking.  Only a double check could stop
      that, and that needs a second checker.

    - Several bishops against rooks and queens only (any number), the
      defender not in double check now: no mate ever (``_always_parried``).

    These classes are closed under every move (material only shrinks, no
    pawn can promote), so "no mate in any position of the class" is "no
    mate by any series of legal moves".  Outside them there is no proof: a
    knight or a bishop of the other colour beside a rook can be the blocker
    that does not parry, and so does a lone knight blocking the corner's
    other flight (``8/8/8/8/8/8/nBK5/k7 b - -`` is mate)."""
    if not (bishops & _LIGHT):
        other = _LIGHT
    elif not (bishops & _DARK):
        other = _DARK
    else:
        return None
    # The defender's men that can ever stand on the other colour: the
    # defender's own rooks and queens DO count as blockers.
    blockers = theirs & (board.knights | board.rooks | board.queens | (board.bishops & other))
    if not blockers:
        return "only bishops of one colour, nothing to block the other colour"
    if not (blockers & ~(board.rooks | board.queens)):
        if chess.popcount(blockers) == 1:
            return "bishops of one colour cannot mate against a single rook or queen: it always parries"
        if chess.popcount(bishops) == 1:
            return "a lone bishop cannot mate against rooks and queens: they always parry"
        if _always_parried(board, color):
            return "bishops of one colour cannot mate against rooks and queens: one of them always parries"
    return None


def _always_parried(board: chess.BaseBoard, color: chess.Color) -> bool:
    """For ``color``'s bishops, all of one colour, against men of the other
    colour that are all rooks and queens (no pawns anywhere): is the
    defender's king out of double check (and of a check by ``color``'s king,
    which only a board set up with the kings side by side has)?  Then no
    mate can ever follow.

    Proof.  First, no double check can arise by a move: the king gives no
    check, there is no pawn to promote and no rook to castle with, and a
    bishop that leaves one diagonal through the king moves along its other
    diagonal, which is parallel to the king's other diagonal, so it cannot
    check from where it lands.
    So every check after a move comes from one bishop, along a diagonal
    whose first square d is a diagonal neighbour of the king.  The two
    squares next to both the king and d are of the other colour, and our
    king (two squares or more from the defender's) touches at most one
    of them (the only squares next to both are the king's and d).  The
    other one, a flight otherwise, holds one of the defender's men that
    can stand there: a rook or a queen.  It steps orthogonally onto d,
    taking the checker or blocking, and it cannot be pinned (the line
    between it and its king is orthogonal).  This holds for a single
    check set up on a board too, so only the present position can be a
    double check, which the condition excludes (as
    ``8/8/8/8/8/2b1k1b1/8/3RKR2 w - -``, mate, never reached by a legal
    move from a position without pawns), and a check by our king, which
    only a position set up with the kings side by side has."""
    loser_king = board.king(not color)
    if loser_king is None:
        return False
    checkers = board.attackers_mask(color, loser_king)
    return not checkers & (checkers - 1) and not checkers & board.kings
