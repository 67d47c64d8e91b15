# SPDX-License-Identifier: GPL-3.0-or-later
"""Forced progress: while the side to move has a single legal move, play it.

Such moves are part of every continuation, so any proof about the position
they lead to holds for the original one, and they may expose a capture of the
last mating piece (a classic trap for material-only tests).
"""

from __future__ import annotations

import itertools

import chess

MAX_FORCED = 100


def play_forced(board: chess.Board, limit: int = MAX_FORCED) -> list[chess.Move]:
    """Push forced moves on ``board`` (mutates it); return them.

    Stops at a position with zero or several legal moves, or after ``limit``.
    """
    played: list[chess.Move] = []
    while len(played) < limit:
        two = list(itertools.islice(board.generate_legal_moves(), 2))
        if len(two) != 1:
            break
        board.push(two[0])
        played.append(two[0])
    return played
