"""Dead position (FIDE 5.2.2) decided by search, not by a material table.

For each side: can it checkmate by some series of legal moves? The answer
comes from :mod:`pychessdraw.deadposition`: True with a verified line, False
only when proven, None when the budget ran out. A position is dead only when
both sides are proven unable: a wrong "dead" would end a live game.

Budgets are per side. STATIC runs only the cheap proofs (material, locked
pawn walls), costing microseconds: the scan uses it at every ply. PAGE is the
browser's per-move check (about 30 ms a position); DEEP is for flag falls,
the CLI and the final position of a scanned game (about 1 s a side).
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from ..deadposition import Verdict, can_checkmate, quick_verdict
from ..deadposition.static import static_cannot_mate
from ..deadposition.verdict import unwinnable
from .material import cannot_mate


@dataclass(frozen=True)
class SearchBudget:
    nodes: int = 0
    seconds: float | None = None


STATIC = SearchBudget()
PAGE = SearchBudget(nodes=200_000, seconds=0.015)
DEEP = SearchBudget(nodes=5_000_000, seconds=1.0)


def pawns_all_blocked(board: chess.Board, color: chess.Color) -> bool:
    """Every pawn of ``color`` has a pawn (of either colour) right in front:
    the shape of a locked wall, e.g. a4-a5 against a6. A side without pawns
    never passes: its pieces roam free."""
    ours = board.pawns & board.occupied_co[color]
    if not ours:
        return False
    front = (ours << 8) & chess.BB_ALL if color == chess.WHITE else ours >> 8
    return front & board.pawns == front


def verdicts(board: chess.Board, budget: SearchBudget = STATIC) -> dict[chess.Color, Verdict]:
    out = {}
    for color in chess.COLORS:
        verdict = quick_verdict(board, color)
        if verdict.winnable is None and budget.nodes > 0:
            verdict = can_checkmate(board, color, nodes=budget.nodes, seconds=budget.seconds)
        elif verdict.winnable is None and pawns_all_blocked(board, color):
            # The solver's own gate wants each pawn blocked by an enemy pawn;
            # pawns stacked behind a locked one are just as stuck.
            reason = static_cannot_mate(board, color, gated=False)
            if reason:
                verdict = unwinnable(0, reason)
        out[color] = verdict
    return out


def may_be_dead(board: chess.Board) -> bool:
    """A gate of a few bit operations: False when no static proof can show
    the position dead (some side has mating material and a pawn that is not
    blocked head-on, or no pawns at all). Ordinary positions stop here."""
    return all(cannot_mate(board, c) or pawns_all_blocked(board, c) for c in chess.COLORS)


def is_dead(found: dict[chess.Color, Verdict]) -> bool:
    return all(v.winnable is False for v in found.values())
