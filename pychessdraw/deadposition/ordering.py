# SPDX-License-Identifier: GPL-3.0-or-later
"""Move ordering and step costs that steer the helpmate search.

In a helpmate both sides cooperate, so the search is a race to a mating
picture: the loser's king walks to a corner, the winner's pieces and king
come close, pawns run to promote, and the loser's other pieces stay alive as
blockers (capturing the winner's material is discouraged).  A move that
makes progress costs 0 depth, an ordinary move 1, a discouraged move 3, so
iterative deepening follows promising lines far beyond its nominal depth.
Rewards are only given for irreversible progress (captures, pawn moves) or
for approaching a *fixed* square, so free moves cannot cycle forever.

Ordering never affects soundness: a ``False`` answer needs the whole tree to
end in proven terminal positions, whatever the order.
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import itemgetter
from typing import Final

import chess

from .distances import DISTANCE, KNIGHT_DISTANCE
from .first_move import CLOSER, STUCK_PAWN, best_first_move, best_quiet_move, stuck_squares
from .legal import check_targets

REWARD: Final = 0
NORMAL: Final = 1
PUNISH: Final = 3

_VALUE: Final = (0, 1, 3, 3, 5, 9, 0)
_SCORE: Final = itemgetter(0)


def mating_corner(board: chess.Board, winner: chess.Color, anywhere: bool = False) -> int:
    """The corner where we try to mate: on the loser's back rank.

    When the winner's only mating force is bishops, its colour follows them
    (or the loser's bishops, which then must block); against a bare king,
    when mate needs a pawn to promote first, the corner away from that pawn;
    otherwise the corner nearest the king (helpmates, unlike forced mates,
    need no special corner), with ``anywhere`` on either side of the board.
    """
    mine = board.occupied_co[winner]
    if not mine & (board.queens | board.rooks):  # else none of the special cases
        special = _material_corner(board, winner, mine)
        if special is not None:
            return special
    king = board.kings & board.occupied_co[not winner] & ~board.promoted  # ``board.king(not winner)``
    if not king:
        return _CORNERS[winner][0]
    return (_NEAREST_ANYWHERE if anywhere else _NEAREST)[winner][king.bit_length() - 1]


def _material_corner(board: chess.Board, winner: chess.Color, mine: chess.Bitboard) -> int | None:
    """``mating_corner`` where the material decides it (the winner has no
    rook or queen), else None."""
    # a1 and h8 are dark; on rank 8 the dark corner is h8, on rank 1 it is a1.
    dark_corner, light_corner = _CORNERS[winner]
    others = mine & ~board.kings & ~board.bishops
    wb = 0
    if not others:
        wb = board.bishops & mine
        if wb & chess.BB_DARK_SQUARES and not wb & chess.BB_LIGHT_SQUARES:
            return dark_corner
        if wb & chess.BB_LIGHT_SQUARES and not wb & chess.BB_DARK_SQUARES:
            return light_corner
    if not wb and not others & ~board.pawns & ~board.knights:
        lb = board.bishops & board.occupied_co[not winner]
        if lb:
            return dark_corner if lb & chess.BB_LIGHT_SQUARES else light_corner
    pawns = mine & board.pawns
    if (
        pawns
        and chess.popcount(mine & (board.knights | board.bishops)) <= 1
        and not board.occupied_co[not winner] & ~board.kings
    ):
        # Mate needs a promotion first: the loser's bare king makes way for
        # the most advanced pawn, to the corner on the other wing.
        lead = chess.square_file(chess.msb(pawns) if winner == chess.WHITE else chess.lsb(pawns))
        return max(dark_corner, light_corner, key=lambda corner: abs(chess.square_file(corner) - lead))
    return None


_CORNERS: Final = {chess.WHITE: (chess.H8, chess.A8), chess.BLACK: (chess.A1, chess.H1)}
# The nearer of the two corners (the dark one on a tie), per winner and king square.
_NEAREST: Final = {
    color: [dark if DISTANCE[sq][dark] <= DISTANCE[sq][light] else light for sq in chess.SQUARES]
    for color, (dark, light) in _CORNERS.items()
}
# The nearest of the four corners: those of the loser's back rank on a tie
# (``min`` keeps the first of equals, and they come first).
_NEAREST_ANYWHERE: Final = {
    color: [
        min((dark, light, *(chess.A1, chess.H1, chess.A8, chess.H8)), key=lambda corner: DISTANCE[sq][corner])
        for sq in chess.SQUARES
    ]
    for color, (dark, light) in _CORNERS.items()
}


def needs_loser_promotion(board: chess.Board, winner: chess.Color) -> bool:
    """Does mate need the loser to under-promote to a blocker?  (Heuristic only.)"""
    ours = board.occupied_co[winner] & ~board.kings
    theirs = board.occupied_co[not winner] & ~board.kings
    if ours & board.pawns:
        return False
    if ours == ours & board.knights and chess.popcount(ours) == 1:
        return not theirs & (board.knights | board.bishops | board.rooks)
    if ours == ours & board.bishops:
        other = chess.BB_LIGHT_SQUARES if ours & chess.BB_DARK_SQUARES else chess.BB_DARK_SQUARES
        return not (board.bishops & other) and not (theirs & board.knights)
    return False


def ordered_moves(
    board: chess.Board, moves: list[chess.Move], winner: chess.Color, corner: int, loser_promotes: bool
) -> list[tuple[chess.Move, int]]:
    """Return ``(move, cost)`` pairs, most promising first."""
    scored = _scored(board, moves, winner, corner, loser_promotes)
    scored.sort(key=_SCORE, reverse=True)  # stable: ties keep the generation order
    return [(m, c) for _, c, m in scored]


# Scores that only the first stage of ``staged_moves`` can reach: the
# winner's captures and queen promotions (60 and up; every other winner move
# scores at most 37), the loser king's quiet steps towards the corner (50;
# every other loser move at most 40).
WINNER_FIRST: Final = 60
LOSER_FIRST: Final = 50


def staged_moves(
    board: chess.Board, winner: chess.Color, checkers: int | None = None, *, anywhere: bool = False
) -> Iterator[chess.Move]:
    """The pseudo-legal moves in ``ordered_moves`` order, generated in two stages.

    A dive usually takes one of the first few moves, so the moves that can
    come first (the winner's captures and queen promotions, the loser's king
    steps) are generated and sorted alone; the rest only if the walk comes
    back for them.  The order is exactly that of ``ordered_moves`` over
    every pseudo-legal move: each stage keeps python-chess's generation order
    (the sort is stable).  A winner's first-stage move scoring below the
    threshold is deferred to the second stage, where it ties with no move
    generated before it in the full order except sliders, which come first
    there too; the loser's second stage is every move not yet yielded.

    ``checkers`` (``board.checkers_mask()``), if given, with the winner in
    check: only the king's steps and the moves onto the squares that take
    or block the check are generated (the others are illegal; dropping
    them before the stable sort keeps the order of the rest).  ``anywhere``:
    the corner is ``mating_corner``'s with ``anywhere``.
    """
    corner = mating_corner(board, winner, anywhere)
    if board.turn != winner:
        return _staged(board, winner, corner)
    if checkers:
        king = board.king(winner)
        reach = chess.BB_ALL if king is None else chess.BB_KING_ATTACKS[king] | _evasions(board, king, checkers)
        return _staged(board, winner, corner, reach)
    return _winner_moves(board, winner, corner)


def _winner_moves(board: chess.Board, winner: chess.Color, corner: int) -> Iterator[chess.Move]:
    """``staged_moves`` for the winner, not in check."""
    best = best_first_move(board, corner)
    if best is None:
        yield from _staged(board, winner, corner)
        return
    tried = [best]
    yield best  # the walk rarely asks for more
    # It came back (mostly: the king stepped onto an attacked square).  While
    # the moves tried are quiet moves of pieces, there are no captures or
    # promotions, and the next move is the best quiet move of the others
    # (unless the loser's king is attacked: ``best_first_move`` does not
    # look at its capture, which only a position set up that way has).
    skip: dict[chess.Square, chess.Bitboard] = {}
    while _piece_quiet(board, tried[-1]) and not board.was_into_check():
        move = tried[-1]
        skip[move.from_square] = skip.get(move.from_square, 0) | chess.BB_SQUARES[move.to_square]
        after = best_quiet_move(board, corner, skip)
        if after is None:
            break
        tried.append(after)
        yield after
    yield from (move for move in _staged(board, winner, corner) if move not in tried)


def _piece_quiet(board: chess.Board, move: chess.Move) -> bool:
    """Is ``move`` a step of a piece (no pawn) onto an empty square (no castling)?"""
    fr, to = move.from_square, move.to_square
    return not (chess.BB_SQUARES[fr] & board.pawns or chess.BB_SQUARES[to] & board.occupied) and (
        not chess.BB_SQUARES[fr] & board.kings or DISTANCE[fr][to] == 1
    )


def _evasions(board: chess.Board, king: chess.Square, checkers: chess.Bitboard) -> chess.Bitboard:
    """In check: where a man other than the king may move (take or block a
    single checker, or take a checking pawn en passant); nowhere in double check."""
    targets = check_targets(king, checkers)
    if targets and board.ep_square is not None:
        targets |= chess.BB_SQUARES[board.ep_square]
    return targets


def _staged(board: chess.Board, winner: chess.Color, corner: int, reach: int = chess.BB_ALL) -> Iterator[chess.Move]:
    """``staged_moves`` from the two stages on (only moves onto ``reach``
    generated, for the winner)."""
    us = board.turn
    promotes = us != winner and needs_loser_promotion(board, winner)  # only the loser's scores read it
    mine = board.occupied_co[us]
    if us == winner:
        them = board.occupied_co[not us]
        pawns = board.pawns & mine
        first = list(board.generate_pseudo_legal_moves(chess.BB_ALL, them & reach))
        first += board.generate_pseudo_legal_moves(pawns, chess.BB_BACKRANKS & ~them & reach)
        threshold = WINNER_FIRST
        rest_gens: tuple[Iterator[chess.Move], ...] = (
            board.generate_pseudo_legal_moves(~pawns, ~them & reach),
            board.generate_pseudo_legal_moves(pawns, ~them & ~chess.BB_BACKRANKS & reach),
        )
    else:
        king = board.kings & mine
        first = list(board.generate_pseudo_legal_moves(king, ~board.occupied_co[not us]))
        threshold = LOSER_FIRST
        # the king's other moves tie with other pieces' moves (its captures
        # with theirs): all are generated again, in generation order
        rest_gens = (board.generate_pseudo_legal_moves(),)
    scored = _scored(board, first, winner, corner, promotes)
    scored.sort(key=_SCORE, reverse=True)  # stable, like the full sort
    deferred: list[tuple[int, int, chess.Move]] = []
    taken: list[chess.Move] = []
    for score, _, move in scored:
        if score >= threshold:
            taken.append(move)
            yield move
        else:
            deferred.append((score, 0, move))
    if us == winner:
        rest = [m for gen in rest_gens for m in gen]
        later = _scored(board, rest, winner, corner, promotes) + deferred
    else:
        rest = [m for m in rest_gens[0] if m not in taken]
        later = _scored(board, rest, winner, corner, promotes)
    if not later:
        return
    # The walk mostly takes the best move and never comes back: find it
    # alone (the first of the highest score, as a stable sort would put it)
    # and sort the others only if asked for them.
    scores = [t[0] for t in later]
    best = scores.index(max(scores))
    yield later.pop(best)[2]
    later.sort(key=_SCORE, reverse=True)
    for _, _, move in later:
        yield move


def dive_moves(
    board: chess.Board, winner: chess.Color, checkers: int | None = None, *, anywhere: bool = False
) -> Iterator[chess.Move]:
    """The order of the dive: ``staged_moves`` for the winner; for the loser,
    where the winner has only pawns, first its pieces' moves onto a square a
    blocked pawn of the winner can take (``_feeding_squares``), then the
    king's quiet steps towards the corner, the other pieces' quiet
    moves as generated, the king's other quiet moves, every capture last.
    ``checkers`` (``board.checkers_mask()``), if given: in check, the other
    pieces' quiet moves that do not block it are left out (all illegal).

    A helpmate's loser mostly has to stay out of the way, and scoring its
    quiet moves cost more than it saved: measured on real-game positions,
    the dive finds shorter lines in less time.  Its king's captures come
    last too: taking the winner's pieces undoes the dive's progress
    (measured: 1.4-1.5x fewer seconds, a third fewer nodes, than with the
    king's captures among its moves).  Where the loser must under-promote
    to a blocker, its full order is kept.  ``anywhere``: towards
    ``mating_corner``'s corner with ``anywhere``.
    """
    if board.turn == winner or needs_loser_promotion(board, winner):
        return staged_moves(board, winner, checkers, anywhere=anywhere)
    return _loser_dive(board, winner, checkers, anywhere)


def dive_moves_anywhere(board: chess.Board, winner: chess.Color, checkers: int | None = None) -> Iterator[chess.Move]:
    """``dive_moves`` towards the nearest corner on either side of the board."""
    return dive_moves(board, winner, checkers, anywhere=True)


def _loser_dive(board: chess.Board, winner: chess.Color, checkers: int | None, anywhere: bool) -> Iterator[chess.Move]:
    """``dive_moves`` for the loser."""
    corner = mating_corner(board, winner, anywhere)
    mine = board.occupied_co[board.turn]
    them = board.occupied_co[not board.turn]
    king = board.kings & mine
    # The king's quiet steps straight from its attack set, in python-chess's
    # generation order (high squares first, castling after the steps).
    castles = list(board.generate_castling_moves()) if board.castling_rights & mine else []
    feed = 0 if checkers else _feeding_squares(board, winner)
    men = mine & ~king  # not ``~king``: with the other king in the mask, python-chess tries castling
    if feed:
        yield from board.generate_pseudo_legal_moves(men, feed)
    yield from _king_steps(king, ~board.occupied & chess.BB_ALL, corner, closer=True)
    for move in castles:
        if DISTANCE[move.to_square][corner] < DISTANCE[move.from_square][corner]:
            yield move
    quiet = ~them & ~feed
    if checkers and not king & (king - 1):  # in check (a single king): block it
        quiet &= _evasions(board, chess.msb(king), checkers)
    if quiet:
        yield from board.generate_pseudo_legal_moves(men, quiet)
    yield from _king_steps(king, ~board.occupied & chess.BB_ALL, corner, closer=False)
    for move in castles:
        if DISTANCE[move.to_square][corner] >= DISTANCE[move.from_square][corner]:
            yield move
    yield from board.generate_pseudo_legal_moves(chess.BB_ALL, them)


def _king_steps(kings: chess.Bitboard, empty: chess.Bitboard, corner: int, *, closer: bool) -> Iterator[chess.Move]:
    """The quiet steps of the king on ``kings`` (one, as a rule) onto
    ``empty``, those nearer ``corner`` or (``closer=False``) the others, in
    python-chess's generation order (high squares first)."""
    while kings:
        fr = kings.bit_length() - 1
        kings ^= chess.BB_SQUARES[fr]
        near = CLOSER[corner][DISTANCE[fr][corner]]
        steps = chess.BB_KING_ATTACKS[fr] & empty & (near if closer else ~near)
        while steps:
            to = steps.bit_length() - 1
            steps ^= chess.BB_SQUARES[to]
            yield chess.Move(fr, to)


def _feeding_squares(board: chess.Board, winner: chess.Color) -> int:
    """Where the loser may put a piece for a blocked pawn of the winner to
    take: the empty squares attacked by the winner's pawns that cannot step,
    when the winner has nothing else (it must promote to mate, and a pawn
    blocked head-on gets free only by a capture)."""
    mine = board.occupied_co[winner] & ~board.kings
    if not mine or mine & ~board.pawns:
        return 0
    white = winner == chess.WHITE
    blocked = (mine << 8 & chess.BB_ALL if white else mine >> 8) & board.occupied
    attacked = 0
    for pawn in chess.scan_forward(blocked >> 8 if white else blocked << 8 & chess.BB_ALL):
        attacked |= chess.BB_PAWN_ATTACKS[winner][pawn]
    return attacked & ~board.occupied


def _scored(
    board: chess.Board, moves: list[chess.Move], winner: chess.Color, corner: int, loser_promotes: bool
) -> list[tuple[int, int, chess.Move]]:
    """``(score, cost, move)`` for each move, unsorted."""
    if board.turn == winner:
        return _winner_scored(board, moves, corner)
    return _loser_scored(board, moves, corner, loser_promotes)


def _winner_scored(board: chess.Board, moves: list[chess.Move], corner: int) -> list[tuple[int, int, chess.Move]]:
    """``_scored`` for the winner (to move)."""
    us = board.turn
    them_bb = board.occupied_co[not us]
    pawns = board.pawns
    scored: list[tuple[int, int, chess.Move]] = []
    lk = board.king(not us)
    if lk is None:
        lk = corner
    # our king aims two squares in front of the corner (h6 for h8).
    kt = chess.square(chess.square_file(corner), 5 if chess.square_rank(corner) == 7 else 2)
    stuck = stuck_squares(us, pawns & them_bb)  # where a double step ends blocked head-on
    for m in moves:
        fr, to = m.from_square, m.to_square
        bb_fr = chess.BB_SQUARES[fr]
        if m.promotion:
            if m.promotion == chess.QUEEN:
                scored.append((100, REWARD, m))
            else:
                scored.append((10 + m.promotion, NORMAL, m))
            continue
        victim = chess.BB_SQUARES[to] & them_bb
        if victim:
            vt = board.piece_type_at(to) or 1
            scored.append((60 + _VALUE[vt], REWARD, m))
            continue
        if bb_fr & pawns:
            rel = chess.square_rank(to) if us == chess.WHITE else 7 - chess.square_rank(to)
            if chess.BB_SQUARES[to] & stuck and abs(to - fr) == 16:  # a double step into a block
                scored.append((STUCK_PAWN + rel, NORMAL, m))
            else:
                scored.append((30 + rel, REWARD if rel >= 4 else NORMAL, m))
            continue
        if bb_fr & board.kings:
            closer = DISTANCE[to][kt] < DISTANCE[fr][kt]
            scored.append((25 if closer else 0, REWARD if closer else NORMAL, m))
            continue
        if bb_fr & board.knights:
            # Fixed target (the corner), so the reward cannot cycle.
            closer = KNIGHT_DISTANCE[to][corner] < KNIGHT_DISTANCE[fr][corner]
            scored.append((28 if closer else 5, REWARD if closer else NORMAL, m))
            continue
        gain = DISTANCE[fr][lk] - DISTANCE[to][lk]
        scored.append((15 + 3 * gain, NORMAL, m))
    return scored


def _loser_scored(
    board: chess.Board, moves: list[chess.Move], corner: int, loser_promotes: bool
) -> list[tuple[int, int, chess.Move]]:
    """``_scored`` for the loser (to move)."""
    them_bb = board.occupied_co[not board.turn]
    pawns = board.pawns
    scored: list[tuple[int, int, chess.Move]] = []
    lk = board.king(board.turn)
    # our blockers aim at the corner's neighbour on the back rank (g8 for h8).
    bt = corner - 1 if chess.square_file(corner) == 7 else corner + 1
    for m in moves:
        fr, to = m.from_square, m.to_square
        bb_fr = chess.BB_SQUARES[fr]
        is_pawn = bb_fr & pawns
        if loser_promotes:
            if is_pawn and m.promotion not in (chess.QUEEN, chess.ROOK):
                bonus = 40 if m.promotion in (chess.KNIGHT, chess.BISHOP) else 20
                scored.append((bonus, REWARD, m))
                continue
        if chess.BB_SQUARES[to] & them_bb or board.is_en_passant(m):
            scored.append((-50, PUNISH, m))  # the king's captures too (see ``dive_moves``)
            continue
        if bb_fr & board.kings:
            if DISTANCE[to][corner] < DISTANCE[fr][corner]:
                scored.append((50, REWARD, m))
            else:
                scored.append((0, PUNISH if loser_promotes else NORMAL, m))
            continue
        if loser_promotes:
            scored.append((-10, PUNISH, m))
            continue
        if bb_fr & board.knights and KNIGHT_DISTANCE[to][bt] < KNIGHT_DISTANCE[fr][bt]:
            scored.append((30, REWARD, m))
            continue
        if DISTANCE[to][corner] == 1 and DISTANCE[fr][corner] > 1:
            scored.append((35, REWARD, m))  # a blocker arrives next to the corner
            continue
        near = lk is not None and DISTANCE[to][lk] == 1
        scored.append((20 if near else 10, NORMAL, m))
    return scored
