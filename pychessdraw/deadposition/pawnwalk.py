# SPDX-License-Identifier: GPL-3.0-or-later
"""The walk's order where the mating side's pawns must be set free first.

Where the side that is to mate (the winner) has only its king and pawns,
and a pawn of the other side (the loser) stands ahead of each of its pawns
on its file, no pawn of the winner promotes unless the loser hands it a
piece to take: a capture moves a pawn onto another file, and from a file
with no loser's pawn ahead it runs to promote.  Where the loser has no
such piece either, it must make one: its king takes a winner's pawn that
stands ahead of a loser's pawn on its file, that pawn runs and promotes,
and the new piece walks onto a square a winner's pawn attacks.  The plan
is long (``1k6/1P1p1p1p/BP6/1P5p/8/5K2/3P1P1P/8 w - -``, "can Black
mate?", takes some eighty plies) but each step is obvious; the walk in
this order meets it after a few thousand positions, where the general
orders need millions.

Steps, each side's moves in this order: the winner takes (a piece the
loser handed it), queens, pushes a pawn with a free file ahead, then its
other pawns, then its king; once it has a piece the ordinary dive's order
(``ordering.dive_moves``) takes over.  The loser puts a piece where a
winner's pawn can take it, promotes (a knight first: it reaches every
square), pushes its free pawns, its king takes a winner's pawn that stops
one of its pawns and steps towards the nearest such pawn, then the rest.

Where the winner also has knights or bishops (no rook or queen) and the
loser only its king and pawns (``king_must_free``), nothing is handed
over: the winner's king takes the loser's pawns ahead of its own, the
freed pawn runs and queens, and the pieces stay where they are (in
``1k6/1P1p1p1p/BP6/1P5p/8/5K2/3P1P1P/8 w - -``, "can White mate?", they
wall in Black's king).  Each side's moves in this order
(``king_frees_walk_moves``): the winner queens, takes a pawn that stops
one of its pawns, pushes a free pawn, steps out of its way, steps towards
the nearest such pawn (one stopping a pawn alone first), then its other
pawns, its king, its pieces last; the loser steps its pawns one square
(tempo: a double step spends two moves' worth in one), then the rest,
captures last.

It is only an order: the walk (``closure.explore``) stays exhaustive and
sound whatever the order, and its lines are replayed by python-chess.
Limits: only the plans above (a capture by the loser's king, one
promotion, one hand-over; or the winner's king freeing its pawns); other
freeing plans are left to the general search.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import chess

from .distances import DISTANCE, KNIGHT_DISTANCE
from .ordering import dive_moves

UNDER: tuple[chess.PieceType, ...] = (chess.KNIGHT, chess.QUEEN, chess.ROOK, chess.BISHOP)


def applies(board: chess.BaseBoard, winner: chess.Color) -> bool:
    """Has ``winner`` only its king and pawns, each pawn with a loser's
    pawn ahead of it on its file (so none of them promotes unaided)?"""
    ours = board.occupied_co[winner] & ~board.kings
    if not ours or ours & ~board.pawns:
        return False
    theirs = board.occupied_co[not winner] & board.pawns
    return all(_ahead(square, winner) & theirs for square in chess.scan_forward(ours))


def _ahead(square: chess.Square, color: chess.Color) -> chess.Bitboard:
    """The squares ahead of ``square`` on its file, seen from ``color``."""
    rank = chess.square_rank(square)
    file = chess.BB_FILES[chess.square_file(square)]
    ranks = chess.BB_ALL << 8 * (rank + 1) if color == chess.WHITE else chess.BB_ALL >> 8 * (8 - rank)
    return file & ranks & chess.BB_ALL


def _free(board: chess.BaseBoard, color: chess.Color) -> chess.Bitboard:
    """``color``'s pawns that can step and have no pawn ahead on their file."""
    pawns = board.occupied_co[color] & board.pawns
    step = 8 if color == chess.WHITE else -8
    return sum(
        chess.BB_SQUARES[s]
        for s in chess.scan_forward(pawns)
        if not _ahead(s, color) & board.pawns and not board.occupied & chess.BB_SQUARES[s + step]
    )


def _stoppers(board: chess.BaseBoard, winner: chess.Color) -> chess.Bitboard:
    """The winner's pawns ahead of a loser's pawn on its file (the loser's
    king takes one to set that pawn free)."""
    loser = not winner
    pawns = board.occupied_co[loser] & board.pawns
    ours = board.occupied_co[winner] & board.pawns
    found = 0
    for square in chess.scan_forward(pawns):
        found |= _ahead(square, loser) & ours
    return found


def _feeding(board: chess.BaseBoard, winner: chess.Color) -> chess.Bitboard:
    """The empty squares or loser's men a winner's pawn attacks."""
    attacked = 0
    for pawn in chess.scan_forward(board.occupied_co[winner] & board.pawns):
        attacked |= chess.BB_PAWN_ATTACKS[winner][pawn]
    return attacked & ~board.occupied_co[winner] & ~board.kings


def pawn_walk_moves(board: chess.Board, winner: chess.Color, checkers: int | None = None) -> Iterator[chess.Move]:
    """Every pseudo-legal move of ``board`` in the plan's order (the module's docstring)."""
    if board.occupied_co[winner] & ~board.kings & ~board.pawns:
        return dive_moves(board, winner, checkers)
    moves = list(board.generate_pseudo_legal_moves())
    score = _winner_scores(board, winner) if board.turn == winner else _loser_scores(board, winner)
    scored = [(score(move), i, move) for i, move in enumerate(moves)]
    scored.sort(key=lambda item: (-item[0], item[1]))
    return (move for _, _, move in scored)


def _winner_scores(board: chess.Board, winner: chess.Color) -> Callable[[chess.Move], int]:
    """Higher first: captures, queening, a free pawn's push, the push of a
    pawn the loser's king is to take (nearest it first), other pushes, the king."""
    free = _free(board, winner)
    stoppers = _stoppers(board, winner)
    them = board.occupied_co[not winner]
    king = board.king(not winner)

    def score(move: chess.Move) -> int:
        fr, to = move.from_square, move.to_square
        if move.promotion:
            return 100 if move.promotion == chess.QUEEN else 10
        if them & chess.BB_SQUARES[to]:
            return 90
        if board.pawns & chess.BB_SQUARES[fr]:
            if free & chess.BB_SQUARES[fr]:
                return 80
            if stoppers & chess.BB_SQUARES[fr] and king is not None and DISTANCE[to][king] < DISTANCE[fr][king]:
                return 60 - DISTANCE[to][king]
            return 30
        return 20

    return score


def _loser_scores(board: chess.Board, winner: chess.Color) -> Callable[[chess.Move], int]:
    """Higher first: a hand-over, a promotion, a free pawn's push, the king's
    freeing capture and its steps towards one (while no pawn of its is free
    and it has no piece), the rest; captures last."""
    loser = not winner
    feed = _feeding(board, winner)
    free = _free(board, loser)
    ours = board.occupied_co[winner]
    pieces = board.occupied_co[loser] & ~board.kings & ~board.pawns
    stoppers = 0 if free or pieces & ~board.bishops else _stoppers(board, winner)
    lanes = 0
    for square in chess.scan_forward(free):
        lanes |= _ahead(square, loser)

    def score(move: chess.Move) -> int:
        fr, to = move.from_square, move.to_square
        from_bb, to_bb = chess.BB_SQUARES[fr], chess.BB_SQUARES[to]
        if move.promotion:
            return 90 - UNDER.index(move.promotion) + (5 if feed & to_bb else 0)
        if board.kings & from_bb:
            if stoppers & to_bb:
                return 80
            if ours & to_bb:
                return -50
            if lanes & from_bb and not lanes & to_bb:
                return 65  # out of a free pawn's way
            if stoppers:
                near = min(DISTANCE[fr][s] for s in chess.scan_forward(stoppers))
                if min(DISTANCE[to][s] for s in chess.scan_forward(stoppers)) < near:
                    return 60
            return 0
        if ours & to_bb:
            return -40
        if board.pawns & from_bb:
            # a free pawn's double step first; the others only after the king's moves
            return 70 + abs(to - fr) // 8 if free & from_bb else -10
        if feed & to_bb:
            return 95
        if board.knights & from_bb and feed:
            near = min(KNIGHT_DISTANCE[fr][s] for s in chess.scan_forward(feed))
            return 50 if min(KNIGHT_DISTANCE[to][s] for s in chess.scan_forward(feed)) < near else 5
        return 5

    return score


def king_must_free(board: chess.BaseBoard, winner: chess.Color) -> bool:
    """Has ``winner`` besides its king only knights or bishops (at least
    one) and pawns, none with an empty file ahead and one at least with a
    loser's pawn ahead, against the loser's king and pawns?"""
    ours = board.occupied_co[winner] & ~board.kings
    pieces = ours & ~board.pawns
    if not pieces or pieces & (board.rooks | board.queens) or not ours & board.pawns:
        return False
    if board.occupied_co[not winner] & ~board.kings & ~board.pawns:
        return False
    theirs = board.occupied_co[not winner] & board.pawns
    aheads = [_ahead(square, winner) for square in chess.scan_forward(ours & board.pawns)]
    return all(ahead & board.occupied for ahead in aheads) and any(ahead & theirs for ahead in aheads)


def king_frees_walk_moves(board: chess.Board, winner: chess.Color, checkers: int | None = None) -> Iterator[chess.Move]:
    """Every pseudo-legal move of ``board`` in the order of the winner's
    king freeing its pawns (the module's docstring); the dive's once the
    winner has a rook or queen."""
    if board.occupied_co[winner] & (board.rooks | board.queens):
        return dive_moves(board, winner, checkers)
    moves = list(board.generate_pseudo_legal_moves())
    score = _freeing_scores(board, winner) if board.turn == winner else _tempo_scores(board)
    scored = [(score(move), i, move) for i, move in enumerate(moves)]
    scored.sort(key=lambda item: (-item[0], item[1]))
    return (move for _, _, move in scored)


def _targets(board: chess.BaseBoard, winner: chess.Color) -> chess.Bitboard:
    """The loser's pawns ahead of a winner's pawn: those that alone stop
    one, else all of them."""
    theirs = board.occupied_co[not winner] & board.pawns
    alone = every = 0
    for square in chess.scan_forward(board.occupied_co[winner] & board.pawns):
        ahead = _ahead(square, winner) & theirs
        every |= ahead
        if ahead and not ahead & (ahead - 1):
            alone |= ahead
    return alone or every


def _freeing_scores(board: chess.Board, winner: chess.Color) -> Callable[[chess.Move], int]:
    """Higher first: queening, taking a pawn that stops one of the winner's,
    a free pawn's push (the longer first), the king out of its way or
    towards the nearest stopping pawn, other pushes, the king, the pieces."""
    free = _free(board, winner)
    targets = _targets(board, winner)
    them = board.occupied_co[not winner]
    lanes = 0
    for square in chess.scan_forward(free):
        lanes |= _ahead(square, winner)

    def nearest(square: chess.Square) -> int:
        return min((DISTANCE[square][t] for t in chess.scan_forward(targets)), default=0)

    def score(move: chess.Move) -> int:
        fr, to = move.from_square, move.to_square
        from_bb, to_bb = chess.BB_SQUARES[fr], chess.BB_SQUARES[to]
        if move.promotion:
            return 100 if move.promotion == chess.QUEEN else 10
        if targets & to_bb:
            return 90
        if them & to_bb:
            return 40
        if board.pawns & from_bb:
            return 80 + abs(to - fr) // 8 if free & from_bb else 30
        if board.kings & from_bb:
            if lanes & from_bb and not lanes & to_bb:
                return 75
            if targets and nearest(to) < nearest(fr):
                return 60 - nearest(to)
            return 20
        return 0

    return score


def _tempo_scores(board: chess.Board) -> Callable[[chess.Move], int]:
    """The loser's order: single pawn steps, double steps, the rest, captures last."""
    them = board.occupied_co[not board.turn]

    def score(move: chess.Move) -> int:
        fr, to = move.from_square, move.to_square
        if them & chess.BB_SQUARES[to] or board.is_en_passant(move):
            return -40
        if board.pawns & chess.BB_SQUARES[fr]:
            return 50 if abs(to - fr) == 8 else 40
        return 10

    return score
