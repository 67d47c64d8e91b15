# SPDX-License-Identifier: GPL-3.0-or-later
"""The winner's first move in the walk's order, without generating every move.

``ordering.staged_moves`` generates and scores the winner's moves (all of
them where it can neither capture nor promote) to yield the best one, and
the walk rarely asks for a second.  ``best_first_move`` finds that same move
from each piece's attack set: a score depends only on the piece's kind, the
victim and a distance, so the best destinations of a piece are one mask
intersection away.  Ties go, as in the stable sort, to the move python-chess
generates first (pieces, then pawns; high squares first).
"""

from __future__ import annotations

from typing import Final

import chess

from .distances import DISTANCE, KNIGHT_DISTANCE
from .legal import SQUARES


def _masks(distance: list[list[int]]) -> list[list[int]]:
    """``[target][d]``: the squares closer than ``d`` to ``target`` (d = 0..8;
    no two squares are more than 7 king steps or 6 knight jumps apart)."""
    table = []
    for target in chess.SQUARES:
        ring = [0] * 9  # the squares exactly d away
        for sq in chess.SQUARES:
            ring[distance[sq][target]] |= chess.BB_SQUARES[sq]
        row, closer = [0], 0
        for d in range(8):
            closer |= ring[d]
            row.append(closer)
        table.append(row)
    return table


CLOSER: Final = _masks(DISTANCE)
KNIGHT_CLOSER: Final = _masks(KNIGHT_DISTANCE)
RING: Final = [[CLOSER[sq][d + 1] & ~CLOSER[sq][d] for d in range(8)] for sq in chess.SQUARES]


def best_first_move(board: chess.Board, corner: int) -> chess.Move | None:
    """The first move of ``staged_moves`` for the side to move (the winner),
    or None where it is not had this way (en passant is possible, or
    there is no move at all).

    Scores as ``ordering._scored``: a queen promotion 100, a capture 60 + the
    victim's value; then a pawn step 30 + its relative rank (a double step
    onto a square blocked head-on by an enemy pawn 20 + it: ``STUCK_PAWN``), the knight
    nearer the corner 28 (else 5), the king nearer its target 25 (else 0),
    any other piece 15 + 3 x how much nearer the loser's king."""
    if board.ep_square is not None:
        return None
    us = board.turn
    pawns, singles, pieces = _men(board)
    if pawns & _SEVENTH[us]:
        best = _queen_promotion(board, pawns, singles)
        if best is not None:
            return best
    if board.occupied_co[not us] & ~board.kings:
        best = _best_capture(board, pieces, pawns)
        if best is not None:
            return best
    return _best_quiet(board, corner, pieces, pawns, singles)


def best_quiet_move(board: chess.Board, corner: int, skip: dict[chess.Square, chess.Bitboard]) -> chess.Move | None:
    """The first quiet move (no capture, promotion or en passant) in the
    order of ``best_first_move``, but for the pieces' quiet moves in
    ``skip`` (from square: its target squares).  Where the moves skipped
    are all the ones before it, and quiet: the next move of the full order."""
    pawns, singles, pieces = _men(board)
    pieces = [(fr, attacked & ~skip.get(fr, 0)) for fr, attacked in pieces]
    return _best_quiet(board, corner, pieces, pawns, singles)


def _men(board: chess.Board) -> tuple[chess.Bitboard, chess.Bitboard, list[tuple[chess.Square, chess.Bitboard]]]:
    """The side to move's pawns, their free single steps, and its pieces
    with their attacks (for both the capture and the quiet stage)."""
    us = board.turn
    mine = board.occupied_co[us]
    pawns = board.pawns & mine
    singles = ((pawns << 8 & chess.BB_ALL) if us == chess.WHITE else pawns >> 8) & ~board.occupied
    return pawns, singles, _attacks(board, mine & ~board.pawns)


def _attacks(board: chess.Board, pieces: chess.Bitboard) -> list[tuple[chess.Square, chess.Bitboard]]:
    """``(square, board.attacks_mask(square))`` for each of ``pieces`` (no
    pawn among them), from the highest square: the same masks, the tables
    read here (once a position for every piece of the winner)."""
    occupied = board.occupied
    knights, kings = board.knights, board.kings
    diagonal = board.bishops | board.queens
    straight = board.rooks | board.queens
    attacks = []
    while pieces:
        fr = pieces.bit_length() - 1  # the highest first, as ``chess.scan_reversed``
        bb = SQUARES[fr]
        pieces ^= bb
        if bb & knights:
            attacks.append((fr, _KNIGHT_ATTACKS[fr]))
        elif bb & kings:
            attacks.append((fr, _KING_ATTACKS[fr]))
        else:
            mask = _DIAG_ATTACKS[fr][_DIAG_MASKS[fr] & occupied] if bb & diagonal else 0
            if bb & straight:
                mask |= _RANK_ATTACKS[fr][_RANK_MASKS[fr] & occupied] | _FILE_ATTACKS[fr][_FILE_MASKS[fr] & occupied]
            attacks.append((fr, mask))
    return attacks


# python-chess's tables as this module's globals: one lookup each in the loops.
_KNIGHT_ATTACKS: Final = chess.BB_KNIGHT_ATTACKS
_KING_ATTACKS: Final = chess.BB_KING_ATTACKS
_DIAG_ATTACKS: Final = chess.BB_DIAG_ATTACKS
_DIAG_MASKS: Final = chess.BB_DIAG_MASKS
_RANK_ATTACKS: Final = chess.BB_RANK_ATTACKS
_RANK_MASKS: Final = chess.BB_RANK_MASKS
_FILE_ATTACKS: Final = chess.BB_FILE_ATTACKS
_FILE_MASKS: Final = chess.BB_FILE_MASKS


_SEVENTH: Final = {chess.WHITE: chess.BB_RANK_7, chess.BLACK: chess.BB_RANK_2}
# The best score of a piece's quiet move: a slider 6 king steps nearer the
# loser's king (from 7 away to its side); a knight scores 28 at most, a
# king or castling 25.  (Without a loser's king, a slider may reach the
# corner itself: 7 nearer.)
PIECE_QUIET_MAX: Final = 15 + 3 * 6


def _queen_promotion(board: chess.Board, pawns: int, singles: int) -> chess.Move | None:
    """The first queen promotion: by capture (in generation order), then by a step."""
    us = board.turn
    white = us == chess.WHITE
    them = board.occupied_co[not us]
    for fr in chess.scan_reversed(pawns & (chess.BB_RANK_7 if white else chess.BB_RANK_2)):
        targets = chess.BB_PAWN_ATTACKS[us][fr] & them
        if targets:
            return chess.Move(fr, chess.msb(targets), chess.QUEEN)
    if singles & chess.BB_BACKRANKS:
        to = chess.msb(singles & chess.BB_BACKRANKS)
        return chess.Move(to + (-8 if white else 8), to, chess.QUEEN)
    return None


def _best_capture(board: chess.Board, pieces: list[tuple[int, int]], pawns: int) -> chess.Move | None:
    """The most valuable capture, pieces before pawns (the first on a tie):
    the most valuable kind of victim any man attacks, then its first attacker."""
    us = board.turn
    them = board.occupied_co[not us]
    reach = _pawn_reach(us, pawns)
    for _, attacked in pieces:
        reach |= attacked
    victims = reach & them
    if not victims:
        return None
    for kinds in (board.queens, board.rooks, board.bishops | board.knights, board.pawns, board.kings):
        prey = victims & kinds
        if not prey:
            continue
        for fr, attacked in pieces:
            if attacked & prey:
                return chess.Move(fr, chess.msb(attacked & prey))
        for fr in chess.scan_reversed(pawns):
            if chess.BB_PAWN_ATTACKS[us][fr] & prey:
                return chess.Move(fr, chess.msb(chess.BB_PAWN_ATTACKS[us][fr] & prey))
    return None  # not reached: every victim is of some kind


def _pawn_reach(color: chess.Color, pawns: chess.Bitboard) -> chess.Bitboard:
    """The squares ``color``'s ``pawns`` attack."""
    west, east = pawns & ~chess.BB_FILE_A, pawns & ~chess.BB_FILE_H
    if color == chess.WHITE:
        return (west << 7 | east << 9) & chess.BB_ALL
    return west >> 9 | east >> 7


def _best_quiet(
    board: chess.Board, corner: int, pieces: list[tuple[int, int]], pawns: int, singles: int
) -> chess.Move | None:
    """No capture and no promotion: the best quiet move (pieces, castling, pawns)."""
    empty = ~board.occupied & chess.BB_ALL
    pawn_score, step = _pawn_step(board, singles, empty) if pawns else (-1_000, None)
    loser = board.kings & board.occupied_co[not board.turn] & ~board.promoted  # ``board.king(not board.turn)``
    loser_king = loser.bit_length() - 1 if loser else None
    if pawn_score > PIECE_QUIET_MAX and loser_king is not None:
        return step  # no piece's quiet move scores as high
    lk = corner if loser_king is None else loser_king
    kt = chess.square(chess.square_file(corner), 5 if chess.square_rank(corner) == 7 else 2)
    best_score, best = -1_000, None
    for fr, attacked in pieces:
        targets = attacked & empty
        if not targets:
            continue
        score, to = _quiet_score(board, fr, targets, corner, lk, kt)
        if score > best_score:
            best_score, best = score, chess.Move(fr, to)
    if board.castling_rights & board.occupied_co[board.turn]:
        for move in board.generate_castling_moves():  # after the pieces, before the pawns
            score = 25 if DISTANCE[move.to_square][kt] < DISTANCE[move.from_square][kt] else 0
            if score > best_score:
                best_score, best = score, move
    if step is not None and pawn_score > best_score:
        best = step
    return best


def _quiet_score(board: chess.Board, fr: int, targets: int, corner: int, lk: int, kt: int) -> tuple[int, int]:
    """Score and square of the best quiet move of the piece on ``fr``
    (the highest square of the best, as python-chess generates first)."""
    bb = SQUARES[fr]
    if bb & board.kings:
        closer = targets & CLOSER[kt][DISTANCE[fr][kt]]
        return (25, closer.bit_length() - 1) if closer else (0, targets.bit_length() - 1)
    if bb & board.knights:
        closer = targets & KNIGHT_CLOSER[corner][KNIGHT_DISTANCE[fr][corner]]
        return (28, closer.bit_length() - 1) if closer else (5, targets.bit_length() - 1)
    ring = RING[lk]
    d = 0
    while not targets & ring[d]:
        d += 1
    return 15 + 3 * (DISTANCE[fr][lk] - d), (targets & ring[d]).bit_length() - 1


# A pawn's double step onto a square in front of an enemy pawn scores this
# plus its relative rank instead of 30 plus it, after every other pawn step:
# blocked head-on, the pawn gets free only by a capture, where the single
# step keeps both ways open (in a TCEC pawn ending, f7-f5 against f4 locked
# the pawn that f7-f6 offers up to free e6 or g6: the page left it open,
# 2,142 nodes, now 32).  A single step into the block stays as it was: it
# is often the only way on, for the loser to feed the pawn a capture (a
# lichess ending, h5-h4 against h3: 245 nodes, 30,390 with it demoted).
# Not 10: an under-promotion (12-14) is generated before the pawns' steps
# but scored in a later stage of ``staged_moves``, and must not tie with them.
STUCK_PAWN: Final = 20


def stuck_squares(color: chess.Color, enemy_pawns: chess.Bitboard) -> chess.Bitboard:
    """The squares where a pawn of ``color`` would stand blocked head-on by one of ``enemy_pawns``."""
    return enemy_pawns >> 8 if color == chess.WHITE else enemy_pawns << 8 & chess.BB_ALL


def _pawn_step(board: chess.Board, singles: int, empty: int) -> tuple[int, chess.Move | None]:
    """The best pawn step (single steps first on a tie) and its score."""
    us = board.turn
    white = us == chess.WHITE
    if white:
        doubles, step = singles << 8 & empty & (chess.BB_RANK_3 | chess.BB_RANK_4), -8
    else:
        doubles, step = singles >> 8 & empty & (chess.BB_RANK_6 | chess.BB_RANK_5), 8
    stuck = doubles & stuck_squares(us, board.pawns & board.occupied_co[not us]) if doubles else 0
    best_score, best = -1_000, None
    for targets, back, base in ((singles, step, 30), (doubles & ~stuck, 2 * step, 30), (stuck, 2 * step, STUCK_PAWN)):
        if not targets:
            continue
        if white:
            to = chess.msb(targets)
            rel = chess.square_rank(to)
        else:
            rank = chess.square_rank(chess.lsb(targets))
            to, rel = chess.msb(targets & chess.BB_RANKS[rank]), 7 - rank
        if base + rel > best_score:
            best_score, best = base + rel, chess.Move(to + back, to)
    return best_score, best
