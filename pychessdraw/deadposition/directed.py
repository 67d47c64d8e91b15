# SPDX-License-Identifier: GPL-3.0-or-later
"""A short directed search towards a known mate pattern.

Given a target (every man's square in a mate, ``patterns``), each man is
given a target square of its colour and kind (a pawn: any piece it can
promote to), and the distance of a man to its target is the number of
moves it needs on an empty board (a king: the king distance; a knight: its
own table; a bishop, rook or queen: 0, 1 or 2; a pawn: its pushes to the
last rank on its own file, then the promoted piece's distance from the
queening square: no walk captures, so no pawn changes its file).  Two searches use them: a best-first
walk towards several targets at once (``best_first``: the position with
the fewest plies played plus, weighted, the plies both sides' steps
still need and the steps themselves is expanded next, moves that capture
nothing only, generated from the attack tables), which finds most
lines within a few hundred positions; then a depth-first walk of the
legal moves (``walk_to``), each side trying first the moves that bring its
own men nearest their targets, positions never visited twice at a depth,
which settles the order of the last moves where the first does not.

It is only ever a way to *find* a line: every line it returns ends in a
checkmate by the mating side and is replayed by python-chess before any
answer is given (``verify``).  It proves nothing when it fails; the caller
then falls back to the general search.

Limits: the distances ignore the other men (a blocked path, a pinned man,
a square the king may not enter), which the walk's backtracking has to
find out, but for the squares the mating side's men already on their
squares guard in the mate, round which the best-first walk counts the
defender's king's steps, and a slider's line to its square, which the
best-first walk counts 2 where another man of its side closes it
(``_blockers``); with a budget of a few hundred positions a route that
needs a long detour is not found.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import random
from collections.abc import Sequence
from operator import itemgetter
from typing import Final

import chess

from .budget import Budget
from .distances import DISTANCE, KNIGHT_DISTANCE
from .helpmate import mating_move
from .legal import STRAIGHT_LINES, has_free_flights

Target = tuple[chess.PieceType, chess.Color, chess.Square]
FAR: Final = 99  # no route (a bishop to a square of the other colour; a man to be captured)


KNIGHT_STEPS: Final = KNIGHT_DISTANCE  # knight moves between two squares, on an empty board


def _piece_steps(piece: chess.PieceType, start: chess.Square, end: chess.Square) -> int:
    """``piece_steps``, computed."""
    if start == end:
        return 0
    if piece == chess.KING:
        return DISTANCE[start][end]
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
    queening = chess.square(chess.square_file(start), 7 if color == chess.WHITE else 0)
    return min(FAR, pushes + _piece_steps(target, queening, end))


@functools.cache
def pawn_steps(color: chess.Color, start: chess.Square, target: chess.PieceType, end: chess.Square) -> int:
    """Moves a pawn needs to become ``target`` on ``end``: its pushes to the
    last rank on its own file, then the new piece's (cached, as
    ``piece_steps``).  The walks play no capture, so a pawn never changes
    its file there: a target that needs it would only take their nodes."""
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


def _steps_by_side(
    board: chess.Board, targets: dict[chess.Square, Target], mating: chess.Color | None = None
) -> tuple[int, int]:
    """The moves the side to move's men need, and the other side's (with
    ``mating``, the mating side, given: a slider whose line to its square
    another man of its side closes counts 2, ``_blockers``, as
    ``best_first`` prices its moves)."""
    mine = theirs = 0
    for square, target in targets.items():
        piece = board.piece_type_at(square)
        color = board.color_at(square)
        if piece is None or color is None:
            return FAR, FAR
        steps = man_steps(piece, color, square, target)
        if (
            mating is not None
            and steps == 1
            and piece in SLIDERS
            and chess.between(square, target[2]) & _blockers(board, color, mating)
        ):
            steps = 2
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
    ``_quiet_steps``'s order on a tie (its moves are legal)."""
    scored = [
        (steps, fr, to, promotion)
        for fr, to, promotion, steps, _ in _quiet_steps(board, targets)
        if mine + steps <= moves_left - 1
    ]
    scored.sort(key=itemgetter(0))
    return [(steps, chess.Move(fr, to, promotion or None)) for steps, fr, to, promotion in scored[:BRANCHES]]


SLIDERS: Final = (chess.BISHOP, chess.ROOK, chess.QUEEN)
PROBE_FLIGHTS: Final = 2  # a mate in one is looked for where the king has fewer free flights
Position = tuple[int, int, int, int, int, int, int, bool]  # ``_key``'s
# (f, steps left, order, parent node, plan, from, to, promotion, the man moved)
Entry = tuple[int, int, int, int, int, int, int, int, int, int]


@functools.cache
def steps_row(piece: chess.PieceType, color: chess.Color, kind: chess.PieceType, end: chess.Square) -> list[int]:
    """For every square, the moves ``piece`` (of ``color``) needs from there
    to fill the target ``kind`` on ``end`` (``man_steps``, as one table)."""
    return [man_steps(piece, color, square, (kind, color, end)) for square in chess.SQUARES]


# The walk's order: ``(plies, total)`` weights of the plies both sides'
# steps still need (``_priority``) and of the steps in all, against the
# plies played.  ``GREEDY``: by the plies (the side that waits costs
# nothing); ``TOTAL``: by the steps in all, which finds other lines
# (measured on random positions of at most five men).
Weights = tuple[int, int]
GREEDY: Final = (12, 3)
TOTAL: Final = (0, 6)


# Besides, in either order, the defender's steps weigh ``DEFENDER`` more
# each, and its king's distance to its square ``DEFENDER_KING`` more: the
# walk brings the defender home first, before the mating side's men close
# the squares round its king and the checker has to leave and come back
# (measured on random positions of at most five men: 9% fewer nodes, a
# quarter fewer questions over 400).  Only where the defender has men: a
# lone king's walks gain nothing on the whole, and some lose (K+N+B v K's
# ``3N4/1K6/8/1B6/8/8/8/2k5 w - -``: 198 nodes against 31).  Not the
# king's where the defender has a queen, whose moves to spare order the
# last plies instead (one real-game question, K+N v K+R+Q, 18 nodes
# against 29; the random ones lose a little: 104 over 400 against 99).
DEFENDER: Final = 4
DEFENDER_KING: Final = 1


def _leans(board: chess.Board, color: chess.Color) -> tuple[int, int]:
    """The more the defender's steps weigh in ``best_first``'s order, and
    its king's distance to its square (``DEFENDER``, ``DEFENDER_KING``):
    none against a lone king, no king's against a queen."""
    men = board.occupied_co[not color] & ~board.kings
    if not men:
        return 0, 0
    return DEFENDER, 0 if men & board.queens else DEFENDER_KING


def _priority(depth: int, mine: int, theirs: int, weights: Weights) -> int:
    """The walk's order of a position ``depth`` plies deep whose side to
    move needs ``mine`` steps, the other ``theirs`` (the fewer, the sooner):
    the plies played, and the plies and steps left, weighted."""
    plies = max(2 * mine - 1, 2 * theirs)
    return depth + weights[0] * plies + weights[1] * (mine + theirs)


def best_first(
    board: chess.Board,
    color: chess.Color,
    plans: Sequence[Sequence[Target]],
    budget: Budget,
    weights: Weights = GREEDY,
) -> tuple[list[chess.Move], int] | None:
    """A line from ``board`` to a mate by ``color``, found by a best-first
    walk towards any of ``plans`` (each a mate's targets) at once, or None
    within ``budget`` (a node: a position expanded).  The position expanded
    next is the one with the least ``_priority``: the plies played plus,
    ``weights``-weighted, the plies the men's steps still need and the
    steps themselves (with weights ``(0, 1)`` this would be A*, the
    shortest line: each ply takes at most one step off), the defender's
    weighing more (``DEFENDER``, ``DEFENDER_KING``), its king's steps
    counted round the squares the mating side's men already home guard
    (``_detours``, ``WALLED_OFF``); a position is
    expanded once for each plan.  Only moves that capture nothing are
    walked (every man has its place in the plan), each one legal
    (``_quiet_steps``), queued and made once taken from the queue (its
    key made then, the position set up from it on one working board,
    ``_Walk``).  Any mate by ``color`` met on the way ends the walk, a
    pattern's or not, and so does a mate in one where the king is short
    of flights: the line and the plan it walked towards.  ``board`` is
    left as it was."""
    walk = _Walk(board)
    heap = walk.plant(plans, color, weights)
    seen: list[set[int]] = [set() for _ in walk.roots]  # each plan's positions expanded, by ``_Walk.hashes``
    count, leans = len(heap), _leans(board, color)
    while heap:
        _, steps, _, parent, index, fr, to, promotion, piece, step = heapq.heappop(heap)
        hashed = walk.root_hash if parent < 0 else walk.hash_after(parent, piece, fr, to, promotion)
        if hashed in seen[index]:
            continue  # most positions taken from the queue: known, found so without making their key
        position = walk.root_key if parent < 0 else _after(walk.keys[parent], piece, fr, to, promotion)
        b, where = walk.make(parent, index, fr, to, position)
        seen[index].add(hashed)
        if budget.spend():
            return None
        if parent < 0:
            sides = _steps_by_side(b, where, color)
        else:  # a move closes or opens only its own side's lines (``_blockers``; a promotion: not counted)
            mine, theirs = walk.sides[parent]
            sides = (theirs, mine + step)
        node = walk.add(where, parent, (fr, to, promotion), position, hashed, sides)
        allowed = _allowed(b, b.turn)
        if b.turn != color and allowed[3] and b.is_checkmate():
            return walk.line_to(node), index
        if b.turn == color and not has_free_flights(b, color, b.king(not color) or 0, PROBE_FLIGHTS):
            mate = mating_move(b, color)[0]
            if mate is not None:
                return [*walk.line_to(node), mate], index
        count = _queue(heap, walk, b, where, allowed, node, index, steps, count, color, weights, leans)
    return None


def _queue(
    heap: list[Entry],
    walk: _Walk,
    b: chess.Board,
    where: dict[chess.Square, Target],
    allowed: Allowed,
    node: int,
    index: int,
    steps: int,
    count: int,
    color: chess.Color,
    weights: Weights,
    leans: tuple[int, int],
) -> int:
    """Queue the moves of ``_quiet_steps`` from ``b`` (the position of
    ``node``, walked towards plan ``index``; ``steps``: its steps in all),
    in its order, each with the ``_priority`` of the position after it,
    inlined and priced from what a man's moves share; the count after."""
    depth, (mine, theirs) = walk.depths[node] + 1, walk.sides[node]
    (first, second), (weight, pull) = weights, leans  # ``_leans``: the defender's steps after, its king's distance
    bits, walls, king_home = walk.guards[index]
    king = b.king(not color) or 0
    home = king == king_home
    guards = _at_home(where, bits)
    detours = _detours(walls[guards], king_home)
    waiting = 0 if home else detours[king]
    turn, mating = b.turn, b.turn == color
    far = pull * DISTANCE[king][king_home]
    empty = ~b.occupied & chess.BB_ALL
    lines = _lines(b, where, own := _blockers(b, turn, color))  # ``_open_row``'s
    push = heapq.heappush
    movers = b.occupied_co[turn]
    while movers:
        fr = movers.bit_length() - 1
        movers ^= chess.BB_SQUARES[fr]
        kind, _, end = target = where[fr]
        piece = chess.PAWN if b.pawns & chess.BB_SQUARES[fr] else kind
        targets, promotes = _man_targets(b, fr, piece, turn, empty, allowed)
        promotion = kind if promotes else 0
        row, here = _open_row(own, fr, piece, end, targets, steps_row(piece, turn, kind, end), lines)
        away = waiting
        if mating and not home and (fr == end or targets & chess.BB_SQUARES[end]):
            away = _detours(walls[guards ^ bits[target]], king_home)[king]  # a guard home or away
        extra = away if fr == end else waiting
        # Most men's moves leave the other side's steps as they are: only its own side's change.
        t = theirs if mating else theirs + waiting
        waits = first * (2 * t - 1)
        base = depth + second * t + far + (weight * theirs if mating else 0)
        double = 2 * first
        per = second if mating else second + weight  # the defender's own steps weigh more
        moved = mine + (extra if mating else 0)
        king_steps = not mating and piece == chess.KING  # the defender's king: priced move by move
        while targets:
            to = targets.bit_length() - 1
            targets ^= chess.BB_SQUARES[to]
            if row[to] >= FAR:
                continue
            step = row[to] - here
            count += 1
            if king_steps:  # counted round the guarded squares, its distance to its square
                m, t = mine + step, theirs + (0 if to == king_home else detours[to])
                waits, moves = first * (2 * t - 1), double * m
                lean = weight * m + pull * DISTANCE[to][king_home]
                f = depth + (waits if waits > moves else moves) + second * (t + m) + lean
            else:
                m = moved + step if to != end or not mating else mine + step + away
                moves = double * m
                f = base + (waits if waits > moves else moves) + per * m
            push(heap, (f, steps + step, count, node, index, fr, to, promotion, piece, step))
    return count


def _reach(piece: chess.PieceType, end: chess.Square, occupied: int) -> int:
    """The squares from which a slider ``piece`` reaches ``end`` in one move
    past the men ``occupied`` (every square where it is no slider)."""
    if piece == chess.BISHOP:
        return chess.BB_DIAG_ATTACKS[end][chess.BB_DIAG_MASKS[end] & occupied]
    straight = (
        chess.BB_RANK_ATTACKS[end][chess.BB_RANK_MASKS[end] & occupied]
        | chess.BB_FILE_ATTACKS[end][chess.BB_FILE_MASKS[end] & occupied]
    )
    if piece == chess.ROOK:
        return straight
    if piece == chess.QUEEN:
        return straight | chess.BB_DIAG_ATTACKS[end][chess.BB_DIAG_MASKS[end] & occupied]
    return chess.BB_ALL


def _blockers(board: chess.Board, turn: chess.Color, color: chess.Color) -> int:
    """The men that close a line of a slider of ``turn`` in ``best_first``'s
    steps (``color``: the mating side): its own side's, which it moves, not
    the other side's, which move away; none for a defender with a queen,
    whose waiting moves order the last plies instead (as ``_leans``).
    (Measured on random positions of at most five men: 69 questions over
    400 against 81 counting no line; 65 counting every man, but K+N v
    K+R+Q's ``5R2/7Q/k7/8/8/7n/7K/8 b - -``, the queen closing the rook's
    line, then takes 58 nodes, not 19; 78 with the mating side's only.)"""
    men = board.occupied_co[turn]
    return men if turn == color or not men & board.queens else chess.BB_EMPTY


Lines = tuple[int, list[tuple[int, int]]]  # ``_lines``'s


def _lines(board: chess.Board, where: dict[chess.Square, Target], men: int) -> Lines:
    """The lines the sliders among ``men`` one move from their squares (on
    an empty board) move along to them: all their squares, and each one's
    slider and squares between; a man moved onto one closes it, off it
    opens it."""
    union = 0
    lines = []
    for square in chess.scan_forward((board.bishops | board.rooks | board.queens) & men):
        kind, _, end = where[square]
        if piece_steps(kind, square, end) == 1:
            line = chess.between(square, end)
            union |= line
            lines.append((square, line))
    return union, lines


def _open_row(
    occupied: int,
    fr: chess.Square,
    piece: chess.PieceType,
    end: chess.Square,
    targets: int,
    row: list[int],
    lines: Lines,
) -> tuple[list[int], int]:
    """``steps_row`` for the man ``piece`` on ``fr``, from where its own
    side's men ``occupied`` really stand, on the squares ``targets`` it may
    move to, and its steps from ``fr``: a slider whose line to ``end``
    another man of its side closes needs 2 moves, not 1; a man that closes
    a line of its side's sliders (``_lines``) costs them a step more
    (``_closes``).  ``row`` itself where nothing changes (most men: no list
    made; none where ``occupied`` is empty, ``_blockers``)."""
    here = row[fr]
    blocked = 0
    if piece in SLIDERS and occupied:
        clear = _reach(piece, end, occupied & ~chess.BB_SQUARES[fr])
        blocked = targets & ~clear & _reach(piece, end, chess.BB_EMPTY)  # on its lines, closed
        if here == 1 and not clear & chess.BB_SQUARES[fr]:
            here = 2
    union, slides = lines
    touched = targets if chess.BB_SQUARES[fr] & union else targets & union
    if not blocked and not touched:
        return row, here
    row = list(row)
    for to in chess.scan_forward(blocked):
        if row[to] == 1:
            row[to] = 2
    for to in chess.scan_forward(touched):
        if row[to] < FAR:
            row[to] += _closes(slides, occupied, fr, to)
    return row, here


def _closes(lines: list[tuple[int, int]], occupied: int, fr: chess.Square, to: chess.Square) -> int:
    """The steps more (fewer where it opens one) the move from ``fr`` to
    ``to`` costs its own side's sliders by closing their ``_lines``
    (``occupied``: that side's men, ``_blockers``): one shut out needs two
    moves, not one."""
    after = occupied ^ chess.BB_SQUARES[fr] ^ chess.BB_SQUARES[to]
    change = 0
    for square, line in lines:
        if square != fr:  # a slider moved: its own steps are counted from where it goes
            change += bool(line & after) - bool(line & occupied)
    return change


# The defender's king must reach its square past the mating side's men:
# those already on their squares guard, as in the mate, the squares around
# it (the checker, the square itself).  The king's steps counted round them
# (its distance where they wall nothing off), and where they wall it off
# entirely, one of them must leave and come back: counted as this many
# steps more of the mating side.  (Measured on random positions of at most
# five men, against the rule before it, which counted only a knight's check:
# 4% fewer nodes, 16% fewer questions over 300.  Two steps, the true cost,
# drew the walk from the lines of other mates met on the way; counting a
# bishop's, rook's or queen's check too, whose line may be closed
# meanwhile, even next to the king, 4% more nodes.)
WALLED_OFF: Final = 1


@functools.lru_cache(maxsize=4096)
def _guards(targets: tuple[Target, ...], color: chess.Color) -> tuple[dict[Target, int], tuple[int, ...], chess.Square]:
    """The mate ``targets``' guards: a bit for each man of ``color``, the
    squares those of each set of bits guard in the mate (a knight's or
    pawn's check included, a slider's not), and the defender's king's
    square (cached: a material's placements are asked again by each
    question)."""
    pattern = chess.BaseBoard(None)
    for kind, side, square in targets:
        pattern.set_piece_at(square, chess.Piece(kind, side))
    king = next(end for kind, side, end in targets if kind == chess.KING and side != color)
    men = [target for target in targets if target[1] == color]
    guarded = []
    for kind, _, square in men:
        mask = pattern.attacks_mask(square)
        guarded.append(mask & ~chess.BB_SQUARES[king] if kind in (chess.BISHOP, chess.ROOK, chess.QUEEN) else mask)
    walls = [0] * (1 << len(men))
    for bits in range(1, len(walls)):
        low = bits & -bits
        walls[bits] = walls[bits ^ low] | guarded[low.bit_length() - 1]
    return {target: 1 << i for i, target in enumerate(men)}, tuple(walls), king


def _at_home(where: dict[chess.Square, Target], bits: dict[Target, int]) -> int:
    """The bits of the men on their own squares (``where``: the men's targets by square)."""
    home = 0
    for target, bit in bits.items():
        if where.get(target[2]) == target:
            home |= bit
    return home


@functools.lru_cache(maxsize=1 << 14)
def _detours(walls: int, king: chess.Square) -> tuple[int, ...]:
    """For each square, the king's steps from it to ``king`` round the
    squares ``walls`` beyond its distance, or ``WALLED_OFF`` where they wall
    ``king`` off (the square itself may be guarded: a king may stand in
    check on its first step)."""
    far = 64
    steps = [far] * 64
    if not walls & chess.BB_SQUARES[king]:
        steps[king] = 0
        frontier = [king]
        while frontier:
            after = []
            for square in frontier:
                for near in chess.scan_forward(chess.BB_KING_ATTACKS[square] & ~walls):
                    if steps[near] == far:
                        steps[near] = steps[square] + 1
                        after.append(near)
            frontier = after
    detours = []
    for square in chess.SQUARES:
        if walls & chess.BB_SQUARES[square]:
            near = min(steps[n] for n in chess.scan_forward(chess.BB_KING_ATTACKS[square])) + 1
        else:
            near = steps[square]
        detours.append(WALLED_OFF if near >= far else near - chess.square_distance(square, king))
    return tuple(detours)


class _Walk:
    """``best_first``'s expanded positions: each one's targets by square,
    parent and move, depth, key and steps by side.  The positions are set
    up in turn on one working board from their keys (a move that captures
    nothing changes only the men's bitboards and the turn), not copied."""

    def __init__(self, board: chess.Board) -> None:
        self.board = board
        self.work = board.copy(stack=False)
        self.root_key = _key(board)
        self.root_hash = _hash(board)
        self.hashes: list[int] = []  # each position's ``_hash``
        self.roots: list[dict[chess.Square, Target]] = []
        self.guards: list[tuple[dict[Target, int], tuple[int, ...], chess.Square]] = []  # ``_guards`` of each plan
        self.maps: list[dict[chess.Square, Target]] = []
        self.links: list[tuple[int, tuple[int, int, int]]] = []  # each position's parent and move to it
        self.depths: list[int] = []
        self.keys: list[Position] = []
        self.sides: list[tuple[int, int]] = []

    def plant(self, plans: Sequence[Sequence[Target]], color: chess.Color, weights: Weights) -> list[Entry]:
        """The queue's first entries, the root once for each plan its men
        fit (``assign``), each plan's men's targets and guards kept."""
        heap: list[Entry] = []
        for targets in plans:
            assigned = assign(self.board, targets)
            if assigned is not None and assigned[1] < FAR:
                self.guards.append(_guards(tuple(targets), color))
                mine, theirs = _steps_by_side(self.board, assigned[0], color)
                f = _priority(0, mine, theirs, weights)
                heap.append((f, assigned[1], len(heap), -1, len(self.roots), 0, 0, 0, 0, 0))
                self.roots.append(assigned[0])
        heapq.heapify(heap)
        return heap

    def make(
        self, parent: int, index: int, fr: int, to: int, position: Position
    ) -> tuple[chess.Board, dict[chess.Square, Target]]:
        """The position after the queued move from ``fr`` to ``to`` (the
        root's for ``parent`` -1, with its castling rights and en passant
        square), and its men's targets.  Valid until the next call.  The
        move is legal: ``_quiet_steps`` lists no other."""
        if parent < 0:
            return self.board.copy(stack=False), self.roots[index]
        b = self.work
        _set_position(b, position)
        where = dict(self.maps[parent])
        where[to] = where.pop(fr)
        return b, where

    def add(
        self,
        where: dict[chess.Square, Target],
        parent: int,
        move: tuple[int, int, int],
        position: Position,
        hashed: int,
        sides: tuple[int, int],
    ) -> int:
        """Keep an expanded position (``move``: the one to it, from, to and
        promotion; a Move is made only for a line found); its node number."""
        self.sides.append(sides)
        self.maps.append(where)
        self.links.append((parent, move))
        self.depths.append(0 if parent < 0 else self.depths[parent] + 1)
        self.keys.append(position)
        self.hashes.append(hashed)
        return len(self.maps) - 1

    def hash_after(self, parent: int, piece: chess.PieceType, fr: int, to: int, promotion: int) -> int:
        """``_hash`` of the position after the queued move from ``parent``'s
        (``piece`` from ``fr`` to ``to``, ``promotion`` its new kind or 0),
        from ``parent``'s: three keys changed, no key made."""
        keys = ZOBRIST[self.keys[parent][7]]
        return self.hashes[parent] ^ keys[piece][fr] ^ keys[promotion or piece][to] ^ TURN_KEY

    def line_to(self, node: int) -> list[chess.Move]:
        """The moves from the root to ``node``, by the parents' links."""
        return _line_to(self.links, node)


def _zobrist() -> tuple[list[list[int]], ...]:
    """Random keys of a man of each colour and kind on each square, a fixed
    seed (the walk's order never depends on them: they only tell positions apart)."""
    rng = random.Random(0x5EED)
    return tuple([[rng.getrandbits(64) for _ in chess.SQUARES] for _ in range(7)] for _ in chess.COLORS)


# ``_hash``'s keys, by colour (BLACK, WHITE), kind and square; and the side to move's.
ZOBRIST: Final = _zobrist()
TURN_KEY: Final = random.Random(0x7E).getrandbits(64)


def _hash(board: chess.Board) -> int:
    """A hash of the men and the side to move (the walk's ``_key`` without
    its castling rights and en passant square, which no position after a
    move of the walk has), made move by move (``_Walk.hash_after``).  Two
    positions that share it are taken as one by ``best_first``: a finder
    only, which at worst (one pair in some 10^19) misses a line the
    searches after it find."""
    hashed = TURN_KEY if board.turn == chess.WHITE else 0
    for square in chess.scan_forward(board.occupied):
        hashed ^= ZOBRIST[board.color_at(square) or 0][board.piece_type_at(square) or 0][square]
    return hashed


def _set_position(board: chess.Board, position: Position) -> None:
    """Set ``board`` to ``position`` (``_key``'s), no en passant, no
    castling right: the position after a move of the walk (no move of it
    castles, and a mate found is replayed from the start by python-chess)."""
    pawns, knights, bishops, rooks, queens, kings, white, turn = position
    board.pawns, board.knights, board.bishops = pawns, knights, bishops
    board.rooks, board.queens, board.kings = rooks, queens, kings
    occupied = pawns | knights | bishops | rooks | queens | kings
    board.occupied = occupied
    board.occupied_co[chess.WHITE] = white
    board.occupied_co[chess.BLACK] = occupied & ~white
    board.promoted = chess.BB_EMPTY
    board.turn = turn
    board.ep_square = None
    board.castling_rights = chess.BB_EMPTY


def _after(position: Position, piece: chess.PieceType, fr: int, to: int, promotion: int) -> Position:
    """``_key`` of the position after a move that captures nothing."""
    pawns, knights, bishops, rooks, queens, kings, white, turn = position
    boards = [0, pawns, knights, bishops, rooks, queens, kings]
    path = chess.BB_SQUARES[fr] | chess.BB_SQUARES[to]
    if promotion:
        boards[chess.PAWN] ^= chess.BB_SQUARES[fr]
        boards[promotion] ^= chess.BB_SQUARES[to]
    else:
        boards[piece] ^= path
    if turn == chess.WHITE:
        white ^= path
    return (boards[1], boards[2], boards[3], boards[4], boards[5], boards[6], white, not turn)


Allowed = tuple[int, int, dict[chess.Square, int], bool]  # ``_allowed``'s


def _quiet_steps(
    board: chess.Board, where: dict[chess.Square, Target], allowed: Allowed | None = None
) -> list[tuple[int, int, int, int, int]]:
    """The side to move's legal moves that capture nothing (no castling, no
    en passant), each with the steps it takes its man nearer (negative) its
    target: ``(from, to, promotion, steps, piece)``.  Legal by
    construction (``_allowed``: the king never steps onto an attacked
    square, a pinned man stays on its line, in check the other men only
    block); ``allowed``: ``_allowed(board, board.turn)`` if the caller has
    it.  Bits are taken from the highest down, as ``chess.scan_reversed``."""
    turn = board.turn
    empty = ~board.occupied & chess.BB_ALL
    allowed = allowed or _allowed(board, turn)
    out: list[tuple[int, int, int, int, int]] = []
    movers = board.occupied_co[turn]
    while movers:
        fr = movers.bit_length() - 1
        movers ^= chess.BB_SQUARES[fr]
        kind, _, end = where[fr]
        # every man but a pawn is of its target's kind (``man_steps``)
        piece = chess.PAWN if board.pawns & chess.BB_SQUARES[fr] else kind
        targets, promotes = _man_targets(board, fr, piece, turn, empty, allowed)
        promotion = kind if promotes else 0
        row = steps_row(piece, turn, kind, end)
        here = row[fr]
        while targets:
            to = targets.bit_length() - 1
            targets ^= chess.BB_SQUARES[to]
            if row[to] < FAR:
                out.append((fr, to, promotion, row[to] - here, piece))
    return out


def _man_targets(
    board: chess.Board, fr: chess.Square, piece: chess.PieceType, turn: chess.Color, empty: int, allowed: Allowed
) -> tuple[int, bool]:
    """The empty squares the man ``piece`` of ``turn`` on ``fr`` may move to
    legally (``_allowed``'s), and whether it promotes there (a pawn's step
    onto the last rank)."""
    king_to, piece_to, pins, _ = allowed
    promotes = False
    if piece == chess.PAWN:
        ahead = fr + 8 if turn == chess.WHITE else fr - 8
        if not 0 <= ahead < 64 or not empty & chess.BB_SQUARES[ahead]:
            return 0, False
        targets = chess.BB_SQUARES[ahead]
        two = ahead + 8 if turn == chess.WHITE else ahead - 8
        if chess.square_rank(fr) == (1 if turn == chess.WHITE else 6) and empty & chess.BB_SQUARES[two]:
            targets |= chess.BB_SQUARES[two]
        if targets & (chess.BB_RANK_8 if turn == chess.WHITE else chess.BB_RANK_1):
            promotes = True
        targets &= piece_to
    elif piece == chess.KING:
        targets = chess.BB_KING_ATTACKS[fr] & empty & king_to
    elif piece == chess.KNIGHT:
        targets = chess.BB_KNIGHT_ATTACKS[fr] & empty & piece_to
    else:
        targets = board.attacks_mask(fr) & empty & piece_to
    if fr in pins:
        targets &= pins[fr]
    return targets, promotes


def _allowed(board: chess.Board, turn: chess.Color) -> Allowed:
    """For the men of ``turn``: the squares its king may step onto (none
    that the other side attacks, its sliders seen through the king); the
    squares the other men may move to (all but in check: then only the
    squares between the king and a single sliding checker); the line each
    pinned man must stay on, by square; and whether the king is in check."""
    kings = board.kings & board.occupied_co[turn]
    if not kings:
        return chess.BB_ALL, chess.BB_ALL, {}, False
    king = kings.bit_length() - 1
    occupied = board.occupied & ~kings
    danger = 0
    theirs = board.occupied_co[not turn]
    leapers = theirs & (board.knights | board.kings | board.pawns)
    sliders = theirs & ~leapers
    while leapers:  # one man at a time: there are at most four
        square = leapers.bit_length() - 1
        bit = chess.BB_SQUARES[square]
        leapers ^= bit
        if bit & board.knights:
            danger |= chess.BB_KNIGHT_ATTACKS[square]
        elif bit & board.kings:
            danger |= chess.BB_KING_ATTACKS[square]
        else:
            danger |= chess.BB_PAWN_ATTACKS[not turn][square]
    pins: dict[chess.Square, int] = {}
    while sliders:
        square = sliders.bit_length() - 1
        bit = chess.BB_SQUARES[square]
        sliders ^= bit
        diagonal = bit & (board.bishops | board.queens)
        straight = bit & (board.rooks | board.queens)
        if diagonal:
            danger |= chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied]
        if straight:
            danger |= (
                chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
                | chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied]
            )
        if chess.BB_RAYS[king][square]:  # on a line with the king: it may pin
            _pin(board, turn, king, square, straight if STRAIGHT_LINES[king] & bit else diagonal, pins)
    in_check = bool(danger & kings)
    if not in_check:
        return ~danger, chess.BB_ALL, pins, False
    checkers = board.attackers_mask(not turn, king)
    if checkers & (checkers - 1):
        return ~danger, chess.BB_EMPTY, pins, True  # double check: only the king moves
    return ~danger, chess.between(king, checkers.bit_length() - 1), pins, True


def _pin(
    board: chess.Board, turn: chess.Color, king: chess.Square, slider: chess.Square, along: int, pins: dict[int, int]
) -> None:
    """Where the other side's ``slider`` (``along``: it moves along the
    line to ``king``) pins a single man of ``turn`` to ``king``, that man's
    line, in ``pins`` by square."""
    line = chess.BB_RAYS[king][slider]
    if not along or not line:
        return
    between = chess.between(king, slider) & board.occupied
    if between and not between & (between - 1) and between & board.occupied_co[turn]:
        pins[between.bit_length() - 1] = line


def _line_to(links: list[tuple[int, tuple[int, int, int]]], node: int) -> list[chess.Move]:
    """The moves from the root to ``node``, by the parents' links (the root's is none)."""
    line: list[chess.Move] = []
    while node >= 0:
        parent, (fr, to, promotion) = links[node]
        if parent >= 0:
            line.append(chess.Move(fr, to, promotion or None))
        node = parent
    line.reverse()
    return line
