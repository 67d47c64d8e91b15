# SPDX-License-Identifier: GPL-3.0-or-later
"""A short directed search towards a known mate pattern.

Given a target (every man's square in a mate, ``patterns``), each man is
given a target square of its colour and kind (a pawn: any piece it can
promote to), and the distance of a man to its target is the number of
moves it needs on an empty board (a king: the king distance; a knight: its
own table; a bishop, rook or queen: 0, 1 or 2; a pawn: its pushes to the
last rank, the file changes it must capture for, then the promoted piece's
distance from the queening square).  The search is a depth-first walk of
the legal moves, each side trying first the moves that bring its own men
nearest their targets, positions never visited twice, a small budget.

It is only ever a way to *find* a line: every line it returns ends in a
checkmate by the mating side and is replayed by python-chess before any
answer is given (``verify``).  It proves nothing when it fails; the caller
then falls back to the general search.

Limits: the distances ignore the other men (a blocked path, a pinned man,
a square the king may not enter), which the walk's backtracking has to
find out; with a budget of a few hundred positions a route that needs a
long detour is not found.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from operator import itemgetter
from typing import Final

import chess

from .budget import Budget
from .legal import legality

Target = tuple[chess.PieceType, chess.Color, chess.Square]
FAR: Final = 99  # no route (a bishop to a square of the other colour; a man to be captured)


def _knight_table() -> list[list[int]]:
    """Knight moves between every two squares, on an empty board."""
    table = [[FAR] * 64 for _ in range(64)]
    for start in chess.SQUARES:
        row = table[start]
        row[start] = 0
        frontier = [start]
        steps = 0
        while frontier:
            steps += 1
            nxt: list[chess.Square] = []
            for square in frontier:
                for to in chess.SquareSet(chess.BB_KNIGHT_ATTACKS[square]):
                    if row[to] == FAR:
                        row[to] = steps
                        nxt.append(to)
            frontier = nxt
    return table


KNIGHT_STEPS: Final = _knight_table()


def _piece_steps(piece: chess.PieceType, start: chess.Square, end: chess.Square) -> int:
    """``piece_steps``, computed."""
    if start == end:
        return 0
    if piece == chess.KING:
        return chess.square_distance(start, end)
    if piece == chess.KNIGHT:
        return KNIGHT_STEPS[start][end]
    files = chess.square_file(start) == chess.square_file(end)
    ranks = chess.square_rank(start) == chess.square_rank(end)
    diagonal = abs(chess.square_file(start) - chess.square_file(end)) == abs(
        chess.square_rank(start) - chess.square_rank(end)
    )
    if piece == chess.ROOK:
        return 1 if files or ranks else 2
    same_colour = bool(chess.BB_SQUARES[start] & chess.BB_LIGHT_SQUARES) == bool(
        chess.BB_SQUARES[end] & chess.BB_LIGHT_SQUARES
    )
    if piece == chess.BISHOP:
        return 1 if diagonal else 2 if same_colour else FAR
    return 1 if files or ranks or diagonal else 2  # a queen


@functools.cache
def piece_steps(piece: chess.PieceType, start: chess.Square, end: chess.Square) -> int:
    """Moves a piece needs from ``start`` to ``end`` on an empty board
    (cached: the directed search asks millions of times, and a table
    built at import would cost the page's start-up)."""
    return _piece_steps(piece, start, end)


def _pawn_steps(color: chess.Color, start: chess.Square, target: chess.PieceType, end: chess.Square) -> int:
    """``pawn_steps``, computed."""
    if target in (chess.PAWN, chess.KING):
        return FAR
    rank = chess.square_rank(start)
    pushes = 7 - rank if color == chess.WHITE else rank
    best = FAR
    for file in range(8):
        shift = abs(file - chess.square_file(start))
        if shift > pushes:
            continue
        queening = chess.square(file, 7 if color == chess.WHITE else 0)
        best = min(best, pushes + _piece_steps(target, queening, end))
    return best


@functools.cache
def pawn_steps(color: chess.Color, start: chess.Square, target: chess.PieceType, end: chess.Square) -> int:
    """Moves a pawn needs to become ``target`` on ``end``: its pushes to the
    last rank, a capture for each file it changes, then the new piece's
    (cached, as ``piece_steps``)."""
    return _pawn_steps(color, start, target, end)


def man_steps(piece: chess.PieceType, color: chess.Color, start: chess.Square, target: Target) -> int:
    """Moves the man ``piece`` of ``color`` on ``start`` needs to fill ``target``."""
    kind, side, end = target
    if side != color:
        return FAR
    if piece == chess.PAWN:
        return pawn_steps(color, start, kind, end)
    return piece_steps(piece, start, end) if piece == kind else FAR


def assign(board: chess.BaseBoard, targets: Sequence[Target]) -> tuple[dict[chess.Square, Target], int] | None:
    """The cheapest way to give each man of ``board`` a target: the targets
    by square, and the moves they need in all (None if the men and the
    targets do not match)."""
    kings = [target for target in targets if target[0] == chess.KING]
    others = [target for target in targets if target[0] != chess.KING]
    men = [square for square in chess.SquareSet(board.occupied & ~board.kings)]
    if len(men) != len(others) or len(kings) != 2:
        return None
    base: dict[chess.Square, Target] = {}
    total = 0
    for kind, side, end in kings:
        king = board.king(side)
        if king is None:
            return None
        base[king] = (kind, side, end)
        total += chess.square_distance(king, end)
    best: tuple[dict[chess.Square, Target], int] | None = None
    for order in itertools.permutations(others):
        cost = total
        for square, target in zip(men, order, strict=True):
            piece, color = board.piece_type_at(square), board.color_at(square)
            cost += FAR if piece is None or color is None else man_steps(piece, color, square, target)
            if cost >= FAR:
                break
        if cost < FAR and (best is None or cost < best[1]):
            best = ({**base, **dict(zip(men, order, strict=True))}, cost)
    return best


def move_steps(board: chess.Board, move: chess.Move, targets: dict[chess.Square, Target]) -> int:
    """How many moves nearer (negative) or further its man's target ``move``
    takes the mover; FAR for a capture (every man has a place in the
    pattern) and for castling (never needed to reach one)."""
    fr, to = move.from_square, move.to_square
    piece = board.piece_type_at(fr)
    target = targets.get(fr)
    if piece is None or target is None:
        return FAR
    if board.occupied_co[not board.turn] & chess.BB_SQUARES[to]:
        return FAR  # a capture
    if piece == chess.PAWN and to == board.ep_square and chess.square_file(fr) != chess.square_file(to):
        return FAR  # en passant
    if piece == chess.KING and (
        board.occupied_co[board.turn] & chess.BB_SQUARES[to] or abs(chess.square_file(fr) - chess.square_file(to)) > 1
    ):
        return FAR  # castling (``Board.is_castling``'s test)
    before = man_steps(piece, board.turn, fr, target)
    after = man_steps(move.promotion or piece, board.turn, to, target)
    return FAR if after >= FAR else after - before


def _key(board: chess.Board) -> tuple[int, int, int, int, int, int, int, bool]:
    return (
        board.pawns,
        board.knights,
        board.bishops,
        board.rooks,
        board.queens,
        board.kings,
        board.occupied_co[chess.WHITE],
        board.turn,
    )


BRANCHES: Final = 3  # the best moves tried in a position: a finder, not a proof
SLACK: Final = 8  # plies beyond the fewest the men's steps allow, tried two at a time


def walk_to(
    board: chess.Board, color: chess.Color, targets: Sequence[Target], budget: Budget
) -> list[chess.Move] | None:
    """A line from ``board`` that ends in a mate by ``color``, found by the
    directed search towards ``targets`` within ``budget``, or None.
    ``board`` is left as it was.

    Iterative deepening from the fewest plies the men's steps allow (each
    side's men need that many moves, and the mating side moves last), up to
    ``SLACK`` more: a move is tried only if its side's men can still reach
    their targets in the moves it has left, and so can the other side's;
    positions that failed at a depth are not tried again at that depth."""
    assigned = assign(board, targets)
    if assigned is None:
        return None
    where = assigned[0]
    b = board.copy(stack=False)
    mine, theirs = _steps_by_side(b, where)
    shortest = max(2 * mine - 1, 2 * theirs, 1)
    shortest += (shortest % 2 == 1) != (b.turn == color)  # the mating side moves last
    for depth in range(shortest, shortest + SLACK + 1, 2):
        failed: set[tuple[tuple[int, int, int, int, int, int, int, bool], int]] = set()
        line = _finish(b, color, where, depth, mine, theirs, budget, failed)
        if line is not None:
            return line
        if budget.exhausted:
            return None
    return None


def _steps_by_side(board: chess.Board, targets: dict[chess.Square, Target]) -> tuple[int, int]:
    """The moves the side to move's men need, and the other side's."""
    mine = theirs = 0
    for square, target in targets.items():
        piece = board.piece_type_at(square)
        color = board.color_at(square)
        if piece is None or color is None:
            return FAR, FAR
        steps = man_steps(piece, color, square, target)
        if color == board.turn:
            mine += steps
        else:
            theirs += steps
    return mine, theirs


def _finish(
    board: chess.Board,
    color: chess.Color,
    targets: dict[chess.Square, Target],
    depth: int,
    mine: int,
    theirs: int,
    budget: Budget,
    failed: set[tuple[tuple[int, int, int, int, int, int, int, bool], int]],
) -> list[chess.Move] | None:
    """A mate by ``color`` in exactly ``depth`` plies, each man's steps
    within the moves its side has left; ``mine``: the side to move's steps."""
    if depth == 0:
        return [] if board.turn != color and board.is_checkmate() else None
    moves_left = (depth + 1) // 2  # the side to move's moves within depth
    if theirs > depth // 2 or budget.exhausted:
        return None
    key = (_key(board), depth)
    if key in failed:
        return None
    for steps, move in _best(board, targets, mine, moves_left):
        if budget.spend():
            return None
        after = dict(targets)
        after[move.to_square] = after.pop(move.from_square)
        board.push(move)
        try:
            rest = _finish(board, color, after, depth - 1, theirs, mine + steps, budget, failed)
        finally:
            board.pop()
        if rest is not None:
            return [move, *rest]
    failed.add(key)
    return None


def _best(
    board: chess.Board, targets: dict[chess.Square, Target], mine: int, moves_left: int
) -> list[tuple[int, chess.Move]]:
    """``_finish``'s moves: the ``BRANCHES`` legal moves that bring the
    side to move's men nearest their targets (within ``moves_left``), in
    the order of ``generate_legal_moves`` on a tie.  Outside check that is
    the pseudo-legal moves' order, so only the best are tested for
    legality (measured: most of the moves scored are never tried)."""
    checkers = board.checkers_mask()
    moves = board.generate_legal_moves() if checkers else board.generate_pseudo_legal_moves()
    scored = []
    for move in moves:
        steps = move_steps(board, move, targets)
        if steps < FAR and mine + steps <= moves_left - 1:
            scored.append((steps, move))
    scored.sort(key=itemgetter(0))
    if checkers:
        return scored[:BRANCHES]
    legal = legality(board, checkers)
    return list(itertools.islice(((steps, move) for steps, move in scored if legal(move)), BRANCHES))


CHECKER_WAITS: Final = 6  # a checker's step counts as this many more while other men still move


def checkers_of(targets: Sequence[Target], color: chess.Color) -> set[Target]:
    """The targets of ``color``'s men that give check in the pattern."""
    pattern = chess.BaseBoard(None)
    for kind, side, square in targets:
        pattern.set_piece_at(square, chess.Piece(kind, side))
    king = pattern.king(not color)
    if king is None:
        return set()
    attackers = pattern.attackers_mask(color, king)
    return {target for target in targets if target[1] == color and chess.BB_SQUARES[target[2]] & attackers}


def _ordered(board: chess.Board, targets: dict[chess.Square, Target], checkers: set[Target]) -> list[chess.Move]:
    """The legal moves that keep every man's target within reach, the best
    last (the walk pops them).  The men that give the mate in the pattern
    come last, once every other man stands on its target: earlier they only
    give check or block the others' way."""
    others = 0
    for square, target in targets.items():
        if target not in checkers:
            piece, color = board.piece_type_at(square), board.color_at(square)
            others += FAR if piece is None or color is None else man_steps(piece, color, square, target)
    scored = []
    for move in board.generate_legal_moves():
        steps = move_steps(board, move, targets)
        if steps < FAR:
            if others and steps < 0 and targets[move.from_square] in checkers:
                steps += CHECKER_WAITS
            scored.append((steps, move))
    scored.sort(key=lambda item: -item[0])
    return [move for _, move in scored]
