"""Threefold (FIDE 9.2, a claim) and fivefold (9.6.1, automatic) repetition.

The history is one position key and one halfmove clock per ply. No position
from before the last pawn move or capture can recur, so every walk goes back
two plies at a time (same side to move) and stops at the clock: the cost is
bounded by 150 plies whatever the length of the game.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence

import chess

from ..position import PositionKey, position_key
from .mate import is_mating_move

CLAIM_COUNT = 3
AUTOMATIC_COUNT = 5


def earlier_plies(keys: Sequence[PositionKey], clocks: Sequence[int], ply: int) -> list[int]:
    """Plies before ``ply`` at which the same position stood, oldest first."""
    key = keys[ply]
    stop = max(0, ply - clocks[ply])
    return [i for i in range(ply - 2, stop - 1, -2) if keys[i] == key][::-1]


def earlier_in(plies: Sequence[int], clocks: Sequence[int], ply: int) -> tuple[int, int]:
    """Where in ``plies`` (the ascending plies at which the position of
    ``ply`` stood: a game's index by position) its earlier occurrences since
    the last irreversible move lie: ``plies[lo:hi]`` are :func:`earlier_plies`.
    Found by bisection, so a count costs no walk even where the clock has
    run far past the 75-move rule (a game replayed past its end)."""
    stop = max(0, ply - clocks[ply])
    return bisect_left(plies, stop), bisect_left(plies, ply)


def twice_seen(keys: Sequence[PositionKey], clocks: Sequence[int], ply: int) -> set[PositionKey]:
    """Keys with the opponent to move that already stood twice since the last
    irreversible move: one reversible move reaching one of them makes a third
    occurrence. Usually empty, which makes the intended-move check free."""
    # After a reversible move the clock is clocks[ply] + 1, so the walk from
    # ply + 1 stops at ply - clocks[ply].
    stop = max(0, ply - clocks[ply])
    seen = Counter(keys[i] for i in range(ply - 1, stop - 1, -2))
    return {k for k, n in seen.items() if n >= CLAIM_COUNT - 1}


def intended_moves(board: chess.Board, targets: set[PositionKey]) -> list[chess.Move]:
    """Legal moves that make the position appear for the third time
    (FIDE 9.2.1.1). ``targets`` comes from :func:`twice_seen`."""
    if not targets:
        return []
    # A quiet move from a to b changes the occupancy by exactly those two
    # squares: compare occupancies first and push only the moves that fit.
    occupied = board.occupied
    fits = {key.occupied for key in targets}
    found = []
    for move in board.generate_legal_moves():
        if board.is_zeroing(move):
            continue  # a pawn move or capture cannot bring back an old position
        if not board.is_castling(move):
            after = occupied & ~chess.BB_SQUARES[move.from_square] | chess.BB_SQUARES[move.to_square]
            if after not in fits:
                continue
        board.push(move)
        try:
            repeats = position_key(board) in targets
        finally:
            board.pop()
        if repeats and not is_mating_move(board, move):  # a mate ends the game first (FIDE 5.1.1)
            found.append(move)
    return found
