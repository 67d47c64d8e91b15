# SPDX-License-Identifier: GPL-3.0-or-later
"""Position keys for transposition tables, and the key after a move without playing it.

``Board.push`` is the single most expensive call of the search (about 20 us);
in confined positions most moves lead back to known positions, so computing
the successor's key directly skips most pushes.  The key ignores move
counters (the searches ignore the 50/75-move rules) and keeps the raw en
passant square (positions differing only there are just not merged).

Not the FIDE 9.2.2 key of the draw rules (:mod:`pychessdraw.position`):
that one drops an en passant square no legal capture uses and castling
rights that no longer exist, which needs the legal moves and so a played
position.  Merging fewer positions is harmless to a search, and a key that
``child_key`` can compute without a push is what makes the search fast.
"""

from __future__ import annotations

import chess

from .distances import DISTANCE

Key = tuple[int, int, int, int, int, int, int, bool, int, int | None]


def key(b: chess.Board) -> Key:
    """Key of the current position."""
    return (
        b.pawns,
        b.knights,
        b.bishops,
        b.rooks,
        b.queens,
        b.kings,
        b.occupied_co[chess.WHITE],
        b.turn,
        b.castling_rights,
        b.ep_square,
    )


def child_key(b: chess.Board, m: chess.Move) -> Key | None:
    """Key after legal move ``m``, or None for castling and en passant (push instead)."""
    fr, to = m.from_square, m.to_square
    fb = chess.BB_SQUARES[fr]
    tb = chess.BB_SQUARES[to]
    us = b.turn
    if b.occupied_co[us] & tb:
        return None  # Chess960-style castling encoding (king takes own rook)
    keep = ~(fb | tb)
    pawns, knights, bishops, rooks, queens, kings = (
        b.pawns & keep,
        b.knights & keep,
        b.bishops & keep,
        b.rooks & keep,
        b.queens & keep,
        b.kings & keep,
    )
    ep = None
    castling = b.castling_rights & keep
    if b.pawns & fb:
        diff = to - fr
        if diff in (16, -16):
            ep = fr + diff // 2
        elif diff % 8 and not b.occupied & tb:
            return None  # en passant
        mover = m.promotion or chess.PAWN
    elif b.kings & fb:
        if DISTANCE[fr][to] > 1:  # a table: this runs for every king move of the search
            return None  # castling
        castling &= ~(chess.BB_RANK_1 if us == chess.WHITE else chess.BB_RANK_8)
        mover = chess.KING
    elif b.knights & fb:
        mover = chess.KNIGHT
    elif b.bishops & fb:
        mover = chess.BISHOP
    elif b.rooks & fb:
        mover = chess.ROOK
    else:
        mover = chess.QUEEN
    if mover == chess.PAWN:
        pawns |= tb
    elif mover == chess.KNIGHT:
        knights |= tb
    elif mover == chess.BISHOP:
        bishops |= tb
    elif mover == chess.ROOK:
        rooks |= tb
    elif mover == chess.QUEEN:
        queens |= tb
    else:
        kings |= tb
    white = b.occupied_co[chess.WHITE]
    white = (white & ~fb) | tb if us == chess.WHITE else white & ~tb
    return (pawns, knights, bishops, rooks, queens, kings, white, not us, castling, ep)
