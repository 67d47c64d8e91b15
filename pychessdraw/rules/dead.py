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

import math
from dataclasses import dataclass

import chess

from ..deadposition import Verdict, can_checkmate, quick_verdict
from ..deadposition.static import wall_candidate
from ..errors import BadRequestError
from .insufficient import cannot_mate


@dataclass(frozen=True)
class SearchBudget:
    """Per side: at most ``nodes`` search nodes and ``seconds`` (None: no
    time limit). ``nodes=0`` runs only the static proofs."""

    nodes: int = 0
    seconds: float | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.nodes, int) or isinstance(self.nodes, bool) or self.nodes < 0:
            raise BadRequestError(f"search nodes must be a whole number >= 0, not {self.nodes!r}"[:200])
        if self.seconds is not None and (
            not isinstance(self.seconds, (int, float))
            or isinstance(self.seconds, bool)
            or not math.isfinite(self.seconds)
            or self.seconds < 0
        ):
            raise BadRequestError(f"search seconds must be a number >= 0 or None, not {self.seconds!r}"[:200])


STATIC = SearchBudget()
PAGE = SearchBudget(nodes=200_000, seconds=0.015)
DEEP = SearchBudget(nodes=5_000_000, seconds=1.0)


def verdicts(board: chess.Board, budget: SearchBudget = STATIC) -> dict[chess.Color, Verdict]:
    """Per side: the static proofs, then (when ``budget.nodes``) the search."""
    out = {}
    for color in chess.COLORS:
        verdict = quick_verdict(board, color)
        if verdict.winnable is None and budget.nodes > 0:
            verdict = can_checkmate(board, color, nodes=budget.nodes, seconds=budget.seconds)
        out[color] = verdict
    return out


def may_be_dead(board: chess.Board) -> bool:
    """A gate of a few bit operations: False when no static proof can show
    the position dead (some side has mating material and a pawn that is not
    blocked head-on, or no pawns at all). Ordinary positions stop here.
    The locked-wall shape is the solver's own gate,
    :func:`pychessdraw.deadposition.static.wall_candidate`."""
    return all(cannot_mate(board, c) or wall_candidate(board, c) for c in chess.COLORS)


def is_dead(found: dict[chess.Color, Verdict]) -> bool:
    return all(v.winnable is False for v in found.values())
