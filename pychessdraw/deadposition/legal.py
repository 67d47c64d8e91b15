# SPDX-License-Identifier: GPL-3.0-or-later
"""The legal moves of the walk, in its order, tested for legality once per position.

The walk's orders (``ordering.staged_moves`` and ``dive_moves``) yield
pseudo-legal moves.  Testing each with ``Board.is_into_check`` recomputes the
king, its checkers and its pinned pieces for every move; measured on
real-game positions, almost half the moves the dive tried were illegal (most
of them while the side to move was in check).  Here the checkers and pins
are computed once: a pseudo-legal move is legal unless it is a king step
onto an attacked square, a pinned piece leaving its line, or an en passant
capture that exposes the king (left to ``is_into_check``); in check, the
king also may not step back along a checking line, and another piece must
take the checker or block it (one checker only).  The same tests as
python-chess's legal move generator (``_generate_evasions`` and
``_is_safe``), through its public API only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final, Protocol

import chess

SQUARES: Final = chess.BB_SQUARES  # one global read in the hot loops, not a module's attribute too


class Order(Protocol):
    """A move order of the walk: every pseudo-legal move of ``board``, but
    for moves that ``checkers`` (``board.checkers_mask()``, if the caller
    has them) make illegal, which it may leave out."""

    def __call__(self, board: chess.Board, winner: chess.Color, checkers: int | None = None) -> Iterator[chess.Move]:
        """The moves, in the walk's order."""
        ...


def legal_moves(
    board: chess.Board,
    winner: chess.Color,
    order: Order,
    checkers: int | None = None,
    legal: Callable[[chess.Move], bool] | None = None,
) -> Iterator[chess.Move]:
    """The legal moves among ``order(board, winner)``'s, in its order.

    ``board`` must stay at this position while the iterator is advanced;
    ``checkers`` and ``legal`` (``legality(board, checkers)``), if the
    caller has them, save computing them again."""
    if checkers is None:
        checkers = checkers_mask(board)
    if legal is not None or checkers:
        return filter(legal or legality(board, checkers), order(board, winner, checkers))
    return _off_the_lines(board, order(board, winner, 0))


def _off_the_lines(board: chess.Board, moves: Iterator[chess.Move]) -> Iterator[chess.Move]:
    """The legal ones of ``moves``, the side to move not in check: a man
    on no line from its king, moving otherwise than en passant, cannot
    expose it; the king may step where it is not attacked (no slider aims
    at it, so none through it), and castles as generated.  ``legality``'s
    test is made only at the first other move, the attack test at the
    king's first step (a dive mostly plays the first move it is given)."""
    us = board.turn
    king_mask = board.kings & board.occupied_co[us] & ~board.promoted  # ``board.king(us)``
    if not king_mask:
        yield from moves
        return
    king = king_mask.bit_length() - 1
    watched = QUEEN_LINES[king]
    steps = chess.BB_KING_ATTACKS[king] & ~board.occupied_co[us]
    ep = board.ep_square
    legal: Callable[[chess.Move], bool] | None = None
    attacked: Callable[[chess.Square], bool] | None = None
    for move in moves:
        fr, to = move.from_square, move.to_square
        if fr == king:
            if SQUARES[to] & steps:
                if attacked is None:
                    attacked = attack_test(board, not us)
                if attacked(to):
                    continue
            yield move  # a step to a safe square, or castling: its path tested when generated
            continue
        if not SQUARES[fr] & watched and to != ep:
            yield move
            continue
        if legal is None:
            legal = legality(board, 0)
        if legal(move):
            yield move


def legality(board: chess.Board, checkers: int | None = None) -> Callable[[chess.Move], bool]:
    """A test of the pseudo-legal moves of ``board`` (as it stands now).
    ``checkers``: ``board.checkers_mask()``, if the caller has it."""
    us = board.turn
    king_mask = board.kings & board.occupied_co[us] & ~board.promoted  # ``board.king(us)``
    if not king_mask:
        return lambda move: True  # no king: nothing is illegal
    king = king_mask.bit_length() - 1
    king_bb = SQUARES[king]
    them = not us
    if checkers is None:
        checkers = checkers_mask(board)
    pins = -1  # computed at the first move that is not the king's
    ep = board.ep_square
    squares = SQUARES
    # In check: squares behind the king on a checking line (still attacked
    # once the king steps there), and where another piece must move to.
    behind = 0
    target = chess.BB_ALL
    if checkers:
        sliders = checkers & ~board.pawns & ~board.knights & ~board.kings
        while sliders:
            checker = sliders.bit_length() - 1
            sliders ^= squares[checker]
            behind |= chess.ray(king, checker) & ~squares[checker]
        target = check_targets(king, checkers)
    # The king's steps; its castling goes onto its own rook or two files
    # away, never onto one of these.
    steps = chess.BB_KING_ATTACKS[king] & ~board.occupied_co[us]
    attacked: Callable[[chess.Square], bool] | None = None  # made at the king's first step
    # Only a man on a line from the king can be pinned.
    lines = QUEEN_LINES[king]

    def legal(move: chess.Move) -> bool:
        nonlocal pins, attacked
        fr, to = move.from_square, move.to_square
        if fr == king:
            to_bb = squares[to]
            if not to_bb & steps:
                return not checkers  # castling: generated with its path tested already
            if to_bb & behind:
                return False
            if attacked is None:
                attacked = attack_test(board, them)
            return not attacked(to)
        if to == ep and board.is_en_passant(move):
            return not board.is_into_check(move)
        if not squares[to] & target:
            return False
        if not squares[fr] & lines:
            return True
        if pins < 0:
            pins = pinned(board, us, king)
        return not pins & squares[fr] or bool(chess.ray(fr, to) & king_bb)

    return legal


# The squares a bishop, a rook and a queen on each square would attack on an empty board.
DIAG_LINES: Final = [chess.BB_DIAG_ATTACKS[sq][0] for sq in chess.SQUARES]
STRAIGHT_LINES: Final = [chess.BB_RANK_ATTACKS[sq][0] | chess.BB_FILE_ATTACKS[sq][0] for sq in chess.SQUARES]
QUEEN_LINES: Final = [DIAG_LINES[sq] | STRAIGHT_LINES[sq] for sq in chess.SQUARES]


def attack_test(board: chess.Board, color: chess.Color) -> Callable[[chess.Square], bool]:
    """``board.is_attacked_by(color, square)`` as a test made once per position
    (``board`` as it stands now): a king's steps test a few squares each,
    the leapers' and pawns' tables first, a slider table only where
    ``color`` has such a slider."""
    theirs = board.occupied_co[color]
    knights, kings = board.knights & theirs, board.kings & theirs
    pawn_attacks, pawns = chess.BB_PAWN_ATTACKS[not color], board.pawns & theirs
    diagonal = (board.bishops | board.queens) & theirs
    straight = (board.rooks | board.queens) & theirs
    occupied = board.occupied

    def attacked(square: chess.Square) -> bool:
        if (
            chess.BB_KNIGHT_ATTACKS[square] & knights
            or chess.BB_KING_ATTACKS[square] & kings
            or pawn_attacks[square] & pawns
            or (
                diagonal & DIAG_LINES[square]
                and chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied] & diagonal
            )
        ):
            return True
        return bool(
            straight & STRAIGHT_LINES[square]
            and (
                chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
                | chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied]
            )
            & straight
        )

    return attacked


def checkers_mask(board: chess.Board) -> chess.Bitboard:
    """``board.checkers_mask()``, the same mask: the men of the side not to
    move attacking the king of the side to move (its highest, as
    ``Board.king``), a slider table read only where that side has such a
    slider on one of the king's lines (python-chess reads all three at
    every call)."""
    us = board.turn
    king = board.kings & board.occupied_co[us] & ~board.promoted
    if not king:
        return 0
    square = king.bit_length() - 1
    them = board.occupied_co[not us]
    checkers = (
        chess.BB_KNIGHT_ATTACKS[square] & board.knights
        | chess.BB_KING_ATTACKS[square] & board.kings
        | chess.BB_PAWN_ATTACKS[us][square] & board.pawns
    )
    occupied = board.occupied
    straight = (board.rooks | board.queens) & them & STRAIGHT_LINES[square]
    if straight:
        checkers |= (
            chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
            | chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied]
        ) & straight
    diagonal = (board.bishops | board.queens) & them & DIAG_LINES[square]
    if diagonal:
        checkers |= chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied] & diagonal
    return checkers & them


def check_targets(king: chess.Square, checkers: chess.Bitboard) -> chess.Bitboard:
    """In check: where a man other than the king must move to take or block
    a single checker (en passant apart); nowhere in double check."""
    if checkers & (checkers - 1):
        return 0
    return chess.between(king, chess.msb(checkers)) | checkers


def _reach(table: list[chess.Bitboard]) -> list[chess.Bitboard]:
    """For each square, where a leaper with attacks ``table`` attacks one of
    the squares next to it."""
    return [_leaps(table, chess.BB_KING_ATTACKS[square]) for square in chess.SQUARES]


def has_free_flights(board: chess.Board, winner: chess.Color, king: chess.Square, count: int) -> bool:
    """Has the loser's ``king`` at least ``count`` flight squares (empty or
    holding a piece of ``winner``) that ``winner`` does not attack?"""
    flights = chess.BB_KING_ATTACKS[king] & ~board.occupied_co[not winner]
    if flights.bit_count() < count:
        return False
    # The leapers' and pawns' attacks at once, then the sliders one by one.
    theirs = board.occupied_co[winner]
    pawns = board.pawns & theirs
    west, east = pawns & ~chess.BB_FILE_A, pawns & ~chess.BB_FILE_H
    leaped = (west << 7 | east << 9) & chess.BB_ALL if winner == chess.WHITE else west >> 9 | east >> 7
    # Only the leapers within reach of the flights (often none: no call).
    kings = board.kings & theirs & KING_REACH[king]
    if kings:
        leaped |= _leaps(chess.BB_KING_ATTACKS, kings)
    knights = board.knights & theirs & KNIGHT_REACH[king]
    if knights:
        leaped |= _leaps(chess.BB_KNIGHT_ATTACKS, knights)
    flights &= ~leaped
    if flights.bit_count() < count:
        return False
    # Then each slider's attacks, where its lines meet a flight.
    diagonal = (board.bishops | board.queens) & theirs
    straight = (board.rooks | board.queens) & theirs
    occupied = board.occupied
    sliders = diagonal | straight
    while sliders:
        square = sliders.bit_length() - 1
        bb = SQUARES[square]
        sliders ^= bb
        if bb & diagonal and DIAG_LINES[square] & flights:
            flights &= ~chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied]
        if bb & straight and STRAIGHT_LINES[square] & flights:
            flights &= ~(
                chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
                | chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied]
            )
        if flights.bit_count() < count:
            return False
    return True


def _leaps(table: list[chess.Bitboard], men: chess.Bitboard) -> chess.Bitboard:
    """The squares that leapers on ``men`` attack, ``table`` their attacks by square."""
    leaped = 0
    while men:
        square = men.bit_length() - 1
        men ^= SQUARES[square]
        leaped |= table[square]
    return leaped


KING_REACH: Final = _reach(chess.BB_KING_ATTACKS)
KNIGHT_REACH: Final = _reach(chess.BB_KNIGHT_ATTACKS)


def pinned(board: chess.Board, color: chess.Color, king: chess.Square) -> int:
    """``color``'s pieces that alone stand between its king and an enemy slider."""
    return lone_blockers(board, king, not color) & board.occupied_co[color]


def lone_blockers(board: chess.Board, square: chess.Square, color: chess.Color) -> int:
    """Pieces of either colour that alone stand between ``square`` and a slider
    of ``color`` aiming at it (pinned pieces, or pieces that unmask a check)."""
    theirs = board.occupied_co[color]
    straight = (board.rooks | board.queens) & theirs
    diagonal = (board.bishops | board.queens) & theirs
    snipers = (chess.BB_RANK_ATTACKS[square][0] | chess.BB_FILE_ATTACKS[square][0]) & straight | chess.BB_DIAG_ATTACKS[
        square
    ][0] & diagonal
    blockers = 0
    while snipers:
        sniper = snipers.bit_length() - 1
        snipers ^= SQUARES[sniper]
        between = chess.between(square, sniper) & board.occupied
        if between and not between & (between - 1):
            blockers |= between
    return blockers
