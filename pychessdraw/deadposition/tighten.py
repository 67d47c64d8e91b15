# SPDX-License-Identifier: GPL-3.0-or-later
"""A shorter mating line for people to read, where one is cheap to find.

The dive finds a helpmate in a few dozen nodes by walking the loser's king
to a corner and capturing on the way, so its lines run to 20 or 60 plies
where a mate in a few moves exists.  A proof shown to a player (the banner
of a flag fall) reads better short.  The iterative-deepening search finds
short lines first; with a small budget it gives a shorter line for most
of the long ones of real games, in a few milliseconds (benchmarks/README.md).
The line returned is never longer than the one given, and
python-chess has checked it.

Not used by the searches themselves (a proof line's length does not change
a verdict): only where a line is shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import chess

from .budget import Budget
from .helpmate import HelpmateSearch
from .verify import verify_line

SHORT: Final = 12  # plies: a line this short is left as it is
NODES: Final = 2_000  # the search's budget (a few milliseconds)
# With many men a node costs far more (about a second for 2,000 nodes in the
# start position): there the search gets a few hundred nodes, enough for the
# short helpmates of an opening, so that the line is shown at once.
MANY_MEN: Final = 12
MANY_MEN_NODES: Final = 200
MAX_DEPTH: Final = 10


def tighten(board: chess.Board, color: chess.Color, line: Sequence[chess.Move], nodes: int = NODES) -> list[chess.Move]:
    """A line from ``board`` ending in ``color``'s mate, no longer than
    ``line`` (itself such a line), shorter where the search finds one
    within ``nodes`` (at most ``MANY_MEN_NODES`` with over ``MANY_MEN`` men)."""
    if len(line) <= SHORT:
        return list(line)
    if chess.popcount(board.occupied) > MANY_MEN:
        nodes = min(nodes, MANY_MEN_NODES)
    search = HelpmateSearch(board.copy(stack=False), color, Budget(nodes, None))
    if search.run(MAX_DEPTH) and len(search.path) < len(line) and verify_line(board, color, search.path):
        return list(search.path)
    return list(line)


def tighten_san(board: chess.Board, color: chess.Color, line: Sequence[str], nodes: int = NODES) -> list[str]:
    """``tighten`` for a line in SAN (as the status reports give it)."""
    if len(line) <= SHORT:
        return list(line)
    replay = board.copy(stack=False)
    moves = []
    for san in line:
        moves.append(replay.push_san(san))
    shorter = tighten(board, color, moves, nodes)
    if len(shorter) == len(moves):
        return list(line)
    replay = board.copy(stack=False)
    out = []
    for move in shorter:
        out.append(replay.san_and_push(move))
    return out
