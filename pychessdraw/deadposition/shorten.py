# SPDX-License-Identifier: GPL-3.0-or-later
"""Shorten a found helpmate line by taking shortcuts to later positions.

The walk over reachable positions finds *a* mate, often after thousands of
wandering plies.  From each position of the line we look for a legal move
that lands on a position occurring later in the line, and jump to the latest
one.  The result ends in the same mate position; the caller still verifies
it.  Cost: one replay of the line plus one move generation per output ply.
"""

from __future__ import annotations

from collections.abc import Sequence

import chess

from .keys import child_key, key


def shorten(board: chess.Board, line: Sequence[chess.Move]) -> list[chess.Move]:
    """A line from ``board`` to the same final position, usually much shorter."""
    b = board.copy(stack=False)
    index = {key(b): 0}
    for i, move in enumerate(line, 1):
        b.push(move)
        index[key(b)] = i  # the latest occurrence wins
    b = board.copy(stack=False)
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
