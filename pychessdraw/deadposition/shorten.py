# SPDX-License-Identifier: GPL-3.0-or-later
"""Shorten a found helpmate line by taking shortcuts to later positions.

The walk over reachable positions finds *a* mate, often after thousands of
wandering plies.  From each position of the line we look for a legal move
that lands on a position occurring later in the line, and jump to the latest
one.  The result ends in the same mate position; the caller still verifies
it.  A move between two positions is derived from their keys (which
squares the mover left and entered) and checked for legality, so no move
generation is needed; lines over ``LONG`` plies use one move generation per
output ply instead of the pairwise scan.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import chess

from .keys import Key, child_key, key
from .walkboard import WalkBoard

LONG: Final = 400  # above this many plies, the pairwise scan would cost more than move generation


def shorten(board: chess.Board, line: Sequence[chess.Move]) -> list[chess.Move]:
    """A line from ``board`` to the same final position, usually much shorter."""
    b = WalkBoard.of(board)  # its push: the line is played twice
    keys = [key(b)]
    for move in line:
        b.push(move)
        keys.append(key(b))
    if len(line) > LONG:
        return _shorten_by_moves(board, line, keys)
    occupied = [_occupied(k) for k in keys]
    b = WalkBoard.of(board)
    out: list[chess.Move] = []
    i, end = 0, len(line)
    while i < end:
        best_j, best_move = i + 1, line[i]
        here = occupied[i]
        for j in range(end - (end - i + 1) % 2, i + 2, -2):  # an odd distance: the other side to move
            # One move changes the occupied squares in at most four places.
            if (here ^ occupied[j]).bit_count() > 4:
                continue
            shortcut = _move_between(b, keys[i], keys[j])
            if shortcut is not None:
                best_j, best_move = j, shortcut
                break
        b.push(best_move)
        out.append(best_move)
        i = best_j
    return out


def _move_between(b: chess.Board, here: Key, there: Key) -> chess.Move | None:
    """The legal move from ``b`` (whose key is ``here``) to the position
    ``there``, if a plain move or capture leads there (castling and en
    passant are not looked for: a missed shortcut only costs length)."""
    if here[7] == there[7]:  # the same side to move
        return None
    us_here = here[6] if b.turn == chess.WHITE else _occupied(here) & ~here[6]
    us_there = there[6] if b.turn == chess.WHITE else _occupied(there) & ~there[6]
    gone, came = us_here & ~us_there, us_there & ~us_here
    if gone.bit_count() != 1 or came.bit_count() != 1:
        return None
    frm, to = gone.bit_length() - 1, came.bit_length() - 1
    promotion = None
    if here[0] & gone and not there[0] & came:  # a pawn left and no pawn arrived
        promoted = ((chess.KNIGHT, there[1]), (chess.BISHOP, there[2]), (chess.ROOK, there[3]), (chess.QUEEN, there[4]))
        promotion = next((t for t, bb in promoted if bb & came), None)
    move = chess.Move(frm, to, promotion)
    if not b.is_legal(move) or child_key(b, move) != there:
        return None
    return move


def _occupied(k: Key) -> int:
    return k[0] | k[1] | k[2] | k[3] | k[4] | k[5]


def _shorten_by_moves(board: chess.Board, line: Sequence[chess.Move], keys: list[Key]) -> list[chess.Move]:
    """For very long lines: one move generation per output ply."""
    index = {k: i for i, k in enumerate(keys)}  # the latest occurrence wins
    b = WalkBoard.of(board)
    out: list[chess.Move] = []
    i, end = 0, len(line)
    while i < end:
        best_j, best_move = i + 1, line[i]
        for move in b.generate_legal_moves():
            after = child_key(b, move)
            if after is None:
                b.push(move)
                after = key(b)
                b.pop()
            j = index.get(after)
            if j is not None and j > best_j:
                best_j, best_move = j, move
        b.push(best_move)
        out.append(best_move)
        i = best_j
    return out
