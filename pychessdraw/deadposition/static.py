# SPDX-License-Identifier: GPL-3.0-or-later
"""Search-free proofs, cheapest first, and the gate that keeps them cheap."""

from __future__ import annotations

import chess

from .material import material_cannot_mate
from .reach import reach_cannot_mate


def head_on_pawns(board: chess.BaseBoard) -> int:
    """White pawns with a black pawn directly in front (a locked pair)."""
    white = board.pawns & board.occupied_co[chess.WHITE]
    black = board.pawns & board.occupied_co[chess.BLACK]
    return white & (black >> 8)


def wall_candidate(board: chess.BaseBoard, color: chess.Color) -> bool:
    """Cheap gate: could a locked pawn wall keep ``color`` from mating?

    True when ``color`` has pawns and every one of them has a pawn right in
    front: an enemy pawn, or its own pawn stacked behind a locked one (a
    free pawn can usually promote).  Only used to skip the reachability
    proof in ordinary positions; never a proof itself.  The rules' gate
    (``rules.dead.may_be_dead``) uses this same test.
    """
    ours = board.pawns & board.occupied_co[color]
    if not ours:
        return False
    front = (ours << 8) & chess.BB_ALL if color == chess.WHITE else ours >> 8
    return front & board.pawns == front


def reach_applicable(board: chess.Board) -> bool:
    """The reachability proof is refused while an en passant capture is legal."""
    return board.ep_square is None or not board.has_legal_en_passant()


def static_cannot_mate(board: chess.Board, color: chess.Color, *, gated: bool) -> str | None:
    """Material proof, then reachability proof; return the reason or None.

    With ``gated`` the reachability proof (about a millisecond) only runs on
    positions that look locked, so ordinary positions cost microseconds.
    """
    reason = material_cannot_mate(board, color)
    if reason:
        return reason
    if gated and not wall_candidate(board, color):
        return None
    if not reach_applicable(board):
        return None
    return reach_cannot_mate(board, color)
