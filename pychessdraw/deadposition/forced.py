# SPDX-License-Identifier: GPL-3.0-or-later
"""Forced progress: while the side to move has a single legal move, play it.

Such moves are part of every continuation, so any proof about the position
they lead to holds for the original one, and they may expose a capture of the
last mating piece (a classic trap for material-only tests).
"""

from __future__ import annotations

import itertools
from typing import Final

import chess

MAX_FORCED: Final = 100


def play_forced(
    board: chess.Board, limit: int = MAX_FORCED, first: list[chess.Move] | None = None
) -> tuple[list[chess.Move], bool]:
    """Push forced moves on ``board`` (mutates it); return them, and whether
    the side to move then has a legal move.

    Stops at a position with zero or several legal moves, or after ``limit``.
    ``first``: up to two legal moves of ``board`` as it stands, if the
    caller has generated them already."""
    played: list[chess.Move] = []
    two = first if first is not None else list(itertools.islice(board.generate_legal_moves(), 2))
    while len(two) == 1 and len(played) < limit:
        board.push(two[0])
        played.append(two[0])
        two = list(itertools.islice(board.generate_legal_moves(), 2))
    return played, bool(two)
