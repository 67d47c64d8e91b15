# SPDX-License-Identifier: GPL-3.0-or-later
"""The walk of ``closure`` in C, where the native build provides it.

``pychessdraw_native`` (``native/``) compiles ``native/walk.c`` beside the
search and sets ``C_WALK`` here, in its own compiled copy of this module;
in pure Python (and in Pyodide) it stays None and ``closure.explore`` walks.
The C walk is ``closure.explore``'s walk (``staged_moves``'s order, depth
first, the same visited set and mate test): from the same position it
tries the same moves and finds the same line, at a fraction of a
microsecond a move instead of several.  What it does not know it asks
here: after each capture or pawn move, whether the new position is proven
without mate (``closure.dead_end``, the Python walk's own test).  Its line
is replayed by python-chess before it is returned.

Limits: not where castling rights remain, nor beyond one king and 16 men a
side (then ``walk`` returns None and the caller walks in Python).  Node counts and lines may differ from the Python
walk's where a pawn stepped two squares (the C walk merges positions that
differ only by an en passant square no pawn can use) and where ``PATIENCE``
stopped asking for proofs (positions walked instead of pruned).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Final

import chess

from .budget import Budget
from .closure import dead_end
from .material import material_cannot_mate
from .verify import verify_line

# Once a proof failed on a pawn structure and count of pieces where none
# was proven, it is not asked there again: a proof costs tens of
# microseconds and a node a fraction of one, and walking a position
# instead of pruning it is as sound.  One failure decides the most hard-set
# questions in the least time (benchmarks/README.md).
PATIENCE: Final = 1
# Set by pychessdraw_native to its ``_walk.walk``; None means: no C walk here.
C_WALK: Callable[..., Any] | None = None


def walk(
    board: chess.Board, winner: chess.Color, budget: Budget, patience: int = PATIENCE, direct: bool = True
) -> tuple[bool | None, list[chess.Move]] | None:
    """``closure.explore(board, winner, budget)`` by the C walk, or None
    where there is none or it does not apply (castling rights; not one king
    a side; more than 16 men a side, as composed positions may have).
    ``patience``: ``PATIENCE``, but for the tests.  ``direct``: the line
    cut short in C (from each of its positions, the furthest one it reaches
    in a move), else the walk's own line, as ``explore`` gives it (raw
    depth-first lines can run to 100,000 plies, slower to replay than to find).

    ``board`` is not modified.  As ``explore``, a line is returned only
    once python-chess has checked it (``verify_line``); one it refused is
    withheld as ``(None, [])``.
    """
    c_walk = C_WALK
    if c_walk is None or board.castling_rights or not _walkable(board):
        return None
    if material_cannot_mate(board, winner):  # as for every position after it (the C walk asks only after captures)
        budget.spend()
        return False, []
    scratch = board.copy(stack=False)
    scratch.halfmove_clock = 0  # the C walk asks only after captures and pawn moves
    scratch.promoted = 0
    asked_proved: dict[tuple[int, int, int], list[int]] = {}

    def asked(
        pawns: int, knights: int, bishops: int, rooks: int, queens: int, kings: int, white: int, turn: int, ep: int
    ) -> bool:
        structure = (pawns, pawns & white, (knights | bishops | rooks | queens).bit_count())
        tally = asked_proved.setdefault(structure, [0, 0])
        if tally[0] >= patience and not tally[1]:
            return False  # not proven: walked instead (as sound, see PATIENCE)
        scratch.pawns, scratch.knights, scratch.bishops = pawns, knights, bishops
        scratch.rooks, scratch.queens, scratch.kings = rooks, queens, kings
        scratch.occupied = pawns | knights | bishops | rooks | queens | kings
        scratch.occupied_co[chess.WHITE] = white
        scratch.occupied_co[chess.BLACK] = scratch.occupied & ~white
        scratch.turn = bool(turn)
        scratch.ep_square = None if ep < 0 else ep
        proved = dead_end(scratch, winner)
        tally[0] += 1
        tally[1] += proved
        return proved

    deadline = budget.deadline
    seconds = 1e9 if deadline is None else max(0.0, deadline - time.perf_counter())
    left = max(0, budget.limit - budget.used)
    found, line, nodes = c_walk(*position_fields(board), int(winner), left, seconds, asked, direct)
    budget.spend(max(1, nodes))
    if not found:
        return found, []
    moves = [chess.Move(fr, to, promotion or None) for fr, to, promotion in line]
    return (True, moves) if verify_line(board, winner, moves) else (None, [])


def _walkable(board: chess.Board) -> bool:
    """One king and at most 16 men a side: the C walk's bounds."""
    return all(
        chess.popcount(board.kings & board.occupied_co[color]) == 1 and chess.popcount(board.occupied_co[color]) <= 16
        for color in chess.COLORS
    )


def position_fields(board: chess.Board) -> tuple[int, int, int, int, int, int, int, int, int]:
    """``board`` as the C walk takes it: the six kinds' bitboards, White's
    men, the side to move (1: White) and the en passant square (-1: none)."""
    ep = -1 if board.ep_square is None else board.ep_square
    pieces = (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings)
    return (*pieces, board.occupied_co[chess.WHITE], int(board.turn), ep)
