# SPDX-License-Identifier: GPL-3.0-or-later
"""Reachability proof: no piece of the winner can ever mate the loser's king.

We over-approximate, for every piece on the board, the set of squares it can
*ever* stand on in any continuation, as the least fixpoint of rules that are
each necessary for a real move:

* a square permanently holding a piece of colour ``c`` (a "frozen" piece: it
  can neither move nor be captured) is closed to ``c``'s other pieces;
* a king never enters a square that a frozen enemy piece always attacks
  (pawn, knight and king attacks, a slider's adjacent squares);
* a pawn pushes only onto squares not frozen for either colour, captures only
  onto squares some enemy non-king piece can reach (this covers future en
  passant too, since a double step passes through the square), and once it
  can reach its last rank it may become anything and go anywhere;
* a piece stops being frozen once it can leave its square or an enemy piece
  can reach that square (capture).  Kings are never captured.

Sliders are modelled as one-step walkers: a real slide through empty squares
could also have stopped on each of them.  Castling is added explicitly, since
the rook jumps over the king.

From the loser's king region ``R`` (squares it can ever occupy) we prove the
position unwinnable when no winner piece can ever attack a square of ``R``
(slider lines blocked only by frozen pieces), or when only bishops of one
colour can, and every such square has a neighbour of the other colour in
``R`` that neither the winner's king nor enough loser blockers can cover.

Where the winner's only mobile piece is its king, between two squares
(everything else of the winner frozen), the loser's king never steps next
to them: next to the king's square is illegal, and next to the other square
it would leave the winner no legal move, which ends the game without a
mate.  The fixpoint is then taken again with the loser's king kept off
those squares, and used only if it confirms the premise (``_shuffling_king``).
This decides locked positions where the loser's king could otherwise take
the pawns that free the winner, but only at the cost of stalemating it.

Limits: the analysis is refused while an en passant capture is legal (the
captured pawn is not on its square).  It is sound but incomplete: it does
not count tempi, does not track that two pieces cannot share a square, and
treats promoted pawns as able to go everywhere.
"""

from __future__ import annotations

from typing import Final, cast

import chess

from .bitboards import ALL, diag_step, flood, king_step, knight_step, orth_step, pawn_attacks, pawn_push

_STEP: Final = {
    chess.KNIGHT: knight_step,
    chess.BISHOP: diag_step,
    chess.ROOK: orth_step,
    chess.QUEEN: king_step,
    chess.KING: king_step,
}
_LAST_RANK: Final = {chess.WHITE: chess.BB_RANK_8, chess.BLACK: chess.BB_RANK_1}


class _Piece:
    __slots__ = ("square", "bb", "color", "kind", "reach", "promoted")

    def __init__(self, square: int, color: chess.Color, kind: int) -> None:
        self.square = square
        self.bb = chess.BB_SQUARES[square]
        self.color = color
        self.kind = kind
        self.reach = self.bb
        self.promoted = False


def _castling_targets(board: chess.Board, pieces: dict[int, _Piece]) -> None:
    """Add castling destinations to the reach of king and rook (the rook jumps)."""
    rights = board.clean_castling_rights()
    for color in chess.COLORS:
        king = board.king(color)
        if king is None:
            continue
        backrank = chess.BB_RANK_1 if color == chess.WHITE else chess.BB_RANK_8
        for rook in chess.scan_forward(rights & backrank):
            if rook not in pieces or king not in pieces:
                continue
            a_side = rook < king
            rank = chess.square_rank(king)
            king_to = chess.square(2 if a_side else 6, rank)
            rook_to = chess.square(3 if a_side else 5, rank)
            pieces[king].reach |= chess.BB_SQUARES[king_to]
            pieces[rook].reach |= chess.BB_SQUARES[rook_to]


def saturate(
    board: chess.Board, promoter: chess.Color | None = None, keep_out: tuple[chess.Color, int] | None = None
) -> tuple[list[_Piece], list[int]] | None:
    """Compute over-approximated reach sets; return pieces and frozen squares per colour.

    With ``promoter``, return None as soon as a pawn of that colour can
    promote (reach sets only grow, so it could at the fixpoint too).  With
    ``keep_out=(color, squares)``, that colour's king never enters
    ``squares`` (the caller proves that it never can: ``_shuffling_king``).
    """
    kept_color, kept_out = keep_out if keep_out else (None, 0)
    by_square: dict[int, _Piece] = {}
    white = board.occupied_co[chess.WHITE]
    for sq in chess.scan_reversed(board.occupied):  # python-chess's piece_map order; never an empty square
        by_square[sq] = _Piece(sq, bool(white & chess.BB_SQUARES[sq]), cast(chess.PieceType, board.piece_type_at(sq)))
    _castling_targets(board, by_square)
    pieces = list(by_square.values())
    # frozen[c]: squares whose current c-piece has not (yet) been shown able to leave.
    frozen = [board.occupied_co[chess.BLACK], white]
    facing = _facing_pawns(board, by_square)
    # Squares a frozen piece attacks whatever else happens: kings never
    # enter them (this also stops a king from "capturing" a protected piece).
    frozen_attacks = [_permanent_attacks(board, frozen[c], bool(c)) for c in (0, 1)]

    changed = True
    while changed:
        changed = False
        frozen_all = frozen[0] | frozen[1]
        nonking_reach = [0, 0]
        any_reach = [0, 0]
        for p in pieces:
            any_reach[p.color] |= p.reach
            if p.kind != chess.KING:
                nonking_reach[p.color] |= p.reach
        capture = [0, 0]  # squares where colour c could ever capture something
        for p in pieces:
            if p.kind == chess.PAWN and not p.promoted:
                capture[p.color] |= pawn_attacks(p.reach, p.color)
            else:
                capture[p.color] |= p.reach
        for p in pieces:
            c = p.color
            old = p.reach
            if p.kind == chess.PAWN and not p.promoted:
                reach = old
                no_push = frozen_all | _beyond_facing(p, facing.get(p.square), capture)
                while True:
                    grown = reach | (pawn_push(reach, c) & ~no_push) | (pawn_attacks(reach, c) & nonking_reach[not c])
                    if grown == reach:
                        break
                    reach = grown
                if reach & _LAST_RANK[c]:
                    if c == promoter:
                        return None
                    p.promoted = True
                    reach = ALL
            elif p.promoted:
                reach = ALL
            else:
                allowed = ~frozen[c] & ALL
                if p.kind == chess.KING:
                    allowed &= ~frozen_attacks[not c]
                    if c == kept_color:
                        allowed &= ~kept_out
                reach = flood(old, _STEP[p.kind], allowed)
            if reach != old:
                p.reach = reach
                changed = True
        thawed = False
        for p in pieces:
            if not (frozen[p.color] & p.bb):
                continue
            leaves = p.reach != p.bb
            captured = p.kind != chess.KING and (any_reach[not p.color] & p.bb)
            if leaves or captured:
                frozen[p.color] &= ~p.bb
                thawed = changed = True
        if thawed:
            frozen_attacks = [_permanent_attacks(board, frozen[c], bool(c)) for c in (0, 1)]
    return pieces, frozen


def _permanent_attacks(board: chess.Board, squares: int, color: chess.Color) -> int:
    """Squares attacked by the frozen pieces of ``color`` on ``squares``.

    Pawns, knights and kings attack fixed squares; a slider surely attacks
    only its adjacent squares (anything may later stand in between).
    """
    att = pawn_attacks(squares & board.pawns, color) | knight_step(squares & board.knights)
    att |= king_step(squares & board.kings)
    att |= diag_step(squares & (board.bishops | board.queens))
    att |= orth_step(squares & (board.rooks | board.queens))
    return att


def _facing_pawns(board: chess.Board, by_square: dict[int, _Piece]) -> dict[int, _Piece]:
    """Map each pawn's square to the nearest enemy pawn ahead of it on its file."""
    white = board.pawns & board.occupied_co[chess.WHITE]
    black = board.pawns & board.occupied_co[chess.BLACK]
    facing: dict[int, _Piece] = {}
    for sq in chess.scan_forward(white):
        ahead = black & chess.BB_FILES[sq & 7] & ~((2 << sq) - 1)
        if ahead:
            facing[sq] = by_square[(ahead & -ahead).bit_length() - 1]  # the lowest: nearest
    for sq in chess.scan_forward(black):
        ahead = white & chess.BB_FILES[sq & 7] & ((1 << sq) - 1)
        if ahead:
            facing[sq] = by_square[ahead.bit_length() - 1]  # the highest: nearest
    return facing


def _beyond_facing(p: _Piece, q: _Piece | None, capture: list[int]) -> int:
    """Squares of ``p``'s file that ``p`` can never push to because of ``q``.

    Two pawns facing each other on one file can never pass while neither
    ever leaves the file and ``q`` can never be captured on its path: then
    ``p`` stays strictly behind ``q``'s starting square.  Without this rule
    both pawns may step into the gap between them and then "pass" through
    the square the other one vacated.  The condition is re-evaluated on
    every round of the fixpoint, so it only holds if it holds at the end.
    """
    if q is None or p.promoted or q.promoted:
        return 0
    file_bb = chess.BB_FILES[chess.square_file(p.square)]
    if p.reach & ~file_bb or q.reach & ~file_bb or q.reach & capture[p.color]:
        return 0
    rank = chess.square_rank(q.square)
    if p.color == chess.WHITE:
        return file_bb & ~(chess.BB_ALL >> (8 * (8 - rank)))  # ranks >= rank(q)
    return file_bb & ((chess.BB_ALL >> (8 * (7 - rank))) & chess.BB_ALL)  # ranks <= rank(q)


def _attack_set(p: _Piece, blockers: int) -> int:
    """Squares ``p`` could ever attack, with lines blocked only by frozen pieces."""
    if p.promoted:
        return ALL
    att = 0
    if p.kind == chess.PAWN:
        return pawn_attacks(p.reach, p.color)
    if p.kind == chess.KNIGHT:
        return knight_step(p.reach)
    if p.kind == chess.KING:
        return king_step(p.reach)
    for sq in chess.scan_forward(p.reach):
        if p.kind != chess.ROOK:
            att |= chess.BB_DIAG_ATTACKS[sq][chess.BB_DIAG_MASKS[sq] & blockers]
        if p.kind != chess.BISHOP:
            att |= (
                chess.BB_RANK_ATTACKS[sq][chess.BB_RANK_MASKS[sq] & blockers]
                | chess.BB_FILE_ATTACKS[sq][chess.BB_FILE_MASKS[sq] & blockers]
            )
    return att


def reach_cannot_mate(board: chess.Board, winner: chess.Color) -> str | None:
    """Return a reason if reachability proves ``winner`` can never mate, else None.

    The caller must make sure no en passant capture is legal.
    """
    # A pawn of the winner that can promote attacks every square: the
    # escape analysis then never holds, so the fixpoint stops there (most
    # failed proofs in the walk fail so).
    shuffles = [(side, squares) for side in (winner, not winner) if (squares := _shuffling_king(board, side))]
    kept = [saturate(board, winner, keep_out=(not side, squares | king_step(squares))) for side, squares in shuffles]
    # A king kept out only shrinks the reach sets (the fixpoint is monotone):
    # where a kept-out fixpoint promotes a pawn of the winner, the whole one
    # would too, and is not run (the usual case, tested for the same answers).
    saturated = None if None in kept else saturate(board, winner)
    reason = None if saturated is None else _no_mate_within(board, winner, *saturated)
    for (side, squares), with_kept in zip(shuffles, kept, strict=True):
        if reason is None and with_kept is not None:
            reason = _with_shuffling_king(board, winner, side, squares, with_kept)
    return reason


def _with_shuffling_king(
    board: chess.Board, winner: chess.Color, side: chess.Color, squares: int, saturated: tuple[list[_Piece], list[int]]
) -> str | None:
    """The proof again where ``side``'s king shuffles between one or two
    ``squares`` and nothing else of ``side`` moves (the module's docstring):
    ``saturated`` is the fixpoint with the other king kept away from them,
    used if it confirms the premise."""
    if not _only_the_king_moves(*saturated, side, squares):
        return None
    if side != winner and not _approach_never_checks(board, winner, squares, saturated[1]):
        return None
    reason = _no_mate_within(board, winner, *saturated)
    whose = "its own king" if side == winner else "the other king"
    return reason and f"{reason} ({whose} only shuffles between two squares)"


def _shuffling_king(board: chess.Board, side: chess.Color) -> int:
    """The one or two squares ``side``'s king can ever stand on while every
    other piece of ``side`` stays where it is (0 if more, or if the other
    king stands next to them already).

    Then ``side`` moves only that king, between those squares; the other
    king, stepping next to them, would leave it no legal move (next to the
    king's square is illegal; next to the other square, the king cannot go
    there): the game would end, unless ``side`` had moved something else
    first, and the caller checks that it never can.
    """
    king, other = board.king(side), board.king(not side)
    if king is None or other is None:
        return 0
    allowed = ~board.occupied_co[side] & ~_permanent_attacks(board, board.occupied_co[not side], not side) & ALL
    squares = flood(chess.BB_SQUARES[king], king_step, allowed)
    if chess.popcount(squares) > 2 or (squares | king_step(squares)) & chess.BB_SQUARES[other]:
        return 0
    return squares


def _approach_never_checks(board: chess.Board, winner: chess.Color, squares: int, frozen: list[int]) -> bool:
    """Where the loser's king shuffles, the winner's king stepping next to
    it ends the game in stalemate, unless that step checks: a discovered
    check (or castling's rook).  True when no line from the loser's
    squares, open up to the first frozen piece, runs through a square from
    which the winner's king could make that step, for a kind of line some
    winner piece moves along (and the winner cannot castle)."""
    if board.castling_rights & board.occupied_co[winner] or chess.popcount(squares) != 2:
        return False
    diagonal = board.occupied_co[winner] & (board.bishops | board.queens)
    straight = board.occupied_co[winner] & (board.rooks | board.queens)
    blockers = frozen[0] | frozen[1]
    for a in chess.scan_forward(squares):
        b = squares & ~chess.BB_SQUARES[a]
        steps = king_step(b) & ~king_step(chess.BB_SQUARES[a]) & ~squares  # where the step goes: next to b only
        origins = king_step(steps) & ~king_step(chess.BB_SQUARES[a])  # where it comes from (never next to a)
        lines = 0
        if diagonal:
            lines |= chess.BB_DIAG_ATTACKS[a][chess.BB_DIAG_MASKS[a] & blockers]
        if straight:
            lines |= chess.BB_RANK_ATTACKS[a][chess.BB_RANK_MASKS[a] & blockers]
            lines |= chess.BB_FILE_ATTACKS[a][chess.BB_FILE_MASKS[a] & blockers]
        if lines & origins & ~blockers:  # a frozen piece's square is never the king's
            return False
    return True


def _only_the_king_moves(pieces: list[_Piece], frozen: list[int], side: chess.Color, squares: int) -> bool:
    """Does the fixpoint confirm ``_shuffling_king``'s premise: ``side``'s
    king stays on ``squares``, every other piece of ``side`` stays frozen?"""
    for p in pieces:
        if p.color != side:
            continue
        if p.kind == chess.KING:
            if p.reach & ~squares:
                return False
        elif p.reach != p.bb or not frozen[side] & p.bb:
            return False
    return True


def _no_mate_within(board: chess.Board, winner: chess.Color, pieces: list[_Piece], frozen: list[int]) -> str | None:
    """The escape analysis over a fixpoint's reach sets: a reason, or None."""
    loser = not winner
    frozen_all = frozen[0] | frozen[1]
    loser_king = next((p for p in pieces if p.kind == chess.KING and p.color == loser), None)
    winner_king = next((p for p in pieces if p.kind == chess.KING and p.color == winner), None)
    if loser_king is None or winner_king is None:
        return None
    region = loser_king.reach

    checkers: list[_Piece] = []
    check_squares = 0
    attacked = 0  # squares some non-king winner piece could ever attack
    for p in pieces:
        if p.color != winner or p.kind == chess.KING:
            continue
        att = _attack_set(p, frozen_all)
        attacked |= att
        if _never_checks(p, board, loser):
            continue  # still covers escape squares (``attacked``), never checks
        if att & region:
            checkers.append(p)
            check_squares |= att & region
    if not check_squares:
        return "pawns locked; no piece can reach the king"

    # Escape analysis: at a mate on k, every neighbour the king could ever
    # step to must be attacked, covered by the winner's king, or occupied by
    # one of the loser's own pieces (each piece blocks one square).
    blockers = [p.reach for p in pieces if p.color == loser and p.kind != chess.KING]
    king_spots = list(chess.scan_forward(winner_king.reach))
    for k in chess.scan_forward(check_squares):
        near = chess.BB_KING_ATTACKS[k]
        escapes = near & region & ~attacked
        if _coverable(escapes, near | chess.BB_SQUARES[k], king_spots, blockers):
            return None
    if all(p.kind == chess.BISHOP and not p.promoted for p in checkers):
        return "only bishops of one colour can check; the king always has an escape"
    return "the king always has an escape from every reachable check"


def _never_checks(p: _Piece, board: chess.Board, loser: chess.Color) -> bool:
    """An immobile pawn or knight can never give a new check.

    Its attacks never change and the king may not step into them, so it can
    only check a king that is in its attack right now (which we exclude).
    Sliders are different: a discovered line can open.
    """
    if p.promoted or p.kind not in (chess.PAWN, chess.KNIGHT) or p.reach != p.bb:
        return False
    king = board.king(loser)
    return king is None or not board.attacks_mask(p.square) & chess.BB_SQUARES[king]


def _coverable(escapes: int, forbidden: int, king_spots: list[int], blockers: list[int]) -> bool:
    """Can some winner-king square plus distinct loser blockers cover ``escapes``?"""
    if not escapes:
        return True
    options = {0}
    for w in king_spots:
        if not chess.BB_SQUARES[w] & forbidden:
            options.add(chess.BB_KING_ATTACKS[w] & escapes)
    for covered in options:
        if _matchable(escapes & ~covered, blockers):
            return True
    return False


def _matchable(squares: int, blockers: list[int]) -> bool:
    """Can distinct blockers (by reach set) stand on all ``squares``?  (Kuhn matching.)"""
    owner: dict[int, int] = {}  # blocker index -> square

    def place(sq: int, seen: set[int]) -> bool:
        bit = chess.BB_SQUARES[sq]
        for i, reach in enumerate(blockers):
            if reach & bit and i not in seen:
                seen.add(i)
                if i not in owner or place(owner[i], seen):
                    owner[i] = sq
                    return True
        return False

    for sq in chess.scan_forward(squares):
        if not place(sq, set()):
            return False
    return True
