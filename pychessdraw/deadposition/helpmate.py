# SPDX-License-Identifier: GPL-3.0-or-later
"""Iterative-deepening helpmate search with a transposition table.

Finds a series of legal moves (both sides cooperating) after which the
winner has delivered checkmate.  Proves impossibility only by exhaustion:
if one iteration explores the whole tree without ever being cut by the
depth limit, the node budget or a pruned move, and every leaf is a proven
terminal (stalemate, the winner mated, or material that can never mate),
then no mate exists at all.

Limits: cost-shaped depth (see ``ordering``) means "depth" is not plies;
lines are capped at ``MAX_PLY`` plies (recursion depth matters in
Pyodide; the closure walk, which is iterative, finds longer lines); the 50/75-move and repetition rules
are ignored, as in FIDE 5.2.2's "any series of legal moves".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

import chess

from .bitboards import DOUBLE_STEP_ENDS, pawn_attacks, pawn_push
from .budget import Budget
from .keys import Key, child_key, key
from .legal import (
    DIAG_LINES,
    QUEEN_LINES,
    STRAIGHT_LINES,
    check_targets,
    has_free_flights,
    legality,
    lone_blockers,
    pinned,
)
from .material import material_cannot_mate
from .ordering import NORMAL, REWARD, mating_corner, needs_loser_promotion, ordered_moves

MAX_PLY: Final = 64  # two Python frames per ply: stays far below Pyodide's stack limit
MAX_DEPTH: Final = 60

PROVEN: Final = 1 << 30
# At the horizon, a mate in one is looked for only where the loser's king
# has fewer free flights (a heuristic: a skipped probe is counted as a cut,
# so the search stays sound and a mate skipped here is met an iteration
# later).  Three is the limit that saves the most (benchmarks/README.md).
ROOMY: Final = 3  # TT depth of a position whose whole subtree was explored


class HelpmateSearch:
    """One helpmate question on a private board.

    Transposition table entries are ``(depth, iteration)``.  A position is
    skipped only if it was searched in *this* iteration with at least this
    depth (then any incompleteness there was already counted in this
    iteration's cuts), or if its whole subtree was explored without any cut
    and without leaning on an unfinished position (``PROVEN``).  Entries from
    earlier iterations that were cut are searched again.
    """

    def __init__(self, board: chess.Board, winner: chess.Color, budget: Budget) -> None:
        self.board = board
        self.winner = winner
        self.loser = not winner
        self.budget = budget
        self.tt: dict[Key, tuple[int, int]] = {}
        self.path: list[chess.Move] = []
        self.iteration = 0
        self.cuts = 0  # branches not explored to a proven end (monotone counter)
        self.deps = 0  # skips that lean on a position not (yet) proven

    def run(self, max_depth: int = MAX_DEPTH) -> bool | None:
        """True: mate found (``self.path``); False: proven impossible; None: unknown."""
        b = self.board
        start = 1 if b.turn == self.winner else 2
        for depth in range(start, max_depth + 1):
            self.iteration += 1
            cuts = self.cuts
            if self._search(depth, False):
                return True
            if self.cuts == cuts:
                return False
            if self.budget.exhausted:
                return None
        return None

    def _skip(self, k: Key, depth: int) -> bool:
        """May the position with key ``k`` be skipped at this depth?"""
        entry = self.tt.get(k)
        if entry is None:
            return False
        d, it = entry
        if d == PROVEN:
            return True
        if it == self.iteration and d >= depth:
            self.deps += 1
            return True
        return False

    # -- the tree walk -------------------------------------------------------
    def _search(self, depth: int, progress: bool) -> bool:
        b = self.board
        if self.budget.spend():
            self.cuts += 1
            return False
        here = key(b)
        if self._skip(here, depth):
            return False
        self.tt[here] = (depth, self.iteration)
        cuts, deps = self.cuts, self.deps
        if self._expand(depth, progress):
            return True
        if self.cuts == cuts and self.deps == deps:
            self.tt[here] = (PROVEN, self.iteration)
        return False

    def _expand(self, depth: int, progress: bool) -> bool:
        """Search below the current position (its TT bookkeeping is the caller's)."""
        b = self.board
        if material_cannot_mate(b, self.winner):
            return False
        if len(self.path) >= MAX_PLY:
            self.cuts += 1
            return False
        winner_to_move = b.turn == self.winner
        if depth <= 1:
            if winner_to_move:
                return self._mate_in_one()
            if any(b.generate_legal_moves()):
                self.cuts += 1
            return False
        moves = list(b.generate_legal_moves())
        if not moves:
            return False  # stalemate or the winner is mated: no mate from here
        corner = mating_corner(b, self.winner)
        promotes = needs_loser_promotion(b, self.winner)
        probed = False
        for move, cost in ordered_moves(b, moves, self.winner, corner, promotes):
            rewarded = cost == REWARD
            if cost == NORMAL and progress:
                cost = 0  # the previous move made progress: let this reply ride along
            if winner_to_move and depth - cost <= 1 and not _changes_material(b, move):
                # The child would be a horizon leaf with the loser to move:
                # it matters only if ``move`` mates, and one probe of this
                # position answers that for every such move (measured: most
                # of the deepening's nodes were these leaves).  Material is
                # unchanged, so the child counts as a cut, as it would
                # unless stalemated (a proof by exhaustion then comes an
                # iteration later, when the child is no longer a leaf).
                if not probed:
                    probed = True
                    if self._mating_line():
                        return True
                self.cuts += 1
                continue
            after = child_key(b, move)
            if after is not None and self._skip(after, depth - cost):
                continue  # the child would return at once; skip the push
            b.push(move)
            self.path.append(move)
            if winner_to_move and b.is_check() and b.is_checkmate():
                return True
            if self._search(depth - cost, rewarded):
                return True
            self.path.pop()
            b.pop()
            if self.budget.exhausted:
                self.cuts += 1
                return False
        return False

    def _mating_line(self) -> bool:
        """Winner to move: play a mate in one onto the path if there is one."""
        self.budget.spend()
        move, _ = mating_move(self.board, self.winner)
        if move is None:
            return False
        self.path.append(move)
        self.board.push(move)
        return True

    def _mate_in_one(self) -> bool:
        """Winner to move at the horizon: is there a mate in one?"""
        b = self.board
        if _roomy(b, self.winner):
            self.cuts += 1  # not probed: counted as unexplored, like a probe that fails
            return False
        move, any_move = mating_move(b, self.winner)
        if move is not None:
            self.path.append(move)
            b.push(move)
            return True
        if any_move or any(b.generate_legal_moves()):
            self.cuts += 1
        return False


def _roomy(board: chess.Board, winner: chess.Color) -> bool:
    """Has the loser's king at least ``ROOMY`` flight squares (empty or
    holding a piece of the winner, not attacked by it)?"""
    king = board.king(not winner)
    return king is not None and has_free_flights(board, winner, king, ROOMY)


def _changes_material(b: chess.Board, move: chess.Move) -> bool:
    """Does ``move`` capture or promote?"""
    return bool(move.promotion or chess.BB_SQUARES[move.to_square] & b.occupied) or b.is_en_passant(move)


# ``mating_move``'s kinds of moves: direct checks, a blocker's moves, the rest.
DIRECT: Final = 0
UNMASKS: Final = 1
OTHER: Final = 2


def mating_move(
    b: chess.Board,
    winner: chess.Color,
    checkers: int | None = None,
    legal: Callable[[chess.Move], bool] | None = None,
) -> tuple[chess.Move | None, bool]:
    """A move by ``winner`` (to move) that mates, and whether any move was tried.

    Only moves that give check are tried (``_checking_moves``). A check
    that leaves the king a square no piece attacks after the move
    (``_flight_test``, exact but for a king's move and en passant) is not
    played; one that leaves none is mate unless another man can parry it
    (``_mated_without_flights``). This skips most pushes and misses no
    mate.  ``b`` is restored.  ``checkers`` (``b.checkers_mask()``) and
    ``legal`` (``legality(b, checkers)``), if the caller has them, save
    computing them again."""
    ks = b.king(not winner)
    if ks is None:
        return None, False
    # Pseudo-legal moves and one legality test per position (``legality``).
    if legal is None:
        legal = legality(b, checkers)
    any_move = False
    flight_left: Callable[[chess.Move], bool] | None = None  # made at the first move it tests
    kings = b.kings
    ep = b.ep_square
    for gens, kind in _checking_moves(b, ks, winner):
        for gen in gens:
            for move in gen:
                fr, to = move.from_square, move.to_square
                if kind == UNMASKS and chess.BB_SQUARES[to] & chess.BB_RAYS[ks][fr]:
                    continue  # stays on its line: no check unmasked
                if not legal(move):
                    continue
                any_move = True
                # The flight test counts a moving king's cover nowhere and
                # keeps a pawn taken en passant on the board.
                tested = kind != OTHER and not chess.BB_SQUARES[fr] & kings and to != ep
                if tested:
                    if flight_left is None:
                        flight_left = _flight_test(b, ks, winner)
                    if flight_left(move):
                        continue
                b.push(move)
                # A move that passed the flight test leaves the king no step.
                mate = _mated_without_flights(b, ks) if tested else b.is_checkmate()
                b.pop()
                if mate:
                    return move, True
    return None, any_move


def _checking_moves(
    b: chess.Board, ks: chess.Square, winner: chess.Color
) -> tuple[tuple[list[Iterable[chess.Move]], int], ...]:
    """``mating_move``'s candidates by kind, pseudo-legal: each piece type
    only to the squares from which it attacks the loser's king on ``ks``
    (a rook moving onto the king's diagonal gives no check), a pawn's
    promotions too (``DIRECT``); every move of a man that alone blocks a
    slider's line to the king (``UNMASKS``: off its line, it unmasks a
    check; on it, a check it gives is a direct one); en passant and
    castling (``OTHER``)."""
    occ = b.occupied
    us = b.occupied_co[winner]
    diag = chess.BB_DIAG_ATTACKS[ks][chess.BB_DIAG_MASKS[ks] & occ]
    orth = (
        chess.BB_RANK_ATTACKS[ks][chess.BB_RANK_MASKS[ks] & occ]
        | chess.BB_FILE_ATTACKS[ks][chess.BB_FILE_MASKS[ks] & occ]
    )
    knights = b.knights & us
    diagonal = (b.bishops | b.queens) & us
    straight = (b.rooks | b.queens) & us
    pawns = b.pawns & us
    generate = b.generate_pseudo_legal_moves
    # The pieces' checks as python-chess generates them (from the highest
    # square, each to its highest target first), without a generator each.
    direct: list[Iterable[chess.Move]] = []
    if knights:
        direct.append(_piece_moves(b, knights, chess.BB_KNIGHT_ATTACKS[ks] & ~us))
    if diagonal and diag:
        direct.append(_piece_moves(b, diagonal, diag & ~us))
    if straight and orth:
        direct.append(_piece_moves(b, straight, orth & ~us))
    if pawns:  # onto a square attacking the king, or promoting (to anything)
        onto = chess.BB_PAWN_ATTACKS[not winner][ks] | chess.BB_BACKRANKS
        if b.ep_square is not None or _pawns_reach(pawns, winner, occ, b.occupied_co[not winner]) & onto:
            direct.append(generate(pawns, onto))
    from_mask = lone_blockers(b, ks, winner) & us
    blockers: list[Iterable[chess.Move]] = [generate(from_mask, chess.BB_ALL)] if from_mask else []
    others: list[Iterable[chess.Move]] = []
    if b.ep_square is not None:
        others.append(b.generate_legal_ep())
    if b.castling_rights & (chess.BB_RANK_1 if winner == chess.WHITE else chess.BB_RANK_8):
        others.append(b.generate_castling_moves())
    return (direct, DIRECT), (blockers, UNMASKS), (others, OTHER)


def _pawns_reach(pawns: chess.Bitboard, color: chess.Color, occupied: chess.Bitboard, them: chess.Bitboard) -> int:
    """Where ``pawns`` of ``color`` can move, en passant apart: their steps
    and double steps onto empty squares, their captures (python-chess
    generates nothing else for them, so a python-chess generator is made
    only where one of these squares is asked for).  A double step ends
    where python-chess lets it: on either of a side's third and fourth ranks."""
    empty = ~occupied
    single = pawn_push(pawns, color) & empty
    double = pawn_push(single, color) & empty & DOUBLE_STEP_ENDS[color]
    return single | double | pawn_attacks(pawns, color) & them


def _mated_without_flights(b: chess.Board, king: chess.Square) -> bool:
    """``b.is_checkmate()`` where the side to move's ``king`` is known to
    have no legal step (``_flight_test``): is it in check, and can no other
    man take or block the checker?  A pinned man never can (its line and
    the check's meet only at the king), and any other man that takes or
    blocks a single checker moves legally; with an en passant square,
    python-chess answers."""
    checkers = b.attackers_mask(not b.turn, king)
    if not checkers:
        return False
    if b.ep_square is not None:
        return b.is_checkmate()
    targets = check_targets(king, checkers)
    if not targets:
        return True  # a double check: only the king could answer it
    movers = b.occupied_co[b.turn] & ~b.kings & ~pinned(b, b.turn, king)
    return not any(b.generate_pseudo_legal_moves(movers, targets))


def _piece_moves(b: chess.Board, pieces: chess.Bitboard, targets: chess.Bitboard) -> list[chess.Move]:
    """``b.generate_pseudo_legal_moves(pieces, targets)`` for ``pieces``
    without a pawn or king (in its order), as a list; ``targets`` holds none
    of the side to move's men.  A piece with no target on its lines on an
    empty board is passed by without its attacks computed."""
    moves = []
    while pieces:
        fr = pieces.bit_length() - 1  # the highest first, as ``chess.scan_reversed``
        pieces ^= chess.BB_SQUARES[fr]
        if QUEEN_LINES[fr] & targets or chess.BB_KNIGHT_ATTACKS[fr] & targets:
            hits = b.attacks_mask(fr) & targets
            while hits:
                to = hits.bit_length() - 1
                hits ^= chess.BB_SQUARES[to]
                moves.append(chess.Move(fr, to))
    return moves


def _flight_test(b: chess.Board, ks: int, winner: chess.Color) -> Callable[[chess.Move], bool]:
    """A test of the moves of ``winner`` (to move, none a castling): after
    the move, does the loser's king on ``ks`` keep a square next to it (the
    checking piece's included) that no piece of ``winner`` attacks?  Then
    the move is no mate.  Exact: the attacks are computed on the board after
    the move, with the king itself off it (it cannot hide behind itself);
    a king that moves is not counted.  The leapers' and pawns' attacks are
    gathered once a position (as ``has_free_flights``) and again only for
    the kind that moves; the sliders' square by square, after the move."""
    mine = b.occupied_co[winner]
    around = chess.BB_KING_ATTACKS[ks]
    zone = around & ~b.occupied_co[not winner]
    pawns, knights, kings = b.pawns & mine, b.knights & mine, b.kings & mine
    pawn_cover, knight_cover = pawn_attacks(pawns, winner), _knight_cover(knights)
    king_cover = chess.BB_KING_ATTACKS[chess.msb(kings)] if kings else 0
    diagonal = (b.bishops | b.queens) & mine
    straight = (b.rooks | b.queens) & mine
    occupied = b.occupied & ~chess.BB_SQUARES[ks]

    leapers = pawns | knights | kings
    leaped = king_cover | pawn_cover | knight_cover  # where no pawn, knight or king moves

    def left(move: chess.Move) -> bool:
        fr, to = move.from_square, move.to_square
        fr_bb, to_bb = chess.BB_SQUARES[fr], chess.BB_SQUARES[to]
        if fr_bb & leapers or move.promotion:
            kind = move.promotion or b.piece_type_at(fr)
            covered = king_cover if not fr_bb & kings else 0
            if fr_bb & pawns:
                covered |= pawn_attacks(pawns & ~fr_bb | (to_bb if kind == chess.PAWN else 0), winner)
            else:
                covered |= pawn_cover
            if fr_bb & knights or kind == chess.KNIGHT:
                covered |= _knight_cover(knights & ~fr_bb | (to_bb if kind == chess.KNIGHT else 0))
            else:
                covered |= knight_cover
            on_diagonal, on_straight = kind in (chess.BISHOP, chess.QUEEN), kind in (chess.ROOK, chess.QUEEN)
        else:  # a bishop, rook or queen: the leapers' cover stays, its lines go along
            covered = leaped
            on_diagonal, on_straight = bool(fr_bb & diagonal), bool(fr_bb & straight)
        flights = (zone | around & to_bb) & ~covered
        if not flights:
            return False
        diag = diagonal & ~fr_bb | (to_bb if on_diagonal else 0)
        orth = straight & ~fr_bb | (to_bb if on_straight else 0)
        occ = occupied & ~fr_bb | to_bb
        while flights:
            sq = flights.bit_length() - 1
            flights ^= chess.BB_SQUARES[sq]
            if diag & DIAG_LINES[sq] and chess.BB_DIAG_ATTACKS[sq][chess.BB_DIAG_MASKS[sq] & occ] & diag:
                continue
            if (
                orth & STRAIGHT_LINES[sq]
                and (
                    chess.BB_RANK_ATTACKS[sq][chess.BB_RANK_MASKS[sq] & occ]
                    | chess.BB_FILE_ATTACKS[sq][chess.BB_FILE_MASKS[sq] & occ]
                )
                & orth
            ):
                continue
            return True
        return False

    return left


def _knight_cover(knights: chess.Bitboard) -> chess.Bitboard:
    """The squares ``knights`` attack."""
    covered = 0
    while knights:
        square = knights.bit_length() - 1
        knights ^= chess.BB_SQUARES[square]
        covered |= chess.BB_KNIGHT_ATTACKS[square]
    return covered
